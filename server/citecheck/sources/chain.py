"""The source chain: local corpus → citation index → cache → CAP volume download → CourtListener; and
the statute index.

The pipeline only ever talks to this. Each link answers what it can; a definitive answer (FOUND,
AMBIGUOUS, or NOT_FOUND from a source that covers the volume) stops the walk; everything else
falls through and, if nothing covers the citation, ends as CANNOT_VERIFY with every link's reason.
A failing link (network down, corrupt file, throttled) is a reason, never a NOT_FOUND.

Statute and regulation citations are answered by the statute index alone (``lookup_statutes``):
a local file, no network, so no order to keep.

``open_source(settings)`` builds the chain the settings ask for; ``SourceChain(...)`` takes explicit
parts, for tests and for embedding.
"""

from __future__ import annotations

import asyncio
import logging
import sqlite3
import zlib
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from dataclasses import replace
from typing import TYPE_CHECKING

from citecheck.config import Settings, default_corpus_path, token_refusal
from citecheck.errors import CitecheckError, CorpusError, TextNotHere
from citecheck.sources.base import AuthoritySource
from citecheck.sources.corpus import CorpusSource, open_for_check
from citecheck.sources.models import (
    CaseRecord,
    CiteKey,
    LookupResult,
    LookupStatus,
    NameHit,
    NameSearch,
    OpinionText,
    PassageHit,
)
from citecheck.sources.reporters import is_database, normalise_reporter

if TYPE_CHECKING:
    from citecheck.sources.cache import Cache
    from citecheck.sources.cap_fetch import CapFetcher
    from citecheck.sources.cap_ranges import CapRanges
    from citecheck.sources.index.source import IndexSource, IndexWatch
    from citecheck.sources.pacing import WorkOrder
    from citecheck.sources.statutes.index import StatuteIndex, StatuteKeyLike
    from citecheck.sources.statutes.records import SectionRecord, StatuteAnswer

log = logging.getLogger(__name__)

_DEFINITIVE = (LookupStatus.FOUND, LookupStatus.AMBIGUOUS, LookupStatus.NOT_FOUND)


def _join(*reasons: str) -> str:
    seen: list[str] = []
    for r in reasons:
        if r and r not in seen:
            seen.append(r)
    return "; ".join(seen)


