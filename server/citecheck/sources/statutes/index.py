"""The statute index: one SQLite file of U.S. Code and C.F.R. sections (heading, status, text).

All of its SQL lives here. A title is replaced whole, in one transaction (a sync that stops half way
leaves every title either as it was or as new). Lookups are one indexed read (bench/statutes.py);
the sections' texts are zlib-compressed together in blocks of about 32 KB (a section alone compresses
a third worse), in their own table, read only when a quote is compared.

What "covers" means (the rule that keeps a real section from being called fabricated): the index
covers a title when it holds that title's whole release — every section element of the USLM title
file or the eCFR title, repealed, reserved and removed ones included — so a section it does not hold
does not exist in that edition. A title never synced is not covered; its citations stay not checked.
"""

from __future__ import annotations

import re
import shutil
import sqlite3
import zlib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from citecheck.errors import CorpusError, DiskSpaceError, EmptyTitle
from citecheck.sources.statutes.ecfr import VersionEntry
from citecheck.sources.statutes.records import (
    APPENDIX_ACTS,
    CODES,
    KNOWN_USC_RELEASE,
    LookupOutcome,
    ParsedSection,
    ParsedTitle,
    SectionRecord,
    SectionStatus,
    StatuteAnswer,
    appendix_label,
    normalise_section,
    normalise_title,
    release_order,
    section_order,
)

__all__ = ["SCHEMA_VERSION", "StatuteIndex", "StatuteKeyLike", "TitleRow", "section_url"]

