"""Quotations bound to the citation they are offered for, California and other parenthesised styles,
and short and full forms as courts and lawyers write them (issue 25, items 2, 3 and 5).

Excerpts are from real opinions as CourtListener serves them (named in the row), or the issue's own
examples found on real text.
"""

from __future__ import annotations

import asyncio

import pytest

from citecheck.config import Settings
from citecheck.extract import CiteForm, extract_citations
from citecheck.findings import Kind
from citecheck.pipeline import check_document

CA1 = "First Circuit, CourtListener opinion "

# (text, the citation's core, the quotations bound to it, source)
BOUND: list[tuple[str, str, list[str], str]] = [
    (
        'The rule is settled. "A mining claim is property. It may be sold." '
        "Smith v. Consol. Min. Co., 100 U.S. 100, 105 (1879).",
        "100 U.S. 100",
        ["A mining claim is property. It may be sold."],
        "issue 25: a quotation of two sentences",
    ),
    (
        'although sanctions can vary depending on the circumstances, "[t]he baseline rule is that `the '
        "required sanction in the ordinary case is mandatory preclusion.'\" Santiago-Diaz v. Laboratorio "
        "Clinico Y De Referencia Del Este, 456 F.3d 272, 276 (1st Cir.2006) (quoting Lohnes v. Level 3 "
        "Commc'ns, Inc., 272 F.3d 49, 60 (1st Cir.2001)); see Fed. R.Civ.P. 37(c)(1).",
        "456 F.3d 272",
        ["[t]he baseline rule is that `the required sanction in the ordinary case is mandatory preclusion.'"],
        CA1 + "180433: the citation's own sentence holds a rule, so it is no citation-only sentence",
    ),
    (
        'The court agreed: "Absent such a showing, the claim fails. Smith v. Jones, 1 F.3d 1, 3 (1st Cir. '
        '1990)." The rest follows.',
        "1 F.3d 1",
        ["Absent such a showing, the claim fails."],
        "issue 25: a quotation that contains its own citation",
    ),
    (
        'Citizen suits "function as a form of statutory enforcement in addition to, or in conjunction '
        'with, enforcement by an administrative agency." Esso Standard Oil Co. (P.R.) v. Rodriguez-Perez, '
        "455 F.3d 1, 5 n. 2 (1st Cir.2006).",
        "455 F.3d 1",
        [
            "function as a form of statutory enforcement in addition to, or in conjunction with, "
            "enforcement by an administrative agency."
        ],
        CA1 + "183689",
    ),
    (
        "\"It is well established that the word 'shall' should be afforded a mandatory connotation.\" "
        "Syllabus Point 1, Nelson v. West Virginia Public Employees Insurance Board, 171 W.Va. 445, 300 "
        "S.E.2d 86 (1982).",
        "171 W.Va. 445",
        ["It is well established that the word 'shall' should be afforded a mandatory connotation."],
        "West Virginia Supreme Court, courtlistener-bulk opinion 920000034",
    ),
    (
        '"this financing statement covers the following types or items [of] property." (Id.) In the '
        "relevant field",
        "Id.",
        ["this financing statement covers the following types or items [of] property."],
        "First Circuit BAP style, courtlistener-bulk opinion 920000008",
    ),
]


@pytest.mark.parametrize(("text", "core", "quotes", "source"), BOUND, ids=[s[:40] for *_, s in BOUND])
def test_quotations_are_bound_to_their_citation(text: str, core: str, quotes: list[str], source: str) -> None:
    text = "Roe v. Wade, 410 U.S. 113 (1973).\n\n" + text
    cites = {c.text: c for c in extract_citations(text).citations}
    assert [q.text for q in cites[core].quotes] == quotes, source


def test_a_quotation_ending_a_sentence_is_not_given_to_the_next_sentence_s_citation() -> None:
    text = 'He said "we lost the case." The next case, Smith v. Jones, 1 U.S. 1, held otherwise.'
    [c] = extract_citations(text).citations
    assert c.quotes == ()


def test_a_quotation_with_an_inner_citation_stays_whole_for_the_case_it_quotes() -> None:
    text = (
        'The court held that "X is true, Brown v. Board, 347 U.S. 483 (1954), and Y follows." '
        "Smith v. Jones, 1 U.S. 1, 5 (1900)."
    )
    inner, outer = extract_citations(text).citations
    assert inner.quotes == ()
    assert [q.text for q in outer.quotes] == [
        "X is true, Brown v. Board, 347 U.S. 483 (1954), and Y follows."
    ]


# California style: the citation in parentheses, Id. and Ibid. too
CALIFORNIA = (
    "The trial court erred. (People v. Smith (1990) 50 Cal.3d 100, 150.) The court agreed that "
    '"the rule applies to every case." (Id. at p. 152.) It said so again. (Ibid.) And once more. '
    "(Id. at pp. 150-151.)"
)


