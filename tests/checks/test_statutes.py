"""Statutes offline (issue 27 item 2): impossible U.S.C./C.F.R. titles, and every other statute citation
reported as not checked, naming its code; never silent, never an accusation."""

from __future__ import annotations

import asyncio

import pytest

from citecheck.checks.statutes import title_problem
from citecheck.config import Settings
from citecheck.extract import CiteForm, Statute, StatuteForm, extract_citations
from citecheck.findings import Kind, Severity
from citecheck.judge import SourceEvidence, judge
from citecheck.pipeline import check_document
from citecheck.results import Status

BRIEF = (
    "Plaintiff sues under 42 U.S.C. § 1983 and 28 U.S.C. §§ 1331, 1343(a)(3). The rule, 17 C.F.R. "
    "§ 240.10b-5(b), is not at issue. Under § 1983, a person may sue. Id. § 1988(b).\n\n"
    "North Carolina's N.C. Gen. Stat. § 1A-1, Rule 12(b)(6), Kentucky's KRS 446.070 and Fla. Stat. "
    "§ 768.28(9)(a) (2020) are cited too, as is § 2000e, whose code is not named.\n\n"
    "So are 55 U.S.C. § 100, 53 U.S.C. § 1 and 51 C.F.R. § 1.1, which do not exist, and "
    "50 U.S.C. App. § 2401 and 35 C.F.R. § 61.1, which once did.\n"
)


def _report():
    return asyncio.run(check_document(BRIEF, None, Settings()))


def _by_text(report, text: str) -> list[tuple[str, str]]:
    idx = {c.index for c in report.extraction.citations if c.text == text}
    assert idx, text
    return sorted((f.kind.value, f.severity.value) for f in report.findings if f.citation_index in idx)


@pytest.mark.parametrize(
    ("code", "title", "bad"),
    [
        ("usc", "55", True),
        ("usc", "53", True),  # reserved, never held a section
        ("usc", "0", True),
        ("usc", "54", False),
        ("usc", "6", False),  # repealed in 1947, reused since 2002
        ("usc", "50a", False),  # an appendix: not certain
        ("cfr", "51", True),
        ("cfr", "50", False),
        ("cfr", "35", False),  # reserved since 1999, but older opinions cite it correctly
        ("Fla. Stat.", "99", False),  # no offline knowledge of state codes
    ],
)
def test_titles_that_cannot_exist(code: str, title: str, bad: bool) -> None:
    s = Statute(form=StatuteForm.FULL, code=code, title=title, section="1")
    assert (title_problem(s) is not None) is bad


def test_impossible_titles_are_errors_with_their_source() -> None:
    report = _report()
    for text in ("55 U.S.C. § 100", "53 U.S.C. § 1", "51 C.F.R. § 1.1"):
        assert _by_text(report, text) == [("impossible-citation", "error")], text
    f = next(f for f in report.findings if f.kind is Kind.IMPOSSIBLE_CITATION and "55" in f.message)
    assert f.evidence.source == "Office of the Law Revision Counsel's title list"
    assert "titles 1 to 54" in f.message and "no title 55" in f.message


def test_every_other_statute_is_not_checked_naming_its_code() -> None:
    report = _report()
    assert _by_text(report, "42 U.S.C. § 1983") == [("statute-not-checked", "info")]
    assert _by_text(report, "KRS 446.070") == [("statute-not-checked", "info")]
    msg = {f.span.of(report.text): f.message for f in report.findings if f.kind is Kind.STATUTE_NOT_CHECKED}
    assert "the U.S. Code" in msg["42 U.S.C. § 1983"] and "corpus sync --statutes" in msg["42 U.S.C. § 1983"]
    assert "the Code of Federal Regulations" in msg["17 C.F.R. § 240.10b-5(b)"]
    assert "Ky. Rev. Stat. Ann. (Kentucky)" in msg["KRS 446.070"]
    assert "N.C. Gen. Stat. (North Carolina)" in msg["N.C. Gen. Stat. § 1A-1"]
    assert "not named" in msg["§ 2000e"]  # an unresolved short form says its code is unknown
    # the appendix and the once-used title are not accused: only "not checked"
    assert _by_text(report, "50 U.S.C. App. § 2401") == [("statute-not-checked", "info")]
    assert _by_text(report, "35 C.F.R. § 61.1") == [("statute-not-checked", "info")]


def test_no_statute_is_silent_and_none_is_an_accusation() -> None:
    report = _report()
    statutes = [c for c in report.extraction.citations if c.form is CiteForm.STATUTE]
    assert len(statutes) == 14
    impossible = {"55 U.S.C. § 100", "53 U.S.C. § 1", "51 C.F.R. § 1.1"}
    for c in statutes:
        result = report.result(c.index)
        assert result is not None
        want = Status.PROBLEM if c.text in impossible else Status.NOT_CHECKED
        assert result.status is want, c.text
        has_finding = any(f.citation_index == c.index for f in report.findings)
        resolved_short = (
            c.statute is not None and c.statute.form is not StatuteForm.FULL and c.antecedent is not None
        )
        assert has_finding or resolved_short, c.text  # a resolved short form shares its full citation's
    errors = [f for f in report.findings if f.severity is Severity.ERROR]
    assert {f.span.of(report.text) for f in errors} == impossible


def test_a_statute_index_covering_the_title_takes_over_from_not_checked() -> None:
    ex = extract_citations(BRIEF)
    evidence = SourceEvidence(source_name="statute index", statute_titles=frozenset({("usc", "42")}))
    report = judge(ex, evidence, Settings())
    kinds = {f.span.of(BRIEF): f.kind for f in report.findings}
    assert "42 U.S.C. § 1983" not in kinds  # the index's own checks speak for it
    assert kinds["28 U.S.C. §§ 1331, 1343(a)(3)"] is Kind.STATUTE_NOT_CHECKED  # title 28 is not covered
    whole = judge(ex, SourceEvidence(statute_titles=frozenset({("usc", None)})), Settings())
    assert not any(
        f.kind is Kind.STATUTE_NOT_CHECKED and "U.S.C." in f.span.of(BRIEF) for f in whole.findings
    )


def test_the_not_checked_finding_can_be_turned_off_but_never_raised() -> None:
    report = asyncio.run(
        check_document(BRIEF, None, Settings(severity_overrides={"statute-not-checked": Severity.ERROR}))
    )
    assert all(f.severity is Severity.INFO for f in report.findings if f.kind is Kind.STATUTE_NOT_CHECKED)