class SourceChain:
    """An AuthoritySource made of optional links; see the module docstring for the order."""

    name = "chain"

    def __init__(
        self,
        *,
        corpus: CorpusSource | None = None,
        index: IndexSource | None = None,
        cache: Cache | None = None,
        cap_fetcher: CapFetcher | None = None,
        remote: AuthoritySource | None = None,
        remote_off_reason: str = "",
        say_missing_text: bool = True,
        statutes: StatuteIndex | None = None,
        index_watch: IndexWatch | None = None,
        name_search_online: bool = True,
        ranges: CapRanges | None = None,
    ) -> None:
        #: ``say_missing_text``: a case only the citation index knows raises SourceUnavailable from
        #: ``opinion`` (so quote and pin checks say they were not run); a view that answers only from
        #: this machine before the full chain does (the language server's first stage) passes False
        self.say_missing_text = say_missing_text
        self.statutes = statutes
        self.corpus = corpus
        self.index = index
        self.cache = cache
        self.cap_fetcher = cap_fetcher
        self.remote = remote
        self.remote_off_reason = remote_off_reason
        #: a long-running process started before the citation index existed: it is used once it does
        self.index_watch = index_watch
        #: the remote's name search may be asked (``settings.name_search_online``): the case name of a
        #: citation a finding calls wrong then goes to CourtListener (docs/sources.md, "Name search")
        self.name_search_online = name_search_online
        #: CAP's page ranges as evidence for the pages the other links could not find (the evidence rule)
        self.ranges = ranges

    async def watch_index(self) -> bool:
        """Take up the citation index if it appeared since this chain was opened; True if it did now."""
        if self.index is not None or self.index_watch is None:
            return False
        self.index = await self.index_watch.poll()
        return self.index is not None

    # ------------------------------------------------------------------ AuthoritySource
    async def lookup(self, keys: Sequence[CiteKey]) -> dict[CiteKey, LookupResult]:  # noqa: C901
        await self.watch_index()
        wanted = list(dict.fromkeys(keys))
        results: dict[CiteKey, LookupResult] = {}
        partial: dict[CiteKey, LookupResult] = {}  # CANNOT_VERIFY answers so far (reasons, containing)
        todo: list[CiteKey] = []
        for k in wanted:
            if is_database(normalise_reporter(k.reporter)):
                results[k] = LookupResult(
                    key=k,
                    status=LookupStatus.CANNOT_VERIFY,
                    reason=f"{k.reporter} is a Westlaw/Lexis database citation; no public source covers it",
                )
            else:
                todo.append(k)

        # The local corpus first: it is microseconds away and a fresh import must win over a cached
        # remote answer; the cache holds only remote answers, so asking it second loses nothing.
        todo = await self._ask_corpus(todo, results, partial)
        # the citation index next: local, metadata only, definitive for what it holds (a NOT_FOUND only
        # in a volume it holds in full); what it cannot verify goes on down the chain with its reason
        todo = await self._ask_index(todo, results, partial)

        if self.cache is not None and todo:
            try:
                cached = await self.cache.get_lookups(todo)
            except CitecheckError as exc:
                log.warning("lookup cache unavailable: %s", exc)
                cached = {}
            for k, r in cached.items():
                prev = partial.pop(k, None)
                if r.status is LookupStatus.CANNOT_VERIFY and prev is not None:
                    r = replace(
                        r, reason=_join(prev.reason, r.reason), containing=r.containing or prev.containing
                    )
                results[k] = r
            todo = [k for k in todo if k not in cached]

        if self.cap_fetcher is not None and todo and self.corpus is not None:
            fetched = await self._fetch_cap(todo, partial)
            if fetched:
                again = [k for k in todo if (normalise_reporter(k.reporter), k.volume) in fetched]
                rest = await self._ask_corpus(again, results, partial)
                todo = [k for k in todo if k not in again or k in rest]

        if todo:
            if self.remote is not None:
                try:
                    remote = await self.remote.lookup(todo)
                except CitecheckError as exc:
                    for k in todo:
                        self._note(partial, k, f"{self.remote.name} unavailable: {exc}")
                except Exception as exc:  # a bug in one source must not sink the whole check
                    log.exception("%s lookup failed", self.remote.name)
                    for k in todo:
                        self._note(partial, k, f"{self.remote.name} failed ({exc.__class__.__name__})")
                else:
                    fresh = {}
                    for k in todo:
                        answer = remote.get(k)
                        if answer is None:
                            self._note(partial, k, f"{self.remote.name} returned no answer")
                            continue
                        r = answer
                        if r.status in _DEFINITIVE:
                            prev = partial.get(k)
                            if prev is not None and prev.containing is not None and r.containing is None:
                                r = replace(r, containing=prev.containing)
                            results[k] = fresh[k] = r
                        else:
                            self._note(partial, k, r.reason or f"{self.remote.name} could not verify it", r)
                            if r.source and r.reason:
                                # a coverage fact (e.g. 404 in a volume CourtListener holds only in part) is
                                # worth caching briefly; a transient failure comes with source=None and is not
                                fresh[k] = r
                    if self.cache is not None and fresh:
                        try:
                            await self.cache.put_lookups(fresh.values())
                        except CitecheckError as exc:
                            log.warning("could not write lookup cache: %s", exc)
            elif self.remote_off_reason:
                for k in todo:
                    self._note(partial, k, self.remote_off_reason)

        for k in wanted:
            if k not in results:
                prev = partial.get(k)
                results[k] = prev or LookupResult(
                    key=k, status=LookupStatus.CANNOT_VERIFY, reason="no source covers this citation"
                )
        if self.ranges is not None:
            await self._page_ranges(results)
        return {k: results[k] for k in wanted}

    async def _page_ranges(self, results: dict[CiteKey, LookupResult]) -> None:
        """CAP's page ranges as evidence (``cap_ranges``, the evidence rule): for a page no source found,
        the CAP case it lies in and the CAP cases that begin on it; for a page that may hold decisions the
        source does not list (``page_shared``), the others CAP lists there."""
        assert self.ranges is not None
        asked = [
            k
            for k, r in results.items()
            if r.status in (LookupStatus.NOT_FOUND, LookupStatus.CANNOT_VERIFY)
            or (r.status is not LookupStatus.NOT_FOUND and r.page_shared)
        ]
        if not asked:
            return
        fetch = [k for k in asked if results[k].status is not LookupStatus.CANNOT_VERIFY]
        try:
            found = await self.ranges.evidence(asked, fetch=fetch)
        except Exception:  # evidence is a bonus: a failure leaves the answers as they were
            log.exception("CAP page ranges failed")
            return
        for k, ev in found.items():
            r = results[k]
            if r.status in (LookupStatus.FOUND, LookupStatus.AMBIGUOUS):
                held = {x.name for x in r.records}
                more = tuple(x for x in ev.beginning if x.name not in held)
                if more:  # several decisions on one page (#336): the name is compared with every one
                    results[k] = replace(r, status=LookupStatus.AMBIGUOUS, records=(*r.records, *more),
                                         page_shared=False)  # fmt: skip
                elif ev.beginning:
                    results[k] = replace(r, page_shared=False)  # CAP lists no other case there
                continue
            if ev.beginning:
                # CAP lists a case beginning here that the other sources lack
                results[k] = LookupResult(
                    key=k,
                    status=LookupStatus.FOUND if len(ev.beginning) == 1 else LookupStatus.AMBIGUOUS,
                    records=ev.beginning,
                    source="cap",
                    reason=_join(f"found in {ev.source}", r.reason),
                    volume_complete=r.volume_complete,
                )
            elif ev.containing is not None and (r.containing is None or r.containing.id != ev.containing.id):
                why = _join(r.reason, f"page ranges from {ev.source}")
                results[k] = replace(r, containing=ev.containing, reason=why)

    async def opinion(self, record: CaseRecord) -> OpinionText | None:
        if self.corpus is not None:
            try:
                op = await self.corpus.opinion(record)
                if op is not None:
                    return op
            except CitecheckError as exc:
                log.warning("corpus unavailable: %s", exc)
        if self.cache is not None:
            try:
                hit = await self.cache.get_opinion(record.id)
                if hit is not None:
                    return hit
            except CitecheckError as exc:
                log.warning("opinion cache unavailable: %s", exc)
        if self.index is not None and record.source == "courtlistener" and self.cap_fetcher is not None:
            op = await self._cap_text(record)
            if op is not None:
                return op
        if self.remote is not None and record.source == "courtlistener":
            # a fetch that failed (or waits for the allowance) raises: the pipeline says so in an
            # opinion-unavailable finding instead of letting quote and pin checks pass unchecked
            op = await self.remote.opinion(record)
            if op is not None and self.cache is not None:
                try:
                    await self.cache.put_opinion(record, op)
                except CitecheckError as exc:
                    log.warning("could not write opinion cache: %s", exc)
            return op
        if self.index is not None and record.source == "courtlistener" and self.say_missing_text:
            # a case the citation index resolved: the index is metadata only, so a quote or pin cite of it
            # is not checked until its text is here; say so instead of passing in silence
            how = self.remote_off_reason or "no source on this machine has its text"
            raise TextNotHere(
                f"the citation index holds no opinion text and it could not be fetched ({how}); "
                "import its volume or set a CourtListener token to check it"
            )
        return None

    async def _cap_text(self, record: CaseRecord) -> OpinionText | None:
        """Text on demand from a CAP static volume: fetch the volume of the record's citation, then read
        the same case from the corpus (its name must agree)."""
        from citecheck.sources.name_keys import name_score

        assert self.cap_fetcher is not None
        if self.corpus is None:
            return None
        for cite in record.citations:
            reporter = normalise_reporter(cite.reporter)
            outcome = await self.cap_fetcher.fetch_and_import([(reporter, cite.volume)], self.corpus.corpus)
            if (reporter, cite.volume) not in outcome.imported:
                continue
            found = (await self.corpus.lookup([cite.key])).get(cite.key)
            cap = found.record if found is not None else None
            if cap is None or name_score(record.name, cap.names) < 0.5:
                continue
            op = await self.corpus.opinion(cap)
            if op is not None:
                return replace(op, case_id=record.id)
        return None

    async def opinion_local(self, record: CaseRecord) -> OpinionText | None:
        """The text from the corpus or the cache only (a candidate's text is worth no request)."""
        for link, what in ((self.corpus, "corpus"), (self.cache, "opinion cache")):
            if link is None:
                continue
            try:
                op = (
                    await self.corpus.opinion(record)
                    if link is self.corpus and self.corpus is not None
                    else await self.cache.get_opinion(record.id)  # type: ignore[union-attr]
                )
            except CitecheckError as exc:
                log.warning("%s unavailable: %s", what, exc)
                continue
            if op is not None:
                return op
        return None

    async def find_passage(self, passage: str, *, limit: int = 5) -> list[PassageHit]:
        hits: list[PassageHit] = []
        for link in (self.corpus, self.cache):
            if link is None or len(hits) >= limit:
                continue
            try:
                more = await link.find_passage(passage, limit=limit - len(hits))
            except CitecheckError as exc:
                log.warning("passage search failed: %s", exc)
                continue
            seen = {h.case.id for h in hits}
            hits.extend(h for h in more if h.case.id not in seen)
        return hits[:limit]

    async def find_by_name(
        self,
        name: str,
        *,
        limit: int = 5,
        court: str | None = None,
        years: tuple[int, int] | None = None,
        remote: bool = True,
    ) -> NameSearch:
        """Cases named ``name``: the local corpus, the citation index, then (``remote`` and a token)
        CourtListener's search, paced like every request to it. A failing link is a note in ``failed``,
        never an error. The draft's court is not a filter (it may be the slip); its years only widen."""
        await self.watch_index()
        hits: list[NameHit] = []
        asked: list[str] = []
        failed: list[str] = []
        covering: str | None = None
        links: list[tuple[str, object]] = []
        if self.corpus is not None:
            links.append(("the local corpus", self.corpus))
        if self.index is not None:
            links.append(("the citation index", _IndexNames(self.index)))
        if (
            remote
            and self.name_search_online
            and self.remote is not None
            and hasattr(self.remote, "find_by_name")
        ):
            links.append((self.remote.name, self.remote))
        for label, link in links:
            try:
                found: NameSearch = await link.find_by_name(  # type: ignore[attr-defined]
                    name, limit=limit, court=court, years=years
                )
            except CitecheckError as exc:
                failed.append(f"{label}: {exc}")
                continue
            except Exception as exc:  # a bug in one source must not sink the check
                log.exception("name search in %s failed", label)
                failed.append(f"{label} failed ({exc.__class__.__name__})")
                continue
            asked.append(label)
            hits.extend(h for h in found.hits if not any(_same_case(h.record, k.record) for k in hits))
            covering = covering or found.covering
        hits.sort(key=lambda h: -h.score)
        return NameSearch(
            hits=tuple(hits[:limit]), asked=tuple(asked), covering=covering, failed="; ".join(failed) or None
        )

    async def lookup_local(self, keys: Sequence[CiteKey]) -> dict[CiteKey, LookupResult]:
        """``lookup`` from the corpus and the cache only: no download, no request to a service."""
        results: dict[CiteKey, LookupResult] = {}
        partial: dict[CiteKey, LookupResult] = {}
        todo = await self._ask_corpus(list(dict.fromkeys(keys)), results, partial)
        todo = await self._ask_index(todo, results, partial)
        if self.cache is not None and todo:
            try:
                results.update(await self.cache.get_lookups(todo))
            except CitecheckError as exc:
                log.warning("lookup cache unavailable: %s", exc)
        for k in keys:
            if k not in results:
                results[k] = partial.get(k) or LookupResult(
                    key=k, status=LookupStatus.CANNOT_VERIFY, reason="not held on this machine"
                )
        return results

    async def lookup_statutes(
        self, keys: Sequence[StatuteKeyLike], *, as_of: str | None = None
    ) -> dict[StatuteKeyLike, StatuteAnswer]:
        """Each statute or regulation key as the statute index answers it (NOT_COVERED without one).

        Never raises: an index that fails is every key NOT_COVERED with the reason (never NOT_FOUND)."""
        from citecheck.sources.statutes.records import LookupOutcome, StatuteAnswer

        if self.statutes is None:
            why = "no statute index (run: citecheck corpus sync --statutes)"
            return {k: StatuteAnswer(outcome=LookupOutcome.NOT_COVERED, reason=why) for k in keys}
        out: dict[StatuteKeyLike, StatuteAnswer] = {}
        for k in dict.fromkeys(keys):
            try:
                out[k] = self.statutes.lookup(k, as_of=as_of)
            except (CitecheckError, sqlite3.Error) as exc:
                log.warning("statute index unavailable: %s", exc)
                out[k] = StatuteAnswer(
                    outcome=LookupOutcome.NOT_COVERED, reason=f"statute index unavailable: {exc}"
                )
        return out

    async def statute_text(self, record: SectionRecord) -> str | None:
        """The section's text from the statute index (None when it cannot be read)."""
        if self.statutes is None:
            return None
        try:
            return self.statutes.text(record)
        except (CitecheckError, sqlite3.Error, zlib.error) as exc:
            log.warning("statute text unavailable: %s", exc)
            return None

    @property
    def work_order(self) -> WorkOrder | None:
        """The order of value the remote source spends its allowance in (``pacing.WorkOrder``), if paced."""
        pacer = getattr(self.remote, "pacer", None)
        return getattr(pacer, "order", None)

    async def clear_cache(self) -> None:
        if self.cache is not None:
            await self.cache.clear()

    def describe(self) -> str:
        parts = []
        if self.corpus is not None:
            parts.append(f"local corpus ({self.corpus.corpus.path})")
        if self.index is not None:
            parts.append(self.index.description)
        if self.cache is not None:
            parts.append(f"cache ({self.cache.path})")
        if self.cap_fetcher is not None:
            parts.append(f"CAP volume download ({self.cap_fetcher.base_url})")
        if self.remote is not None:
            parts.append(getattr(self.remote, "description", self.remote.name))
        elif self.remote_off_reason:
            parts.append(f"CourtListener off: {self.remote_off_reason}")
        if self.statutes is not None:
            parts.append(f"statute index ({self.statutes.path})")
        return " → ".join(parts) if parts else "no sources (every citation will be cannot-verify)"

    async def close(self) -> None:
        meta = self.ranges.fetcher if self.ranges is not None else None
        own = meta if meta is not None and meta is not self.cap_fetcher else None
        for link in (self.remote, self.cap_fetcher, own, self.cache, self.index, self.corpus):
            if link is not None:
                try:
                    await link.close()
                except Exception as exc:  # closing must not mask the real outcome
                    log.debug("error closing %s: %s", link, exc)
        if self.statutes is not None:
            self.statutes.close()

    async def __aenter__(self) -> SourceChain:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    # ------------------------------------------------------------------ helpers
    @staticmethod
    def _note(
        partial: dict[CiteKey, LookupResult], key: CiteKey, reason: str, r: LookupResult | None = None
    ) -> None:
        prev = partial.get(key)
        containing = (prev.containing if prev else None) or (r.containing if r else None)
        partial[key] = LookupResult(
            key=key,
            status=LookupStatus.CANNOT_VERIFY,
            source=(prev.source if prev else None) or (r.source if r else None),
            reason=_join(prev.reason if prev else "", reason),
            containing=containing,
            pending_until=(r.pending_until if r else None) or (prev.pending_until if prev else None),
        )

    async def _ask_corpus(
        self, keys: list[CiteKey], results: dict[CiteKey, LookupResult], partial: dict[CiteKey, LookupResult]
    ) -> list[CiteKey]:
        # the corpus's answer replaces what it said before (it is asked again after a CAP download)
        return await self._ask_local(self.corpus, "local corpus", keys, results, partial, merge=False)

    async def _ask_index(
        self, keys: list[CiteKey], results: dict[CiteKey, LookupResult], partial: dict[CiteKey, LookupResult]
    ) -> list[CiteKey]:
        # the index's reason joins the corpus's ("the local corpus does not cover …; CourtListener …")
        return await self._ask_local(self.index, "citation index", keys, results, partial, merge=True)

    async def _ask_local(
        self,
        link: CorpusSource | IndexSource | None,
        label: str,
        keys: list[CiteKey],
        results: dict[CiteKey, LookupResult],
        partial: dict[CiteKey, LookupResult],
        *,
        merge: bool,
    ) -> list[CiteKey]:
        """Ask one local link; definitive answers go to ``results``, the rest stay to be asked further."""
        if link is None or not keys:
            return keys
        try:
            answers = await link.lookup(keys)
        except CitecheckError as exc:
            for k in keys:
                self._note(partial, k, f"{label} unavailable: {exc}")
            return keys
        left = []
        for k in keys:
            r = answers[k]
            if r.status in _DEFINITIVE:
                results[k] = r
                partial.pop(k, None)
            else:
                if merge:
                    self._note(partial, k, r.reason, r)
                else:
                    partial[k] = r
                left.append(k)
        return left

    async def _fetch_cap(
        self, keys: list[CiteKey], partial: dict[CiteKey, LookupResult]
    ) -> set[tuple[str, str]]:
        assert self.cap_fetcher is not None and self.corpus is not None
        wanted = sorted({(normalise_reporter(k.reporter), k.volume) for k in keys})
        volumes = [(r, v) for r, v in wanted if not await self.corpus.has_volume(r, v, "cap")]
        if not volumes:
            return set()
        outcome = await self.cap_fetcher.fetch_and_import(volumes, self.corpus.corpus)
        for k in keys:
            why = outcome.failures.get((normalise_reporter(k.reporter), k.volume))
            if why:
                self._note(partial, k, why)
        return set(outcome.imported)


