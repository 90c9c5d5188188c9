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
from collections.abc import Callable

MAX_PARAGRAPH = 3_000

#: (``\r(?!\n)``: a CRLF is one line break, never a CR and an LF read as a blank line between them)
_BLANK = re.compile(r"(?:\r\n|\r(?!\n)|\n)(?:[ \t]*(?:\r\n|\r(?!\n)|\n))+")
_LINE = re.compile(r"\r\n|\r|\n")
_SAFE_SENTENCE_END = re.compile(r"(?:(?<=[a-z]{3}[.?!])|(?<=\)\.))[ \t]+(?=[A-Z(])")


def split_paragraphs(text: str, start: int = 0, end: int | None = None) -> list[tuple[int, int]]:
    """``[(start, end), ...]`` of every paragraph, in order; separators belong to no paragraph.

    Empty paragraphs are dropped; the ranges are disjoint and increasing. With ``start`` and ``end``
    (separators that end paragraphs, or the text's ends), only the paragraphs between them, read as
    in the whole text: a blank line's reading may look at the lines beyond.
    """
    stop = len(text) if end is None else end
    out: list[tuple[int, int]] = []
    pos = start
    for m in _BLANK.finditer(text, start, stop):
        if _joins(text, m.start(), m.end()):
            continue
        _add(text, pos, m.start(), out)
        pos = m.end()
    _add(text, pos, stop, out)
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
    + r")\.[ \t]?){1,3}(?:\d(?:d|th))?"
    # New York's official style and others without periods: "137 S Ct", "169 AD3d", "85 Wn.2d"
    r"|[ \t]+(?:[A-Z][A-Za-z]{0,4}\.?[ \t]?){1,3}(?:\d(?:d|th))?)?"
    r"|(?<![\w.])(?:v\.|at))$"
)
#: A page's number alone on its line (``-15-``, ``- 7 -``, ``12``): page furniture, never joined to.
_PAGE_NUMBER = re.compile(r"[ \t\f]*(?:-[ \t]*\d{1,4}[ \t]*-|\d{1,4})[ \t]*")
_LINE_NUMBER = re.compile(r"[ \t\f]*(\d{1,2})[ \t]+\S")
_PAGE_OF = re.compile(r"[ \t\f]*(?:Page|PAGE)[ \t]+\d{1,4}(?:[ \t]+(?:of|OF)[ \t]+\d{1,4})?[ \t]*")


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
    a0 = _line_start(text, start)
    line = text[a0:start].rstrip(" \t")
    if not line:
        return False
    breaks = len(_BREAK.findall(text, start, end))
    b1 = _line_end(text, end)
    skipped, prev_line, next_line = _around_furniture(text, start, end)
    if skipped:  # "Rivera-Muriente, 959⏎⏎-5-⏎5⏎⏎F.2d at 353": a page's number between a citation's parts
        return prev_line is not None and next_line is not None and _continues(prev_line, next_line)
    if _OWN_START.match(text, end, b1) or not text[end:b1].strip() or _PAGE_NUMBER.fullmatch(text, end, b1):
        return False
    numbered = _LINE_NUMBER.match(line)
    if numbered is not None:  # "8 indictment, … Id. at 1043-⏎⏎9 44.": a line-numbered text's numbers
        after = _LINE_NUMBER.match(text, end, b1)
        if after is not None and int(after[1]) == int(numbered[1]) + 1:
            return False
    if line.endswith(","):
        return breaks <= 3
    if breaks <= 3 and _continues(line, text[end:b1]):
        return True  # "See Smith v. Jones, 123⏎⏎F.3d 456": a page break inside a citation, whatever the line's length
    if breaks != 2 or not (_WRAPPED_MIN <= len(line.strip()) <= _WRAPPED_MAX) or _heading(line):
        return False
    if not _OPEN_END.search(line[-12:]):
        return False
    if _CITATION_GOES_ON.search(line[-24:]):
        return True  # "see also Zim v. Western Pub. Co., 573⏎⏎F.2d 1318": in mixed spacing too
    return _blank_before(text, a0) and _blank_after(text, b1)


