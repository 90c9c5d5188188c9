"""Terminal report: a rich table grouped by severity on a TTY, compiler-style plain lines otherwise.

Plain output (``path:line:col: severity kind: message``) is what editors, grep and CI logs parse,
so it carries no colour or box drawing. Pure: returns a string.
"""

from __future__ import annotations

import io

from citecheck.findings import Severity
from citecheck.report.model import (
    BatchResult,
    FileResult,
    Status,
    cited_text,
    evidence_items,
    first_run_note,
    forum_line,
    index_summary,
    notes,
    statute_count,
    treatment_summary,
    weight_summary,
)

#: Evidence shown in the terminal table; the plain, JSON, HTML and Markdown reports show all of it.
_TABLE_EVIDENCE = frozenset(
    {
        "Case",
        "Citation",
        "Decided",
        "Page",
        "Draft says",
        "Opinion says",
        "Section says",
        "Difference",
        "Link",
    }
)
_STYLE = {Severity.ERROR: "bold red", Severity.WARNING: "yellow", Severity.INFO: "cyan"}


def _summary(file: FileResult) -> str:
    """``16 citations = 2 problem + 14 cannot-verify; 14 findings = 1 error + 1 warning + 12 info``.

    Two tallies that each add up to their total: citations by status (each citation once) and
    findings by severity (the lines listed above). The words are the ones the lines use.
    """
    counts = {s: 0 for s in Status}
    for st in file.statuses:
        counts[st.status] += 1
    sev = {s: sum(1 for f in file.findings if f.severity is s) for s in Severity}
    n = len(file.citations)
    parts = [f"{counts[s]} {s.value}" for s in _SUMMARY_ORDER if counts[s]]
    statutes = statute_count(file)  # "16 citations (8 statutes) = …": how many are statutes, first
    covered = index_summary(file)
    return (
        _count(n, "citation")
        + (f" ({_count(statutes, 'statute')})" if statutes else "")
        + (f" = {' + '.join(parts)}" if parts else "")
        + f"; {_count(len(file.findings), 'finding')} = {_count(sev[Severity.ERROR], 'error')} + "
        f"{_count(sev[Severity.WARNING], 'warning')} + {sev[Severity.INFO]} info"
        + (f"; {covered}" if covered else "")
    )


_SUMMARY_ORDER = (Status.PROBLEM, Status.CANNOT_VERIFY, Status.NOT_CHECKED, Status.VERIFIED)


def _unverified_note(file: FileResult) -> str:
    """Why the cannot-verify lines listed are not the cannot-verify citations counted, if they are not.

    ``11 cannot-verify lines = 10 for cannot-verify citations + 1 for a citation counted as a
    problem; 4 more cannot-verify citations are short forms (Id., supra), which get no line of their
    own``. The count is per citation status; a short form inherits its antecedent's status but gets no
    line of its own, and a citation with a problem may also have a cannot-verify line.
    """
    from citecheck.extract.models import CiteForm
    from citecheck.findings import Kind

    listed = {f.citation_index for f in file.findings if f.kind is Kind.CANNOT_VERIFY}
    lines = sum(1 for f in file.findings if f.kind is Kind.CANNOT_VERIFY)
    status = {st.index: st.status for st in file.statuses}
    unverified = {i for i, st in status.items() if st is Status.CANNOT_VERIFY}
    unlisted = unverified - listed
    also = {i for i in listed if i is not None and status.get(i) is not Status.CANNOT_VERIFY}
    if not unlisted and not also:
        return ""
    forms = {c.index: c.form for c in file.citations}
    short = {
        i
        for i in unlisted
        if forms.get(i) in (CiteForm.ID, CiteForm.SHORT, CiteForm.SUPRA, CiteForm.REFERENCE)
    }
    own = len(unverified & listed)
    note = (
        f"{_count(lines, 'cannot-verify line')} = {own} for "
        f"{'a cannot-verify citation' if own == 1 else 'cannot-verify citations'}"
    )
    if also:
        note += f" + {len(also)} for {'a citation' if len(also) == 1 else 'citations'} counted as a problem"
    more = []
    if short:
        more.append(
            f"{len(short)} more cannot-verify citation{'s are' if len(short) != 1 else ' is a'} short "
            f"form{'s' if len(short) != 1 else ''} (Id., supra), which get{'s' if len(short) == 1 else ''} "
            "no line of their own"
        )
    if unlisted - short:
        more.append(f"{len(unlisted - short)} more have no line: the cannot-verify check is turned off")
    return "; ".join([note, *more])


