"""Benchmark: ``citecheck treatment build`` (issue 37) — throughput and the table's size per million opinions.

Real opinions only: CourtListener's opinion JSON (a folder of ``<id>.json``, e.g. the First Circuit opinions of
github.com/chansooligans/Federal-Appellate-Court-Opinions-Text-Analysis, Archive/Progress_Reports/data/) or a
CourtListener ``opinions`` CSV (default: ../shared/corpus/courtlistener-bulk/opinions.csv), written as an
``opinions-*.csv.bz2`` in the dump's COPY dialect with the real columns (``citecheck_testing/bulk_dump.py``),
``--repeat`` times with fresh ids. An index holding every case the opinions' statements name (their citation
keys and names, as the statements give them) is built first, so the resolve and write stages do real work.
Printed, with the load average:

- opinions per CPU-second of the whole build (the parent and its scanning workers), and of the scan alone
  in this process; the share of opinions with a cue word (only those are extracted and read);
- the table: bytes, treatments, bytes per treatment, statements per opinion, and the size per million
  opinions projected from those two (no merging across opinions assumed: an upper bound).

With ``--ray 1,2`` the build runs instead on a local Ray instance (``citecheck treatment build --ray``, issue 38)
at each number of workers, interleaved ``--runs`` times (1, 2, 2, 1, 1, 2, …): opinions per second of the build
(wall, from the files' opening to the table written; Ray's start apart), of the whole (with Ray's start), CPU
seconds (the driver, its reader and the workers' tasks), medians, and the load average before and after.

    python bench/treatment.py --opinions ~/ca1-json --repeat 4
    python bench/treatment.py                       # the shared corpus's 34 opinions, repeated 30 times
    python bench/treatment.py --opinions ~/ca1-json --ray 1,2 --runs 3
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import shutil
import sqlite3
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from citecheck.sources.index.build import build_from_folder
from citecheck.sources.models import CiteKey
from citecheck.sources.treatment.build import build_treatment
from citecheck.sources.treatment.scan import OPINION_COLUMNS, scan_opinions
from citecheck_testing import shared_corpus_path
from citecheck_testing.bulk_dump import Case, open_dump_file, write_dump, write_table

TEXT = ("plain_text", "html", "html_lawbox", "html_columbia", "html_with_citations", "xml_harvard")


def read_opinions(path: Path) -> list[dict[str, Any]]:
    """Opinion rows (the bulk file's columns) from a folder of CourtListener opinion JSON or an opinions CSV."""
    rows: list[dict[str, Any]] = []
    if path.is_dir():
        for i, f in enumerate(sorted(path.glob("*.json"))):
            d = json.loads(f.read_text(encoding="utf-8"))
            row = {k: (None if d.get(k) in (None, "None") else d.get(k)) for k in TEXT}
            rows.append({**row, "id": i + 1, "type": d.get("type") or "010combined", "cluster_id": i + 1})
        return rows
    csv.field_size_limit(sys.maxsize)
    with path.open(newline="", encoding="utf-8") as fh:
        reader = csv.reader(fh, quotechar='"', escapechar="\\", doublequote=False)
        header = next(reader)
        for i, values in enumerate(reader):
            d = dict(zip(header, values, strict=False))
            rows.append({**{k: d.get(k) or None for k in TEXT}, "id": i + 1, "type": d.get("type") or "010combined",
                         "cluster_id": i + 1})  # fmt: skip
    return rows


def index_for(rows: list[dict[str, Any]], folder: Path) -> int:
    """A dump whose cases are every party the statements name, and the citing clusters; returns the cases."""
    tuples = [tuple(str(r.get(c) or "") for c in OPINION_COLUMNS) for r in rows]
    cands = scan_opinions(tuples).candidates
    cases: dict[tuple[str, str, str], Case] = {}
    next_id = 10_000_000
    for c in cands:
        for party in (c.target, c.actor):
            if party is None or not party.keys:
                continue
            k = party.keys[0]
            if (k.volume, k.reporter, k.page) not in cases:
                next_id += 1
                cases[(k.volume, k.reporter, k.page)] = Case(
                    id=next_id, name=party.name or "Unnamed v. Case", cites=[(k.volume, k.reporter, k.page)],
                    date="1900-01-01", court="scotus",
                )  # fmt: skip
    citing = [Case(id=r["cluster_id"], name=f"Citing {r['id']} v. Case", cites=[(str(r["id"]), "F.4th", "1")],
                   date="2030-01-01", court="scotus") for r in rows]  # fmt: skip
    courts = [{"id": "scotus", "full_name": "Supreme Court of the United States", "short_name": "SCOTUS",
               "citation_string": "SCOTUS", "jurisdiction": "F"}]  # fmt: skip
    write_dump(folder, [*cases.values(), *citing], courts=courts)
    return len(cases)


def marginal_row_bytes(table: Path, work: Path, copies: int = 20_000) -> float:
    """Bytes one more treatment costs: the built table's rows (their real quotes and cases) written again
    ``copies`` times over with fresh case ids, minus the empty table, per row."""
    from citecheck.sources.treatment.store import CaseRow, TreatmentRow, write_table
    from citecheck.treatment.models import Basis, TreatmentKind

    db = sqlite3.connect(table)
    rows = db.execute(
        "SELECT cited, treating, kind, whole, basis, quote, quoted_from, opinion FROM treatments"
    ).fetchall()
    cases = {r[0]: r for r in db.execute("SELECT id, name, cite, date, court, court_name FROM cases")}
    db.close()
    if not rows:
        return float("nan")
    out_rows, out_cases = [], {}
    for i in range(copies):
        cited, treating, kind, whole, basis, quote, src, opinion = rows[i % len(rows)]
        ids = [10_000_000 * (i + 1) + x for x in (cited, treating or 0, src or 0)]
        for cid, orig in zip(ids, (cited, treating, src), strict=True):
            if orig in cases:
                _, name, cite, date, court, court_name = cases[orig]
                vol, rep, page = (cite or "1 U.S. 1").rsplit(" ", 2) if cite else ("1", "U.S.", "1")
                out_cases[cid] = CaseRow(id=cid, name=name, cite=cite, date=date, court=court, court_name=court_name,
                                         keys=(CiteKey(vol, rep, page),))  # fmt: skip
        out_rows.append(TreatmentRow(cited=ids[0], treating=ids[1] if treating else None, kind=TreatmentKind(kind),
                                     whole=bool(whole), basis=Basis(basis), quote=quote,
                                     quoted_from=ids[2] if src else None, opinion=opinion))  # fmt: skip
    full = write_table(work / "rows.sqlite", out_rows, out_cases, {})
    empty = write_table(work / "empty.sqlite", [], {}, {})
    return (full - empty) / copies


def _load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def ray_runs(work: Path, counts: list[int], runs: int) -> None:
    """The build on a local Ray at each of ``counts`` workers, interleaved, alternating the order each round."""
    from statistics import median

    from citecheck.batch.treatment import build_on_ray

    seen: dict[int, list[tuple[float, float, float, float, float, float]]] = {n: [] for n in counts}
    tables: set[bytes] = set()
    print(f"load average      {_load()} (before)")
    for r in range(runs):
        for n in counts if r % 2 == 0 else counts[::-1]:
            t0 = time.monotonic()
            stats = build_on_ray(work / "bulk", index_path=work / "index.sqlite", out=work / f"ray{n}.sqlite",
                                 workers=n)  # fmt: skip
            whole = time.monotonic() - t0
            m = stats.scan.opinions
            seen[n].append((m / stats.seconds, m / whole, whole - stats.seconds, stats.cpu_seconds,
                            m / max(stats.cpu_seconds, 1e-9), stats.worker_cpu_seconds or 0.0))  # fmt: skip
            tables.add(_rows_of(work / f"ray{n}.sqlite"))
            print(f"  run {r + 1}, {n} worker(s): {m / stats.seconds:,.1f} opinions/s (build), "
                  f"{m / whole:,.1f} (whole), {stats.cpu_seconds:.1f} s CPU of which the scan tasks "
                  f"{stats.worker_cpu_seconds or 0:.1f} s; load {_load()}", flush=True)  # fmt: skip
    print(
        " workers  opinions/s (build)  opinions/s (whole)  Ray start s  CPU s  scan tasks' CPU s  opinions/CPU-s"
    )
    for n in counts:
        rate, whole, start, cpu, per_cpu, tasks = (median(x[i] for x in seen[n]) for i in range(6))
        print(
            f" {n:7d}  {rate:18,.1f}  {whole:18,.1f}  {start:11.1f}  {cpu:5.1f}  {tasks:17.1f}  {per_cpu:14,.1f}"
        )
    if len(counts) == 2:
        a, b = (median(x[0] for x in seen[n]) for n in counts)
        print(
            f"speed-up at {counts[1]} workers: {b / a:.2f}x (medians of {runs} interleaved runs, the build)"
        )
    print(f"tables            {'all the same' if len(tables) == 1 else f'{len(tables)} different'} "
          "(every run's treatments and cases)")  # fmt: skip
    print(f"load average      {_load()} (after)")


def _rows_of(table: Path) -> bytes:
    db = sqlite3.connect(table)
    try:
        rows = [db.execute(f"SELECT * FROM {t}").fetchall() for t in ("treatments", "cases", "keys")]
    finally:
        db.close()
    return repr(rows).encode()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--opinions", type=Path, default=shared_corpus_path("courtlistener-bulk", "opinions.csv"))
    ap.add_argument("--repeat", type=int, default=None, help="copies of the opinions (fresh ids)")
    ap.add_argument("--workers", type=int, default=None, help="scanning processes (default: cores - 1)")
    ap.add_argument("--ray", default=None, metavar="N,N", help="build on a local Ray at these worker counts")
    ap.add_argument("--runs", type=int, default=3, help="with --ray: interleaved runs of each count")
    args = ap.parse_args(argv)
    if not args.opinions.exists():
        print(f"no opinions at {args.opinions}: give --opinions DIR|FILE", file=sys.stderr)
        return 2
    base = read_opinions(args.opinions)
    repeat = args.repeat or max(1, 1000 // max(1, len(base)))
    rows = [
        {**r, "id": n * 10_000_000 + r["id"], "cluster_id": r["cluster_id"]}
        for n in range(repeat)
        for r in base
    ]
    work = Path(tempfile.mkdtemp(prefix="goodlaw-bench-"))
    try:
        cases = index_for(base, work / "dump")
        build_from_folder(work / "index.sqlite", work / "dump", full_dump=True)
        with open_dump_file(work / "bulk", "opinions", "2026-06-30", compress=True) as out:
            write_table(out, "opinions", rows)
        if args.ray:
            print(
                f"opinions          {len(rows):,} ({len(base):,} real opinions x {repeat}; from {args.opinions})"
            )
            ray_runs(work, [int(x) for x in args.ray.split(",")], args.runs)
            return 0
        t0 = time.process_time()
        scanned = scan_opinions([tuple(str(r.get(c) or "") for c in OPINION_COLUMNS) for r in base])
        scan_cpu = time.process_time() - t0
        stats = build_treatment(work / "bulk", index_path=work / "index.sqlite", out=work / "t.sqlite",
                                workers=args.workers)  # fmt: skip
        n = stats.scan.opinions
        per_row = marginal_row_bytes(work / "t.sqlite", work)
        per_opinion = scanned.stats.statements / max(1, len(base))
        print(f"opinions          {n:,} ({len(base):,} real opinions x {repeat}; from {args.opinions})")
        print(f"with a cue word   {scanned.stats.with_cue / max(1, len(base)):.1%} of the real opinions")
        print(f"build             {stats.seconds:.1f} s wall, {stats.cpu_seconds:.1f} s CPU (parent + workers): "
              f"{n / max(stats.cpu_seconds, 1e-9):,.0f} opinions per CPU-second")  # fmt: skip
        print(
            f"scan alone        {len(base) / max(scan_cpu, 1e-9):,.0f} opinions per CPU-second (one process)"
        )
        print(f"statements        {scanned.stats.statements} in {len(base)} real opinions "
              f"({per_opinion:.4f} per opinion); {cases} cases in the index")  # fmt: skip
        print(f"table             {stats.size:,} bytes, {stats.treatments} treatments; {per_row:,.0f} bytes per "
              "treatment (its rows copied 20,000 times with fresh ids: the table's marginal cost)")  # fmt: skip
        print(f"size per million  {per_opinion * 1e6 * per_row / 2**20:,.1f} MiB projected "
              "(statements per opinion x bytes per treatment, no merging)")  # fmt: skip
        print(f"load average      {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
