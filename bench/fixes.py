"""Corrections (issue 24): the fixes citecheck proposes for wrong citations, scored, and what they cost.

Prints three things, against a temporary corpus imported from ../shared/corpus (both samples):

1. the fix evaluation on held-out sets (``citecheck eval make --type fixes``, seeds 3–5 by default):
   per kind, the right fix offered, a wrong fix offered alone, the right fix applied and re-checked clean;
2. real text: every correction fix offered on real opinions (the 34 of ../shared/corpus/courtlistener-bulk
   and any ``--opinions DIR``: *.txt, *.html or CourtListener-style *.json). Their citations are real,
   so each fix listed is either a real slip in the opinion or a false fix (read them);
3. the cost: ``check_document`` on the 30,000-word bench brief against that corpus, with the corrections
   and with them switched off, interleaved (medians of ``--runs``), and the load average.

    python bench/fixes.py [--seeds 3 4 5] [--n 200] [--opinions DIR ...] [--runs 5]
"""

from __future__ import annotations

import argparse
import asyncio
import csv
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "server"))

from brief import build_brief, html_to_text
from citecheck.config import Settings
from citecheck.evaluation import evaluate, parse_dataset
from citecheck.evaluation.corpus_samples import load_real_cases, load_samples
from citecheck.evaluation.fix_items import make_fix_dataset
from citecheck.evaluation.fix_scoring import correction_fixes
from citecheck.pipeline import check_document
from citecheck.sources.chain import SourceChain
from citecheck.sources.corpus import Corpus, CorpusSource
from citecheck.sources.importing import import_path
from citecheck_testing import SHARED_CORPUS


def _corpus(folder: Path) -> Path:
    path = folder / "corpus.sqlite"
    corpus = Corpus(path)
    try:
        import_path(corpus, SHARED_CORPUS / "cap-static")
        import_path(corpus, SHARED_CORPUS / "courtlistener-bulk")
    finally:
        corpus.close()
    return path


def _opinions(extra: list[Path]) -> list[tuple[str, str]]:
    csv.field_size_limit(sys.maxsize)
    out: list[tuple[str, str]] = []
    with (SHARED_CORPUS / "courtlistener-bulk" / "opinions.csv").open(encoding="utf-8", newline="") as f:
        for row in csv.DictReader(f, escapechar="\\", doublequote=False):
            html = row.get("html_with_citations") or row.get("html") or row.get("plain_text") or ""
            if html.strip():
                out.append((f"bulk:{row.get('id')}", html_to_text(html)))
    for folder in extra:
        for p in sorted(folder.iterdir()):
            raw = p.read_text(encoding="utf-8", errors="replace")
            if p.suffix == ".json":
                data = json.loads(raw)
                raw = next(
                    (data[k] for k in ("html_with_citations", "html", "plain_text") if data.get(k)), ""
                )
            out.append((str(p), html_to_text(raw) if p.suffix in (".json", ".html") else raw))
    return out


async def _evaluation(corpus: Path, seeds: list[int], n: int) -> None:
    samples = load_samples(corpus)
    real = load_real_cases(SHARED_CORPUS / "citations" / "legalcitebench-cases-A.jsonl")
    rows = [r for s in seeds for r in make_fix_dataset(samples, real, n=n, seed=s)]
    examples = parse_dataset([json.dumps(r) for r in rows])
    source = CorpusSource(Corpus(corpus, readonly=True))
    try:
        t = time.perf_counter()
        scores = await evaluate(examples, source, Settings(offline=True))
        took = time.perf_counter() - t
    finally:
        await source.close()
    print(f"\n== fix evaluation: seeds {seeds}, {len(rows)} excerpts ({took:.1f} s)")
    print(scores.fixes.render())


async def _real_text(corpus: Path, extra: list[Path]) -> None:
    opinions = _opinions(extra)
    chain = SourceChain([CorpusSource(Corpus(corpus, readonly=True))])
    offered = cites = 0
    lines = []
    try:
        for name, text in opinions:
            report = await check_document(text, chain, Settings(offline=True))
            cites += len(report.extraction.citations)
            for f, fix in correction_fixes(report.findings):
                offered += 1
                at = text[max(0, f.span.start - 80) : f.span.end + 30].replace("\n", " ")
                lines.append(f"  {name}: [{f.kind}] …{at}…\n      fix: {fix.describe()}")
    finally:
        await chain.close()
    print(f"\n== real text: {len(opinions)} opinions, {cites} citations, {offered} correction fixes offered")
    print("\n".join(lines) if lines else "  (none)")


async def _cost(corpus: Path, runs: int) -> None:
    import citecheck.gather as gather_module
    import citecheck.judge as judge_module
    from citecheck.checks.corrections import Wanted

    text = build_brief()
    chain = SourceChain([CorpusSource(Corpus(corpus, readonly=True))])
    on = (judge_module._corrected, gather_module.wanted)
    off = (_off, lambda *a: Wanted())
    times: dict[str, list[float]] = {"with corrections": [], "without": []}
    try:
        await check_document(text, chain, Settings(offline=True))  # warm: imports, name index, caches
        for _ in range(runs):
            for label in times:
                judge_module._corrected, gather_module.wanted = on if label == "with corrections" else off  # type: ignore[assignment]
                t = time.process_time()
                await check_document(text, chain, Settings(offline=True))
                times[label].append(time.process_time() - t)
    finally:
        judge_module._corrected, gather_module.wanted = on  # type: ignore[assignment]
        await chain.close()
    load = os.getloadavg()
    print(f"\n== cost: check_document on the {len(text.split())}-word bench brief, CPU s, median of {runs}")
    for label, xs in times.items():
        print(f"  {label:17} {statistics.median(xs):.3f}  (min {min(xs):.3f}, max {max(xs):.3f})")
    print(
        "  (without: no name search, near-miss lookup or correction) "
        f"load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}"
    )


def _off(ctx, findings, evidence, indexes):  # type: ignore[no-untyped-def]
    return findings


async def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seeds", type=int, nargs="+", default=[3, 4, 5])
    ap.add_argument("--n", type=int, default=200)
    ap.add_argument("--opinions", action="append", type=Path, default=[])
    ap.add_argument("--runs", type=int, default=5)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        corpus = _corpus(Path(tmp))
        await _evaluation(corpus, args.seeds, args.n)
        await _real_text(corpus, args.opinions)
        await _cost(corpus, args.runs)


if __name__ == "__main__":
    asyncio.run(main())
