"""The engine's contract: one status rule, statuses follow the findings shown."""

from __future__ import annotations

from citecheck.extract import extract_citations
from citecheck.findings import Kind, make_finding
from citecheck.results import CitationResult, Report, Status, basis_for, status_for

TEXT = "Peyton v. District of Columbia, 100 A.2d 36, 37 (D.C. 1953). Id. at 38. Supra at 4."


def test_basis_from_the_sources_alone() -> None:
    ex = extract_citations(TEXT)
    full, short = ex.citations[0], ex.citations[1]
    assert basis_for(full, full, None) is Status.CANNOT_VERIFY
    from citecheck.sources.models import CaseRecord

    assert basis_for(short, full, CaseRecord(id="x", source="cap", name="P")) is Status.VERIFIED
    assert basis_for(short, None, None) is Status.NOT_CHECKED


def test_only_warnings_and_errors_make_a_problem() -> None:
    ex = extract_citations(TEXT)
    span = ex.citations[0].span
    assert (
        status_for(Status.VERIFIED, [make_finding(Kind.PINCITE_UNVERIFIABLE, span, "no map")])
        is Status.VERIFIED
    )
    assert status_for(Status.CANNOT_VERIFY, [make_finding(Kind.MISQUOTE, span, "x")]) is Status.PROBLEM


def test_with_findings_recomputes_statuses_and_an_incomplete_report_has_none() -> None:
    ex = extract_citations(TEXT)
    f = make_finding(Kind.YEAR_MISMATCH, ex.citations[0].span, "year", citation_index=0)
    V = Status.VERIFIED
    results = tuple(CitationResult(citation_index=c.index, status=V, basis=V) for c in ex.citations)
    report = Report(text=TEXT, extraction=ex, findings=(), results=results).with_findings([f])
    assert report.result(0).status is Status.PROBLEM and report.result(1).status is V
    assert report.with_findings([]).result(0).status is V
    partial = Report(text=TEXT, extraction=ex, findings=(f,), results=(), complete=False)
    assert partial.result(0) is None
