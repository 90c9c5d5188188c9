"""Citation styles real filings use (issue 17): names, years and courts read as the writer meant.

Each row is real citation text (source given); the expected name / year / court is what a reader
takes from it. Checked offline, none may raise an error or warning.
"""

from __future__ import annotations

import asyncio

import pytest

from citecheck.config import Settings
from citecheck.extract import extract_citations
from citecheck.findings import Severity
from citecheck.pipeline import check_document

# (text, core of the citation, name, year, court id or None, source)
STYLES: list[tuple[str, str, str, int | None, str | None, str]] = [
    (
        "In re K.F. (2009) 173 Cal.App.4th 655, 660 [92 Cal.Rptr.3d 784].",
        "173 Cal.App.4th 655",
        "In re K.F.",
        2009,
        None,
        "California style (issue 17)",
    ),
    (
        "Rogers v Rogers (63 NY2d 582 [1984]).",
        "63 NY2d 582",
        "Rogers v Rogers",
        1984,
        None,
        "New York official style (issue 17)",
    ),
    (
        "Harper v. State, 286 Ga. 216, 218 (1) (686 SE2d 786) (2009).",
        "286 Ga. 216",
        "Harper v. State",
        2009,
        None,
        "Georgia style with a headnote number (issue 17)",
    ),
    (
        "Harper v. State, 286 Ga. 216, 218 (1) (686 SE2d 786) (2009).",
        "686 SE2d 786",
        "Harper v. State",
        2009,
        None,
        "Georgia style: the parallel in its own parentheses is the same case",
    ),
    (
        "Park v. Kim, 91 F.4th 610, 2d Cir. 2024.",
        "91 F.4th 610",
        "Park v. Kim",
        2024,
        "ca2",
        "court and year without parentheses (issue 17)",
    ),
    (
        "Park v. Kim, 91 F.4th 610, 615, 2d Cir. 2024; Doe v. Roe, 1 F.4th 1 (9th Cir. 2021).",
        "91 F.4th 610",
        "Park v. Kim",
        2024,
        "ca2",
        "court and year without parentheses after a pin, before a semicolon",
    ),
    (
        "The rule is settled (citing Park v. Kim, 91 F.4th 610, 2d Cir. 2024).",
        "91 F.4th 610",
        "Park v. Kim",
        2024,
        "ca2",
        "court and year without parentheses, closing a parenthetical",
    ),
    (
        "State v. Vanner, 95-0754, p. 3 (La.App. 1 Cir. 12/15/95), 669 So.2d 463.",
        "669 So.2d 463",
        "State v. Vanner",
        1995,
        "lactapp",
        "Louisiana public-domain style (issue 17); the circuit read as Louisiana's court of appeal (issue 25)",
    ),
    (
        "Grant v. Esquire, Inc. (S.D.N.Y. 1973) 367 F.Supp. 876.",
        "367 F.Supp. 876",
        "Grant v. Esquire, Inc.",
        1973,
        "nysd",
        "court/date parenthetical before the cite (issue 17)",
    ),
    (
        "Hurst v. Florida, 577 U.S. ___, 136 S.Ct. 616 (2016).",
        "136 S.Ct. 616",
        "Hurst v. Florida",
        2016,
        "scotus",
        "blank-page placeholder (issue 17)",
    ),
    (
        "Bean v. State, — Nev. —, 398 P. 2d 251 (1965).",
        "398 P. 2d 251",
        "Bean v. State",
        1965,
        None,
        "blank-page placeholder with em dashes (issue 17)",
    ),
    (
        "Epic Systems Corp. v. Lewis (2018) __ U.S. __ [138 S.Ct. 1612].",
        "138 S.Ct. 1612",
        "Epic Systems Corp. v. Lewis",
        2018,
        "scotus",
        "California style with a placeholder (issue 17)",
    ),
    (
        "Delaney v. Superior Court (1990) 50 Cal.3d 785, 798.",
        "50 Cal.3d 785",
        "Delaney v. Superior Court",
        1990,
        None,
        "California style",
    ),
]


