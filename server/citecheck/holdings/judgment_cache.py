"""SQLite cache of holding judgments, so a draft re-checked on every pause asks the model only once.

Keyed on everything that could change the answer: the endpoint and the model that judged (a run pointed
at another endpoint, or at one that is down, never shows an earlier endpoint's verdict — the same model
name on two servers may be two models), the prompt version, the proposition, the case and the exact
passages shown. Rows of the older table, which did not record the endpoint, are never read. Only
validated judgments are stored (never a failure, never a parse error). The cache is a convenience: a file that
cannot be opened or a row that cannot be read turns it off or is skipped, and the check goes on. Calls are
synchronous because each is a sub-millisecond indexed read or write on a local file.
"""

from __future__ import annotations

import json
import logging
import sqlite3
import threading
from collections.abc import Sequence
from pathlib import Path

from citecheck.holdings.models import Judgment, Misuse, Passage, Support, text_hash

log = logging.getLogger(__name__)

_SCHEMA = """
CREATE TABLE IF NOT EXISTS judged_by (
    endpoint TEXT NOT NULL,
    model TEXT NOT NULL,
    prompt_version TEXT NOT NULL,
    proposition_hash TEXT NOT NULL,
    case_id TEXT NOT NULL,
    passages_hash TEXT NOT NULL,
    judgment TEXT NOT NULL,
    created REAL NOT NULL DEFAULT (julianday('now')),
    PRIMARY KEY (endpoint, model, prompt_version, proposition_hash, case_id, passages_hash)
)
"""

Key = tuple[str, str, str, str, str, str]


def endpoint_id(url: str) -> str:
    """The endpoint as a key: scheme, host and path, case and trailing slashes aside.

    >>> endpoint_id("HTTP://127.0.0.1:8000/v1/") == endpoint_id("http://127.0.0.1:8000/v1")
    True
    """
    from urllib.parse import urlsplit

    parts = urlsplit(url.strip())
    return f"{parts.scheme.lower()}://{parts.netloc.lower()}{parts.path.rstrip('/')}"


def cache_key(
    endpoint: str,
    model: str,
    prompt_version: str,
    proposition: str,
    case_id: str,
    passages: Sequence[Passage],
) -> Key:
    """The key of one judgment; the passages are hashed in order (their order is part of the prompt)."""
    return (
        endpoint_id(endpoint),
        model,
        prompt_version,
        text_hash(proposition),
        case_id,
        text_hash("\x1e".join(p.digest for p in passages)),
    )


class JudgmentCache:
    """A lazily opened SQLite file of judgments; ``:memory:`` works for tests."""

    def __init__(self, path: Path | str) -> None:
        self.path = path
        self._db: sqlite3.Connection | None = None
        self._broken = False
        self._lock = threading.Lock()

    def _conn(self) -> sqlite3.Connection | None:
        if self._db is not None or self._broken:
            return self._db
        try:
            if str(self.path) != ":memory:":
                Path(self.path).parent.mkdir(parents=True, exist_ok=True)
            db = sqlite3.connect(str(self.path), check_same_thread=False, timeout=2.0)
            db.execute(_SCHEMA)
            db.commit()
        except (sqlite3.Error, OSError) as exc:
            log.warning("judgment cache %s unavailable (%s); judging without it", self.path, exc)
            self._broken = True
            return None
        self._db = db
        return db

    def get(self, key: Key) -> Judgment | None:
        with self._lock:
            db = self._conn()
            if db is None:
                return None
            try:
                row = db.execute(
                    "SELECT judgment FROM judged_by WHERE endpoint=? AND model=? AND prompt_version=? "
                    "AND proposition_hash=? AND case_id=? AND passages_hash=?",
                    key,
                ).fetchone()
            except sqlite3.Error as exc:
                log.warning("judgment cache read failed: %s", exc)
                return None
        if row is None:
            return None
        try:
            data = json.loads(row[0])
            return Judgment(
                support=Support(data["support"]),
                misuse=Misuse(data["misuse"]),
                supporting_quote=str(data["supporting_quote"]),
                rationale=str(data["rationale"]),
            )
        except (ValueError, KeyError, TypeError):
            return None  # a bad row is a miss, not a crash

    def put(self, key: Key, judgment: Judgment) -> None:
        data = json.dumps(
            {
                "support": judgment.support.value,
                "misuse": judgment.misuse.value,
                "supporting_quote": judgment.supporting_quote,
                "rationale": judgment.rationale,
            }
        )
        with self._lock:
            db = self._conn()
            if db is None:
                return
            try:
                db.execute(
                    "INSERT OR REPLACE INTO judged_by (endpoint, model, prompt_version, proposition_hash, "
                    "case_id, passages_hash, judgment) VALUES (?, ?, ?, ?, ?, ?, ?)",
                    (*key, data),
                )
                db.commit()
            except sqlite3.Error as exc:
                log.warning("judgment cache write failed: %s", exc)

    def close(self) -> None:
        with self._lock:
            if self._db is not None:
                self._db.close()
                self._db = None
