"""Everything citecheck knows about reporters, in one place; pure lookups over reporters-db plus our tables.

Two questions are easy to confuse, so they have two names:

- :func:`is_case_reporter`: a case reporter edition reporters-db knows (after normalising the spelling):
  what the sources can look up and what CAP has a slug for;
- :func:`is_known_reporter`: anything reporters-db lists (case reporters, their variations, law codes,
  journals): a string we must never call an invented reporter.

reporters-db's edition dates are weak evidence (see docs/findings.md, "year-mismatch"): a start of 1750
means "unknown", ``end: null`` means ongoing *or* unknown, several are plainly wrong (``F. Supp.`` "ended
in 1988", ``F.R.D.`` "began in 2001"), and state reports renumbered their nominative volumes
retroactively (``3 Ky. 586 (1808)``). So the date rule uses only :data:`SERIES_YEARS`, a table of the
years of each series' first and last volumes (the year a West series starts is the year its predecessor
ends), each row with its source and the reporters-db error it corrects. The rows were checked against
the real citations of the regression set (tests/real_text/) but not yet against CAP's
VolumesMetadata.json, which was not reachable offline; that cross-check is the next step. Even so a
conflict is a warning, never an impossible citation: a year outside the series proves that *either* the
year *or* the citation is wrong.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache, lru_cache

import reporters_db

#: Electronic databases: real cites we can never verify from public reporters.
DATABASE_REPORTERS = frozenset({"WL", "LEXIS", "U.S. Dist. LEXIS", "U.S. App. LEXIS", "U.S. LEXIS"})

#: CourtListener took in the whole Caselaw Access Project (complete through mid-2018), so a
#: series that ENDED before 2018 is complete there. U.S. Reports is complete through this volume.
_CAP_CUTOFF_YEAR = 2017
_US_COMPLETE_THROUGH = 570


@dataclass(frozen=True, slots=True)
class SeriesYears:
    """Years of decision a series holds: ``first`` = year of its first volume, ``last`` = year of its
    last volume (None: still published). ``source`` says where the figures come from."""

    first: int
    last: int | None
    source: str


_WEST = "West series succession: the year of a series' first volume is the last year of its predecessor"
_PUBLISHER = "publisher's volume years (West); not yet cross-checked against CAP VolumesMetadata.json"

#: The only reporters the date rule applies to, with audited first/last years. Where reporters-db
#: disagrees, the row says so (``reporters-db: …``): those were false "impossible citation" errors on
#: real opinions (tests/checks/test_reporters.py has each real citation).
SERIES_YEARS: dict[str, SeriesYears] = {
    "L. Ed.": SeriesYears(1790, 1956, _WEST),
    "L. Ed. 2d": SeriesYears(1956, None, _WEST + "; vol. 1 = 351 U.S. (1956)"),
    "F.": SeriesYears(1880, 1924, _WEST),
    "F.2d": SeriesYears(1924, 1993, _WEST),
    "F.3d": SeriesYears(1993, 2021, _WEST + "; F.4th vol. 1 (2021)"),
    "F.4th": SeriesYears(2021, None, _WEST),
    "F. Supp.": SeriesYears(1932, 1998, _WEST + "; reporters-db: ended 1988 (wrong: vol. 980 is 1997)"),
    "F. Supp. 2d": SeriesYears(1998, 2014, _WEST + "; reporters-db: began 1988"),
    "F. Supp. 3d": SeriesYears(2014, None, _WEST),
    "F.R.D.": SeriesYears(
        1940, None, _PUBLISHER + "; vol. 1 (1940); reporters-db: began 2001 (wrong: 54 F.R.D. is 1971)"
    ),
    "B.R.": SeriesYears(1979, None, _PUBLISHER),
    "A.": SeriesYears(1885, 1938, _WEST),
    "A.2d": SeriesYears(1938, 2010, _WEST),
    "A.3d": SeriesYears(2010, None, _WEST),
    "N.E.": SeriesYears(1885, 1936, _WEST),
    "N.E.2d": SeriesYears(1936, 2014, _WEST),
    "N.E.3d": SeriesYears(2014, None, _WEST),
    "N.W.": SeriesYears(1879, 1942, _WEST),
    "N.W.2d": SeriesYears(1941, 2024, _WEST),
    "P.": SeriesYears(1883, 1931, _WEST),
    "P.2d": SeriesYears(1931, 2000, _WEST),
    "P.3d": SeriesYears(2000, None, _WEST),
    "S.E.": SeriesYears(1887, 1939, _WEST),
    "S.W.": SeriesYears(1886, 1928, _WEST),
    "S.W.2d": SeriesYears(1928, 1999, _WEST),
    "S.W.3d": SeriesYears(1999, None, _WEST),
    "So.": SeriesYears(1886, 1941, _WEST),
    "So. 2d": SeriesYears(1941, 2008, _WEST),
    "So. 3d": SeriesYears(2008, None, _WEST),
    "Cal. Rptr.": SeriesYears(1959, 1991, _WEST),
    "Cal. Rptr. 2d": SeriesYears(1991, 2003, _WEST),
    "Cal. Rptr. 3d": SeriesYears(2003, None, _WEST),
    "Ohio St. 2d": SeriesYears(1964, 1982, "Ohio Reports; reporters-db: ended 1991"),
    "Ohio St. 3d": SeriesYears(
        1982, None, "Ohio Reports, vol. 1 (1982); reporters-db: began 1991 (wrong: 15 Ohio St. 3d is 1984)"
    ),
}

#: A case decided late in one year is reported in the next series, and a series' last volumes overlap
#: its successor's first ones: only a year beyond these margins conflicts.
_YEARS_BEFORE_FIRST = 1
_YEARS_AFTER_LAST = 1

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
_CLOSED_AT_LIMIT = frozenset({"F.", "L. Ed.", "A.", "N.E.", "P."})

#: No bound volume of a case reporter runs to this many pages (S. Ct. volumes, the longest, stay under 4,000).
MAX_PAGE = 10_000
_PAGED_TYPES = frozenset({"federal", "state", "state_regional", "scotus_early"})


def _squash(s: str) -> str:
    return re.sub(r"\s+", "", s).lower()


# --- names ---------------------------------------------------------------------------------------


@lru_cache(maxsize=1)
def _tables() -> tuple[dict[str, str], dict[str, str]]:
    """(squashed spelling → canonical edition) for editions first, then unambiguous variations."""
    editions: dict[str, str] = {}
    for ed in reporters_db.EDITIONS:
        editions.setdefault(_squash(ed), ed)
    variations: dict[str, str] = {}
    for var, eds in reporters_db.VARIATIONS_ONLY.items():
        if len(eds) == 1:
            variations.setdefault(_squash(var), eds[0])
    return editions, variations


def normalise_reporter(reporter: str) -> str:
    """Canonical reporters-db edition for ``reporter``; unknown or ambiguous spellings come back trimmed.

    >>> normalise_reporter("A. 2d"), normalise_reporter("F.Supp.2d"), normalise_reporter("Va.App.")
    ('A.2d', 'F. Supp. 2d', 'Va. App.')
    >>> normalise_reporter("Umbrella")
    'Umbrella'
    """
    r = " ".join(reporter.split())
    if r in reporters_db.EDITIONS:
        return r
    editions, variations = _tables()
    key = _squash(r)
    return editions.get(key) or variations.get(key) or r


@lru_cache(maxsize=1)
def _undotted() -> dict[str, str | None]:
    """(spelling without periods or spaces → the one case edition it can be; None when several can)."""
    out: dict[str, str | None] = {}

    def add(spelling: str, edition: str) -> None:
        key = re.sub(r"[\s.]+", "", spelling).lower()
        if key in out and out[key] != edition:
            out[key] = None
        else:
            out[key] = edition

    for ed in reporters_db.EDITIONS:
        add(ed, ed)
    for var, eds in reporters_db.VARIATIONS_ONLY.items():
        for ed in eds:
            add(var, ed)
    return out


def reporter_variant(reporter: str) -> str | None:
    """The case reporter a spelling with periods or spaces missing stands for, or None.

    Drafts drop periods and spaces that reporters-db's variations do not list: ``F. Supp 3d`` (the
    Mata v. Avianca sanctions opinion cites itself so), ``F.Supp 2d``, ``Fed Appx``. Read as the
    reporter only when exactly one edition has those letters in that order; an invented series
    (``Cal. Rptr. 4th``) has none.

    >>> reporter_variant("F. Supp 3d"), reporter_variant("Fed Appx"), reporter_variant("S Ct")
    ('F. Supp. 3d', "F. App'x", 'S. Ct.')
    >>> reporter_variant("Cal. Rptr. 4th") is None, reporter_variant("Umbrella") is None
    (True, True)
    """
    key = re.sub(r"[\s.]+", "", reporter).lower()
    if not key:
        return None
    return _undotted().get(key)


def is_case_reporter(reporter: str) -> bool:
    """A case reporter edition reporters-db knows, whatever the spelling.

    >>> is_case_reporter("F.Supp.2d"), is_case_reporter("Harv. L. Rev."), is_case_reporter("Umbrella")
    (True, False, False)
    """
    return normalise_reporter(reporter) in reporters_db.EDITIONS


@dataclass(frozen=True, slots=True)
class _Edition:
    start: int | None  # None: unknown
    end: int | None  # None: ongoing or unknown
    cite_type: str


_UNKNOWN_START_YEAR = 1750


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


def is_known_reporter(reporter: str) -> bool:
    """True when reporters-db knows the string as a reporter, variation, law code or journal.

    >>> is_known_reporter("F. Supp. 2d"), is_known_reporter("A.2d"), is_known_reporter("Umbrella")
    (True, True, False)
    """
    return _squash(reporter) in _known_names()


@cache
def _siblings() -> dict[str, tuple[str, ...]]:
    out: dict[str, tuple[str, ...]] = {}
    for entries in reporters_db.REPORTERS.values():
        for entry in entries:
            names = tuple(entry["editions"])
            for name in names:
                out[name] = (
                    *out.get(name, ()),
                    *(n for n in names if n != name and n not in out.get(name, ())),
                )
    return out


def series_siblings(reporter: str) -> tuple[str, ...]:
    """The other series of the same reporter (a draft that writes A.3d for A.2d names one of them).

    >>> series_siblings("A.2d"), series_siblings("F. Supp. 2d")
    (('A.', 'A.3d'), ('F. Supp.', 'F. Supp. 3d'))
    """
    return _siblings().get(normalise_reporter(reporter), ())


def is_neutral(reporter: str) -> bool:
    """Neutral (public-domain) citations number paragraphs, not pages: ``2018 WI 11, ¶ 23``.

    >>> is_neutral("WI"), is_neutral("A.3d")
    (True, False)
    """
    eds = _editions().get(reporter)
    return bool(eds) and all(e.cite_type == "neutral" for e in eds or ())


def is_database(reporter: str) -> bool:
    return reporter in DATABASE_REPORTERS or "LEXIS" in reporter or reporter == "WL"


_SERIES_WORD = re.compile(r"(?<![A-Za-z])(\d+)(?:d|th|st|nd|rd)\b\.?")


def invented_series(reporter: str) -> str | None:
    """The real reporter an invented series pretends to continue, or None.

    ``Cal. Rptr. 4th`` (Cal. Rptr. stopped at 3d), ``P. 4th``, ``S.W.3d. 7th``, ``Ark. 7th``: a real
    reporter's name with a series number that reporters-db has never heard of. Only this shape is
    certain enough to call impossible; an unknown word (``Burr.``, ``IDELR``) may be a reporter we
    simply do not list.

    >>> invented_series("Cal. Rptr. 4th"), invented_series("S.W.3d. 7th"), invented_series("Ark. 7th")
    ('Cal. Rptr.', 'S.W.3d', 'Ark.')
    >>> invented_series("Cal. Rptr. 3d") is None, invented_series("Burr.") is None
    (True, True)
    """
    if (
        is_known_reporter(reporter)
        or is_known_reporter(reporter.rstrip("."))
        or not _SERIES_WORD.search(reporter)
    ):
        return None  # "S.W.3d." is a stray period, not a series
    words = reporter.split()
    # drop series words from the end until a real reporter remains: "S.W.3d. 7th" → "S.W.3d."
    popped = False
    while words and _SERIES_WORD.fullmatch(words[-1]):
        words.pop()
        popped = True
    root = " ".join(words)
    if not root:
        return None
    if (
        popped
        and is_case_reporter(root.rstrip("."))
        and root.rstrip(".") != root
        and _SERIES_WORD.search(root)
    ):
        return normalise_reporter(root.rstrip("."))
    for candidate in (root, root.rstrip(".")):
        if candidate and is_case_reporter(candidate):
            return normalise_reporter(candidate)
    # "A.4th", "F.6th": a series glued to the root
    m = re.fullmatch(r"(.*?\.)\s?\d+(?:d|th|st|nd|rd)\.?", reporter.strip())
    if m and is_case_reporter(m.group(1)):
        return normalise_reporter(m.group(1))
    return None


# --- what a citation can never be ----------------------------------------------------------------


def series_year_problem(reporter: str, year: int) -> str | None:
    """Why ``reporter`` cannot hold a case decided in ``year`` (audited series only), or None.

    Callers report it as a warning: the year or the citation is wrong, we cannot tell which.

    >>> series_year_problem("S.W.3d", 1986)
    'S.W.3d began in 1999, so a case decided in 1986 cannot be reported there'
    >>> series_year_problem("F. Supp.", 1997) is None, series_year_problem("F.R.D.", 1971) is None
    (True, True)
    >>> series_year_problem("Ky.", 1808) is None  # not audited: retroactively numbered nominatives
    True
    """
    years = SERIES_YEARS.get(reporter)
    if years is None:
        return None
    if year < years.first - _YEARS_BEFORE_FIRST:
        return f"{reporter} began in {years.first}, so a case decided in {year} cannot be reported there"
    if years.last is not None and year > years.last + _YEARS_AFTER_LAST:
        return f"{reporter} ended in {years.last}, so a case decided in {year} cannot be reported there"
    return None


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
        if limit == 999 or reporter in _CLOSED_AT_LIMIT:
            return f"{reporter} ends at volume {limit}; there is no volume {int(volume)}"
        # an open series: the limit is a bound it is far from reaching, not its last volume
        return f"{reporter} has no volume {int(volume)} (the series has not yet reached volume {limit})"
    return None


def page_problem(reporter: str, page: str) -> str | None:
    """Why the first page cannot exist in any volume of a paged reporter, or None.

    >>> page_problem("A.3d", "48213")
    'no volume of A.3d runs to page 48213'
    >>> page_problem("A.3d", "1004") is None
    True

    Database and slip-opinion series number documents, not pages (reporters-db files the state Lexis
    databases and the New York Slip Opinions as "state" reporters): ``2016 Fla. App. LEXIS 17683`` and
    ``2014 NY Slip Op 24083`` are real.

    >>> page_problem("Fla. App. LEXIS", "17683") is None, page_problem("NY Slip Op", "50123") is None
    (True, True)
    """
    eds = _editions().get(reporter)
    if not eds or not page.isdigit() or not all(e.cite_type in _PAGED_TYPES for e in eds):
        return None
    if is_database(reporter) or "Slip Op" in reporter:
        return None
    if int(page) == 0:
        return f"no volume of {reporter} has a page 0"
    if int(page) > MAX_PAGE:
        return f"no volume of {reporter} runs to page {int(page)}"
    return None


# --- sources -------------------------------------------------------------------------------------


#: A volume number that is a year (``2015 Ohio 1500``, ``1992-Ohio-2``): a neutral citation's "volume".
_YEAR_LIKE = range(1700, 2100)


def year_like(volume: str) -> bool:
    """A volume that is a year, as neutral citations number theirs.

    >>> year_like("2015"), year_like("288"), year_like("1992-Ohio")
    (True, False, False)
    """
    return volume.isdigit() and int(volume) in _YEAR_LIKE


def neutral_volume(reporter: str, volume: str) -> bool:
    """Whether ``volume`` of ``reporter`` may be a neutral (public-domain) citation: a neutral-only
    reporter (``WI``), or a year-like volume of an abbreviation one of whose editions is neutral
    (``2015 Ohio`` — Ohio Reports closed in 1851, the neutral citation runs; ``2010 Pa. Super.``).

    >>> neutral_volume("Ohio", "2015"), neutral_volume("Ohio", "20"), neutral_volume("WI", "2018")
    (True, False, True)
    """
    eds = _editions().get(reporter, ())
    if not eds:
        return False
    if all(e.cite_type == "neutral" for e in eds):
        return True
    return year_like(volume) and any(e.cite_type == "neutral" for e in eds)


def state_reporter(reporter: str) -> bool:
    """A state, state regional or neutral reporter: where CourtListener and CAP lose parallel citations
    of state cases (regional citations of states with official reports, CAP #345, #2013).

    >>> state_reporter("A.2d"), state_reporter("Md."), state_reporter("F.3d"), state_reporter("U.S.")
    (True, True, False, False)
    """
    eds = _editions().get(reporter, ())
    return bool(eds) and all(e.cite_type in ("state", "state_regional", "neutral") for e in eds)


def courtlistener_covers(reporter: str, volume: str) -> bool:
    """Whether CourtListener holds EVERY case of this reporter volume (so its absence there is evidence).

    Conservative on purpose: only closed series (ended before the CAP cutoff) and old U.S. Reports.
    Audited years win over reporters-db's (``F. Supp.`` ran to 1998, not 1988). An abbreviation several
    reporters share is closed only if every edition that could hold the volume is: ``Ohio`` names Ohio
    Reports (closed 1851) and the Ohio neutral citation (running), so ``2015 Ohio`` is never covered while
    ``20 Ohio`` is; ``Conn. Super. Ct.`` and ``Ct. Cl.`` each name a running series too (issue 32). A
    neutral volume is never covered: CourtListener lacks whole years of them (#3992, #5768).

    >>> courtlistener_covers("Ohio", "2015"), courtlistener_covers("Pa. Super.", "2010")
    (False, False)
    >>> courtlistener_covers("Ark.", "288"), courtlistener_covers("Ct. Cl.", "100")
    (True, False)
    """
    if reporter == "U.S.":
        return volume.isdigit() and int(volume) <= _US_COMPLETE_THROUGH
    if neutral_volume(reporter, volume):
        return False
    audited = SERIES_YEARS.get(reporter)
    if audited is not None:
        return audited.last is not None and audited.last <= _CAP_CUTOFF_YEAR
    eds = [e for e in _editions().get(reporter, ()) if e.cite_type != "neutral"]
    return bool(eds) and all(e.end is not None and e.end <= _CAP_CUTOFF_YEAR for e in eds)


def cap_slug(reporter: str) -> str:
    """case.law static-site slug: ``A.2d`` → ``a2d``, ``Ala. App.`` → ``ala-app``, ``F. Supp. 2d`` → ``f-supp-2d``.

    >>> cap_slug("A.2d"), cap_slug("Ala. App."), cap_slug("F. Supp. 2d"), cap_slug("U.S.")
    ('a2d', 'ala-app', 'f-supp-2d', 'us')
    """
    s = reporter.lower().replace("'", "").replace(".", "")
    s = re.sub(r"[^a-z0-9]+", "-", s).strip("-")
    return s
