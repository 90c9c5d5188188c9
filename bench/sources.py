"""Benchmark the authority sources: bulk import speed and memory, lookup latency cold and warm.

Figures printed:
- import of the CourtListener bulk sample (../shared/corpus/courtlistener-bulk): seconds, input rows/s,
  cases/s; the same for a synthetic copy N times larger (ids shifted, .bz2), to show the import streams;
- peak Python heap (tracemalloc) of each import — it should not grow with the input size;
- quote search over the corpus (FTS5 + exact location), per quote;
- 1,000 citation lookups: local corpus only; and through the full chain whose remote is a
  ``citecheck corpus serve`` on loopback speaking CourtListener v4 — cold (empty cache, 4 batched
  requests) and warm (every answer from the cache).

    python bench/sources.py [--scale 20]
"""

from __future__ import annotations

import argparse
import asyncio
import bz2
import csv
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

from citecheck.sources.cache import Cache
from citecheck.sources.chain import SourceChain
from citecheck.sources.corpus import Corpus, CorpusSource
from citecheck.sources.corpus_server import CorpusServer
from citecheck.sources.courtlistener import CourtListenerClient
from citecheck.sources.importing import import_path
from citecheck.sources.models import CiteKey
from citecheck_testing import SHARED_CORPUS

ID_COLUMNS = {
    "dockets": ("id",),
    "opinion-clusters": ("id", "docket_id"),
    "citations": ("id", "cluster_id"),
    "opinions": ("id", "cluster_id"),
}


def _scaled_copy(src: Path, dest: Path, times: int) -> int:
    """Write the bulk sample ``times`` over (ids and volumes shifted) as .bz2 in CourtListener's dialect."""
    csv.field_size_limit(sys.maxsize)
    dest.mkdir(parents=True, exist_ok=True)
    rows = 0
    for name in ("courts", "dockets", "opinion-clusters", "citations", "opinions"):
        with open(src / f"{name}.csv", newline="", encoding="utf-8") as f:
            reader = csv.reader(f, quotechar='"', escapechar="\\", doublequote=False)
            header = next(reader)
            data = list(reader)
        with bz2.open(dest / f"{name}-2026-06-30.csv.bz2", "wt", encoding="utf-8", newline="") as out:
            writer = csv.writer(
                out,
                quotechar='"',
                escapechar="\\",
                doublequote=False,
                quoting=csv.QUOTE_ALL,
                lineterminator="\n",
            )
            writer.writerow(header)
            copies = 1 if name == "courts" else times
            for k in range(copies):
                for row in data:
                    row = list(row)
                    for col in ID_COLUMNS.get(name, ()):
                        i = header.index(col)
                        if row[i]:
                            row[i] = str(int(row[i]) + k * 1_000_000)
                    if name == "citations" and k:
                        i = header.index("volume")
                        row[i] = str(int(row[i]) + 1000 * k) if row[i].isdigit() else row[i]
                    writer.writerow(row)
                    rows += 1
    return rows


def _import(folder: Path, db: Path, *, trace: bool) -> tuple[float, int, int, int]:
    corpus = Corpus(db)
    if trace:
        tracemalloc.start()
    t0 = time.perf_counter()
    stats = import_path(corpus, folder)
    elapsed = time.perf_counter() - t0
    peak = tracemalloc.get_traced_memory()[1] if trace else 0
    if trace:
        tracemalloc.stop()
    corpus.close()
    return elapsed, stats.rows, stats.cases, peak


def bench_import(scale: int, tmp: Path) -> Path:
    sample = SHARED_CORPUS / "courtlistener-bulk"
    print("== bulk import (CourtListener CSV) ==")
    big = tmp / "scaled"
    _scaled_copy(sample, big, scale)
    for label, folder in (("sample (plain .csv)", sample), (f"sample x{scale} (.bz2)", big)):
        mb = sum(p.stat().st_size for p in folder.iterdir() if p.is_file()) / 1e6
        times = []
        for run in range(2):
            elapsed, rows, cases, _ = _import(
                folder, tmp / f"time-{label[:6]}-{scale}-{run}.sqlite", trace=False
            )
            times.append(elapsed)
        elapsed = min(times)
        _, _, _, peak = _import(folder, tmp / f"mem-{label[:6]}-{scale}.sqlite", trace=True)
        print(
            f"{label:<22} {mb:7.1f} MB on disk  {rows:6d} rows  {cases:5d} cases  "
            f"{elapsed:6.2f} s  {rows / elapsed:8.0f} rows/s  {cases / elapsed:6.0f} cases/s  "
            f"peak heap {peak / 1e6:6.1f} MB"
        )
    return tmp


def _keys(corpus: Corpus) -> list[CiteKey]:
    real = []
    for rep, vol, page in corpus.connection.execute("SELECT reporter, volume, page FROM citations"):
        real.append(CiteKey(vol, rep, page))
    keys = list(real)
    i = 0
    while len(keys) < 1000:  # plausible citations the corpus does not hold
        i += 1
        keys.append(CiteKey(str(100 + i % 400), "A.2d", str(1000 + i)))
    return keys[:1000]


async def bench_lookups(tmp: Path) -> None:
    print("\n== 1,000 citation lookups ==")
    db = tmp / "served.sqlite"
    corpus = Corpus(db)
    import_path(corpus, SHARED_CORPUS / "cap-static")
    import_path(corpus, SHARED_CORPUS / "courtlistener-bulk")
    keys = _keys(corpus)
    local = CorpusSource(corpus)
    t0 = time.perf_counter()
    res = await local.lookup(keys)
    t = time.perf_counter() - t0
    found = sum(1 for r in res.values() if r.record)
    print(
        f"local corpus only        {t * 1000:8.1f} ms total  {t * 1e6 / len(keys):7.1f} µs/citation  ({found} found)"
    )
    quotes = [
        "the order of continued commitment to the Psychiatric Security Review Board",
        "indecent exposure in a public place",
        "a quotation that appears in no opinion of this corpus at all",
    ]
    t0 = time.perf_counter()
    for _ in range(20):
        for q in quotes:
            await local.find_passage(q)
    t = (time.perf_counter() - t0) / (20 * len(quotes))
    print(f"passage search (FTS5 + locate), per quote: {t * 1000:6.2f} ms")
    corpus.close()

    with CorpusServer(db) as server:
        cache = await Cache.open(tmp / "cache.sqlite")
        remote = CourtListenerClient(server.base_url, "bench")
        empty = CorpusSource(Corpus(tmp / "empty.sqlite"))
        async with SourceChain([empty, cache, remote]) as chain:
            for label in ("cold (empty cache)", "warm (cache)"):
                t0 = time.perf_counter()
                res = await chain.lookup(keys)
                t = time.perf_counter() - t0
                found = sum(1 for r in res.values() if r.record)
                sources = sorted({r.source or "-" for r in res.values()})
                print(
                    f"chain via corpus server, {label:<18} {t * 1000:8.1f} ms total  "
                    f"{t * 1e6 / len(keys):7.1f} µs/citation  ({found} found; answered by {', '.join(sources)})"
                )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--scale", type=int, default=20, help="size of the synthetic bulk copy (x sample)")
    args = parser.parse_args()
    if not (SHARED_CORPUS / "courtlistener-bulk").exists():
        sys.exit(f"needs the shared corpus at {SHARED_CORPUS}")
    with tempfile.TemporaryDirectory(prefix="citecheck-bench-") as tmp:
        bench_import(args.scale, Path(tmp))
        asyncio.run(bench_lookups(Path(tmp)))


if __name__ == "__main__":
    main()
