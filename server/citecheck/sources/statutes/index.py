"""The statute index: one SQLite file of U.S. Code and C.F.R. sections (heading, status, text).

All of its SQL lives here. A title is replaced whole, in one transaction (a sync that stops half way
leaves every title either as it was or as new). Lookups are one indexed read (≈10 µs, bench/statutes.py);
the section text, zlib-compressed in its own table, is read only when a quote is compared.

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

SCHEMA_VERSION = 1
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
  range_last TEXT, range_last_ord TEXT, history TEXT);
CREATE UNIQUE INDEX IF NOT EXISTS sections_key ON sections(code, title, section);
CREATE INDEX IF NOT EXISTS sections_ord ON sections(code, title, ord);
CREATE INDEX IF NOT EXISTS sections_ranges ON sections(code, title, ord) WHERE range_last IS NOT NULL;
CREATE TABLE IF NOT EXISTS texts(id INTEGER PRIMARY KEY, body BLOB NOT NULL);
"""

_COLUMNS = "code, title, section, heading, status, moved_to, amended, range_last, history"


class StatuteKeyLike(Protocol):
    """What a lookup needs of a citation's key (the extraction's ``StatuteKey`` has these)."""

    @property
    def code(self) -> str: ...
    @property
    def title(self) -> str: ...
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


