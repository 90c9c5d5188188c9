"""Year and court in the parenthetical against the record."""

from __future__ import annotations

from dataclasses import replace

from citecheck.checks.parenthetical import ParentheticalCheck, courts_conflict
from citecheck.extract import extract_citations
from citecheck.findings import Kind
from citecheck_testing import make_citation


def test_year_mismatch_with_fix(make_ctx, cap_case) -> None:
    record, _ = cap_case("0036-01")  # decided 1953-11-06
    text = "Peyton v. District of Columbia, 100 A.2d 36 (D.C. 1955)."
    c = make_citation(text, "100 A.2d 36", name="Peyton v. District of Columbia", year=1955)
    [f] = ParentheticalCheck().run(make_ctx(text, [c], record=record))
    assert f.kind is Kind.YEAR_MISMATCH and "1953-11-06" in f.message
    assert f.span.of(text) == "1955" and f.fixes[0].edits[0].new_text == "1953"


def test_year_without_parentheses_is_checked(make_ctx, cap_case) -> None:
    # issue 17: "Park v. Kim, 91 F.4th 610, 2d Cir. 2024." style, read by the real extractor
    record, _ = cap_case("0036-01")  # decided 1953-11-06
    text = "Peyton v. District of Columbia, 100 A.2d 36, D.C. 1955."
    [c] = extract_citations(text).citations
    [f] = ParentheticalCheck().run(make_ctx(text, [c], record=record))
    assert (
        f.kind is Kind.YEAR_MISMATCH and f.span.of(text) == "1955" and f.fixes[0].edits[0].new_text == "1953"
    )
    text = "Peyton v. District of Columbia, 100 A.2d 36, D.C. 1953."
    [c] = extract_citations(text).citations
    assert (c.year, c.court) == (1953, "dc")
    assert list(ParentheticalCheck().run(make_ctx(text, [c], record=record))) == []


def test_right_year_gives_nothing(make_ctx, cap_case) -> None:
    record, _ = cap_case("0036-01")
    text = "Peyton v. District of Columbia, 100 A.2d 36 (D.C. 1953)."
    c = make_citation(text, "100 A.2d 36", year=1953)
    assert list(ParentheticalCheck().run(make_ctx(text, [c], record=record))) == []


def test_court_mismatch_only_between_known_unrelated_courts(make_ctx, cap_case) -> None:
    record, _ = cap_case("0036-01")
    record = replace(record, court_id="dc", court_name="District of Columbia Court of Appeals")
    text = "Peyton v. District of Columbia, 100 A.2d 36 (3d Cir. 1953)."
    c = make_citation(text, "100 A.2d 36", year=1953, court="ca3")
    c = replace(c, court_text="3d Cir.")
    [f] = ParentheticalCheck().run(make_ctx(text, [c], record=record))
    assert f.kind is Kind.COURT_MISMATCH and "3d Cir." in f.message
    assert not courts_conflict("ca3", "ca3")
    assert not courts_conflict("ca3", "21806")  # a CAP numeric id proves nothing
