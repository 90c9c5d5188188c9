"""Agency reporters and decision series: cited like cases (volume, series, page), decided by agencies
(issue 41 item 5).

``361 NLRB No. 137``, ``313 NLRB 655``, ``7 F.C.C.R. 8752``, ``30 FCC Rcd. 7961``, ``25 I. & N. Dec. 1``,
``94 F.T.C. 701``: a ``Citation`` with ``agency`` set to the body that decided it. They are reported as
what they are, never as cases: no case-law source is asked about them (a source that "covers" a volume
of the N.L.R.B. reports would call a real decision fabricated), and they are "could not be verified"
naming the series. reporters-db lists some of these series among its reporters (``AGENCY_REPORTERS``
names them by its edition names); the rest it does not know, and ``find_agency_series`` reads them.

``209 CMR 18.14(3)`` is no case either: ``CMR`` with a dotted section is the Code of Massachusetts
Regulations (``MASS_REGULATION``), not the Court-Martial Reports reporters-db files it under.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

#: reporters-db edition (as ``Hit.reporter`` gives it) → who decided what it reports
AGENCY_REPORTERS: dict[str, str] = {
    "N.L.R.B.": "National Labor Relations Board",
    "NLRB No.": "National Labor Relations Board",
    "F.C.C.": "Federal Communications Commission",
    "F.C.C.2d": "Federal Communications Commission",
    "I. & N. Dec.": "Board of Immigration Appeals / Attorney General (I. & N. Dec.)",
    "F.T.C.": "Federal Trade Commission",
    "Comp. Gen.": "Comptroller General",
    "M.S.P.R.": "Merit Systems Protection Board",
    "Op. Att'y Gen.": "Attorney General (opinions)",
    "Op. O.L.C.": "Office of Legal Counsel (opinions)",
    "FERC": "Federal Energy Regulatory Commission",
    "I.C.C.": "Interstate Commerce Commission",
    "I.C.C.2d": "Interstate Commerce Commission",
}

#: series reporters-db does not list: how they are written → (series, who decided)
_SERIES = (
    (
        r"FCC\s?Rcd\.?|F\.\s?C\.\s?C\.\s?R(?:cd)?\.|F\.C\.C\.\s?Rcd\.",
        "FCC Rcd.",
        "Federal Communications Commission",
    ),
    (r"FCC\s?2d", "F.C.C.2d", "Federal Communications Commission"),
    (r"F\.\s?E\.\s?R\.\s?C\.", "FERC", "Federal Energy Regulatory Commission"),
    (r"Ag\.\s?Dec\.", "Ag. Dec.", "Department of Agriculture"),
    (r"S\.\s?E\.\s?C\.", "S.E.C.", "Securities and Exchange Commission"),
    (r"F\.\s?L\.\s?R\.\s?A\.|FLRA", "F.L.R.A.", "Federal Labor Relations Authority"),
    (r"E\.\s?C\.\s?A\.\s?B\.|ECAB", "E.C.A.B.", "Employees' Compensation Appeals Board"),
)
_FIND = re.compile(
    r"(?P<volume>\d(?<![\w.]\d)\d{0,3})\s+(?P<series>"
    + "|".join(f"(?:{p})" for p, _, _ in _SERIES)
    + r")\s+(?P<page>\d{1,6})(?![\w.]*\d)"
)
_BY_WRITTEN = [(re.compile(p), series, who) for p, series, who in _SERIES]


#: Series numbered by paragraph, with a thousands comma: ``53 FERC ¶ 63,020``, at page ``65,222``
PARAGRAPHED = frozenset({"FERC"})
_GROUPED = re.compile(r",\d{3}(?![\d,])")


def grouped_number_end(norm: str, series: str | None, number: str | None, end: int) -> int | None:
    """Where a paragraph number written with its thousands comma ends, when the ``¶`` was left out (a First
    Circuit opinion's ``53 F.E.R.C. 63,020``): one number, not page 63 pinned at 20; None otherwise.

    >>> grouped_number_end("53 F.E.R.C. 63,020 (1990)", "FERC", "63", 14)
    18
    >>> grouped_number_end("53 F.E.R.C. 63, 65", "FERC", "63", 14) is None
    True
    """
    if series not in PARAGRAPHED or not number or not number.isdigit() or len(number) > 3:
        return None
    m = _GROUPED.match(norm, end)
    return m.end() if m else None


@dataclass(frozen=True, slots=True)
class AgencyCite:
    """One citation of an agency series reporters-db does not list, offsets into the paragraph."""

    start: int
    end: int
    volume: str
    series: str  # normalised ("FCC Rcd.")
    written: str
    page: str
    agency: str


def may_cite_agency_series(norm: str) -> bool:
    """Whether ``norm`` holds what every ``_FIND`` match does: each series as written contains "FCC",
    "C.", "Dec.", "FLRA", "ECAB", or both "R." and "A." (``F. L. R. A.``)."""
    return (
        "C." in norm
        or "FCC" in norm
        or "Dec." in norm
        or "FLRA" in norm
        or "ECAB" in norm
        or ("R." in norm and "A." in norm)
    )


def find_agency_series(norm: str) -> list[AgencyCite]:
    """``7 F.C.C.R. 8752``, ``30 FCC Rcd. 7961``: the agency series reporters-db does not list."""
    if not may_cite_agency_series(norm):
        return []
    out = []
    for m in _FIND.finditer(norm):
        written = m["series"]
        series, agency = next((s, a) for p, s, a in _BY_WRITTEN if p.fullmatch(written))
        end = grouped_number_end(norm, series, m["page"], m.end()) or m.end()
        page = m["page"] + norm[m.end() : end]
        out.append(AgencyCite(m.start(), end, m["volume"], series, written, page, agency))
    return out


#: ``209 CMR 18.14(3)``: a Massachusetts regulation (volume = the agency's title, then the section)
MASS_REGULATION = re.compile(
    r"(?<![\w.])(?P<title>\d{1,3})\s+CMR\s+(?P<section>\d{1,3}\.\d{1,4}[A-Z]?)"
    r"(?P<subs>(?:\s?\((?:[a-z]{1,4}|[A-Z]{1,2}|[ivxlIVXL]{1,6}|\d{1,3})\))*)"
)


def agency_of(reporter: str | None) -> str | None:
    """Who decided what a reporters-db series reports, for an agency series; None for a court's."""
    return AGENCY_REPORTERS.get(reporter or "")