#: Years either side of the draft's a name search of the citation index keeps (its year may be the slip).
INDEX_NAME_YEARS = 5


class _IndexNames:
    """The citation index's ``search_names`` as a name-search link: years widened (never the court: the
    draft's may be the slip), hits tagged with their source, and — for an index built from a full dump —
    what it covers, so "no case of that name" can be said as information."""

    def __init__(self, index: IndexSource) -> None:
        self.index = index

    async def find_by_name(
        self, name: str, *, limit: int = 5, court: str | None = None, years: tuple[int, int] | None = None
    ) -> NameSearch:
        wide = (years[0] - INDEX_NAME_YEARS, years[1] + INDEX_NAME_YEARS) if years is not None else None
        found = await self.index.search_names(name, limit=limit, years=wide)
        if not found and wide is not None:
            found = await self.index.search_names(name, limit=limit)
        full = getattr(self.index.index, "full_dump", False)
        return NameSearch(
            hits=tuple(NameHit(record=h.record, score=h.score, source="index") for h in found),
            asked=("the citation index",),
            covering="the citation index built from CourtListener's bulk data" if full else None,
        )


def _same_case(a: CaseRecord, b: CaseRecord) -> bool:
    """One case found by two sources (a CAP record and a CourtListener cluster share a citation)."""
    return a.id == b.id or bool({c.key for c in a.citations} & {c.key for c in b.citations})


