"""A filing's own table of authorities (issue 41 item 6): its entries recognised, each linked to its uses.

A brief lists every authority it cites before its argument, each with a dot leader and the pages it is
cited on (``Baptiste v. Sommers, 768 F.3d 212 216 (2d Cir. 2014) ........ passim``; an entry may run
over two lines: ``Matter of Bourguignon v. Coordinated Behavioral Health Servs., Inc., 114 A.D.3d⏎947 (3d
Dep't 2014) ...... 6``). Such a citation is ``Citation.listed``. The entry is the same authority as its
uses in the body: ``table_twins`` links each listed citation to the first body citation of the same
authority, and the checks report an authority once, at its use (``judge``); an entry with no use in the
body keeps its own findings (a fabricated case only the table lists is still caught). Pure.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from citecheck.extract.models import Citation, CiteForm, resolved_statute

#: A dot leader and the brief's pages (``........ 5, 7``, ``. . . . passim``, ``.... 12-14``, ``.... ii``),
#: ending its line
LEADER = re.compile(
    r"\s*(?:\.\s*){4,}\s*(?:(?:\d{1,4}|[ivxlc]{1,6})(?:\s*[-\u2013]\s*\d{1,4})?"
    r"(?:\s*[,;&]\s*(?:\d{1,4}|[ivxlc]{1,6})(?:\s*[-\u2013]\s*\d{1,4})?)*|passim|Passim|PASSIM)\.?[ \t]*(?=[\r\n]|$)"
)


#: A table a service reflowed (vLex's copy of a Texas mandamus petition): a long leader and the entry's
#: pages, then the next entry on the same line (``(Tex.2001) ............ 14 In re Prudential …``)
REFLOWED = re.compile(
    r"\s*(?:\.\s?){10,}\s*(?:\d{1,4}(?:\s*[-\u2013]\s*\d{1,4})?(?:\s*[,;&]\s*\d{1,4}(?:\s*[-\u2013]\s*\d{1,4})?)*"
    r"|passim|Passim|PASSIM)(?=\s+[A-Z])"
)

#: what every LEADER and REFLOWED match holds
_FOUR_DOTS = re.compile(r"\.\s*\.\s*\.\s*\.")


def _line_end(text: str, at: int, limit: int) -> int:
    nl = [i for i in (text.find("\n", at, limit), text.find("\r", at, limit)) if i >= 0]
    return min(nl) if nl else min(limit, len(text))


def listed_at(norm: str, text: str, end: int, limit: int) -> bool:
    """Whether the citation ending at ``end`` (the next one starting at ``limit``) is a table-of-authorities
    entry: a dot leader and page numbers end its line, with little but its court and year between
    (``768 F.3d 212 216 (2d Cir. 2014 ) ........ passim``); or end the next line, where the court and year
    run onto it (``148 S.W.3d 124, (Tex.⏎2003) ...... 14``); or a long leader and the pages stand before the
    next entry, in a table a service reflowed."""
    line_end = _line_end(text, end, limit)
    stops = [line_end]
    if line_end < min(limit, len(text)):
        stops.append(_line_end(text, line_end + 1, limit))
    for stop in stops:
        if stop - end > 160:
            return False
        if _FOUR_DOTS.search(norm, end, stop) is None:
            continue  # no leader here (each has four dots at least; a search from its literal is quick)
        for m in LEADER.finditer(norm, end, stop):
            if m.end() == stop and len(norm[end : m.start()].strip()) <= 60:
                return True
        for m in REFLOWED.finditer(norm, end, stop):
            if len(norm[end : m.start()].strip()) <= 60:
                return True
    return False


def table_twins(citations: Sequence[Citation]) -> dict[int, int]:
    """Each listed citation (a table entry) → the first citation in the body of the same authority
    (the same volume, reporter and page; the same section of the same code), where there is one."""
    body_cases: dict[tuple[str, str, str], int] = {}
    body_statutes: dict[object, int] = {}
    for c in citations:
        if c.listed:
            continue
        if c.form is CiteForm.FULL and c.key is not None:
            body_cases.setdefault(c.key, c.index)
        elif c.form is CiteForm.STATUTE and c.statute is not None and c.statute.key is not None:
            body_statutes.setdefault(c.statute.key, c.index)
    out: dict[int, int] = {}
    for c in citations:
        if not c.listed:
            continue
        if c.key is not None and c.key in body_cases:
            out[c.index] = body_cases[c.key]
        elif c.statute is not None:
            own = resolved_statute(c, None)
            if own is not None and own.key is not None and own.key in body_statutes:
                out[c.index] = body_statutes[own.key]
    return out