@pytest.mark.parametrize(
    ("text", "core", "name", "year", "court", "source"), STYLES, ids=[s[1] for s in STYLES]
)
def test_state_styles(
    text: str, core: str, name: str, year: int | None, court: str | None, source: str
) -> None:
    cites = {c.text: c for c in extract_citations(text).citations}
    c = cites[core]
    assert (c.case_name.text if c.case_name else None, c.year, c.court) == (name, year, court), source
    report = asyncio.run(check_document(text, None, Settings()))
    loud = [f for f in report.findings if f.severity is not Severity.INFO]
    assert loud == [], (source, [f.message for f in loud])


@pytest.mark.parametrize(
    "text",
    [
        "Park v. Kim, 91 F.4th 610, 2d Cir. 2024, held that the rule applies.",  # prose follows: not read
        "Park v. Kim, 91 F.4th 610, Smith Dec. 2024.",  # no court courts-db knows
        "Park v. Kim, 91 F.4th 610, 2024.",  # a year alone
    ],
)
def test_unparenthesised_court_and_year_read_only_when_certain(text: str) -> None:
    [c] = extract_citations(text).citations
    assert (c.year, c.court, c.date_span) == (None, None, None)


@pytest.mark.parametrize(
    ("text", "pins"),
    [
        ("Harper v. State, 286 Ga. 216, 218 (1) (686 SE2d 786).", ["218", None]),  # issue 17, no year given
        (
            "Harper v. State, 286 Ga. 216, 218 (2) (a) (686 SE2d 786, 790) (2009). Id. at 219.",
            ["218", "790", "219"],
        ),
    ],
)
def test_georgia_division_number_and_parenthesised_parallel(text: str, pins: list[str | None]) -> None:
    cites = extract_citations(text).citations
    assert [c.pincite.text if c.pincite else None for c in cites] == pins
    assert [c.group for c in cites[:2]] == [0, 0]  # the parallel is the same case
    assert [c.case_name.text if c.case_name else None for c in cites[:2]] == ["Harper v. State"] * 2
    assert all(c.court is None and p.text not in ("1", "2", "a") for c in cites for p in c.parentheticals)
    if len(cites) == 3:
        assert cites[2].antecedent == 0
    report = asyncio.run(check_document(text, None, Settings()))
    assert [f.message for f in report.findings if f.severity is not Severity.INFO] == []


def test_court_and_year_without_parentheses_are_not_a_pin() -> None:
    # "Park v. Kim, 91 F.4th 610, 2d Cir. 2024." read "2" as a pin cite (then pincite-out-of-range)
    [c] = extract_citations("Park v. Kim, 91 F.4th 610, 2d Cir. 2024.").citations
    assert c.pincite is None
    [c] = extract_citations("Park v. Kim, 91 F.4th 610, 615, 2d Cir. 2024.").citations
    assert c.pincite is not None and c.pincite.text == "615"


@pytest.mark.parametrize(
    ("text", "invented"),
    [
        ("Doe v. Roe, 134 S.W.3d. 7th 673 (2004).", True),  # a series garbled by a hallucination (issue 17)
        ("Doe v. Roe, 288 Ark. 7th 620 (1999).", True),
        ("Doe v. Roe, 134 S.W.3d. 673 (2004).", False),  # a stray period is not an invented series
    ],
)
def test_garbled_series_is_an_invented_reporter(text: str, invented: bool) -> None:
    report = asyncio.run(check_document(text, None, Settings()))
    errors = [f for f in report.findings if f.severity is Severity.ERROR]
    assert bool(errors) is invented