#: What a citation's rest looks like at the head of a line: a reporter and a page (or "at" and a pin),
#: after a line stopped at its volume
_REPORTER_THEN_PAGE = re.compile(
    r"[ \t]*(?:[A-Z][A-Za-z'&]{0,6}\.?[ \t]?){1,4}(?:\d(?:d|th)[ \t]?)?[ \t]*(?:\d|§|at[ \t]|[-_\u2013\u2014]{2})"
)
#: A word of a code's or reporter's abbreviated name, a line stopped at which goes on ("Pub.⏎L. 91-52")
_CODE_WORD_END = re.compile(
    r"(?<![\w.'])(?:"
    + "|".join(_REPORTER_WORDS)
    + r"|[A-Z]|Pub|Gen|Stats?|Rev|Ann|Code|Civ|Crim|Proc|Fam|Prac|Rem|Gov't|Ins|Bus|Prof|Comp|Cons|Const|"
    r"Admin|Regs?|Pen|Evid|Saf|Veh|Lab|Educ|Prob|Prop|Transp|Util|Fin|Agric|Nat|Res|Occ|Loc|Est|Hum|Inst|"
    r"Mun|Exec|Jud|Dom|Rel|Sess|Laws|Acts?|Wn|N\.Y|N\.J|R\.I|S\.C|N\.C|S\.D|N\.D)\.$"
)
#: A line ending in a lower-case word of prose (not "v.", "at", "ch.", "art." …), with or without its period
_PROSE_END = re.compile(
    r"(?<![\w.'])(?!(?:v|vs|at|art|arts|amend|cl|ch|chs|sec|secs|subd|pt|tit|no|n|nn|p|pp|app|supp|seq|id|ibid|"
    r"supra)\b)[a-z]{2,}[.,;:!?\"')\]]*$"
)
#: A line that opens a citation sentence of its own ("Id. at 116."), not the rest of the one before
_OPENS_CITATION = re.compile(r"[ \t]*(?:Id|Ibid|See|Cf|But|Accord|Compare|Contra|E\.g)\b")
_VOLUME_END = re.compile(r"(?<![\w.,$-])\d{1,4}$")
_PAGE_THEN = re.compile(r"[ \t]*(?:\d|§|at[ \t]|[-_\u2013\u2014]{2}|\*\d)")
_NAME_THEN = re.compile(r"[ \t]*[A-Z\"'\u201c]")


def _continues(line: str, nxt: str) -> bool:
    """``line`` stops inside a citation and ``nxt`` holds its rest: a volume, then a reporter and its page
    (``123⏎F.3d 456``, ``194⏎Wn.2d at 586``); a volume and reporter, then the page (``123 F.3d⏎456``); ``v.``,
    then a name; ``at``, then a pin. Read on both sides, so a line that only ends in a number (a date, a
    count) does not run on into a paragraph that starts with a word."""
    line = line.rstrip(" \t")
    if _PROSE_END.search(line[-16:]):
        return False  # "… the court held." (most lines): no citation stops at a lower-case word
    if line.endswith("§"):
        return nxt.lstrip(" \t")[:1].isdigit()
    if _VOLUME_END.search(line, max(0, len(line) - 6)):  # at most four digits before the end
        return _REPORTER_THEN_PAGE.match(nxt) is not None
    if not _CITATION_GOES_ON.search(line[-24:]):
        # "Pub.⏎L. 91-52", "Tex.⏎Fam. Code § 153.002": a code's or reporter's name cut after a word of it
        return (
            _CODE_WORD_END.search(line[-12:]) is not None
            and not _OPENS_CITATION.match(nxt)
            and (_REPORTER_THEN_PAGE.match(nxt) is not None or _PAGE_THEN.match(nxt) is not None)
        )
    if line.endswith("v."):
        return _NAME_THEN.match(nxt) is not None
    return (
        _PAGE_THEN.match(nxt) is not None or _REPORTER_THEN_PAGE.match(nxt) is not None
    )  # "355 NLRB⏎No. 94"


#: How many lines (blank or furniture) a page break may put between a citation's parts.
_FURNITURE_LINES = 8


