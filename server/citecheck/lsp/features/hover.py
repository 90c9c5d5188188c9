"""Hover on a citation: its status, the matched case, the page used and the compared passage."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from lsprotocol import types

from citecheck.checks.statutes import describe_code
from citecheck.extract.models import Statute
from citecheck.findings import Finding, Kind, kind_title
from citecheck.jurisdiction import Assessment
from citecheck.lsp.convert import related_lines, shows_as_diagnostic
from citecheck.lsp.features.citations import PENDING, result_for, status_text
from citecheck.lsp.positions import span_to_range
from citecheck.results import CitationResult
from citecheck.sources.models import CaseRecord
from citecheck.sources.statutes.records import SectionRecord

if TYPE_CHECKING:
    from citecheck.lsp.server import CiteServer

_STATUS_TEXT = {
    "found": "found in a source",
    "verified": "verified: the case exists and nothing was found wrong",
    "problem": "has problems (see below)",
    "not-checked": "nothing to look up",
    "ambiguous": "several cases share this citation",
    "not-found": "no case begins here in a source that covers this volume",
    "cannot-verify": "could not be verified (no source we have covers it)",
    PENDING: "not checked against a source yet",
}


def hover(server: CiteServer, uri: str, position: types.Position) -> types.Hover | None:
    state = server.docs.get(uri)
    doc = server.open_document(uri)
    if state is None or doc is None or state.extraction is None or state.extraction_version != state.version:
        return None
    index = doc.line_index()
    offset = index.offset_at(position, doc.encoding)
    cite = state.extraction.at(offset)
    if cite is None:
        return None
    report = state.report if state.report_version == state.version else None
    target = state.extraction.resolved(cite) or cite
    result = result_for(report, cite) if report is not None else None
    if result is None and report is not None and target is not cite:
        result = result_for(report, target)
    # by place: a finding shown since before a citation was added or removed earlier keeps the number
    # it was shown with until the next full check (display.py), so a number alone may name another
    findings = [
        f
        for f in (s.finding for s in state.shown)
        if f.span.overlaps(cite.span) or (f.citation_index == cite.index and f.span.overlaps(cite.full_span))
    ]
    mode = server.settings.cannot_verify_diagnostics
    statute = (
        state.extraction.statute_of(cite) if cite.statute is not None or cite.antecedent is not None else None
    )
    value = render_hover(
        cite.text,
        result,
        findings,
        target.text if target is not cite else None,
        diagnosed=lambda f: shows_as_diagnostic(f, mode),
        statute=statute,
        written=cite.statute,
    )
    return types.Hover(
        contents=types.MarkupContent(kind=types.MarkupKind.Markdown, value=value),
        range=span_to_range(index, cite.span, doc.encoding),
    )


#: The verdict in words when a finding says more than the status (a citation that cannot exist was
#: never "found"); the first kind present wins.
_VERDICT_TEXT = (
    (Kind.IMPOSSIBLE_CITATION, "cannot exist as cited"),
    (Kind.FABRICATED_CASE, "no case begins here in a source that covers this volume"),
    (Kind.WRONG_FIRST_PAGE, "this page is inside another case, not the start of one"),
    (Kind.FABRICATED_STATUTE, "no such section in the title the statute index holds"),
    (Kind.STATUTE_REPEALED, "the section is no longer in force as cited"),
)


def verdict_text(status: str, result: CitationResult | None, findings: list[Finding]) -> str:
    """The hover's one-line verdict; its words never claim more than the evidence shows.

    >>> verdict_text("problem", None, [])
    'has problems (see below)'
    """
    if status == "problem":
        kinds = {f.kind for f in findings}
        for kind, words in _VERDICT_TEXT:
            if kind in kinds:
                return words
        if result is not None and result.record is not None:
            return "found, with problems (see below)"
    return _STATUS_TEXT.get(status, status)


def render_hover(
    cite_text: str,
    result: CitationResult | None,
    findings: list[Finding],
    stands_for: str | None,
    *,
    diagnosed: Callable[[Finding], bool] = lambda f: True,
    statute: Statute | None = None,
    written: Statute | None = None,
) -> str:
    """The hover's Markdown. It says each thing once: an editor shows the diagnostics under the cursor
    in the same popup (VS Code above this text), so a finding shown as a diagnostic is named here by
    its title only, and what a finding's message already carries (the source's reason, the rule behind
    a non-binding-authority finding, the passage) is left out. A finding that
    is not a diagnostic (cannot-verify with ``cannotVerifyDiagnostics: none``) keeps its message.
    ``statute``: what a statute citation (or an ``Id.`` after one) cites, code and title filled in;
    ``written``: the statute citation as written (a short form's own).
    """
    status = status_text(result, findings)
    said = " ".join(" ".join((f.message, *related_lines(f))) for f in findings if diagnosed(f))
    verdict = _verdict(status, result, findings, statute is not None or written is not None)
    lines = [f"**citecheck** · `{cite_text}` — {verdict}"]
    if stands_for:
        lines.append(f"Short form of `{stands_for}`.")
    lines.extend(_statute_lines(statute, written))
    if result is not None:
        lines.extend(_result_lines(result, said))
    headline = _headline_kind(status, {f.kind for f in findings})
    for f in findings:
        if f.kind is headline:
            continue  # the first line says it
        line = f"- **{kind_title(f.kind)}** ({f.severity}, `{f.kind}`)"
        lines.append(line if diagnosed(f) else f"{line}: {f.message}")
    return "\n\n".join(lines)


def _verdict(status: str, result: CitationResult | None, findings: list[Finding], is_statute: bool) -> str:
    """The first line's verdict; a statute nobody has a source for says so."""
    if is_statute and status == "not-checked":
        return "not checked (a statute or regulation citecheck has no source for)"
    return verdict_text(status, result, findings)


def _statute_lines(statute: Statute | None, written: Statute | None) -> list[str]:
    """What a statute citation cites, or that the code of a bare ``§`` is named nowhere.

    >>> _statute_lines(None, None)
    []
    """
    if statute is not None:
        return [f"Statute: `{statute}` — {describe_code(statute, article=False)}"]
    if written is not None:
        return [
            f"Statute section `§ {written.section}`: its code is not named here or in an earlier citation."
        ]
    return []


def matched_line(record: CaseRecord) -> str:
    """The case a citation matched, with its citations, court and date, and a link.

    >>> from citecheck.sources.models import CaseCite
    >>> matched_line(CaseRecord(id="cap:1", source="cap", name="Peyton v. District of Columbia", court_name="D.C.",
    ...     decision_date="1953-11-06", citations=(CaseCite(volume="100", reporter="A.2d", page="36"),)))
    'Matched: *Peyton v. District of Columbia*, 100 A.2d 36 (D.C. · 1953-11-06)'
    """
    cites = ", ".join(str(c) for c in record.citations)
    line = f"Matched: *{record.name}*" + (f", {cites}" if cites else "")
    meta = " · ".join(p for p in (record.court_name or record.court_id, record.decision_date) if p)
    if meta:
        line += f" ({meta})"
    if record.url:
        line += f" — [open]({record.url})"
    return line


def _result_lines(result: CitationResult, said: str) -> list[str]:
    """What the sources said of the citation — the case matched, the section, the model's judgment, its
    weight here, what later courts did to it, the page and passage compared, the reason — each once: what the
    diagnostics shown in the same popup already ``said`` is left out."""
    lines = []
    if result.record is not None:
        lines.append(matched_line(result.record))
    if result.statute is not None:
        lines.append(statute_line(result.statute))
    if result.holding is not None:
        from citecheck.holdings.verdicts import holding_line

        lines.append(holding_line(result.holding))
    if result.weight is not None:
        weight = render_weight(result.weight)
        # the reason once: a non-binding-authority finding's message gives it
        lines.append(weight.split(" — ", 1)[0] if result.weight.reason in said else weight)
    if result.treatment is not None and (line := result.treatment.describe()):
        lines.append(line[0].upper() + line[1:])  # "none found in the treatment data we have (…)" is said too
    shown_passage = result.passage is not None and result.passage[:200] in said
    if result.page_used and not shown_passage:
        lines.append(f"Page used: {result.page_used}")
    if result.passage and not shown_passage:
        passage = result.passage if len(result.passage) <= 600 else result.passage[:597] + "…"
        lines.append("> " + passage.replace("\n", "\n> "))
    if result.reason and result.reason not in said:
        lines.append(f"_{result.reason}_")
    return lines


def _headline_kind(status: str, kinds: set[Kind]) -> Kind | None:
    """The kind whose verdict the hover's first line states (``verdict_text``), if one does."""
    if status == "cannot-verify":
        return Kind.CANNOT_VERIFY
    if status == "not-checked" and Kind.STATUTE_NOT_CHECKED in kinds:
        return Kind.STATUTE_NOT_CHECKED  # "not checked (a statute or regulation citecheck has no source for)"
    if status == "problem":
        return next((kind for kind, _words in _VERDICT_TEXT if kind in kinds), None)
    return None


def statute_line(section: SectionRecord) -> str:
    """The section a statute citation matched: its heading, status and the edition that says so.

    >>> from citecheck.sources.statutes.records import SectionRecord
    >>> statute_line(SectionRecord(code="usc", title="42", section="1983",
    ...                            heading="Civil action for deprivation of rights", edition="118-200"))
    '**42 U.S.C. § 1983** — Civil action for deprivation of rights (U.S. Code, release point 118-200)'
    """
    edition = (
        f"eCFR, {section.edition}" if section.code == "cfr" else f"U.S. Code, release point {section.edition}"
    )
    status = "" if section.status.live else f" — **{section.status.value}**"
    moved = f" (now {section.moved_to})" if section.moved_to else ""
    line = f"**{section.citation}** — {section.heading}{status}{moved} ({edition})"
    return line + (f" — [open]({section.url})" if section.url else "")


_WEIGHT_TEXT = {
    "binding": "**Binding** here",
    "persuasive": "**Persuasive** only here",
    "unknown": "Weight here: unknown",
}


def render_weight(assessment: Assessment) -> str:
    """``**Binding** here — the Supreme Court of the United States binds every court`` (docs/jurisdiction.md)."""
    court = assessment.court_name
    head = _WEIGHT_TEXT.get(assessment.weight.value, assessment.weight.value) + (
        f" ({court})" if court else ""
    )
    return f"{head} — {assessment.reason}"
