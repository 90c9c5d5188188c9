"""AuthoritySource: the one async interface every case-law source implements.

Checks and the pipeline see only this protocol, never SQLite or httpx.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, runtime_checkable

from citecheck.sources.models import CaseRecord, CiteKey, LookupResult, NameSearch, OpinionText, PassageHit


@runtime_checkable
class AuthoritySource(Protocol):
    name: str

    async def lookup(self, keys: Sequence[CiteKey]) -> dict[CiteKey, LookupResult]:
        """Answer every key: FOUND / AMBIGUOUS / NOT_FOUND (only when covered) / CANNOT_VERIFY.

        Must never raise for a single citation's trouble; a whole-source failure raises a
        ``SourceError`` which the chain turns into CANNOT_VERIFY.
        """
        ...

    async def opinion(self, record: CaseRecord) -> OpinionText | None:
        """Opinion text with page maps, or None when this source has no text for the case.

        Raises a ``SourceError`` when the text may exist but could not be fetched (``Deferred`` while
        waiting for the service's allowance), so the checks that needed it can say they did not run.
        """
        ...

    async def find_passage(self, passage: str, *, limit: int = 5) -> list[PassageHit]:
        """Cases whose text contains ``passage`` (normalised); empty if unsupported."""
        ...

    async def close(self) -> None: ...


@runtime_checkable
class NameSource(Protocol):
    """A source that can find cases by name (optional: ``gather`` asks only sources that have it).

    Used to propose the right citation for a wrong one (issue 24). Only a case name and, to narrow the
    search, a court and a range of years are given; never the draft's text.
    """

    async def find_by_name(
        self,
        name: str,
        *,
        limit: int = 5,
        court: str | None = None,
        years: tuple[int, int] | None = None,
        remote: bool = True,
    ) -> NameSearch:
        """Cases whose names fit ``name`` (party by party, abbreviations either way), best first.

        ``remote`` False keeps the search on this machine (corpus, index, cache)."""
        ...

    async def lookup_local(self, keys: Sequence[CiteKey]) -> dict[CiteKey, LookupResult]:
        """``lookup`` from what this machine holds only: near-miss variants of a citation are many and
        must not spend a service's allowance."""
        ...