def _jurisdiction(file: FileResult) -> str:
    weights = weight_summary(file)
    return forum_line(file) + (f" {weights[0].upper()}{weights[1:]}." if weights else "")


def _count(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def render_plain(batch: BatchResult) -> str:
    """One line per finding, evidence indented below it; a summary line per file."""
    return "\n".join(plain_lines(batch)) + "\n"


def plain_lines(batch: BatchResult) -> list[str]:
    """``render_plain``'s lines, without their line ends: the CLI writes them one by one (a 100,000-citation
    report joined into one string, and that string encoded, held it three times over)."""
    lines: list[str] = []
    first = first_run_note(batch)
    if first is not None:  # said first and plainly: most citations were not checked at all
        lines.append(f"note: {first}")
    for file in batch.files:
        for f in file.sorted_findings():
            where = file.location(f.span.start)
            sep = ": " if file.places else ":"  # "brief.docx: paragraph 13:" / "brief.md:21:591:"
            lines.append(f"{file.name}{sep}{where}: {f.severity.value} {f.kind.value}: {f.message}")
            lines.append(f"    cited: {_one_line(cited_text(file, f))}")
            if (page := file.page_at(f.span.start)) is not None:
                lines.append(f"    pdf page: {page}")
            for label, value in evidence_items(f):
                lines.append(f"    {label.lower()}: {_one_line(value)}")
            for fix in f.fixes:
                lines.append(f"    fix: {_one_line(fix.describe())}")
        lines.append(f"{file.name}: {_summary(file)}")
        if note := _unverified_note(file):
            lines.append(f"{file.name}: {note}")
        lines.append(f"{file.name}: {_jurisdiction(file)}")
        if treatment := treatment_summary(file):
            lines.append(f"{file.name}: {treatment}")
    for err in batch.errors:
        lines.append(f"{err.name}: error: {err.message}")
    for note in notes(batch):
        if note != first:
            lines.append(f"note: {note}")
    return lines


def _one_line(value: str, limit: int = 300) -> str:
    value = " ".join(value.split())
    return value if len(value) <= limit else value[: limit - 1] + "…"


def render_rich(batch: BatchResult, *, width: int = 120, color: bool = True) -> str:
    """Tables grouped by severity for a person at a terminal."""
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

    buf = io.StringIO()
    console = Console(
        file=buf,
        width=width,
        force_terminal=color,
        no_color=not color,
        color_system="standard" if color else None,
        highlight=False,
    )
    first = first_run_note(batch)
    if first is not None:  # said first and plainly: most citations were not checked at all
        console.print(Text("note: ", style="bold yellow") + Text(first))
        console.print()
    for file in batch.files:
        console.print(Text(file.name, style="bold"), Text(" — " + _summary(file)))
        if note := _unverified_note(file):
            console.print(Text(f"  ({note})", style="dim"))
        console.print(Text(_jurisdiction(file), style="dim"))
        if treatment := treatment_summary(file):
            console.print(Text(treatment, style="dim"))
        for severity in Severity:
            group = [f for f in file.sorted_findings() if f.severity is severity]
            if not group:
                continue
            table = Table(
                title=f"{severity.value} ({len(group)})",
                title_style=_STYLE[severity],
                title_justify="left",
                show_lines=True,
                expand=True,
            )
            table.add_column("where", no_wrap=True)
            table.add_column("kind", style=_STYLE[severity], no_wrap=True)
            table.add_column("citation", ratio=2)
            table.add_column("message and evidence", ratio=5)
            for f in group:
                body = Text(f.message)
                for label, value in evidence_items(f):
                    if label not in _TABLE_EVIDENCE:
                        continue
                    body.append(f"\n{label}: ", style="dim")
                    body.append(_one_line(value, 240))
                for fix in f.fixes:
                    body.append("\nfix: ", style="green")
                    body.append(fix.describe())
                page = file.page_at(f.span.start)
                table.add_row(
                    file.location(f.span.start) + (f"\np. {page}" if page else ""),
                    f.kind.value,
                    _one_line(cited_text(file, f)),
                    body,
                )
            console.print(table)
        console.print()
    for err in batch.errors:
        console.print(Text(f"{err.name}: error: {err.message}", style="bold red"))
    for note in notes(batch):
        if note != first:
            console.print(Text("note: ", style="bold") + Text(note))
    return buf.getvalue()


def render_text(batch: BatchResult, *, tty: bool = False, width: int = 120, color: bool = True) -> str:
    return render_rich(batch, width=width, color=color) if tty else render_plain(batch)
