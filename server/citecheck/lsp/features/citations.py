"""The ``citecheck/citations`` notification and the per-citation view shared with hover/report.

Side panels (the VS Code tree view, the Word add-in) render a document's citations from this one
JSON shape, documented in docs/editors.md.  A citation without a result is ``"pending"`` (no
complete report for this version yet); a status counts only the findings the user sees.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from citecheck.extract.models import Citation
from citecheck.findings import Finding
from citecheck.lsp.positions import LineIndex, span_to_range
from citecheck.report.json import statute_json
from citecheck.results import CitationResult, Report, status_for
from citecheck.sources.models import CaseRecord
from citecheck.spans import Span

if TYPE_CHECKING:
    from citecheck.lsp.features.docstate import DocState

PENDING = "pending"


def result_for(report: Report | None, citation: Citation) -> CitationResult | None:
    """The report's result for ``citation`` (None: no complete report for this version yet)."""
    return report.result(citation.index) if report is not None else None


def status_text(result: CitationResult | None, shown: Sequence[Finding]) -> str:
    """The citation's status given the findings the user sees on it (dismissed ones do not count)."""
    return status_for(result.basis, shown).value if result is not None else PENDING


def record_json(record: CaseRecord | None) -> dict[str, Any] | None:
    if record is None:
        return None
    return {
        "id": record.id,
        "name": record.name,
        "court": record.court_name or record.court_id,
        "date": record.decision_date,
        "url": record.url,
        "citations": [str(c) for c in record.citations],
    }


def citations_payload(state: DocState, encoding: str) -> dict[str, Any]:
    """``{uri, version, citations: [...]}``; see docs/editors.md for each field."""
    extraction = state.extraction
    if extraction is None or state.extraction_version != state.version:
        return {"uri": state.uri, "version": state.version, "citations": []}
    index = LineIndex(state.text)
    report = state.report if state.report_version == state.version else None
    by_index: dict[int, list[Finding]] = {}
    for s in state.shown:
        f = s.finding
        if f.citation_index is not None:
            by_index.setdefault(f.citation_index, []).append(f)
    out = []
    for c in extraction.citations:
        result = result_for(report, c)
        findings = by_index.get(c.index, [])
        worst = max((f.severity for f in findings), key=lambda s: s.rank, default=None)
        out.append(
            {
                "index": c.index,
                "text": c.text,
                "form": str(c.form),
                "range": _range(index, c.span, encoding),
                "fullRange": _range(index, c.full_span, encoding),
                "caseName": c.case_name.text if c.case_name else None,
                "citeKey": c.cite_string,
                "antecedent": c.antecedent,
                "statute": statute_json(c.statute, extraction.statute_of(c))
                if c.statute is not None
                else None,
                "status": status_text(result, findings),
                "record": record_json(result.record if result is not None else None),
                "pageUsed": result.page_used if result is not None else None,
                "findings": [
                    {"kind": str(f.kind), "severity": str(f.severity), "message": f.message} for f in findings
                ],
                "severity": str(worst) if worst is not None else None,
            }
        )
    return {"uri": state.uri, "version": state.version, "citations": out}


def _range(index: LineIndex, span: Span, encoding: str) -> dict[str, Any]:
    r = span_to_range(index, span, encoding)
    return {
        "start": {"line": r.start.line, "character": r.start.character},
        "end": {"line": r.end.line, "character": r.end.character},
    }
