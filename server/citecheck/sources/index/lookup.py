"""Read the citation index: citation lookups with honest coverage, case records, the name search.

The file is written once and swapped whole (``build.py``), so it is opened read-only and
*immutable* (no locks, no WAL side files) and memory-mapped. A long-lived reader (the language
server) notices a swap (the file's inode and mtime, ``files.current``) and reopens.

A lookup reads two rows (``schema.py``): its volume's, whose packed first pages and clusters say by
bisection whether a case begins at the page — and if not, which cases begin just before and after it
— and then each case it names, whose row is its whole record. When nothing begins at the page, the
volume's row also tells whether the index holds it in full (``coverage.py``): in a complete volume
that is NOT_FOUND with the cases around it as evidence (the one before as the case whose pages the
page falls in); elsewhere it is CANNOT_VERIFY, so the rest of the chain may still find it.
"""

from __future__ import annotations

import bisect
import json
import os
import re
import sqlite3
import threading
from array import array
from collections import OrderedDict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, NamedTuple
from urllib.parse import quote

from citecheck.errors import CorpusError
from citecheck.sources.index import files
from citecheck.sources.index.coverage import incomplete_reason, volume_complete
from citecheck.sources.index.lanes import key_part
from citecheck.sources.index.schema import (
    CITE_SEP,
    FIELD_SEP,
    STATUSES,
    TIERS,
    layout_outdated,
    tier_key,
    volume_id,
)
from citecheck.sources.models import CaseCite, CaseRecord, CiteKey, LookupResult, LookupStatus
from citecheck.sources.name_keys import GENERIC, NameScorer, deletions, name_tokens, one_slip, parties
from citecheck.sources.reporters import is_database, normalise_reporter

COURTLISTENER_WEB = "https://www.courtlistener.com"
SOURCE = "index"
_RECORD_CACHE = 4096
#: How many candidates one way of asking the name search scores at most (the most cited first).
_SEARCH_CANDIDATES = 120
#: A way matching at most this many cases is ranked whole by citation count (its rowids, then a probe
#: per case); of one matching more, the cases of the top citation-count tiers (``_TOP_TIER`` up: cited
#: 128 times or more) are asked for and ranked, the rest ranked among this many first matches.
_SEARCH_RANKED_WHOLE = 400
_TOP_TIER = 8
#: Stop asking further ways once this many candidates are scored.
_SEARCH_MAX_SCORED = 400
#: Alternatives of one word typed wrong that the name search asks for (the most common first).
_NEAR_ALTERNATIVES = 24
#: The top tiers' cases the reader remembers per word (``_tier_ids``), at most this many in all: a
#: common word's are a few thousand (``united``: 4,374 of 9 M cases at 10 M citations; ~20 MB at most;
#: the 1,750 names of ``bench/index.py`` leave 41,841 in 423 words, ~3 MB).
_TIER_IDS_HELD = 1 << 18
#: A way whose top-tier cases number more than this is ranked by one FTS query instead (a list of
#: ids that long would cost more to probe than the query; never more than the SQLite build allows
#: as the parameters of one statement: 999 before SQLite 3.32).
_TIER_IDS_RANKED = 8_000
#: The shortest word the name search looks for near misses of (``build.MIN_NEAR``).
_MIN_NEAR = 4
_VOLUME_CACHE = 8192
_MMAP_BYTES = 4 << 30
_PAGE_LIMIT = 1 << 32
_MISSING = object()
_EXACT = "SELECT cluster FROM cites WHERE reporter=? AND volume=? AND page=? ORDER BY cluster"
_SLUG = re.compile(r"[^a-z0-9]+")


class _Volume(NamedTuple):
    cases: int
    complete: bool
    last_date: int | None
    pages: array[int]  # sorted first pages (one per case that begins there)
    clusters: array[int]  # the case beginning at each of ``pages``
    neutral: bool  # the build found a neutral citation (type 8) in it, or another reason the rule of
    # this citecheck gives no longer holds for the flag the build stored


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


def _at_page(info: _Volume, page: int) -> tuple[list[int], tuple[int | None, int | None, dict[int, int]]]:
    """The cases beginning at ``page`` of the volume; when none does, the first pages before and after it
    and the cases there (by bisection of the volume's first pages)."""
    pages = info.pages
    i = bisect.bisect_left(pages, page)
    j = i
    while j < len(pages) and pages[j] == page:
        j += 1
    if j > i:
        return list(info.clusters[i:j]), (None, None, {})
    at: dict[int, int] = {}
    before = after = None
    if i > 0:
        before = pages[i - 1]
        at[before] = info.clusters[bisect.bisect_left(pages, before)]
    if i < len(pages):
        after = pages[i]
        at[after] = info.clusters[i]
    return [], (before, after, at)