class StatuteIndex:
    """The index file; ``readonly`` for checks, writable for ``corpus sync --statutes``."""

    def __init__(self, path: Path | str, *, readonly: bool = False) -> None:
        self.path = Path(path)
        self.readonly = readonly
        try:
            if readonly:
                if not self.path.exists():
                    raise CorpusError(
                        f"no statute index at {self.path} (run: citecheck corpus sync --statutes)"
                    )
                self._db = sqlite3.connect(f"file:{self.path}?mode=ro", uri=True, check_same_thread=False)
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
            return
        if self.readonly:
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
        code = title.code
        db = self._db
        count = 0
        try:
            db.execute("BEGIN IMMEDIATE")
            # the title number may only be known once the first sections were read: store under it then
            rows: list[tuple[object, ...]] = []
            texts: list[bytes] = []
            seen: set[str] = set()
            started = False

            def flush() -> None:
                nonlocal started
                if not started:
                    if not title.title:
                        return
                    self._delete_title(code, title.title)
                    started = True
                cur = db.cursor()
                for row, body in zip(rows, texts, strict=True):
                    cur.execute(
                        "INSERT OR REPLACE INTO sections(code, title, section, ord, heading, status, moved_to,"
                        " amended, range_last, range_last_ord, history) VALUES (?,?,?,?,?,?,?,?,?,?,?)",
                        (code, title.title, *row),
                    )
                    if body:
                        cur.execute("INSERT INTO texts(id, body) VALUES (?, ?)", (cur.lastrowid, body))
                rows.clear()
                texts.clear()

            for s in sections:
                for number in (s.section, *s.also):
                    if number in seen:
                        continue
                    seen.add(number)
                    entries = history.get(number, ()) if history else ()
                    amended = next((e.date for e in reversed(entries) if not e.removed), None)
                    rows.append(
                        (
                            number,
                            section_order(number),
                            s.heading,
                            s.status.value,
                            s.moved_to,
                            amended,
                            s.range_last,
                            section_order(s.range_last) if s.range_last else None,
                            _history_text(entries) if entries else None,
                        )
                    )
                    texts.append(zlib.compress(s.text.encode(), level) if s.text else b"")
                    count += 1
                if len(rows) >= 2000:
                    flush()
            if history:  # removed from the C.F.R. since: known to have existed, never "fabricated"
                for number, entries in history.items():
                    if number in seen or not entries or not entries[-1].removed:
                        continue
                    seen.add(number)
                    heading = next((e.name for e in reversed(entries) if e.name), "")
                    heading = heading.split(None, 2)[-1] if heading.startswith("§") else heading
                    rows.append(
                        (
                            number,
                            section_order(number),
                            heading.rstrip("."),
                            SectionStatus.REMOVED.value,
                            None,
                            next((e.date for e in reversed(entries) if not e.removed), None),
                            None,
                            None,
                            _history_text(entries),
                        )
                    )
                    texts.append(b"")
                    count += 1
            flush()
            if not started:
                raise CorpusError("a title with no number cannot be stored")
            db.execute(
                "INSERT OR REPLACE INTO titles(code, title, heading, edition, sections, source, synced_at)"
                " VALUES (?,?,?,?,?,?,?)",
                (code, title.title, title.heading, title.edition, count, source, synced_at),
            )
            db.execute("COMMIT")
        except BaseException:
            if db.in_transaction:
                db.execute("ROLLBACK")
            raise
        return count

    def _delete_title(self, code: str, title: str) -> None:
        self._db.execute(
            "DELETE FROM texts WHERE id IN (SELECT id FROM sections WHERE code=? AND title=?)", (code, title)
        )
        self._db.execute("DELETE FROM sections WHERE code=? AND title=?", (code, title))
        self._db.execute("DELETE FROM titles WHERE code=? AND title=?", (code, title))

    def remove_title(self, code: str, title: str) -> None:
        with self._db:
            self._delete_title(code, normalise_title(title))

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
        out = [TitleRow(**dict(zip(TitleRow.__slots__, r, strict=True))) for r in rows]  # type: ignore[arg-type]
        return sorted(out, key=lambda t: (t.code, section_order(t.title)))

    def lookup(self, key: StatuteKeyLike, *, as_of: str | None = None) -> StatuteAnswer:
        """The section ``key`` names, as of ``as_of`` (ISO date; C.F.R. history) or the indexed edition."""
        code, title, section = key.code, normalise_title(key.title), normalise_section(key.section)
        t = self._db.execute("SELECT edition FROM titles WHERE code=? AND title=?", (code, title)).fetchone()
        if t is None:
            label = f"{title} {CODES.get(code, code)}"
            return StatuteAnswer(
                outcome=LookupOutcome.NOT_COVERED, reason=f"the statute index does not hold {label}"
            )
        edition = t[0]
        row = self._db.execute(
            f"SELECT {_COLUMNS} FROM sections WHERE code=? AND title=? AND section=?", (code, title, section)
        ).fetchone()
        if row is None:
            order = section_order(section)
            row = self._db.execute(
                f"SELECT {_COLUMNS} FROM sections WHERE code=? AND title=? AND range_last IS NOT NULL"
                " AND ord <= ? AND range_last_ord >= ? ORDER BY ord DESC LIMIT 1",
                (code, title, order, order),
            ).fetchone()
        if row is None:
            return StatuteAnswer(
                outcome=LookupOutcome.NOT_FOUND,
                neighbours=self.neighbours(code, title, section),
                edition=edition,
                reason=f"{title} {CODES.get(code, code)} ({edition}) has no § {section}",
            )
        return StatuteAnswer(
            outcome=LookupOutcome.FOUND, record=self._record(row, edition, as_of), edition=edition
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
            (key.code, normalise_title(key.title), normalise_section(key.section)),
        ).fetchone()
        if not row or not row[0]:
            return ()
        return tuple((item.rstrip("r"), item.endswith("r")) for item in str(row[0]).split(";"))

    def neighbours(self, code: str, title: str, section: str, n: int = 2) -> tuple[SectionRecord, ...]:
        """The ``n`` sections before and after where ``section`` would be (evidence for a fabricated one)."""
        title = normalise_title(title)
        order = section_order(section)
        edition_row = self._db.execute(
            "SELECT edition FROM titles WHERE code=? AND title=?", (code, title)
        ).fetchone()
        edition = edition_row[0] if edition_row else ""
        before = self._db.execute(
            f"SELECT {_COLUMNS} FROM sections WHERE code=? AND title=? AND ord < ? ORDER BY ord DESC LIMIT ?",
            (code, title, order, n),
        ).fetchall()
        after = self._db.execute(
            f"SELECT {_COLUMNS} FROM sections WHERE code=? AND title=? AND ord > ? ORDER BY ord LIMIT ?",
            (code, title, order, n),
        ).fetchall()
        return tuple(self._record(r, edition, None) for r in [*reversed(before), *after])

    def text(self, record: SectionRecord) -> str:
        """The section's text (empty for repealed, reserved and removed sections)."""
        row = self._db.execute(
            "SELECT t.body FROM sections s JOIN texts t ON t.id = s.id WHERE s.code=? AND s.title=? AND s.section=?",
            (record.code, record.title, record.section),
        ).fetchone()
        return zlib.decompress(row[0]).decode() if row else ""

    def stats(self) -> dict[str, object]:
        per = dict(self._db.execute("SELECT code, COUNT(*) FROM titles GROUP BY code").fetchall())
        sections = dict(self._db.execute("SELECT code, SUM(sections) FROM titles GROUP BY code").fetchall())
        return {
            "path": str(self.path),
            "titles": {c: per.get(c, 0) for c in CODES},
            "sections": {c: sections.get(c, 0) or 0 for c in CODES},
            "bytes": self.path.stat().st_size if self.path.exists() else 0,
        }
