"""Split a document into paragraphs: the unit of caching and of incremental re-extraction.

A paragraph ends at a blank line (a line break, optional spaces/tabs, another line break; ``\\r\\n``,
``\\r`` and ``\\n`` all count as line breaks, as in LSP). ``\\v``, ``\\f``, ``\\u2028`` and friends are
ordinary characters here: they do not end a paragraph (scanning reads them as spaces). A paragraph
longer than ``MAX_PARAGRAPH`` is split further at single line breaks, so that a text without blank
lines (one paragraph per line) still re-extracts one line per keystroke, and a line longer than that at
safe sentence ends, so no single unit of work grows without bound.

Citations never cross a paragraph boundary; eyecite's own metadata windows stop at line breaks too,
so this costs almost nothing in accuracy.

Double-spaced text (CourtListener's plain text of many older opinions, a PDF's text layer) has a blank
line after every line, so every line would be its own paragraph and a citation wrapped across two lines
(``SEC v. Papa, 555⏎⏎F.3d 31``) two pieces. A blank line is therefore no paragraph end where the line
before it cannot end one (``_joins``): a wrapped line of prose, alone between blank lines, that stops
without a sentence's closing punctuation (or at ``v.``, an initial, a reporter's abbreviation), before
another line alone; and a line ending in a comma (``Smart v. Tatum,⏎⏎⏎541 U.S. 1085``). The decision
reads only the lines on either side of the blank line and whether blank lines stand beyond them, so
re-splitting the paragraphs around an edit still splits as the whole text would: the re-split stops at
separators the edit did not touch, with the lines beside them unedited, and an edit further off can
only take away a blank line beyond them, which makes such a separator no less a paragraph end
(``tests/extract/incremental/test_double_spaced_edits.py`` holds the incremental re-split to that).
"""

from __future__ import annotations

import re

MAX_PARAGRAPH = 3_000

#: (``\r(?!\n)``: a CRLF is one line break, never a CR and an LF read as a blank line between them)
_BLANK = re.compile(r"(?:\r\n|\r(?!\n)|\n)(?:[ \t]*(?:\r\n|\r(?!\n)|\n))+")
_LINE = re.compile(r"\r\n|\r|\n")
_SAFE_SENTENCE_END = re.compile(r"(?:(?<=[a-z]{3}[.?!])|(?<=\)\.))[ \t]+(?=[A-Z(])")


def split_paragraphs(text: str) -> list[tuple[int, int]]:
    """``[(start, end), ...]`` of every paragraph, in order; separators belong to no paragraph.

    Empty paragraphs are dropped; the ranges are disjoint and increasing.
    """
    out: list[tuple[int, int]] = []
    pos = 0
    for m in _BLANK.finditer(text):
        if _joins(text, m.start(), m.end()):
            continue
        _add(text, pos, m.start(), out)
        pos = m.end()
    _add(text, pos, len(text), out)
    return out


#: Line breaks of a separator: one blank line is three or fewer of them in any style (``\r\n`` twice).
_BREAK = re.compile(r"\r\n|\r|\n")
#: How a wrapped line may end where a paragraph cannot: a word, a number, a comma, a dash, an opening
#: bracket, or a period after "v.", an initial ("U.S.", "F.") or an abbreviation a citation wraps at.
_OPEN_END = re.compile(
    r"(?:[\w,&§¶(\[\u2013\u2014-]|(?<![\w.])(?:v|vs|(?:[A-Z]\.)*[A-Z]|Cir|Supp|App|Ct|Dist|Ed|Rptr|Co|Corp|Inc|No|Nos|So|"
    r"Cal|Mass|Misc|Div|Super|Fed|Bankr|Cl|Ill|Pa|Va|Wash|Wis|Minn|Mich|Conn|Md|Kan|Ky|La|Ga|Ala|Ariz|Ark|"
    r"Colo|Del|Fla|Haw|Ind|Me|Miss|Mo|Mont|Neb|Nev|Okla|Or|Tenn|Tex|Vt|Wyo|Ohio|St|Stat|Rev|Ann|Pet|Br|"
    r"Op|Tr|Id|Dep't|Ass'n|Comm'n)\.)$"
)
#: A line that opens something of its own (a list item, a heading, a table row, a quoted block).
_OWN_START = re.compile(r"[ \t]*(?:[-*+\u2022]\s|#|>|\||\d{1,3}[.)]\s)")
_WRAPPED_MIN, _WRAPPED_MAX = 30, 110
#: The words of reporters' abbreviations after a volume (with the single capitals of ``F.``, ``U.S.``, ``N.E.``).
_REPORTER_WORDS = (
    "Ct Supp So Rptr App Ed Fed Appx Misc Cal Mass Ill Dec Wis Pa Va Ohio Div Super Bankr Cl Wash Md Ga Mich "
    "Minn Neb Kan Or Tex Haw Conn Vt Me Mont Nev Okla Ariz Ark Colo Del Fla Ind Miss Mo Wyo Tenn Ky La Ala "
    "Wheat Pet How Wall Dall Cranch"
).split()
#: A line stopped inside a citation: at its volume, at a volume and its reporter (``878 F.2d``, ``416
#: U.S.``, ``100 S. Ct.``, ``75 F. Supp. 2d``), after "v." or "at" (a paragraph never ends so).
_CITATION_GOES_ON = re.compile(
    r"(?:(?<![\w.,-])\d{1,4}(?:[ \t]+(?:(?:[A-Z]|"
    + "|".join(_REPORTER_WORDS)
    + r")\.[ \t]?){1,3}(?:\d(?:d|th))?)?"
    r"|(?<![\w.])(?:v\.|at))$"
)
#: A page's number alone on its line (``-15-``, ``- 7 -``, ``12``): page furniture, never joined to.
_PAGE_NUMBER = re.compile(r"[ \t\f]*(?:-[ \t]*\d{1,4}[ \t]*-|\d{1,4})[ \t]*")
_LINE_NUMBER = re.compile(r"[ \t\f]*(\d{1,2})[ \t]+\S")


