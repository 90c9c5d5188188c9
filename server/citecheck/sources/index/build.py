"""Build or update the citation index from CourtListener bulk files, beside the old one, then swap.

Why it looks like this (docs/sources.md, "Building the index"; bench/index.py measures it):

- **Stream once, keep little.** Two lanes (``lanes.py``) read the files once each and send only the
  columns the index keeps; dockets no case refers to are dropped as they are read.
- **Both cores.** Big builds run the lanes in two worker processes, each ``.bz2`` decoded by a child
  of its own, while this process only writes SQLite; small ones run the lanes in turn here.
- **Write once.** A fresh file is written in one transaction without a journal (a failed build is
  deleted whole, so a journal would protect nothing), the secondary index and the per-volume table are
  built after the rows are in, and the name search's FTS5 table is merged once at the end.
- **Never half an index.** The new file is built as ``<index>.new`` and renamed over the old one only
  when it is complete and synced to disk; a failure (a corrupt file, a full disk, Ctrl-C) deletes it
  and leaves the old index as it was. An update copies the old index first and applies only what
  changed since its build (rows whose ``date_modified`` is at or after the old index's newest), then
  deletes what the new dump no longer has.
- **One builder at a time.** ``<index>.lock`` (an OS lock, released when the process ends) makes a
  second build say who holds it instead of racing it.
"""

from __future__ import annotations

import contextlib
import json
import multiprocessing
import multiprocessing.connection
import os
import shutil
import sqlite3
import time
from array import array
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from citecheck.errors import CitecheckError, CorpusError, DiskSpaceError, ImportFormatError
from citecheck.sources.importing import NullProgress, ProgressSink
from citecheck.sources.index import files
from citecheck.sources.index.coverage import NEUTRAL_TYPE, volume_complete
from citecheck.sources.index.lanes import LANES, IdSet, Marks, Message, case_tokens
from citecheck.sources.index.rows import DamagedFile, FileStats, dump_date, dump_dialect, find_dump
from citecheck.sources.index.schema import (
    CITE_SEP,
    FIELD_SEP,
    SCHEMA_VERSION,
    STAGE_TABLES,
    TABLES,
    TEXT_VOLUME_IDS,
    TIER_PREFIX,
    layout_outdated,
    volume_id,
)
from citecheck.sources.locks import SyncLock
from citecheck.sources.name_keys import NAME_KEYS_VERSION, deletions

#: Inputs larger than this run their lanes in worker processes.
PARALLEL_FROM_BYTES = 64 << 20
#: SQLite page cache while building (KiB): the citation table fits in it.
BUILD_CACHE_KIB = 256 * 1024
#: The stage's page cache (KiB): the dockets a join probes.
STAGE_CACHE_KIB = 64 * 1024
#: Words of at least this many letters get a deletion neighbourhood (a typo in a shorter one is
#: ambiguous, and ``name_keys`` scores no typo below four letters).
MIN_NEAR = 4
#: Index bytes per input byte, by file (bz2 sizes; bench/index.py measures them on a synthetic dump in
#: the real format): clusters carry long text the index drops, dockets are mostly dropped whole.
INDEX_PER_INPUT_BYTE = {"opinion-clusters": 0.6, "citations": 2.0, "dockets": 0.05, "courts": 1.0}
#: A plain .csv is about this many times its .bz2.
CSV_PER_BZ2 = 6.0


def estimate_index_bytes(sizes: dict[str, int], *, compressed: bool = True) -> int:
    """Disk a build needs for the index (plus a third for the sort of its secondary index).

    >>> estimate_index_bytes({"opinion-clusters": 1000, "citations": 100, "dockets": 1000}) > 0
    True
    """
    scale = 1.0 if compressed else 1.0 / CSV_PER_BZ2
    return int(sum(INDEX_PER_INPUT_BYTE.get(k, 1.0) * n * scale for k, n in sizes.items()) * 4 / 3)


@dataclass(frozen=True, slots=True, kw_only=True)
class DumpFiles:
    """The files of one dump (or of a folder a firm copied them to)."""

    clusters: Path
    citations: Path
    courts: Path | None = None
    dockets: Path | None = None
    date: str | None = None

    @classmethod
    def from_folder(cls, folder: Path, *, full_dump: bool) -> DumpFiles:
        files = find_dump(folder)
        needed = (
            ("courts", "dockets", "opinion-clusters", "citations")
            if full_dump
            else ("opinion-clusters", "citations")
        )
        missing = [n for n in needed if n not in files]
        if missing:
            what = "a full dump" if full_dump else "an index"
            raise ImportFormatError(
                f"{folder}: {what} needs {', '.join(f'{n}-YYYY-MM-DD.csv[.bz2]' for n in missing)} "
                "(CourtListener's bulk files)"
            )
        dates = {d for p in files.values() if (d := dump_date(p))}
        if len(dates) > 1:
            raise ImportFormatError(
                f"{folder}: the files come from different dumps ({', '.join(sorted(dates))}); use one dump's files"
            )
        return cls(
            clusters=files["opinion-clusters"],
            citations=files["citations"],
            courts=files.get("courts"),
            dockets=files.get("dockets"),
            date=dates.pop() if dates else None,
        )

    def kinds(self) -> dict[str, Path]:
        found = {"courts": self.courts, "dockets": self.dockets, "opinion-clusters": self.clusters,
                 "citations": self.citations}  # fmt: skip
        return {k: p for k, p in found.items() if p is not None}

    def paths(self) -> list[Path]:
        return [p for p in (self.courts, self.dockets, self.clusters, self.citations) if p is not None]

    def size(self) -> int:
        return sum(p.stat().st_size for p in self.paths())


