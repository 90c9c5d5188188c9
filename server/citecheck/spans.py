"""Span: a half-open range of Python code-point offsets into the text exactly as received.

Every citation and finding carries one. Nothing in the core ever holds UTF-16 or byte offsets;
the LSP edge converts (``citecheck.lsp.positions``).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True, order=True)
class Span:
    """Half-open ``[start, end)`` in code points.

    >>> text = "See Roe v. Wade, 410 U.S. 113."
    >>> s = Span(17, 29)
    >>> s.of(text)
    '410 U.S. 113'
    >>> s.shift(3)
    Span(start=20, end=32)
    """

    start: int
    end: int

    def __init__(self, start: int, end: int) -> None:
        # written out (the dataclass keeps a class's own ``__init__``): the generated one sets each field
        # through ``object.__setattr__`` and then calls ``__post_init__``; extraction makes tens of
        # thousands of spans per 100,000 words (issue 40)
        if start < 0 or end < start:
            raise ValueError(f"bad span {start}..{end}")
        _set_start(self, start)
        _set_end(self, end)

    def __len__(self) -> int:
        return self.end - self.start

    def of(self, text: str) -> str:
        return text[self.start : self.end]

    def shift(self, delta: int) -> Span:
        return Span(self.start + delta, self.end + delta)

    def overlaps(self, other: Span) -> bool:
        return self.start < other.end and other.start < self.end

    def covers(self, other: Span) -> bool:
        return self.start <= other.start and other.end <= self.end

    def union(self, other: Span) -> Span:
        return Span(min(self.start, other.start), max(self.end, other.end))


_new = object.__new__
_set_start = Span.__dict__["start"].__set__
_set_end = Span.__dict__["end"].__set__


def unchecked_span(start: int, end: int) -> Span:
    """``Span(start, end)`` without the constructor's check: only for a valid span moved by an offset
    that cannot make it invalid (a paragraph's offset, an edit wholly before it). About twice as fast,
    and a keystroke moves thousands of spans.

    >>> unchecked_span(3, 5) == Span(3, 5)
    True
    """
    s = _new(Span)
    _set_start(s, start)
    _set_end(s, end)
    return s
