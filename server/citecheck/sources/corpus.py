"""The local case-law corpus: one SQLite file (cases, citations, opinion text + page maps, FTS5, volumes).

Why SQLite: it ships with Python, a firm can copy one file around, and FTS5 gives whole-corpus
quote search. Schema and the coverage rules are documented in docs/sources.md.

Honest coverage lives here: a lookup is NOT_FOUND only when the volume is marked *complete*
(its cases tile the volume's pages without gaps, from the first pages of the volume); everything
else the corpus lacks is CANNOT_VERIFY.
"""

from __future__ import annotations

import asyncio
import json
import logging
import shutil
import sqlite3
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from citecheck.errors import CorpusError
from citecheck.sources.corpus_names import NameIndex
from citecheck.sources.models import (
    CaseCite,
    CaseRecord,
    CiteKey,
    Coverage,
    LookupResult,
    LookupStatus,
    NameHit,
    NameSearch,
    OpinionText,
    PageMap,
    PassageHit,
)
from citecheck.sources.name_keys import name_score
from citecheck.sources.passages import fts_phrase, locate, longest_fragment
from citecheck.sources.reporters import is_database, normalise_reporter

SCHEMA_VERSION = 1
#: Free space an import needs beyond its ``-wal`` file to commit: SQLite appends the pages it still
#: holds (its cache, 2 MB by default) to the log, then the merge may grow the corpus by as much again.
_COMMIT_HEADROOM = 5 * 1024 * 1024
#: Name-search hits scored below this are another case (one party shared: "Savage v. Jones" is 0.75).
MIN_NAME_SCORE = 0.8