#: How long one language-server check waits for CourtListener's allowance before it publishes what
#: it has; the rest is re-checked in the background when the allowance returns.
INTERACTIVE_PATIENCE_S = 2.0


@asynccontextmanager
async def open_source(
    settings: Settings, *, interactive: bool = False, order: WorkOrder | None = None
) -> AsyncIterator[SourceChain]:
    """The chain the settings ask for; always usable (a missing part only narrows coverage).

    ``interactive`` (the language server): no run deadline, but each call waits only briefly for
    CourtListener's allowance. Otherwise (the CLI) the run has ``courtlistener_budget_s``. ``order``
    ranks CourtListener work (the language server: what the user sees first)."""
    chain = await build_from_settings(settings, interactive=interactive, order=order)
    try:
        yield chain
    finally:
        await chain.close()


async def build_from_settings(
    settings: Settings, *, interactive: bool = False, order: WorkOrder | None = None
) -> SourceChain:
    from citecheck.sources.cache import Cache
    from citecheck.sources.cap_fetch import CapFetcher
    from citecheck.sources.courtlistener import CourtListenerClient

    corpus: CorpusSource | None = None
    named = settings.corpus_path.expanduser().resolve() != default_corpus_path().resolve()
    wants_cap = settings.cap_fetch and not settings.offline
    read_only_why: str | None = None
    try:
        opened, read_only_why = await asyncio.to_thread(
            open_for_check, settings.corpus_path, named=named, writable=wants_cap
        )
        corpus = CorpusSource(opened) if opened is not None else None
    except (CorpusError, OSError) as exc:
        if named:  # the user pointed at this corpus: running without it would hide every finding it gives
            text = str(exc)
            raise CorpusError(
                text
                if str(settings.corpus_path) in text
                else f"cannot use the corpus {settings.corpus_path}: {text}"
            ) from exc
        log.warning("local corpus unavailable (%s): %s", settings.corpus_path, exc)
    index = _open_index(settings)
    cache: Cache | None = None
    try:
        cache = await Cache.open(settings.cache_path)
    except (CorpusError, OSError) as exc:
        log.warning("cache unavailable (%s): %s", settings.cache_path, exc)
    cap = None
    if wants_cap and read_only_why is not None and corpus is not None:
        log.warning("%s", read_only_why)
    if wants_cap and corpus is not None and read_only_why is None:
        cap = CapFetcher(
            settings.cap_url,
            timeout_s=settings.http_timeout_s,
            cache=cache,
            budget_s=None if interactive else settings.cap_budget_s,
        )
    from citecheck.sources.cap_ranges import CapRanges

    # CAP's case metadata (page ranges) for the pages no source found: from an imported volume or the
    # cache, or fetched (the metadata file alone) when CAP downloads are allowed
    meta_fetcher = cap
    if wants_cap and meta_fetcher is None:
        meta_fetcher = CapFetcher(settings.cap_url, timeout_s=settings.http_timeout_s, cache=cache,
                                  budget_s=None if interactive else settings.cap_budget_s)  # fmt: skip
    ranges = CapRanges(corpus=corpus, cache=cache, fetcher=meta_fetcher)
    remote = None
    off = ""
    if settings.offline:
        off = "offline mode: CourtListener not consulted"
    elif not settings.courtlistener_token:
        off = "no CourtListener token configured (set CITECHECK_COURTLISTENER_TOKEN)"
    elif refusal := token_refusal(settings.courtlistener_url, settings.token_hosts):
        log.warning("%s", refusal)  # never the token itself
        off = refusal
    else:
        remote = CourtListenerClient(
            settings.courtlistener_url,
            settings.courtlistener_token,
            timeout_s=settings.http_timeout_s,
            request_rates=settings.courtlistener_rates,
            citation_rate=settings.courtlistener_citation_rate,
            budget_s=None if interactive else settings.courtlistener_budget_s,
            patience_s=INTERACTIVE_PATIENCE_S if interactive else None,
            store=cache,
            order=order,
        )
    return SourceChain(
        corpus=corpus,
        index=index,
        cache=cache,
        cap_fetcher=cap,
        remote=remote,
        remote_off_reason=off,
        statutes=await asyncio.to_thread(_open_statutes, settings),
        index_watch=_watch_index(settings) if interactive and index is None else None,
        name_search_online=settings.name_search_online,
        ranges=ranges,
    )


def _open_index(settings: Settings) -> IndexSource | None:
    """The citation index when one was built (``corpus sync``); a broken one is a warning, not a failure."""
    from citecheck.sources.index import files
    from citecheck.sources.index.source import IndexSource

    path = settings.index_path.expanduser()
    if not path.exists() and not files.pending_path(path).exists():
        return None
    try:
        return IndexSource.open(path)
    except CorpusError as exc:
        log.warning("citation index unavailable: %s", exc)
        return None


def _watch_index(settings: Settings) -> IndexWatch:
    """For a long-running process without a usable index: take it up once a sync builds it."""
    from citecheck.sources.index.source import IndexWatch

    return IndexWatch(settings.index_path)


def _open_statutes(settings: Settings) -> StatuteIndex | None:
    """The statute index read-only, when there is one (none yet: statutes stay "not checked")."""
    from citecheck.sources.statutes.index import StatuteIndex

    path = settings.statutes_path.expanduser()
    if not path.exists():
        return None
    try:
        return StatuteIndex(path, readonly=True)
    except CorpusError as exc:
        log.warning("statute index unavailable: %s", exc)
        return None
