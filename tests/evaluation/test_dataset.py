"""The dataset maker on the real corpus: valid LePhantomCite lines, one error in about half, real quotes."""

from __future__ import annotations

from collections import Counter

from citecheck.checks.quote_match import OpinionIndex, locate
from citecheck.evaluation.corpus_samples import load_real_cases, load_samples
from citecheck.evaluation.dataset import ERROR_TYPES, make_dataset, real_case_from_json
from citecheck_testing import shared_corpus_path


def test_make_dataset(imported_corpus) -> None:  # type: ignore[no-untyped-def]
    samples = load_samples(imported_corpus)
    assert len(samples) == 39
    real = load_real_cases(shared_corpus_path("citations", "legalcitebench-cases-A.jsonl"))
    rows = make_dataset(samples, real, n=120, seed=7)
    assert len(rows) == 120
    assert rows == make_dataset(samples, real, n=120, seed=7)  # reproducible
    injected = Counter(r["injected"] for r in rows if r["injected"])
    assert set(injected) == set(ERROR_TYPES)
    assert 30 <= sum(injected.values()) <= 70
    by_id = {s.record.id: s for s in samples}
    for r in rows:
        for span, typ in r["hallucinations"].items():
            assert span in r["text"] and typ == r["injected"]
        if r["case"] and r["injected"] in (None, "name-mismatch", "wrong-pincite"):
            # the quote is real text of the cited case
            quote = r["text"].split('"')[1].rstrip(".")
            assert locate(quote, OpinionIndex(by_id[r["case"]].opinion.text)) is not None
        if r["injected"] == "misquote":
            [altered] = r["hallucinations"]
            assert locate(altered, OpinionIndex(by_id[r["case"]].opinion.text)) is None
    assert any(r["case"] is None for r in rows)  # clean excerpts citing cases we do not hold


def test_real_case_names_are_shortened() -> None:
    rc = real_case_from_json(
        {
            "case_name": "Cassandra MURRAY v. MIDLAND FUNDING, LLC",
            "citation": "233 Md. App. 254",
            "year": "2017",
        }
    )
    assert rc is not None and rc.name == "Cassandra Murray v. Midland Funding"
    assert real_case_from_json({"case_name": "", "citation": "1 A.2d 1", "year": "x"}) is None