@dataclass(frozen=True, slots=True, kw_only=True)
class BuildStats:
    mode: str  # "full" | "update" | "unchanged"
    cases: int = 0
    citations: int = 0
    dockets: int = 0
    courts: int = 0
    volumes: int = 0
    complete_volumes: int = 0
    changed: dict[str, int] = field(default_factory=dict)
    deleted: dict[str, int] = field(default_factory=dict)
    refused: dict[str, int] = field(default_factory=dict)  # "citations.csv: an id that is not a number" → n
    rows: int = 0
    seconds: float = 0.0
    size: int = 0
    dump_date: str | None = None
    full_dump: bool = False
    #: the finished build waits as ``<index>.next``: the index is open in another program (Windows)
    waiting: bool = False
    #: why an existing index was built again from nothing instead of updated (its layout)
    rebuilt: str | None = None
    #: the CSV dialect the files were read in (``rows.DIALECTS``)
    dialect: str | None = None
    #: what the build did about a file that was not as it should be (an empty courts file: #2863)
    notes: tuple[str, ...] = ()


# --------------------------------------------------------------------------------------------- lock


class BuildLock(SyncLock):
    """``<index>.lock``: held by one builder; a second is told who holds it (SyncBusy; ``sources/locks.py``)."""

    def __init__(self, index: Path) -> None:
        super().__init__(index)


# ------------------------------------------------------------------------------------------- reading


def read_meta(index: Path) -> dict[str, str]:
    """The ``meta`` table of an index file ({} when there is none or it is not an index)."""
    if not index.is_file():
        return {}
    try:
        db = sqlite3.connect(f"file:{index}?mode=ro&immutable=1", uri=True)
        try:
            return dict(db.execute("SELECT key, value FROM meta").fetchall())
        finally:
            db.close()
    except sqlite3.Error:
        return {}


#: A lane's error, rebuilt in the parent from the kind the worker sent (the first class it is an instance of).
_LANE_ERRORS: dict[str, type[Exception]] = {"damaged": DamagedFile, "format": ImportFormatError}


def _run_lane(name: str, args: tuple[Any, ...], conn: Any) -> None:
    """Worker process body: run one lane, send its messages (errors as one message)."""
    try:
        for message in LANES[name](*args):
            conn.send(message)
        conn.send(("done", None))
    except BaseException as exc:  # everything reaches the parent as a message; the parent decides
        try:
            text = (
                str(exc)
                if isinstance(exc, ImportFormatError | CorpusError)
                else f"{exc.__class__.__name__}: {exc}"
            )
            # the error's kind crosses the process boundary by name: a damaged file is passed over by a sync
            kind = next((k for k, cls in _LANE_ERRORS.items() if isinstance(exc, cls)), "")
            conn.send(("error", (kind, text)))
        except OSError:
            pass
    finally:
        conn.close()


def _parallel(lanes: list[tuple[str, tuple[Any, ...]]]) -> Iterator[Message]:
    """Messages of every lane, as they come, each lane in a process of its own."""
    ctx = multiprocessing.get_context("spawn")
    procs: list[Any] = []
    conns: list[Any] = []
    try:
        for name, args in lanes:
            parent, child = ctx.Pipe(duplex=False)
            proc = ctx.Process(
                target=_run_lane, args=(name, args, child), name=f"citecheck-index-{name}", daemon=True
            )
            proc.start()
            child.close()
            procs.append(proc)
            conns.append(parent)
        live = list(conns)
        while live:
            ready: list[Any] = multiprocessing.connection.wait(live)
            for conn in ready:
                try:
                    message: Message = conn.recv()
                except EOFError:
                    live.remove(conn)
                    raise CorpusError(
                        "an index build worker stopped without a word (out of memory?)"
                    ) from None
                if message[0] == "done":
                    live.remove(conn)
                elif message[0] == "error":
                    kind, text = message[1]
                    raise _LANE_ERRORS.get(kind, CorpusError)(text)
                else:
                    yield message
    finally:
        for conn in conns:
            conn.close()
        for proc in procs:
            if proc.is_alive():
                proc.terminate()
            proc.join()


