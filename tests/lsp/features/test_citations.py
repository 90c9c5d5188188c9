"""The ``citecheck/citations`` payload (its shape is documented in docs/editors.md)."""

from __future__ import annotations

from citecheck.extract import extract_citations
from citecheck.findings import Kind, make_finding
from citecheck.ignores import IgnoreKey
from citecheck.lsp.convert import Shown
from citecheck.lsp.features.citations import citations_payload
from citecheck.lsp.features.docstate import DocState
from citecheck.results import CitationResult, Report, Status
from citecheck.sources.models import CaseRecord

TEXT = "😀 Peyton v. District of Columbia, 100 A.2d 36, 37 (D.C. 1953). Id. at 38.\n"


def _state(with_report: bool) -> DocState:
    ex = extract_citations(TEXT)
    state = DocState(uri="file:///a.txt", language_id="plaintext", version=4, text=TEXT)
    state.extraction, state.extraction_version = ex, 4
    finding = make_finding(Kind.YEAR_MISMATCH, ex.citations[0].span, "year", citation_index=0)
    state.shown = (Shown(finding, IgnoreKey(kind="year-mismatch", citation="100 a.2d 36")),)
    if with_report:
        record = CaseRecord(
            id="cap:1", source="cap", name="Peyton v. District of Columbia", decision_date="1953-11-06"
        )
        P, V = Status.PROBLEM, Status.VERIFIED
        results = tuple(
            CitationResult(citation_index=c.index, status=P, basis=V, record=record) for c in ex.citations
        )
        state.report = Report(text=TEXT, extraction=ex, findings=(finding,), results=results)
        state.report_version = 4
    return state


def test_payload_shape_and_utf16_ranges() -> None:
    payload = citations_payload(_state(True), "utf-16")
    assert payload["uri"] == "file:///a.txt" and payload["version"] == 4
    first, second = payload["citations"]
    assert first["range"]["start"] == {"line": 0, "character": TEXT.index("100") + 1}  # emoji = 2 units
    assert first["citeKey"] == "100 A.2d 36" and first["status"] == "problem"
    assert first["record"]["name"] == "Peyton v. District of Columbia"
    assert first["findings"] == [{"kind": "year-mismatch", "severity": "warning", "message": "year"}]
    assert first["severity"] == "warning"
    assert second["form"] == "id" and second["antecedent"] == 0 and second["findings"] == []


def test_pending_without_a_current_report() -> None:
    payload = citations_payload(_state(False), "utf-8")
    assert {c["status"] for c in payload["citations"]} == {"pending"}
    assert payload["citations"][0]["record"] is None