def _joins(text: str, start: int, end: int) -> bool:
    """Whether the blank line(s) ``text[start:end]`` (a ``_BLANK`` match) only double-space a paragraph.

    A line ending in a comma continues on the next (up to two blank lines: ``Smart v. Tatum,⏎⏎⏎541
    U.S.``). Otherwise it takes one blank line, between two lines each alone between blank lines (the
    text is double-spaced here), the first a wrapped line of prose (30–110 characters, not a heading)
    that does not end a sentence, and the second opening nothing of its own (a list item, a heading, a
    page number; the next line number of a line-numbered text). A line stopped inside a citation (at a
    volume, a volume and its reporter, ``v.``, ``at``) goes on even where the spacing is mixed and a
    neighbour is not alone.
    """
    a0 = max(text.rfind("\n", 0, start), text.rfind("\r", 0, start)) + 1
    line = text[a0:start].rstrip(" \t")
    if not line:
        return False
    breaks = len(_BREAK.findall(text, start, end))
    b1 = _line_end(text, end)
    if _OWN_START.match(text, end, b1) or not text[end:b1].strip() or _PAGE_NUMBER.fullmatch(text, end, b1):
        return False
    numbered = _LINE_NUMBER.match(line)
    if numbered is not None:  # "8 indictment, … Id. at 1043-⏎⏎9 44.": a line-numbered text's numbers
        after = _LINE_NUMBER.match(text, end, b1)
        if after is not None and int(after[1]) == int(numbered[1]) + 1:
            return False
    if line.endswith(","):
        return breaks <= 3
    if breaks != 2 or not (_WRAPPED_MIN <= len(line.strip()) <= _WRAPPED_MAX) or _heading(line):
        return False
    if not _OPEN_END.search(line[-12:]):
        return False
    if _CITATION_GOES_ON.search(line[-24:]):
        return True  # "see also Zim v. Western Pub. Co., 573⏎⏎F.2d 1318": in mixed spacing too
    return _blank_before(text, a0) and _blank_after(text, b1)


def _heading(line: str) -> bool:
    """``II. THE CLAIMS``, ``Standard of Review for Summary Judgment``: capitals, or title case with no
    comma or number in it (a wrapped line of prose has lower-case words; one of citations, numbers)."""
    if line.isupper():
        return True
    if "," in line or any(ch.isdigit() for ch in line):
        return False
    words = [w for w in line.split() if w.lower() not in _SMALL_WORDS]
    return len(words) >= 2 and sum(w[:1].isupper() for w in words) >= 0.8 * len(words)


_SMALL_WORDS = frozenset("of the and for in on to a an at by with or v. vs.".split())


def _line_end(text: str, pos: int) -> int:
    ends = [i for i in (text.find("\n", pos), text.find("\r", pos)) if i >= 0]
    return min(ends) if ends else len(text)


def _blank_before(text: str, line_start: int) -> bool:
    """The line starting at ``line_start`` is the text's first or follows a blank line."""
    i = line_start - 1
    if i < 0:
        return True
    if text[i] == "\n" and i > 0 and text[i - 1] == "\r":
        i -= 1
    i -= 1  # before the line break ending the previous line
    while i >= 0 and text[i] in " \t":
        i -= 1
    return i < 0 or text[i] in "\r\n"


def _blank_after(text: str, line_end: int) -> bool:
    """The line ending at ``line_end`` is the text's last or a blank line follows it."""
    n = len(text)
    if line_end >= n:
        return True
    i = line_end + (2 if text.startswith("\r\n", line_end) else 1)
    while i < n and text[i] in " \t":
        i += 1
    return i >= n or text[i] in "\r\n"


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
