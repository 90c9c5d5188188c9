"""What only the whole document shows (issue 36): a wrong-volume short form gets the document's own full
citation as its fix; one citation given two spellings of a name is a warning. On the real texts that showed
them, and the real shapes that must stay silent."""

from __future__ import annotations

from citecheck.config import Settings
from citecheck.extract import extract_citations
from citecheck.findings import Confidence, Kind, Severity
from citecheck.judge import SourceEvidence, judge


def _findings(text: str, kind: Kind) -> list:
    return [
        f for f in judge(extract_citations(text), SourceEvidence(), Settings()).findings if f.kind is kind
    ]


def test_a_short_form_a_digit_off_in_the_volume_gets_the_documents_citation() -> None:
    text = (
        "Courts may let a party proceed under a pseudonym. Doe v. Public Citizen, 749 F.3d 246, 273 (4th Cir. "
        "2014). The public's interest in the litigants' identities is weighed case by case. Public Citizen, "
        "740 F.3d at 271.\n"
    )
    [f] = _findings(text, Kind.UNRESOLVED_SHORT_FORM)
    assert f.severity is Severity.WARNING
    assert "Doe v. Public Citizen, 749 F.3d 246" in f.message and "740 for 749" in f.message
    [fix] = f.fixes
    assert fix.confidence is Confidence.HIGH and fix.edits[0].new_text == "749 F.3d"
    assert text[fix.edits[0].span.start : fix.edits[0].span.end] == "740 F.3d"
    fixed = text[: fix.edits[0].span.start] + fix.edits[0].new_text + text[fix.edits[0].span.end :]
    assert _findings(fixed, Kind.UNRESOLVED_SHORT_FORM) == []  # applied, the short form resolves
    assert f.evidence.citation == "749 F.3d 246"


def test_a_short_form_in_the_other_series_gets_the_documents_citation() -> None:
    # a First Circuit opinion (chansooligans collection, 183911.json): "Caal-Tiul, 582 F.2d at 95"
    text = (
        "The petitioner must show persecution on account of a protected ground. Caal-Tiul v. Holder, 582 F.3d "
        '92, 96 (1st Cir. 2009). Our sympathies cannot substitute for the "specific grounds required by the '
        'statute." Caal-Tiul, 582 F.2d at 95.\n'
    )
    [f] = _findings(text, Kind.UNRESOLVED_SHORT_FORM)
    assert f.fixes and f.fixes[0].edits[0].new_text == "582 F.3d" and "F.2d for F.3d" in f.message


def test_no_fix_without_a_name_or_with_two_candidates() -> None:
    # "457 U.S. at 643" in a real opinion meant Edgar v. MITE, never cited in full, not 447 U.S. 557
    text = (
        "Central Hudson Gas & Electric Corp. v. Public Service Commission, 447 U.S. 557 (1980). The limits "
        "are similar. 457 U.S. at 643 (plurality opinion).\n"
    )
    assert all(not f.fixes for f in _findings(text, Kind.UNRESOLVED_SHORT_FORM))
    text = (
        "Smith v. Jones, 749 F.3d 246 (4th Cir. 2014); Smith v. Brown, 741 F.3d 250 (4th Cir. 2014). "
        "Smith, 740 F.3d at 271.\n"
    )
    assert all(not f.fixes for f in _findings(text, Kind.UNRESOLVED_SHORT_FORM))


#: A California advice letter's two spellings of one case (the issue's Stigall / Sigall v. City of Taft).
TAFT = (
    '"Making" a contract under § 1090 is read expansively to include the preparatory stages (Stigall v. City of '
    "Taft (1962) 58 Cal.2d 565; Millbrae Assn. for Residential Survival v. City of Millbrae (1968) 262 "
    "Cal.App.2d 222).\n\n"
    "Participation in the planning counts. Sigall v. City of Taft, 58 Cal.2d 565, 569 (1962).\n"
)


