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

    def __post_init__(self) -> None:
        if self.start < 0 or self.end < self.start:
            raise ValueError(f"bad span {self.start}..{self.end}")

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
