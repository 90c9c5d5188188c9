"""Read the citation index: citation lookups with honest coverage, case records, the name search.

The file is written once and swapped whole (``build.py``), so it is opened read-only and
*immutable* (no locks, no WAL side files). A long-lived reader (the language server) notices a swap
(the file's inode and mtime) and reopens.

A lookup is a probe of ``cites`` by (reporter, volume, page). When nothing begins at the page, the
volume's row tells whether the index holds it in full (``coverage.py``) and, by bisecting its first
pages, which cases begin just before and after the page: in a complete volume that is NOT_FOUND with
those cases as evidence (and the one before as the case whose pages the page falls in); elsewhere it
is CANNOT_VERIFY, so the rest of the chain may still find it.
"""

from __future__ import annotations

import bisect
import os
import re
import sqlite3
import threading
from array import array
from collections import OrderedDict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import quote

from citecheck.errors import CorpusError
from citecheck.sources.index.coverage import incomplete_reason
from citecheck.sources.index.lanes import key_part
from citecheck.sources.index.schema import SCHEMA_VERSION, STATUSES
from citecheck.sources.models import CaseCite, CaseRecord, CiteKey, LookupResult, LookupStatus
from citecheck.sources.name_keys import GENERIC, NAME_KEYS_VERSION, NameScorer, name_tokens
from citecheck.sources.reporters import is_database, normalise_reporter

COURTLISTENER_WEB = "https://www.courtlistener.com"
SOURCE = "index"
_RECORD_CACHE = 4096
_SEARCH_CANDIDATES = 150
_FALLBACK_CANDIDATES = 60
_VOLUME_CACHE = 8192
_MMAP_BYTES = 4 << 30
_MISSING = object()
_EXACT = "SELECT cluster FROM cites WHERE reporter=? AND volume=? AND page=?"
_FIRST_AT = "SELECT cluster FROM cites WHERE reporter=? AND volume=? AND page=? LIMIT 1"
_SLUG = re.compile(r"[^a-z0-9]+")


@dataclass(frozen=True, slots=True, kw_only=True)
class NameHit:
    """A case the name search found and how well its names match the query (``name_keys.name_score``)."""

    record: CaseRecord
    score: float


@dataclass(frozen=True, slots=True, kw_only=True)
class IndexStatus:
    """What ``corpus status`` shows of an index."""

    path: Path
    size: int
    dump_date: str
    built_at: str
    full_dump: bool
    cases: int
    citations: int
    dockets: int
    courts: int
    volumes: int
    complete_volumes: int
    refused: dict[str, int]
    built_by: str


def slug(name: str) -> str:
    """CourtListener's URL slug of a case name (its site redirects a stale one).

    >>> slug("State v. Dyous")
    'state-v-dyous'
    """
    return _SLUG.sub("-", name.lower()[:75]).strip("-") or "case"


def _date_iso(value: int | None) -> str | None:
    if not value:
        return None
    s = f"{value:08d}"
    return f"{s[:4]}-{s[4:6]}-{s[6:]}"