def _furniture(line: str) -> bool:
    """A page's number alone on its line (``-5-``, ``5``, ``Page 5 of 12``): page furniture."""
    return _PAGE_NUMBER.fullmatch(line) is not None or _PAGE_OF.fullmatch(line) is not None


def _around_furniture(text: str, start: int, end: int) -> tuple[bool, str | None, str | None]:
    """(whether page furniture stands beside the blank line ``[start, end)``, the last line before it and
    the first after it that are neither blank nor furniture). Reads at most ``_FURNITURE_LINES`` lines
    each way, so the decision stays local (``Document`` re-splits a margin of paragraphs around an edit
    wide enough to hold them)."""
    skipped = False
    before: str | None = None
    pos = start
    for _ in range(_FURNITURE_LINES):
        a0 = _line_start(text, pos)
        line = text[a0:pos]
        if line.strip() and not _furniture(line):
            before = line
            break
        skipped = skipped or bool(line.strip())
        if a0 == 0:
            break
        pos = a0 - 1
        if text[pos] == "\n" and pos > 0 and text[pos - 1] == "\r":
            pos -= 1
    after: str | None = None
    pos = end
    for _ in range(_FURNITURE_LINES):
        b1 = _line_end(text, pos)
        line = text[pos:b1]
        if line.strip() and not _furniture(line):
            after = line
            break
        skipped = skipped or bool(line.strip())
        if b1 >= len(text):
            break
        pos = b1 + (2 if text.startswith("\r\n", b1) else 1)
    return skipped, before, after


def furniture_only(text: str, start: int, end: int) -> bool:
    """Whether ``text[start:end]`` (a paragraph) is nothing but page furniture (``-5-``, ``5``)."""
    if end - start > 40:
        return False
    return all(_furniture(line) or not line.strip() for line in text[start:end].splitlines())


def furniture_lines(text: str) -> list[tuple[int, int]]:
    """The lines of a paragraph that are page furniture between a citation's parts: page numbers
    standing between blank lines where the lines around them continue a citation (``959⏎⏎-5-⏎5⏎⏎F.2d at
    353``). The scanner reads them as spaces, so ``5 F.2d at 353`` is no citation of its own."""
    if "\n" not in text and "\r" not in text:
        return []
    spans = [(m.start(), m.end()) for m in _LINE_TEXT.finditer(text)]
    lines = [text[a:b] for a, b in spans]
    out: list[tuple[int, int]] = []
    k = 0
    while k < len(lines):
        if not _furniture(lines[k]):
            k += 1
            continue
        run = k
        while run < len(lines) and (not lines[run].strip() or _furniture(lines[run])):
            run += 1
        first = k
        while first > 0 and not lines[first - 1].strip():
            first -= 1
        blank = any(not line.strip() for line in lines[first:run])
        if blank and first > 0 and run < len(lines) and _continues(lines[first - 1], lines[run]):
            out.extend(spans[x] for x in range(k, run) if lines[x].strip())
        k = run
    return out


#: Each line's text (without its line break), the empty ones included
_LINE_TEXT = re.compile(r"(?:(?<=\n)|(?<=\r)(?!\n)|^)[^\r\n]*")


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


def _line_start(text: str, pos: int) -> int:
    """Where the line holding ``pos`` starts. (A CR is looked for only after the last LF: looking for
    one in the whole text before ``pos`` read a long document to its start, on every keystroke.)"""
    lf = text.rfind("\n", 0, pos)
    return max(lf, text.rfind("\r", lf + 1, pos)) + 1


def _line_end(text: str, pos: int) -> int:
    lf = text.find("\n", pos)
    stop = len(text) if lf < 0 else lf
    cr = text.find("\r", pos, stop)
    return cr if cr >= 0 else stop


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
    """A paragraph, or, when it is longer than ``MAX_PARAGRAPH``, its pieces.

    A long paragraph (a PDF page's text layer, whose lines are joined by single line breaks; a text
    with no blank lines) is cut at line breaks, but never where a citation may go on across one
    (``137 S Ct⏎1773``, ``123⏎F.3d 456``, ``Smith v.⏎Jones``): first only after a line that ends a
    sentence (``sentence_ends_line``); a piece still too long, at line breaks no citation goes on across
    (``_citation_cut``); and only a piece longer still at any line break. Each cut depends only on
    the two lines beside it, so an edit re-splits only the pieces around it (the keystroke path)."""
    if start >= end:
        return
    if end - start <= MAX_PARAGRAPH:
        out.append((start, end))
        return
    for s, e in _cut(text, start, end, sentence_ends_line):
        if e - s <= MAX_PARAGRAPH:
            out.append((s, e))
            continue
        for s2, e2 in _cut(text, s, e, _citation_cut):
            if e2 - s2 <= MAX_PARAGRAPH:
                out.append((s2, e2))
                continue
            for s3, e3 in _cut(text, s2, e2, None):
                _add_line(text, s3, e3, out)


