"""CAP static volumes on demand, as a link of the source chain.

In a lookup it downloads the volumes of the citations still unanswered into the local corpus and asks the
corpus again (only volume paths leave the machine); for a case the citation index resolved (metadata only)
it gives the text from the volume of one of the case's citations, when the names agree. The downloading
itself is ``cap_fetch.CapFetcher``'s.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from citecheck.sources.corpus import CorpusSource
from citecheck.sources.models import CaseRecord, CiteKey, OpinionText
from citecheck.sources.reporters import normalise_reporter

if TYPE_CHECKING:
    from citecheck.sources.cap_fetch import CapFetcher
    from citecheck.sources.chain import LookupWalk, SourceChain

#: How well a volume's case must be named like the record to give it its text (``name_keys.name_score``).
SAME_NAME = 0.5


class CapVolumes:
    """Downloads CAP volumes into the chain's local corpus (the first ``CorpusSource`` of the chain)."""

    name = "cap"
    label = "CAP volume download"

    def __init__(self, fetcher: CapFetcher) -> None:
        self.fetcher = fetcher
        self._chain: SourceChain | None = None

    @property
    def description(self) -> str:
        return f"CAP volume download ({self.fetcher.base_url})"

    def joined(self, chain: SourceChain) -> None:
        self._chain = chain

    @property
    def corpus(self) -> CorpusSource | None:
        return self._chain.find(CorpusSource) if self._chain is not None else None

    def holds(self, record: CaseRecord) -> bool:
        """The cases a metadata link of the chain resolved (CourtListener clusters): their text may be in
        a CAP volume of one of their citations."""
        return (
            record.source == "courtlistener"
            and self._chain is not None
            and any(getattr(link, "metadata_only", False) for link in self._chain.links)
        )

    # ------------------------------------------------------------------ lookup
    async def step(self, walk: LookupWalk) -> None:
        """Download the volumes of the keys left, then ask the corpus again about those keys."""
        corpus, todo = self.corpus, walk.todo
        if corpus is None or not todo:
            return
        fetched = await self._fetch(corpus, todo, walk)
        if fetched:
            again = [k for k in todo if (normalise_reporter(k.reporter), k.volume) in fetched]
            await walk.ask(corpus, again, anew=True)

    async def _fetch(
        self, corpus: CorpusSource, keys: list[CiteKey], walk: LookupWalk
    ) -> set[tuple[str, str]]:
        wanted = sorted({(normalise_reporter(k.reporter), k.volume) for k in keys})
        volumes = [(r, v) for r, v in wanted if not await corpus.has_volume(r, v, "cap")]
        if not volumes:
            return set()
        outcome = await self.fetcher.fetch_and_import(volumes, corpus.corpus)
        for k in keys:
            why = outcome.failures.get((normalise_reporter(k.reporter), k.volume))
            if why:
                walk.note(k, why)
        return set(outcome.imported)

    # ------------------------------------------------------------------ text
    async def opinion(self, record: CaseRecord) -> OpinionText | None:
        """Fetch the volume of one of the record's citations, then read the same case from the corpus (its
        name must agree)."""
        from citecheck.sources.name_keys import name_score

        corpus = self.corpus
        if corpus is None:
            return None
        for cite in record.citations:
            reporter = normalise_reporter(cite.reporter)
            outcome = await self.fetcher.fetch_and_import([(reporter, cite.volume)], corpus.corpus)
            if (reporter, cite.volume) not in outcome.imported:
                continue
            found = (await corpus.lookup([cite.key])).get(cite.key)
            cap = found.record if found is not None else None
            if cap is None or name_score(record.name, cap.names) < SAME_NAME:
                continue
            text = await corpus.opinion(cap)
            if text is not None:
                return replace(text, case_id=record.id)
        return None

    async def close(self) -> None:
        await self.fetcher.close()
