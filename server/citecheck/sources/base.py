"""AuthoritySource: the one async interface every case-law source implements.

Checks and the pipeline see only this protocol, never SQLite or httpx.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, runtime_checkable

from citecheck.sources.models import CaseRecord, CiteKey, LookupResult, OpinionText, PassageHit


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
