"""The treatment link: what later courts did to a cited case, from the data on this machine.

Two tables, asked together: the Congress.gov table of Supreme Court decisions overruled (shipped with the
package, refreshed by ``corpus sync``: ``congress.py``) and, when the user built one, the treatment table
(``citecheck treatment build``: ``store.py``). Local (reads files, sends nothing), so the language server's
first wave has it too. ``description`` names both, so a report can say what "not found" means.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from pathlib import Path

from citecheck.errors import CorpusError
from citecheck.sources.models import CiteKey
from citecheck.sources.treatment.congress import CongressTable, load_table
from citecheck.sources.treatment.store import TreatmentTable
from citecheck.treatment.models import Treatment

log = logging.getLogger(__name__)


class TreatmentSource:
    """The treatment link of the chain (capability ``treatment``)."""

    name = "treatment"
    label = "treatment data"
    local = True

    def __init__(self, congress: CongressTable | None, table: TreatmentTable | None = None) -> None:
        self.congress = congress
        self.table = table

    @classmethod
    def open(
        cls, *, table_path: Path | None, refreshed: Path | None, congress: bool = True
    ) -> TreatmentSource:
        """The shipped (or refreshed) Congress.gov table and the treatment table at ``table_path`` if there is
        one; a table that cannot be read is a warning (the Congress.gov table still answers)."""
        table = None
        if table_path is not None and table_path.expanduser().exists():
            try:
                table = TreatmentTable(table_path)
            except CorpusError as exc:
                log.warning("treatment table unavailable: %s", exc)
        return cls(load_table(refreshed) if congress else None, table)

    @property
    def sources(self) -> tuple[str, ...]:
        """The data asked, in words (what "not found in the treatment data we have" means)."""
        out = []
        if self.congress is not None:
            out.append(self.congress.description)
        if self.table is not None:
            out.append(self.table.description)
        return tuple(out)

    @property
    def description(self) -> str:
        return "treatment data (" + "; ".join(self.sources) + ")" if self.sources else ""

    async def treatment(self, keys: Sequence[CiteKey]) -> dict[CiteKey, tuple[Treatment, ...]]:
        """The treatments of the case at each key (keys with none are left out)."""
        out: dict[CiteKey, list[Treatment]] = {}
        if self.congress is not None:
            for k in keys:
                found = self.congress.by_key.get(_canonical(k))
                if found:
                    out.setdefault(k, []).extend(found)
        if self.table is not None and keys:
            try:
                rows = await asyncio.to_thread(self.table.lookup, list(keys))
            except CorpusError as exc:
                log.warning("treatment table unavailable: %s", exc)
                rows = {}
            for k, ts in rows.items():
                out.setdefault(k, []).extend(ts)
        return {k: tuple(v) for k, v in out.items()}

    async def close(self) -> None:
        if self.table is not None:
            self.table.close()


def _canonical(key: CiteKey) -> CiteKey:
    from citecheck.sources.reporters import normalise_reporter

    return CiteKey(key.volume, normalise_reporter(key.reporter), key.page)


async def open_treatment(o: object) -> TreatmentSource:
    """The link's opener (``sources/links.py``): always there, since the Congress.gov table ships with the
    package; the treatment table joins it when ``treatment_path`` holds one."""
    from citecheck.config import overruled_table_path
    from citecheck.sources.links import Opening

    assert isinstance(o, Opening)
    return await asyncio.to_thread(
        TreatmentSource.open, table_path=o.settings.treatment_path, refreshed=overruled_table_path()
    )


__all__ = ["TreatmentSource", "open_treatment"]
