"""Double-spaced opinions: a blank line after every line, and citations wrapped across two of them.

CourtListener's plain text of many older opinions (and the text layer of a double-spaced PDF) puts a
blank line after every line, so a citation wrapped at a line end was cut in two at a "paragraph end":
the full cite was never found and its short forms stayed unresolved. Excerpts are real First Circuit
opinions as CourtListener serves them (opinion named in the row), checked offline.
"""

from __future__ import annotations

import asyncio

import pytest

from citecheck.config import Settings
from citecheck.extract import CiteForm, Document, Edit, extract_citations
from citecheck.findings import Severity
from citecheck.pipeline import check_document

CA1 = "First Circuit, CourtListener opinion "

# (excerpt, the full cite's name and core, the short form that must resolve to it, source)
WRAPPED: list[tuple[str, str, str, str, str]] = [
    (
        'distinction is that "a person cannot be found guilty of aiding and\n\n'
        'abetting a crime that already has been committed." United States\n\n'
        "v. Hamilton, 334 F.3d 170, 180 (2d Cir. 2003); SEC v. Papa, 555\n\n"
        "F.3d 31, 36 (1st Cir. 2009).\n\n"
        "However, conspiracy, like carjacking in this circuit, is often a\n\n"
        "continuing offense. As alleged\n\n"
        "in the indictment and implicitly found by the jury, the conspiracy\n\n"
        "in this case continued at least while Pérez was held hostage. See\n\n"
        'Papa, 555 F.3d at 36 n.3 ("[A] conspiracy generally ends when the\n\n'
        'design to commit substantive misconduct ends.").',
        "SEC v. Papa",
        "555\n\nF.3d 31",
        "Papa, 555 F.3d at 36 n.3",
        CA1 + "150888 (United States v. Pérez-Montañez)",
    ),
    (
        "\"a corporate officer with operational control of a corporation's\n\n"
        "covered enterprise is an employer along with the corporation,\n\n"
        'jointly and severally liable . . . for unpaid wages." Donovan v.\n\n'
        "Agnew, 712 F.2d 1509, 1511 (1st Cir. 1983).\n\n"
        'with individual liability under the FLSA, we concluded that "it\n\n'
        "should not lightly be inferred that Congress intended to disregard\n\n"
        "in this context the shield from personal liability which is one of\n\n"
        'the major purposes of doing business in a corporate form." Agnew,\n\n'
        "712 F.2d at 1513. We thus eschewed a literal reading of the FLSA's\n\n"
        "definition.",
        "Donovan v.\n\nAgnew",
        "712 F.2d 1509",
        "Agnew,\n\n712 F.2d at 1513",
        CA1 + "1036108 (Manning v. Boston Medical Center Corp.)",
    ),
]


@pytest.mark.parametrize(("text", "name", "core", "short", "source"), WRAPPED, ids=[w[-1] for w in WRAPPED])
def test_a_citation_wrapped_across_a_blank_line_is_found_and_its_short_form_resolves(
    text: str, name: str, core: str, short: str, source: str
) -> None:
    cites = extract_citations(text).citations
    [full] = [c for c in cites if c.form is CiteForm.FULL and text[c.span.start : c.span.end] == core]
    assert full.case_name is not None and text[full.case_name.span.start : full.case_name.span.end] == name
    assert (full.year, full.court) != (None, None), source
    [sf] = [c for c in cites if c.form is CiteForm.SHORT and text[c.span.start : c.span.end] == short]
    assert sf.antecedent == full.index, source
    report = asyncio.run(check_document(text, None, Settings()))
    loud = [f for f in report.findings if f.severity in (Severity.ERROR, Severity.WARNING)]
    assert loud == [], source


