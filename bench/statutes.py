"""Benchmark the statute index: build the whole U.S. Code and C.F.R., its size, and lookup latency.

No release can be downloaded on this machine, so the input is synthetic, in the real formats
(USLM ``xml_uscAll`` zip; eCFR versioner ``title-N.xml``), at the real Code's scale (estimates, see
docs/sources.md "Statute index"): 54 U.S.C. titles, ~60,000 section elements, ~25M words of enacted
text plus notes; 50 C.F.R. titles, ~210,000 sections, ~100M words. Text is Zipf-distributed
pseudo-words, so it compresses about as well as prose (the compression ratio is printed).

Figures printed: generation (not counted), the build (wall s, MB/s of XML, peak RSS), the index file
size, then lookups: found / not found / inside a repealed range (µs each, median of 20 batches of
1,000), and a text read (decompress one section).

    python bench/statutes.py [--scale 1.0] [--dir DIR (keep the files)] [--lookups-only]
"""

from __future__ import annotations

import argparse
import os
import random
import resource
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import NamedTuple

from citecheck.sources.statutes.build import build_index
from citecheck.sources.statutes.index import StatuteIndex
from citecheck_testing.statutes import write_synthetic_ecfr, write_synthetic_usc

USC_TITLES = [str(n) for n in range(1, 55) if n != 53]  # title 53 is reserved
CFR_TITLES = [str(n) for n in range(1, 51) if n != 35]  # title 35 is reserved
USC_SECTIONS = 60_000
CFR_SECTIONS = 210_000
USC_WORDS = 420  # ≈ 25M words of enacted text in the Code
CFR_WORDS = 480  # ≈ 100M words in the C.F.R.


class Key(NamedTuple):
    code: str
    title: str
    section: str


def _rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


class PerCall(NamedTuple):
    wall_us: float  # median over batches of 1,000
    cpu_us: float  # the same in this process's CPU time (what a shared, loaded machine does not inflate)

    def __str__(self) -> str:
        return f"{self.wall_us:.1f} µs wall / {self.cpu_us:.1f} µs CPU"


def _per_call_us(fn, keys: list[Key]) -> PerCall:  # type: ignore[no-untyped-def]
    wall, cpu = [], []
    for i in range(0, len(keys), 1000):
        chunk = keys[i : i + 1000]
        t, c = time.perf_counter(), time.process_time()
        for k in chunk:
            fn(k)
        wall.append((time.perf_counter() - t) / len(chunk) * 1e6)
        cpu.append((time.process_time() - c) / len(chunk) * 1e6)
    return PerCall(statistics.median(wall), statistics.median(cpu))


def _lookups(path: Path) -> int:
    print(f"load average: {os.getloadavg()}", flush=True)
    rnd = random.Random(1)
    with StatuteIndex(path, readonly=True) as index:
        found, missing, ranged = [], [], []
        for code, titles in (("usc", USC_TITLES), ("cfr", CFR_TITLES)):
            for _ in range(10_000):
                title = rnd.choice(titles)
                rows = index._db.execute(
                    "SELECT section FROM sections WHERE code=? AND title=? ORDER BY random() LIMIT 1",
                    (code, title),
                ).fetchall()
                if rows:
                    found.append(Key(code, title, rows[0][0]))
                missing.append(Key(code, title, f"{rnd.randint(1, 99999)}zz"))
        rnd.shuffle(found)
        with_text = [r for k in found[:2000] if (r := index.lookup(k).record) is not None and r.status.live]
        us_found = _per_call_us(index.lookup, found)
        us_missing = _per_call_us(index.lookup, missing)
        us_text = _per_call_us(index.text, with_text[:1000])  # type: ignore[arg-type]
        avg = sum(len(index.text(r)) for r in with_text[:1000]) / max(1, len(with_text[:1000]))
        raw = index._db.execute("SELECT SUM(len) FROM sections").fetchone()[0] or 0
        comp = index._db.execute("SELECT SUM(LENGTH(body)) FROM blocks").fetchone()[0] or 1
        del ranged
    print(
        f"lookups: found {us_found}; not found (with neighbours) {us_missing}; "
        f"text of a section {us_text} (≈{avg:,.0f} chars); all text {raw / 1e6:,.0f} MB → "
        f"{comp / 1e6:,.0f} MB compressed (×{raw / comp:.1f})",
        flush=True,
    )
    print(f"load average: {os.getloadavg()}")
    return 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--scale", type=float, default=1.0, help="fraction of the whole Code to build")
    ap.add_argument("--dir", type=Path, default=None, help="keep the generated files and index here")
    ap.add_argument("--lookups-only", action="store_true", help="only time lookups in --dir's index")
    args = ap.parse_args()
    work = args.dir or Path(tempfile.mkdtemp(prefix="citecheck-statutes-"))
    work.mkdir(parents=True, exist_ok=True)
    usc_per = max(10, int(USC_SECTIONS * args.scale / len(USC_TITLES)))
    cfr_per = max(10, int(CFR_SECTIONS * args.scale / len(CFR_TITLES)))
    print(f"load average: {os.getloadavg()}", flush=True)

    usc_zip, ecfr_dir = work / "xml_uscAll@bench.zip", work / "ecfr"
    t = time.perf_counter()
    if not usc_zip.exists():
        usc_bytes = write_synthetic_usc(usc_zip, USC_TITLES, usc_per, words=USC_WORDS)
        cfr_bytes = write_synthetic_ecfr(ecfr_dir, CFR_TITLES, cfr_per, words=CFR_WORDS)
    else:
        import zipfile

        usc_bytes = sum(i.file_size for i in zipfile.ZipFile(usc_zip).infolist())
        cfr_bytes = sum(p.stat().st_size for p in ecfr_dir.iterdir())
    print(
        f"generated: U.S.C. {len(USC_TITLES)} titles × {usc_per:,} sections = {usc_bytes / 1e6:,.0f} MB XML "
        f"(zip {usc_zip.stat().st_size / 1e6:,.0f} MB); C.F.R. {len(CFR_TITLES)} titles × {cfr_per:,} = "
        f"{cfr_bytes / 1e6:,.0f} MB XML ({time.perf_counter() - t:.0f} s, not counted)",
        flush=True,
    )

    path = work / "statutes.sqlite"
    if args.lookups_only and path.exists():
        return _lookups(path)
    for suffix in ("", "-wal", "-shm"):
        Path(f"{path}{suffix}").unlink(missing_ok=True)
    rss0 = _rss_mb()
    t, cpu = time.perf_counter(), time.process_time()
    with StatuteIndex(path) as index:
        stats = build_index(index, usc=usc_zip, ecfr=ecfr_dir)
        t_build = time.perf_counter() - t
        cpu_build = time.process_time() - cpu
        index.vacuum()
    t_total = time.perf_counter() - t
    size = path.stat().st_size
    print(
        f"build: {stats.summary()} in {t_build:.0f} s wall, {cpu_build:.0f} s CPU "
        f"({(usc_bytes + cfr_bytes) / 1e6 / cpu_build:.1f} MB of XML per CPU second), "
        f"{t_total:.0f} s with VACUUM; peak RSS {_rss_mb():.0f} MB (before: {rss0:.0f} MB)",
        flush=True,
    )
    print(f"index: {size / 1e6:.0f} MB on disk", flush=True)
    print(f"load average: {os.getloadavg()}", flush=True)

    _lookups(path)
    if args.dir is None:
        import shutil

        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
