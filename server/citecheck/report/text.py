"""Terminal report: a rich table grouped by severity on a TTY, compiler-style plain lines otherwise.

Plain output (``path:line:col: severity kind: message``) is what editors, grep and CI logs parse,
so it carries no colour or box drawing. Pure: returns a string.
"""

from __future__ import annotations

import io
from collections.abc import Iterator

from citecheck.findings import Kind, Severity
from citecheck.report.model import (
    BatchResult,
    FileResult,
    cited_text,
    evidence_items,
    first_run_note,
    forum_line,
    index_summary,
    notes,
    plain_message,
    treatment_summary,
    unread_note,
    weight_summary,
)
from citecheck.report.summary import in_words, tally

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
    """The file's counts in plain words that add up (``report.summary.in_words``), and how many of its full
    citations the citation index answered."""
    covered = index_summary(file)  # "the citation index answered 3 of 12 full citations"
    unread = unread_note(file)  # scanned pages: "No citations" must not read as "nothing wrong"
    return (
        in_words(tally([file]))
        + (f" Sources: {covered}." if covered else "")
        + (f" {unread}" if unread else "")
    )


#: Info findings whose lines say only "could not be verified" / "not checked": their evidence and the
#: sentence "This is not a finding …" are said once, in the notes, not under each of them (issue 36).
_BARE = frozenset({Kind.CANNOT_VERIFY, Kind.STATUTE_NOT_CHECKED})


def _jurisdiction(file: FileResult) -> str:
    weights = weight_summary(file)
    return forum_line(file) + (f" {weights[0].upper()}{weights[1:]}." if weights else "")


def render_plain(batch: BatchResult) -> str:
    """One line per finding, evidence indented below it; a summary line per file."""
    return "\n".join(plain_lines(batch)) + "\n"


def plain_lines(batch: BatchResult) -> list[str]:
    """``render_plain``'s lines, without their line ends."""
    return list(iter_plain_lines(batch))


def iter_plain_lines(batch: BatchResult) -> Iterator[str]:
    """``plain_lines`` one at a time, as they are made: the CLI writes each and lets it go (a
    100,000-citation report joined into one string, and that string encoded, held it three times over;
    the list of its lines, ~150,000 strings, still held it once: issue 40)."""
    first = first_run_note(batch)
    if first is not None:  # said first and plainly: most citations were not checked at all
        yield f"note: {first}"
    for file in batch.files:
        for f in file.sorted_findings():
            where = file.location(f.span.start)
            sep = ": " if file.places else ":"  # "brief.docx: paragraph 13:" / "brief.md:21:591:"
            bare = f.kind in _BARE
            message = plain_message(f) if bare else f.message
            yield f"{file.name}{sep}{where}: {f.severity.value} {f.kind.value}: {message}"
            yield f"    cited: {_one_line(cited_text(file, f))}"
            if (page := file.page_at(f.span.start)) is not None:
                yield f"    pdf page: {page}"
            for label, value in () if bare else evidence_items(f):
                yield f"    {label.lower()}: {_one_line(value)}"
            for fix in f.fixes:
                yield f"    fix: {_one_line(fix.describe())}"
        yield f"{file.name}: {_summary(file)}"
        yield f"{file.name}: {_jurisdiction(file)}"
        if treatment := treatment_summary(file):
            yield f"{file.name}: {treatment}"
    for err in batch.errors:
        yield f"{err.name}: error: {err.message}"
    for note in notes(batch):
        if note != first:
            yield f"note: {note}"


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
                bare = f.kind in _BARE
                body = Text(plain_message(f) if bare else f.message)
                for label, value in () if bare else evidence_items(f):
                    if label not in _TABLE_EVIDENCE:
                        continue
                    body.append(f"\n{label}: ", style="dim")
                    body.append(_one_line(value, 240))
                for fix in f.fixes:
                    body.append("\nfix: ", style="green")
                    body.append(fix.describe())
                page = file.page_at(f.span.start)
                table.add_row(
                    file.place(f.span.start) if page else file.location(f.span.start),
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