def test_a_citation_wrapped_at_its_volume_in_mixed_spacing_is_found() -> None:
    """Some opinions mix single and double spacing: a line stopped at a volume goes on all the same."""
    text = (  # First Circuit, CourtListener opinion 194639 (Hubbard Business Plaza v. Lincoln Liberty)
        'of her creative work." See Clifford Ross Co. v. Nelvana, Ltd.,\n\n'
        "710 F. Supp. 517, 520 (S.D.N.Y.), aff'd. without opinion, 883\n\n"
        "F.2d 1022 (2d Cir. 1989); see also Zim v. Western Pub. Co., 573\n\n"
        'F.2d 1318, 1324 (5th Cir. 1978) (author has "profound interest,\n'
        "both professional and financial, in maintaining the quality of\n"
        '[published products]").\n\n'
        'rework the [product] in order to meet . . . approval." See Zim,\n\n573 F.2d at 1324. Finally'
    )
    cites = extract_citations(text).citations
    [zim] = [c for c in cites if c.form is CiteForm.FULL and c.page == "1318"]
    assert zim.case_name is not None and zim.case_name.text == "Zim v. Western Pub. Co." and zim.year == 1978
    [short] = [c for c in cites if c.form is CiteForm.SHORT]
    assert short.antecedent == zim.index


# page furniture and line numbers between the lines of a citation: never read as part of it
FURNITURE: list[tuple[str, str]] = [
    (
        "activity. The court, in dicta, suggested that violations of\n\n"
        "371 require violation of other criminal statutes. Id. at\n\n-15-\n\n1432. Moreover, the Ninth",
        CA1 + "194543 (a page number between 'Id. at' and its page)",
    ),
    (
        "to the health of the insured. See, e.g., Kay, 152 So.2d at 199-\n\n12\n\n"
        "200 (insured did not breach IME clause by objecting, on advice of",
        CA1 + "194630 (a page number inside the range)",
    ),
    (
        '21 jointly. And "if the character of the funds derived do not\n\n'
        "22 convince us of the benefit of joining these two schemes in one\n\n"
        '23 indictment, other overlapping facts or issues may." Id. at 1043-\n\n24 44.\n\n'
        "25 Here, the Personal Tax Count and the PolyTuff Tax Count",
        "Second Circuit, CourtListener opinion 2665 (a line-numbered slip opinion)",
    ),
]


@pytest.mark.parametrize(("text", "source"), FURNITURE, ids=[f[-1] for f in FURNITURE])
def test_page_furniture_between_lines_is_no_pin(text: str, source: str) -> None:
    text = (
        "Kay v. Smith, 152 So.2d 195 (Fla. 1963). United States v. Turoff, 853 F.2d 1037 (2d Cir. 1988).\n\n"
        + text
    )
    report = asyncio.run(check_document(text, None, Settings()))
    assert [f.kind.value for f in report.findings if f.severity in (Severity.ERROR, Severity.WARNING)] == []


def test_typing_at_a_double_spaced_line_end_re_splits_as_a_full_split() -> None:
    """Typing the period that ends a wrapped line makes its blank line a paragraph end, and back."""
    text = WRAPPED[0][0]
    doc = Document(text)
    at = text.index(" See\n\nPapa") + len(" See")
    for edit in (Edit(start=at, end=at, new_text="."), Edit(start=at, end=at + 1, new_text="")):
        got = doc.apply_edits([edit])
        assert got == extract_citations(doc.text)


def test_a_citation_wrapped_at_its_reporter_in_mixed_spacing_is_found() -> None:
    """A line stopped after a volume and its reporter goes on as one stopped at the volume does."""
    text = (  # First Circuit, CourtListener opinion 195439
        "          (1st Cir. 1989); United States  v. Costa,\n"
        "                                                  \n"
        "          890  F.2d  480, 482-83  (1st  Cir. 1989);\n"
        "          United States v.  Hoyos-Medina, 878  F.2d\n"
        "                                        \n"
        "          21,  22 (1st Cir. 1989); United States v.\n"
        "                                 \n"
        "          Ortiz, 23 F.3d 21 (1st Cir. 1994).\n\n"
        "          Costa, 890 F.2d at 483; Hoyos-Medina, 878\n"
        "                                              \n"
        "          F.2d  at  22.   In  addition,  the  trial\n"
    )
    cites = extract_citations(text).citations
    [hoyos] = [c for c in cites if c.form is CiteForm.FULL and c.volume == "878"]
    assert hoyos.page == "21" and hoyos.year == 1989
    assert hoyos.case_name is not None and hoyos.case_name.text == "United States v. Hoyos-Medina"
    [short] = [c for c in cites if c.form is CiteForm.SHORT and c.volume == "878"]
    assert short.antecedent == hoyos.index
