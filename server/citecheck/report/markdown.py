"""Markdown report for pasting into a review: summary, table of authorities, findings with evidence.

Pure: returns a string. Table cells escape ``|`` so a case name cannot break the table.
"""

from __future__ import annotations

from citecheck.findings import Severity
from citecheck.report.model import (
    BatchResult,
    FileResult,
    Status,
    cited_text,
    evidence_items,
    forum_line,
    grouped_authorities,
    notes,
    treatment_summary,
)


def _cell(value: str) -> str:
    return " ".join(value.split()).replace("|", "\\|")


def _file_md(file: FileResult) -> list[str]:
    out = [f"## {file.name}", "", forum_line(file), ""]
    if treatment := treatment_summary(file):
        out += [treatment[0].upper() + treatment[1:] + ".", ""]
    out.append("### Table of authorities")
    for _weight, heading, members in grouped_authorities(file):
        out += [
            "",
            f"#### {heading}",
            "",
            "| Authority | Citation | Status | Weight | Cited at (line:column) | Findings |",
            "|---|---|---|---|---|---|",
        ]
        for a in members:
            places = ", ".join(f"{p.line}:{p.column}" for p in a.places)
            why = _cell(a.weight.reason) if a.weight else ""
            out.append(
                f"| *{_cell(a.name) or '—'}* | {_cell(a.cite)} | {a.status.value} | {why} | {places} | "
                f"{_cell(', '.join(a.kinds))} |"
            )
    findings = file.sorted_findings()
    out += ["", f"### Findings ({len(findings)})", ""]
    if not findings:
        out.append("No findings.")
    for f in findings:
        page = file.page_at(f.span.start)
        where = file.location(f.span.start) + (f" (PDF page {page})" if page else "")
        out.append(
            f"- **{f.severity.value}** `{f.kind.value}` at {where} — `{_cell(cited_text(file, f))}`: "
            f"{_cell(f.message)}"
        )
        for label, value in evidence_items(f):
            out.append(f"  - {label}: {_cell(value)}")
        for fix in f.fixes:
            out.append(f"  - Suggested fix: {_cell(fix.describe())}")
    out.append("")
    return out


def render_markdown(batch: BatchResult) -> str:
    status = batch.status_counts()
    out = [
        "# Citation check",
        "",
        f"{len(batch.files)} file(s), {sum(len(f.citations) for f in batch.files)} citations: "
        + ", ".join(f"{batch.count(s)} {s.value}" for s in Severity)
        + " findings; "
        + ", ".join(f"{status[s.value]} {s.value}" for s in Status)
        + ".",
        "",
    ]
    for note in notes(batch):
        out += [f"> {note}", ""]
    if batch.errors:
        out += ["## Files that could not be read", ""]
        out += [f"- `{e.name}`: {_cell(e.message)}" for e in batch.errors]
        out.append("")
    for file in batch.files:
        out += _file_md(file)
    return "\n".join(out)