# (text, core, expected name, court, source): names as real opinions write them (issue 17)
NAMES: list[tuple[str, str, str, str | None, str]] = [
    (
        "Loup-Miller Const. Co. v. City and County of Denver, 676 P.2d 1170 (Colo. 1984).",
        "676 P.2d 1170",
        "Loup-Miller Const. Co. v. City and County of Denver",
        "colo",
        "Colorado Supreme Court (issue 17: cut at “Co.”)",
    ),
    (
        "In re Air Crash Disaster Near New Orleans, La., 789 F.2d 1092 (5th Cir. 1986).",
        "789 F.2d 1092",
        "In re Air Crash Disaster Near New Orleans, La.",
        "ca5",
        "Fifth Circuit (issue 17: gave “La.”)",
    ),
    (
        "Estelle v. Gamble (429 U.S. 97, 104 (1976)).",
        "429 U.S. 97",
        "Estelle v. Gamble",
        "scotus",
        "issue 17",
    ),
    (
        "See Grutter and Regents of Univ. of Cal. v. Bakke, 438 U.S. 265 (1978).",
        "438 U.S. 265",
        "Regents of Univ. of Cal. v. Bakke",
        "scotus",
        "issue 17: the name is the last one",
    ),
    (
        "City and County of Denver v. Smith, 676 P.2d 1170 (Colo. 1984).",
        "676 P.2d 1170",
        "City and County of Denver v. Smith",
        "colo",
        "an institutional name joined by “and” keeps it",
    ),
    (
        "Brown and Root, Inc. v. Smith, 676 P.2d 1170 (Colo. 1984).",
        "676 P.2d 1170",
        "Brown and Root, Inc. v. Smith",
        "colo",
        "a firm joined by “and” keeps it",
    ),
    (
        "In re Carroll's Estate (1921), 59 Mont. 403.",
        "59 Mont. 403",
        "In re Carroll's Estate",
        None,
        "Montana (issue 17)",
    ),
    (
        "J. E. B. v. Alabama ex rel. T. B., 511 U.S. 127 (1994).",
        "511 U.S. 127",
        "J. E. B. v. Alabama ex rel. T. B.",
        "scotus",
        "a name starting with an initial",
    ),
    (
        "UNITED STATES v. JONES, 565 U.S. 400 (2012).",
        "565 U.S. 400",
        "UNITED STATES v. JONES",
        "scotus",
        "parties in capitals",
    ),
    (
        "Smith v. Jones, 300 Pa. Super. 1 (Pa. Super. 1982).",
        "300 Pa. Super. 1",
        "Smith v. Jones",
        "pasuperct",
        "issue 17: (Pa. Super. 1982) → court",
    ),
]


@pytest.mark.parametrize(("text", "core", "name", "court", "source"), NAMES, ids=[n[2][:30] for n in NAMES])
def test_names_in_real_styles(text: str, core: str, name: str, court: str | None, source: str) -> None:
    c = {c.text: c for c in extract_citations(text).citations}[core]
    assert (c.case_name.text if c.case_name else None, c.court) == (name, court), source


def test_id_with_a_paragraph_pin_and_supra_keeps_the_whole_name() -> None:
    cites = extract_citations(
        "Foo Bar Co. v. Baz Qux Inc., 100 F.3d 1 (1st Cir. 1996). Id. ¶ 34. Foo Bar Co. v. Baz Qux Inc., supra, at 3."
    ).citations
    assert cites[1].pincite is not None and cites[1].pincite.text == "¶ 34"
    assert cites[2].antecedent_text == "Foo Bar Co. v. Baz Qux Inc." and cites[2].antecedent == 0


def test_california_bracketed_parallels_share_the_name_and_year() -> None:
    cites = extract_citations(
        "People v. Smith (2005) 37 Cal.4th 733, 740 [38 Cal.Rptr.3d 1, 126 P.3d 981]. Id. at 741."
    ).citations
    full = [(c.text, c.case_name.text if c.case_name else None, c.year, c.group) for c in cites[:3]]
    assert full == [
        ("37 Cal.4th 733", "People v. Smith", 2005, 0),
        ("38 Cal.Rptr.3d 1", "People v. Smith", 2005, 0),
        ("126 P.3d 981", "People v. Smith", 2005, 0),
    ]
    assert cites[3].antecedent == 0


def test_short_supra_keeps_the_whole_name() -> None:
    # issue 17: "Foo v. Bar, supra" keeps the whole name, and resolves to the full cite
    cites = extract_citations(
        "Foo v. Bar, 123 F.3d 456 (2d Cir. 1999). Later, Foo v. Bar, supra, at 460."
    ).citations
    assert (
        cites[1].antecedent_text,
        cites[1].antecedent,
        cites[1].pincite.text if cites[1].pincite else None,
    ) == (
        "Foo v. Bar",
        0,
        "460",
    )
