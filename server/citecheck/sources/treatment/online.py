"""Online treatment: CourtListener's search of the opinions citing a case, read for negative treatment.

For a cited case the treatment data on this machine say nothing of, with a CourtListener token and
``treatment_online`` on: one search per citation (``CourtListenerClient.search_citing``: the citation string
and fixed words, nothing of the draft), paced by ``sources/pacing.py`` like every request to CourtListener,
its answer kept in the cache for 30 days. It is the allowance's last claim: a search goes only when it
needs no wait and leaves at least half of every request window (``Pacer.spare``) to the lookups that verify
citations — which come first in a check, and the next document's after it. The snippets are read by
``treatment/language.py``; a statement counts only when its treated case is the searched citation. What a
search snippet says is read by a rule from a fragment: the basis is ``courtlistener-search`` — a warning at
most. At most ``MAX_SEARCHES`` citations a document, in the order they are cited; the allowance running out
ends the searching, silently (no treatment is never proof of good law, and never an error).
"""

from __future__ import annotations

import html
import logging
import re
from collections.abc import Sequence
from typing import Any

from citecheck.errors import CitecheckError
from citecheck.extract import extract_citations
from citecheck.sources.models import CiteKey
from citecheck.treatment.models import Basis, CaseRef, Treatment

log = logging.getLogger(__name__)

#: Citations searched at most per call (a document): each search is a request of the user's allowance.
MAX_SEARCHES = 8
SOURCE = "CourtListener's search of the opinions citing it (online)"
_TAG = re.compile(r"<[^>]{0,200}>")


def _ref(result: dict[str, Any]) -> CaseRef | None:
    name = result.get("caseName")
    if not isinstance(name, str) or not name:
        return None
    raw = result.get("citation")
    cites = [c for c in raw if isinstance(c, str)] if isinstance(raw, list) else []
    filed = result.get("dateFiled")
    date = filed if isinstance(filed, str) else ""
    return CaseRef(
        name=name,
        citation=cites[0] if cites else None,
        year=int(date[:4]) if date[:4].isdigit() else None,
        court=result.get("court_id") if isinstance(result.get("court_id"), str) else None,
        url=result.get("absolute_url") if isinstance(result.get("absolute_url"), str) else None,
    )


def read_results(key: CiteKey, results: Sequence[dict[str, Any]]) -> list[Treatment]:
    """The treatments of the case at ``key`` that the results' snippets state (the treated case must be the
    searched citation; the treating one is the snippet's named case, or the citing opinion's own act)."""
    from citecheck.treatment.language import statements  # the link is opened offline too: import on use

    out: list[Treatment] = []
    for result in results:
        citing = _ref(result)
        for snippet in result.get("snippets") or ():
            if not isinstance(snippet, str):
                continue
            text = " ".join(html.unescape(_TAG.sub("", snippet)).split())
            ex = extract_citations(text)
            for st in statements(text, ex):
                target = ex.citations[st.target]
                group = [c for c in ex.citations if c.group == target.group and c.key is not None]
                if not any(CiteKey(*c.key) == key for c in group if c.key):
                    continue
                actor = ex.citations[st.actor] if st.actor is not None else None
                treating = citing if st.by_self else (
                    CaseRef(name=actor.case_name.text if actor.case_name else actor.text, citation=actor.cite_string,
                            year=actor.year) if actor is not None else None
                )  # fmt: skip
                out.append(
                    Treatment(
                        cited=CaseRef(
                            name=target.case_name.text if target.case_name else str(key), citation=str(key)
                        ),
                        treating=treating,
                        kind=st.kind,
                        whole=st.whole,
                        basis=Basis.SEARCH,
                        quote=" ".join(text[st.sentence.start : st.sentence.end].split())[:600],
                        quoted_from=citing,
                        source=SOURCE,
                        url=citing.url if citing is not None else None,
                    )
                )
    return out


class TreatmentSearch:
    """The online treatment link (capability ``treatment``; not local: it sends citation strings)."""

    name = "courtlistener-treatment"
    label = "CourtListener's treatment search"
    local = False
    sources = (SOURCE,)

    def __init__(self, client: Any, cache: Any | None = None, *, limit: int = MAX_SEARCHES) -> None:
        self.client = client
        self.cache = cache
        self.limit = limit
        self.chain: Any | None = None

    @property
    def description(self) -> str:
        return "treatment search (CourtListener, paced)"

    def joined(self, chain: Any) -> None:
        self.chain = chain

    async def _known_here(self, keys: Sequence[CiteKey]) -> set[CiteKey]:
        """The keys the treatment data on this machine already answer (no request spent on them)."""
        from citecheck.sources.treatment.source import TreatmentSource

        local = self.chain.find(TreatmentSource) if self.chain is not None else None
        return set(await local.treatment(keys)) if local is not None else set()

    async def treatment(self, keys: Sequence[CiteKey]) -> dict[CiteKey, tuple[Treatment, ...]]:
        known = await self._known_here(keys)
        out: dict[CiteKey, tuple[Treatment, ...]] = {}
        for key in [k for k in dict.fromkeys(keys) if k not in known][: self.limit]:
            results = await self._results(key)
            if results is None:
                break  # the allowance or the service is gone for now: stop asking
            found = read_results(key, results)
            if found:
                out[key] = tuple(found)
        return out

    async def _results(self, key: CiteKey) -> list[dict[str, Any]] | None:
        if self.cache is not None:
            try:
                cached = await self.cache.get_treatment_search(str(key))
            except CitecheckError:
                cached = None
            if cached is not None:
                return cached
        try:
            results: list[dict[str, Any]] = await self.client.search_citing(str(key))
        except CitecheckError as exc:
            log.info("treatment search for %s not done: %s", key, exc)
            return None
        if self.cache is not None:
            try:
                await self.cache.put_treatment_search(str(key), results)
            except CitecheckError as exc:
                log.warning("could not keep the treatment search: %s", exc)
        return results

    async def close(self) -> None:
        """The client and the cache are their own links: they close themselves."""


async def open_treatment_search(o: object) -> TreatmentSearch | None:
    """The link's opener (``sources/links.py``): with CourtListener on (a token, not offline) and
    ``treatment_online``."""
    from citecheck.sources.links import Opening

    assert isinstance(o, Opening)
    if o.settings.offline or not o.settings.treatment_online:
        return None  # before importing the client: httpx is no part of an offline check (issue 40)
    from citecheck.sources.cache import Cache
    from citecheck.sources.courtlistener import CourtListenerClient

    client = o.find(CourtListenerClient)
    if client is None:
        return None
    return TreatmentSearch(client, o.find(Cache))


__all__ = ["MAX_SEARCHES", "TreatmentSearch", "open_treatment_search", "read_results"]
