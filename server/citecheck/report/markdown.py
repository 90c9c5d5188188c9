"""Markdown report for pasting into a review: summary, table of authorities, findings with evidence.

Pure: returns a string. Table cells escape ``|`` so a case name cannot break the table.
"""

from __future__ import annotations

from citecheck.findings import Finding, Severity, kind_title
from citecheck.report.help import docs_url, what_it_means
from citecheck.report.html import findings_cell
from citecheck.report.model import (
    STATUS_WORDS,
    BatchResult,
    FileResult,
    cited_at,
    cited_text,
    evidence_items,
    forum_line,
    grouped_authorities,
    notes,
    plain_message,
    treatment_summary,
    unread_note,
)
from citecheck.report.summary import count, in_words, tally


def _cell(value: str) -> str:
    return " ".join(value.split()).replace("|", "\\|")


def _toa_md(file: FileResult, severity: dict[str, int]) -> list[str]:
    """The table of authorities, a table per weight group; one message per cell."""
    out: list[str] = []
    for _weight, heading, members in grouped_authorities(file):
        out += [
            "",
            f"#### {heading}",
            "",
            "| Authority | Citation | Status | Weight | Cited at | Findings |",
            "|---|---|---|---|---|---|",
        ]
        for a in members:
            places = ", ".join(
                label + (f" (×{len(indexes)})" if len(indexes) > 1 else "")
                for label, indexes in cited_at(file, a)
            )
            why = _cell(a.weight.reason) if a.weight else ""
            out.append(
                f"| *{_cell(a.name) or '—'}* | {_cell(a.cite)} | {STATUS_WORDS[a.status]} | {why} | {_cell(places)} | "
                f"{_cell(findings_cell(a.kinds, severity))} |"
            )
    return out


def _finding_md(file: FileResult, f: Finding) -> list[str]:
    """An error or warning with its evidence, its fixes and what it means."""
    url = docs_url(f.kind)
    out = [
        f"- **{f.severity.value}** {kind_title(f.kind)} (`{f.kind.value}`) at {file.place(f.span.start)} — "
        f"`{_cell(cited_text(file, f))}`: {_cell(f.message)}"
    ]
    out += [f"  - {label}: {_cell(value)}" for label, value in evidence_items(f, plain=True)]
    out += [f"  - Suggested fix: {_cell(fix.describe())}" for fix in f.fixes]
    out.append(f"  - What this means: {_cell(what_it_means(f.kind))}" + (f" ({url})" if url else ""))
    return out


def _notes_md(file: FileResult, info: list[Finding]) -> list[str]:
    """The notes (info) as one table, a row each: what they share is said once, in the report's notes."""
    if not info:
        return []
    out = ["", f"#### Notes ({len(info)})", "", "| Where | Citation | Note | Detail |", "|---|---|---|---|"]
    for f in info:
        detail = _cell(plain_message(f)) + "".join(f" Suggested: {_cell(x.describe())}" for x in f.fixes)
        out.append(
            f"| {file.place(f.span.start)} | `{_cell(cited_text(file, f))}` | {_cell(kind_title(f.kind))} | {detail} |"
        )
    return out


def _file_md(file: FileResult, *, several: bool = False) -> list[str]:
    out = [f"## {file.name}", ""]
    if several:
        out += [in_words(tally([file])), ""]
    if unread := unread_note(file):
        out += [f"**{unread}**", ""]
    out += [forum_line(file), ""]
    if treatment := treatment_summary(file):
        out += [treatment[0].upper() + treatment[1:] + ".", ""]
    out.append("### Table of authorities")
    findings = file.sorted_findings()
    severity: dict[str, int] = {}
    for f in findings:
        severity[f.kind.value] = max(severity.get(f.kind.value, 0), f.severity.rank)
    out += _toa_md(file, severity)
    out += ["", f"### Findings ({len(findings)})", ""]
    if not findings:
        out.append("No findings.")
    for f in findings:
        if f.severity is not Severity.INFO:
            out += _finding_md(file, f)
    out += _notes_md(file, [f for f in findings if f.severity is Severity.INFO])
    out.append("")
    return out


def render_markdown(batch: BatchResult) -> str:
    files = f"{count(len(batch.files), 'file')}: " if len(batch.files) != 1 else ""
    out = ["# Citation check", "", files + in_words(tally(batch.files)), ""]
    for note in notes(batch):
        out += [f"> {note}", ""]
    if batch.errors:
        out += ["## Files that could not be read", ""]
        out += [f"- `{e.name}`: {_cell(e.message)}" for e in batch.errors]
        out.append("")
    for file in batch.files:
        out += _file_md(file, several=len(batch.files) > 1)
    return "\n".join(out)