def _cut(
    text: str, start: int, end: int, may_cut: Callable[[str, str], bool] | None
) -> list[tuple[int, int]]:
    """``[start, end)`` cut at the line breaks where ``may_cut(line, next_line)`` (every one when None);
    empty pieces left out."""
    lines = []  # (start, end) of each line that is not blank
    pos = start
    for m in _LINE.finditer(text, start, end):
        if text[pos : m.start()].strip():
            lines.append((pos, m.start()))
        pos = m.end()
    if text[pos:end].strip():
        lines.append((pos, end))
    out: list[tuple[int, int]] = []
    first = 0
    for k in range(len(lines) - 1):
        (a, b), (c, d) = lines[k], lines[k + 1]
        if may_cut is None or may_cut(text[a:b], text[c:d]):
            out.append((lines[first][0], b))
            first = k + 1
    if lines:
        out.append((lines[first][0], lines[-1][1]))
    return out


#: A line that ends a sentence: its closing punctuation, maybe closed by a quotation mark or bracket.
_SENTENCE_END = re.compile(r"[.?!;:][\"'\u201d\u2019)\]]*$")
_NEXT_OPENS = re.compile(r"[ \t]*[A-Z\"'\u201c\u2018\[]")
#: A word a citation abbreviates rather than a sentence's last: short and capitalised (``Pub.``, ``Gen.``,
#: ``Proc.``), or one of the lower-case ones (``art.``, ``ch.``, ``amend.``, ``cl.``, ``supp.``)
_ABBREVIATION_END = re.compile(
    r"(?<![\w.'])(?:[A-Z][A-Za-z'&]{0,4}|art|arts|amend|cl|ch|chs|sec|secs|subd|subds|para|pt|pts|tit|ex|n|nn|"
    r"p|pp|cmt|no|nos|ed|rev|supp|app|id|e\.g|i\.e|cf|seq)\.$"
)


def sentence_ends_line(line: str, nxt: str) -> bool:
    """A long paragraph's line break where no citation can go on: after a heading or before a list
    item, or after a sentence's end that is no abbreviation a citation is made of (``U.S.``,
    ``Ct.``, ``Id.``, ``v.``) before a line opening a sentence."""
    line = line.rstrip(" \t")
    if not line:
        return True
    core = line.rstrip("\"'\u201d\u2019)]")
    if _CITATION_GOES_ON.search(core[-24:]) or core.endswith((",", "§")):
        return False  # "83 Stat.⏎86.": a line starting "86. " is no list item here
    if _OWN_START.match(nxt) or (sum(ch.isalpha() for ch in line) >= 4 and _heading(line)):
        return True  # ("S⏎Ct 1773": a reporter's letter alone on a line is no heading)
    if not _SENTENCE_END.search(line) or not _NEXT_OPENS.match(nxt):
        return False
    return not _OPEN_END.search(core[-12:]) and not _ABBREVIATION_END.search(core[-12:])


def _citation_cut(line: str, nxt: str) -> bool:
    """Any line break but one a citation may go on across: after a volume, a volume and its reporter,
    ``v.``, ``at``, a comma or ``§``, or before a page, a section or a parenthetical."""
    line = line.rstrip(" \t")
    head = nxt.lstrip(" \t")[:1]
    return not (
        line.endswith((",", "§", "-", "\u2013"))
        or _CITATION_GOES_ON.search(line[-24:])
        or head.isdigit()
        or head in ("§", "(", "[", ",")
    )


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
