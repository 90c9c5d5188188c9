"""New York's courts as its citations name them: the Appellate Division and its Departments; pure.

New York's trial court of general jurisdiction is the *Supreme Court*; its intermediate appellate court is
the *Appellate Division*, in four Departments, reported in ``A.D.``/``A.D.2d``/``A.D.3d`` and cited
``(2d Dep't 2010)``, ``(1st Dept 2014)``, ``(App. Div. 3d Dep't 2016)``. courts-db knows the Appellate
Division (``nyappdiv``) but not these forms, so a Supreme Court memo's Appellate Division cases were "weight
unknown" (issue 36), although they bind it (``weight._STATE_RULES``: Mountain View Coach Lines v. Storms).
The Appellate Term (``App. Term``) reviews the lower trial courts.
"""

from __future__ import annotations

import re

APPELLATE_DIVISION = "nyappdiv"
APPELLATE_TERM = "nyappterm"

#: The Appellate Division's official reports (the series dropped): they imply the court (Bluebook R. 10.4).
OFFICIAL_REPORTERS = {"A.D.": APPELLATE_DIVISION}

_DEPARTMENT = re.compile(
    r"^(?:N\.\s?Y\.\s*)?(?:App\.\s*Div\.,?\s*)?(?:1st|2d|2nd|3d|3rd|4th|First|Second|Third|Fourth)\s+"
    r"Dep(?:'|’)?(?:t|artment)\.?$",
    re.I,
)
_APPELLATE_DIVISION = re.compile(r"^(?:N\.\s?Y\.\s*)?App\.\s*Div\.$", re.I)
_APPELLATE_TERM = re.compile(r"^(?:N\.\s?Y\.\s*)?App\.\s*Term\b", re.I)


def new_york_court(court_text: str) -> str | None:
    """The courts-db id of a New York appellate court named the way New York names it, else None.

    >>> new_york_court("2d Dep't"), new_york_court("1st Dept"), new_york_court("App. Div. 3d Dep't")
    ('nyappdiv', 'nyappdiv', 'nyappdiv')
    >>> new_york_court("App. Div."), new_york_court("App. Term, 2d Dep't"), new_york_court("2d Cir.")
    ('nyappdiv', 'nyappterm', None)
    """
    text = " ".join(court_text.split()).strip(" ,")
    if _APPELLATE_TERM.match(text):
        return APPELLATE_TERM
    if _DEPARTMENT.match(text) or _APPELLATE_DIVISION.match(text):
        return APPELLATE_DIVISION
    return None
