"""Quoted passages: straight and curly double quotes (inner quotes kept as written), and block quotes.

Pairing works on the normalised text (curly → straight) but uses the original characters as hints:
``“`` always opens and ``”`` always closes, a straight ``"`` toggles. Single quotes are not treated as
delimiters at the top level (they are apostrophes far more often); inside a double-quoted passage they
are nested quotes and stay in the passage text.
"""

from __future__ import annotations

import re

from citecheck.extract.models import Quote
from citecheck.spans import Span

_OPEN = "\u201c\u201e\u00ab"
_CLOSE = "\u201d\u00bb"
_BLOCK_LINE = re.compile(r"^[ \t]*>[ \t]?", re.M)
_WS = re.compile(r"\s+")
_LINE_BREAK = re.compile(r"\r\n|\r|\n")


def find_quotes(norm: str, original: str) -> list[Quote]:
    """Every top-level double-quoted passage in a paragraph, in order."""
    out: list[Quote] = []
    open_at: int | None = None
    pos = norm.find('"')
    while pos != -1:
        ch = original[pos]
        if open_at is None:
            if ch not in _CLOSE:
                open_at = pos
        elif ch in _OPEN:
            open_at = pos  # a new opening before a close: the earlier one was stray
        else:
            text = original[open_at + 1 : pos]
            if text.strip():
                out.append(Quote(text=text, span=Span(open_at + 1, pos)))
            open_at = None
        pos = norm.find('"', pos + 1)
    return out


def is_block_paragraph(original: str) -> bool:
    """A Markdown block quote (every line starts with ``>``) or an indented block (4+ spaces / tab)."""
    if "\n" in original or "\r" in original:
        lines = [ln for ln in _LINE_BREAK.split(original) if ln.strip()]
    else:  # one line (most paragraphs)
        lines = [original] if original.strip() else []
    if not lines:
        return False
    if all(ln.lstrip(" \t").startswith(">") for ln in lines):
        return True
    return all(ln.startswith(("    ", "\t")) for ln in lines)


def block_quote(original: str, start: int, end: int) -> Quote | None:
    """The block quote text of ``original[start:end]`` (``>`` markers and indentation dropped)."""
    seg = original[start:end]
    lead = len(seg) - len(seg.lstrip())
    trail = len(seg) - len(seg.rstrip())
    s, e = start + lead, end - trail
    # skip a leading "> " marker so the span starts at the text
    m = re.match(r"(?:>[ \t]?)+", original[s:e])
    if m:
        s += m.end()
    if s >= e:
        return None
    body = _WS.sub(" ", _BLOCK_LINE.sub("", original[s:e])).strip()
    if len(body) >= 2 and body[0] in '"\u201c' and body[-1] in '"\u201d':
        body = body[1:-1].strip()
    if not body:
        return None
    return Quote(text=body, span=Span(s, e), block=True)