class CitationIndex:
    """A read-only view of one index file; thread-safe (one connection behind a lock)."""

    def __init__(self, path: Path) -> None:
        self.path = Path(path).expanduser()
        self._lock = threading.RLock()
        self._db: sqlite3.Connection | None = None
        self._ident: tuple[int, int, int] | None = None
        self._records: OrderedDict[int, CaseRecord] = OrderedDict()
        self._volumes: dict[tuple[int, Any], Any] = {}
        self._open()

    # ------------------------------------------------------------------ opening
    def _stat(self) -> tuple[int, int, int]:
        st = os.stat(self.path)
        return (st.st_ino, st.st_mtime_ns, st.st_size)

    def _open(self) -> None:
        if not self.path.is_file():
            raise CorpusError(f"no citation index at {self.path} (build one with `citecheck corpus sync`)")
        try:
            ident = self._stat()
            db = sqlite3.connect(
                f"file:{quote(str(self.path.resolve()))}?mode=ro&immutable=1",
                uri=True,
                check_same_thread=False,
            )
            meta = dict(db.execute("SELECT key, value FROM meta").fetchall())
            # the file never changes under us (immutable): map it, so a probe reads memory, not read()s
            db.execute(f"PRAGMA mmap_size={_MMAP_BYTES}")
            db.execute("PRAGMA cache_size=-16384")
        except sqlite3.DatabaseError as exc:
            raise CorpusError(f"{self.path} is not a citation index ({exc})") from exc
        version = meta.get("schema_version", "")
        if version != str(SCHEMA_VERSION):
            db.close()
            newer = version.isdigit() and int(version) > SCHEMA_VERSION
            raise CorpusError(
                f"{self.path} was built by a {'newer' if newer else 'different'} citecheck (index schema "
                f"{version or '?'}); {'upgrade citecheck' if newer else 'rebuild it with `citecheck corpus sync --rebuild`'}"
            )
        if meta.get("name_keys_version") != str(NAME_KEYS_VERSION):
            db.close()
            raise CorpusError(
                f"{self.path} uses older case-name keys; rebuild it with `citecheck corpus sync --rebuild`"
            )
        old, self._db, self._ident = self._db, db, ident
        if old is not None:
            old.close()
        self.meta = meta
        self.full_dump = meta.get("full_dump") == "1"
        self.dump_date = meta.get("dump_date", "")
        self._reporters = {name: idx for idx, name in db.execute("SELECT idx, name FROM reporters")}
        self._reporter_names = {idx: name for name, idx in self._reporters.items()}
        self._courts = {
            idx: (cid, name, place)
            for idx, cid, name, place in db.execute("SELECT idx, id, name, place FROM courts")
        }
        self._court_ids = {cid: idx for idx, (cid, _, _) in self._courts.items()}
        self._records.clear()
        self._volumes.clear()

    def refresh(self) -> bool:
        """Reopen when the file was replaced by a newer build; True if it was."""
        try:
            if self._stat() == self._ident:
                return False
        except OSError:
            return False
        with self._lock:
            self._open()
        return True

    def close(self) -> None:
        with self._lock:
            if self._db is not None:
                self._db.close()
                self._db = None

    @property
    def db(self) -> sqlite3.Connection:
        if self._db is None:
            raise CorpusError(f"the citation index {self.path} is closed")
        return self._db

    @property
    def label(self) -> str:
        kind = "CourtListener bulk data" if self.full_dump else "a partial CourtListener import"
        return f"the citation index ({kind} of {self.dump_date or 'unknown date'})"

    # ------------------------------------------------------------------ records
    def records(self, ids: Iterable[int]) -> dict[int, CaseRecord]:
        """Case records by cluster id (cached)."""
        out: dict[int, CaseRecord] = {}
        todo = []
        for cid in dict.fromkeys(ids):
            rec = self._records.get(cid)
            if rec is None:
                todo.append(cid)
            else:
                self._records.move_to_end(cid)
                out[cid] = rec
        for start in range(0, len(todo), 500):
            part = todo[start : start + 500]
            for cid, rec in self._fetch(part).items():
                out[cid] = rec
                self._records[cid] = rec
        while len(self._records) > _RECORD_CACHE:
            self._records.popitem(last=False)
        return out

    def _fetch(self, ids: Sequence[int]) -> dict[int, CaseRecord]:
        marks = ",".join("?" * len(ids))
        with self._lock:
            rows = self.db.execute(
                "SELECT k.id, k.date_filed, k.status, k.name, k.short, k.full, d.court, d.number FROM cases k"
                f" LEFT JOIN dockets d ON d.id = k.docket WHERE k.id IN ({marks})",
                list(ids),
            ).fetchall()
            cites: dict[int, list[CaseCite]] = {}
            for cluster, rep, vol, page, typ in self.db.execute(
                f"SELECT cluster, reporter, volume, page, type FROM cites WHERE cluster IN ({marks})"
                " ORDER BY cluster, cite_id",
                list(ids),
            ):
                cites.setdefault(cluster, []).append(
                    CaseCite(
                        volume=str(vol),
                        reporter=self._reporter_names.get(rep, "?"),
                        page=str(page),
                        type=str(typ) if typ is not None else None,
                    )
                )
        out = {}
        for cid, date, status, name, short, full, court, number in rows:
            court_id, court_name, place = (
                self._courts.get(court, (None, None, None)) if court else (None, None, None)
            )
            out[cid] = CaseRecord(
                id=f"cl:{cid}",
                source="courtlistener",
                name=name,
                name_short=short,
                name_full=full,
                court_id=court_id,
                court_name=court_name,
                jurisdiction=place,
                decision_date=_date_iso(date),
                citations=tuple(cites.get(cid, ())),
                url=f"{COURTLISTENER_WEB}/opinion/{cid}/{slug(name)}/",
                docket_number=number,
                status=STATUSES[status] if status is not None and 0 <= status < len(STATUSES) else None,
            )
        return out

    # ------------------------------------------------------------------ lookups
    def lookup(self, keys: Sequence[CiteKey]) -> dict[CiteKey, LookupResult]:
        """Answer every key (FOUND / AMBIGUOUS / NOT_FOUND in a complete volume / CANNOT_VERIFY).

        One probe per key, then one batch of record reads for every case any answer names (the cases
        found, and the cases around each absent page)."""
        probes: dict[CiteKey, tuple[int, Any, Any] | None] = {}
        found: dict[CiteKey, list[int]] = {}
        around: dict[CiteKey, tuple[int | None, int | None, dict[int, int]]] = {}
        with self._lock:
            for key in keys:
                probe = probes[key] = self._probe_key(key)
                if probe is None:
                    continue
                ids = [c for (c,) in self.db.execute(_EXACT, probe)]
                if ids:
                    found[key] = ids
                    continue
                vol = self._volume(probe[0], probe[1])
                if vol is not None:
                    around[key] = self._around(probe, vol[3])
        wanted = [c for ids in found.values() for c in ids]
        wanted += [c for _, _, at in around.values() for c in at.values()]
        recs = self.records(wanted)
        out: dict[CiteKey, LookupResult] = {}
        for key in keys:
            probe = probes[key]
            if key in found:
                out[key] = self._found(key, probe, [recs[c] for c in found[key] if c in recs])
            else:
                before, after, at = around.get(key, (None, None, {}))
                neighbours = {p: recs[c] for p, c in at.items() if c in recs}
                out[key] = self._absent(key, probe, before, after, neighbours)
        return out

    def _probe_key(self, key: CiteKey) -> tuple[int, Any, Any] | None:
        rep = self._reporters.get(normalise_reporter(key.reporter))
        vol, page = key_part(key.volume), key_part(key.page)
        if rep is None or vol is None or page is None:
            return None
        return (rep, vol, page)

    def _volume(self, rep: int, vol: Any) -> tuple[int, bool, int | None, array[int]] | None:
        """(cases, complete, last date, first pages) of a volume; cached (a brief cites few volumes, often)."""
        cached = self._volumes.get((rep, vol), _MISSING)
        if cached is not _MISSING:
            return cached  # type: ignore[return-value]
        with self._lock:
            row = self.db.execute(
                "SELECT cases, complete, last_date, first_pages FROM volumes WHERE reporter=? AND volume=?",
                (rep, vol),
            ).fetchone()
        info = None
        if row is not None:
            pages: array[int] = array("I")
            pages.frombytes(row[3])
            info = (row[0], bool(row[1]), row[2], pages)
        if len(self._volumes) >= _VOLUME_CACHE:
            self._volumes.clear()
        self._volumes[(rep, vol)] = info
        return info

    def _around(
        self, probe: tuple[int, Any, Any], pages: array[int]
    ) -> tuple[int | None, int | None, dict[int, int]]:
        """The first pages just before and after an absent page, and the case (cluster) at each."""
        page = probe[2]
        before = after = None
        if isinstance(page, int) and pages:
            i = bisect.bisect_left(pages, page)
            before = pages[i - 1] if i > 0 else None
            after = pages[i] if i < len(pages) else None
        at: dict[int, int] = {}
        for p in (before, after):
            if p is not None:
                row = self.db.execute(_FIRST_AT, (probe[0], probe[1], p)).fetchone()
                if row is not None:
                    at[p] = row[0]
        return before, after, at

    def _found(self, key: CiteKey, probe: Any, recs: list[CaseRecord]) -> LookupResult:
        vol = self._volume(probe[0], probe[1])
        complete = bool(vol and vol[1])
        if not recs:
            return LookupResult(key=key, status=LookupStatus.CANNOT_VERIFY, source=SOURCE,
                                reason="the index lists a case here but holds no record of it")  # fmt: skip
        return LookupResult(
            key=key,
            status=LookupStatus.FOUND if len(recs) == 1 else LookupStatus.AMBIGUOUS,
            records=tuple(recs),
            source=SOURCE,
            reason=f"found in {self.label}",
            volume_complete=complete,
        )

    def _absent(
        self,
        key: CiteKey,
        probe: tuple[int, Any, Any] | None,
        before: int | None,
        after: int | None,
        neighbours: dict[int, CaseRecord],
    ) -> LookupResult:
        reporter = normalise_reporter(key.reporter)
        label = f"{key.volume} {reporter}"
        if is_database(reporter):
            return self._cannot(
                key, f"{reporter} is a Westlaw/Lexis database citation; no public source covers it"
            )
        if probe is None:
            if reporter not in self._reporters:
                return self._cannot(key, f"the citation index has no case in {reporter}")
            return self._cannot(key, f"{key} is not a page the citation index can look up")
        vol = self._volume(probe[0], probe[1])
        if vol is None:
            return self._cannot(key, f"the citation index has no case in {label}")
        cases, complete, last_date, _ = vol
        page = probe[2]
        near = self._describe_near(page, before, after, neighbours, complete=complete)
        if not complete:
            why = incomplete_reason(
                reporter, str(key.volume), full_dump=self.full_dump, cases=cases, last_date=last_date
            )
            return self._cannot(key, f"{why}{near}")
        host = neighbours.get(before) if before is not None and after is not None else None
        reason = (
            f"no case begins at page {key.page} of {label}, which {self.label} holds in full "
            f"({cases} cases){near}"
        )
        return LookupResult(
            key=key,
            status=LookupStatus.NOT_FOUND,
            source=SOURCE,
            reason=reason,
            containing=host,
            volume_complete=True,
            neighbours=tuple(
                r for p in (before, after) if p is not None and (r := neighbours.get(p)) is not None
            ),
        )

    @staticmethod
    def _describe_near(
        page: Any, before: int | None, after: int | None, cases: dict[int, CaseRecord], *, complete: bool
    ) -> str:
        """The cases around an absent page, for the reason (the evidence of a fabricated-case finding)."""

        def name(p: int) -> str:
            rec = cases.get(p)
            year = f" ({rec.decision_date[:4]})" if rec and rec.decision_date else ""
            return f"{rec.name}{year}" if rec else "a case"

        if before is not None and after is not None:
            text = f"; the cases before and after it are {name(before)} at page {before} and {name(after)} at page {after}"
            return text + (f", so page {page} falls within {name(before)}" if complete else "")
        if before is not None:
            return f"; the last case of the volume in the index begins before it: {name(before)} at page {before}"
        if after is not None:
            return (
                f"; the first case of the volume in the index begins after it: {name(after)} at page {after}"
            )
        return ""

    @staticmethod
    def _cannot(key: CiteKey, reason: str) -> LookupResult:
        return LookupResult(key=key, status=LookupStatus.CANNOT_VERIFY, source=SOURCE, reason=reason)

    # ------------------------------------------------------------------ name search
    def search_names(
        self,
        query: str,
        *,
        limit: int = 10,
        court: str | None = None,
        years: tuple[int, int] | None = None,
    ) -> list[NameHit]:
        """Cases whose names match ``query`` (normalised, abbreviation-aware, party by party), best first.

        ``court``: a CourtListener court id; ``years``: decided within (first, last), inclusive. Candidates
        come from the FTS table (every key of the name, then its distinctive keys, then each party's), filtered
        in SQL, scored with ``name_keys.name_score`` on their names alone; only the hits get full records.
        Among equal names, published opinions come first.
        """
        tokens = name_tokens(query)
        if not tokens:
            return []
        sql = (
            "SELECT k.id, k.name, k.short, k.full, k.date_filed, k.status FROM names"
            " JOIN cases k ON k.id = names.rowid"
        )
        where = ["names MATCH ?"]
        extra: list[Any] = []
        if court is not None:
            court_idx = self._court_ids.get(court)
            if court_idx is None:
                return []
            sql += " JOIN dockets d ON d.id = k.docket"
            where.append("d.court = ?")
            extra.append(court_idx)
        if years is not None:
            where.append("k.date_filed BETWEEN ? AND ?")
            extra += [years[0] * 10000, years[1] * 10000 + 1231]
        sql += " WHERE " + " AND ".join(where) + " LIMIT ?"
        informative = [t for t in tokens if t not in GENERIC and len(t) > 1]
        scored: dict[int, tuple[float, bool, int, int]] = {}
        name_score = NameScorer(query)
        strategies: list[tuple[str, ...]] = []
        for terms in (tokens, tuple(informative), *map(tuple, self._party_terms(query))):
            if terms and terms not in strategies:
                strategies.append(terms)
        with self._lock:
            for n, terms in enumerate(strategies):
                match = " ".join(f'"{t}"' for t in terms)
                cap = _SEARCH_CANDIDATES if n == 0 else _FALLBACK_CANDIDATES  # fallbacks: a typo, one party
                try:
                    rows = self.db.execute(sql, [match, *extra, cap]).fetchall()
                except sqlite3.OperationalError:
                    continue
                for cid, name, short, full, date, status in rows:
                    if cid not in scored:
                        score = name_score([n for n in (name, short, full) if n])
                        scored[cid] = (score, status != 1, date or 0, cid)
                sure = sum(1 for v in scored.values() if v[0] >= 0.99)
                if sure >= limit or len(scored) >= 2 * _SEARCH_CANDIDATES:
                    break
        best = sorted((v for v in scored.values() if v[0] > 0), key=lambda v: (-v[0], v[1], v[2], v[3]))[
            :limit
        ]
        recs = self.records(v[3] for v in best)
        return [NameHit(record=recs[v[3]], score=v[0]) for v in best if v[3] in recs]

    @staticmethod
    def _party_terms(query: str) -> list[list[str]]:
        """Each party's informative keys: a draft with one wrong party still finds the case by the other."""
        from citecheck.sources.name_keys import parties

        out = []
        for party in parties(query):
            keys = [t for t in name_tokens(party) if t not in GENERIC and len(t) > 1]
            if keys:
                out.append(keys)
        return out

    # ------------------------------------------------------------------ status
    def status(self) -> IndexStatus:
        import json

        m = self.meta
        try:
            refused = {str(k): int(v) for k, v in json.loads(m.get("refused") or "{}").items()}
        except ValueError:
            refused = {}
        return IndexStatus(
            path=self.path,
            size=self.path.stat().st_size,
            dump_date=self.dump_date,
            built_at=m.get("built_at", ""),
            full_dump=self.full_dump,
            cases=int(m.get("cases", 0)),
            citations=int(m.get("citations", 0)),
            dockets=int(m.get("dockets", 0)),
            courts=int(m.get("courts", 0)),
            volumes=int(m.get("volumes", 0)),
            complete_volumes=int(m.get("complete_volumes", 0)),
            refused=refused,
            built_by=m.get("built_by", ""),
        )

    def volume_info(self, reporter: str, volume: str) -> tuple[int, bool] | None:
        """(cases, complete) for one volume, or None when the index has none of it."""
        rep = self._reporters.get(normalise_reporter(reporter))
        vol = key_part(volume)
        if rep is None or vol is None:
            return None
        info = self._volume(rep, vol)
        return (info[0], info[1]) if info else None
