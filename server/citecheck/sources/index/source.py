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
from citecheck.sources.index import files
from citecheck.sources.index.lookup import CitationIndex, NameHit
from citecheck.sources.models import CaseRecord, CiteKey, LookupResult, OpinionText, PassageHit

#: How often a call checks for a newer index file (a stat).
REFRESH_EVERY_S = 5.0

log = logging.getLogger(__name__)


class IndexSource:
    name = "index"

    def __init__(self, index: CitationIndex) -> None:
        self.index = index
        self._checked = time.monotonic()

    @classmethod
    def open(cls, path: Path) -> IndexSource:
        return cls(CitationIndex(path))

    @property
    def description(self) -> str:
        return f"{self.index.label} ({self.index.path})"

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

    async def close(self) -> None:
        await asyncio.to_thread(self.index.close)


class IndexWatch:
    """Where the citation index will be, for a process that runs for hours — the language server, the
    Word backend — started before the first ``corpus sync`` (or with an index it could not read: an
    older layout, a broken file). ``poll`` looks at most every ``REFRESH_EVERY_S`` (a stat), opens the
    index once a file is there, and tries a file that failed again only when a sync replaced it."""

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
