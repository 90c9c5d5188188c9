"""A Word document as the engine sees it: paragraphs joined into one text, and the way back.

Word gives the task pane a list of paragraphs (body, tables, footnotes, endnotes), each a JavaScript
string. The engine wants one text in code points. Paragraphs are joined with a blank line, so no
citation crosses from one paragraph into the next and short forms (``Id.``, ``supra``) still resolve
against what came before. A finding's span maps back to (paragraph, UTF-16 start, UTF-16 end) here and
nowhere else. Pure: no I/O.
"""

from __future__ import annotations

import bisect
from collections.abc import Sequence
from dataclasses import dataclass

from citecheck.extract.incremental.document import Edit
from citecheck.spans import Span

SEPARATOR = "\n\n"
PARTS = ("body", "table", "footnote", "endnote", "header", "footer")
_LINE_BREAKS = str.maketrans({"\r": " ", "\n": " "})


def clean_paragraph(text: str) -> str:
    """A paragraph's text with any CR/LF turned into spaces (same length, so offsets hold).

    Word ends a paragraph with its paragraph mark, so ``\\r``/``\\n`` inside one is rare (pasted
    text, a content control); left in, it could merge or split paragraphs in the engine's view.
    """
    return text.translate(_LINE_BREAKS) if "\r" in text or "\n" in text else text


def utf16_len(text: str) -> int:
    """Length in UTF-16 code units, what JavaScript's ``String.length`` says.

    >>> utf16_len("a😀§")
    4
    """
    if text.isascii():
        return len(text)
    return len(text.encode("utf-16-le", "surrogatepass")) // 2


@dataclass(frozen=True, slots=True)
class ParagraphSpan:
    """Where a core span lands in Word: paragraph index and UTF-16 offsets inside it."""

    paragraph: int
    start: int
    end: int


class Layout:
    """The joined text of ``paragraphs`` and the offset of each paragraph in it."""

    __slots__ = ("paragraphs", "starts", "text")

    def __init__(self, paragraphs: Sequence[str]) -> None:
        self.paragraphs: tuple[str, ...] = tuple(clean_paragraph(p) for p in paragraphs)
        starts, pos = [], 0
        for p in self.paragraphs:
            starts.append(pos)
            pos += len(p) + len(SEPARATOR)
        self.starts: tuple[int, ...] = tuple(starts)
        self.text = SEPARATOR.join(self.paragraphs)

    def paragraph_at(self, offset: int) -> int:
        """Index of the paragraph containing code-point ``offset`` (a separator belongs to the one before)."""
        if not self.starts:
            return 0
        return max(bisect.bisect_right(self.starts, offset) - 1, 0)

    def locate(self, span: Span) -> ParagraphSpan:
        """``span`` (code points into ``text``) as UTF-16 offsets in the paragraph where it starts.

        A span that runs past its paragraph is clipped to the paragraph's end: Word can only select
        inside one paragraph by searching it, and no citation crosses a paragraph anyway.
        """
        i = self.paragraph_at(span.start)
        if not self.paragraphs:
            return ParagraphSpan(0, 0, 0)
        para, base = self.paragraphs[i], self.starts[i]
        s = min(max(span.start - base, 0), len(para))
        e = min(max(span.end - base, s), len(para))
        return ParagraphSpan(i, utf16_len(para[:s]), utf16_len(para[:e]))

    def edit_to(self, new: Layout) -> Edit | None:
        """One edit that turns this layout's text into ``new``'s, spanning only the paragraphs that
        differ (the common leading and trailing paragraphs are left alone); ``None`` if equal."""
        old_p, new_p = self.paragraphs, new.paragraphs
        if old_p == new_p:
            return None
        limit = min(len(old_p), len(new_p))
        head = 0
        while head < limit and old_p[head] == new_p[head]:
            head += 1
        tail = 0
        while tail < limit - head and old_p[-1 - tail] == new_p[-1 - tail]:
            tail += 1
        sep = len(SEPARATOR)
        if head == len(old_p):  # paragraphs appended (or the document was empty)
            a = na = len(self.text)
            b, nb = a, len(new.text)
        elif head == len(new_p):  # trailing paragraphs deleted: the separator before them goes too
            a, b = max(self.starts[head] - sep, 0), len(self.text)
            na = nb = len(new.text)
        else:
            a = na = self.starts[head]
            b = self.starts[len(old_p) - tail] if tail else len(self.text)
            nb = new.starts[len(new_p) - tail] if tail else len(new.text)
        return Edit(start=a, end=b, new_text=new.text[na:nb])
