"""Speed of the checks and the pipeline on a 30,000-word, ~1,000-citation brief built from real opinion text.

Prints: ``local_findings`` time (the keystroke path: no lookups), and ``check_document`` time against a
tmp corpus imported from ../shared/corpus (cold: opinion indexes built; warm: second run, indexes
cached), plus the same for a brief that quotes corpus opinions (quote location and page maps exercised),
and the evaluation harness throughput. Targets on the 2-core CI machine: local_findings <= 50 ms,
check_document (warm) <= 2 s for the 30k-word brief.

    python bench/checks.py [--words 30000] [--citations 1000] [--eval 400]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "server"))

from brief import build_brief
from citecheck.config import Settings
from citecheck.evaluation import evaluate, make_dataset, parse_dataset
from citecheck.evaluation.corpus_samples import load_real_cases, load_samples
from citecheck.extract import extract_citations
from citecheck.pipeline import check_document, local_findings
from citecheck.sources.corpus import Corpus, CorpusSource
from citecheck.sources.importing import import_path
from citecheck_testing import SHARED_CORPUS


def _time(fn, repeat: int = 1) -> float:  # type: ignore[no-untyped-def]
    best = float("inf")
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t)
    return best


async def _run(args: argparse.Namespace, db: Path) -> None:
    text = build_brief(words=args.words, citations=args.citations)
    extraction = extract_citations(text)
    n = len(extraction.citations)
    t_local = _time(lambda: local_findings(extraction, Settings()), repeat=5)
    print(f"brief: {len(text.split()):,} words, {n:,} citations")
    print(f"local_findings (keystroke path, no I/O): {t_local * 1000:.1f} ms")

    source = CorpusSource(Corpus(db, readonly=True))
    try:
        for label in ("cold", "warm"):
            t = time.perf_counter()
            report = await check_document(text, source, Settings(), extraction=extraction)
            print(
                f"check_document {label}: {time.perf_counter() - t:.2f} s, {len(report.findings):,} findings"
            )

        samples = load_samples(db)
        real_path = SHARED_CORPUS / "citations" / "legalcitebench-cases-A.jsonl"
        real = load_real_cases(real_path) if real_path.is_file() else []
        t = time.perf_counter()
        rows = make_dataset(samples, real, n=args.eval, seed=0)
        print(f"eval make: {len(rows)} excerpts in {time.perf_counter() - t:.2f} s")
        quoting = "\n\n".join(str(r["text"]) for r in rows if r["case"])
        for label in ("cold", "warm"):
            t = time.perf_counter()
            report = await check_document(quoting, source, Settings())
            print(
                f"check_document, {len(quoting.split()):,}-word brief quoting the corpus ({label}): "
                f"{time.perf_counter() - t:.2f} s, {len(report.extraction.citations)} citations"
            )
        examples = parse_dataset([json.dumps(r) for r in rows])
        t = time.perf_counter()
        scores = await evaluate(examples, source, Settings())
        dt = time.perf_counter() - t
        print(
            f"eval: {len(examples)} excerpts in {dt:.2f} s ({len(examples) / dt:.0f}/s); "
            f"P={scores.overall.precision:.3f} R={scores.overall.recall:.3f}"
        )
    finally:
        await source.close()


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--words", type=int, default=30_000)
    ap.add_argument("--citations", type=int, default=1_000)
    ap.add_argument("--eval", type=int, default=400)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "corpus.sqlite"
        corpus = Corpus(db)
        t = time.perf_counter()
        import_path(corpus, SHARED_CORPUS / "cap-static")
        import_path(corpus, SHARED_CORPUS / "courtlistener-bulk")
        corpus.close()
        print(f"corpus import: {time.perf_counter() - t:.2f} s")
        asyncio.run(_run(args, db))


if __name__ == "__main__":
    main()
