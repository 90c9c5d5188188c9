"""One self-contained HTML file a lawyer can file away: counts, table of authorities, findings.

No scripts, no external fonts or stylesheets: it must open the same in ten years and in a
browser with no network. Every string from the document or a source is escaped. Pure.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from html import escape

from citecheck.findings import Finding, Kind, Severity, kind_title
from citecheck.report.help import docs_url, what_it_means
from citecheck.report.model import (
    STATUS_WORDS,
    Authority,
    BatchResult,
    FileResult,
    Status,
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

#: Markdown emphasis in a draft (``*Berry v. Keith*``, ``**No. 24-CV-0417**``, ``_Id._``): its markers
#: are left out of the snippets, a star page (``at *3``) is not.
_EMPHASIS = re.compile(
    r"(?:(?<=^)|(?<=[\s(\[{\"'“‘]))(?:\*{1,3}|_{1,3})(?=[^\s\d*_])"
    r"|(?<=[^\s*_])(?:\*{1,3}|_{1,3})(?=$|[\s.,;:!?)\]}\"'”’])",
    re.M,
)
_CSS = """
body{font-family:Georgia,'Times New Roman',serif;max-width:70rem;margin:2rem auto;padding:0 1rem;color:#1b1b1b}
h1{font-size:1.6rem}h2{font-size:1.3rem;border-bottom:1px solid #ccc;padding-bottom:.2rem;margin-top:2rem}
table{border-collapse:collapse;width:100%;margin:.5rem 0 1rem}
th,td{border:1px solid #ccc;padding:.35rem .5rem;text-align:left;vertical-align:top;font-size:.95rem}
th{background:#f3f3f3}
.summary{font-size:1.1rem}
.notes td:first-child,.notes code{white-space:nowrap}
.status,.sev{display:inline-block;padding:0 .4rem;border-radius:.25rem;font-family:sans-serif;font-size:.8rem}
.status.problem,.sev.error{background:#fde2e1;color:#8a1111}.sev.warning{background:#fff3cd;color:#7a5200}
.status.cannot-verify,.sev.info,.status.not-checked{background:#e3eef9;color:#1d4f80}
.status.verified{background:#e0f2e3;color:#1e5e2b}
.weight{display:inline-block;padding:0 .4rem;border-radius:.25rem;font-family:sans-serif;font-size:.8rem}
.weight.binding{background:#e0f2e3;color:#1e5e2b}.weight.persuasive{background:#f1e8fb;color:#4b2a7a}
.weight.unknown{background:#eee;color:#444}.why{font-size:.85rem;color:#444}
.finding{border:1px solid #ddd;border-left:.35rem solid #999;padding:.5rem .8rem;margin:.8rem 0}
.finding.error{border-left-color:#c62828}.finding.warning{border-left-color:#e0a800}
.finding.info{border-left-color:#3b78b5}.finding h4{margin:.2rem 0;font-size:1.05rem}
.finding .where{margin:.2rem 0;font-size:.9rem;color:#444}.kind{color:#666;font-size:.8rem}
.finding dl{display:grid;grid-template-columns:9rem 1fr;gap:.2rem .8rem;margin:.4rem 0}
.finding dt{font-weight:bold;font-family:sans-serif;font-size:.85rem}.finding dd{margin:0}
.context{background:#fafafa;border:1px dashed #ddd;padding:.3rem .5rem;white-space:pre-wrap}
mark{background:#ffe58f}code{font-size:.9rem}.note{background:#f4f8fc;padding:.6rem;border:1px solid #d6e4f2}
"""


def _badge(value: str, cls: str, words: str | None = None) -> str:
    return f'<span class="{cls} {escape(value)}">{escape(words or value)}</span>'


def _status_badge(status: Status) -> str:
    return _badge(status.value, "status", STATUS_WORDS[status])


def _context(file: FileResult, f: Finding, radius: int = 160) -> str:
    start = max(0, f.span.start - radius)
    end = min(len(file.text), f.span.end + radius)
    before, hit, after = file.text[start : f.span.start], f.span.of(file.text), file.text[f.span.end : end]
    if file.kind == "markdown":  # the draft as its reader sees it, not its markup
        before, hit, after = (_EMPHASIS.sub("", part) for part in (before, hit, after))
    return (
        ("…" if start else "")
        + escape(before)
        + f"<mark>{escape(hit)}</mark>"
        + escape(after)
        + ("…" if end < len(file.text) else "")
    )


def _code(escaped: str) -> str:
    """``citecheck corpus import PATH`` (backticks) in a note (written for terminals too) as code, not backticks."""
    return re.sub(r"`([^`]+)`", r"<code>\1</code>", escaped)


def _link(value: str) -> str:
    if value.startswith(("https://", "http://")):
        return f'<a href="{escape(value)}">{escape(value)}</a>'
    return escape(value)


def _means(f: Finding) -> str:
    """What the finding's kind says, in words shipped with citecheck; a link only to a URL the package declares."""
    url = docs_url(f.kind)
    more = f' <a href="{escape(url)}">More</a>' if url else ""
    return (
        f'<p class="more"><strong>What this means:</strong> {escape(what_it_means(f.kind))}{more} '
        f'<span class="kind">({escape(f.kind.value)})</span></p>'
    )


def _finding_html(file: FileResult, fid: str, f: Finding) -> str:
    where = escape(file.place(f.span.start))
    rows = "".join(
        f"<dt>{escape(label)}</dt><dd>{_link(value)}</dd>" for label, value in evidence_items(f, plain=True)
    )
    fixes = "".join(f"<li>{escape(fix.describe())}</li>" for fix in f.fixes)
    return (
        f'<div class="finding {f.severity.value}" id="{fid}">'
        f"<h4>{_badge(f.severity.value, 'sev')} {escape(kind_title(f.kind))}</h4>"
        f'<p class="where">{where} — <code>{escape(cited_text(file, f))}</code></p>'
        f"<p>{escape(f.message)}</p>"
        f'<div class="context">{_context(file, f)}</div>'
        + (f"<dl>{rows}</dl>" if rows else "")
        + (f"<p>Suggested fix:</p><ul>{fixes}</ul>" if fixes else "")
        + _means(f)
        + "</div>"
    )


def _notes_html(file: FileResult, count: int, rows: Iterable[tuple[str, Finding]]) -> Iterator[str]:
    """The info findings (could not be verified, not checked, not binding …) as one table, a row each: what
    they all share is said once in the summary's notes, not under every citation (73 times in one opinion).
    In pieces, a row each, like the rest of the report; ``count`` rows."""
    if not count:
        return
    yield (
        f"<h4>Notes ({count})</h4>"
        '<table class="notes"><thead><tr><th>Where</th><th>Citation</th><th>Note</th><th>Detail</th></tr>'
        "</thead><tbody>"
    )
    for fid, f in rows:
        yield (
            f'<tr id="{fid}"><td>{escape(file.place(f.span.start))}</td><td><code>{escape(cited_text(file, f))}'
            f'</code></td><td>{escape(kind_title(f.kind))} <span class="kind">({escape(f.kind.value)})</span></td>'
            f"<td>{escape(plain_message(f))}"
            + "".join(f"<br>Suggested: {escape(fix.describe())}" for fix in f.fixes)
            + "</td></tr>"
        )
    yield "</tbody></table>"


#: Kinds the Status column already says (a table cell says one thing).
_STATUS_KINDS = frozenset({Kind.CANNOT_VERIFY.value, Kind.STATUTE_NOT_CHECKED.value})


def findings_cell(kinds: tuple[str, ...], severity: dict[str, int]) -> str:
    """One message for the table of authorities' Findings cell: the most serious finding's title, and how
    many more there are (issue 36: "Could not be verified — not an accusation; Year differs" in one cell)."""
    shown = sorted((k for k in kinds if k not in _STATUS_KINDS), key=lambda k: -severity.get(k, 0))
    if not shown:
        return ""
    return kind_title(shown[0]) + (f" (and {len(shown) - 1} more)" if len(shown) > 1 else "")


def _authority_row(
    file: FileResult, a: Authority, first_finding: dict[int, str], severity: dict[str, int]
) -> str:
    places = []
    for label, indexes in cited_at(file, a):
        anchor = next((first_finding[i] for i in indexes if i in first_finding), None)
        text = escape(label) + (f" (×{len(indexes)})" if len(indexes) > 1 else "")
        places.append(f'<a href="#{anchor}">{text}</a>' if anchor else text)
    case = a.record
    matched = (
        f"{escape(case.name)}" + (f" ({escape(case.decision_date[:4])})" if case.decision_date else "")
        if case
        else ""
    )
    if case and case.url:
        matched = f'<a href="{escape(case.url)}">{matched}</a>'
    weight = (
        f'{_badge(a.weight.weight.value, "weight")}<br><span class="why">{escape(a.weight.reason)}</span>'
        if a.weight
        else ""
    )
    name = _EMPHASIS.sub("", a.name)
    return (
        f"<tr><td><em>{escape(name) or '—'}</em></td><td>{escape(a.cite)}</td>"
        f"<td>{_status_badge(a.status)}</td><td>{weight}</td><td>{', '.join(places)}</td>"
        f"<td>{matched}</td><td>{escape(findings_cell(a.kinds, severity))}</td></tr>"
    )


def _file_html(file: FileResult, n: int, *, several: bool = False) -> Iterator[str]:
    """One file's section, in pieces (each error's or warning's one piece, the notes one more)."""
    findings = file.sorted_findings()
    first_finding: dict[int, str] = {}
    severity: dict[str, int] = {}
    for i, f in enumerate(findings):
        if f.citation_index is not None:
            first_finding.setdefault(f.citation_index, f"f{n}-{i}")
        severity[f.kind.value] = max(severity.get(f.kind.value, 0), f.severity.rank)
    t = treatment_summary(file)
    treatment = f'<p class="forum">{escape(t[0].upper() + t[1:])}.</p>' if t else ""
    yield (
        f'<section class="file"><h2>{escape(file.name)}</h2>'
        + (f'<p class="summary">{escape(in_words(tally([file])))}</p>' if several else "")
        + (
            f'<p class="unread"><strong>{escape(unread)}</strong></p>'
            if (unread := unread_note(file))
            else ""
        )
        + f'<p class="forum">{escape(forum_line(file))}</p>{treatment}'
        "<h3>Table of authorities</h3>"
    )
    # a row at a time, like the findings: the table of a 100,000-citation brief is 6,000,000 characters,
    # and joined (rows, groups, the section) it was held three and four times over (issue 40)
    groups = grouped_authorities(file)
    if not groups:
        yield "<p>No case, statute or regulation citations.</p>"
    for group, heading, members in groups:
        yield (
            f'<h4>{escape(heading)} ({len(members)})</h4><table class="toa {escape(group)}"><thead><tr>'
            "<th>Authority</th><th>Citation</th><th>Status</th><th>Weight</th>"
            "<th>Cited at</th><th>Matched record</th><th>Findings</th></tr></thead><tbody>"
        )
        for a in members:
            yield _authority_row(file, a, first_finding, severity)
        yield "</tbody></table>"
    del groups
    yield f"<h3>Findings ({len(findings)})</h3>"
    for i, f in enumerate(findings):
        if f.severity is not Severity.INFO:
            yield _finding_html(file, f"f{n}-{i}", f)
    notes = sum(1 for f in findings if f.severity is Severity.INFO)
    yield from _notes_html(
        file, notes, ((f"f{n}-{i}", f) for i, f in enumerate(findings) if f.severity is Severity.INFO)
    )
    yield "</section>" if findings else "<p>No findings.</p></section>"


def render_html(batch: BatchResult) -> str:
    return "".join(iter_html(batch))


def iter_html(batch: BatchResult) -> Iterator[str]:
    """``render_html``'s text in pieces, in order: the CLI writes each as it comes (a 100,000-citation
    report as one string was built from copies of copies: a gigabyte at its peak)."""
    files = f"{count(len(batch.files), 'file')}: " if len(batch.files) != 1 else ""
    counts = f'<p class="summary">{escape(files + in_words(tally(batch.files)))}</p>'
    errors = "".join(f"<li><strong>{escape(e.name)}</strong>: {escape(e.message)}</li>" for e in batch.errors)
    note_html = "".join(f'<p class="note">{_code(escape(x))}</p>' for x in notes(batch))
    title = "Citation check: " + ", ".join(f.name for f in batch.files) if batch.files else "Citation check"
    yield (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        f"<title>{escape(title)}</title><style>{_CSS}</style></head><body>"
        f"<h1>{escape(title)}</h1>"
        f"<p>citecheck {escape(batch.tool_version)}"
        + (f" — sources: {escape(batch.sources)}" if batch.sources else "")
        + ("</p>" if not batch.offline else " — offline</p>")
        + f"<h2>Summary</h2>{counts}{note_html}"
        + (f"<h2>Files that could not be read</h2><ul>{errors}</ul>" if errors else "")
    )
    for i, f in enumerate(batch.files):
        yield from _file_html(f, i, several=len(batch.files) > 1)
    yield "</body></html>\n"
