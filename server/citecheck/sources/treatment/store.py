"""The treatment table: one SQLite file ``citecheck treatment build`` writes and checks read offline.

Compact by design (docs/sources.md, "The treatment table"): one row per case involved (``cases``), one
per treatment (``treatments``: who treated whom, how, on what basis, the words that say so, how many
opinions said it), and the citation keys of every treated case (``keys``) so that a draft's citation —
any of the case's parallel citations — finds its treatments in one probe. Written once into
``<file>.new`` and renamed over the old table when complete, so a reader never sees half a table;
read-only and immutable afterwards.
"""

from __future__ import annotations

import json
import os
import sqlite3
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from citecheck.errors import CorpusError
from citecheck.sources.models import CiteKey
from citecheck.sources.reporters import normalise_reporter
from citecheck.treatment.models import Basis, CaseRef, Treatment, TreatmentKind

LAYOUT = "1"
#: A quoted sentence longer than this is cut around its cue (the evidence stays readable, the table small).
MAX_QUOTE = 600

_SCHEMA = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT) WITHOUT ROWID;
CREATE TABLE cases (id INTEGER PRIMARY KEY, name TEXT NOT NULL, cite TEXT, date TEXT, court TEXT,
                    court_name TEXT);
CREATE TABLE treatments (id INTEGER PRIMARY KEY, cited INTEGER NOT NULL, treating INTEGER, kind TEXT NOT NULL,
                         whole INTEGER NOT NULL, basis TEXT NOT NULL, quote TEXT, quoted_from INTEGER,
                         opinion INTEGER, reports INTEGER NOT NULL DEFAULT 1);
CREATE TABLE keys (reporter TEXT NOT NULL, volume TEXT NOT NULL, page TEXT NOT NULL, cited INTEGER NOT NULL,
                   PRIMARY KEY (reporter, volume, page, cited)) WITHOUT ROWID;
"""
_COURTLISTENER = "https://www.courtlistener.com"


@dataclass(frozen=True, slots=True, kw_only=True)
class CaseRow:
    """A case as the table keeps it (a CourtListener cluster the citation index resolved)."""

    id: int  # CourtListener cluster id
    name: str
    cite: str | None
    date: str | None  # ISO
    court: str | None  # courts-db id
    court_name: str | None
    keys: tuple[CiteKey, ...] = ()  # every citation of the case (only a treated case's are stored)


@dataclass(frozen=True, slots=True, kw_only=True)
class TreatmentRow:
    """One treatment to store: cluster ids, never text of a draft."""

    cited: int
    treating: int | None
    kind: TreatmentKind
    whole: bool
    basis: Basis
    quote: str | None
    quoted_from: int | None  # the cluster whose opinion the quote comes from
    opinion: int | None  # CourtListener opinion id of the quote
    reports: int = 1  # how many opinions said it (merged rows add up)

    @property
    def identity(self) -> tuple[int, int | None, TreatmentKind, bool]:
        return (self.cited, self.treating, self.kind, self.whole)


def merge_rows(rows: Iterable[TreatmentRow]) -> list[TreatmentRow]:
    """One row per (cited, treating, kind, whole): the strongest basis's quote, reports added up.

    Shards of a build are merged with this (``citecheck batch`` merges its workers' results the same way)."""
    from citecheck.treatment.models import STRENGTH

    best: dict[tuple[int, int | None, TreatmentKind, bool], TreatmentRow] = {}
    for r in rows:
        old = best.get(r.identity)
        if old is None:
            best[r.identity] = r
            continue
        keep = r if STRENGTH[r.basis] < STRENGTH[old.basis] else old
        best[r.identity] = TreatmentRow(
            cited=keep.cited, treating=keep.treating, kind=keep.kind, whole=keep.whole, basis=keep.basis,
            quote=keep.quote, quoted_from=keep.quoted_from, opinion=keep.opinion, reports=old.reports + r.reports,
        )  # fmt: skip
    return sorted(best.values(), key=lambda r: (r.cited, r.treating or 0, r.kind.value, r.whole))


def write_table(
    path: Path, rows: Sequence[TreatmentRow], cases: Mapping[int, CaseRow], meta: Mapping[str, str]
) -> int:
    """Write the table to ``path`` (beside it, then renamed over it); returns its size in bytes."""
    path = path.expanduser()
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".new")
    tmp.unlink(missing_ok=True)
    db = sqlite3.connect(tmp)
    try:
        db.execute("PRAGMA journal_mode=OFF")
        db.execute("PRAGMA synchronous=OFF")
        db.executescript(_SCHEMA)
        used = {r.cited for r in rows} | {r.treating for r in rows if r.treating is not None}
        used |= {r.quoted_from for r in rows if r.quoted_from is not None}
        db.executemany(
            "INSERT INTO cases VALUES (?,?,?,?,?,?)",
            (
                (c.id, c.name, c.cite, c.date, c.court, c.court_name)
                for cid, c in sorted(cases.items())
                if cid in used
            ),
        )
        db.executemany(
            "INSERT INTO treatments (cited, treating, kind, whole, basis, quote, quoted_from, opinion, reports)"
            " VALUES (?,?,?,?,?,?,?,?,?)",
            ((r.cited, r.treating, r.kind.value, int(r.whole), r.basis.value, r.quote, r.quoted_from, r.opinion,
              r.reports) for r in rows),
        )  # fmt: skip
        cited = {r.cited for r in rows}
        db.executemany(
            "INSERT OR IGNORE INTO keys VALUES (?,?,?,?)",
            ((normalise_reporter(k.reporter), k.volume, k.page, cid) for cid in sorted(cited)
             for k in (cases[cid].keys if cid in cases else ())),
        )  # fmt: skip
        db.executemany("INSERT INTO meta VALUES (?,?)", [("layout", LAYOUT), *sorted(meta.items())])
        db.commit()
    except BaseException:
        db.close()
        tmp.unlink(missing_ok=True)
        raise
    db.close()
    with open(tmp, "rb") as fh:
        os.fsync(fh.fileno())
    os.replace(tmp, path)
    return path.stat().st_size