def test_california_ids_are_found_resolved_and_given_their_quotation() -> None:
    cites = extract_citations(CALIFORNIA).citations
    assert [(c.form, c.text, c.antecedent) for c in cites[1:]] == [
        (CiteForm.ID, "Id. at p. 152", 0),
        (CiteForm.ID, "Ibid.", 0),
        (CiteForm.ID, "Id. at pp. 150-151", 0),
    ]
    assert [q.text for q in cites[1].quotes] == ["the rule applies to every case."]
    report = asyncio.run(check_document(CALIFORNIA, None, Settings()))
    assert [f.kind for f in report.findings if f.severity.value != "info"] == []


# (text, court id, year, source): state courts' own parentheticals
STATE_COURTS: list[tuple[str, str, int, str]] = [
    ("See Smith v. Jones, 990 So. 2d 100, 102 (Fla. 3d DCA 2008).", "fladistctapp", 2008, "issue 25"),
    (
        "McCaskill v. State, 520 So.2d 664 (Fla. 1st DCA 1988);",
        "fladistctapp",
        1988,
        "Anderson v. State, Fla. 5th DCA 1989",
    ),
    (
        "Goodling v. State, 482 So.2d 594 (Fla. 4th DCA Jan. 5, 1986).",
        "fladistctapp",
        1986,
        "Fla. 4th DCA with a date",
    ),
    (
        "Doe v. Roe, 169 S.W.3d 1 (Tex. App.-Houston [14th Dist.] 2005).",
        "texapp",
        2005,
        "Texas courts of appeals",
    ),
]


@pytest.mark.parametrize(
    ("text", "court", "year", "source"), STATE_COURTS, ids=[t[:30] for t, *_ in STATE_COURTS]
)
def test_state_court_parentheticals_are_read(text: str, court: str, year: int, source: str) -> None:
    [c] = extract_citations(text).citations
    assert (c.court, c.year) == (court, year), source


WESTLAW = (
    "Henson v. Santander Consumer USA Inc., 2008 WL 123456 (D. Md. Jan. 2, 2008). The court agreed. "
    "Henson, 2008 WL 123456, at *2. Compare Smith, 2008 WL 999999, at *3."
)


def test_a_westlaw_short_form_after_its_full_cite_is_a_short_form() -> None:
    full, short, other = extract_citations(WESTLAW).citations
    assert full.form is CiteForm.FULL and full.case_name is not None
    assert (short.form, short.antecedent, short.antecedent_text, short.pincite.text) == (  # type: ignore[union-attr]
        CiteForm.SHORT,
        0,
        "Henson",
        "*2",
    )
    assert (other.form, other.antecedent) == (CiteForm.SHORT, None)  # another Westlaw number: no antecedent
    report = asyncio.run(check_document(WESTLAW, None, Settings()))
    unresolved = [f for f in report.findings if f.kind is Kind.UNRESOLVED_SHORT_FORM]
    assert [f.span.of(WESTLAW) for f in unresolved] == ["Smith, 2008 WL 999999, at *3"]


def test_year_mismatch_covers_the_citation_and_its_parenthetical() -> None:
    text = "See Smith v. Jones, 15 S.W.3d 100 (Tex. 1986)."
    report = asyncio.run(check_document(text, None, Settings()))
    [f] = [f for f in report.findings if f.kind is Kind.YEAR_MISMATCH]
    assert f.span.of(text) == "15 S.W.3d 100 (Tex. 1986)"


def test_a_california_name_designation_is_no_explanatory_parenthetical() -> None:
    # People v. Mosby (2004) 33 Cal.4th 353, as published: "(People v. Howard (1992) 1 Cal. 4th 1132, 1178-1179,
    # 5 Cal. Rptr. 2d 268, 824 P.2d 1315 (Howard); North Carolina v. Alford (1970) 400 U.S. 25, 31, ...)"
    text = (
        "(People v. Howard (1992) 1 Cal. 4th 1132, 1178-1179, 5 Cal. Rptr. 2d 268, 824 P.2d 1315 (Howard); "
        "North Carolina v. Alford (1970) 400 U.S. 25, 31, 91 S. Ct. 160, 27 L. Ed. 2d 162.)"
    )
    cites = extract_citations(text).citations
    assert [c.parentheticals for c in cites] == [()] * 6
    assert [(c.year, c.group) for c in cites] == [(1992, 0)] * 3 + [(1970, 3)] * 3
    text = "Brown v. Board, 347 U.S. 483 (1954) (Brown) (holding that separate is unequal)."
    [c] = extract_citations(text).citations
    assert [p.text for p in c.parentheticals] == ["holding that separate is unequal"]
