"""The citation index as an AuthoritySource: what the source chain asks between the corpus and the cache.

Metadata only: it answers lookups (and the name search) and never has opinion text; quote and pin
checks get the text of a case it resolved from the rest of the chain (``chain.SourceChain.opinion``).
Calls run in a worker thread so the language server's event loop never waits on SQLite; every few
seconds a call first checks whether a sync swapped in a newer index file, and reopens it if so.
"""

from __future__ import annotations

import asyncio
import sqlite3
import time
from collections.abc import Sequence
from pathlib import Path

from citecheck.errors import CorpusError
from citecheck.sources.index.lookup import CitationIndex, NameHit
from citecheck.sources.models import CaseRecord, CiteKey, LookupResult, OpinionText, PassageHit

#: How often a call checks for a newer index file (a stat).
REFRESH_EVERY_S = 5.0


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
