"""Benchmark: ``citecheck batch`` — documents per second at 1 and 2 workers, and memory per worker.

Each run is a fresh ``citecheck batch`` process on a local Ray instance (``--workers N``) writing a new
Parquet output; runs at 1 and 2 workers are interleaved (1, 2, 1, 2, …) so that a change of load on a
shared machine touches both alike, and the medians are compared. Two rates are given: the work rate
(documents / seconds from the first document handed out to the last done, as the summary line prints
it) and the whole process (Ray's start and stop included). The workers' peak memory is what each Ray
worker reports at the end (VmHWM).

Documents: ``--docs DIR`` (any folder ``citecheck batch`` reads; the figures in docs/scale.md used 300
First Circuit opinions, see there), or by default real opinions from ../shared/corpus (the nine CAP
opinions of 100 A.2d and the example brief) repeated to ``--count`` files, each under a numbered heading.
The corpus samples are imported first when ../shared/corpus is there. Prints the load average before
and after: on a shared machine, quote it with the figures.

    python bench/batch.py [--docs DIR] [--count 200] [--repeats 3] [--workers 1 2]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from citecheck_testing import REPO_ROOT, SHARED_CORPUS

_RATE = re.compile(r"in .*? \(([\d.]+) documents/s on (\d+) workers; ([\d.]+) s to start them\)")
_MEM = re.compile(r"workers' peak memory: (\d+)-(\d+) MB each")


def _load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def _default_docs(folder: Path, count: int) -> str:
    texts = [(REPO_ROOT / "examples" / "brief.md").read_text(encoding="utf-8")]
    cases = sorted((SHARED_CORPUS / "cap-static" / "a2d" / "100" / "cases").glob("*.json"))
    for case in cases:
        texts.append("\n\n".join(o["text"] for o in json.loads(case.read_text())["casebody"]["opinions"]))
    folder.mkdir(parents=True)
    for i in range(count):
        (folder / f"doc-{i:05d}.md").write_text(f"# Filing {i}\n\n{texts[i % len(texts)]}", encoding="utf-8")
    what = "the example brief" + (f" and {len(cases)} CAP opinions (100 A.2d)" if cases else "")
    return f"{count} files made of {what}"


def _import_corpus(path: Path) -> str:
    from citecheck.sources.corpus import Corpus
    from citecheck.sources.importing import import_path

    parts = [SHARED_CORPUS / "cap-static", SHARED_CORPUS / "courtlistener-bulk"]
    if not all(p.exists() for p in parts):
        return "none (../shared/corpus absent)"
    corpus = Corpus(path)
    try:
        for p in parts:
            import_path(corpus, p)
    finally:
        corpus.close()
    return "CAP 100 A.2d sample + CourtListener bulk sample"


def _run(docs: Path, workers: int, out: Path, env: dict[str, str]) -> dict[str, float]:
    began = time.monotonic()
    done = subprocess.run(
        [sys.executable, "-m", "citecheck", "batch", str(docs), "--out", str(out), "--workers", str(workers)],
        env=env,
        capture_output=True,
        text=True,
        timeout=3600,
    )
    wall = time.monotonic() - began
    rate, mem = _RATE.search(done.stderr), _MEM.search(done.stderr)
    if done.returncode not in (0, 1) or rate is None:
        raise SystemExit(f"citecheck batch failed ({done.returncode}):\n{done.stderr[-3000:]}")
    return {
        "rate": float(rate.group(1)),
        "setup": float(rate.group(3)),
        "wall": wall,
        "mem_max": float(mem.group(2)) if mem else float("nan"),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--docs", type=Path, help="a folder of documents (default: made from ../shared/corpus)")
    ap.add_argument("--count", type=int, default=200, help="documents made when --docs is not given")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--workers", type=int, nargs="+", default=[1, 2])
    args = ap.parse_args()

    with tempfile.TemporaryDirectory(prefix="bench-batch-") as tmp:
        home = Path(tmp)
        if args.docs:
            docs, what = (
                args.docs.resolve(),
                f"{sum(1 for p in args.docs.rglob('*') if p.is_file())} files in {args.docs}",
            )
        else:
            docs, what = home / "docs", _default_docs(home / "docs", args.count)
        corpus = _import_corpus(home / "corpus.sqlite")
        env = {
            **{k: v for k, v in os.environ.items() if not k.startswith("CITECHECK_")},
            "CITECHECK_CORPUS_PATH": str(home / "corpus.sqlite"),
            "CITECHECK_CACHE_PATH": str(home / "cache.sqlite"),
            "CITECHECK_INDEX_PATH": str(home / "index.sqlite"),
            "CITECHECK_STATUTES_PATH": str(home / "statutes.sqlite"),
            "CITECHECK_CAP_FETCH": "false",
            "CITECHECK_CONFIG": str(home / "citecheck.toml"),
            "XDG_CONFIG_HOME": str(home / "xdg"),
        }
        (home / "citecheck.toml").write_text("# defaults\n")
        print("citecheck batch bench")
        print(f"  documents: {what}; corpus: {corpus}")
        print(f"  machine: {os.cpu_count()} CPUs; load average before: {_load()}")
        results: dict[int, list[dict[str, float]]] = {w: [] for w in args.workers}
        for r in range(args.repeats):
            for w in args.workers:
                results[w].append(_run(docs, w, home / f"out-{w}-{r}.parquet", env))
        print(f"  load average after: {_load()}")
        print(
            f"{'workers':>8} {'docs/s (work)':>14} {'docs/s (whole)':>15} {'start s':>8} {'peak MB/worker':>15}"
        )
        n_docs = sum(1 for p in docs.rglob("*") if p.is_file())
        medians = {}
        for w, runs in results.items():
            rate = statistics.median(x["rate"] for x in runs)
            whole = statistics.median(n_docs / x["wall"] for x in runs)
            medians[w] = rate
            print(
                f"{w:>8} {rate:>14.2f} {whole:>15.2f} {statistics.median(x['setup'] for x in runs):>8.1f} "
                f"{max(x['mem_max'] for x in runs):>15.0f}"
            )
            each = ", ".join(f"{x['rate']:.2f}" for x in runs)
            print(f"{'':>8} runs (docs/s): {each}")
        if 1 in medians and len(medians) > 1:
            top = max(medians)
            print(
                f"speed-up at {top} workers: {medians[top] / medians[1]:.2f}x "
                f"(medians of {args.repeats} interleaved runs)"
            )


if __name__ == "__main__":
    main()
