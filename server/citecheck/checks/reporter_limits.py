"""What reporters-db (plus our own small volume table) says a citation can never be; pure lookups.

reporters-db knows each edition's start/end dates but not its volumes (see docs/findings.md). Its dates
are weak evidence: a start of 1750 means "unknown", ``end: null`` means ongoing *or* unknown, and the
nominative era makes ``5 U.S. (1 Cranch) 137 (1803)`` legitimate although ``U.S.`` "starts" in 1875.
Every rule here therefore leaves a margin and says nothing when in doubt: a false "impossible" is
worse than a miss.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import reporters_db

#: Editions whose dates we do not trust for the "series did not exist yet" rule.
_NO_START_RULE = frozenset({"U.S."})  # nominative volumes 1-90 predate the 1875 start date
_UNKNOWN_START_YEAR = 1750
_YEAR_MARGIN = 1  # a case decided late in one year may be reported in the next series

#: Highest volume a series has (closed series) or could plausibly reach by 2030 (open ones).
#: Deliberately generous: a volume above these is impossible, one below proves nothing.
MAX_VOLUME: dict[str, int] = {
    "F.": 300,
    "F.2d": 999,
    "F.3d": 999,
    "F.4th": 400,
    "F. Supp.": 999,
    "F. Supp. 2d": 999,
    "F. Supp. 3d": 999,
    "F. App'x": 999,
    "U.S.": 700,
    "S. Ct.": 200,
    "L. Ed.": 100,
    "L. Ed. 2d": 300,
    "A.": 200,
    "A.2d": 999,
    "A.3d": 600,
    "N.E.": 200,
    "N.E.2d": 999,
    "N.E.3d": 500,
    "N.W.2d": 999,
    "N.W.3d": 200,
    "P.": 300,
    "P.2d": 999,
    "P.3d": 999,
    "S.E.2d": 999,
    "S.W.2d": 999,
    "S.W.3d": 999,
    "So. 2d": 999,
    "So. 3d": 700,
    "Cal. Rptr. 3d": 600,
    "N.Y.S.3d": 500,
    "B.R.": 999,
}

#: No bound volume of a case reporter runs to this many pages (S. Ct. volumes, the longest, stay under 4,000).
MAX_PAGE = 10_000
_PAGED_TYPES = frozenset({"federal", "state", "state_regional", "scotus_early"})


@dataclass(frozen=True, slots=True)
class _Edition:
    start: int | None  # None: unknown
    end: int | None  # None: ongoing or unknown
    cite_type: str


@cache
def _editions() -> dict[str, tuple[_Edition, ...]]:
    out: dict[str, list[_Edition]] = {}
    for entries in reporters_db.REPORTERS.values():
        for entry in entries:
            for name, ed in entry["editions"].items():
                start = ed.get("start")
                end = ed.get("end")
                out.setdefault(name, []).append(
                    _Edition(
                        start=None if start is None or start.year <= _UNKNOWN_START_YEAR else start.year,
                        end=None if end is None else end.year,
                        cite_type=entry.get("cite_type", ""),
                    )
                )
    return {k: tuple(v) for k, v in out.items()}


@cache
def _known_names() -> frozenset[str]:
    names: set[str] = set(_editions())
    names.update(reporters_db.VARIATIONS_ONLY)
    for table in (reporters_db.LAWS, reporters_db.JOURNALS):
        for key, entries in table.items():
            names.add(key)
            for entry in entries:
                names.update(entry.get("variations", {}) or {})
    return frozenset(_squash(n) for n in names)


def _squash(s: str) -> str:
    return "".join(s.split()).lower()


def is_neutral(reporter: str) -> bool:
    """Neutral (public-domain) citations number paragraphs, not pages: ``2018 WI 11, ¶ 23``.

    >>> is_neutral("WI"), is_neutral("A.3d")
    (True, False)
    """
    eds = _editions().get(reporter)
    return bool(eds) and all(e.cite_type == "neutral" for e in eds or ())


def is_known_reporter(reporter: str) -> bool:
    """True when reporters-db knows the string as a reporter, variation, law code or journal.

    >>> is_known_reporter("F. Supp. 2d"), is_known_reporter("A.2d"), is_known_reporter("Umbrella")
    (True, True, False)
    """
    return _squash(reporter) in _known_names()


def series_year_problem(reporter: str, year: int) -> str | None:
    """Why ``reporter`` cannot report a case decided in ``year``, or None when it can (or we cannot tell).

    >>> series_year_problem("S.W.3d", 1986)
    'S.W.3d began in 1999; a case decided in 1986 cannot be reported there'
    >>> series_year_problem("S.W.3d", 2004) is None, series_year_problem("U.S.", 1803) is None
    (True, True)
    """
    if reporter in _NO_START_RULE:
        return None
    eds = _editions().get(reporter)
    if not eds:
        return None
    problems = []
    for ed in eds:
        if ed.start is not None and year < ed.start - _YEAR_MARGIN:
            problems.append(f"{reporter} began in {ed.start}; a case decided in {year} cannot be reported there")
        elif ed.end is not None and year > ed.end + _YEAR_MARGIN:
            problems.append(f"{reporter} ended in {ed.end}; a case decided in {year} cannot be reported there")
        else:
            return None  # some edition of that name fits the year
    return problems[0] if problems else None


def volume_problem(reporter: str, volume: str) -> str | None:
    """Why the volume cannot exist, or None.

    >>> volume_problem("F.3d", "1204")
    'F.3d ends at volume 999; there is no volume 1204'
    >>> volume_problem("F.3d", "15") is None
    True
    """
    limit = MAX_VOLUME.get(reporter)
    if limit is None or not volume.isdigit():
        return None
    if int(volume) == 0:
        return f"{reporter} has no volume 0"
    if int(volume) > limit:
        closed = limit == 999 or reporter in ("F.", "L. Ed.", "A.", "N.E.", "P.")
        what = "ends at" if closed else "has not reached (nor will soon reach)"
        return f"{reporter} {what} volume {limit}; there is no volume {int(volume)}"
    return None


def page_problem(reporter: str, page: str) -> str | None:
    """Why the first page cannot exist in any volume of a paged reporter, or None.

    >>> page_problem("A.3d", "48213")
    'no volume of A.3d runs to page 48213'
    >>> page_problem("A.3d", "1004") is None
    True
    """
    eds = _editions().get(reporter)
    if not eds or not page.isdigit() or not all(e.cite_type in _PAGED_TYPES for e in eds):
        return None
    if int(page) == 0:
        return f"no volume of {reporter} has a page 0"
    if int(page) > MAX_PAGE:
        return f"no volume of {reporter} runs to page {int(page)}"
    return None
