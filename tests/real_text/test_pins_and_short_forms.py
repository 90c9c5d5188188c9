"""Pin cites and short forms as real opinions write them (issue 17), checked offline.

Each excerpt is a short quotation of a real opinion (source in the row). A pin that a court wrote is
valid: a blank left for the page, a footnote alone, a lettered page, a range broken across lines, an em
dash after the pin. None may raise ``malformed-pincite``.
"""

from __future__ import annotations

import asyncio

import pytest

from citecheck.config import Settings
from citecheck.extract import extract_citations
from citecheck.extract.models import CiteForm
from citecheck.findings import Kind, Severity
from citecheck.pipeline import check_document

SCOTUS_2017 = "U.S. Supreme Court slip opinion (2017), CourtListener text via github.com/ielab/ussc-caselaw-collection"
FULL = "Roe v. Wade, 410 U.S. 113 (1973). "

# (text after a full cite, the pin as extracted, source)
VALID_PINS: list[tuple[str, str, str]] = [
    ("the defendant's in-state contacts.” Id., at ___, n. 20 (slip op., at 21, n. 2).", "___", "BNSF R. Co. v. Tyrrell, " + SCOTUS_2017),
    ("See id., at ___–___ (slip op., at 17–18).", "___–___", "BNSF R. Co. v. Tyrrell, " + SCOTUS_2017),
    ("Id. at n. 18.", "n. 18", "issue 17"),
    ("spring of 2013, id., at S3884 (May 23, 2013), but to no avail.", "S3884", "NLRB v. SW General, " + SCOTUS_2017),
    ("did not seek it. Id., at A–52. The sentencing judge", "A–52", "Tatum v. Arizona, " + SCOTUS_2017),
    ("See §§1414, 1415; id., at 208– 209. By the time", "208– 209", "Endrew F. v. Douglas County, " + SCOTUS_2017),
    ("Roe, supra, at 500—is not to the contrary.", "500", "issue 17 (Croson, supra, at 500—is)"),
    ("“satisfactory compensation,” Roe, 410 U. S., at 161—for every item", "161", "Impression Products v. Lexmark, " + SCOTUS_2017),
    ("Id., at 59–\n  Cite as: 580 U. S. ____ (2017)\n 60.", "59", "Bravo-Fernandez v. United States, " + SCOTUS_2017),
    ("Id. at page 694.", "page 694", "issue 17 (at page 694 of 87 F.Supp.)"),
]


@pytest.mark.parametrize(("tail", "pin", "source"), VALID_PINS, ids=[p for _, p, _ in VALID_PINS])
def test_valid_pins_are_not_malformed(tail: str, pin: str, source: str) -> None:
    text = FULL + tail
    ex = extract_citations(text)
    pins = [c.pincite.text for c in ex.citations if c.pincite is not None]
    assert pin in pins, (source, pins)
    report = asyncio.run(check_document(text, None, Settings()))
    bad = [f for f in report.findings if f.kind is Kind.MALFORMED_PINCITE]
    assert bad == [], (source, [f.message for f in bad])


def test_a_dangling_range_on_one_line_is_still_malformed() -> None:
    report = asyncio.run(check_document(FULL + "Id. at 352- and more.", None, Settings()))
    assert [f.kind for f in report.findings if f.severity is Severity.WARNING] == [Kind.MALFORMED_PINCITE]


def test_slip_opinion_running_head_is_not_a_citation() -> None:
    text = "of the no-impeachment rule when a juror’s statements indi\xad\n\x0c                    Cite as: 580 U. S. ____ (2017)                      3\n"
    assert [c.text for c in extract_citations(text).citations] == []


GRATZ_GRUTTER = (
    "See Gratz v. Bollinger, 539 U. S. 244 (2003); Grutter v. Bollinger, 539 U. S. 306 (2003). "
    "Diversity is a compelling interest. 539 U. S., at 328. The point system was not narrowly tailored. "
    "539 U. S., at 270. Gratz, 539 U. S., at 330."
)


def test_short_form_goes_to_the_case_whose_pages_hold_the_pin() -> None:
    # Fisher v. University of Texas (2013) and later opinions cite both cases of 539 U. S.
    cites = extract_citations(GRATZ_GRUTTER).citations
    short = [(c.text, c.antecedent) for c in cites if c.form is CiteForm.SHORT]
    assert short == [("539 U. S., at 328", 1), ("539 U. S., at 270", 0), ("Gratz, 539 U. S., at 330", 0)]


def test_a_pin_below_every_cited_case_of_the_volume_resolves_to_none_and_says_so() -> None:
    text = GRATZ_GRUTTER + " Compare 539 U. S., at 100."
    cites = extract_citations(text).citations
    assert cites[-1].antecedent is None
    report = asyncio.run(check_document(text, None, Settings()))
    [f] = [f for f in report.findings if f.kind is Kind.UNRESOLVED_SHORT_FORM]
    assert f.severity is Severity.INFO and "539 U.S. 244; 539 U.S. 306" in f.message
