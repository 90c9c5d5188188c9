"""Findings follow the text: moving spans through edits, and the span the caret is typing in.

Pure functions over code-point offsets (no LSP types): an edit before a finding shifts it, an edit
that touches it drops it until it is rechecked.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from citecheck.extract.incremental.identity import IdentityMap
from citecheck.extract.models import Extraction
from citecheck.findings import Finding, moved_finding
from citecheck.ignores import IgnoreKey
from citecheck.lsp.text import AppliedEdit
from citecheck.spans import Span, unchecked_span

__all__ = [
    "edit_hold",
    "held_back",
    "line_end_after",
    "shift_findings",
    "shift_keyed",
    "shift_span",
    "stretch",
]


def shift_span(span: Span, edits: list[AppliedEdit]) -> Span | None:
    """``span`` moved through ``edits`` (applied in order), or None if an edit touched it.

    >>> shift_span(Span(10, 20), [AppliedEdit(start=0, end=2, new_text="abcd")])
    Span(start=12, end=22)
    >>> shift_span(Span(10, 20), [AppliedEdit(start=15, end=15, new_text="z")]) is None
    True
    """
    for e in edits:
        if e.end < span.start:
            # moved past an edit wholly before it: it still starts at or after the edit's start
            d = len(e.new_text) - (e.end - e.start)
            span = unchecked_span(span.start + d, span.end + d)
        elif e.start > span.end:
            continue
        else:
            return None
    return span


def _shift_finding(f: Finding, edits: list[AppliedEdit]) -> Finding | None:
    span = shift_span(f.span, edits)
    if span is None:
        return None
    if span == f.span:
        return f
    if not f.fixes:
        return moved_finding(f, span, (), f.citation_index)
    fixes = []
    for fix in f.fixes:
        moved = [(m, e) for e in fix.edits if (m := shift_span(e.span, edits)) is not None]
        if len(moved) == len(fix.edits):
            fixes.append(replace(fix, edits=tuple(replace(e, span=m) for m, e in moved)))
    return moved_finding(f, span, tuple(fixes), f.citation_index)


def shift_findings(findings: Iterable[Finding], edits: list[AppliedEdit]) -> tuple[Finding, ...]:
    """Move findings (and their fixes) through edits; drop any whose span an edit touched."""
    return tuple(m for f in findings if (m := _shift_finding(f, edits)) is not None)


def shift_keyed(
    findings: Iterable[Finding], keys: IdentityMap[Finding, IgnoreKey], edits: list[AppliedEdit]
) -> tuple[tuple[Finding, ...], IdentityMap[Finding, IgnoreKey]]:
    """``shift_findings``, carrying each finding's ignore key (``keys``, by finding) over to its moved copy."""
    out: list[Finding] = []
    moved_keys: IdentityMap[Finding, IgnoreKey] = IdentityMap()
    for f in findings:
        m = _shift_finding(f, edits)
        if m is None:
            continue
        out.append(m)
        key = keys.get(f)
        if key is not None:
            moved_keys[m] = key
    return tuple(out), moved_keys


def line_end_after(text: str, edits: list[AppliedEdit]) -> int | None:
    """For one edit: where, in the new ``text``, the line the edit ends on ends. A displayed finding
    starting after it kept its line (moved only by the line breaks the edit added or removed) and its
    column. None for several edits (every finding after the first is checked again).

    >>> line_end_after("xab\\ncd", [AppliedEdit(start=0, end=0, new_text="x")])
    3
    """
    if len(edits) != 1:
        return None
    e = edits[0]
    after = e.start + len(e.new_text)
    ends = [i for i in (text.find("\n", after), text.find("\r", after)) if i >= 0]
    return min(ends) if ends else len(text)


def stretch(span: Span, edits: list[AppliedEdit]) -> Span | None:
    """A region moved through edits, growing over any edit that touches it (the citation being typed
    grows with the typing); None if an edit removed it whole.

    >>> stretch(Span(10, 20), [AppliedEdit(start=15, end=15, new_text="zz")])
    Span(start=10, end=22)
    """
    start, end = span.start, span.end
    for e in edits:
        d = len(e.new_text) - (e.end - e.start)
        if e.end < start:
            start, end = start + d, end + d
        elif e.start > end:
            continue
        else:
            if e.start <= start and end <= e.end and not e.new_text:
                return None
            start, end = min(start, e.start), max(end + d, e.start + len(e.new_text))
    return Span(start, max(start, end))


def edit_hold(edits: list[AppliedEdit]) -> Span | None:
    if not edits:
        return None
    last = edits[-1]
    return Span(last.start, last.start + len(last.new_text))


def held_back(extraction: Extraction | None, hold: Span | None) -> list[Span]:
    """Full spans of citations the caret is still typing in (touching the hold)."""
    if extraction is None or hold is None:
        return []
    return [c.full_span for c in extraction.touching(hold.start, hold.end)]  # only the paragraphs around it
