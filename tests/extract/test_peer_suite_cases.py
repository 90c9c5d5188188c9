"""Cases in the spirit of eyecite's own test pairs (``tests/test_FindTest.py``) that our extraction got
wrong (issue 25, item 7), written here in the same shape: a text and what a checker must read from it.

``python bench/eyecite_suite.py --eyecite-tests PATH`` scores the whole peer suite at run time; these
keep the fixes it drove from regressing in CI, where that suite is not available.
"""

from __future__ import annotations

import pytest

from citecheck.extract import CiteForm, extract_citations


def _cites(text: str) -> list:
    return [c for c in extract_citations(text).citations if c.form is not CiteForm.UNRECOGNISED]


@pytest.mark.parametrize(
    "text",
    ["Lissner v. Test 1 U.S. 1 (198⁴)", "before Foo, 1 U. S., at 2 (2016)", "Id. at 5 (2016)."],
    ids=["superscript year", "short form year", "Id. year"],
)
def test_a_year_like_parenthetical_is_not_explanatory(text: str) -> None:
    assert [c.parentheticals for c in _cites(text)][-1] == ()


def test_an_explanatory_parenthetical_that_mentions_a_year_stays() -> None:
    [c] = _cites("Smith v. Jones, 1 U.S. 1 (1990) (explaining why (2016) matters)")
    assert [p.text for p in c.parentheticals] == ["explaining why (2016) matters"]


def test_a_parallel_cite_in_parentheses_is_a_parallel_not_a_parenthetical() -> None:
    first, second = _cites("2 U.S. 3, 4-5 (3 Atl. 33)")
    assert first.parentheticals == () and first.pincite is not None and first.pincite.text == "4-5"
    assert (second.volume, second.reporter, second.page, second.group) == ("3", "A.", "33", first.group)
    assert second.court is None  # the U.S. Reports' court is no court of the Atlantic Reporter's case


def test_a_blank_parallel_does_not_hide_the_year_and_parenthetical() -> None:
    text = (
        'speech." Houston Cmty. Coll. Sys. v. Wilson, ---- U.S. ----, 142 S. Ct. 1253, 1259, ---- L. Ed. '
        "2d ---- (2022) (emphasis added) (quoting Nieves v. Bartlett, ---- U.S. ----, 139 S. Ct. 1715, "
        "1722, 204 L. Ed. 2d 1 (2019);"
    )
    houston, nieves, led = _cites(text)
    assert (houston.year, [p.text for p in houston.parentheticals]) == (2022, ["emphasis added"])
    assert houston.case_name is not None and houston.case_name.plaintiff == "Houston Cmty. Coll. Sys."
    assert (nieves.year, led.year, led.group) == (2019, 2019, nieves.group)


def test_georgia_pin_after_a_space_and_a_comma() -> None:
    idc, ga, se = _cites("See id.; see also Harper v. State, 286 Ga. 216 , 218 (1) (686 SE2d 786) (2009)")
    assert idc.form is CiteForm.ID
    assert (ga.pincite.text if ga.pincite else None, ga.year, se.year, se.group) == (
        "218",
        2009,
        2009,
        ga.group,
    )


def test_a_parallel_short_form_shares_the_name() -> None:
    text = (
        " (Newbold v Arvidson, 105 Idaho 663, 672 P2d 231 [1983]); and something else (Newbold, 105 "
        "Idaho at 667, 672 P2d at 235)."
    )
    *_, idaho, pacific = _cites(text)
    assert (idaho.antecedent_text, pacific.antecedent_text) == ("Newbold", "Newbold")
    assert (idaho.antecedent, pacific.antecedent) == (0, 1)


def test_name_at_page_after_id_is_a_reference() -> None:
    text = (
        "we said in Morton v. Mancari, 417 U. S. 535, 552 (1974) \u201cLiterally every piece ....\u201d. "
        "\u201casisovereign tribal entities . . . .\u201d Id. In Mancari at 665"
    )
    *_, ref = _cites(text)
    assert (ref.form, ref.antecedent, ref.antecedent_text) == (CiteForm.REFERENCE, 0, "Mancari")


def test_a_government_party_at_page_is_no_reference() -> None:
    text = (
        "Foo v. United States 1 U.S. 12, 347-348. something something ... the United States at 1776 we "
        "see that and Foo at 62"
    )
    assert [c.text for c in _cites(text) if c.form is CiteForm.REFERENCE] == ["Foo at 62"]


@pytest.mark.parametrize(
    ("text", "reporter"),
    [("1 P.R. 1 (1831)", "Pen. & W."), ("1 W.2d 1 (1854)", "Wis. 2d"), ("1 Johnson 1 (1890)", "N.M. (J.)")],
)
def test_an_ambiguous_reporter_is_chosen_by_the_year(text: str, reporter: str) -> None:
    [c] = _cites(text)
    assert c.reporter == reporter


def test_an_ambiguous_reporter_without_a_telling_year_stays_as_written() -> None:
    [c] = _cites("1 Johnson 1 (1806)")
    assert c.reporter == "Johnson"  # kept (a real citation), never dropped


@pytest.mark.parametrize(
    ("text", "party"),
    [
        ("this Court. Holm; In Re Carroll\u2019s Estate (1921), 59 Mont. 403, 413.", "Carroll\u2019s Estate"),
        ("and In re Spellman, 4 A.D.2d 215 (N.Y.App.Div.1957). ", "Spellman"),
        ("trial court\u2019s ruling. (See In re K.F. (2009) 1 U.S. 1 ", "K.F."),
    ],
)
def test_in_re_names_its_party(text: str, party: str) -> None:
    [c] = _cites(text)
    assert c.case_name is not None and (c.case_name.plaintiff, c.case_name.defendant) == (None, party)


def test_a_name_and_its_citation_apart_by_blank_lines_after_a_comma() -> None:
    # eyecite's HTML case once cleaned: the name's line ends in a comma, blank lines, then the citation
    [c] = _cites("\n Smart v. Tatum,\n \n \n 541 U.S. 1085 (2004);\n ")
    assert c.case_name is not None and (c.case_name.plaintiff, c.case_name.defendant) == ("Smart", "Tatum")
