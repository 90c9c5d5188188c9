"""Scoring: substring span matching, only error/warning findings count, per-type precision/recall."""

from __future__ import annotations

import pytest

from citecheck.errors import InputError
from citecheck.evaluation.scoring import (
    Example,
    Prediction,
    Scores,
    category_of,
    parse_dataset,
    predictions,
    score_example,
    spans_match,
)
from citecheck.findings import Kind, Severity, make_finding
from citecheck.spans import Span


def test_parse_lephantomcite_lines() -> None:
    lines = [
        '{"text": "A v. B, 1 F.3d 2.", "hallucinations": {"1 F.3d 2": "Non-existent case"}, "optional": ["x"]}',
        "",
        '{"text": "clean", "hallucinations": {}}',
    ]
    ex = parse_dataset(lines)
    assert [e.gold for e in ex] == [(("1 F.3d 2", "nonexistent-case"),), ()]


@pytest.mark.parametrize("line", ["{bad", '["text"]', '{"text": 3}', '{"text": "x", "hallucinations": 5}'])
def test_bad_lines_are_input_errors(line: str) -> None:
    with pytest.raises(InputError, match="dataset:1"):
        parse_dataset([line])


def test_spans_match_either_way() -> None:
    assert spans_match("1006", "100 A.3d 1004, 1006")
    assert spans_match("Boone v. Vinson, 15 F.3d 1338", "Boone v. Vinson")
    assert not spans_match("Cinel", "Boone v. Vinson")
    assert not spans_match("", "x")


def test_info_findings_are_not_predictions() -> None:
    text = "Doe v. Roe, 1 F.3d 2."
    fs = [
        make_finding(Kind.CANNOT_VERIFY, Span(12, 20), "not covered"),
        make_finding(Kind.FABRICATED_CASE, Span(12, 20), "no such case"),
    ]
    [p] = predictions(text, fs)
    assert (p.span_text, p.category) == ("1 F.3d 2", "nonexistent-case")
    assert all(f.severity is not Severity.INFO for f in fs[1:])


def test_precision_recall_per_type() -> None:
    scores = Scores()
    ex = Example(
        text="t", gold=(("Boone v. Vinson", "name-mismatch"), ("1 F.3d 2, 9", "wrong-pincite")), id="a"
    )
    preds = [
        Prediction(span_text="Boone v. Vinson", category="name-mismatch", kind="name-mismatch", message=""),
        Prediction(span_text="clearly", category="misquote", kind="misquote", message=""),  # false alarm
    ]
    score_example(scores, ex, preds)
    score_example(scores, Example(text="t", gold=(), id="b"), [])
    assert scores.overall.gold == 2 and scores.overall.gold_hit == 1
    assert scores.overall.precision == 0.5 and scores.overall.recall == 0.5
    assert scores.by_type["name-mismatch"].f1 == 1.0
    assert scores.by_type["wrong-pincite"].recall == 0.0
    assert scores.by_type["misquote"].precision == 0.0
    assert scores.misses == [("a", "1 F.3d 2, 9", "wrong-pincite")]
    assert scores.false_alarms[0][1] == "clearly"
    assert scores.to_json()["examples"] == 2


def test_category_aliases() -> None:
    assert category_of("Incorrect pincite") == "wrong-pincite"
    assert category_of("case name mismatch") == "name-mismatch"


def test_optional_spans_count_neither_way() -> None:
    [ex] = parse_dataset(['{"text": "t", "hallucinations": {}, "optional": ["Roe v. Wade"]}'])
    assert ex.optional == ("Roe v. Wade",)
    scores = Scores()
    score_example(
        scores,
        ex,
        [Prediction(span_text="Roe v. Wade", category="name-mismatch", kind="name-mismatch", message="")],
    )
    assert scores.overall.pred == 0 and not scores.false_alarms
