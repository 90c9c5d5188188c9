"""The ``citecheck/citations`` notification and the per-citation view shared with hover/report.

Side panels (the VS Code tree view, the Word add-in) render a document's citations from this one
JSON shape, documented in docs/editors.md.  Reads the pipeline's ``Report`` defensively: a
citation without a result is ``"pending"`` (stage 2 has not run for this version yet).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from citecheck.extract.models import Citation
from citecheck.lsp.positions import LineIndex, span_to_range

if TYPE_CHECKING:
    from citecheck.lsp.features.diagnostics import DocState

PENDING = "pending"


def result_for(report: Any, citation: Citation) -> Any:
    """The report's CitationResult for ``citation`` (matched by index, then by span)."""
    for r in getattr(report, "results", None) or ():
        c = getattr(r, "citation", None)
        idx = getattr(r, "citation_index", getattr(r, "index", None))
        if idx is None and c is not None:
            idx = getattr(c, "index", None)
        if idx == citation.index and (c is None or getattr(c, "span", citation.span) == citation.span):
            return r
    return None


def _results_by_index(report: Any) -> dict[int, Any]:
    out: dict[int, Any] = {}
    for r in getattr(report, "results", None) or ():
        idx = getattr(r, "citation_index", getattr(r, "index", None))
        if idx is None and (c := getattr(r, "citation", None)) is not None:
            idx = getattr(c, "index", None)
        if isinstance(idx, int):
            out[idx] = r
    return out


def record_json(record: Any) -> dict[str, Any] | None:
    if record is None:
        return None
    cites = [str(c) for c in getattr(record, "citations", ()) or ()]
    return {
        "id": getattr(record, "id", None),
        "name": getattr(record, "name", None),
        "court": getattr(record, "court_name", None) or getattr(record, "court_id", None),
        "date": getattr(record, "decision_date", None),
        "url": getattr(record, "url", None),
        "citations": cites,
    }


def _status(result: Any) -> str:
    status = getattr(result, "status", None)
    return str(getattr(status, "value", status)) if status is not None else PENDING


def citations_payload(state: DocState, encoding: str) -> dict[str, Any]:
    """``{uri, version, citations: [...]}``; see docs/editors.md for each field."""
    extraction = state.extraction
    if extraction is None or state.extraction_version != state.version:
        return {"uri": state.uri, "version": state.version, "citations": []}
    index = LineIndex(state.text)
    report = state.report if state.report_version == state.version else None
    by_index: dict[int, list[Any]] = {}
    for s in state.shown:
        f = s.finding
        if f.citation_index is not None:
            by_index.setdefault(f.citation_index, []).append(f)
    out = []
    results = _results_by_index(report)
    for c in extraction.citations:
        result = results.get(c.index)
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
                "status": _status(result) if result is not None else PENDING,
                "record": record_json(getattr(result, "record", None)),
                "pageUsed": getattr(result, "page_used", None),
                "findings": [{"kind": str(f.kind), "severity": str(f.severity), "message": f.message} for f in findings],
                "severity": str(worst) if worst is not None else None,
            }
        )
    return {"uri": state.uri, "version": state.version, "citations": out}


def _range(index: LineIndex, span: Any, encoding: str) -> dict[str, Any]:
    r = span_to_range(index, span, encoding)
    return {
        "start": {"line": r.start.line, "character": r.start.character},
        "end": {"line": r.end.line, "character": r.end.character},
    }
