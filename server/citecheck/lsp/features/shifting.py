"""Findings follow the text: moving spans through edits, and the span the caret is typing in.

Pure functions over code-point offsets (no LSP types): an edit before a finding shifts it, an edit
that touches it drops it until it is rechecked.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from citecheck.extract.assemble import DocumentExtraction
from citecheck.extract.models import Extraction
from citecheck.findings import Finding, moved_finding
from citecheck.ignores import IgnoreKey
from citecheck.lsp.convert import Shown
from citecheck.lsp.text import AppliedEdit
from citecheck.spans import Span

__all__ = ["edit_hold", "held_back", "shift_findings", "shift_keyed", "shift_shown", "shift_span", "stable_offset"]


def shift_span(span: Span, edits: list[AppliedEdit]) -> Span | None:
    """``span`` moved through ``edits`` (applied in order), or None if an edit touched it.

    >>> shift_span(Span(10, 20), [AppliedEdit(start=0, end=2, new_text="abcd")])
    Span(start=12, end=22)
    >>> shift_span(Span(10, 20), [AppliedEdit(start=15, end=15, new_text="z")]) is None
    True
    """
    for e in edits:
        if e.end < span.start:
            span = span.shift(len(e.new_text) - (e.end - e.start))
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
    findings: Iterable[Finding], keys: dict[int, tuple[Finding, IgnoreKey]], edits: list[AppliedEdit]
) -> tuple[tuple[Finding, ...], dict[int, tuple[Finding, IgnoreKey]]]:
    """``shift_findings``, carrying each finding's ignore key (``keys``: id(finding) -> (finding, key))
    over to its moved copy."""
    out, moved_keys = [], {}
    for f in findings:
        m = _shift_finding(f, edits)
        if m is None:
            continue
        out.append(m)
        hit = keys.get(id(f))
        if hit is not None and hit[0] is f:
            moved_keys[id(m)] = (m, hit[1])
    return tuple(out), moved_keys


def shift_shown(
    shown: Iterable[Shown], edits: list[AppliedEdit], version: int, stable_from: int | None, previous: int | None = None
) -> tuple[Shown, ...]:
    """Displayed findings, moved with the text: what every new version shows until stage 1 reaches it.

    A finding before the edit, or (``stable_from``) on a later line when no line break was added
    or removed, keeps its LSP position, so its rendered JSON (if rendered for the ``previous``
    version) stays valid for ``version``.
    """
    out = []
    for s in shown:
        moved = _shift_finding(s.finding, edits)
        if moved is None:
            continue
        valid = (previous is None or s.rendered_for == previous) and (
            # unchanged offsets are unchanged positions only when every edit came after the finding:
            # a same-length edit before it (" " → "\n") keeps its offsets but moves its line
            (moved is s.finding and _all_after(edits, s.finding))
            or (
                stable_from is not None
                and moved.span.start > stable_from
                and all(e.span.start > stable_from for fix in moved.fixes for e in fix.edits)
            )
        )
        out.append(_moved_shown(s, moved, version if valid else None))
    return tuple(out)


_SHOWN_FIELDS = ("finding", "key", "range", "fix_ranges", "diagnostic", "json", "rendered_for", "mode")
assert tuple(Shown.__dataclass_fields__) == _SHOWN_FIELDS, "_moved_shown must set every field of Shown"
_shown_set = tuple(Shown.__dict__[name].__set__ for name in _SHOWN_FIELDS)


def _moved_shown(s: Shown, finding: Finding, rendered_for: int | None) -> Shown:
    """``s`` with ``finding`` and ``rendered_for`` replaced, set through the slots (every keystroke
    moves every displayed finding after it; the dataclass constructor costs three times as much)."""
    g = object.__new__(Shown)
    put_finding, put_key, put_range, put_fixes, put_diag, put_json, put_for, put_mode = _shown_set
    put_finding(g, finding)
    put_key(g, s.key)
    put_range(g, s.range)
    put_fixes(g, s.fix_ranges)
    put_diag(g, s.diagnostic)
    put_json(g, s.json)
    put_for(g, rendered_for)
    put_mode(g, s.mode)
    return g


def _all_after(edits: list[AppliedEdit], f: Finding) -> bool:
    end = f.span.end
    for fix in f.fixes:
        for e in fix.edits:
            end = max(end, e.span.end)
    return all(e.start > end for e in edits)


def stable_offset(text: str, edits: list[AppliedEdit], lines_before: int | None, lines_after: int) -> int | None:
    """Offset after which LSP positions did not change, or None (a line break came or went).

    >>> stable_offset("xab\\ncd", [AppliedEdit(start=0, end=0, new_text="x")], 2, 2)
    3
    """
    if len(edits) != 1 or lines_before != lines_after:
        return None
    e = edits[0]
    if "\n" in e.new_text or "\r" in e.new_text:
        return None
    after = e.start + len(e.new_text)
    ends = [i for i in (text.find("\n", after), text.find("\r", after)) if i >= 0]
    return min(ends) if ends else None


def edit_hold(edits: list[AppliedEdit]) -> Span | None:
    if not edits:
        return None
    last = edits[-1]
    return Span(last.start, last.start + len(last.new_text))


def held_back(extraction: Extraction | None, hold: Span | None) -> list[Span]:
    """Full spans of citations the caret is still typing in (touching the hold)."""
    if extraction is None or hold is None:
        return []
    if isinstance(extraction, DocumentExtraction):  # only the paragraphs around the hold
        return [c.full_span for c in extraction.touching(hold.start, hold.end)]
    return [
        c.full_span
        for c in extraction.citations
        if c.full_span.start <= hold.end and hold.start <= c.full_span.end
    ]
