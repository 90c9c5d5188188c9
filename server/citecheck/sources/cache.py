"""The lookup cache (aiosqlite): CourtListener answers, case records and opinion texts.

Why: CourtListener allows a free user a handful of requests a minute, and a language server asks
the same questions on every keystroke. The cache makes repeated checks instant and grows into a
local corpus (opinions are full-text searchable here too).

WAL mode and a busy timeout make it safe for the language server and the CLI at once. Negative
answers live shorter than positive ones (a case may be added upstream). A file that is not a valid
database is moved aside with a warning and rebuilt — a cache is never worth a crash.
"""

from __future__ import annotations

import json
import logging
import sqlite3
import time
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any, TypeVar

import aiosqlite

from citecheck.errors import CorpusError
from citecheck.sources.codec import (
    opinion_from_dict,
    opinion_to_dict,
    record_from_dict,
    record_to_dict,
    result_from_dict,
    result_to_dict,
)
from citecheck.sources.models import (
    CaseRecord,
    CiteKey,
    LookupResult,
    LookupStatus,
    OpinionText,
    PassageHit,
)
from citecheck.sources.passages import fts_phrase, locate, longest_fragment

log = logging.getLogger(__name__)
T = TypeVar("T")

POSITIVE_TTL_S = 30 * 24 * 3600.0
NEGATIVE_TTL_S = 24 * 3600.0
MISSING_VOLUME_TTL_S = 7 * 24 * 3600.0
#: Work left pending longer than this is forgotten (its brief has moved on; a new run re-adds it).
PENDING_TTL_S = 7 * 24 * 3600.0

_SCHEMA = """
CREATE TABLE IF NOT EXISTS lookups (key TEXT PRIMARY KEY, result TEXT NOT NULL, expires REAL NOT NULL);
CREATE TABLE IF NOT EXISTS records (id TEXT PRIMARY KEY, record TEXT NOT NULL, stored REAL NOT NULL);
CREATE TABLE IF NOT EXISTS opinions (rowid INTEGER PRIMARY KEY, case_id TEXT NOT NULL UNIQUE,
    text TEXT NOT NULL, opinion TEXT NOT NULL, stored REAL NOT NULL);
CREATE VIRTUAL TABLE IF NOT EXISTS opinion_fts USING fts5 (
    text, content='opinions', content_rowid='rowid', tokenize='unicode61 remove_diacritics 2');
CREATE TABLE IF NOT EXISTS pacing (scope TEXT PRIMARY KEY, state TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS pending_lookups (key TEXT PRIMARY KEY, position INTEGER NOT NULL,
    until REAL NOT NULL, added REAL NOT NULL);
CREATE TABLE IF NOT EXISTS missing_volumes (reporter TEXT NOT NULL, volume TEXT NOT NULL, reason TEXT,
    expires REAL NOT NULL, PRIMARY KEY (reporter, volume));
CREATE TABLE IF NOT EXISTS treatment_searches (key TEXT PRIMARY KEY, result TEXT NOT NULL, expires REAL NOT NULL);
CREATE TABLE IF NOT EXISTS cap_cases (reporter TEXT NOT NULL, volume TEXT NOT NULL, cases TEXT NOT NULL,
    stored REAL NOT NULL, PRIMARY KEY (reporter, volume));
"""


def _in_use(exc: Exception) -> bool:
    msg = str(exc).lower()
    return "locked" in msg or "busy" in msg


def _corrupt(exc: Exception) -> bool:
    msg = str(exc).lower()
    return any(w in msg for w in ("not a database", "malformed", "integrity", "encrypted", "disk image"))


def _key(k: CiteKey) -> str:
    return f"{k.volume}|{k.reporter}|{k.page}"


