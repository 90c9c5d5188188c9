"""The API's answers: the JSON report (``report/json.py``, the one place a finding is serialised) with
each citation, finding and fix edit also placed in Word terms (paragraph, UTF-16 start/end).

Pure: takes the layout, the pipeline's report and the ignore list, returns plain JSON data.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from citecheck import __version__
from citecheck.config import Settings
from citecheck.errors import InputError
from citecheck.findings import Finding
from citecheck.ignores import IgnoreKey, Ignores, key_for
from citecheck.report.json import report_dict
from citecheck.report.model import BatchResult, file_result
from citecheck.results import Report
from citecheck.serve.paragraphs import PARTS, Layout
from citecheck.spans import Span
from citecheck.visible import visible_keyed

API_VERSION = 1
DOCUMENT_NAME = "Word document"


def parse_paragraphs(body: Any, max_chars: int) -> tuple[list[str], list[str]]:
    """``paragraphs`` of a check request: strings or ``{"text", "part"}``; returns texts and parts."""
    raw = body.get("paragraphs") if isinstance(body, dict) else None
    if not isinstance(raw, list):
        raise InputError("'paragraphs' must be a list of paragraphs")
    texts, parts, total = [], [], 0
    for i, p in enumerate(raw):
        text, part = (
            (p, "body")
            if isinstance(p, str)
            else ((p.get("text"), p.get("part", "body")) if isinstance(p, dict) else (None, None))
        )
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
    return {
        "paragraph": at.paragraph,
        "start": at.start,
        "end": at.end,
        "part": parts[at.paragraph] if at.paragraph < len(parts) else "body",
        "text": span.of(layout.text),
    }


def visible_findings(
    report: Report, layout: Layout, settings: Settings, ignores: Ignores
) -> tuple[Report, list[IgnoreKey], int]:
    """The report as the user sees it (``visible``: the rule the CLI and the language server share),
    each shown finding's ignore key, and how many findings the ignore list hid."""
    keys: dict[int, IgnoreKey] = {}

    def key_of(f: Finding) -> IgnoreKey:
        k = keys.get(id(f))
        if k is None:
            k = keys[id(f)] = key_for(f, report.extraction, layout.text)
        return k

    everything = visible_keyed(report.findings, settings, None, key_of)
    kept = visible_keyed(report.findings, settings, ignores, key_of)
    shown = report.with_findings(f for f, _ in kept)
    return shown, [k for _, k in kept], len(everything) - len(kept)


def check_answer(
    *,
    doc_id: str,
    layout: Layout,
    parts: Sequence[str],
    report: Report,
    settings: Settings,
    ignores: Ignores,
    sources: str,
    offline: bool,
    elapsed_ms: float,
    changed: int,
) -> dict[str, Any]:
    visible, key_list, hidden = visible_findings(report, layout, settings, ignores)
    shown = list(visible.findings)
    batch = batch_of(layout, visible, sources, offline)
    doc = report_dict(batch)
    file = doc["files"][0]
    for c, cite in zip(file["citations"], batch.files[0].citations, strict=True):
        c["word"] = _where(layout, parts, cite.span)
    # report_dict lists findings most severe first; pair them with ours the same way
    ordered = sorted(
        zip(shown, key_list, strict=True),
        key=lambda fk: (-fk[0].severity.rank, fk[0].span.start, fk[0].kind.value),
    )
    for out, (f, key) in zip(file["findings"], ordered, strict=True):
        out["word"] = _where(layout, parts, f.span)
        out["ignore_key"] = key.to_json()
        for fix_out, fix in zip(out["fixes"], f.fixes, strict=True):
            for e_out, e in zip(fix_out["edits"], fix.edits, strict=True):
                e_out["word"] = _where(layout, parts, e.span)
    return {
        "api": API_VERSION,
        "document": doc_id,
        "elapsed_ms": round(elapsed_ms, 1),
        "changed_chars": changed,
        "ignored": hidden,
        "report": doc,
    }


def batch_of(layout: Layout, report: Report, sources: str, offline: bool) -> BatchResult:
    return BatchResult(
        files=(file_result(DOCUMENT_NAME, "word", layout.text, report),),
        tool_version=__version__,
        sources=sources,
        offline=offline,
    )
