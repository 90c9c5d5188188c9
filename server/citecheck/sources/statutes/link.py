"""The statute index as a link of the source chain: sections of the U.S. Code and the C.F.R., as of a date.

A local file, no network; it never raises: an index that fails answers NOT_COVERED with the reason (never
NOT_FOUND), and a text it cannot read is None.
"""

from __future__ import annotations

import logging
import sqlite3
import zlib
from collections.abc import Sequence

from citecheck.errors import CitecheckError
from citecheck.sources.statutes.index import StatuteIndex, StatuteKeyLike
from citecheck.sources.statutes.records import LookupOutcome, SectionRecord, StatuteAnswer

log = logging.getLogger(__name__)


class StatuteLink:
    name = "statutes"
    label = "statute index"
    local = True

    def __init__(self, index: StatuteIndex) -> None:
        self.index = index

    @property
    def description(self) -> str:
        return f"statute index ({self.index.path})"

    async def lookup_statutes(
        self, keys: Sequence[StatuteKeyLike], *, as_of: str | None = None
    ) -> dict[StatuteKeyLike, StatuteAnswer]:
        out: dict[StatuteKeyLike, StatuteAnswer] = {}
        for k in dict.fromkeys(keys):
            try:
                out[k] = self.index.lookup(k, as_of=as_of)
            except (CitecheckError, sqlite3.Error) as exc:
                log.warning("statute index unavailable: %s", exc)
                out[k] = StatuteAnswer(
                    outcome=LookupOutcome.NOT_COVERED, reason=f"statute index unavailable: {exc}"
                )
        return out

    async def statute_text(self, record: SectionRecord) -> str | None:
        try:
            return self.index.text(record)
        except (CitecheckError, sqlite3.Error, zlib.error) as exc:
            log.warning("statute text unavailable: %s", exc)
            return None

    async def close(self) -> None:
        self.index.close()