SCHEMA_VERSION = 3
#: Texts are compressed together until a block holds this many bytes (zlib's window is 32 KB: larger
#: blocks compress no better and take longer to read one section from).
BLOCK_BYTES = 32 * 1024
_KIND = "citecheck-statutes"
#: How many moves a "transferred to" / "renumbered as" chain is followed (37 U.S.C. § 404 → § 474 → …).
MAX_HOPS = 5

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS titles(
  code TEXT NOT NULL, title TEXT NOT NULL, heading TEXT NOT NULL, edition TEXT NOT NULL,
  sections INTEGER NOT NULL, source TEXT NOT NULL, synced_at TEXT NOT NULL,
  covered INTEGER NOT NULL DEFAULT 1, note TEXT NOT NULL DEFAULT '',
  PRIMARY KEY(code, title)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS sections(
  id INTEGER PRIMARY KEY, code TEXT NOT NULL, title TEXT NOT NULL, section TEXT NOT NULL,
  ord TEXT NOT NULL, act TEXT NOT NULL DEFAULT '', dup INTEGER NOT NULL DEFAULT 0,
  heading TEXT NOT NULL, status TEXT NOT NULL, moved_to TEXT, amended TEXT,
  range_last TEXT, range_last_ord TEXT, history TEXT, block INTEGER, off INTEGER, len INTEGER);
CREATE INDEX IF NOT EXISTS sections_key ON sections(code, title, section);
CREATE INDEX IF NOT EXISTS sections_ord ON sections(code, title, ord);
CREATE INDEX IF NOT EXISTS sections_ranges ON sections(code, title, ord) WHERE range_last IS NOT NULL;
CREATE TABLE IF NOT EXISTS acts(
  code TEXT NOT NULL, title TEXT NOT NULL, act TEXT NOT NULL, number TEXT NOT NULL, name TEXT NOT NULL,
  PRIMARY KEY(code, title, act)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS moves(
  code TEXT NOT NULL, title TEXT NOT NULL, section TEXT NOT NULL, moved_to TEXT NOT NULL,
  PRIMARY KEY(code, title, section)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS units(
  code TEXT NOT NULL, title TEXT NOT NULL, kind TEXT NOT NULL, number TEXT NOT NULL, last TEXT,
  heading TEXT NOT NULL, reserved INTEGER NOT NULL, PRIMARY KEY(code, title, kind, number)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS blocks(id INTEGER PRIMARY KEY, code TEXT NOT NULL, title TEXT NOT NULL, body BLOB NOT NULL);
CREATE INDEX IF NOT EXISTS blocks_title ON blocks(code, title);
"""

_COLUMNS = "code, title, section, heading, status, moved_to, amended, range_last, history, act, dup, id"
_S_COLUMNS = ", ".join(f"s.{c}" for c in _COLUMNS.split(", "))
_TABLES = ("sections", "texts", "blocks", "titles", "meta", "acts", "moves", "units")


class StatuteKeyLike(Protocol):
    """What a lookup needs of a citation's key (the extraction's ``StatuteKey`` has these; ``act`` and
    ``unit`` are read when present)."""

    @property
    def code(self) -> str: ...
    @property
    def title(self) -> str | None: ...
    @property
    def section(self) -> str: ...


@dataclass(frozen=True, slots=True, kw_only=True)
class TitleRow:
    code: str
    title: str
    heading: str
    edition: str
    sections: int
    source: str
    synced_at: str
    covered: bool = True  # False: held only to say why it is not checked (an eliminated appendix)
    note: str = ""

    @property
    def label(self) -> str:
        return _label(self.code, self.title)


def section_url(code: str, title: str, section: str) -> str:
    """The official page of a section (OLRC for the U.S. Code, ecfr.gov for the C.F.R.)."""
    if code == "cfr":
        return f"https://www.ecfr.gov/current/title-{title}/section-{section}"
    return (
        f"https://uscode.house.gov/view.xhtml?req=granuleid:USC-prelim-title{title}-section{section}"
        "&num=0&edition=prelim"
    )


def _history_text(entries: tuple[VersionEntry, ...]) -> str:
    return ";".join(e.date + ("r" if e.removed else "") for e in entries)


def _status_at(history: str | None, as_of: str | None) -> tuple[bool, str | None]:
    """(removed at ``as_of``, the date it was removed) from a stored history; no history: not removed."""
    if not history:
        return False, None
    last: str | None = None
    removed_on: str | None = None
    for item in history.split(";"):
        date = item.rstrip("r")
        if as_of is not None and date > as_of:
            break
        last = item
        removed_on = date if item.endswith("r") else None
    return bool(last and last.endswith("r")), removed_on


#: Free space a title needs beyond the ``-wal`` file to commit: SQLite appends the pages it still holds to
#: the log, then merging it may grow the index by as much again (as ``corpus.py``'s imports).
_COMMIT_HEADROOM = 5 * 1024 * 1024


def _room_to_commit(path: Path) -> None:
    """SQLite's own "full" error unless the disk has room to merge the log into the index: a commit that
    fits only in the log left the ``-wal`` beside the index for good on a full disk (issue 35)."""
    wal = path.with_name(path.name + "-wal")
    try:
        free = shutil.disk_usage(path.parent).free
        logged = wal.stat().st_size if wal.exists() else 0
    except OSError:
        return
    if free < logged + _COMMIT_HEADROOM:
        raise sqlite3.OperationalError(
            f"database or disk is full ({free // 1024:,} KB free; storing this title needs "
            f"{(logged + _COMMIT_HEADROOM) // 1024:,} KB)"
        )


def _delete_title(db: sqlite3.Connection, code: str, title: str) -> None:
    for table in ("blocks", "sections", "acts", "moves", "units", "titles"):
        db.execute(f"DELETE FROM {table} WHERE code=? AND title=?", (code, title))


class _TitleWriter:
    """Rows of one title in batches, texts packed into compressed blocks (inside the caller's transaction).

    The title's number may be known only once its first sections were read (a file without
    ``docNumber``): the title's old rows are deleted at the first flush. Every section element is kept,
    duplicates too (two 14 U.S.C. § 548; § 4 of two acts of one appendix): ``dup`` numbers the second."""

    def __init__(self, db: sqlite3.Connection, title: ParsedTitle, level: int) -> None:
        self.db, self.title, self.level = db, title, level
        self.rows: list[tuple[object, ...]] = []
        self.moves: list[tuple[str, str]] = []
        self.seen: dict[tuple[str, str], int] = {}  # (act, section) → how many so far
        self.count = 0
        self.started = False
        self.block: list[bytes] = []
        self.block_bytes = 0
        self.block_id = (db.execute("SELECT MAX(id) FROM blocks").fetchone()[0] or 0) + 1

    def numbers(self) -> set[str]:
        return {number for _act, number in self.seen}

    def add(self, s: ParsedSection, entries: tuple[VersionEntry, ...]) -> None:
        place: tuple[int | None, int | None, int | None] = (None, None, None)
        if s.text:
            data = s.text.encode()
            place = (self.block_id, self.block_bytes, len(data))
            self.block.append(data)
            self.block_bytes += len(data)
        amended = next((e.date for e in reversed(entries) if not e.removed), None)
        hist = _history_text(entries) if entries else None
        for i, (number, last) in enumerate(((s.section, s.range_last), *s.also)):
            dup = self.seen.get((s.act, number), 0)
            self.seen[(s.act, number)] = dup + 1
            self.rows.append(
                (
                    number,
                    section_order(number),
                    s.act,
                    dup,
                    s.heading,
                    s.status.value,
                    s.moved_to if i == 0 and not last else None,
                    amended,
                    last,
                    section_order(last) if last else None,
                    hist,
                    *(place if i == 0 else (None, None, None)),
                )
            )
            self.count += 1
        self.moves.extend(s.moves)
        if self.block_bytes >= BLOCK_BYTES:
            self._flush_block()
        if len(self.rows) >= 2000:
            self._flush_rows()

    def add_removed(self, number: str, entries: tuple[VersionEntry, ...]) -> None:
        heading = next((e.name for e in reversed(entries) if e.name), "")
        heading = heading.split(None, 2)[-1] if heading.startswith("§") else heading
        amended = next((e.date for e in reversed(entries) if not e.removed), None)
        self.seen[("", number)] = 1
        removed = SectionStatus.REMOVED.value
        row = (number, section_order(number), "", 0, heading.rstrip("."), removed, None, amended, None, None)
        self.rows.append((*row, _history_text(entries), None, None, None))
        self.count += 1

    def _start(self) -> bool:
        if not self.started and self.title.title:
            _delete_title(self.db, self.title.code, self.title.title)
            self.started = True
        return self.started

    def _flush_block(self) -> None:
        if not self.block or not self._start():
            return
        body = zlib.compress(b"".join(self.block), self.level)
        self.db.execute(
            "INSERT INTO blocks(id, code, title, body) VALUES (?,?,?,?)",
            (self.block_id, self.title.code, self.title.title, body),
        )
        self.block_id += 1
        self.block, self.block_bytes = [], 0

    def _flush_rows(self) -> None:
        if not self.rows or not self._start():
            return
        self.db.executemany(
            "INSERT INTO sections(code, title, section, ord, act, dup, heading, status, moved_to, amended,"
            " range_last, range_last_ord, history, block, off, len) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
            [(self.title.code, self.title.title, *row) for row in self.rows],
        )
        self.rows.clear()

    def finish(self) -> None:
        if self.count == 0:  # nothing read: never a title the index covers, never over a good copy
            raise EmptyTitle(f"title {self.title.title or '?'} has no sections")
        self._flush_block()
        self._flush_rows()
        if not self._start():
            raise CorpusError("a title with no number cannot be stored")
        code, title = self.title.code, self.title.title
        self.db.executemany(
            "INSERT OR REPLACE INTO moves(code, title, section, moved_to) VALUES (?,?,?,?)",
            [(code, title, normalise_section(sec), dest) for sec, dest in self.moves],
        )
        self.db.executemany(
            "INSERT OR REPLACE INTO acts(code, title, act, number, name) VALUES (?,?,?,?,?)",
            [(code, title, a.key, a.number, a.name) for a in self.title.acts.values()],
        )
        self.db.executemany(
            "INSERT OR REPLACE INTO units(code, title, kind, number, last, heading, reserved) VALUES (?,?,?,?,?,?,?)",
            [(code, title, u.kind, u.number, u.last, u.heading, int(u.reserved)) for u in self.title.units],
        )


class StatuteIndex:
    """The index file; ``readonly`` for checks, writable for ``corpus sync --statutes``."""

    def __init__(self, path: Path | str, *, readonly: bool = False) -> None:
        self.path = Path(path)
        self.readonly = readonly
        self._blocks: dict[int, bytes] = {}  # the last few decompressed text blocks
        try:
            if readonly:
                if not self.path.exists():
                    raise CorpusError(
                        f"no statute index at {self.path} (run: citecheck corpus sync --statutes)"
                    )
                self._db = sqlite3.connect(f"file:{self.path}?mode=ro", uri=True, check_same_thread=False)
                self._db.execute("PRAGMA mmap_size=268435456")  # lookups read mapped pages, no syscalls
            else:
                self.path.parent.mkdir(parents=True, exist_ok=True)
                self._db = sqlite3.connect(self.path, check_same_thread=False)
                self._db.execute("PRAGMA journal_mode=WAL")
            self._check_identity()
        except sqlite3.DatabaseError as exc:
            raise CorpusError(f"cannot use the statute index {self.path}: {exc}") from exc
        self._newest: str | None = None

    def _check_identity(self) -> None:
        tables = {r[0] for r in self._db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        if tables and "meta" not in tables:
            raise CorpusError(f"{self.path} is another SQLite database, not a citecheck statute index")
        if "meta" in tables:
            meta = dict(self._db.execute("SELECT key, value FROM meta").fetchall())
            if meta.get("kind") != _KIND:
                raise CorpusError(f"{self.path} is another SQLite database, not a citecheck statute index")
            version = int(meta.get("schema", "0"))
            if version > SCHEMA_VERSION:
                raise CorpusError(
                    f"the statute index {self.path} was written by a newer citecheck (schema {version}); "
                    "upgrade citecheck or sync into another file"
                )
            if version == SCHEMA_VERSION:
                return
            if self.readonly:
                raise CorpusError(
                    f"the statute index {self.path} was built by an older citecheck (schema {version}); "
                    "run citecheck corpus sync --statutes to rebuild it"
                )
            with self._db:  # an older layout: start again (a sync fills it)
                for table in _TABLES:
                    self._db.execute(f"DROP TABLE IF EXISTS {table}")
        elif self.readonly:
            raise CorpusError(f"{self.path} is an empty file, not a citecheck statute index")
        with self._db:
            self._db.executescript(_SCHEMA)
            self._db.executemany(
                "INSERT INTO meta(key, value) VALUES (?, ?)",
                (("kind", _KIND), ("schema", str(SCHEMA_VERSION))),
            )

    def close(self) -> None:
        if not self.readonly:  # merge the log now and empty it, so closing removes it
            try:
                self._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            except sqlite3.Error:
                pass  # a full disk: the log keeps what was committed, and the next open merges it
        self._db.close()

    def __enter__(self) -> StatuteIndex:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ------------------------------------------------------------------ writing
    def replace_title(
        self,
        title: ParsedTitle,
        sections: Iterable[ParsedSection],
        *,
        source: str,
        history: Mapping[str, tuple[VersionEntry, ...]] | None = None,
        synced_at: str = "",
        level: int = 6,
    ) -> int:
        """Store one title whole (replacing what the index held for it); returns its section count.

        ``sections`` is consumed inside the transaction, so a parse error (``SchemaChanged``) half way
        rolls the title back to what it was; so does a title with no sections at all (``EmptyTitle``:
        ``mark_uncovered`` may then record why it is not checked). ``history`` (C.F.R.): the versioner's
        versions by section; sections it lists as removed that the title no longer has are stored as
        ``removed``.
        """
        if self.readonly:
            raise CorpusError(f"the statute index {self.path} is open read-only")
        db = self._db
        try:
            db.execute("BEGIN IMMEDIATE")
            writer = _TitleWriter(db, title, level)
            for s in sections:
                writer.add(s, history.get(s.section, ()) if history else ())
            if history:  # removed from the C.F.R. since: known to have existed, never "fabricated"
                numbers = writer.numbers()
                for number, entries in history.items():
                    if number not in numbers and entries and entries[-1].removed:
                        writer.add_removed(number, entries)
            writer.finish()
            db.execute(
                "INSERT OR REPLACE INTO titles(code, title, heading, edition, sections, source, synced_at,"
                " covered, note) VALUES (?,?,?,?,?,?,?,1,'')",
                (title.code, title.title, title.heading, title.edition, writer.count, source, synced_at),
            )
            self._note_release(title)
            _room_to_commit(self.path)
            db.execute("COMMIT")
        except BaseException as exc:
            if db.in_transaction:
                db.execute("ROLLBACK")
            if isinstance(exc, sqlite3.OperationalError) and "full" in str(exc).lower():
                raise DiskSpaceError(
                    f"the disk holding the statute index {self.path} is full; title {title.title or '?'} was "
                    "rolled back (the titles stored before it stay). Free some space and run the sync again"
                ) from exc
            raise
        self._blocks.clear()
        self._newest = None
        return writer.count

    def _note_release(self, title: ParsedTitle) -> None:
        """The newest U.S. Code release point ever stored (an older title is then known to be older)."""
        if title.code != "usc" or not title.edition:
            return
        row = self._db.execute("SELECT value FROM meta WHERE key='usc_newest'").fetchone()
        if row is None or release_order(title.edition) > release_order(str(row[0])):
            self._db.execute(
                "INSERT OR REPLACE INTO meta(key, value) VALUES ('usc_newest', ?)", (title.edition,)
            )

    def mark_uncovered(self, title: ParsedTitle, *, note: str, source: str, synced_at: str = "") -> None:
        """Record a title the release holds no sections of (``50 U.S.C. App.``, eliminated), replacing what
        the index held: its citations are then not checked, with ``note`` as the reason."""
        if self.readonly:
            raise CorpusError(f"the statute index {self.path} is open read-only")
        with self._db:
            _delete_title(self._db, title.code, title.title)
            self._db.execute(
                "INSERT INTO titles(code, title, heading, edition, sections, source, synced_at, covered, note)"
                " VALUES (?,?,?,?,0,?,?,0,?)",
                (title.code, title.title, title.heading, title.edition, source, synced_at, note),
            )
            self._note_release(title)
        self._newest = None

    def _delete_title(self, code: str, title: str) -> None:
        _delete_title(self._db, code, title)

    def vacuum(self) -> None:
        self._db.execute("VACUUM")

    # ------------------------------------------------------------------ reading
    def covers(self, code: str, title: str) -> bool:
        """The index holds the whole of this title (a section it lacks does not exist in that edition)."""
        row = self._db.execute(
            "SELECT covered FROM titles WHERE code=? AND title=?", (code, normalise_title(title))
        ).fetchone()
        return row is not None and bool(row[0])

    def titles(self, code: str | None = None) -> list[TitleRow]:
        sql = "SELECT code, title, heading, edition, sections, source, synced_at, covered, note FROM titles"
        rows = self._db.execute(sql + (" WHERE code=?" if code else ""), (code,) if code else ()).fetchall()
        out = [
            TitleRow(
                code=c,
                title=t,
                heading=h,
                edition=e,
                sections=n,
                source=src,
                synced_at=at,
                covered=bool(cv),
                note=nt,
            )
            for c, t, h, e, n, src, at, cv, nt in rows
        ]
        return sorted(out, key=lambda t: (t.code, section_order(t.title)))

    def newest_release(self) -> str:
        """The newest U.S. Code release point known: this citecheck's, or a newer one the index has held."""
        if self._newest is None:
            row = self._db.execute("SELECT value FROM meta WHERE key='usc_newest'").fetchone()
            held = str(row[0]) if row else ""
            self._newest = max((KNOWN_USC_RELEASE, held), key=release_order)
        return self._newest

    def _newer(self, code: str, edition: str, as_of: str | None) -> str:
        """What is known to be newer than the edition that answered (a section missing from it may exist):
        a later U.S. Code release point, or the brief's date after a C.F.R. edition's."""
        if code == "usc":
            newest = self.newest_release()
            if not edition or release_order(edition) < release_order(newest):
                return newest
            return ""
        if as_of and _ISO_DATE.fullmatch(edition) and edition < as_of:
            return as_of
        return ""

    def lookup(self, key: StatuteKeyLike, *, as_of: str | None = None) -> StatuteAnswer:
        """The section ``key`` names, as of ``as_of`` (ISO date; C.F.R. history) or the indexed edition.

        A key without a title (a code not divided into titles) is not covered, and so is a title held only
        to say it is not checked (an eliminated appendix). A number borne by several sections (two acts of
        an appendix, the Code's own duplicates) is found with ``alternatives`` and no heading of its own,
        unless the key's ``act`` picks one. NOT_FOUND carries the neighbouring sections, in ``similar`` the
        sections whose number begins with the key's and a parenthesis (``26 C.F.R. § 1.401(a)(9)-9`` read as
        § 1.401 with subsections) or the same section of the appendix's other acts, and in ``newer`` a
        newer edition known to exist: then the number may be right, and the check must not be certain.
        """
        if not key.title:
            return StatuteAnswer(outcome=LookupOutcome.NOT_COVERED, reason="the citation names no title")
        code, title = key.code, normalise_title(key.title)
        unit = getattr(key, "unit", "")
        known: list[tuple[object, ...]] | None = None
        if not unit and not title.endswith("a"):  # the common case in one read: a section of a title
            found = self._found(code, title, normalise_section(key.section), as_of)
            if isinstance(found, StatuteAnswer):
                return found
            known = None if found else []  # no element bears the number: no need to ask again
        t = self._db.execute(
            "SELECT edition, covered, note, heading FROM titles WHERE code=? AND title=?", (code, title)
        ).fetchone()
        label = _label(code, title)
        if t is None:
            return StatuteAnswer(
                outcome=LookupOutcome.NOT_COVERED, reason=f"the statute index does not hold {label}"
            )
        edition, covered, note = str(t[0]), bool(t[1]), str(t[2])
        if not covered:
            where = f"release point {edition}" if code == "usc" and edition else edition or "its source"
            return StatuteAnswer(
                outcome=LookupOutcome.NOT_COVERED,
                edition=edition,
                reason=f"{label} holds no sections in {where}"
                + (f" ({_first_sentence(note)})" if note else ""),
            )
        if unit:
            return self._lookup_unit(code, title, unit, normalise_section(key.section), edition, label, as_of)
        return self._lookup_section(key, code, title, edition, label, as_of, rows=known)

    def _found(self, code: str, title: str, section: str, as_of: str | None) -> StatuteAnswer | int:
        """The section when one element of the title bears its number (one indexed read), else how many do."""
        rows = self._db.execute(
            f"SELECT {_S_COLUMNS}, t.edition FROM sections s JOIN titles t ON t.code = s.code AND t.title = s.title"
            " WHERE s.code=? AND s.title=? AND s.section=? LIMIT 2",
            (code, title, section),
        ).fetchall()
        if len(rows) != 1:
            return len(rows)
        edition = str(rows[0][-1])
        record = self._record(rows[0][:-1], edition, as_of, {}, section)
        return StatuteAnswer(outcome=LookupOutcome.FOUND, record=record, edition=edition)

    def _acts(self, code: str, title: str) -> dict[str, tuple[str, str]]:
        rows = self._db.execute("SELECT act, number, name FROM acts WHERE code=? AND title=?", (code, title))
        return {str(a): (str(n), str(nm)) for a, n, nm in rows}

    def _lookup_section(
        self,
        key: StatuteKeyLike,
        code: str,
        title: str,
        edition: str,
        label: str,
        as_of: str | None,
        *,
        follow: bool = True,
        rows: list[tuple[object, ...]] | None = None,
    ) -> StatuteAnswer:
        section = normalise_section(key.section)
        if rows is None:
            rows = self._db.execute(
                f"SELECT {_COLUMNS} FROM sections WHERE code=? AND title=? AND section=? ORDER BY act, dup",
                (code, title, section),
            ).fetchall()
        acts = self._acts(code, title) if title.endswith("a") else {}
        act_number = getattr(key, "act", None)
        chosen = APPENDIX_ACTS.get((title, act_number)) if act_number else None
        if chosen is not None and chosen not in acts:
            chosen = None  # an act this release does not hold: the number cannot pick one
        if chosen is not None:
            mine = [r for r in rows if r[9] == chosen]
            if not mine:
                mine = self._in_range(code, title, section, act=chosen)
            if not mine:
                others = tuple(self._record(r, edition, as_of, acts, section, follow=follow) for r in rows)
                return self._not_found(
                    code, title, section, edition, label, as_of, others, act=acts[chosen][1]
                )
            rows = mine
        if not rows:
            rows = self._in_range(code, title, section)
        if not rows:
            return self._not_found(code, title, section, edition, label, as_of, ())
        records = [self._record(r, edition, as_of, acts, section, follow=follow) for r in rows]
        record = records[0] if len(records) == 1 else _merged(records)
        return StatuteAnswer(outcome=LookupOutcome.FOUND, record=record, edition=edition)

    def _in_range(
        self, code: str, title: str, section: str, *, act: str | None = None
    ) -> list[tuple[object, ...]]:
        """The element that stands for a range holding ``section`` (``§§ 2401 to 2408``), if one does."""
        order = section_order(section)
        sql = (
            f"SELECT {_COLUMNS} FROM sections WHERE code=? AND title=? AND range_last IS NOT NULL"
            " AND ord <= ? AND range_last_ord >= ?"
        )
        params: list[object] = [code, title, order, order]
        if act is not None:
            sql += " AND act=?"
            params.append(act)
        rows = self._db.execute(sql + " ORDER BY ord DESC LIMIT 2", params).fetchall()
        return rows[:1] if rows and len({r[9] for r in rows}) == 1 else rows

    def _not_found(
        self,
        code: str,
        title: str,
        section: str,
        edition: str,
        label: str,
        as_of: str | None,
        others: tuple[SectionRecord, ...],
        *,
        act: str = "",
    ) -> StatuteAnswer:
        similar = others or tuple(
            self._record(r, edition, as_of, {}, None)
            for r in self._db.execute(
                f"SELECT {_COLUMNS} FROM sections WHERE code=? AND title=? AND section > ? AND section < ? LIMIT 3",
                (code, title, section + "(", section + "(\uffff"),
            ).fetchall()
        )
        where = f"{label} ({edition})" if edition else label
        return StatuteAnswer(
            outcome=LookupOutcome.NOT_FOUND,
            neighbours=self.neighbours(code, title, section, edition=edition),
            similar=similar,
            edition=edition,
            reason=f"{where}{' ' + act if act else ''} has no § {section}",
            newer=self._newer(code, edition, as_of),
        )

    def _lookup_unit(
        self, code: str, title: str, unit: str, number: str, edition: str, label: str, as_of: str | None
    ) -> StatuteAnswer:
        """A C.F.R. part (``200``), subpart (``404:p``) or appendix (``200:ii``): the index's units, and a
        part any section is numbered in (``200.317`` is in part 200) or a range of parts holds."""
        number = number.lower()
        row = self._db.execute(
            "SELECT heading, reserved FROM units WHERE code=? AND title=? AND kind=? AND number=?",
            (code, title, unit, number),
        ).fetchone()
        if row is None and unit == "part":
            row = self._part_elsewhere(code, title, number)
        if row is not None:
            record = SectionRecord(
                code=code,
                title=title,
                section=number,
                heading=str(row[0]),
                status=SectionStatus.RESERVED if row[1] else SectionStatus.CURRENT,
                edition=edition,
                url=unit_url(code, title, unit, number),
                unit=unit,
            )
            return StatuteAnswer(outcome=LookupOutcome.FOUND, record=record, edition=edition)
        held = self._db.execute(
            "SELECT 1 FROM units WHERE code=? AND title=? AND kind=? LIMIT 1", (code, title, unit)
        ).fetchone()
        if held is None:  # an index built before parts were kept, or a file without them: not certain
            return StatuteAnswer(
                outcome=LookupOutcome.NOT_COVERED,
                edition=edition,
                reason=f"the statute index holds no {unit}s of {label}",
            )
        return StatuteAnswer(
            outcome=LookupOutcome.NOT_FOUND,
            edition=edition,
            reason=f"{label} ({edition}) has no {unit} {number}",
            newer=self._newer(code, edition, as_of),
        )

    def _part_elsewhere(self, code: str, title: str, part: str) -> tuple[object, ...] | None:
        row = self._db.execute(
            "SELECT heading FROM sections WHERE code=? AND title=? AND section > ? AND section < ? LIMIT 1",
            (code, title, part + ".", part + ".\uffff"),
        ).fetchone()
        if row is not None:
            return ("", 0)
        if not part.isdigit():
            return None
        for heading, number, last, reserved in self._db.execute(
            "SELECT heading, number, last, reserved FROM units WHERE code=? AND title=? AND kind='part'"
            " AND last IS NOT NULL",
            (code, title),
        ):
            if str(number).isdigit() and str(last).isdigit() and int(number) <= int(part) <= int(last):
                return (heading, reserved)
        return None

    def _record(
        self,
        row: tuple[object, ...],
        edition: str,
        as_of: str | None,
        acts: Mapping[str, tuple[str, str]],
        asked: str | None,
        *,
        follow: bool = True,
    ) -> SectionRecord:
        code, title, section, heading, status, moved_to, amended, range_last, history, act, dup, _id = row
        st = SectionStatus(str(status))
        if history:
            removed, _on = _status_at(str(history), as_of)
            if st is SectionStatus.REMOVED and not removed:
                st = SectionStatus.CURRENT  # in force at the brief's date; removed only later
            elif removed and st is SectionStatus.CURRENT:
                st = SectionStatus.REMOVED
        moved = str(moved_to) if moved_to else None
        if moved is None and st in (SectionStatus.TRANSFERRED, SectionStatus.RENUMBERED):
            got = self._db.execute(  # each section of a range (or a list) has its own destination, or none
                "SELECT moved_to FROM moves WHERE code=? AND title=? AND section=?",
                (code, title, asked or section),
            ).fetchone()
            moved = str(got[0]) if got else None
        state = ""
        if moved is not None and follow:
            moved, state = self._follow(str(code), moved)
        number, name = acts.get(str(act), ("", ""))
        return SectionRecord(
            code=str(code),
            title=str(title),
            section=str(section),
            heading=str(heading),
            status=st,
            moved_to=moved,
            edition=edition,
            amended=str(amended) if amended else None,
            url=section_url(str(code), str(title), str(section)),
            range_last=str(range_last) if range_last else None,
            act=str(act),
            act_name=name,
            act_number=number,
            dup=int(str(dup)),
            moved_state=state,
        )

    def _follow(self, code: str, moved: str) -> tuple[str, str]:
        """Where a move ends (``37 U.S.C. § 404`` → § 474 → …) and what the index says of it: ``current``
        (in force: a fix may cite it), ``repealed`` (or omitted, expired …: never offered), ``missing``
        (not in a title the index holds), ``unchecked`` (a note, or a title the index does not hold)."""
        seen: set[str] = set()
        current = moved
        for _hop in range(MAX_HOPS):
            m = _CITED.fullmatch(current)
            if m is None or m.group("note") or current in seen:
                return current, "unchecked"
            seen.add(current)
            title = m.group("title") + ("a" if m.group("app") else "")
            if not self.covers(code, title):
                return current, "unchecked"  # a title the index does not hold: as the source says
            key = _Key(code, title, m.group("section"))
            edition, label = self._title_edition(code, title)
            answer = self._lookup_section(key, code, title, edition, label, None, follow=False)
            rec = answer.record
            if answer.outcome is not LookupOutcome.FOUND or rec is None:
                return current, "missing"
            if rec.ambiguous:
                return current, "unchecked"
            if rec.status is SectionStatus.CURRENT:
                return current, "current"
            if rec.status in (SectionStatus.TRANSFERRED, SectionStatus.RENUMBERED) and rec.moved_to:
                current = rec.moved_to
                continue
            return current, rec.status.value  # repealed, omitted, …: no destination to offer
        return current, "unchecked"

    def _title_edition(self, code: str, title: str) -> tuple[str, str]:
        row = self._db.execute(
            "SELECT edition FROM titles WHERE code=? AND title=?", (code, title)
        ).fetchone()
        return (str(row[0]) if row else ""), _label(code, title)

    def history(self, key: StatuteKeyLike) -> tuple[tuple[str, bool], ...]:
        """The versioner's dates for a C.F.R. section: ((date, removed), …), oldest first."""
        row = self._db.execute(
            "SELECT history FROM sections WHERE code=? AND title=? AND section=?",
            (key.code, normalise_title(key.title or ""), normalise_section(key.section)),
        ).fetchone()
        if not row or not row[0]:
            return ()
        return tuple((item.rstrip("r"), item.endswith("r")) for item in str(row[0]).split(";"))

    def neighbours(
        self, code: str, title: str, section: str, n: int = 2, *, edition: str | None = None
    ) -> tuple[SectionRecord, ...]:
        """The ``n`` sections before and after where ``section`` would be (evidence for a fabricated one)."""
        title = normalise_title(title)
        order = section_order(section)
        if edition is None:
            edition = self._title_edition(code, title)[0]
        rows = self._db.execute(
            f"SELECT * FROM (SELECT {_COLUMNS}, ord FROM sections WHERE code=? AND title=? AND ord < ?"
            f" ORDER BY ord DESC LIMIT ?) UNION ALL SELECT * FROM (SELECT {_COLUMNS}, ord FROM sections"
            " WHERE code=? AND title=? AND ord > ? ORDER BY ord LIMIT ?)",
            (code, title, order, n, code, title, order, n),
        ).fetchall()
        rows.sort(key=lambda r: str(r[-1]))
        acts = self._acts(code, title) if title.endswith("a") else {}
        return tuple(self._record(r[:-1], edition, None, acts, None) for r in rows)

    def text(self, record: SectionRecord) -> str:
        """The section's text (empty for repealed, reserved and removed sections, and for a number several
        sections bear: no one text is the section's)."""
        if record.ambiguous or record.unit:
            return ""
        row = self._db.execute(
            "SELECT block, off, len FROM sections WHERE code=? AND title=? AND section=? AND act=? AND dup=?",
            (record.code, record.title, record.section, record.act, record.dup),
        ).fetchone()
        if not row or row[0] is None:
            return ""
        block_id, off, length = row
        data = self._blocks.get(block_id)
        if data is None:
            body = self._db.execute("SELECT body FROM blocks WHERE id=?", (block_id,)).fetchone()
            if body is None:
                return ""
            data = zlib.decompress(body[0])
            if len(self._blocks) >= 8:
                self._blocks.pop(next(iter(self._blocks)))
            self._blocks[block_id] = data
        return data[off : off + length].decode()

    def stats(self) -> dict[str, object]:
        per = dict(
            self._db.execute("SELECT code, COUNT(*) FROM titles WHERE covered GROUP BY code").fetchall()
        )
        sections = dict(self._db.execute("SELECT code, SUM(sections) FROM titles GROUP BY code").fetchall())
        return {
            "path": str(self.path),
            "titles": {c: per.get(c, 0) for c in CODES},
            "sections": {c: sections.get(c, 0) or 0 for c in CODES},
            "bytes": self.path.stat().st_size if self.path.exists() else 0,
            "newest_release": self.newest_release(),
        }


@dataclass(frozen=True, slots=True)
class _Key:
    code: str
    title: str
    section: str


_CITED = re.compile(r"(?P<title>\d+) U\.S\.C\.(?P<app> App\.)? § (?P<section>\S+?)(?P<note> note)?")
_ISO_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")


def _label(code: str, title: str) -> str:
    """``42 U.S.C.`` / ``50 U.S.C. App.`` / ``17 C.F.R.``"""
    base, appendix = appendix_label(title) if code == "usc" else (title, False)
    return f"{base} {CODES.get(code, code)}{' App.' if appendix else ''}"


def _first_sentence(text: str) -> str:
    """``"Title 50, Appendix, … has been eliminated."`` of a longer note."""
    m = re.match(r"(.{20,300}?\.)(?:\s|$)", text)
    return m.group(1) if m else text[:300]


def _merged(records: list[SectionRecord]) -> SectionRecord:
    """One record for a number several sections bear: no heading or text of its own; a status only when
    they all have it (two sections both transferred are transferred, wherever each went)."""
    first = records[0]
    statuses = {r.status for r in records}
    status = first.status if len(statuses) == 1 else SectionStatus.CURRENT
    moves = {r.moved_to for r in records}
    parts = []
    for r in records:
        who = f"App. {r.act_number}" if r.act_number else r.act_name or ""
        owner = f"{who} ({r.act_name})" if r.act_number and r.act_name else who
        parts.append(f"{owner + ': ' if owner else ''}{r.heading or r.status.value}")
    return SectionRecord(
        code=first.code,
        title=first.title,
        section=first.section,
        heading=f"{len(records)} sections bear this number: " + "; ".join(parts),
        status=status,
        moved_to=first.moved_to if len(moves) == 1 else None,
        moved_state=first.moved_state if len(moves) == 1 else "",
        edition=first.edition,
        url=first.url,
        alternatives=tuple(records),
    )


def unit_url(code: str, title: str, unit: str, number: str) -> str | None:
    """ecfr.gov's page of a part, subpart or appendix."""
    if code != "cfr":
        return None
    part, _, rest = number.partition(":")
    if unit == "part" or not rest:
        return f"https://www.ecfr.gov/current/title-{title}/part-{part}"
    if unit == "subpart":
        return f"https://www.ecfr.gov/current/title-{title}/part-{part}/subpart-{rest.upper()}"
    return f"https://www.ecfr.gov/current/title-{title}/part-{part}/appendix-{rest.upper()}"
