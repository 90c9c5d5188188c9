"""Misrepresentation items from the corpus, and their scoring (recall, and false positives on controls)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from citecheck.evaluation.misrepresentation import CATEGORY, make_misrepresentation_items, reverse_meaning
from citecheck.evaluation.scoring import (
    Prediction,
    Scores,
    category_of,
    parse_dataset,
    render_table,
    score_example,
)
from citecheck_testing.model_endpoint import FakeEndpoint, judgment


@pytest.mark.parametrize(
    ("sentence", "reversed_"),
    [
        ("The statute does not apply", "The statute does apply"),  # a "not" removed
        ("The tenant was entitled to notice", "The tenant was not entitled to notice"),  # a "not" added
        ("Courts never award such damages", "Courts always award such damages"),  # never → always
        ("Affirmed in part", None),  # nothing to reverse
    ],
)
def test_reverse_meaning(sentence: str, reversed_: str | None) -> None:
    assert reverse_meaning(sentence) == reversed_


def test_lephantomcite_labels_map_to_misrepresentation() -> None:
    for label in (
        "Content Misrepresentation",
        "misrepresentation",
        "unsupported holding",
        "mischaracterization",
    ):
        assert category_of(label) == CATEGORY


def test_controls_give_a_false_positive_rate() -> None:
    rows = [
        {"text": "a 1 U.S. 1", "hallucinations": {"1 U.S. 1": "content misrepresentation"}},
        {"text": "b 2 U.S. 2", "hallucinations": {}, "control": "misrepresentation"},
        {"text": "c 3 U.S. 3", "hallucinations": {}, "control": "misrepresentation"},
    ]
    examples = parse_dataset([json.dumps(r) for r in rows])
    scores = Scores()

    def flag(span):
        return [Prediction(span_text=span, category=CATEGORY, kind="unsupported-holding", message="m")]

    score_example(scores, examples[0], flag("1 U.S. 1"))
    score_example(scores, examples[1], flag("2 U.S. 2"))
    score_example(scores, examples[2], [])
    assert scores.for_type(CATEGORY).recall == 1.0
    assert scores.false_positive_rate(CATEGORY) == 0.5
    assert "false-positive rate 0.500 (1 of 2 supported control items flagged)" in render_table(scores)


@pytest.fixture(scope="module")
def corpus_file(tmp_path_factory) -> Path:  # type: ignore[no-untyped-def]
    from citecheck.sources.corpus import Corpus
    from citecheck.sources.importing import import_path
    from citecheck_testing import shared_corpus_path

    path = tmp_path_factory.mktemp("misrep") / "corpus.sqlite"
    corpus = Corpus(path)
    try:
        import_path(corpus, shared_corpus_path("cap-static"))
        import_path(corpus, shared_corpus_path("courtlistener-bulk"))
    finally:
        corpus.close()
    return path


def test_make_items_from_the_corpus(corpus_file: Path) -> None:
    from citecheck.evaluation.corpus_samples import load_samples

    rows = make_misrepresentation_items(load_samples(corpus_file), n=30, seed=1)
    assert len(rows) == 30
    kinds = {r["injected"] for r in rows}
    assert {"reversed-meaning", "other-case", None} <= kinds
    for r in rows:
        if r["injected"]:
            [(span, typ)] = r["hallucinations"].items()
            assert typ == CATEGORY and span in r["text"]
        else:
            assert r["control"] == CATEGORY and r["hallucinations"] == {}


def test_eval_make_and_score_through_the_cli_with_a_judge(
    corpus_file: Path, tmp_path: Path, capsys, monkeypatch
) -> None:
    from citecheck.cli import main

    for key in list(os.environ):
        if key.startswith("CITECHECK_"):
            monkeypatch.delenv(key)
    monkeypatch.setenv("CITECHECK_CACHE_PATH", str(tmp_path / "cache.sqlite"))
    out = tmp_path / "misrep.jsonl"
    assert (
        main(
            [
                "eval",
                "make",
                "--type",
                "misrepresentation",
                "--corpus",
                str(corpus_file),
                "--out",
                str(out),
                "--n",
                "9",
            ]
        )
        == 0
    )
    ep = FakeEndpoint().answer(
        judgment("not-supported", "", "different-issue")
    )  # a judge that flags everything
    try:
        monkeypatch.setenv("CITECHECK_MODEL_URL", ep.url)
        monkeypatch.setenv("CITECHECK_MODEL_NAME", "fake-judge")
        capsys.readouterr()
        assert main(["eval", str(out), "--corpus", str(corpus_file), "--json"]) == 0
    finally:
        ep.close()
    data = json.loads(capsys.readouterr().out)
    assert data["by_type"][CATEGORY]["recall"] == 1.0
    assert data["controls"][CATEGORY]["false_positive_rate"] == 1.0  # it flags the supported ones too
    assert len(ep.chat_requests) == 9