class TreatmentTable:
    """The table read-only: treatments by citation key (``lookup``), what it was built from (``meta``)."""

    def __init__(self, path: Path) -> None:
        self.path = path.expanduser()
        try:
            self.db = sqlite3.connect(
                f"file:{self.path}?mode=ro&immutable=1", uri=True, check_same_thread=False
            )
            self.meta = dict(self.db.execute("SELECT key, value FROM meta").fetchall())
        except sqlite3.Error as exc:
            raise CorpusError(f"{self.path}: not a treatment table citecheck can read ({exc})") from exc
        if self.meta.get("layout") != LAYOUT:
            self.db.close()
            raise CorpusError(
                f"{self.path}: a treatment table of another layout; run `citecheck treatment build`"
            )

    @property
    def description(self) -> str:
        built = self.meta.get("built", "")[:10]
        dump = self.meta.get("dump_date")
        what = f"CourtListener's bulk data of {dump}" if dump else "CourtListener bulk files"
        return f"the treatment table built {built} from {what}".replace("built  from", "built from")

    def close(self) -> None:
        self.db.close()

    def lookup(self, keys: Sequence[CiteKey]) -> dict[CiteKey, tuple[Treatment, ...]]:
        """The treatments of the case at each key (keys with none are absent)."""
        out: dict[CiteKey, tuple[Treatment, ...]] = {}
        try:
            for key in dict.fromkeys(keys):
                rows = self.db.execute(
                    "SELECT t.cited, t.treating, t.kind, t.whole, t.basis, t.quote, t.quoted_from, t.opinion,"
                    " t.reports FROM keys k JOIN treatments t ON t.cited = k.cited"
                    " WHERE k.reporter = ? AND k.volume = ? AND k.page = ?",
                    (normalise_reporter(key.reporter), key.volume, key.page),
                ).fetchall()
                if rows:
                    out[key] = tuple(self._treatment(r) for r in rows)
        except sqlite3.Error as exc:
            raise CorpusError(f"{self.path}: cannot read the treatment table ({exc})") from exc
        return out

    def _case(self, cid: int | None) -> CaseRef | None:
        if cid is None:
            return None
        row = self.db.execute(
            "SELECT name, cite, date, court, court_name FROM cases WHERE id = ?", (cid,)
        ).fetchone()
        if row is None:
            return None
        name, cite, date, court, court_name = row
        year = int(date[:4]) if date and date[:4].isdigit() else None
        return CaseRef(name=name, citation=cite, year=year, court=court, court_name=court_name,
                       url=f"{_COURTLISTENER}/opinion/{cid}/x/", record_id=f"cl:{cid}")  # fmt: skip

    def _treatment(
        self, row: tuple[int, int | None, str, int, str, str | None, int | None, int | None, int]
    ) -> Treatment:
        cited, treating, kind, whole, basis, quote, quoted_from, opinion, reports = row
        cited_ref = self._case(cited)
        source_ref = self._case(quoted_from)
        url = (f"{_COURTLISTENER}/api/rest/v4/opinions/{opinion}/" if opinion else None) or (
            source_ref.url if source_ref else None
        )
        return Treatment(
            cited=cited_ref or CaseRef(name="?"),
            treating=self._case(treating),
            kind=TreatmentKind(str(kind)),
            whole=bool(whole),
            basis=Basis(str(basis)),
            quote=str(quote) if quote else None,
            quoted_from=source_ref,
            source=self.description,
            url=source_ref.url if source_ref else url,
            note=f"said in {reports} opinions" if isinstance(reports, int) and reports > 1 else None,
        )

    def counts(self) -> dict[str, int]:
        """Rows by kind, for ``treatment status``."""
        out = {"treatments": 0, "cases": 0}
        out["treatments"] = self.db.execute("SELECT count(*) FROM treatments").fetchone()[0]
        out["cases"] = self.db.execute("SELECT count(*) FROM cases").fetchone()[0]
        for kind, n in self.db.execute("SELECT kind, count(*) FROM treatments GROUP BY kind"):
            out[str(kind)] = n
        return out


def meta_json(value: object) -> str:
    return json.dumps(value, sort_keys=True)


__all__ = ["CaseRow", "TreatmentRow", "TreatmentTable", "merge_rows", "write_table"]