def _serial(lanes: list[tuple[str, tuple[Any, ...]]]) -> Iterator[Message]:
    for name, args in lanes:
        yield from LANES[name](*args)


# ------------------------------------------------------------------------------------------- writing


class _Writer:
    """Applies lane messages to the new index file (one connection, one transaction).

    Cases and dockets go to the stage (``schema.STAGE_TABLES``) and become ``cases`` rows once every
    file is read (``_assemble``); citations go straight to ``cites``; the name keys to ``names``."""

    def __init__(self, db: sqlite3.Connection, *, update: bool) -> None:
        self.db = db
        self.update = update
        self.courts = {cid: idx for idx, cid in db.execute("SELECT idx, id FROM courts")}
        self.reporters = {name: idx for idx, name in db.execute("SELECT idx, name FROM reporters")}
        self.counts: Counter[str] = Counter()
        self.seen: dict[str, IdSet] = {}
        self.changed_cites: dict[int, tuple[Any, ...]] = {}
        self.stats: list[FileStats] = []
        self.marks: dict[str, str] = {}
        self.empty: set[str] = set()

    def court(self, cid: str | None) -> int | None:
        if not cid:
            return None
        idx = self.courts.get(cid)
        if idx is None:
            idx = self.courts[cid] = len(self.courts) + 1
            self.db.execute("INSERT INTO courts (idx, id) VALUES (?, ?)", (idx, cid))
        return idx

    def reporter(self, name: str) -> int:
        idx = self.reporters.get(name)
        if idx is None:
            idx = self.reporters[name] = len(self.reporters) + 1
            self.db.execute("INSERT INTO reporters (idx, name) VALUES (?, ?)", (idx, name))
        return idx

    def apply(self, tag: str, payload: Any) -> None:
        if tag == "court":
            self._courts(payload)
        elif tag == "case":
            self._cases(payload)
        elif tag == "docket":
            self.db.executemany(
                "INSERT OR REPLACE INTO stage.dockets (id, court, number) VALUES (?,?,?)",
                [(d, self.court(c), n) for d, c, n in payload],
            )
            self.counts["dockets"] += len(payload)
        elif tag == "cite":
            rows = [(self.reporter(r), v, p, c, i, t) for r, v, p, c, i, t in payload]
            if self.update:
                for row in rows:
                    self.changed_cites[row[4]] = row[:4]
                self.db.executemany("INSERT OR IGNORE INTO stage.touched VALUES (?)", [(r[3],) for r in rows])
            verb = "INSERT OR REPLACE" if self.update else "INSERT OR IGNORE"
            self.db.executemany(f"{verb} INTO cites VALUES (?,?,?,?,?,?)", rows)
            self.counts["citations"] += len(payload)
        elif tag == "seen":
            table, ids = payload
            self.seen[table] = ids
        elif tag == "stats":
            self.stats.append(payload)
        elif tag == "empty":
            self.empty.add(payload)

    def _courts(self, rows: list[tuple[Any, ...]]) -> None:
        from citecheck.sources.bulk_import import court_place

        for cid, name, short, cite_string, jurisdiction in rows:
            idx = self.court(cid)
            self.db.execute(
                "UPDATE courts SET name=?, short_name=?, citation_string=?, jurisdiction=?, place=? WHERE idx=?",
                (name, short, cite_string, jurisdiction, court_place(cid), idx),
            )
        self.counts["courts"] += len(rows)

    def _cases(self, rows: list[tuple[Any, ...]]) -> None:
        db = self.db
        if self.update:
            _forget_names(db, [r[0] for r in rows])
            db.executemany("INSERT OR IGNORE INTO stage.touched VALUES (?)", [(r[0],) for r in rows])
        db.executemany("INSERT OR IGNORE INTO stage.cases VALUES (?,?,?,?,?,?,?,?)", [r[:8] for r in rows])
        db.executemany("INSERT INTO names (rowid, tokens) VALUES (?, ?)", [(r[0], r[8]) for r in rows])
        self.counts["cases"] += len(rows)


def _forget_names(db: sqlite3.Connection, ids: list[int]) -> None:
    """Delete the name-search rows of cases the index holds (a contentless table needs the old keys)."""
    for start in range(0, len(ids), 500):
        part = ids[start : start + 500]
        marks = ",".join("?" * len(part))
        old = db.execute(f"SELECT id, name, short, full, cited FROM cases WHERE id IN ({marks})", part)
        db.executemany(
            "INSERT INTO names (names, rowid, tokens) VALUES ('delete', ?, ?)",
            [(cid, case_tokens(name, short, full, cited)) for cid, name, short, full, cited in old],
        )


# ----------------------------------------------------------------------------------------- the build


