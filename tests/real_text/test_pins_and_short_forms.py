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

SCOTUS_2017 = (
    "U.S. Supreme Court slip opinion (2017), CourtListener text via github.com/ielab/ussc-caselaw-collection"
)
FULL = "Roe v. Wade, 410 U.S. 113 (1973). "

# (text after a full cite, the pin as extracted, source)
VALID_PINS: list[tuple[str, str, str]] = [
    (
        "the defendant's in-state contacts.” Id., at ___, n. 20 (slip op., at 21, n. 2).",
        "___",
        "BNSF R. Co. v. Tyrrell, " + SCOTUS_2017,
    ),
    ("See id., at ___–___ (slip op., at 17–18).", "___–___", "BNSF R. Co. v. Tyrrell, " + SCOTUS_2017),
    ("Id. at n. 18.", "n. 18", "issue 17"),
    (
        "spring of 2013, id., at S3884 (May 23, 2013), but to no avail.",
        "S3884",
        "NLRB v. SW General, " + SCOTUS_2017,
    ),
    ("did not seek it. Id., at A–52. The sentencing judge", "A–52", "Tatum v. Arizona, " + SCOTUS_2017),
    (
        "See §§1414, 1415; id., at 208– 209. By the time",
        "208– 209",
        "Endrew F. v. Douglas County, " + SCOTUS_2017,
    ),
    ("Roe, supra, at 500—is not to the contrary.", "500", "issue 17 (Croson, supra, at 500—is)"),
    (
        "“satisfactory compensation,” Roe, 410 U. S., at 161—for every item",
        "161",
        "Impression Products v. Lexmark, " + SCOTUS_2017,
    ),
    (
        "Id., at 59–\n  Cite as: 580 U. S. ____ (2017)\n 60.",
        "59",
        "Bravo-Fernandez v. United States, " + SCOTUS_2017,
    ),
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
    text = (
        "of the no-impeachment rule when a juror’s statements indi\xad\n\x0c"
        "                    Cite as: 580 U. S. ____ (2017)                      3\n"
    )
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


# (excerpt, source): short forms whose full cite a reader finds elsewhere (the opinion itself, a note)
PARALLEL_SHORT: list[tuple[str, str]] = [
    (
        "There appears to be no disagreement. Majority op. at 172, 100 A.3d at 1137.",
        "Pennsylvania Supreme Court dissent, ../shared/corpus courtlistener-bulk opinion 920000004",
    ),
    (
        "(majority op. at 274, 920 N.Y.S.2d at 291, 945 N.E.2d at 484)",
        "New York Court of Appeals dissent, courtlistener-bulk opinion 920000013",
    ),
    ("9. Atkins, supra note 1, 536 U.S. at 318, 122 S.Ct. 2242.", "courtlistener-bulk opinion 920000024"),
    (
        "a new factual predicate for detaining appellant. Day, 87 S.W.3d at 54, supra note 13.",
        "Missouri Court of Appeals, courtlistener-bulk opinion 920000002",
    ),
]


@pytest.mark.parametrize(("text", "source"), PARALLEL_SHORT, ids=[t[:30] for t, _ in PARALLEL_SHORT])
def test_parallel_and_noted_short_forms_are_info(text: str, source: str) -> None:
    report = asyncio.run(check_document(text, None, Settings()))
    loud = [f for f in report.findings if f.severity is not Severity.INFO]
    assert loud == [], (source, [f.message for f in loud])
    assert any(f.kind is Kind.UNRESOLVED_SHORT_FORM for f in report.findings)


def test_a_short_form_with_no_full_cite_anywhere_is_still_a_warning() -> None:
    report = asyncio.run(check_document("The rule is settled. Roe, 410 U.S. at 116.", None, Settings()))
    assert [(f.kind, f.severity) for f in report.findings] == [(Kind.UNRESOLVED_SHORT_FORM, Severity.WARNING)]


# (text, expected cores with their names): hard-wrapped citations with indentation, table cells
WRAPPED: list[tuple[str, list[tuple[str, str | None]], str]] = [
    (
        "Grutter v. Bollinger, 539\n    U. S. 306, and Croson, 488 U. S.\n    469 (1989).",
        [("539\n    U. S. 306", "Grutter v. Bollinger"), ("488 U. S.\n    469", "Croson")],
        "issue 17 (slip opinion line breaks)",
    ),
    (
        "ineffective assistance under Strickland v. Washington, 466\n    U.S. 668. Buck sought a COA.",
        [("466\n    U.S. 668", "Strickland v. Washington")],
        "Buck v. Davis, " + SCOTUS_2017,
    ),
    (
        "Authority\tGrutter v. Bollinger, 539 U.S. 306\tRichmond v. J. A. Croson Co., 488 U.S. 469 (1989)",
        [("539 U.S. 306", "Grutter v. Bollinger"), ("488 U.S. 469", "Richmond v. J. A. Croson Co.")],
        "issue 17 (tabs between cells)",
    ),
]


@pytest.mark.parametrize(("text", "expected", "source"), WRAPPED, ids=[s for *_, s in WRAPPED])
def test_wrapped_and_tabbed_citations_are_found_with_their_names(
    text: str, expected: list, source: str
) -> None:
    cites = [c for c in extract_citations(text).citations if c.form is CiteForm.FULL]
    got = [(c.text, c.case_name.text if c.case_name else None) for c in cites]
    assert got == expected, source
    for c in cites:  # spans index the text as written
        assert text[c.span.start : c.span.end] == c.text


def test_a_short_form_after_a_wrapped_full_cite_resolves() -> None:
    text = "under Strickland v. Washington, 466\n    U.S. 668. Counsel erred. 466 U. S., at 687."
    cites = extract_citations(text).citations
    assert cites[-1].antecedent == 0


def test_a_short_form_never_goes_to_another_case_against_the_same_party() -> None:
    """A short form's ``v. United States`` is no name to go by: Kimbrough's pin 575 is not in Gall."""
    text = (  # a real Second Circuit opinion (CourtListener 2649), the full cites shortened to one
        "See Gall v. United States, ___ U.S. ___, 128 S. Ct. 586, 596, 169 L.Ed.2d 445(2007). Such an "
        "explanation need not be extensive or detailed. See Gall v. United States, 128 S.Ct. at 594 & n. 2; "
        "Kimbrough v. United States, 128 S.Ct. at 575; see also United States v. Lewis, 424 F.3d at 245."
    )
    cites = extract_citations(text).citations
    gall, kimbrough = (
        next(c for c in cites if c.antecedent_text == n)
        for n in ("Gall v. United States", "Kimbrough v. United States")
    )
    assert gall.antecedent is not None and kimbrough.antecedent is None
    text = (  # the Ninth Circuit, 1957 (CourtListener 239172), a string of supras
        "Townsend v. United States, 68 App.D.C. 223, 95 F.2d 352, 358-359; United States v. Phillips, supra; "
        "C. I. T. Corp. v. United States, supra; Miller v. United States, supra."
    )
    supras = [c for c in extract_citations(text).citations if c.form is CiteForm.SUPRA]
    assert [c.antecedent for c in supras] == [None, None, None]


def test_a_short_form_after_the_same_case_cited_twice_in_full_resolves() -> None:
    """The same case cited in full twice is one case on its first page, not two (First Circuit,
    CourtListener 195452: the full cite in the opinion and again before the short form)."""
    text = (
        "United States v. Valencia-Copete, 792 F.2d 4 (1st Cir. 1986), so holds. 792 F.2d at 6.\n\n"
        "In a footnote, the magistrate cites Park Motor Mart, Inc. v. Ford Motor Co., 616 F.2d 603 (1st "
        "Cir. 1980), and United States v. Valencia-Copete, 792 F.2d 4 (1st Cir. 1986). We directed all "
        'magistrates to include a notice that failure to object would waive "the right to appeal the '
        "district court's decision.\" 792 F.2d at 6 (emphasis added). Id. at 5."
    )
    cites = extract_citations(text).citations
    second_full = [c for c in cites if c.form is CiteForm.FULL and c.page == "4"][-1]
    short, idc = cites[-2], cites[-1]
    assert (short.text, short.antecedent) == ("792 F.2d at 6", second_full.index)
    assert idc.antecedent == second_full.index
    # two different cases that begin on one page stay unresolved: the pin cannot tell them apart
    two = (
        "Smith v. Jones, 5 F.3d 10 (1st Cir. 1993). Brown v. Green, 5 F.3d 10 (1st Cir. 1993). 5 F.3d at 12."
    )
    assert extract_citations(two).citations[-1].antecedent is None
