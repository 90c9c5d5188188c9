"""Benchmark: ``citecheck check --offline`` on the 30,000-word brief — wall time and peak memory.

Each run is a fresh ``citecheck`` process (what a user waits for), measured with ``os.wait4`` for the
child's own peak RSS. "cold" = a new, empty lookup cache; "warm" = the same cache again, already
filled by the cold run. When ../shared/corpus is present its samples are imported into a private
corpus first, so lookups, opinion loads and checks do real work; otherwise every citation is
cannot-verify and the figures measure extraction and local checks only.

    python bench/cli.py [--words 30000] [--citations 1000] [--runs 3]
    python bench/cli.py --chars 7000000 --runs 0    # one huge document (issue 11: target <= 15 s)
    python bench/cli.py --chars 7017101 --runs 0 --formats json,text               # issue 40: <= 10 s
    python bench/cli.py --chars 20000000 --runs 0 --formats json,text,html         # issue 40: <= 40 s, <= 400 MB

With ``--formats`` each format after the first is one more cold run of the same document (wall, CPU of
the process and its workers, peak RSS of the process).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from brief import build_brief
from citecheck_testing import SHARED_CORPUS


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


_CPU: dict[Path, list[float]] = {}  # per document: each run's CPU seconds (workers included)


def _load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def _run(doc: Path, env: dict[str, str], fmt: str = "json") -> tuple[float, float, Path]:
    """(wall seconds, peak RSS MiB, the JSON report's path) of one ``citecheck check`` process.

    The report is parsed only after every run: a child's peak RSS includes this process's own image
    at the fork (before the exec), so a parsed 60 MB report held here showed as 420 MiB "peak" of the
    next run of a 7,000,000-character brief."""
    cmd = [
        sys.executable,
        "-m",
        "citecheck",
        "check",
        "--offline",
        "--format",
        fmt,
        "--fail-on",
        "never",
        str(doc),
    ]
    out_path, err_path = doc.with_suffix(f".out.{fmt}"), doc.with_suffix(".err.txt")
    with out_path.open("wb") as out, err_path.open("wb") as err:
        start = time.perf_counter()
        proc = subprocess.Popen(cmd, env=env, stdout=out, stderr=err)
        _, status, usage = os.wait4(proc.pid, 0)  # the child's own rusage, not all children's
        wall = time.perf_counter() - start
    rc = os.waitstatus_to_exitcode(status)
    proc.returncode = rc
    if rc != 0:
        raise SystemExit(f"citecheck failed ({rc}): {err_path.read_text()[-2000:]}")
    # the child's CPU seconds, its waited-for workers included: comparable on a busy machine
    _CPU.setdefault(doc, []).append(usage.ru_utime + usage.ru_stime)
    return wall, usage.ru_maxrss / 1024, out_path  # Linux: KiB


def _stages(doc: Path, corpus: Path, cache: Path) -> str:
    """Where the time goes, in one process: extraction, lookups + checks, each renderer."""
    import asyncio

    from citecheck.config import Settings
    from citecheck.extract import extract_citations
    from citecheck.inputs import read_input
    from citecheck.pipeline import check_document
    from citecheck.report import FORMATS
    from citecheck.report.model import BatchResult, file_result
    from citecheck.sources.chain import open_source

    settings = Settings(corpus_path=corpus, cache_path=cache, offline=True, max_document_chars=10**8)
    t0 = time.perf_counter()
    text = read_input(str(doc), max_chars=10**8).text
    t1 = time.perf_counter()
    extraction = extract_citations(text)
    t2 = time.perf_counter()

    async def run():
        async with open_source(settings) as source:
            return await check_document(text, source, settings, extraction=extraction)

    report = asyncio.run(run())
    t3 = time.perf_counter()
    batch = BatchResult(files=(file_result(doc.name, "markdown", text, report),))
    renders = []
    for name, render in FORMATS.items():
        r0 = time.perf_counter()
        render(batch)
        renders.append(f"{name} {1000 * (time.perf_counter() - r0):.0f}")
    return (
        f"read {1000 * (t1 - t0):.0f} ms, extract {1000 * (t2 - t1):.0f} ms, lookups+checks "
        f"{1000 * (t3 - t2):.0f} ms, render ms: {', '.join(renders)}"
    )


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--words", type=int, default=30_000)
    ap.add_argument("--citations", type=int, default=1_000)
    ap.add_argument("--runs", type=int, default=3, help="warm runs to take the median of")
    ap.add_argument(
        "--example-copies",
        type=int,
        default=20,
        help="copies of the example brief's argument appended, so the sample corpus has work to do",
    )
    ap.add_argument(
        "--chars",
        type=int,
        default=0,
        help="instead: one brief of this many characters, with the 30k-word brief's citation density",
    )
    ap.add_argument(
        "--formats",
        default="json",
        help="report formats to time, comma-separated (json always runs first, cold and --runs warm; "
        "each other one more cold run)",
    )
    args = ap.parse_args(argv)
    formats = [f for f in args.formats.split(",") if f]

    if args.chars:
        words = args.chars * 32_000 // 196_000
        big = build_brief(words=words, citations=words // 30)[: args.chars]
        docs = {f"one {len(big):,}-character brief": big}
    else:
        text = build_brief(words=args.words, citations=args.citations)
        example = (Path(__file__).resolve().parents[1] / "examples" / "brief.md").read_text(encoding="utf-8")
        argument = example[example.index("## ARGUMENT") :]
        docs = {
            "bench brief": text,
            f"bench brief + example argument x{args.example_copies}": text
            + "\n\n"
            + "\n\n".join([argument] * args.example_copies),
        }
    with tempfile.TemporaryDirectory() as tmp:
        home = Path(tmp)
        corpus_note = _import_corpus(home / "corpus.sqlite")
        print(
            f"corpus: {corpus_note}; python {sys.version.split()[0]}; {os.cpu_count()} CPUs; "
            f"load average {_load()} at start"
        )
        for label, body in docs.items():
            doc = home / "brief.md"
            doc.write_text(body, encoding="utf-8")
            cache = home / f"cache-{len(body)}.sqlite"
            env = {k: v for k, v in os.environ.items() if not k.startswith("CITECHECK_")}
            env.update(
                CITECHECK_CORPUS_PATH=str(home / "corpus.sqlite"),
                CITECHECK_CACHE_PATH=str(cache),
                CITECHECK_CONFIG=str(home / "citecheck.toml"),
                CITECHECK_MAX_DOCUMENT_CHARS=str(10**8),
            )
            (home / "citecheck.toml").write_text("")
            cold_wall, cold_peak, out = _run(doc, env)
            cold_cpu, cold_load = _CPU[doc][-1], _load()
            cold_out = out.with_suffix(".cold.json")
            out.replace(cold_out)
            warm = [_run(doc, env) for _ in range(args.runs)]
            walls = [w for w, _, _ in warm] or [cold_wall]
            warm_cpu = statistics.median(_CPU[doc][-len(warm) :] if warm else [cold_cpu])
            others = []  # (format, wall, peak, CPU): every run before the report is parsed (see _run)
            for fmt in [f for f in formats if f != "json"]:
                (home / f"cache-{len(body)}-{fmt}.sqlite").unlink(missing_ok=True)
                env["CITECHECK_CACHE_PATH"] = str(home / f"cache-{len(body)}-{fmt}.sqlite")
                wall, peak, _ = _run(doc, env, fmt)
                others.append((fmt, wall, peak, _CPU[doc][-1], _load()))
            summary = json.loads(cold_out.read_text(encoding="utf-8"))["summary"]
            print(f"\n{label}: {len(body.split()):,} words, {len(body):,} characters")
            print(
                f"  citations: {summary['citations']:,}; findings: {summary['findings']}; status: {summary['status']}"
            )
            print(
                f"  --format json, cold cache: wall {cold_wall:.2f} s (CPU {cold_cpu:.2f} s), "
                f"peak RSS {cold_peak:.0f} MiB; load average then {cold_load} (a shared machine: compare CPU seconds)"
            )
            print(
                f"  warm cache: wall median {statistics.median(walls):.2f} s (min {min(walls):.2f}, "
                f"max {max(walls):.2f}, {len(warm)} runs; CPU median {warm_cpu:.2f} s), "
                f"peak RSS {max((p for _, p, _ in warm), default=0):.0f} MiB; load average now {_load()}"
            )
            for fmt, wall, peak, cpu, load in others:
                print(
                    f"  --format {fmt}, cold cache: wall {wall:.2f} s (CPU {cpu:.2f} s), "
                    f"peak RSS {peak:.0f} MiB; load average then {load}"
                )
            if not args.chars:  # a huge document would be checked twice more
                print(f"  in-process stages (warm): {_stages(doc, home / 'corpus.sqlite', cache)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