#: The top citation-count tiers' keys, as an FTS query (``_candidates``).
_TIERS_MATCH = " OR ".join(tier_key(t) for t in range(TIERS - 1, _TOP_TIER - 1, -1))


def _match(plan: tuple[tuple[str, ...], ...]) -> str:
    """A way of the name search as an FTS query: ``("united") AND ("state" OR "states")``."""
    return " AND ".join("(" + " OR ".join(f'"{t}"' for t in group) + ")" for group in plan)


class CitationIndex:
    """A read-only view of one index file; thread-safe (one connection behind a lock)."""

    def __init__(self, path: Path) -> None:
        self.path = Path(path).expanduser()
        self._lock = threading.RLock()
        self._db: sqlite3.Connection | None = None
        self._ident: tuple[str, int, int, int] | None = None
        self._records: OrderedDict[int, CaseRecord] = OrderedDict()
        self._volumes: dict[tuple[int, Any], _Volume | None] = {}
        self._docs: dict[str, int] = {}
        self._tiers: dict[str, frozenset[int]] = {}  # word -> its top tiers' cases (``_tier_ids``)
        self._tiers_held = 0
        self._open()

    # ------------------------------------------------------------------ opening
    def _stat(self) -> tuple[str, int, int, int]:
        current = files.current(self.path)
        st = os.stat(current)
        return (str(current), st.st_ino, st.st_mtime_ns, st.st_size)

    def _open(self) -> None:
        if not self.path.is_file() and not files.pending_path(self.path).is_file():
            raise CorpusError(f"no citation index at {self.path} (build one with `citecheck corpus sync`)")
        try:
            ident = self._stat()
            db = sqlite3.connect(
                f"file:{quote(str(Path(ident[0]).resolve()))}?mode=ro&immutable=1",
                uri=True,
                check_same_thread=False,
            )
            meta = dict(db.execute("SELECT key, value FROM meta").fetchall())
            # the file never changes under us (immutable): map it, so a probe reads memory, not read()s
            db.execute(f"PRAGMA mmap_size={_MMAP_BYTES}")
            db.execute("PRAGMA cache_size=-16384")
        except (sqlite3.DatabaseError, OSError) as exc:
            raise CorpusError(f"{self.path} is not a citation index ({exc})") from exc
        outdated = layout_outdated(meta)
        if outdated is not None:
            db.close()
            newer = "newer" in outdated
            raise CorpusError(
                f"the citation index {self.path} cannot be read: {outdated}; "
                + (
                    "upgrade citecheck"
                    if newer
                    else "run `citecheck corpus sync` (or `sync --from DIR`), which builds it again"
                )
            )
        try:
            db.execute("CREATE VIRTUAL TABLE temp.vocab USING fts5vocab(main, names, 'row')")
        except sqlite3.DatabaseError as exc:
            db.close()
            raise CorpusError(f"{self.path} is not a citation index ({exc})") from exc
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
        self._max_params = db.getlimit(sqlite3.SQLITE_LIMIT_VARIABLE_NUMBER)
        self._records.clear()
        self._volumes.clear()
        self._docs.clear()
        self._forget_tiers()

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

    def forget(self) -> None:
        """Drop what this reader remembers of the file (records, volume rows), as a fresh open would."""
        with self._lock:
            self._records.clear()
            self._volumes.clear()
            self._docs.clear()
            self._forget_tiers()

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
                "SELECT id, date_filed, status, court, number, name, short, full, cites FROM cases"
                f" WHERE id IN ({marks})",
                list(ids),
            ).fetchall()
        out = {}
        for cid, date, status, court, number, name, short, full, packed in rows:
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
                citations=self._unpack(packed),
                url=f"{COURTLISTENER_WEB}/opinion/{cid}/{slug(name)}/",
                docket_number=number,
                status=STATUSES[status] if status is not None and 0 <= status < len(STATUSES) else None,
            )
        return out

    def _unpack(self, packed: str | None) -> tuple[CaseCite, ...]:
        if not packed:
            return ()
        out = []
        for cite in packed.split(CITE_SEP):
            rep, vol, page, typ = cite.split(FIELD_SEP)
            out.append(
                CaseCite(
                    volume=vol,
                    reporter=self._reporter_names.get(int(rep), "?"),
                    page=page,
                    type=typ or None,
                )
            )
        return tuple(out)

    # ------------------------------------------------------------------ lookups
    def lookup(self, keys: Sequence[CiteKey]) -> dict[CiteKey, LookupResult]:
        """Answer every key (FOUND / AMBIGUOUS / NOT_FOUND in a complete volume / CANNOT_VERIFY).

        Per key one volume row (cached: a brief cites few volumes, often) and a bisection, then one
        batch of record reads for every case any answer names (the cases found, and the cases around
        each absent page)."""
        probes: dict[CiteKey, tuple[int, Any, Any] | None] = {}
        found: dict[CiteKey, list[int]] = {}
        around: dict[CiteKey, tuple[int | None, int | None, dict[int, int]]] = {}
        with self._lock:
            for key in keys:
                probe = probes[key] = self._probe_key(key)
                if probe is None:
                    continue
                rep, vol, page = probe
                info = self._volume(rep, vol)
                if not isinstance(page, int) or not 0 <= page < _PAGE_LIMIT:
                    ids = [c for (c,) in self.db.execute(_EXACT, probe)]  # a page that is not a number
                    if ids:
                        found[key] = ids
                    continue
                if info is None:
                    continue
                ids, near = _at_page(info, page)
                if ids:
                    found[key] = ids
                else:
                    around[key] = near
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
        rep = self._reporters.get(_reporter(key.reporter))
        vol, page = key_part(key.volume), key_part(key.page)
        if rep is None or vol is None or page is None:
            return None
        return (rep, vol, page)

    def _volume(self, rep: int, vol: Any) -> _Volume | None:
        """A volume's row (cached): case count, completeness, last date, first pages and their cases."""
        cached = self._volumes.get((rep, vol), _MISSING)
        if cached is not _MISSING:
            return cached  # type: ignore[return-value]
        vid = volume_id(rep, vol)
        with self._lock:
            if vid is not None:
                row = self.db.execute(
                    "SELECT cases, complete, last_date, pages, clusters FROM volumes WHERE id = ?", (vid,)
                ).fetchone()
            else:
                row = self.db.execute(
                    "SELECT cases, complete, last_date, pages, clusters FROM volumes WHERE reporter=? AND volume=?",
                    (rep, vol),
                ).fetchone()
        info = None
        if row is not None:
            pages: array[int] = array("I")
            pages.frombytes(row[3])
            clusters: array[int] = array("I" if len(row[4]) == 4 * len(pages) else "Q")
            clusters.frombytes(row[4])
            # the stored flag is the build's rule; this citecheck's rule is applied again (an index built
            # before issue 32 called neutral volumes like ``2015 Ohio`` complete)
            name = self._reporter_names.get(rep, "")
            now = volume_complete(name, str(vol), full_dump=self.full_dump, cases=row[0], last_date=row[2])
            info = _Volume(row[0], bool(row[1]) and now, row[2], pages, clusters, now and not row[1])
        if len(self._volumes) >= _VOLUME_CACHE:
            self._volumes.clear()
        self._volumes[(rep, vol)] = info
        return info

    def _found(self, key: CiteKey, probe: Any, recs: list[CaseRecord]) -> LookupResult:
        vol = self._volume(probe[0], probe[1])
        complete = bool(vol and vol.complete)
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
            page_shared=vol is not None and _short_page(vol.pages, probe[2]),
        )

    def _absent(
        self,
        key: CiteKey,
        probe: tuple[int, Any, Any] | None,
        before: int | None,
        after: int | None,
        neighbours: dict[int, CaseRecord],
    ) -> LookupResult:
        reporter = _reporter(key.reporter)
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
        cases, complete, last_date = vol.cases, vol.complete, vol.last_date
        page = probe[2]
        near = self._describe_near(page, before, after, neighbours, complete=False)
        if not complete:
            why = incomplete_reason(reporter, str(key.volume), full_dump=self.full_dump, cases=cases,
                                    last_date=last_date, neutral=vol.neutral)  # fmt: skip
            return self._cannot(key, f"{why or f'the index does not hold all of {label}'}{near}")
        # a complete volume; still, only a page between two cases the index holds is a claim it can make
        if not isinstance(page, int):
            return self._cannot(
                key,
                f"page {key.page} is not a page number the index can place (roman-numeral pages — a volume's "
                f"front matter, the appendix of 131 U.S. — are not in its page order){near}",
            )
        if after is None:
            return self._cannot(
                key,
                f"page {key.page} comes after the last case the index holds in {label}; the volume may hold "
                f"more than CourtListener lists{near}",
            )
        table = self._table_near(vol, before, after, neighbours)
        if table:
            return self._cannot(key, f"page {key.page} of {label} lies among {table}{near}")
        reason = (
            f"CourtListener's data holds {cases} cases of {label} and none begins at page {key.page}{near}"
        )
        return LookupResult(
            key=key,
            status=LookupStatus.NOT_FOUND,
            source=SOURCE,
            reason=reason,
            volume_complete=True,
            neighbours=tuple(
                r for p in (before, after) if p is not None and (r := neighbours.get(p)) is not None
            ),
        )

    @staticmethod
    def _table_near(
        vol: _Volume, before: int | None, after: int | None, neighbours: dict[int, CaseRecord]
    ) -> str | None:
        """Whether the page lies in a table of decisions (several decisions begin on one page next to it,
        or the cases around it are unpublished dispositions): CourtListener holds tables in part (#339)."""
        pages = vol.pages
        for p in (before, after):
            if p is None:
                continue
            if bisect.bisect_right(pages, p) - bisect.bisect_left(pages, p) > 1:
                return f"decisions printed several to a page (a table or memorandum decisions) at page {p}"
            rec = neighbours.get(p)
            if rec is not None and rec.status in ("Unpublished", "Separate"):
                return f"unpublished dispositions ({rec.name} at page {p} is one)"
        return None

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
            text = (
                f"; the cases before and after it are {name(before)} at page {before} "
                f"and {name(after)} at page {after}"
            )
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

        ``court``: a CourtListener court id; ``years``: decided within (first, last), inclusive.

        Candidates come from the FTS table, asked in turn until enough match well: every word of the
        query (a word no case has — a typo — replaced by the words one slip from it, ``near``), its
        distinctive words, each party's (one party may be wrong), then near misses of words that
        exist (``Smyth`` for ``Smith``). Each way takes at most ``_SEARCH_CANDIDATES`` cases, the most
        cited first (a citation-count tier key per case), so ``Miranda`` alone asks for the Miranda
        cases courts cite, not the first thousand by id. Candidates are scored with
        ``name_keys.name_score`` on their names alone; ties go to the published, then the most cited,
        then the older case; only the hits get full records.
        """
        tokens = name_tokens(query)
        if not tokens:
            return []
        where = self._name_filters(court, years)
        if where is None:
            return []
        filters, extra = where
        with self._lock:
            scored = self._scored(query, self._plans(query, tokens), filters, extra, limit)
        best = sorted((v for v in scored.values() if v[0] > 0), key=lambda v: (-v[0], *v[1:]))[:limit]
        recs = self.records(v[4] for v in best)
        return [NameHit(record=recs[v[4]], score=v[0]) for v in best if v[4] in recs]

    def _name_filters(self, court: str | None, years: tuple[int, int] | None) -> tuple[str, list[Any]] | None:
        """The SQL that holds candidates to the court and years, and its values (None: a court the index
        does not know, so no case)."""
        filters = ""
        extra: list[Any] = []
        if court is not None:
            court_idx = self._court_ids.get(court)
            if court_idx is None:
                return None
            filters += " AND k.court = ?"
            extra.append(court_idx)
        if years is not None:
            filters += " AND k.date_filed BETWEEN ? AND ?"
            extra += [years[0] * 10000, years[1] * 10000 + 1231]
        return filters, extra

    def _scored(
        self,
        query: str,
        plans: list[tuple[tuple[str, ...], ...]],
        filters: str,
        extra: list[Any],
        limit: int,
    ) -> dict[int, tuple[float, bool, int, int, int]]:
        """Each candidate the plans find, asked in turn until enough match well, by case: (score, not
        published, -times cited, date, case)."""
        scorer = NameScorer(query)
        by_names: dict[tuple[str, str | None, str | None], float] = {}
        scored: dict[int, tuple[float, bool, int, int, int]] = {}
        for n, plan in enumerate(plans):
            for cid, name, short, full, date, status, cited in self._candidates(plan, filters, extra):
                if cid in scored:
                    continue
                names = (name, short, full)
                score = by_names.get(names)
                if score is None:
                    score = by_names[names] = scorer([x for x in names if x])
                scored[cid] = (score, status != 1, -(cited or 0), date or 0, cid)
            sure = sum(1 for v in scored.values() if v[0] >= 0.99)
            if sure >= limit or len(scored) >= _SEARCH_MAX_SCORED:
                break
            if n >= 1 and any(v[0] >= 0.75 for v in scored.values()) and len(scored) >= limit:
                break  # the query's words found good matches; further ways only add worse ones
        return scored

    def _plans(self, query: str, tokens: tuple[str, ...]) -> list[tuple[tuple[str, ...], ...]]:
        """The ways to ask in turn (see ``search_names``): each a conjunction of groups of words, a case
        matching when it has a word of every group (``_match`` writes it as an FTS query)."""
        groups = [self._word_group(t) for t in tokens]
        plans: list[tuple[tuple[str, ...], ...]] = []

        def add(gs: Sequence[tuple[str, ...]]) -> None:
            gs = [g for g in gs if g]
            if plans and all(t in GENERIC for g in gs for t in g):
                return  # a slip read as 'people' alone: a million cases, none more likely than another
            if gs and (plan := tuple(gs)) not in plans:
                plans.append(plan)

        add(groups)
        informative = [g for t, g in zip(tokens, groups, strict=True) if t not in GENERIC and len(t) > 1]
        add(informative)
        for party in parties(query):
            add([self._word_group(t) for t in name_tokens(party) if t not in GENERIC and len(t) > 1])
        # near misses of words that exist: a slip may make another real word ("Smyth" for "Smith")
        add([self._word_group(t, near=True) for t in tokens if t not in GENERIC and len(t) > 1])
        return plans

    def _word_group(self, token: str, *, near: bool = False) -> tuple[str, ...]:
        """The words a query word stands for: itself when some case has it; otherwise (or with ``near``)
        also the words one slip from it that cases have, the most common first."""
        known = self._exists(token)
        if known and not near:
            return (token,)
        if len(token) < _MIN_NEAR:
            return (token,) if known else ()
        alts = _near_terms(self.db, token)
        # the most common first only when there are too many (a common word's count reads its doclist)
        ranked = alts if len(alts) <= _NEAR_ALTERNATIVES else sorted(alts, key=lambda t: -self._doc_count(t))
        ranked = ranked[:_NEAR_ALTERNATIVES]
        return ((token,) if known else ()) + tuple(ranked)

    def _exists(self, term: str) -> bool:
        """Whether some case has the word (its first posting: the full count of a common word reads its
        whole doclist, ~15 ms for ``state`` at 9 M cases)."""
        n = self._docs.get(term)
        if n is not None:
            return n > 0
        try:
            return (
                self.db.execute("SELECT 1 FROM names WHERE names MATCH ? LIMIT 1", (f'"{term}"',)).fetchone()
                is not None
            )
        except sqlite3.OperationalError:
            return False

    def _doc_count(self, term: str) -> int:
        n = self._docs.get(term)
        if n is None:
            row = self.db.execute("SELECT doc FROM temp.vocab WHERE term = ?", (term,)).fetchone()
            n = self._docs[term] = int(row[0]) if row else 0
            if len(self._docs) > 65536:
                self._docs.clear()
        return n

    def _candidates(
        self, plan: tuple[tuple[str, ...], ...], filters: str, extra: list[Any]
    ) -> list[tuple[Any, ...]]:
        """Up to ``_SEARCH_CANDIDATES`` cases matching ``match`` (and the filters), the most cited first
        when more match. The first ``_SEARCH_RANKED_WHOLE`` + 1 matches' rowids are read lazily (cheap);
        when that is all of them they are ranked whole (one probe per case). Otherwise one query asks
        for the cases cited at least 2**(``_TOP_TIER`` - 1) times (``Miranda v. Arizona`` among 10,000
        Mirandas), ranked, and the rest come from the most cited of the first matches: an FTS query
        that has to see every match re-reads the doclists of the query's common words (``state``:
        ~10 ms at 9 M cases), so the search asks one such query per way, not one per tier; and the top
        tiers' cases of each word are remembered (``_tier_ids``), so a way's are an intersection of
        sets, the same cases as the query finds, and ``united`` or ``states`` is read once per reader
        rather than once per search (11-22 ms of the slowest searches at 10 M citations)."""
        cap = _SEARCH_CANDIDATES
        match = _match(plan)
        columns = "SELECT k.id, k.name, k.short, k.full, k.date_filed, k.status, k.cited"

        def ranked(ids: list[int], n: int) -> list[tuple[Any, ...]]:
            if not ids or n <= 0:
                return []
            marks = ",".join("?" * len(ids))
            return self.db.execute(
                f"{columns} FROM cases k WHERE k.id IN ({marks}){filters} ORDER BY k.cited DESC, k.id LIMIT ?",
                [*ids, *extra, n],
            ).fetchall()

        try:
            ids = [
                rowid
                for (rowid,) in self.db.execute(
                    "SELECT rowid FROM names WHERE names MATCH ? LIMIT ?", (match, _SEARCH_RANKED_WHOLE + 1)
                )
            ]
            if len(ids) <= _SEARCH_RANKED_WHOLE:
                return ranked(ids, cap)
            top = self._top_tier_ids(plan)
            if top is not None:
                out = ranked(top, cap)
            else:
                out = self.db.execute(
                    f"{columns} FROM names JOIN cases k ON k.id = names.rowid WHERE names MATCH ?{filters}"
                    " ORDER BY k.cited DESC, k.id LIMIT ?",
                    [f"({match}) AND ({_TIERS_MATCH})", *extra, cap],
                ).fetchall()
            seen = {row[0] for row in out}
            return out + ranked([i for i in ids[:_SEARCH_RANKED_WHOLE] if i not in seen], cap - len(out))
        except sqlite3.OperationalError:
            return []

    def _top_tier_ids(self, plan: tuple[tuple[str, ...], ...]) -> list[int] | None:
        """The top tiers' cases matching ``plan`` (what ``(plan) AND (tiers)`` matches): the cases of a
        word of each group, intersected. None when there are too many to rank by id."""
        found: set[int] | None = None
        for group in plan:
            ids: set[int] = set()
            for term in group:
                ids.update(self._tier_ids(term))
            found = ids if found is None else found & ids
            if not found:
                return []
        if found is None or len(found) > min(_TIER_IDS_RANKED, self._max_params - 8):
            return None
        return sorted(found)

    def _tier_ids(self, term: str) -> frozenset[int]:
        """The cases of the top citation-count tiers that have ``term``, remembered."""
        got = self._tiers.get(term)
        if got is None:
            got = frozenset(
                rowid
                for (rowid,) in self.db.execute(
                    "SELECT rowid FROM names WHERE names MATCH ?", (f'"{term}" AND ({_TIERS_MATCH})',)
                )
            )
            if self._tiers_held + len(got) > _TIER_IDS_HELD:
                self._forget_tiers()
            self._tiers[term] = got
            self._tiers_held += len(got)
        return got

    def _forget_tiers(self) -> None:
        self._tiers.clear()
        self._tiers_held = 0

    # ------------------------------------------------------------------ status
    def status(self) -> IndexStatus:
        m = self.meta
        try:
            refused = {str(k): int(v) for k, v in json.loads(m.get("refused") or "{}").items()}
        except ValueError:
            refused = {}
        return IndexStatus(
            path=self.path,
            size=Path(self._ident[0] if self._ident else self.path).stat().st_size,
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
        rep = self._reporters.get(_reporter(reporter))
        vol = key_part(volume)
        if rep is None or vol is None:
            return None
        info = self._volume(rep, vol)
        return (info.cases, info.complete) if info else None


def _short_page(pages: array[int], page: Any) -> bool:
    """Whether the case(s) beginning at ``page`` may share it with decisions the index lacks: several
    begin there, or the next case begins on the same or the next page (a memorandum decision, an order,
    a table disposition — #336: several U.S. cases printed on 346 U.S. 906)."""
    if not isinstance(page, int):
        return False
    i = bisect.bisect_left(pages, page)
    j = bisect.bisect_right(pages, page)
    if j - i > 1:
        return True
    return j < len(pages) and pages[j] <= page + 1


@lru_cache(maxsize=4096)
def _reporter(name: str) -> str:
    return normalise_reporter(name)


def _near_terms(db: sqlite3.Connection, token: str) -> list[str]:
    """The index's words one slip from ``token`` (``near``: shared deletion-neighbourhood keys)."""
    keys = (token, *deletions(token))
    marks = ",".join("?" * len(keys))
    found = {t for (t,) in db.execute(f"SELECT term FROM near WHERE key IN ({marks})", keys)}
    return sorted(t for t in found if t != token and one_slip(token, t))
