"""Split a document into paragraphs: the unit of caching and of incremental re-extraction.

A paragraph ends at a blank line (a line break, optional spaces/tabs, another line break; ``\\r\\n``,
``\\r`` and ``\\n`` all count as line breaks, as in LSP). ``\\v``, ``\\f``, ``\\u2028`` and friends are
ordinary characters here: they do not end a paragraph (scanning reads them as spaces). A paragraph
longer than ``MAX_PARAGRAPH`` is split further at single line breaks, so that a text without blank
lines (one paragraph per line) still re-extracts one line per keystroke, and a line longer than that at
safe sentence ends, so no single unit of work grows without bound.

Citations never cross a paragraph boundary; eyecite's own metadata windows stop at line breaks too,
so this costs almost nothing in accuracy.
"""

from __future__ import annotations

import re

MAX_PARAGRAPH = 3_000

_BLANK = re.compile(r"(?:\r\n|\r|\n)(?:[ \t]*(?:\r\n|\r|\n))+")
_LINE = re.compile(r"\r\n|\r|\n")
_SAFE_SENTENCE_END = re.compile(r"(?:(?<=[a-z]{3}[.?!])|(?<=\)\.))[ \t]+(?=[A-Z(])")


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
            _add_line(text, pos, m.start(), out)
        pos = m.end()
    if pos < end:
        _add_line(text, pos, end, out)


def _add_line(text: str, start: int, end: int, out: list[tuple[int, int]]) -> None:
    """A line longer than ``MAX_PARAGRAPH`` (a document with no line breaks at all) is cut at sentence
    ends that cannot be inside a citation (after ``).`` or a lower-case word), else at a space."""
    while end - start > MAX_PARAGRAPH:
        cut = None
        for m in _SAFE_SENTENCE_END.finditer(text, start + MAX_PARAGRAPH // 3, start + MAX_PARAGRAPH):
            cut = m
        if cut is not None:
            out.append((start, cut.start()))
            start = cut.end()
            continue
        space = text.rfind(" ", start + 1, start + MAX_PARAGRAPH)
        stop = space if space > start else start + MAX_PARAGRAPH
        out.append((start, stop))
        start = stop + 1 if space > start else stop
    if start < end:
        out.append((start, end))
