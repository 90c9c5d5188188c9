"""The two reading lanes of an index build: each streams bulk files and yields batches of kept rows.

Lane "cases" reads opinion-clusters (the cases, their name keys, the dockets they refer to) and then
dockets, keeping only the dockets a cluster refers to (most of CourtListener's 70 million dockets are
RECAP dockets no opinion has: they are parsed and dropped, never stored). Lane "cites" reads courts
and citations. The lanes share nothing, so a build runs them in two worker processes (``build.py``)
while the parent writes SQLite; small builds run them in turn in the parent. A lane is a generator of
``(tag, payload)`` messages:

- ``("tick", n)``: n more bytes of input read (compressed bytes for a .bz2), for the progress bar;
- ``("court" | "case" | "docket" | "cite", [row, ...])``: a batch of kept rows (see ``_*_row``);
- ``("seen", (table, IdSet))``: every id the file holds (updates: what is gone was deleted);
- ``("stats", FileStats)``: rows read, kept and refused by reason, for one file;
- ``("empty", kind)``: that file holds nothing (the courts file was published empty once, #2863): the
  build keeps what the previous index had of it.

In an update (``marks`` given) only rows modified at or after the previous build's newest
``date_modified`` are sent; dockets also when a changed cluster refers to them.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from citecheck.sources.index.rows import BulkReader, EmptyFile, parse_id
from citecheck.sources.index.schema import STATUS_CODE, tier, tier_key
from citecheck.sources.name_keys import name_tokens
from citecheck.sources.reporters import normalise_reporter

BATCH = 4096
#: Names are stored up to this length (a consolidated caption can run to pages; its start names it).
NAME_STORED = 1000
_DATE = re.compile(r"^(\d{4})-(\d{2})-(\d{2})$")
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")

Message = tuple[str, Any]


class IdSet:
    """A set of positive ids: a bitmap for the dense range CourtListener uses, a set above it."""

    DENSE = 1 << 28

    def __init__(self) -> None:
        self.bits = bytearray()
        self.big: set[int] = set()

    def add(self, i: int) -> None:
        if i < self.DENSE:
            byte = i >> 3
            if byte >= len(self.bits):
                self.bits.extend(bytes(max(byte + 1 - len(self.bits), len(self.bits) // 2, 1 << 16)))
            self.bits[byte] |= 1 << (i & 7)
        else:
            self.big.add(i)

    def __contains__(self, i: object) -> bool:
        if not isinstance(i, int):
            return False
        if i < self.DENSE:
            byte = i >> 3
            return byte < len(self.bits) and bool(self.bits[byte] & (1 << (i & 7)))
        return i in self.big


@dataclass(frozen=True, slots=True)
class Marks:
    """What an update starts from: the ``date_modified`` from which rows count as changed, per file, and
    the ids the old index holds (a row it lacks is sent whatever its date)."""

    clusters: str = ""
    dockets: str = ""
    citations: str = ""
    known_cases: IdSet = field(default_factory=IdSet)
    known_dockets: IdSet = field(default_factory=IdSet)
    known_cites: IdSet = field(default_factory=IdSet)


@dataclass
class _Batcher:
    tag: str
    rows: list[tuple[Any, ...]] = field(default_factory=list)

    def add(self, row: tuple[Any, ...]) -> list[tuple[Any, ...]] | None:
        self.rows.append(row)
        if len(self.rows) >= BATCH:
            out, self.rows = self.rows, []
            return out
        return None


class _Ticks:
    def __init__(self) -> None:
        self.n = 0

    def __call__(self, n: int) -> None:
        self.n += n

    def take(self) -> int:
        n, self.n = self.n, 0
        return n


def date_int(value: str) -> int | None:
    """``"2014-09-30"`` → ``20140930``; anything else None.

    >>> date_int("2014-09-30"), date_int(""), date_int("30/09/2014")
    (20140930, None, None)
    """
    m = _DATE.match(value)
    return int(m.group(1) + m.group(2) + m.group(3)) if m else None


def key_part(value: str) -> int | str | None:
    """A volume or page as the index stores it: an int for a plain number, else the trimmed text.

    >>> key_part("1004"), key_part("0012"), key_part("13301-M"), key_part(" ")
    (1004, 12, '13301-M', None)
    """
    v = value.strip()
    if not v:
        return None
    if v.isascii() and v.isdigit() and len(v) <= 9:
        return int(v)
    return v


def _case_row(values: tuple[str, ...]) -> tuple[Any, ...] | str:
    """(id, docket, date, status, citation count, name, short, full, name keys) or why it is refused."""
    cid_s, docket_s, name, short, full, date_s, status_s, _mod, cited_s = values
    cid = parse_id(cid_s)
    if cid is None:
        return "an id that is not a number"
    docket = parse_id(docket_s) if docket_s else None
    shown = (name or full or short).strip()
    if not shown:
        return "no case name"
    short_name = short.strip() or None
    full_name = full.strip()[:NAME_STORED] or None
    if full_name == shown:
        full_name = None
    cited = int(cited_s) if cited_s.isascii() and cited_s.isdigit() and len(cited_s) < 10 else None
    return (
        cid,
        docket,
        date_int(date_s),
        STATUS_CODE.get(status_s, 0),
        cited,
        shown[:NAME_STORED],
        short_name,
        full_name,
        case_tokens(shown[:NAME_STORED], short_name, full_name, cited),
    )


def case_tokens(name: str, short: str | None, full: str | None, cited: int | None) -> str:
    """What the name search indexes for a case: the keys of its names, each once, and its tier key
    (the writer computes the same to delete a changed case's old row from the contentless table)."""
    keys = dict.fromkeys(name_tokens(name))
    for other in (short, full):
        if other:
            keys.update(dict.fromkeys(name_tokens(other)))
    keys[tier_key(tier(cited))] = None
    return " ".join(keys)


def cases_lane(
    clusters: Path, dockets: Path | None, marks: Marks | None, dialect: str = "backslash"
) -> Iterator[Message]:
    """Clusters, then the dockets they refer to (see the module docstring)."""
    ticks = _Ticks()
    referenced = IdSet()
    wanted = IdSet()  # dockets of changed clusters (an update must send them even if unchanged)
    seen = IdSet() if marks is not None else None
    yield from _cluster_rows(clusters, marks, dialect, ticks, (referenced, wanted, seen))
    if seen is not None:
        yield ("seen", ("cases", seen))
    if dockets is None:
        return
    yield from _docket_rows(dockets, marks, dialect, ticks, referenced, wanted)


def _cluster_rows(
    clusters: Path, marks: Marks | None, dialect: str, ticks: _Ticks, ids: tuple[IdSet, IdSet, IdSet | None]
) -> Iterator[Message]:
    """The clusters as case rows (an update's only those changed since ``marks``), noting in ``ids`` the
    dockets referred to, the dockets of changed clusters and, for an update, every cluster seen."""
    referenced, wanted, seen = ids
    batch = _Batcher("case")
    with BulkReader(clusters, "opinion-clusters", tick=ticks, dialect=dialect) as reader:
        for values in reader.rows():
            row = _case_row(values)
            if isinstance(row, str):
                reader.stats.refuse(row)
                continue
            reader.stats.kept += 1
            cid, docket = row[0], row[1]
            if docket is not None:
                referenced.add(docket)
            if seen is not None:
                seen.add(cid)
                # a row without a date counts as changed
                if values[7] and values[7] < marks.clusters and cid in marks.known_cases:  # type: ignore[union-attr]
                    continue
                if docket is not None:
                    wanted.add(docket)
            if (full := batch.add(row)) is not None:
                yield ("tick", ticks.take())
                yield ("case", full)
        yield ("case", batch.rows)
        yield ("tick", ticks.take())
        yield ("stats", reader.stats)


def _docket_rows(
    dockets: Path, marks: Marks | None, dialect: str, ticks: _Ticks, referenced: IdSet, wanted: IdSet
) -> Iterator[Message]:
    """The dockets some case refers to (an update's only those changed, or wanted by a changed case)."""
    batch = _Batcher("docket")
    with BulkReader(dockets, "dockets", tick=ticks, dialect=dialect) as reader:
        for did_s, court, number, modified in reader.rows():
            did = parse_id(did_s)
            if did is None:
                reader.stats.refuse("an id that is not a number")
                continue
            if did not in referenced:
                continue  # a docket no case refers to (most RECAP dockets): dropped, never stored
            if (
                marks is not None
                and modified
                and modified < marks.dockets
                and did not in wanted
                and did in marks.known_dockets
            ):
                continue
            reader.stats.kept += 1
            if (
                full := batch.add((did, court.strip() or None, number.strip()[:NAME_STORED] or None))
            ) is not None:
                yield ("tick", ticks.take())
                yield ("docket", full)
        yield ("docket", batch.rows)
        yield ("tick", ticks.take())
        yield ("stats", reader.stats)


def _courts(courts: Path, ticks: _Ticks, dialect: str) -> Iterator[Message]:
    with BulkReader(courts, "courts", tick=ticks, dialect=dialect) as reader:
        rows = []
        try:
            for cid, full_name, short_name, citation_string, jurisdiction in reader.rows():
                if not re.fullmatch(r"[a-z0-9_.-]{1,40}", cid):
                    reader.stats.refuse("a court id that is not one")
                    continue
                reader.stats.kept += 1
                rows.append(
                    (
                        cid,
                        full_name or None,
                        short_name or None,
                        citation_string or None,
                        jurisdiction or None,
                    )
                )
        except EmptyFile:
            yield ("empty", "courts")
            return
        if not rows:
            yield ("empty", "courts")
        yield ("court", rows)
        yield ("tick", ticks.take())
        yield ("stats", reader.stats)


def _cite_row(values: tuple[str, ...], reporters: dict[str, str]) -> tuple[Any, ...] | str:
    """A citations row as stored (reporter, volume, page, case, id, type), or why it is refused.
    ``reporters``: the reporters normalised so far, by how the dump writes them."""
    cite_s, volume_s, reporter_s, page_s, type_s, cluster_s, _modified = values
    cite_id, cluster = parse_id(cite_s), parse_id(cluster_s)
    if cite_id is None or cluster is None:
        return "an id that is not a number"
    volume, page = key_part(volume_s), key_part(page_s)
    reporter = reporters.get(reporter_s)
    if reporter is None:
        reporter = reporters[reporter_s] = normalise_reporter(reporter_s)
    if volume is None or page is None or not reporter:
        return "a citation without a volume, reporter or page"
    if (isinstance(volume, str) and _CONTROL.search(volume)) or (
        isinstance(page, str) and _CONTROL.search(page)
    ):
        return "a control character in a volume or page"
    typ = int(type_s) if type_s.isascii() and type_s.isdigit() and len(type_s) < 4 else None
    return (reporter, volume, page, cluster, cite_id, typ)


def cites_lane(
    courts: Path | None, citations: Path, marks: Marks | None, dialect: str = "backslash"
) -> Iterator[Message]:
    """Courts, then citations (see the module docstring)."""
    ticks = _Ticks()
    if courts is not None:
        yield from _courts(courts, ticks, dialect)
    reporters: dict[str, str] = {}
    seen = IdSet() if marks is not None else None
    batch = _Batcher("cite")
    with BulkReader(citations, "citations", tick=ticks, dialect=dialect) as reader:
        for values in reader.rows():
            row = _cite_row(values, reporters)
            if isinstance(row, str):
                reader.stats.refuse(row)
                continue
            reader.stats.kept += 1
            if seen is not None:
                cite_id, modified = row[4], values[6]
                seen.add(cite_id)
                # a dump without citation dates (before 2025-11-20): every row counts as changed
                if modified and modified < marks.citations and cite_id in marks.known_cites:  # type: ignore[union-attr]
                    continue
            if (full := batch.add(row)) is not None:
                yield ("tick", ticks.take())
                yield ("cite", full)
        yield ("cite", batch.rows)
        yield ("tick", ticks.take())
        yield ("stats", reader.stats)
    if seen is not None:
        yield ("seen", ("cites", seen))


LANES = {"cases": cases_lane, "cites": cites_lane}
