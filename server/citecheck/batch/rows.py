"""A checked document → the rows of the two Parquet tables (pure).

Each finding row is built from ``report.json.finding_json``, the JSON report's own view of a finding, so
``citecheck batch`` and ``citecheck check --format json`` cannot disagree on a kind, a severity, a span or
a message. Evidence and fixes, nested in the JSON report, are kept as JSON text columns.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from citecheck.findings import Severity
from citecheck.report.model import FileResult

#: Columns of the findings table, in order (docs/scale.md, "Output").
FINDING_COLUMNS = (
    "document",
    "kind",
    "title",
    "severity",
    "start",
    "end",
    "line",
    "column",
    "end_line",
    "end_column",
    "page",
    "message",
    "citation_index",
    "citation",
    "evidence_source",
    "evidence",
    "fixes",
)

#: Columns of the documents table, in order.
DOCUMENT_COLUMNS = (
    "path",
    "kind",
    "characters",
    "citations",
    "findings",
    "errors",
    "warnings",
    "infos",
    "error",
    "error_kind",
    "seconds",
)


@dataclass(frozen=True, slots=True, kw_only=True)
class DocOutcome:
    """What one document gave: its row in the documents table and its finding rows.

    ``error_kind``: ``input`` (the file could not be read: ``InputError``'s one line), ``timeout``,
    ``crashed`` (the worker died: a hostile document that exhausted memory or broke the interpreter)
    or ``internal`` (a bug, named by its exception type); ``None`` when it was checked."""

    path: str
    seconds: float
    kind: str | None = None
    characters: int = 0
    citations: int = 0
    findings: tuple[dict[str, Any], ...] = ()
    error: str | None = None
    error_kind: str | None = None
    counts: dict[str, int] = field(default_factory=dict)

    @property
    def failed(self) -> bool:
        return self.error is not None

    def document_row(self) -> dict[str, Any]:
        return {
            "path": self.path,
            "kind": self.kind,
            "characters": self.characters,
            "citations": self.citations,
            "findings": len(self.findings),
            "errors": self.counts.get(Severity.ERROR.value, 0),
            "warnings": self.counts.get(Severity.WARNING.value, 0),
            "infos": self.counts.get(Severity.INFO.value, 0),
            "error": self.error,
            "error_kind": self.error_kind,
            "seconds": round(self.seconds, 6),
        }


def outcome_of(path: str, file: FileResult, seconds: float) -> DocOutcome:
    """The rows of a checked file: one per finding the JSON report lists, in its order."""
    from citecheck.report.json import finding_json

    rows = []
    counts = {s.value: 0 for s in Severity}
    for f in file.sorted_findings():
        j = finding_json(file, f)
        counts[j["severity"]] += 1
        index = j["citation_index"]
        cited = file.citations[index].text if index is not None and 0 <= index < len(file.citations) else None
        rows.append(
            {
                "document": path,
                "kind": j["kind"],
                "title": j["title"],
                "severity": j["severity"],
                **{k: j["span"][k] for k in ("start", "end", "line", "column", "end_line", "end_column")},
                "page": j["page"],
                "message": j["message"],
                "citation_index": index,
                "citation": cited,
                "evidence_source": j["evidence"].get("source"),
                "evidence": json.dumps(j["evidence"], ensure_ascii=False, sort_keys=True),
                "fixes": json.dumps(j["fixes"], ensure_ascii=False),
            }
        )
    return DocOutcome(
        path=path,
        seconds=seconds,
        kind=file.kind,
        characters=len(file.text),
        citations=len(file.citations),
        findings=tuple(rows),
        counts=counts,
    )


def failed(path: str, seconds: float, error: str, error_kind: str) -> DocOutcome:
    """The one row of a document that could not be checked (no finding rows)."""
    return DocOutcome(path=path, seconds=seconds, error=error, error_kind=error_kind)
