"""``citecheck treatment build PATH [--index FILE]``: the treatment table from CourtListener's bulk files.

1. **Scan** (``scan.py``, pure, in worker processes): the ``parentheticals`` file's negative
   parentheticals (``overruling X``, ``overruled by X``) and, when the user has it, the ``opinions`` file's
   texts (only those with a cue word are read closely) become candidates in citation keys.
2. **Resolve** (``resolve``): each candidate's cases through the citation index — the treated case by its
   citation keys, the treating case by its keys, or the citing opinion's own cluster (``we overrule``), or
   a parenthetical's described opinion (its cluster from the opinions file). Kept only when both are
   known cases (or the treating one is unknown and the words say so), the treating case was decided
   after the treated one, and its court is the same as or above the treated case's court
   (``court_can_overrule``); superseding by statute is reported by any court. Every refusal is counted.
3. **Merge and write** (``store.py``): one row per treatment, the strongest basis's words, how many
   opinions said it; written beside the old table and swapped.

Files: ``parentheticals-*.csv[.bz2]``, ``opinions-*.csv[.bz2]`` (the newest date of each), read in
CourtListener's dialect with the index's reader (``sources/index/rows.py``: columns by header name, bz2
decoded by a child process). ``citation-map`` is not needed: a citing opinion's own words name the cases.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import re
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from citecheck.config import Settings
from citecheck.errors import CorpusError, ImportFormatError
from citecheck.jurisdiction.hierarchy import Tier, court_node
from citecheck.sources.index.lookup import CitationIndex
from citecheck.sources.index.rows import BulkReader, dump_dialect
from citecheck.sources.models import CaseRecord, LookupStatus
from citecheck.sources.treatment.scan import (
    OPINION_COLUMNS,
    PARENTHETICAL_COLUMNS,
    TEXT_FIELDS,
    Candidate,
    Party,
    ScanResult,
    ScanStats,
    scan_opinions,
    scan_parentheticals,
)
from citecheck.sources.treatment.store import CaseRow, TreatmentRow, merge_rows, write_table
from citecheck.treatment.models import TreatmentKind

KINDS = ("parentheticals", "opinions")
_FILE = re.compile(r"^(parentheticals|opinions)(?:-(\d{4}-\d{2}-\d{2}))?\.csv(?:\.bz2)?$")
#: Rows per shard a worker scans at a time.
SHARD_ROWS = 64


def find_files(path: Path) -> dict[str, Path]:
    """The bulk files ``build`` reads in ``path`` (a folder, or one such file): the newest date of each."""
    path = path.expanduser()
    if path.is_file():
        m = _FILE.match(path.name)
        if m is None:
            raise ImportFormatError(
                f"{path}: not a CourtListener parentheticals or opinions file (by its name)"
            )
        return {m.group(1): path}
    if not path.is_dir():
        raise ImportFormatError(f"{path}: no such file or folder")
    out: dict[str, tuple[str, Path]] = {}
    for p in sorted(path.iterdir()):
        m = _FILE.match(p.name)
        if m and p.is_file() and (m.group(1) not in out or (m.group(2) or "") >= out[m.group(1)][0]):
            out[m.group(1)] = (m.group(2) or "", p)
    if not out:
        raise ImportFormatError(
            f"{path}: no parentheticals-*.csv[.bz2] or opinions-*.csv[.bz2] file (CourtListener's bulk data)"
        )
    return {k: p for k, (_, p) in out.items()}


@dataclass
class BuildStats:
    files: dict[str, str] = field(default_factory=dict)
    scan: ScanStats = field(default_factory=ScanStats)
    candidates: int = 0
    kept: int = 0
    treatments: int = 0
    refused: Counter[str] = field(default_factory=Counter)
    size: int = 0
    seconds: float = 0.0
    cpu_seconds: float = 0.0
    worker_cpu_seconds: float | None = None  # on Ray: the scan tasks' CPU seconds (in cpu_seconds too)
    confirmed: dict[str, int] = field(
        default_factory=dict
    )  # --confirm: asked, confirmed, rejected, unanswered

    def as_dict(self) -> dict[str, object]:
        return {
            "files": self.files,
            "opinions": self.scan.opinions,
            "opinions_with_cue": self.scan.with_cue,
            "parentheticals": self.scan.parentheticals,
            "statements": self.scan.statements,
            "candidates": self.candidates,
            "kept": self.kept,
            "treatments": self.treatments,
            "refused": dict(self.refused + self.scan.refused),
            "size_bytes": self.size,
            "seconds": round(self.seconds, 2),
            "cpu_seconds": round(self.cpu_seconds, 2),
            **(
                {}
                if self.worker_cpu_seconds is None
                else {"worker_cpu_seconds": round(self.worker_cpu_seconds, 2)}
            ),
            "model": self.confirmed,
        }


# ---------------------------------------------------------------------------------------- courts
def court_can_overrule(treating: str | None, treated: str | None) -> bool | None:
    """Is ``treating``'s court the same as or above ``treated``'s (None: a court we cannot place)?

    >>> court_can_overrule("scotus", "ca1"), court_can_overrule("ca1", "mad"), court_can_overrule("ca1", "ca2")
    (True, True, False)
    >>> court_can_overrule("neb", "nebctapp"), court_can_overrule("nebctapp", "neb"), court_can_overrule("ca5", "tex")
    (True, False, False)
    """
    if not treating or not treated:
        return None
    if treating == treated:
        return True
    a, b = court_node(treating), court_node(treated)
    if a is None or b is None:
        return None
    if a.tier is Tier.SUPREME:
        return True
    if b.tier is Tier.SUPREME:
        return False
    if a.tier is Tier.CIRCUIT:
        return (
            b.federal and b.circuit == a.id and b.tier in (Tier.DISTRICT, Tier.BANKRUPTCY, Tier.FEDERAL_OTHER)
        )
    if a.federal or b.federal:
        return False
    if a.state != b.state:
        return False
    if a.tier is Tier.HIGH:
        return b.tier is not Tier.HIGH
    if a.tier is Tier.INTERMEDIATE:
        return b.tier in (Tier.TRIAL, Tier.STATE_OTHER)
    return False


# ---------------------------------------------------------------------------------------- resolve
@dataclass
class _Resolver:
    index: CitationIndex
    opinion_cluster: dict[int, int]
    cases: dict[int, CaseRow] = field(default_factory=dict)
    refused: Counter[str] = field(default_factory=Counter)

    def party(self, party: Party | None) -> CaseRecord | None:
        if party is None or not party.keys:
            return None
        found = self.index.lookup(list(party.keys))
        for key in party.keys:
            r = found.get(key)
            if r is not None and r.status is LookupStatus.FOUND and r.record is not None:
                return r.record
        return None

    def cluster(self, cid: int | None) -> CaseRecord | None:
        if cid is None:
            return None
        return self.index.records([cid]).get(cid)

    def keep(self, rec: CaseRecord) -> int:
        cid = int(rec.id.split(":", 1)[1])
        if cid not in self.cases:
            cite = rec.citations[0] if rec.citations else None
            self.cases[cid] = CaseRow(
                id=cid, name=rec.name, cite=str(cite) if cite else None, date=rec.decision_date,
                court=rec.court_id, court_name=rec.court_name, keys=tuple(c.key for c in rec.citations),
            )  # fmt: skip
        return cid

    def resolve(self, c: Candidate) -> TreatmentRow | None:
        """The row of one candidate, or None (the reason counted in ``refused``)."""
        citing = c.cluster if c.cluster is not None else self.opinion_cluster.get(c.opinion)
        target = (
            self.party(c.target) if c.target is not None else self.cluster(self._placed(c.target_opinion))
        )
        actor, named = self._actor(c, citing)
        why = self._refusal(c, target, actor, named, citing)
        if why is not None:
            self.refused[why] += 1
            return None
        assert target is not None
        quoted = self.cluster(citing)
        return TreatmentRow(
            cited=self.keep(target),
            treating=self.keep(actor) if actor is not None else None,
            kind=c.kind,
            whole=c.whole,
            basis=c.basis,
            quote=c.quote,
            quoted_from=self.keep(quoted) if quoted is not None else None,
            opinion=c.opinion,
        )

    def _placed(self, opinion: int | None) -> int | None:
        return self.opinion_cluster.get(opinion) if opinion is not None else None

    def _actor(self, c: Candidate, citing: int | None) -> tuple[CaseRecord | None, bool]:
        """The treating case and whether the words name one (False: they do not say which case)."""
        if c.by_self:
            return self.cluster(citing), True
        if c.actor is not None:
            return self.party(c.actor), True
        if c.actor_opinion is not None:
            return self.cluster(self._placed(c.actor_opinion)), True
        return None, False

    def _refusal(
        self,
        c: Candidate,
        target: CaseRecord | None,
        actor: CaseRecord | None,
        named: bool,
        citing: int | None,
    ) -> str | None:
        if target is None:
            return "the treated case is not in the citation index"
        if named and actor is None:
            return "the treating case is not in the citation index"
        if actor is not None and actor.id == target.id:
            return "a case said to treat itself"
        reporter = actor or self.cluster(citing)
        when = reporter.decision_date if reporter is not None else None
        if when and target.decision_date and when < target.decision_date:
            return "the treating case was decided before the treated one"
        if actor is None or c.kind is TreatmentKind.SUPERSEDED:
            return None  # superseding by statute: any court may report it
        ok = court_can_overrule(actor.court_id, target.court_id)
        if ok is None:
            return "a court the hierarchy cannot place"
        return None if ok else "the treating court is not the same as or above the treated case's"


def resolve(
    candidates: Iterable[Candidate], index: CitationIndex, opinion_cluster: dict[int, int] | None = None
) -> tuple[list[TreatmentRow], dict[int, CaseRow], Counter[str]]:
    """Stage two: candidates to table rows through the citation index (see the module docstring)."""
    r = _Resolver(index=index, opinion_cluster=opinion_cluster or {})
    rows = [row for c in candidates if (row := r.resolve(c)) is not None]
    return rows, r.cases, r.refused


# ---------------------------------------------------------------------------------------- reading
def _rows(path: Path, kind: str, columns: tuple[str, ...], *, optional: frozenset[str],
          long: frozenset[str], tick: Callable[[int], None] | None) -> Iterator[tuple[str, ...]]:  # fmt: skip
    """The rows of one file in its own CSV dialect (``index/rows.py``'s sniffing: the dumps' four dialects)."""
    m = _FILE.match(path.name)
    dialect = dump_dialect({kind: path}, m.group(2) if m else None)
    with BulkReader(path, kind, tick=tick, dialect=dialect, columns=columns, optional=optional,
                    long_columns=long) as reader:  # fmt: skip
        yield from reader.rows()


def _shards(rows: Iterable[tuple[str, ...]], size: int) -> Iterator[list[tuple[str, ...]]]:
    shard: list[tuple[str, ...]] = []
    for row in rows:
        shard.append(row)
        if len(shard) >= size:
            yield shard
            shard = []
    if shard:
        yield shard


def _scan_parallel(
    shards: Iterable[list[tuple[str, ...]]], fn: Callable[[list[tuple[str, ...]]], ScanResult], workers: int
) -> ScanResult:
    """Scan shards in ``workers`` processes (0: here), at most 2 shards per worker in flight."""
    out = ScanResult()
    if workers <= 0:
        for shard in shards:
            part = fn(shard)
            out.candidates.extend(part.candidates)
            out.stats.add(part.stats)
        return out
    # spawned, never forked: the reader's bz2 feeder thread is running, and a fork while a thread holds a lock
    # leaves the child waiting on it for ever
    with ProcessPoolExecutor(max_workers=workers, mp_context=multiprocessing.get_context("spawn")) as pool:
        pending: list[Future[ScanResult]] = []
        for shard in shards:
            pending.append(pool.submit(fn, shard))
            while len(pending) >= 2 * workers:
                part = pending.pop(0).result()
                out.candidates.extend(part.candidates)
                out.stats.add(part.stats)
        for f in pending:
            part = f.result()
            out.candidates.extend(part.candidates)
            out.stats.add(part.stats)
    return out


def _opinion_rows_with_map(
    rows: Iterable[tuple[str, ...]], wanted: set[int], found: dict[int, int]
) -> Iterator[tuple[str, ...]]:
    """The opinions rows, noting the cluster of each opinion a parenthetical names on the way."""
    for row in rows:
        if wanted:
            oid = row[0]
            if oid.isdigit() and int(oid) in wanted and row[1].isdigit():
                found[int(oid)] = int(row[1])
        yield row


#: Scans shards of rows with a scan function, the shards' results merged in their order: worker processes
#: here (``_scan_parallel``, the default), or Ray tasks across a cluster (``citecheck.batch.treatment``).
Scanner = Callable[
    [Iterable[list[tuple[str, ...]]], Callable[[list[tuple[str, ...]]], ScanResult]], ScanResult
]


def build_treatment(
    path: Path,
    *,
    index_path: Path,
    out: Path,
    workers: int | None = None,
    tick: Callable[[int], None] | None = None,
    stage: Callable[[str], None] | None = None,
    confirm_with: Settings | None = None,
    scanner: Scanner | None = None,
) -> BuildStats:
    """Build the treatment table ``out`` from the bulk files at ``path`` (see the module docstring).

    ``scanner`` scans the shards (default: ``workers`` processes on this machine); the rest — reading,
    resolving, writing — runs here whoever scans, so the table is the same."""
    started, cpu0 = time.monotonic(), _cpu()
    say = stage or (lambda _m: None)
    files = find_files(path)
    index_path = index_path.expanduser()
    if not index_path.exists():
        raise CorpusError(
            f"no citation index at {index_path}: the treatment build resolves cases through it "
            "(run `citecheck corpus sync`, or give --index FILE)"
        )
    index = CitationIndex(index_path)
    n = max(0, (os.cpu_count() or 1) - 1) if workers is None else workers
    scan: Scanner = scanner or (lambda shards, fn: _scan_parallel(shards, fn, n))
    stats = BuildStats(files={k: str(p) for k, p in files.items()})
    try:
        scanned = ScanResult()
        if "parentheticals" in files:
            say(f"reading {files['parentheticals'].name}")
            rows = _rows(files["parentheticals"], "parentheticals", PARENTHETICAL_COLUMNS, optional=frozenset(),
                         long=frozenset(), tick=tick)  # fmt: skip
            part = scan(_shards(rows, SHARD_ROWS * 16), scan_parentheticals)
            scanned.candidates.extend(part.candidates)
            scanned.stats.add(part.stats)
        wanted = {c.target_opinion or c.actor_opinion or 0 for c in scanned.candidates} | {
            c.opinion for c in scanned.candidates
        }
        wanted.discard(0)
        opinion_cluster: dict[int, int] = {}
        if "opinions" in files:
            say(f"reading {files['opinions'].name}")
            rows = _rows(files["opinions"], "opinions", OPINION_COLUMNS,
                         optional=frozenset({"type", *TEXT_FIELDS}), long=frozenset(TEXT_FIELDS),
                         tick=tick)  # fmt: skip
            part = scan(_shards(_opinion_rows_with_map(rows, wanted, opinion_cluster), SHARD_ROWS),
                        scan_opinions)  # fmt: skip
            scanned.candidates.extend(part.candidates)
            scanned.stats.add(part.stats)
        elif scanned.candidates:
            stats.refused["parentheticals whose opinions could not be placed (no opinions file)"] += len(
                scanned.candidates
            )
        stats.scan = scanned.stats
        stats.candidates = len(scanned.candidates)
        if confirm_with is not None:
            from citecheck.sources.treatment.confirm import confirm

            say("asking the model endpoint about the sentences read from their shape")
            scanned.candidates, asked = asyncio.run(confirm(scanned.candidates, confirm_with))
            stats.confirmed = dict(asked)
        say(f"resolving {stats.candidates} statements through {index_path.name}")
        rows_out, cases, refused = resolve(scanned.candidates, index, opinion_cluster)
        stats.refused.update(refused)
        stats.kept = len(rows_out)
        merged = merge_rows(rows_out)
        stats.treatments = len(merged)
        meta = {
            "built": datetime.now(UTC).isoformat(timespec="seconds"),
            "files": ", ".join(p.name for p in files.values()),
            "index": str(index_path),
            "dump_date": next(
                (m.group(2) for p in files.values() if (m := _FILE.match(p.name)) and m.group(2)), ""
            ),
            "opinions": str(stats.scan.opinions),
            "parentheticals": str(stats.scan.parentheticals),
        }
        stats.size = write_table(out, merged, cases, meta)
    finally:
        index.close()
    stats.seconds = time.monotonic() - started
    stats.cpu_seconds = _cpu() - cpu0
    return stats


def _cpu() -> float:
    """CPU seconds of this process and its finished children (the scan workers)."""
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


__all__ = ["KINDS", "BuildStats", "Scanner", "build_treatment", "court_can_overrule", "find_files", "resolve"]
