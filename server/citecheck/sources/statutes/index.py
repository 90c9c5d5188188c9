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

import sqlite3
import zlib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from citecheck.errors import CorpusError
from citecheck.sources.statutes.ecfr import VersionEntry
from citecheck.sources.statutes.records import (
    CODES,
    LookupOutcome,
    ParsedSection,
    ParsedTitle,
    SectionRecord,
    SectionStatus,
    StatuteAnswer,
    normalise_section,
    normalise_title,
    section_order,
)

__all__ = ["SCHEMA_VERSION", "StatuteIndex", "StatuteKeyLike", "TitleRow", "section_url"]

SCHEMA_VERSION = 2
#: Texts are compressed together until a block holds this many bytes (zlib's window is 32 KB: larger
#: blocks compress no better and take longer to read one section from).
BLOCK_BYTES = 32 * 1024
_KIND = "citecheck-statutes"

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS titles(
  code TEXT NOT NULL, title TEXT NOT NULL, heading TEXT NOT NULL, edition TEXT NOT NULL,
  sections INTEGER NOT NULL, source TEXT NOT NULL, synced_at TEXT NOT NULL,
  PRIMARY KEY(code, title)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS sections(
  id INTEGER PRIMARY KEY, code TEXT NOT NULL, title TEXT NOT NULL, section TEXT NOT NULL,
  ord TEXT NOT NULL, heading TEXT NOT NULL, status TEXT NOT NULL, moved_to TEXT, amended TEXT,
  range_last TEXT, range_last_ord TEXT, history TEXT, block INTEGER, off INTEGER, len INTEGER);
CREATE UNIQUE INDEX IF NOT EXISTS sections_key ON sections(code, title, section);
CREATE INDEX IF NOT EXISTS sections_ord ON sections(code, title, ord);
CREATE INDEX IF NOT EXISTS sections_ranges ON sections(code, title, ord) WHERE range_last IS NOT NULL;
CREATE TABLE IF NOT EXISTS blocks(id INTEGER PRIMARY KEY, code TEXT NOT NULL, title TEXT NOT NULL, body BLOB NOT NULL);
CREATE INDEX IF NOT EXISTS blocks_title ON blocks(code, title);
"""

_COLUMNS = "code, title, section, heading, status, moved_to, amended, range_last, history"
_S_COLUMNS = ", ".join(f"s.{c}" for c in _COLUMNS.split(", "))


class StatuteKeyLike(Protocol):
    """What a lookup needs of a citation's key (the extraction's ``StatuteKey`` has these)."""

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

    @property
    def label(self) -> str:
        return f"{self.title} {CODES.get(self.code, self.code)}"


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


def _delete_title(db: sqlite3.Connection, code: str, title: str) -> None:
    db.execute("DELETE FROM blocks WHERE code=? AND title=?", (code, title))
    db.execute("DELETE FROM sections WHERE code=? AND title=?", (code, title))
    db.execute("DELETE FROM titles WHERE code=? AND title=?", (code, title))


class _TitleWriter:
    """Rows of one title in batches, texts packed into compressed blocks (inside the caller's transaction).

    The title's number may be known only once its first sections were read (a file without
    ``docNumber``): the title's old rows are deleted at the first flush."""

    def __init__(self, db: sqlite3.Connection, title: ParsedTitle, level: int) -> None:
        self.db, self.title, self.level = db, title, level
        self.rows: list[tuple[object, ...]] = []
        self.seen: set[str] = set()
        self.count = 0
        self.started = False
        self.block: list[bytes] = []
        self.block_bytes = 0
        self.block_id = (db.execute("SELECT MAX(id) FROM blocks").fetchone()[0] or 0) + 1

    def add(self, s: ParsedSection, entries: tuple[VersionEntry, ...]) -> None:
        place: tuple[int | None, int | None, int | None] = (None, None, None)
        if s.text:
            data = s.text.encode()
            place = (self.block_id, self.block_bytes, len(data))
            self.block.append(data)
            self.block_bytes += len(data)
        amended = next((e.date for e in reversed(entries) if not e.removed), None)
        last_ord = section_order(s.range_last) if s.range_last else None
        hist = _history_text(entries) if entries else None
        for number in (s.section, *s.also):
            if number in self.seen:
                continue
            self.seen.add(number)
            order = section_order(number)
            self.rows.append(
                (
                    number,
                    order,
                    s.heading,
                    s.status.value,
                    s.moved_to,
                    amended,
                    s.range_last,
                    last_ord,
                    hist,
                    *place,
                )
            )
            self.count += 1
        if self.block_bytes >= BLOCK_BYTES:
            self._flush_block()
        if len(self.rows) >= 2000:
            self._flush_rows()

    def add_removed(self, number: str, entries: tuple[VersionEntry, ...]) -> None:
        heading = next((e.name for e in reversed(entries) if e.name), "")
        heading = heading.split(None, 2)[-1] if heading.startswith("§") else heading
        amended = next((e.date for e in reversed(entries) if not e.removed), None)
        self.seen.add(number)
        removed = SectionStatus.REMOVED.value
        hist = _history_text(entries)
        self.rows.append(
            (
                number,
                section_order(number),
                heading.rstrip("."),
                removed,
                None,
                amended,
                None,
                None,
                hist,
                None,
                None,
                None,
            )
        )
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
            "INSERT OR REPLACE INTO sections(code, title, section, ord, heading, status, moved_to, amended,"
            " range_last, range_last_ord, history, block, off, len) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
            [(self.title.code, self.title.title, *row) for row in self.rows],
        )
        self.rows.clear()

    def finish(self) -> None:
        self._flush_block()
        self._flush_rows()
        if not self._start():
            raise CorpusError("a title with no number cannot be stored")


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
                for table in ("sections", "texts", "blocks", "titles", "meta"):
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
        rolls the title back to what it was. ``history`` (C.F.R.): the versioner's versions by section;
        sections it lists as removed that the title no longer has are stored as ``removed``.
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
                for number, entries in history.items():
                    if number not in writer.seen and entries and entries[-1].removed:
                        writer.add_removed(number, entries)
            writer.finish()
            db.execute(
                "INSERT OR REPLACE INTO titles(code, title, heading, edition, sections, source, synced_at)"
                " VALUES (?,?,?,?,?,?,?)",
                (title.code, title.title, title.heading, title.edition, writer.count, source, synced_at),
            )
            db.execute("COMMIT")
        except BaseException:
            if db.in_transaction:
                db.execute("ROLLBACK")
            raise
        self._blocks.clear()
        return writer.count

    def _delete_title(self, code: str, title: str) -> None:
        _delete_title(self._db, code, title)

    def vacuum(self) -> None:
        self._db.execute("VACUUM")

    # ------------------------------------------------------------------ reading
    def covers(self, code: str, title: str) -> bool:
        """The index holds the whole of this title (a section it lacks does not exist in that edition)."""
        row = self._db.execute(
            "SELECT 1 FROM titles WHERE code=? AND title=?", (code, normalise_title(title))
        ).fetchone()
        return row is not None

    def titles(self, code: str | None = None) -> list[TitleRow]:
        sql = "SELECT code, title, heading, edition, sections, source, synced_at FROM titles"
        rows = self._db.execute(sql + (" WHERE code=?" if code else ""), (code,) if code else ()).fetchall()
        out = [
            TitleRow(code=c, title=t, heading=h, edition=e, sections=n, source=src, synced_at=at)
            for c, t, h, e, n, src, at in rows
        ]
        return sorted(out, key=lambda t: (t.code, section_order(t.title)))

    def lookup(self, key: StatuteKeyLike, *, as_of: str | None = None) -> StatuteAnswer:
        """The section ``key`` names, as of ``as_of`` (ISO date; C.F.R. history) or the indexed edition.

        A key without a title (a code not divided into titles) is not covered. NOT_FOUND carries the
        neighbouring sections and, in ``similar``, sections whose number begins with the key's and a
        parenthesis (``26 C.F.R. § 1.401(a)(9)-9`` read as § 1.401 with subsections): then the number
        may have been read wrong, and the check must not be certain.
        """
        if not key.title:
            return StatuteAnswer(outcome=LookupOutcome.NOT_COVERED, reason="the citation names no title")
        if getattr(key, "unit", ""):  # a part, subpart or appendix: never looked up as a section
            return StatuteAnswer(
                outcome=LookupOutcome.NOT_COVERED,
                reason="the statute index does not hold parts and appendices",
            )
        code, title, section = key.code, normalise_title(key.title), normalise_section(key.section)
        row = self._db.execute(
            f"SELECT {_S_COLUMNS}, t.edition FROM sections s JOIN titles t ON t.code = s.code AND t.title = s.title"
            " WHERE s.code=? AND s.title=? AND s.section=?",
            (code, title, section),
        ).fetchone()
        if row is not None:
            return StatuteAnswer(
                outcome=LookupOutcome.FOUND, record=self._record(row[:-1], row[-1], as_of), edition=row[-1]
            )
        t = self._db.execute("SELECT edition FROM titles WHERE code=? AND title=?", (code, title)).fetchone()
        label = f"{title} {CODES.get(code, code)}"
        if t is None:
            return StatuteAnswer(
                outcome=LookupOutcome.NOT_COVERED, reason=f"the statute index does not hold {label}"
            )
        edition = t[0]
        order = section_order(section)
        row = self._db.execute(
            f"SELECT {_COLUMNS} FROM sections WHERE code=? AND title=? AND range_last IS NOT NULL"
            " AND ord <= ? AND range_last_ord >= ? ORDER BY ord DESC LIMIT 1",
            (code, title, order, order),
        ).fetchone()
        if row is not None:
            return StatuteAnswer(
                outcome=LookupOutcome.FOUND, record=self._record(row, edition, as_of), edition=edition
            )
        similar = self._db.execute(
            f"SELECT {_COLUMNS} FROM sections WHERE code=? AND title=? AND section > ? AND section < ? LIMIT 3",
            (code, title, section + "(", section + "(\uffff"),
        ).fetchall()
        return StatuteAnswer(
            outcome=LookupOutcome.NOT_FOUND,
            neighbours=self.neighbours(code, title, section, edition=edition),
            similar=tuple(self._record(r, edition, as_of) for r in similar),
            edition=edition,
            reason=f"{label} ({edition}) has no § {section}",
        )

    def _record(self, row: tuple[object, ...], edition: str, as_of: str | None) -> SectionRecord:
        code, title, section, heading, status, moved_to, amended, range_last, history = row
        st = SectionStatus(str(status))
        if history:
            removed, _on = _status_at(str(history), as_of)
            if st is SectionStatus.REMOVED and not removed:
                st = SectionStatus.CURRENT  # in force at the brief's date; removed only later
            elif removed and st is SectionStatus.CURRENT:
                st = SectionStatus.REMOVED
        return SectionRecord(
            code=str(code),
            title=str(title),
            section=str(section),
            heading=str(heading),
            status=st,
            moved_to=str(moved_to) if moved_to else None,
            edition=edition,
            amended=str(amended) if amended else None,
            url=section_url(str(code), str(title), str(section)),
            range_last=str(range_last) if range_last else None,
        )

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
            row = self._db.execute(
                "SELECT edition FROM titles WHERE code=? AND title=?", (code, title)
            ).fetchone()
            edition = row[0] if row else ""
        rows = self._db.execute(
            f"SELECT * FROM (SELECT {_COLUMNS}, ord FROM sections WHERE code=? AND title=? AND ord < ?"
            f" ORDER BY ord DESC LIMIT ?) UNION ALL SELECT * FROM (SELECT {_COLUMNS}, ord FROM sections"
            " WHERE code=? AND title=? AND ord > ? ORDER BY ord LIMIT ?)",
            (code, title, order, n, code, title, order, n),
        ).fetchall()
        rows.sort(key=lambda r: str(r[-1]))
        return tuple(self._record(r[:-1], edition, None) for r in rows)

    def text(self, record: SectionRecord) -> str:
        """The section's text (empty for repealed, reserved and removed sections)."""
        row = self._db.execute(
            "SELECT block, off, len FROM sections WHERE code=? AND title=? AND section=?",
            (record.code, record.title, record.section),
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
        per = dict(self._db.execute("SELECT code, COUNT(*) FROM titles GROUP BY code").fetchall())
        sections = dict(self._db.execute("SELECT code, SUM(sections) FROM titles GROUP BY code").fetchall())
        return {
            "path": str(self.path),
            "titles": {c: per.get(c, 0) for c in CODES},
            "sections": {c: sections.get(c, 0) or 0 for c in CODES},
            "bytes": self.path.stat().st_size if self.path.exists() else 0,
        }
