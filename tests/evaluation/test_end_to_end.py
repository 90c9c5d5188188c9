"""A generated set run end to end through extraction, the corpus and the checks: scores must stay high.

The thresholds are below the measured figures (see docs/evaluation.md) so a regression fails, not noise.
"""

from __future__ import annotations

import json

from citecheck.config import Settings
from citecheck.evaluation import DETERMINISTIC, evaluate, make_dataset, parse_dataset
from citecheck.evaluation.corpus_samples import load_real_cases, load_samples
from citecheck.sources.corpus import Corpus, CorpusSource
from citecheck_testing import shared_corpus_path


async def test_generated_set_scores(imported_corpus) -> None:  # type: ignore[no-untyped-def]
    samples = load_samples(imported_corpus)
    real = load_real_cases(shared_corpus_path("citations", "legalcitebench-cases-A.jsonl"))
    rows = make_dataset(samples, real, n=80, seed=11)
    examples = parse_dataset([json.dumps(r) for r in rows])
    source = CorpusSource(Corpus(imported_corpus, readonly=True))
    try:
        scores = await evaluate(examples, source, Settings())
    finally:
        await source.close()
    assert scores.overall.precision >= 0.95, scores.false_alarms
    assert scores.overall.recall >= 0.9, scores.misses
    for cat in DETERMINISTIC:
        c = scores.by_type[cat]
        assert c.gold > 0
        assert c.recall >= 0.8 and c.precision >= 0.9, (cat, scores.misses, scores.false_alarms)
    # clean excerpts citing real cases we do not hold are never flagged
    uncovered = [e for e, r in zip(examples, rows, strict=True) if r["case"] is None]
    assert uncovered and not any(fa[0] in {e.id for e in uncovered} for fa in scores.false_alarms)