def test_one_citation_two_spellings_is_a_warning_on_the_later_one() -> None:
    [f] = _findings(TAFT, Kind.SAME_CITATION_TWO_NAMES)
    assert f.severity is Severity.WARNING
    assert TAFT[f.span.start : f.span.end] == "Sigall v. City of Taft"
    assert "Stigall v. City of Taft" in f.message and "line 1" in f.message
    [fix] = f.fixes
    assert fix.edits[0].new_text == "Stigall v. City of Taft" and not fix.preferred


def test_one_spelling_short_names_and_different_cases_on_one_page_say_nothing() -> None:
    same = TAFT.replace("Sigall", "Stigall")
    assert _findings(same, Kind.SAME_CITATION_TWO_NAMES) == []
    # several short decisions begin on one page of a reporter: two different names are not a typo
    table = "People v. Alvarez, 123 A.D.3d 456 (2d Dep't 2014); People v. Brown, 123 A.D.3d 456 (2d Dep't 2014).\n"
    assert _findings(table, Kind.SAME_CITATION_TWO_NAMES) == []
    short = (
        "Mata v. Avianca, Inc., 678 F. Supp. 3d 443 (S.D.N.Y. 2023). Later: Avianca, 678 F. Supp. 3d 443.\n"
    )
    assert _findings(short, Kind.SAME_CITATION_TWO_NAMES) == []


#: A Texas trial court's order of referral (chuckdustin12/LEGAL_DESTROYER @ 795b0a8, CASE DOCS/DISTRICT JUDGE/
#: 10.09.24 - AMENDED ORD. REFERRAL-1.pdf, pages 143-144: a motion it attaches) as its PDF text layer reads: the
#: second citation lost its spaces ("Brecedav. Whi(2006)"), which a reader of the page never sees.
BRECEDA = (
    "There is a general presumption that an attorney is acting with authority; \nhowever, that presumption is "
    "rebuttable. Breceda v. Whi, 187 S.W.3d 148, 152 \n(Tex. App.--El Paso 2006, no pet.); Kelly v. Murphy, "
    "630 S.W.2d 759, 761 (Tex. App.--Houston [1st Dist.] 1982, writ ref'd n.r.e.).\n"
    "The attorney must appear before the \ntrial court and show sufficient authority to prosecute or defend the "
    "suit on \nbehalfoftheirclient. (Brecedav. Whi(2006) 187 S.W.3d 148, 152;Kellyv. \nMurphy (1982) 630 "
    "S.W.2d 759, 761). \n"
)


def test_a_name_that_differs_only_in_spaces_is_one_name() -> None:
    assert _findings(BRECEDA, Kind.SAME_CITATION_TWO_NAMES) == []


async def test_the_other_place_is_a_page_of_a_pdf_and_a_paragraph_of_a_docx() -> None:
    """Issue 36: a location a lawyer reads is the PDF's page, never a line of its extracted text."""
    from citecheck.inputs import InputDocument
    from citecheck.pipeline import check_input

    second = TAFT.index("Participation")
    near = (
        "Courts may let a party proceed under a pseudonym. Doe v. Public Citizen, 749 F.3d 246, 273 (4th Cir. "
        "2014).\nThe public's interest in the litigants' identities is weighed case by case. Public Citizen, "
        "740 F.3d at 271.\n"
    )
    for text, kind in ((TAFT, Kind.SAME_CITATION_TWO_NAMES), (near, Kind.UNRESOLVED_SHORT_FORM)):
        cut = second if text is TAFT else text.index("The public")
        pdf = InputDocument(name="a.pdf", kind="pdf", text=text, pages=((0, "7"), (cut, "8")))
        docx = InputDocument(
            name="a.docx", kind="docx", text=text, places=((0, "paragraph 4"), (cut, "footnote 2"))
        )
        said = []
        for doc in (pdf, docx):
            result, _report, _hidden = await check_input(doc, None, Settings(offline=True))
            [f] = [f for f in result.findings if f.kind is kind]
            said.append(f.message)
        assert "on page 7" in said[0] and "line" not in said[0], said[0]
        assert "in paragraph 4" in said[1] and "line" not in said[1], said[1]
