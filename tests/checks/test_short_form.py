"""Unresolved short forms are flagged without any lookup; Id./supra that may cite a statute are info."""

from __future__ import annotations

from citecheck.checks.short_form import UnresolvedShortFormCheck
from citecheck.findings import Kind, Severity
from citecheck_testing import make_citation


def test_reporter_short_cite_without_full_cite_is_a_warning(make_ctx) -> None:
    text = "As the court said, Roe, 410 U.S. at 116."
    c = make_citation(text, "Roe, 410 U.S. at 116", form="short", pin="116", volume="410", reporter="U.S.")
    [f] = UnresolvedShortFormCheck().run(make_ctx(text, [c], source_name=None))
    assert (f.kind, f.severity) == (Kind.UNRESOLVED_SHORT_FORM, Severity.WARNING)
    assert f.span.of(text) == "Roe, 410 U.S. at 116"


def test_id_without_case_antecedent_is_info(make_ctx) -> None:
    text = "See 42 U.S.C. § 1983; id. at 5."
    c = make_citation(text, "id. at 5", form="id", pin="5")
    [f] = UnresolvedShortFormCheck().run(make_ctx(text, [c], source_name=None))
    assert (f.kind, f.severity) == (Kind.UNRESOLVED_SHORT_FORM, Severity.INFO)
    assert "statute" in f.message


def test_resolved_short_form_is_fine(make_ctx) -> None:
    text = "Roe v. Wade, 410 U.S. 113 (1973). Id. at 116."
    full = make_citation(text, "410 U.S. 113")
    short = make_citation(text, "Id. at 116", index=1, form="id", pin="116", antecedent=0)
    assert list(UnresolvedShortFormCheck().run(make_ctx(text, [full, short], 1, source_name=None))) == []


def _short_form_findings(text: str) -> list:
    from citecheck.config import Settings
    from citecheck.extract import extract_citations
    from citecheck.judge import SourceEvidence, judge

    report = judge(extract_citations(text), SourceEvidence(), Settings())
    return [f for f in report.findings if f.kind is Kind.UNRESOLVED_SHORT_FORM]


#: A Texas trial-court filing (chuckdustin12/LEGAL_DESTROYER @ 795b0a8, CASE DOCS/CHARLES DUSTIN MYERS/
#: 03.31.25-  RESPONDENT'S PRE OBJECTION TO CONSOLIDATION-1.pdf, pages 12-13, as its text layer reads).
YOUNG = (
    "lack of persons to \nbe joined if feasible; and (3) lack of intent to prosecute the first lawsuit.\u201d (quoting "
    "V.D. \nAnderson Co. v. Young, 101 S.W.2d 798 (Tex. 1937); Curtis v. Gibbs, 511 S.W.2d 263 \n(Tex. 1974)). "
    "If any of these exceptions apply, the court with the first filing does not have dominant jurisdiction.\n"
    " 26. Perhaps the most glaring exception is the third exception. Petitioner \ndemonstrated a \u201clack of "
    "intent to prosecute the first lawsuit.\u201d Young, 128 Tex. at 636-37, \n101 S.W.2d at 800-01; see also "
    "Curtis, 511 S.W.2d at 267. For nearly a year, she took no \naction to advance the divorce.\n"
)

#: The same litigant's notice (07.28.25 - NOTICE OF RICO UPDATE-1.pdf, page 5): a court quoted with its own
#: short form inside the quotation.
ROTELLO = (
    '20. Jimenez v Transwestern Property Co., 999 S.W.2d 125 (Tex. Ct. App. 1999) further \nexplains: "Trial '
    "courts possess inherent and express power to dismiss cases that have not been \nprosecuted with diligence. "
    "See Rotello, 671 S.W.2d at 509. In a dismissal for want of \nprosecution, the test is not abandonment; the "
    'test is due diligence." This highlights that the key \nconsideration is diligence.\n'
)


def test_a_parallel_pin_to_a_case_cited_in_full_is_no_warning() -> None:
    [f] = _short_form_findings(YOUNG)
    assert f.severity is Severity.INFO and "128 Tex. at 636-37" in f.message and "parallel" in f.message
    # without the full citation before it, the pair is still a warning
    alone = YOUNG[YOUNG.index(" 26.") :]
    [young] = [f for f in _short_form_findings(alone) if "128 Tex." in f.message]
    assert young.severity is Severity.WARNING


def test_a_short_form_inside_a_quotation_is_the_quoted_courts() -> None:
    [f] = _short_form_findings(ROTELLO)
    assert f.severity is Severity.INFO and "quotation" in f.message
    curly = ROTELLO.replace('explains: "', "explains: \u201c").replace(
        'diligence." This', "diligence.\u201d This"
    )
    assert [f.severity for f in _short_form_findings(curly)] == [Severity.INFO]
    # after a page of other quotations (the notice quotes three courts before Jimenez)
    earlier = (
        "19. Villarreal v. San Antonio Truck & Equip., 994 S.W.2d 628 \n(Tex. 1999), a seminal case on this issue, "
        "clearly establishes that \"The trial court's authority to \ndismiss for want of prosecution stems from two "
        "sources: (1) Rule 165a of the Texas Rules of \nCivil Procedure, and (2) the court's inherent power.\" \n"
    )
    assert [f.severity for f in _short_form_findings(earlier * 9 + ROTELLO)] == [Severity.INFO]
    # outside the quotation it is the draft's own short form: a warning
    unquoted = ROTELLO.replace('"', "")
    assert [f.severity for f in _short_form_findings(unquoted)] == [Severity.WARNING]
    closed = ROTELLO.replace("diligence. \nSee Rotello", 'diligence." \nSee Rotello').replace(
        'diligence." This', "diligence. This"
    )
    assert [f.severity for f in _short_form_findings(closed)] == [Severity.WARNING]
