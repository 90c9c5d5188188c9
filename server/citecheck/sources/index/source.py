"""The citation index as an AuthoritySource: what the source chain asks between the corpus and the cache.

Metadata only: it answers lookups (and the name search) and never has opinion text; quote and pin
checks get the text of a case it resolved from the rest of the chain (``chain.SourceChain.opinion``).
Calls run in a worker thread so the language server's event loop never waits on SQLite; every few
seconds a call first checks whether a sync swapped in a newer index file, and reopens it if so.
"""

from __future__ import annotations

import asyncio
import logging
import os
import sqlite3
import time
from collections.abc import Sequence
from pathlib import Path

from citecheck.errors import CorpusError
from citecheck.sources import models
from citecheck.sources.index import files
from citecheck.sources.index.lookup import CitationIndex, NameHit
from citecheck.sources.models import CaseRecord, CiteKey, LookupResult, NameSearch, OpinionText, PassageHit

#: How often a call checks for a newer index file (a stat).
REFRESH_EVERY_S = 5.0

log = logging.getLogger(__name__)


#: Years either side of the draft's a name search of the citation index keeps (its year may be the slip).
NAME_YEARS = 5


class IndexSource:
    """The citation index as a link of the source chain: lookups and the name search, no text."""

    name = "index"
    label = "citation index"
    local = True
    #: it resolves cases but holds no text: the chain says so when no other link has a case's text
    metadata_only = True

    def __init__(self, index: CitationIndex) -> None:
        self.index = index
        self._checked = time.monotonic()

    @classmethod
    def open(cls, path: Path) -> IndexSource:
        return cls(CitationIndex(path))

    @property
    def description(self) -> str:
        return f"{self.index.label} ({self.index.path})"

    def holds(self, record: CaseRecord) -> bool:
        return record.source == "courtlistener"  # its records are CourtListener's clusters

    def _maybe_refresh(self) -> None:
        now = time.monotonic()
        if now - self._checked >= REFRESH_EVERY_S:
            self._checked = now
            self.index.refresh()

    def _lookup(self, keys: list[CiteKey]) -> dict[CiteKey, LookupResult]:
        self._maybe_refresh()
        try:
            return self.index.lookup(keys)
        except sqlite3.Error as exc:
            raise CorpusError(f"citation index lookup failed: {exc}") from exc

    async def lookup(self, keys: Sequence[CiteKey]) -> dict[CiteKey, LookupResult]:
        return await asyncio.to_thread(self._lookup, list(keys))

    async def opinion(self, record: CaseRecord) -> OpinionText | None:
        return None  # metadata only

    async def find_passage(self, passage: str, *, limit: int = 5) -> list[PassageHit]:
        return []

    async def search_names(
        self, query: str, *, limit: int = 10, court: str | None = None, years: tuple[int, int] | None = None
    ) -> list[NameHit]:
        def run() -> list[NameHit]:
            self._maybe_refresh()
            try:
                return self.index.search_names(query, limit=limit, court=court, years=years)
            except sqlite3.Error as exc:
                raise CorpusError(f"citation index search failed: {exc}") from exc

        return await asyncio.to_thread(run)

    async def find_by_name(
        self, name: str, *, limit: int = 5, court: str | None = None, years: tuple[int, int] | None = None
    ) -> NameSearch:
        """The chain's name search: years widened (never the court: the draft's may be the slip), hits
        tagged with their source, and — for an index built from a full dump — what it covers, so "no case
        of that name" can be said as information."""
        wide = (years[0] - NAME_YEARS, years[1] + NAME_YEARS) if years is not None else None
        found = await self.search_names(name, limit=limit, years=wide)
        if not found and wide is not None:
            found = await self.search_names(name, limit=limit)
        full = getattr(self.index, "full_dump", False)
        return NameSearch(
            hits=tuple(models.NameHit(record=h.record, score=h.score, source="index") for h in found),
            asked=("the citation index",),
            covering="the citation index built from CourtListener's bulk data" if full else None,
        )

    async def close(self) -> None:
        await asyncio.to_thread(self.index.close)


class IndexWatch:
    """Where the citation index will be, for a process that runs for hours — the language server, the
    Word backend — started before the first ``corpus sync`` (or with an index it could not read: an
    older layout, a broken file). ``poll`` looks at most every ``REFRESH_EVERY_S`` (a stat), opens the
    index once a file is there, and tries a file that failed again only when a sync replaced it.

    In the source chain it is a pending link: the chain puts the index in its place once ``poll`` has it."""

    name = "index"
    label = "citation index"
    local = True
    description = ""  # nothing to describe until it is there

    def __init__(self, path: Path) -> None:
        self.path = Path(path).expanduser()
        self.source: IndexSource | None = None
        self._checked = float("-inf")
        self._failed: tuple[int, int, int] | None = None
        self._lock = asyncio.Lock()

    def _try(self) -> IndexSource | None:
        try:
            st = os.stat(files.current(self.path, promote=False))
        except OSError:
            return None
        ident = (st.st_ino, st.st_mtime_ns, st.st_size)
        if ident == self._failed:
            return None
        try:
            source = IndexSource.open(self.path)
        except CorpusError as exc:
            self._failed = ident
            log.warning("citation index unavailable: %s", exc)
            return None
        log.info("citation index found: %s", source.description)
        return source

    async def poll(self) -> IndexSource | None:
        """The index once it exists (the same object for every caller), else None."""
        if self.source is not None:
            return self.source
        async with self._lock:
            now = time.monotonic()
            if self.source is None and now - self._checked >= REFRESH_EVERY_S:
                self._checked = now
                self.source = await asyncio.to_thread(self._try)
        return self.source

    async def close(self) -> None:
        return None  # the index it found belongs to the chain that took it up
