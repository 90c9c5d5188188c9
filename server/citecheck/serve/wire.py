"""The API's answers: the JSON report (``report/json.py``, the one place a finding is serialised) with
each citation, finding and fix edit also placed in Word terms (paragraph, UTF-16 start/end).

Pure: takes the layout, the pipeline's report and the ignore list, returns plain JSON data.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from citecheck import __version__
from citecheck.errors import InputError
from citecheck.findings import Finding
from citecheck.lsp.ignore import IgnoreKey, IgnoreStore, key_for
from citecheck.report.json import report_dict
from citecheck.report.model import BatchResult, file_result
from citecheck.serve.paragraphs import PARTS, Layout
from citecheck.spans import Span

API_VERSION = 1
DOCUMENT_NAME = "Word document"


def parse_paragraphs(body: Any, max_chars: int) -> tuple[list[str], list[str]]:
    """``paragraphs`` of a check request: strings or ``{"text", "part"}``; returns texts and parts."""
    raw = body.get("paragraphs") if isinstance(body, dict) else None
    if not isinstance(raw, list):
        raise InputError("'paragraphs' must be a list of paragraphs")
    texts, parts, total = [], [], 0
    for i, p in enumerate(raw):
        text, part = (p, "body") if isinstance(p, str) else (
            (p.get("text"), p.get("part", "body")) if isinstance(p, dict) else (None, None))
        if not isinstance(text, str):
            raise InputError(f"paragraph {i} has no text")
        if part not in PARTS:
            raise InputError(f"paragraph {i}: unknown part {part!r} (one of {', '.join(PARTS)})")
        total += len(text) + 2
        if total > max_chars:
            raise InputError(f"the document is larger than the limit of {max_chars:,} characters")
        texts.append(text)
        parts.append(part)
    return texts, parts


def _where(layout: Layout, parts: Sequence[str], span: Span) -> dict[str, Any]:
    at = layout.locate(span)
    return {"paragraph": at.paragraph, "start": at.start, "end": at.end,
            "part": parts[at.paragraph] if at.paragraph < len(parts) else "body",
            "text": span.of(layout.text)}


def visible_findings(report: Any, layout: Layout, ignores: IgnoreStore) -> tuple[list[Finding], list[IgnoreKey], int]:
    """The findings not on the ignore list, their ignore keys, and how many were left out."""
    shown, keys, hidden = [], [], 0
    for f in report.findings:
        key = key_for(f, report.extraction, layout.text)
        if ignores.ignores(key):
            hidden += 1
            continue
        shown.append(f)
        keys.append(key)
    return shown, keys, hidden


def check_answer(*, doc_id: str, layout: Layout, parts: Sequence[str], report: Any, ignores: IgnoreStore,
                 sources: str, offline: bool, elapsed_ms: float, changed: int) -> dict[str, Any]:
    shown, keys, hidden = visible_findings(report, layout, ignores)
    visible = replace(report, findings=tuple(shown)) if hasattr(report, "__dataclass_fields__") else report
    batch = batch_of(layout, visible, sources, offline)
    doc = report_dict(batch)
    file = doc["files"][0]
    for c, cite in zip(file["citations"], batch.files[0].citations, strict=True):
        c["word"] = _where(layout, parts, cite.span)
    # report_dict lists findings most severe first; pair them with ours the same way
    ordered = sorted(zip(shown, keys, strict=True),
                     key=lambda fk: (-fk[0].severity.rank, fk[0].span.start, fk[0].kind.value))
    for out, (f, key) in zip(file["findings"], ordered, strict=True):
        out["word"] = _where(layout, parts, f.span)
        out["ignore_key"] = key.to_json()
        for fix_out, fix in zip(out["fixes"], f.fixes, strict=True):
            for e_out, e in zip(fix_out["edits"], fix.edits, strict=True):
                e_out["word"] = _where(layout, parts, e.span)
    return {"api": API_VERSION, "document": doc_id, "elapsed_ms": round(elapsed_ms, 1),
            "changed_chars": changed, "ignored": hidden, "report": doc}


def batch_of(layout: Layout, report: Any, sources: str, offline: bool) -> BatchResult:
    return BatchResult(files=(file_result(DOCUMENT_NAME, "word", layout.text, report),),
                       tool_version=__version__, sources=sources, offline=offline)
