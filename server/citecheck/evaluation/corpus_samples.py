"""Read cases and opinions out of a local corpus file, and real-case tuples from JSONL (I/O edge of eval)."""

from __future__ import annotations

from pathlib import Path

from citecheck.errors import InputError
from citecheck.evaluation.dataset import CaseSample, RealCase, real_case_from_json
from citecheck.evaluation.scoring import iter_jsonl


def load_samples(corpus_path: Path) -> list[CaseSample]:
    """Every case of the corpus that has opinion text (the corpus has no listing call, so walk rowids)."""
    from citecheck.sources.corpus import Corpus

    corpus = Corpus(corpus_path, readonly=True)
    try:
        cases = corpus.stats().get("cases", 0)
        total = cases if isinstance(cases, int) else 0
        out: list[CaseSample] = []
        seen = misses = 0
        rowid = 0
        while seen < total and misses < 10_000:
            rowid += 1
            rec = corpus.record_by_rowid(rowid)
            if rec is None:
                misses += 1
                continue
            seen += 1
            op = corpus.opinion(rec.id)
            if op is not None and op.text:
                out.append(CaseSample(record=rec, opinion=op))
        return out
    finally:
        corpus.close()


def load_real_cases(path: Path) -> list[RealCase]:
    out = []
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except OSError as exc:
        raise InputError(f"cannot read {path}: {exc.strerror or exc}") from exc
    for _, obj in iter_jsonl(lines, origin=str(path)):
        rc = real_case_from_json(obj) if isinstance(obj, dict) else None
        if rc is not None:
            out.append(rc)
    return out