log = logging.getLogger(__name__)
#: A volume can be complete only if its first case begins on one of its first pages.
FIRST_CASE_MAX_PAGE = 5

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT);
CREATE TABLE IF NOT EXISTS cases (
    rowid INTEGER PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,          -- "cap:8118004", "cl:910000001"
    source TEXT NOT NULL,             -- "cap", "courtlistener"
    name TEXT NOT NULL,
    name_short TEXT, name_full TEXT, name_abbreviation TEXT,
    court_id TEXT, court_name TEXT, jurisdiction TEXT,
    decision_date TEXT, docket_number TEXT, url TEXT
);
CREATE TABLE IF NOT EXISTS citations (
    case_rowid INTEGER NOT NULL REFERENCES cases(rowid) ON DELETE CASCADE,
    idx INTEGER NOT NULL,             -- citation index (1 = first/official), as in page markers
    volume TEXT NOT NULL, reporter TEXT NOT NULL, page TEXT NOT NULL,
    page_num INTEGER, last_page TEXT, last_page_num INTEGER, type TEXT,
    PRIMARY KEY (case_rowid, idx)
);
CREATE INDEX IF NOT EXISTS citations_key ON citations (reporter, volume, page);
CREATE INDEX IF NOT EXISTS citations_range ON citations (reporter, volume, page_num);
CREATE TABLE IF NOT EXISTS opinions (
    case_rowid INTEGER PRIMARY KEY REFERENCES cases(rowid) ON DELETE CASCADE,
    text TEXT NOT NULL,
    page_maps TEXT NOT NULL           -- JSON [[idx, reporter, volume, first_page, [[offset, label], ...]], ...]
);
CREATE VIRTUAL TABLE IF NOT EXISTS opinion_fts USING fts5 (
    text, content='opinions', content_rowid='case_rowid', tokenize='unicode61 remove_diacritics 2'
);
CREATE TABLE IF NOT EXISTS volumes (
    reporter TEXT NOT NULL, volume TEXT NOT NULL, source TEXT NOT NULL,
    complete INTEGER NOT NULL DEFAULT 0,
    last_page TEXT,
    PRIMARY KEY (reporter, volume, source)
);
"""


def _num(s: str | None) -> int | None:
    """A page or volume as a number SQLite can hold; None for text ("13301-M"), other scripts' digits, or a
    number of 19 digits or more (no real page is one; binding 2^63 raised OverflowError, issue 35).

    >>> _num("450"), _num("9223372036854775808"), _num("²³"), _num("13301-M")
    (450, None, None, None)
    """
    return int(s) if s and s.isascii() and s.isdigit() and len(s) <= 18 else None


def tiles_volume(ranges: Sequence[tuple[int, int]]) -> bool:
    """Do these case page ranges tile a volume from its first pages with no gap?

    >>> tiles_volume([(1, 3), (3, 9), (10, 12)]), tiles_volume([(36, 42), (450, 459)]), tiles_volume([])
    (True, False, False)
    """
    if not ranges:
        return False
    rs = sorted(ranges)
    if rs[0][0] > FIRST_CASE_MAX_PAGE:
        return False
    reach = rs[0][1]
    for first, last in rs[1:]:
        if first > reach + 1:
            return False
        reach = max(reach, last)
    return True


def _merge(ranges: Sequence[tuple[int, int]]) -> tuple[tuple[int, int], ...]:
    out: list[list[int]] = []
    for first, last in sorted(ranges):
        if out and first <= out[-1][1] + 1:
            out[-1][1] = max(out[-1][1], last)
        else:
            out.append([first, last])
    return tuple((a, b) for a, b in out)


def _fmt_ranges(ranges: Sequence[tuple[int, int]]) -> str:
    return ", ".join(f"{a}–{b}" if a != b else str(a) for a, b in ranges)


def storage_error(exc: sqlite3.Error, path: Path) -> CorpusError:
    """A write failure said plainly, with what to do (the failed import was rolled back)."""
    text = str(exc).lower()
    if "full" in text:
        return CorpusError(
            f"the disk holding {path} is full; the import was rolled back (nothing half-written). "
            "Free some space and run the import again"
        )
    if "locked" in text or "busy" in text:
        return CorpusError(
            f"another citecheck process (an import or fetch) is writing to {path}; "
            "wait for it to finish and run this import again"
        )
    if "readonly" in text.replace("-", "").replace(" ", ""):
        return CorpusError(f"{path} is read-only; import into a corpus you can write (--corpus FILE)")
    return CorpusError(f"writing to the corpus {path} failed: {exc}")


def _connect_readonly(path: Path) -> sqlite3.Connection:
    """A read-only connection; in a folder we cannot write (no room for WAL's -shm file) an immutable one."""
    from urllib.parse import quote

    uri = f"file:{quote(str(path.resolve()))}"
    try:
        db = sqlite3.connect(f"{uri}?mode=ro", uri=True, check_same_thread=False, isolation_level=None)
        db.execute("SELECT count(*) FROM sqlite_master").fetchone()
        return db
    except sqlite3.OperationalError:
        db = sqlite3.connect(
            f"{uri}?mode=ro&immutable=1", uri=True, check_same_thread=False, isolation_level=None
        )
        db.execute("SELECT count(*) FROM sqlite_master").fetchone()
        return db


def _require_corpus_schema(path: Path) -> None:
    """CorpusError unless ``path`` is empty or a citecheck corpus (a cache file, a random .sqlite...)."""
    try:
        db = _connect_readonly(path)
    except sqlite3.DatabaseError as exc:
        raise CorpusError(f"cannot open corpus {path}: {exc}") from exc
    try:
        tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        if tables and not {"meta", "cases", "citations"} <= tables:
            raise CorpusError(
                f"{path} is not a citecheck corpus (it has other tables: {', '.join(sorted(tables)[:4])})"
            )
        if "meta" in tables:
            row = db.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()
            if row and str(row[0]).isdigit() and int(row[0]) > SCHEMA_VERSION:
                raise CorpusError(
                    f"{path} was written by a newer citecheck (schema {row[0]}); upgrade citecheck"
                )
    except sqlite3.DatabaseError as exc:
        raise CorpusError(f"cannot open corpus {path}: {exc}") from exc
    finally:
        db.close()


def open_for_check(path: Path, *, named: bool, writable: bool) -> tuple[Corpus | None, str | None]:
    """The corpus a check reads, and why it is read-only (None when writable).

    Read-only unless ``writable`` (CAP volumes are downloaded into it); a corpus in a folder or file
    we cannot write is read-only with CAP downloads off, not dropped. A file that exists but is not a
    usable corpus is CorpusError (the caller decides whether a corpus the user named may be skipped:
    it may not). A ``--corpus`` flag naming a missing file is refused by the CLI before this.
    """
    if not path.exists():  # a first run: created only when CAP volumes are to be stored in it
        if writable:
            return Corpus(path), None
        # nothing to store and nothing to read: an empty corpus in memory, so each citation still
        # says "the local corpus does not cover …" and no file appears at a path nobody created
        return Corpus(":memory:"), "no local corpus yet"
    if writable:
        try:
            return Corpus(path), None
        except CorpusError as exc:
            if "readonly" not in str(exc).replace("-", "") and "unable to open" not in str(exc):
                raise
            reason = f"{path} is read-only: CAP volumes cannot be stored in it"
    else:
        reason = "read-only for checks"
    _require_corpus_schema(path)
    return Corpus(path, readonly=True), reason


class Corpus:
    """Synchronous access to one corpus file; thread-safe (one connection behind a lock)."""

    def __init__(self, path: Path | str, *, readonly: bool = False, busy_timeout_s: float = 30.0) -> None:
        self.path = Path(path)
        self._lock = threading.RLock()
        self._readonly = readonly
        self._names: NameIndex | None = None  # built by the first name search
        # name searches answered from that index (an editor re-checks the same names at every pause)
        self._name_hits: dict[tuple[object, ...], tuple[NameIndex, tuple[NameHit, ...]]] = {}
        self._names_version: tuple[int, int] | None = None
        self._writes = 0  # this connection's commits (data_version only counts other connections')
        try:
            if readonly:
                if not self.path.exists():
                    raise CorpusError(f"no corpus at {self.path} (import one with `citecheck corpus import`)")
                self._db = _connect_readonly(self.path)
            else:
                try:
                    self.path.parent.mkdir(parents=True, exist_ok=True)
                except OSError as exc:
                    raise CorpusError(f"cannot create the corpus folder {self.path.parent}: {exc}") from exc
                if self.path.exists():
                    _require_corpus_schema(self.path)  # never add our tables to someone else's database
                self._db = sqlite3.connect(
                    self.path, check_same_thread=False, timeout=busy_timeout_s, isolation_level=None
                )
                self._db.execute("PRAGMA journal_mode=WAL")
                self._db.executescript(_SCHEMA)
                self._db.execute(
                    "INSERT OR IGNORE INTO meta(key, value) VALUES ('schema_version', ?)",
                    (str(SCHEMA_VERSION),),
                )
                self._db.commit()
            self._db.execute("PRAGMA foreign_keys=ON")
            self._db.execute("SELECT count(*) FROM cases").fetchone()
        except sqlite3.DatabaseError as exc:
            if any(w in str(exc).lower() for w in ("locked", "busy", "full")):
                raise storage_error(exc, self.path) from exc
            raise CorpusError(f"cannot open corpus {self.path}: {exc}") from exc
        self._in_tx = False

    # ------------------------------------------------------------------ writing
    @contextmanager
    def transaction(self) -> Iterator[None]:
        with self._lock:
            if self._in_tx:
                yield
                return
            self._in_tx = True
            try:
                self._db.execute("BEGIN")
                yield
                self.commit()
            except BaseException as exc:
                # SQLite has already rolled back after a full disk; a second ROLLBACK would replace
                # the real cause with "cannot rollback - no transaction is active"
                if self._db.in_transaction:
                    self._db.execute("ROLLBACK")
                if isinstance(exc, sqlite3.Error):
                    raise storage_error(exc, self.path) from exc
                raise
            finally:
                self._in_tx = False

    def upsert_case(self, record: CaseRecord, text: str | None = None, maps: Sequence[PageMap] = ()) -> int:
        """Insert or replace one case (by ``record.id``), its citations and opinion text. Returns its rowid.

        ``record.citations`` order is the citation index order (1-based) used by page markers.
        """
        with self.transaction():
            db = self._db
            row = db.execute("SELECT rowid FROM cases WHERE id = ?", (record.id,)).fetchone()
            values = (
                record.source,
                record.name,
                record.name_short,
                record.name_full,
                record.name_abbreviation,
                record.court_id,
                record.court_name,
                record.jurisdiction,
                record.decision_date,
                None,
                record.url,
            )
            if row is None:
                cur = db.execute(
                    "INSERT INTO cases (source, name, name_short, name_full, name_abbreviation, court_id,"
                    " court_name, jurisdiction, decision_date, docket_number, url, id)"
                    " VALUES (?,?,?,?,?,?,?,?,?,?,?,?)",
                    (*values, record.id),
                )
                rowid = int(cur.lastrowid or 0)
            else:
                rowid = int(row[0])
                db.execute(
                    "UPDATE cases SET source=?, name=?, name_short=?, name_full=?, name_abbreviation=?,"
                    " court_id=?, court_name=?, jurisdiction=?, decision_date=?, docket_number=?, url=?"
                    " WHERE rowid=?",
                    (*values, rowid),
                )
                db.execute("DELETE FROM citations WHERE case_rowid = ?", (rowid,))
            db.executemany(
                "INSERT INTO citations (case_rowid, idx, volume, reporter, page, page_num, last_page,"
                " last_page_num, type) VALUES (?,?,?,?,?,?,?,?,?)",
                [
                    (
                        rowid,
                        i,
                        c.volume,
                        c.reporter,
                        c.page,
                        _num(c.page),
                        c.last_page,
                        _num(c.last_page),
                        c.type,
                    )
                    for i, c in enumerate(record.citations, start=1)
                ],
            )
            if text is not None:
                self._replace_text(rowid, text, maps, record.citations)
            return rowid

    def _replace_text(
        self, rowid: int, text: str, maps: Sequence[PageMap], cites: Sequence[CaseCite]
    ) -> None:
        db = self._db
        old = db.execute("SELECT text FROM opinions WHERE case_rowid = ?", (rowid,)).fetchone()
        if old is not None:
            db.execute(
                "INSERT INTO opinion_fts(opinion_fts, rowid, text) VALUES ('delete', ?, ?)", (rowid, old[0])
            )
        encoded = []
        for pm in maps:
            idx = next(
                (i for i, c in enumerate(cites, 1) if c.reporter == pm.reporter and c.volume == pm.volume), 0
            )
            encoded.append([idx, pm.reporter, pm.volume, pm.first_page, [list(s) for s in pm.starts]])
        db.execute(
            "INSERT OR REPLACE INTO opinions (case_rowid, text, page_maps) VALUES (?,?,?)",
            (rowid, text, json.dumps(encoded)),
        )
        db.execute("INSERT INTO opinion_fts(rowid, text) VALUES (?, ?)", (rowid, text))

    def mark_volume(
        self, reporter: str, volume: str, source: str, *, complete: bool, last_page: str | None
    ) -> None:
        with self.transaction():
            self._db.execute(
                "INSERT OR REPLACE INTO volumes (reporter, volume, source, complete, last_page) VALUES (?,?,?,?,?)",
                (reporter, volume, source, int(complete), last_page),
            )

    def volume_ranges(self, reporter: str, volume: str, source: str | None = None) -> list[tuple[int, int]]:
        """Page ranges of the cases that begin in this volume (last page = first page when unknown)."""
        sql = (
            "SELECT c.page_num, coalesce(c.last_page_num, c.page_num) FROM citations c"
            " JOIN cases k ON k.rowid = c.case_rowid"
            " WHERE c.reporter = ? AND c.volume = ? AND c.page_num IS NOT NULL"
        )
        args: list[str] = [reporter, volume]
        if source:
            sql += " AND k.source = ?"
            args.append(source)
        with self._lock:
            return [(a, max(a, b)) for a, b in self._db.execute(sql, args)]

    @property
    def connection(self) -> sqlite3.Connection:
        """The raw connection, for the importers' staging tables only (hold ``lock`` while using it)."""
        return self._db

    @property
    def lock(self) -> threading.RLock:
        return self._lock

    def commit(self) -> None:
        """COMMIT the open transaction, if the disk has room to merge it into the corpus file.

        In WAL mode a commit lands in the ``-wal`` file and is merged into the database later; on a
        disk too full for the merge, the log stays beside the corpus for good, holding the import. So an
        import commits only with room for the log, the pages SQLite still holds and the merge
        (``_COMMIT_HEADROOM``); otherwise it raises SQLite's own "full" error and the caller rolls
        back: the corpus stays as it was and closing it leaves no ``-wal`` file.
        """
        wal = self.path.with_name(self.path.name + "-wal")
        try:
            free = shutil.disk_usage(self.path.parent).free
            logged = wal.stat().st_size if wal.exists() else 0
        except OSError:
            free, logged = None, 0
        if free is not None and free < logged + _COMMIT_HEADROOM:
            raise sqlite3.OperationalError(
                f"database or disk is full ({free // 1024:,} KB free; merging this import needs "
                f"{(logged + _COMMIT_HEADROOM) // 1024:,} KB)"
            )
        self._db.execute("COMMIT")
        self._writes += 1

    def close(self) -> None:
        with self._lock:
            if not self._readonly:
                try:  # merge the log now and empty it, so closing removes it (also after a failed import)
                    self._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
                except sqlite3.Error as exc:
                    log.debug("could not merge %s-wal into the corpus: %s", self.path.name, exc)
            self._db.close()

    # ------------------------------------------------------------------ reading
    def _records(self, rowids: Sequence[int]) -> list[CaseRecord]:
        if not rowids:
            return []
        marks = ",".join("?" * len(rowids))
        with self._lock:
            cases = self._db.execute(
                f"SELECT rowid, id, source, name, name_short, name_full, name_abbreviation, court_id, court_name,"
                f" jurisdiction, decision_date, url FROM cases WHERE rowid IN ({marks})",
                list(rowids),
            ).fetchall()
            cites: dict[int, list[CaseCite]] = {}
            for rid, vol, rep, page, last, typ in self._db.execute(
                f"SELECT case_rowid, volume, reporter, page, last_page, type FROM citations"
                f" WHERE case_rowid IN ({marks}) ORDER BY case_rowid, idx",
                list(rowids),
            ):
                cites.setdefault(rid, []).append(
                    CaseCite(volume=vol, reporter=rep, page=page, last_page=last, type=typ)
                )
        by_rowid = {
            r[0]: CaseRecord(
                id=r[1],
                source=r[2],
                name=r[3],
                name_short=r[4],
                name_full=r[5],
                name_abbreviation=r[6],
                court_id=r[7],
                court_name=r[8],
                jurisdiction=r[9],
                decision_date=r[10],
                url=r[11],
                citations=tuple(cites.get(r[0], ())),
            )
            for r in cases
        }
        return [by_rowid[r] for r in rowids if r in by_rowid]

    def record(self, case_id: str) -> CaseRecord | None:
        rowid = self.rowid(case_id)
        recs = self._records([rowid]) if rowid is not None else []
        return recs[0] if recs else None

    def record_by_rowid(self, rowid: int) -> CaseRecord | None:
        recs = self._records([rowid])
        return recs[0] if recs else None

    def rowid(self, case_id: str) -> int | None:
        with self._lock:
            row = self._db.execute("SELECT rowid FROM cases WHERE id = ?", (case_id,)).fetchone()
        return int(row[0]) if row else None

    def volume_info(self, reporter: str, volume: str) -> tuple[bool, str | None, str | None]:
        """(complete, last page, source) for a volume, preferring a complete entry."""
        with self._lock:
            row = self._db.execute(
                "SELECT complete, last_page, source FROM volumes WHERE reporter = ? AND volume = ?"
                " ORDER BY complete DESC LIMIT 1",
                (reporter, volume),
            ).fetchone()
        if row is None:
            return False, None, None
        return bool(row[0]), row[1], row[2]

    def has_volume(self, reporter: str, volume: str, source: str | None = None) -> bool:
        with self._lock:
            if source:
                row = self._db.execute(
                    "SELECT 1 FROM volumes WHERE reporter = ? AND volume = ? AND source = ?",
                    (reporter, volume, source),
                ).fetchone()
            else:
                row = self._db.execute(
                    "SELECT 1 FROM volumes WHERE reporter = ? AND volume = ?", (reporter, volume)
                ).fetchone()
        return row is not None

    def lookup_one(self, key: CiteKey) -> LookupResult:
        reporter = normalise_reporter(key.reporter)
        if is_database(reporter):
            return LookupResult(
                key=key,
                status=LookupStatus.CANNOT_VERIFY,
                source="corpus",
                reason=f"{reporter} is a Westlaw/Lexis database citation; no public source covers it",
            )
        with self._lock:
            rowids = [
                int(r[0])
                for r in self._db.execute(
                    "SELECT DISTINCT case_rowid FROM citations WHERE reporter = ? AND volume = ? AND page = ?",
                    (reporter, key.volume, key.page),
                )
            ]
        complete, vol_last, vol_source = self.volume_info(reporter, key.volume)
        if rowids:
            recs = self._records(rowids)
            status = LookupStatus.FOUND if len(recs) == 1 else LookupStatus.AMBIGUOUS
            return LookupResult(
                key=key,
                status=status,
                records=tuple(recs),
                source="corpus",
                reason=f"found in the local corpus ({recs[0].source})",
                volume_complete=complete,
                volume_last_page=vol_last if complete else None,
            )
        page = _num(key.page)
        containing = None
        if page is not None:
            with self._lock:
                row = self._db.execute(
                    "SELECT case_rowid FROM citations WHERE reporter = ? AND volume = ? AND page_num < ?"
                    " AND last_page_num >= ? ORDER BY page_num DESC LIMIT 1",
                    (reporter, key.volume, page, page),
                ).fetchone()
            if row:
                found = self._records([int(row[0])])
                containing = found[0] if found else None
        label = f"{key.volume} {reporter}"
        if complete:
            past_end = (
                page is not None and vol_last is not None and vol_last.isdigit() and page > int(vol_last)
            )
            reason = (
                f"page {key.page} is past the last page ({vol_last}) of {label}, which the local corpus holds in full"
                if past_end
                else (
                    f"no case begins at page {key.page} of {label}, "
                    f"which the local corpus ({vol_source}) holds in full"
                )
            )
            return LookupResult(
                key=key,
                status=LookupStatus.NOT_FOUND,
                source="corpus",
                reason=reason,
                containing=containing,
                volume_complete=True,
                volume_last_page=vol_last,
            )
        ranges = _merge(self.volume_ranges(reporter, key.volume))
        if ranges:
            reason = f"the local corpus holds only part of {label} (pages {_fmt_ranges(ranges)})"
        else:
            reason = f"the local corpus does not cover {label}"
        return LookupResult(
            key=key, status=LookupStatus.CANNOT_VERIFY, source="corpus", reason=reason, containing=containing
        )

    def lookup(self, keys: Sequence[CiteKey]) -> dict[CiteKey, LookupResult]:
        return {k: self.lookup_one(k) for k in keys}

    def opinion_by_rowid(self, rowid: int) -> OpinionText | None:
        with self._lock:
            row = self._db.execute(
                "SELECT k.id, o.text, o.page_maps FROM opinions o JOIN cases k ON k.rowid = o.case_rowid"
                " WHERE o.case_rowid = ?",
                (rowid,),
            ).fetchone()
        if row is None:
            return None
        maps = tuple(
            PageMap(
                reporter=rep,
                volume=vol,
                first_page=first,
                starts=tuple((int(o), str(lbl)) for o, lbl in starts),
            )
            for _idx, rep, vol, first, starts in json.loads(row[2])
        )
        return OpinionText(case_id=row[0], text=row[1], page_maps=maps)

    def opinion(self, case_id: str) -> OpinionText | None:
        rowid = self.rowid(case_id)
        return self.opinion_by_rowid(rowid) if rowid is not None else None

    def find_passage(self, passage: str, *, limit: int = 5) -> list[PassageHit]:
        """Cases whose text contains the passage (folded); the page from the first citation's page map."""
        fragment = longest_fragment(passage)
        query = fts_phrase(fragment)
        if query is None:
            return []
        with self._lock:
            try:
                rows = self._db.execute(
                    "SELECT rowid FROM opinion_fts WHERE opinion_fts MATCH ? LIMIT ?", (query, limit * 4)
                ).fetchall()
            except sqlite3.OperationalError:
                return []
        hits: list[PassageHit] = []
        for (rowid,) in rows:
            op = self.opinion_by_rowid(int(rowid))
            recs = self._records([int(rowid)])
            if op is None or not recs:
                continue
            where = locate(op.text, fragment)
            if where is None:
                continue
            start, end = where
            pm = op.page_maps[0] if op.page_maps else None
            hits.append(
                PassageHit(
                    case=recs[0],
                    offset=start,
                    passage=op.text[start:end],
                    page=pm.page_at(start) if pm else None,
                    reporter=pm.reporter if pm else None,
                )
            )
            if len(hits) >= limit:
                break
        return hits

    def find_by_name(
        self, name: str, *, limit: int = 5, court: str | None = None, years: tuple[int, int] | None = None
    ) -> list[NameHit]:
        """Cases whose names fit ``name`` (``name_keys.name_score`` of at least ``MIN_NAME_SCORE``), best first;
        the years and the court given only order cases of equal score (a draft's year or court may be the
        very thing that is wrong)."""
        index = self._name_index()
        key = (name, limit, court, years)
        cached = self._name_hits.get(key)
        if cached is not None and cached[0] is index:
            return list(cached[1])
        rowids = index.candidates(name, years)
        hits = []
        for rec in self._records(rowids):
            score = name_score(name, rec.names)
            if score >= MIN_NAME_SCORE:
                hits.append(NameHit(record=rec, score=score, source="corpus"))

        def rank(h: NameHit) -> tuple[float, int, int]:
            date = h.record.decision_date or ""
            year = int(date[:4]) if date[:4].isdigit() else None
            off_years = 0 if years is None or year is None or years[0] <= year <= years[1] else 1
            return (-h.score, off_years, 0 if court is None or h.record.court_id == court else 1)

        hits.sort(key=rank)
        if len(self._name_hits) > 4096:
            self._name_hits.clear()
        self._name_hits[key] = (index, tuple(hits[:limit]))
        return hits[:limit]

    def _name_index(self) -> NameIndex:
        """The word index of every case name, rebuilt when this or another connection changed the corpus."""
        with self._lock:
            version = (self._db.execute("PRAGMA data_version").fetchone()[0], self._writes)
            if self._names is None or self._names_version != version:
                rows = self._db.execute(
                    "SELECT rowid, decision_date, name, name_abbreviation, name_short, name_full FROM cases"
                )
                self._names = NameIndex((int(r[0]), r[1], tuple(r[2:])) for r in rows)
                self._names_version = version
            return self._names

    def coverage(self, reporter: str | None = None) -> list[Coverage]:
        with self._lock:
            sql = "SELECT reporter, volume, max(complete) FROM volumes"
            args: list[str] = []
            if reporter:
                sql += " WHERE reporter = ?"
                args.append(reporter)
            sql += " GROUP BY reporter, volume ORDER BY reporter, CAST(volume AS INTEGER), volume"
            vols = self._db.execute(sql, args).fetchall()
        out = []
        for rep, vol, complete in vols:
            ranges = self.volume_ranges(rep, vol)
            out.append(
                Coverage(
                    reporter=rep,
                    volume=vol,
                    cases=len(ranges),
                    complete=bool(complete),
                    ranges=_merge(ranges),
                )
            )
        return out

    def stats(self) -> dict[str, object]:
        """Counts for ``corpus stats``: cases, opinions, citations per reporter, complete volumes."""
        with self._lock:
            cases = self._db.execute("SELECT count(*) FROM cases").fetchone()[0]
            texts = self._db.execute("SELECT count(*) FROM opinions").fetchone()[0]
            per_reporter = dict(
                self._db.execute(
                    "SELECT reporter, count(*) FROM citations GROUP BY reporter ORDER BY count(*) DESC, reporter"
                ).fetchall()
            )
        complete = [f"{c.volume} {c.reporter}" for c in self.coverage() if c.complete]
        return {
            "cases": cases,
            "opinions": texts,
            "citations_per_reporter": per_reporter,
            "complete_volumes": complete,
        }


class CorpusSource:
    """The corpus as a link of the source chain (lookup, opinion text, passage and name search).

    Calls run in a worker thread: a CAP volume being imported in another thread holds the corpus
    lock for a while, and the language server's event loop must never wait on it.
    """

    name = "corpus"
    label = "local corpus"
    local = True

    def __init__(self, corpus: Corpus) -> None:
        self.corpus = corpus

    @property
    def description(self) -> str:
        return f"local corpus ({self.corpus.path})"

    async def _run(self, what: str, fn: Callable[..., Any], *args: Any, **kw: Any) -> Any:
        try:
            return await asyncio.to_thread(fn, *args, **kw)
        except sqlite3.Error as exc:
            raise CorpusError(f"corpus {what} failed: {exc}") from exc

    async def lookup(self, keys: Sequence[CiteKey]) -> dict[CiteKey, LookupResult]:
        return await self._run("lookup", self.corpus.lookup, list(keys))

    async def opinion(self, record: CaseRecord) -> OpinionText | None:
        return await self._run("read", self.corpus.opinion, record.id)

    async def find_passage(self, passage: str, *, limit: int = 5) -> list[PassageHit]:
        return await self._run("search", self.corpus.find_passage, passage, limit=limit)

    async def has_volume(self, reporter: str, volume: str, source: str | None = None) -> bool:
        return await self._run("read", self.corpus.has_volume, reporter, volume, source)

    async def find_by_name(
        self,
        name: str,
        *,
        limit: int = 5,
        court: str | None = None,
        years: tuple[int, int] | None = None,
        remote: bool = True,
    ) -> NameSearch:
        hits = await self._run(
            "search", self.corpus.find_by_name, name, limit=limit, court=court, years=years
        )
        return NameSearch(hits=tuple(hits), asked=("the local corpus",))

    # the corpus alone is a whole source for ``gather`` too (the evaluation, tests): all of it is local
    async def lookup_local(self, keys: Sequence[CiteKey]) -> dict[CiteKey, LookupResult]:
        return await self.lookup(keys)

    async def opinion_local(self, record: CaseRecord) -> OpinionText | None:
        return await self.opinion(record)

    async def close(self) -> None:
        await asyncio.to_thread(self.corpus.close)
