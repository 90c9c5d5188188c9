"""Page furniture in a PDF's text layer: running heads and feet, page numbers, the court's e-filing
stamp, pleading paper's line numbers — lines a page prints that are no part of the text they interrupt.

A citation run over a page break (``See Smith v. Jones, 827`` at the foot of one page, ``S.W.2d 833``
at the head of the next, with ``Case 4:20-cv-01234 Document 5 Filed 01/02/20 Page 13 of 20`` and
``- 14 -`` between) is one citation again once what the pages print between its parts is out of the
way. ``clean_pages`` takes each page's text and gives it back without the furniture at its top and
bottom (and without a pleading paper's line numbers anywhere), and ``page_joint`` says how a page
goes on to the next: a line break where it stops in the middle of a sentence (or a citation), a
blank line where it ends one. Pure: text in, text out (``inputs.py`` reads the PDF).

What counts as furniture is what a court or a word processor prints on every page: a line at the
top or bottom of a page that another page repeats there (digits aside: ``No. 21-50498``, ``2
TARRANT REGIONAL WATER DIST. v. HERRMANN``, ``Cite as: 569 U. S. ____ (2013)``), a page number
(``- 3 -``, ``Page 3 of 12``, ``iv``; ``12`` alone where the numbers run in step with the pages,
since a volume cut off at a page's foot looks the same), a CM/ECF stamp (``Case: 20-1507 Document:
00117684624 Page: 1 …``). A footnote at the foot of a page repeats nowhere and is kept.
"""

from __future__ import annotations

import re
from collections import Counter

#: How many non-blank lines at the top and at the bottom of a page may be furniture.
ZONE = 6
#: On how many pages a line must stand at the top or bottom to be a running head or foot.
REPEATED = 3
_DIGITS = re.compile(r"\d+")
_SPACES = re.compile(r"\s+")
_PAGE_NUMBER = re.compile(
    r"\s*[-\u2013\u2014]\s*\d{1,4}\s*[-\u2013\u2014]\s*"
    r"|\s*(?:Page|PAGE|Pg\.)\s*\d{1,4}(?:\s*(?:of|OF)\s*\d{1,4})?\s*"
    r"|\s*[ivxlc]{1,7}\s*"
)
#: A number alone on a line: a page number where the pages' numbers run in step with the pages, else
#: maybe a citation's volume cut off at the foot of the page (``See Walker v. Packer,⏎827``)
_BARE_NUMBER = re.compile(r"\s*(\d{1,4})\s*")
#: CM/ECF and appellate e-filing stamps: "Case 4:20-cv-01234 Document 5 Filed 01/02/20 Page 13 of 20",
#: "Case: 20-16276, 08/05/2020, ID: 11778722, DktEntry: 19, Page 3 of 15", "USCA Case #19-5331 Document …"
_STAMP = re.compile(
    r"\s*(?:USCA\s+|Appellate\s+)?Case(?::|\s)\s*#?\s*[\w:.-]*\d[\w:.-]*,?.{0,80}?"
    r"\b(?:Document|Doc\.|DktEntry|Dkt\.|ECF\s+No\.|Filed|Page)\b.*"
)
_LINE_NUMBER = re.compile(r"\s*(\d{1,2})\s*")


def _signature(line: str) -> str:
    """A line as a running head repeats it from page to page: digits aside, spaces collapsed."""
    return _SPACES.sub(" ", _DIGITS.sub("#", line)).strip()


def _zones(lines: list[str]) -> tuple[list[int], list[int]]:
    """Indices of the first and the last ``ZONE`` non-blank lines (top to bottom; bottom to top)."""
    filled = [i for i, line in enumerate(lines) if line.strip()]
    return filled[:ZONE], filled[::-1][:ZONE]


def _line_numbers(lines: list[str]) -> set[int]:
    """Pleading paper's line numbers: lines holding only 1, 2, 3, … in order (five or more)."""
    marked: list[int] = []
    expect = 1
    for i, line in enumerate(lines):
        m = _LINE_NUMBER.fullmatch(line)
        if m is not None and int(m[1]) == expect:
            marked.append(i)
            expect += 1
    return set(marked) if len(marked) >= 5 else set()


def clean_pages(pages: list[str]) -> list[str]:
    """Each page's text less its furniture (whole lines dropped; what is left is as written)."""
    split = [page.split("\n") for page in pages]
    seen: Counter[str] = Counter()
    steps: Counter[int] = Counter()  # a bare number's value less its page's index, once a page
    for k, lines in enumerate(split):
        top, bottom = _zones(lines)
        ends = (*top, *bottom)
        seen.update({_signature(lines[i]) for i in ends if not _BARE_NUMBER.fullmatch(lines[i])})
        steps.update({int(m[1]) - k for i in ends if (m := _BARE_NUMBER.fullmatch(lines[i]))})

    def furniture(line: str, k: int) -> bool:
        if _PAGE_NUMBER.fullmatch(line) or _STAMP.fullmatch(line):
            return True
        bare = _BARE_NUMBER.fullmatch(line)
        if bare is not None:
            return steps[int(bare[1]) - k] >= 2  # "2", "3", "4" atop pages 1, 2, 3
        return seen[_signature(line)] >= REPEATED

    out = []
    for k, lines in enumerate(split):
        drop = _line_numbers(lines)
        top, bottom = _zones(lines)
        for zone in (top, bottom):
            for i in zone:
                if not furniture(lines[i], k):
                    break
                drop.add(i)
        kept = [line for i, line in enumerate(lines) if i not in drop]
        while kept and not kept[-1].strip():
            kept.pop()
        first = next((i for i, line in enumerate(kept) if line.strip()), len(kept))
        out.append("\n".join(kept[first:]))
    return out


def page_joint(page: str, following: str) -> str:
    """How ``page`` goes on to ``following``: ``"\\n"`` where it stops in the middle of a sentence
    (a citation may run on: ``… Smith v. Jones, 827`` / ``S.W.2d 833``), ``"\\n\\n"`` where it ends
    one and the next page opens a sentence."""
    from citecheck.extract.paragraphs import sentence_ends_line

    last = page.rstrip().rsplit("\n", 1)[-1]
    first = following.lstrip().split("\n", 1)[0]
    if not last or not first:
        return "\n\n"
    return "\n\n" if sentence_ends_line(last, first) else "\n"