def build_index(
    index: Path,
    dump: DumpFiles,
    *,
    full_dump: bool,
    progress: ProgressSink | None = None,
    parallel: bool | None = None,
    rebuild: bool = False,
    source: dict[str, Any] | None = None,
    lock: bool = True,
    announce: bool = True,
) -> BuildStats:
    """Build ``index`` from ``dump`` (an update of the existing index when it can be), beside it, and swap.

    ``full_dump``: the files are a whole CourtListener dump (volumes may be complete). ``parallel``:
    worker processes (default: for inputs over ``PARALLEL_FROM_BYTES``). ``rebuild``: never update,
    build from nothing. ``source``: what to record about where the files came from (bucket, ETags).
    ``lock=False``: the caller holds ``BuildLock`` already (``sync``). ``announce=False``: the caller
    said already that an index of an older layout is being built again.
    """
    progress = progress or NullProgress()
    index = files.check_writable(index) if lock else index.expanduser()  # sync checked it already
    with BuildLock(index) if lock else contextlib.nullcontext():
        return _build_locked(index, dump, full_dump=full_dump, progress=progress, parallel=parallel,
                             rebuild=rebuild, source=source or {}, announce=announce)  # fmt: skip


def _build_locked(
    index: Path,
    dump: DumpFiles,
    *,
    full_dump: bool,
    progress: ProgressSink,
    parallel: bool | None,
    rebuild: bool,
    source: dict[str, Any],
    announce: bool = True,
) -> BuildStats:
    t0 = time.monotonic()
    existing = files.current(index)
    old = read_meta(existing)
    outdated = layout_outdated(old)
    if not rebuild and outdated is None and _same_dump(old, dump, full_dump):
        return BuildStats(mode="unchanged", dump_date=dump.date, full_dump=full_dump, size=existing.stat().st_size,
                          cases=int(old.get("cases", 0)), citations=int(old.get("citations", 0)))  # fmt: skip
    if outdated is not None and announce and not rebuild:
        progress.stage(f"the citation index {index} {outdated}: building it again from the dump", None)
    update = bool(old) and not rebuild and _can_update(old, dump, full_dump)
    new = index.with_name(index.name + ".new")
    stage = _stage_path(new)
    _remove_leftovers(new, stage)
    sizes = {kind: p.stat().st_size for kind, p in dump.kinds().items()}
    compressed = dump.clusters.name.endswith(".bz2")
    needed = estimate_index_bytes(sizes, compressed=compressed) + (existing.stat().st_size if update else 0)
    from citecheck.sources.download import check_free_space

    check_free_space(index.parent, needed, f"building the index {index.name}")
    try:
        if update:
            progress.stage("copying the index to update it", None)
            shutil.copyfile(existing, new)
        stats = _write(new, dump, full_dump=full_dump, update=update, old=old, progress=progress,
                       parallel=parallel, source=source, previous=existing if old else None,
                       check_counts=not rebuild)  # fmt: skip
        _fsync(new)
        in_place = files.swap_in(new, index)  # atomic: readers see the old index or the new one, never a mix
        for side in (index.with_name(index.name + "-wal"), index.with_name(index.name + "-shm")):
            side.unlink(missing_ok=True)  # the old file's; the index is never written in place
    except sqlite3.Error as exc:
        new.unlink(missing_ok=True)
        raise _build_failed(index, exc) from exc
    except BaseException:
        new.unlink(missing_ok=True)
        raise
    finally:
        stage.unlink(missing_ok=True)
    built = index if in_place else files.pending_path(index)
    return _with(stats, seconds=time.monotonic() - t0, size=built.stat().st_size, waiting=not in_place,
                 rebuilt=outdated if old and not rebuild else None)  # fmt: skip


def _same_dump(old: dict[str, str], dump: DumpFiles, full_dump: bool) -> bool:
    """The index (its ``meta``: ``old``) was built from this dump, of this kind (full or not)."""
    return bool(
        old
        and old.get("dump_date")
        and old.get("dump_date") == dump.date
        and old.get("full_dump") == str(int(full_dump))
    )


def _remove_leftovers(new: Path, stage: Path) -> None:
    """An earlier build's unfinished files (and their SQLite journals) go first."""
    for leftover in (
        new,
        stage,
        *(p.with_name(p.name + s) for p in (new, stage) for s in ("-journal", "-wal")),
    ):
        leftover.unlink(missing_ok=True)


def _build_failed(index: Path, exc: sqlite3.Error) -> CitecheckError:
    if "full" in str(exc).lower():
        return DiskSpaceError(
            f"the disk filled up while building {index.name}; the build was rolled back and the old index "
            "is unchanged. Free some space and run it again"
        )
    return CorpusError(f"building {index.name} failed ({exc}); the old index is unchanged")


def _stage_path(new: Path) -> Path:
    return new.with_name(new.name + "-stage")


def _with(stats: BuildStats, **changes: Any) -> BuildStats:
    from dataclasses import replace

    return replace(stats, **changes)