class Cache:
    """The services' answers kept on this machine; in the source chain, the store (``base.AnswerStore``):
    what it answers ends a lookup's walk, and it keeps what CourtListener answered."""

    name = "cache"
    local = True

    def __init__(self, path: Path, db: aiosqlite.Connection) -> None:
        self.path = path
        self._db = db

    @property
    def description(self) -> str:
        return f"cache ({self.path})"

    async def lookup(self, keys: Sequence[CiteKey]) -> dict[CiteKey, LookupResult]:
        return await self.get_lookups(keys)

    async def opinion(self, record: CaseRecord) -> OpinionText | None:
        return await self.get_opinion(record.id)

    async def remember_lookups(self, results: Sequence[LookupResult]) -> None:
        await self.put_lookups(results)

    async def remember_opinion(self, record: CaseRecord, text: OpinionText) -> None:
        await self.put_opinion(record, text)

    @classmethod
    async def open(cls, path: Path | str) -> Cache:
        path = Path(path)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise CorpusError(f"cannot create cache folder {path.parent}: {exc}") from exc
        try:
            return cls(path, await cls._connect(path))
        except sqlite3.OperationalError as exc:
            if _in_use(exc):  # another process holds it: not corrupt, just unavailable right now
                raise CorpusError(f"cache {path} is busy: {exc}") from exc
            if not _corrupt(exc):
                raise CorpusError(f"cannot open cache {path}: {exc}") from exc
            return await cls._rebuild(path, exc)
        except sqlite3.DatabaseError as exc:
            return await cls._rebuild(path, exc)

    @classmethod
    async def _rebuild(cls, path: Path, exc: Exception) -> Cache:
        aside = path.with_name(f"{path.name}.corrupt-{int(time.time())}")
        log.warning("cache %s is corrupt (%s); moved aside to %s and rebuilt", path, exc, aside)
        try:
            path.replace(aside)
            for suffix in ("-wal", "-shm"):
                side = path.with_name(path.name + suffix)
                if side.exists():
                    side.unlink()
        except OSError as move_exc:
            raise CorpusError(f"cache {path} is corrupt and cannot be moved aside: {move_exc}") from move_exc
        try:
            return cls(path, await cls._connect(path))
        except sqlite3.DatabaseError as exc2:
            raise CorpusError(f"cannot rebuild cache {path}: {exc2}") from exc2

    @staticmethod
    async def _connect(path: Path) -> aiosqlite.Connection:
        db = await aiosqlite.connect(path, timeout=10)
        try:
            await db.execute("PRAGMA busy_timeout=10000")
            await db.execute("PRAGMA journal_mode=WAL")
            await db.executescript(_SCHEMA)
            async with db.execute("PRAGMA quick_check") as cur:
                row = await cur.fetchone()
            if row is None or row[0] != "ok":
                raise sqlite3.DatabaseError(f"integrity check failed: {row[0] if row else 'no answer'}")
            await db.commit()
        except BaseException:
            await db.close()
            raise
        return db

    # ------------------------------------------------------------------ lookups
    async def get_lookups(
        self, keys: Sequence[CiteKey], *, now: float | None = None
    ) -> dict[CiteKey, LookupResult]:
        now = time.time() if now is None else now
        out: dict[CiteKey, LookupResult] = {}
        try:
            for i in range(0, len(keys), 500):
                chunk = keys[i : i + 500]
                by_key = {_key(k): k for k in chunk}
                marks = ",".join("?" * len(chunk))
                async with self._db.execute(
                    f"SELECT key, result FROM lookups WHERE key IN ({marks}) AND expires > ?", [*by_key, now]
                ) as cur:
                    rows = [row async for row in cur]
                for key, raw in rows:
                    r = _decode(raw, result_from_dict)
                    if r is None or not _well_typed_result(r):
                        await self._repair("lookups", "key", key)
                        continue
                    out[by_key[key]] = LookupResult(
                        key=by_key[key],
                        status=r.status,
                        records=r.records,
                        source="cache",
                        reason=_cached_reason(r),
                        containing=r.containing,
                        volume_complete=r.volume_complete,
                        volume_last_page=r.volume_last_page,
                    )
        except sqlite3.Error as exc:
            raise CorpusError(f"cache read failed: {exc}") from exc
        return out

    async def put_lookups(self, results: Iterable[LookupResult], *, now: float | None = None) -> None:
        now = time.time() if now is None else now
        rows = []
        recs: list[tuple[str, str, float]] = []
        for r in results:
            positive = r.status in (LookupStatus.FOUND, LookupStatus.AMBIGUOUS)
            ttl = POSITIVE_TTL_S if positive else NEGATIVE_TTL_S
            rows.append((_key(r.key), json.dumps(result_to_dict(r)), now + ttl))
            recs.extend((x.id, json.dumps(record_to_dict(x)), now) for x in r.records)
        try:
            await self._db.executemany(
                "INSERT OR REPLACE INTO lookups (key, result, expires) VALUES (?,?,?)", rows
            )
            await self._db.executemany(
                "INSERT OR REPLACE INTO records (id, record, stored) VALUES (?,?,?)", recs
            )
            await self._db.commit()
        except sqlite3.Error as exc:
            raise CorpusError(f"cache write failed: {exc}") from exc

    async def _repair(self, table: str, column: str, value: str) -> None:
        """Delete a row that cannot be decoded: it becomes a miss now and is refilled by the next answer."""
        log.warning(
            "cache: a bad row in %s (%s=%r) was dropped; it will be fetched again", table, column, value
        )
        try:
            if table == "opinions":
                async with self._db.execute(
                    "SELECT rowid, text FROM opinions WHERE case_id = ?", (value,)
                ) as cur:
                    old = await cur.fetchone()
                if old is not None:
                    await self._db.execute(
                        "INSERT INTO opinion_fts(opinion_fts, rowid, text) VALUES ('delete', ?, ?)",
                        (old[0], old[1]),
                    )
            await self._db.execute(f"DELETE FROM {table} WHERE {column} = ?", (value,))
            await self._db.commit()
        except sqlite3.Error as exc:  # a read-only or locked cache: the row stays a miss
            log.warning("cache: could not drop the bad row: %s", exc)

    # ------------------------------------------------------------------ opinions
    async def get_opinion(self, case_id: str) -> OpinionText | None:
        try:
            async with self._db.execute(
                "SELECT opinion, text FROM opinions WHERE case_id = ?", (case_id,)
            ) as cur:
                row = await cur.fetchone()
        except sqlite3.Error as exc:
            raise CorpusError(f"cache read failed: {exc}") from exc
        if row is None:
            return None
        op = _decode(row[0], opinion_from_dict, text=row[1])
        if op is None:
            await self._repair("opinions", "case_id", case_id)
        return op

    async def put_opinion(
        self, record: CaseRecord, opinion: OpinionText, *, now: float | None = None
    ) -> None:
        now = time.time() if now is None else now
        meta = opinion_to_dict(opinion)
        meta["text"] = ""  # stored once, in its own column (FTS content)
        try:
            async with self._db.execute(
                "SELECT rowid, text FROM opinions WHERE case_id = ?", (opinion.case_id,)
            ) as cur:
                old = await cur.fetchone()
            if old is not None:
                await self._db.execute(
                    "INSERT INTO opinion_fts(opinion_fts, rowid, text) VALUES ('delete', ?, ?)",
                    (old[0], old[1]),
                )
                await self._db.execute("DELETE FROM opinions WHERE rowid = ?", (old[0],))
            cur2 = await self._db.execute(
                "INSERT INTO opinions (case_id, text, opinion, stored) VALUES (?,?,?,?)",
                (opinion.case_id, opinion.text, json.dumps(meta), now),
            )
            await self._db.execute(
                "INSERT INTO opinion_fts(rowid, text) VALUES (?, ?)", (cur2.lastrowid, opinion.text)
            )
            await self._db.execute(
                "INSERT OR REPLACE INTO records (id, record, stored) VALUES (?,?,?)",
                (record.id, json.dumps(record_to_dict(record)), now),
            )
            await self._db.commit()
        except sqlite3.Error as exc:
            raise CorpusError(f"cache write failed: {exc}") from exc

    async def find_passage(self, passage: str, *, limit: int = 5) -> list[PassageHit]:
        fragment = longest_fragment(passage)
        query = fts_phrase(fragment)
        if query is None:
            return []
        hits: list[PassageHit] = []
        try:
            async with self._db.execute(
                "SELECT o.case_id, o.text, o.opinion, r.record FROM opinion_fts f JOIN opinions o ON o.rowid = f.rowid"
                " JOIN records r ON r.id = o.case_id WHERE opinion_fts MATCH ? LIMIT ?",
                (query, limit * 4),
            ) as cur:
                rows = await cur.fetchall()
        except sqlite3.Error:
            return []
        for case_id, text, op_raw, rec_raw in rows:
            where = locate(text, fragment)
            if where is None:
                continue
            start, end = where
            op = _decode(op_raw, opinion_from_dict, text=text)
            rec = _decode(rec_raw, record_from_dict)
            if op is None or rec is None or not _well_typed_record(rec):
                await self._repair(
                    "opinions" if op is None else "records", "case_id" if op is None else "id", case_id
                )
                continue
            pm = op.page_maps[0] if op.page_maps else None
            hits.append(
                PassageHit(
                    case=rec,
                    offset=start,
                    passage=text[start:end],
                    page=pm.page_at(start) if pm else None,
                    reporter=pm.reporter if pm else None,
                )
            )
            if len(hits) >= limit:
                break
        return hits

    # ------------------------------------------------------------------ CAP volumes known to be absent
    async def volume_missing(self, reporter: str, volume: str, *, now: float | None = None) -> str | None:
        now = time.time() if now is None else now
        async with self._db.execute(
            "SELECT reason FROM missing_volumes WHERE reporter = ? AND volume = ? AND expires > ?",
            (reporter, volume, now),
        ) as cur:
            row = await cur.fetchone()
        return row[0] if row else None

    async def put_volume_missing(
        self, reporter: str, volume: str, reason: str, *, now: float | None = None
    ) -> None:
        now = time.time() if now is None else now
        await self._db.execute(
            "INSERT OR REPLACE INTO missing_volumes (reporter, volume, reason, expires) VALUES (?,?,?,?)",
            (reporter, volume, reason, now + MISSING_VOLUME_TTL_S),
        )
        await self._db.commit()

    # ------------------------------------------------------------------ treatment searches (treatment/online.py)
    async def get_treatment_search(self, key: str, *, now: float | None = None) -> list[Any] | None:
        """What CourtListener's search of the opinions citing ``key`` answered (None: not asked lately)."""
        now = time.time() if now is None else now
        async with self._db.execute(
            "SELECT result FROM treatment_searches WHERE key = ? AND expires > ?", (key, now)
        ) as cur:
            row = await cur.fetchone()
        if row is None:
            return None
        try:
            value = json.loads(row[0])
        except ValueError:
            return None
        return value if isinstance(value, list) else None

    async def put_treatment_search(self, key: str, result: list[Any], *, now: float | None = None) -> None:
        now = time.time() if now is None else now
        await self._db.execute(
            "INSERT OR REPLACE INTO treatment_searches (key, result, expires) VALUES (?,?,?)",
            (key, json.dumps(result), now + POSITIVE_TTL_S),
        )
        await self._db.commit()

    # ------------------------------------------------------------------ CAP case metadata (cap_ranges.py)
    async def get_cap_cases(self, reporter: str, volume: str) -> str | None:
        """A volume's page ranges as ``cap_ranges`` packed them; kept for good (CAP is frozen)."""
        try:
            async with self._db.execute(
                "SELECT cases FROM cap_cases WHERE reporter = ? AND volume = ?", (reporter, volume)
            ) as cur:
                row = await cur.fetchone()
        except sqlite3.Error as exc:
            raise CorpusError(f"cache read failed: {exc}") from exc
        return str(row[0]) if row else None

    async def put_cap_cases(
        self, reporter: str, volume: str, packed: str, *, now: float | None = None
    ) -> None:
        try:
            await self._db.execute(
                "INSERT OR REPLACE INTO cap_cases (reporter, volume, cases, stored) VALUES (?,?,?,?)",
                (reporter, volume, packed, time.time() if now is None else now),
            )
            await self._db.commit()
        except sqlite3.Error as exc:
            raise CorpusError(f"cache write failed: {exc}") from exc

    # ------------------------------------------------------------------ pacing (sources/pacing.py)
    async def load_pacing(self, scope: str) -> dict | None:
        """What earlier runs spent of a service's allowance, and its holds; None when unknown or damaged."""
        try:
            async with self._db.execute("SELECT state FROM pacing WHERE scope = ?", (scope,)) as cur:
                row = await cur.fetchone()
        except sqlite3.Error as exc:
            raise CorpusError(f"cache read failed: {exc}") from exc
        if row is None:
            return None
        try:
            state = json.loads(row[0])
        except ValueError:
            return None
        return state if isinstance(state, dict) else None

    async def save_pacing(self, scope: str, state: dict) -> None:
        try:
            await self._db.execute(
                "INSERT OR REPLACE INTO pacing (scope, state) VALUES (?, ?)", (scope, json.dumps(state))
            )
            await self._db.commit()
        except sqlite3.Error as exc:
            raise CorpusError(f"cache write failed: {exc}") from exc

    async def put_pending(self, keys: Sequence[CiteKey], until: float, *, now: float | None = None) -> None:
        """Citations left waiting for the allowance, in order of value (a later run starts with them)."""
        now = time.time() if now is None else now
        try:
            await self._db.execute("DELETE FROM pending_lookups WHERE added < ?", (now - PENDING_TTL_S,))
            async with self._db.execute("SELECT COALESCE(MAX(position), 0) FROM pending_lookups") as cur:
                row = await cur.fetchone()
            base = int(row[0]) if row else 0
            await self._db.executemany(
                "INSERT INTO pending_lookups (key, position, until, added) VALUES (?,?,?,?)"
                " ON CONFLICT(key) DO UPDATE SET until = excluded.until",
                [(_key(k), base + i + 1, until, now) for i, k in enumerate(keys)],
            )
            await self._db.commit()
        except sqlite3.Error as exc:
            raise CorpusError(f"cache write failed: {exc}") from exc

    async def drop_pending(self, keys: Sequence[CiteKey]) -> None:
        try:
            await self._db.executemany(
                "DELETE FROM pending_lookups WHERE key = ?", [(_key(k),) for k in keys]
            )
            await self._db.commit()
        except sqlite3.Error as exc:
            raise CorpusError(f"cache write failed: {exc}") from exc

    async def pending_positions(
        self, keys: Sequence[CiteKey], *, now: float | None = None
    ) -> dict[CiteKey, int]:
        """Where each of ``keys`` stands in the pending list (absent: not pending). Read back by the
        client to order its work: what an earlier run left waiting goes first, in the order left."""
        now = time.time() if now is None else now
        wanted = {_key(k): k for k in keys}
        out: dict[CiteKey, int] = {}
        try:
            names = list(wanted)
            for i in range(0, len(names), 500):
                chunk = names[i : i + 500]
                marks = ",".join("?" * len(chunk))
                async with self._db.execute(
                    f"SELECT key, position FROM pending_lookups WHERE added >= ? AND key IN ({marks})",
                    (now - PENDING_TTL_S, *chunk),
                ) as cur:
                    for raw, position in await cur.fetchall():
                        out[wanted[raw]] = int(position)
        except sqlite3.Error as exc:
            raise CorpusError(f"cache read failed: {exc}") from exc
        return out

    async def pending(self, *, limit: int = 10_000) -> list[tuple[CiteKey, float]]:
        """Waiting citations in the order they were left, each with when its wait ends."""
        try:
            async with self._db.execute(
                "SELECT key, until FROM pending_lookups ORDER BY position LIMIT ?", (limit,)
            ) as cur:
                rows = await cur.fetchall()
        except sqlite3.Error as exc:
            raise CorpusError(f"cache read failed: {exc}") from exc
        out = []
        for raw, until in rows:
            parts = str(raw).split("|")
            if len(parts) == 3:
                out.append((CiteKey(*parts), float(until)))
        return out

    # ------------------------------------------------------------------ housekeeping
    async def clear(self) -> None:
        try:
            for table in (
                "lookups",
                "records",
                "opinions",
                "missing_volumes",
                "pending_lookups",
                "treatment_searches",
            ):
                await self._db.execute(f"DELETE FROM {table}")
            await self._db.execute("INSERT INTO opinion_fts(opinion_fts) VALUES ('delete-all')")
            await self._db.commit()
        except sqlite3.Error as exc:
            raise CorpusError(f"cannot clear cache: {exc}") from exc

    async def close(self) -> None:
        await self._db.close()


def _decode(raw: Any, build: Callable[[dict[str, Any]], T], **extra: Any) -> T | None:
    """``build(json)`` for a stored row, or None when the row is not what we stored (bad JSON or shape)."""
    try:
        data = json.loads(raw)
        if not isinstance(data, dict):
            return None
        data.update(extra)
        return build(data)
    except (ValueError, TypeError, KeyError, AttributeError, IndexError):
        return None


def _well_typed_record(r: CaseRecord) -> bool:
    return isinstance(r.id, str) and isinstance(r.name, str) and isinstance(r.source, str)


def _well_typed_result(r: LookupResult) -> bool:
    key = (r.key.volume, r.key.reporter, r.key.page)
    return (
        all(isinstance(p, str) for p in key)
        and all(_well_typed_record(x) for x in r.records)
        and (r.containing is None or _well_typed_record(r.containing))
    )


def _cached_reason(r: LookupResult) -> str:
    base = r.reason or ""
    origin = r.source or "a source"
    return f"{base} (cached answer from {origin})" if base else f"cached answer from {origin}"
