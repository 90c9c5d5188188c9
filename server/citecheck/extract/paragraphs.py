"""Split a document into paragraphs: the unit of caching and of incremental re-extraction.

A paragraph ends at a blank line (a line break, optional spaces/tabs, another line break; ``\\r\\n``,
``\\r`` and ``\\n`` all count as line breaks, as in LSP). ``\\v``, ``\\f``, ``\\u2028`` and friends are
ordinary characters here: they do not end a paragraph (scanning reads them as spaces). A paragraph
longer than ``MAX_PARAGRAPH`` is split further at single line breaks, so that a text without blank
lines (one paragraph per line) still re-extracts one line per keystroke.

Citations never cross a paragraph boundary; eyecite's own metadata windows stop at line breaks too,
so this costs almost nothing in accuracy.
"""

from __future__ import annotations

import re

MAX_PARAGRAPH = 3_000

_BLANK = re.compile(r"(?:\r\n|\r|\n)(?:[ \t]*(?:\r\n|\r|\n))+")
_LINE = re.compile(r"\r\n|\r|\n")


def split_paragraphs(text: str) -> list[tuple[int, int]]:
    """``[(start, end), ...]`` of every paragraph, in order; separators belong to no paragraph.

    Empty paragraphs are dropped; the ranges are disjoint and increasing.
    """
    out: list[tuple[int, int]] = []
    pos = 0
    for m in _BLANK.finditer(text):
        _add(text, pos, m.start(), out)
        pos = m.end()
    _add(text, pos, len(text), out)
    return out


def _add(text: str, start: int, end: int, out: list[tuple[int, int]]) -> None:
    if start >= end:
        return
    if end - start <= MAX_PARAGRAPH:
        out.append((start, end))
        return
    pos = start
    for m in _LINE.finditer(text, start, end):
        if m.start() > pos:
            out.append((pos, m.start()))
        pos = m.end()
    if pos < end:
        out.append((pos, end))
