"""The ONLY place where core ``Span`` code-point offsets and LSP ``Position``/``Range`` meet.

LSP counts columns in the encoding negotiated at ``initialize`` (UTF-16 for VS Code, UTF-8 for
Neovim 0.11, UTF-32 for Emacs) and ends lines only at ``\\n``, ``\\r\\n`` and ``\\r``; Python's
``str.splitlines`` also breaks on ``\\v``, ``\\f``, ``\\u2028``… which is exactly what Word-pasted
drafts contain.  ``LineIndex`` is built once per document version (pygls recomputes its line list
on every conversion, which is quadratic over a brief with hundreds of citations) and the column
arithmetic is delegated to Python's codecs for the negotiated encoding, never hand-rolled.
"""

from __future__ import annotations

import bisect
import re

from lsprotocol import types

from citecheck.spans import Span

_EOL = re.compile(r"\r\n|\r|\n")

#: Python codec for each LSP position encoding (the unit width is implied by the codec).
_CODECS = {"utf-8": ("utf-8", 1), "utf-16": ("utf-16-le", 2), "utf-32": ("utf-32-le", 4)}


def _codec(encoding: str | None) -> tuple[str, int]:
    # The LSP default (and the only encoding every client must support) is UTF-16.
    return _CODECS.get(str(encoding or "utf-16"), _CODECS["utf-16"])


def client_units(text: str, encoding: str | None) -> int:
    """Length of ``text`` in the client's units.

    >>> client_units("a😀§", "utf-16"), client_units("a😀§", "utf-8"), client_units("a😀§", "utf-32")
    (4, 7, 3)
    """
    if text.isascii():
        return len(text)
    name, width = _codec(encoding)
    if width == 4:
        return len(text)
    return len(text.encode(name, "surrogatepass")) // width


def _code_points(line: str, units: int, encoding: str | None) -> int:
    """How many code points of ``line`` the first ``units`` client units cover (a position
    inside a multi-unit character rounds down to the character's start)."""
    if units <= 0:
        return 0
    if line.isascii():
        return min(units, len(line))
    name, width = _codec(encoding)
    if width == 4:
        return min(units, len(line))
    raw = line.encode(name, "surrogatepass")[: units * width]
    return len(raw.decode(name, "ignore"))


class LineIndex:
    """Where each LSP line of one text version starts, in code points.

    >>> idx = LineIndex("A,\\vB\\r\\nC")
    >>> idx.line_count, idx.position_at(4, "utf-16"), idx.offset_at(types.Position(line=1, character=0), "utf-16")
    (2, 0:4, 6)
    """

    __slots__ = ("starts", "text")

    def __init__(self, text: str) -> None:
        self.text = text
        self.starts: list[int] = [0, *(m.end() for m in _EOL.finditer(text))]

    @classmethod
    def after_edit(cls, old: LineIndex, start: int, end: int, new_text: str, text: str) -> LineIndex:
        """The index of ``text`` = ``old.text`` with ``[start, end)`` replaced by ``new_text``, from
        ``old``'s: line starts before the edit are kept, those after it move, and only the edit and a
        character either side (a ``\r`` and a ``\n`` may join or part there) are scanned again. A
        keystroke in a long brief costs a list shift instead of a scan of the whole text."""
        idx = cls.__new__(cls)
        idx.text = text
        starts = old.starts
        d = len(new_text) - (end - start)
        last = start + len(new_text) + 1  # a line can start here at the latest because of the edit
        rescanned = [m.end() for m in _EOL.finditer(text, max(0, start - 1), min(len(text), last + 1))]
        tail = starts[bisect.bisect_left(starts, end + 2) :]
        idx.starts = [
            *starts[: max(1, bisect.bisect_left(starts, start))],  # 0 always starts a line
            *(e for e in rescanned if max(start, 1) <= e <= last),
            *(map(d.__add__, tail) if d else tail),
        ]
        return idx

    @property
    def line_count(self) -> int:
        return len(self.starts)

    def line_bounds(self, line: int) -> tuple[int, int]:
        """``(start, end)`` of a line's content, its line ending excluded."""
        start = self.starts[line]
        if line + 1 < len(self.starts):
            end = self.starts[line + 1]
            end -= 2 if self.text.startswith("\r\n", end - 2) else 1
        else:
            end = len(self.text)
        return start, end

    def lines(self) -> tuple[str, ...]:
        """The lines with their endings, as pygls' ``TextDocument.lines`` should have been."""
        bounds = [*self.starts[1:], len(self.text)]
        out = tuple(self.text[s:e] for s, e in zip(self.starts, bounds, strict=True))
        return out if out[-1] else out[:-1]

    def position_at(self, offset: int, encoding: str | None) -> types.Position:
        """Code-point offset → client position (clamped into the text; never inside a CRLF)."""
        offset = max(0, min(offset, len(self.text)))
        line = bisect.bisect_right(self.starts, offset) - 1
        start, end = self.line_bounds(line)
        column = self.text[start : min(offset, end)]
        return types.Position(line=line, character=client_units(column, encoding))

    def offset_at(self, position: types.Position, encoding: str | None) -> int:
        """Client position → code-point offset. Past the end of a line clamps to the line's end
        (LSP rule); past the last line clamps to the end of the text."""
        return self.offset_of(position.line, position.character, encoding)

    def offset_of(self, line: int, character: int, encoding: str | None) -> int:
        """``offset_at`` for a bare (line, character): no ``Position`` built per call (Replace All)."""
        if line < 0:
            return 0
        if line >= len(self.starts):
            return len(self.text)
        start, end = self.line_bounds(line)
        return start + _code_points(self.text[start:end], character, encoding)


def span_to_range(index: LineIndex, span: Span, encoding: str | None) -> types.Range:
    return types.Range(
        start=index.position_at(span.start, encoding), end=index.position_at(span.end, encoding)
    )


def range_to_span(index: LineIndex, rng: types.Range, encoding: str | None) -> Span:
    start = index.offset_at(rng.start, encoding)
    end = index.offset_at(rng.end, encoding)
    return Span(min(start, end), max(start, end))