def _can_update(old: dict[str, str], dump: DumpFiles, full_dump: bool) -> bool:
    """An old index can be brought forward by ``date_modified`` only if it is the same kind and older."""
    return (
        layout_outdated(old) is None
        and old.get("full_dump") == str(int(full_dump))
        and bool(old.get("mark_citations"))
        and bool(dump.date)
        and (old.get("dump_date") or "") < (dump.date or "")
    )


def _fsync(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _marks(path: Path, old: dict[str, str]) -> Marks:
    """Where an update starts: the old build's marks and the ids its copy (``path``) holds."""
    marks = Marks(old.get("mark_clusters", ""), old.get("mark_dockets", ""), old.get("mark_citations", ""))
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        for ids, sql in (
            (marks.known_cases, "SELECT id FROM cases"),
            # a docket is known when a case got its court or number from it
            (
                marks.known_dockets,
                "SELECT docket FROM cases WHERE docket IS NOT NULL AND (court IS NOT NULL OR number IS NOT NULL)",
            ),
            (marks.known_cites, "SELECT cite_id FROM cites"),
        ):
            for (i,) in db.execute(sql):
                ids.add(i)
    finally:
        db.close()
    return marks


def _open_for_build(path: Path, *, update: bool) -> sqlite3.Connection:
    db = sqlite3.connect(path, isolation_level=None)
    db.execute("PRAGMA journal_mode=OFF")
    db.execute("PRAGMA synchronous=OFF")
    db.execute(f"PRAGMA cache_size=-{BUILD_CACHE_KIB}")
    db.execute("PRAGMA temp_store=FILE")
    if not update:
        db.executescript(TABLES)
        # big in-memory segments, merged once at the end: far fewer bytes written than automerge
        db.execute("INSERT INTO names (names, rank) VALUES ('hashsize', 67108864)")
        db.execute("INSERT INTO names (names, rank) VALUES ('automerge', 0)")
    # the stage: cases and dockets as read, joined into ``cases`` at the end; deleted after the build
    db.execute("ATTACH DATABASE ? AS stage", (str(_stage_path(path)),))
    db.execute("PRAGMA stage.journal_mode=OFF")
    db.execute("PRAGMA stage.synchronous=OFF")
    db.execute(f"PRAGMA stage.cache_size=-{STAGE_CACHE_KIB}")
    db.executescript(STAGE_TABLES)
    return db


def _write(
    path: Path,
    dump: DumpFiles,
    *,
    full_dump: bool,
    update: bool,
    old: dict[str, str],
    progress: ProgressSink,
    parallel: bool | None,
    source: dict[str, Any],
    previous: Path | None = None,
    check_counts: bool = True,
) -> BuildStats:
    marks = _marks(path, old) if update else None
    dialect = dump_dialect(dump.kinds(), dump.date)
    lanes = [
        ("cases", (dump.clusters, dump.dockets, marks, dialect)),
        ("cites", (dump.courts, dump.citations, marks, dialect)),
    ]
    if parallel is None:
        parallel = dump.size() >= PARALLEL_FROM_BYTES
    db = _open_for_build(path, update=update)
    try:
        writer = _Writer(db, update=update)
        progress.stage(f"reading {', '.join(p.name for p in dump.paths())}", dump.size())
        db.execute("BEGIN")
        for tag, payload in (_parallel if parallel else _serial)(lanes):
            if tag == "tick":
                progress.advance(payload)
            else:
                writer.apply(tag, payload)
        notes = _check_files(dump, writer, old, full_dump=full_dump, check_counts=check_counts)
        if "courts" in writer.empty:
            notes.append(_courts_from_previous(db, writer, previous, dump))
        deleted = _sweep(db, writer) if update else {}
        progress.stage("joining the cases with their dockets and citations", None)
        dockets = _assemble(db, update=update, deleted=deleted)
        progress.stage("indexing volumes", None)
        volumes, complete = _volumes(db, full_dump=full_dump)
        progress.stage("merging the name search", None)
        db.execute("INSERT INTO names (names) VALUES ('optimize')")
        _near(db)
        counts = {
            "cases": db.execute("SELECT count(*) FROM cases").fetchone()[0],
            "citations": db.execute("SELECT count(*) FROM cites").fetchone()[0],
            "dockets": dockets,
            "courts": db.execute("SELECT count(*) FROM courts").fetchone()[0],
        }
        refused = {f"{s.name}: {why}": n for s in writer.stats for why, n in s.refused.items()}
        extra = {"dialect": dialect, "notes": json.dumps(notes)}
        _write_meta(db, dump, full_dump=full_dump, counts=counts, volumes=(volumes, complete), refused=refused,
                    source=source, old=old, update=update, extra=extra)  # fmt: skip
        db.execute("COMMIT")
        db.execute("DETACH DATABASE stage")
        db.execute("PRAGMA journal_mode=WAL")  # readers open it immutable; any later writer gets WAL
    finally:
        db.close()
    return BuildStats(
        mode="update" if update else "full",
        cases=counts["cases"],
        citations=counts["citations"],
        dockets=counts["dockets"],
        courts=counts["courts"],
        volumes=volumes,
        complete_volumes=complete,
        changed={k: writer.counts[k] for k in ("cases", "citations", "dockets")} if update else {},
        deleted=deleted,
        refused=refused,
        rows=sum(s.rows for s in writer.stats),
        dump_date=dump.date,
        full_dump=full_dump,
        dialect=dialect,
        notes=tuple(notes),
    )


#: A full dump whose cases or citations fall below this share of the last build's is refused: a file cut
#: short at a row boundary reads as well-formed (the export runs without ``pipefail``).
MIN_SHARE_OF_LAST = 0.8


def _check_files(
    dump: DumpFiles, writer: _Writer, old: dict[str, str], *, full_dump: bool, check_counts: bool
) -> list[str]:
    """Refuse a dump that cannot be whole (the old index stays): no case or citation at all, or far fewer
    than the last full build held. Returns notes for what is kept instead (nothing yet)."""
    kept = {s.name: s.kept for s in writer.stats}
    counts = {
        "cases": kept.get(dump.clusters.name, 0),
        "citations": kept.get(dump.citations.name, 0),
    }
    for what, path in (("cases", dump.clusters), ("citations", dump.citations)):
        if full_dump and counts[what] == 0:
            raise ImportFormatError(
                f"{path}: a full dump with no {what}: the file is empty or not CourtListener's; the old index "
                "is unchanged"
            )
    if not (check_counts and full_dump and old.get("full_dump") == "1"):
        return []
    for what, path in (("cases", dump.clusters), ("citations", dump.citations)):
        before = int(old.get(what, "0") or 0)
        if before and counts[what] < MIN_SHARE_OF_LAST * before:
            raise ImportFormatError(
                f"{path} holds {counts[what]:,} {what} where the index built from the "
                f"{old.get('dump_date') or 'last'} dump holds {before:,}: the file looks cut short "
                "(CourtListener's export can publish a partial file), so it was not used and the old index "
                "is unchanged. If the dump really is smaller, build from it anyway with --rebuild"
            )
    return []


def _courts_from_previous(
    db: sqlite3.Connection, writer: _Writer, previous: Path | None, dump: DumpFiles
) -> str:
    """The courts file is empty (#2863): keep the previous index's courts, if there is one."""
    name = dump.courts.name if dump.courts is not None else "the courts file"
    if previous is None or not previous.is_file():
        return f"{name} is empty (as CourtListener once published it); cases have their court ids but no court names"
    src = sqlite3.connect(f"file:{previous}?mode=ro&immutable=1", uri=True)
    try:
        rows = src.execute(
            "SELECT id, name, short_name, citation_string, jurisdiction, place FROM courts"
        ).fetchall()
    except sqlite3.Error:
        rows = []
    finally:
        src.close()
    for cid, full, short, cite, jurisdiction, place in rows:
        idx = writer.court(cid)
        db.execute(
            "UPDATE courts SET name=?, short_name=?, citation_string=?, jurisdiction=?, place=? WHERE idx=?",
            (full, short, cite, jurisdiction, place, idx),
        )
    return f"{name} is empty (as CourtListener once published it): kept the {len(rows)} courts of the previous index"


def _sweep(db: sqlite3.Connection, writer: _Writer) -> dict[str, int]:
    """An update: delete what the new dump no longer holds (and stale rows of changed citations)."""
    deleted = {"cases": 0, "citations": 0, "dockets": 0}
    db.execute("CREATE TEMP TABLE gone_dockets (id INTEGER PRIMARY KEY)")
    cases_seen = writer.seen.get("cases")
    if cases_seen is not None:
        gone = [cid for (cid,) in db.execute("SELECT id FROM cases") if cid not in cases_seen]
        _forget_names(db, gone)
        for start in range(0, len(gone), 500):
            part = gone[start : start + 500]
            marks = ",".join("?" * len(part))
            db.execute(
                "INSERT OR IGNORE INTO temp.gone_dockets SELECT docket FROM cases WHERE docket IS NOT NULL"
                f" AND (court IS NOT NULL OR number IS NOT NULL) AND id IN ({marks})",
                part,
            )
        db.executemany("DELETE FROM cases WHERE id = ?", [(c,) for c in gone])
        deleted["cases"] = len(gone)
    cites_seen = writer.seen.get("cites")
    if cites_seen is not None:
        stale = [
            key
            for *key, cite_id in db.execute("SELECT reporter, volume, page, cluster, cite_id FROM cites")
            if cite_id not in cites_seen or writer.changed_cites.get(cite_id, tuple(key)) != tuple(key)
        ]
        db.executemany("DELETE FROM cites WHERE reporter=? AND volume=? AND page=? AND cluster=?", stale)
        db.executemany("INSERT OR IGNORE INTO stage.touched VALUES (?)", [(k[3],) for k in stale])
        deleted["citations"] = len(stale)
    return deleted


def _pack(rows: Iterator[tuple[Any, ...]]) -> Iterator[tuple[int, str]]:
    """(cluster, its citations packed in citation order) from rows ordered by (cluster, cite_id)."""
    current: int | None = None
    parts: list[str] = []
    for cluster, rep, vol, page, typ in rows:
        if cluster != current:
            if current is not None:
                yield current, CITE_SEP.join(parts)
            current, parts = cluster, []
        parts.append(f"{rep}{FIELD_SEP}{vol}{FIELD_SEP}{page}{FIELD_SEP}{'' if typ is None else typ}")
    if current is not None:
        yield current, CITE_SEP.join(parts)


def _assemble(db: sqlite3.Connection, *, update: bool, deleted: dict[str, int]) -> int:
    """Write ``cases`` from the stage: each case with its docket's court and number and its citations
    packed, so a lookup reads one row. An update rewrites only the cases that changed, whose docket
    changed or whose citations did. Returns how many dockets the cases refer to."""
    touched = "" if not update else " WHERE cluster IN (SELECT id FROM stage.touched)"
    rows = db.execute(
        f"SELECT cluster, reporter, volume, page, type FROM cites{touched} ORDER BY cluster, cite_id"
    )
    db.executemany("INSERT INTO stage.packed VALUES (?, ?)", _pack(rows))
    columns = (
        "s.id, s.docket, s.date_filed, s.status, s.cited, d.court, d.number, s.name, s.short, s.full, p.cites"
        " FROM stage.cases s LEFT JOIN stage.dockets d ON d.id = s.docket"
        " LEFT JOIN stage.packed p ON p.cluster = s.id ORDER BY s.id"
    )
    if not update:
        db.execute(f"INSERT INTO cases SELECT {columns}")
        return int(db.execute("SELECT count(*) FROM stage.dockets").fetchone()[0])
    db.execute(f"INSERT OR REPLACE INTO cases SELECT {columns}")
    db.execute(
        "UPDATE cases SET cites = (SELECT p.cites FROM stage.packed p WHERE p.cluster = cases.id)"
        " WHERE id IN (SELECT id FROM stage.touched) AND id NOT IN (SELECT id FROM stage.cases)"
    )
    # a docket that changed while its cases did not: one pass over the cases (no index on docket)
    changed = {d: (c, n) for d, c, n in db.execute("SELECT id, court, number FROM stage.dockets")}
    fixes: list[tuple[Any, ...]] = []
    referenced: set[int] = set()
    gone = {d for (d,) in db.execute("SELECT id FROM temp.gone_dockets")}
    for cid, docket, court, number in db.execute("SELECT id, docket, court, number FROM cases"):
        if docket in gone:
            referenced.add(docket)
        new = changed.get(docket)
        if new is not None and new != (court, number):
            fixes.append((*new, cid))
    db.executemany("UPDATE cases SET court = ?, number = ? WHERE id = ?", fixes)
    deleted["dockets"] = len(gone - referenced)
    return int(
        db.execute(
            "SELECT count(DISTINCT docket) FROM cases WHERE court IS NOT NULL OR number IS NOT NULL"
        ).fetchone()[0]
    )


def _volumes(db: sqlite3.Connection, *, full_dump: bool) -> tuple[int, int]:
    """Rebuild ``volumes`` from ``cites``: per volume its first pages and the case at each, case count,
    completeness."""
    reporters = dict(db.execute("SELECT idx, name FROM reporters").fetchall())
    db.execute("DELETE FROM volumes")
    total = complete_n = 0
    text_ids = TEXT_VOLUME_IDS
    rows: list[tuple[Any, ...]] = []

    def flush(
        rep: int,
        vol: Any,
        pages: array[int],
        clusters: list[int],
        cases: int,
        last: int | None,
        neutral: bool,
    ) -> None:
        nonlocal total, complete_n, text_ids
        complete = volume_complete(
            reporters[rep], str(vol), full_dump=full_dump, cases=cases, last_date=last, neutral=neutral
        )
        vid = volume_id(rep, vol)
        if vid is None:
            vid, text_ids = text_ids, text_ids + 1
        packed = array("I" if not clusters or max(clusters) < 1 << 32 else "Q", clusters)
        rows.append((vid, rep, vol, cases, int(complete), last, pages.tobytes(), packed.tobytes()))
        total += 1
        complete_n += complete
        if len(rows) >= 4096:
            db.executemany("INSERT INTO volumes VALUES (?,?,?,?,?,?,?,?)", rows)
            rows.clear()

    current: tuple[int, Any] | None = None
    pages: array[int] = array("I")
    clusters: list[int] = []
    cases = 0
    last: int | None = None
    neutral = False  # a citation of the volume is CourtListener's type 8: never complete
    for rep, vol, page, cluster, date, typ in db.execute(
        "SELECT c.reporter, c.volume, c.page, c.cluster, k.date_filed, c.type FROM cites c"
        " LEFT JOIN cases k ON k.id = c.cluster ORDER BY c.reporter, c.volume, c.page, c.cluster"
    ):
        if (rep, vol) != current:
            if current is not None:
                flush(*current, pages, clusters, cases, last, neutral)
            current, pages, clusters, cases, last, neutral = (rep, vol), array("I"), [], 0, None, False
        cases += 1
        neutral = neutral or typ == NEUTRAL_TYPE
        if isinstance(page, int) and 0 <= page < 1 << 32:
            pages.append(page)
            clusters.append(cluster)
        if date is not None and (last is None or date > last):
            last = date
    if current is not None:
        flush(*current, pages, clusters, cases, last, neutral)
    if rows:
        db.executemany("INSERT INTO volumes VALUES (?,?,?,?,?,?,?,?)", rows)
    return total, complete_n


def _near(db: sqlite3.Connection) -> None:
    """Rebuild ``near``, the name search's deletion neighbourhood: for every word of the vocabulary of
    ``MIN_NEAR`` letters or more, the word itself and the word with each letter dropped, as keys."""
    db.execute("DELETE FROM near")
    db.execute("CREATE VIRTUAL TABLE temp.vocab USING fts5vocab(main, names, 'row')")
    try:
        terms = db.execute(
            f"SELECT term FROM temp.vocab WHERE length(term) >= {MIN_NEAR} AND term NOT LIKE '{TIER_PREFIX}%'"
        )
        db.execute("CREATE TABLE stage.near (key TEXT, term TEXT)")
        batch: list[tuple[str, str]] = []
        for (term,) in terms:
            batch.append((term, term))
            batch.extend((d, term) for d in deletions(term))
            if len(batch) >= 65536:
                db.executemany("INSERT INTO stage.near VALUES (?, ?)", batch)
                batch.clear()
        db.executemany("INSERT INTO stage.near VALUES (?, ?)", batch)
        db.execute("INSERT OR IGNORE INTO near SELECT key, term FROM stage.near ORDER BY key, term")
    finally:
        with contextlib.suppress(sqlite3.Error):  # a failed statement may have rolled it back
            db.execute("DROP TABLE IF EXISTS temp.vocab")


def _write_meta(
    db: sqlite3.Connection,
    dump: DumpFiles,
    *,
    full_dump: bool,
    counts: dict[str, int],
    volumes: tuple[int, int],
    refused: dict[str, int],
    source: dict[str, Any],
    old: dict[str, str],
    update: bool,
    extra: dict[str, str] | None = None,
) -> None:
    marks = {
        "mark_clusters": _max_mark(dump.clusters, old.get("mark_clusters", "")),
        "mark_dockets": _max_mark(dump.dockets, old.get("mark_dockets", "")),
        "mark_citations": _max_mark(dump.citations, old.get("mark_citations", "")),
    }
    meta = {
        "schema_version": str(SCHEMA_VERSION),
        "name_keys_version": str(NAME_KEYS_VERSION),
        "dump_date": dump.date or "",
        "full_dump": str(int(full_dump)),
        "built_at": datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "built_by": "update" if update else "full",
        "files": json.dumps([p.name for p in dump.paths()]),
        "source": json.dumps(source),
        "refused": json.dumps(refused),
        "volumes": str(volumes[0]),
        "complete_volumes": str(volumes[1]),
        **{k: str(v) for k, v in counts.items()},
        **marks,
        **(extra or {}),
    }
    db.executemany("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", list(meta.items()))


def _max_mark(path: Path | None, previous: str) -> str:
    """The dump's date as a ``date_modified`` high-water mark: rows changed after it come in the next dump.

    A dump taken on day D holds every change made before D; the next update applies rows modified on
    or after D - 1 day (a margin for the time the dump took to write), never fewer.
    """
    date = dump_date(path) if path is not None else None
    if not date:
        return previous
    day = datetime.strptime(date, "%Y-%m-%d").toordinal() - 1
    return max(previous, datetime.fromordinal(day).strftime("%Y-%m-%d"))


def build_from_folder(
    index: Path,
    folder: Path,
    *,
    full_dump: bool,
    progress: ProgressSink | None = None,
    parallel: bool | None = None,
    rebuild: bool = False,
) -> BuildStats:
    """``corpus sync --from DIR`` / ``corpus import DIR --full-dump``: the same build, from local files."""
    dump = DumpFiles.from_folder(folder, full_dump=full_dump)
    return build_index(index, dump, full_dump=full_dump, progress=progress, parallel=parallel, rebuild=rebuild,
                       source={"folder": str(folder)})  # fmt: skip


__all__ = [
    "BuildLock",
    "BuildStats",
    "DumpFiles",
    "build_from_folder",
    "build_index",
    "estimate_index_bytes",
    "read_meta",
]
