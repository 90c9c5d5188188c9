"""Weight on real captions (issue 36, item 3): a federal diversity case on Texas law, a New York Supreme Court
memo citing the Appellate Division, and parallel citations counted as one authority."""

from __future__ import annotations

from citecheck.config import Settings
from citecheck.extract import extract_citations
from citecheck.judge import SourceEvidence, judge
from citecheck.jurisdiction import Declared, Question, Weight, matter_forum
from citecheck.jurisdiction.matter import diversity
from citecheck.report.model import authorities, file_result, weight_summary

#: The caption and opening of a Fifth Circuit diversity appeal on Texas insurance law (the citations are the
#: real Texas Supreme Court, Texas court of appeals and Fifth Circuit cases such opinions cite).
FIFTH_CIRCUIT = (
    "United States Court of Appeals for the Fifth Circuit\n\nNo. 22-20123\n\n"
    "ACME INSURANCE COMPANY, Plaintiff—Appellee, versus JOHN DOE, Defendant—Appellant.\n\n"
    "Appeal from the United States District Court for the Southern District of Texas\n\n"
    "The district court had jurisdiction under 28 U.S.C. § 1332. Under Texas law, an insurer's duty to defend is "
    "determined by the eight-corners rule. GuideOne Elite Ins. Co. v. Fielder Rd. Baptist Church, 197 S.W.3d 305, "
    "308 (Tex. 2006). The intermediate courts agree. Gonzales v. Am. States Ins. Co. of Tex., 628 S.W.2d 184, 187 "
    "(Tex. App.—Houston [14th Dist.] 1982, no writ). We are bound by our own reading of Texas law. Ooida Risk "
    "Retention Grp., Inc. v. Williams, 579 F.3d 469, 472 (5th Cir. 2009). Cf. In re Allstate Indem. Co., 622 "
    "S.W.3d 870, 876 (Tex. 2021).\n"
)

#: A memorandum of law in the Supreme Court of the State of New York, Kings County.
NEW_YORK = (
    "SUPREME COURT OF THE STATE OF NEW YORK\nCOUNTY OF KINGS\n\n"
    "MEMORANDUM OF LAW IN SUPPORT OF MOTION TO DISMISS\n\n"
    "On a motion under CPLR 3211(a)(7) the pleading is afforded a liberal construction. Leon v. Martinez, 84 "
    "N.Y.2d 83, 87-88, 614 N.Y.S.2d 972, 638 N.E.2d 511 (1994). The Second Department agrees. Sokol v. Leader, "
    "74 A.D.3d 1180, 1181 (2d Dep't 2010); Rabos v. R&R Bagels & Bakery, Inc., 100 A.D.3d 849, 851-52 (2d Dept "
    "2012); Matter of Kiernan v. Kiernan, 43 N.Y.S.3d 123 (App. Div. 3d Dep't 2016). Leon v. Martinez, 638 "
    "N.E.2d 511, 513 (N.Y. 1994).\n"
)


def _weights(text: str) -> dict[str, tuple[Weight, str]]:
    report = judge(extract_citations(text), SourceEvidence(), Settings())
    file = file_result("x.txt", "text", text, report)
    return {a.name: (a.weight.weight, a.weight.reason) for a in authorities(file) if a.weight is not None}


def test_the_texas_supreme_court_binds_a_federal_court_in_a_diversity_case() -> None:
    forum = matter_forum(FIFTH_CIRCUIT)
    assert forum is not None and forum.court.id == "ca5"
    assert forum.question is Question.STATE and forum.law_state == "Texas"
    assert "diversity" in (forum.question_origin or "")
    w = _weights(FIFTH_CIRCUIT)
    assert w["GuideOne Elite Ins. Co. v. Fielder Rd. Baptist Church"][0] is Weight.BINDING
    assert w["In re Allstate Indem. Co."][0] is Weight.BINDING
    # Texas's courts of appeals are evidence of Texas law, not binding; the circuit binds itself
    assert w["Gonzales v. Am. States Ins. Co. of Tex."][0] is Weight.PERSUASIVE
    assert w["Ooida Risk Retention Grp., Inc. v. Williams"] == (
        Weight.BINDING,
        "a circuit is bound by its own earlier panels' reading of Texas law until Texas's highest court decides "
        "otherwise",
    )


def test_without_diversity_a_state_court_stays_persuasive_on_federal_law() -> None:
    text = FIFTH_CIRCUIT.replace("under 28 U.S.C. § 1332", "under 28 U.S.C. § 1331")
    forum = matter_forum(text)
    assert forum is not None and forum.question is Question.FEDERAL and forum.question_origin is None
    assert _weights(text)["GuideOne Elite Ins. Co. v. Fielder Rd. Baptist Church"][0] is Weight.PERSUASIVE
    # a declared question wins over the text
    declared = matter_forum(FIFTH_CIRCUIT, declared=(Declared(question="federal"),))
    assert declared is not None and declared.question is Question.FEDERAL and declared.question_origin is None


def test_diversity_words_and_the_governing_state() -> None:
    assert diversity("We sit in diversity and apply New York law. New York law governs.") == (
        "New York",
        "diversity jurisdiction in the text; New York law governs",
    )
    assert diversity("Erie R.R. Co. v. Tompkins, 304 U.S. 64 (1938).") == (
        None,
        "diversity jurisdiction in the text",
    )
    assert diversity("The diversity of views among the circuits is wide.") is None


def test_the_appellate_division_binds_a_new_york_supreme_court() -> None:
    forum = matter_forum(NEW_YORK)
    assert forum is not None and forum.court.id == "nysupct"
    w = _weights(NEW_YORK)
    for name in ("Sokol v. Leader", "Rabos v. R&R Bagels & Bakery, Inc.", "Matter of Kiernan v. Kiernan"):
        weight, reason = w[name]
        assert weight is Weight.BINDING, (name, reason)
        assert "the Appellate Division of the New York Supreme Court binds the trial courts" in reason
    assert w["Leon v. Martinez"][0] is Weight.BINDING  # the Court of Appeals


def test_a_parallel_citation_cited_again_alone_is_one_authority() -> None:
    report = judge(extract_citations(NEW_YORK), SourceEvidence(), Settings())
    file = file_result("memo.txt", "text", NEW_YORK, report)
    leon = [a for a in authorities(file) if a.name == "Leon v. Martinez"]
    assert len(leon) == 1 and len(leon[0].places) == 4  # three parallel citations, then 638 N.E.2d alone
    assert weight_summary(file) == "authorities: 4 binding"


#: The Missouri Court of Appeals, Eastern District, as it publishes its opinions (Jagels v. State, ED108783,
#: 2021: freelawproject/doctor @ a664450 doctor/test_assets/missouri.pdf, pages 1-3, as its text layer reads).
MISSOURI = (
    "In the Missouri Court of Appeals  \nEastern District \n \nDIVISION THREE \n \nNICHOLE MARIE JAGELS,    ) No. "
    "ED108783 \n      ) \nAppellant,    ) Appeal from  the Circuit Court of   \n      ) St. Charles County, "
    "Missouri \nvs.      ) No. 1711-CC00064 \n \nOur review is limited to whether the findings, conclusions, and "
    "judgment are clearly erroneous.  \nWooldridge v. State , 239 S.W.3d 151, 153\u201354 (Mo. App. E.D. 2007).  The "
    "motion court\u2019s \nfindings and conclusions are presumptively correct.  Vaca v. State , 314 S.W.3d 331, 334 "
    "(Mo. banc 2010).  After a guilty plea, our \nreview is limited.  \nLoudermilk v. State, 973 S.W.2d 551, 553 "
    "(Mo. App. E.D. 1998). \n"
)


def test_missouris_own_court_parentheticals_have_a_weight() -> None:
    """'(Mo. banc 2010)' and '(Mo. App. E.D. 2007)' were 'weight unknown' (12 of the opinion's 13 cases)."""
    w = _weights(MISSOURI)
    assert w["Vaca v. State"] == (Weight.BINDING, "Supreme Court of Missouri is Missouri's highest court")
    assert w["Wooldridge v. State"][0] is Weight.PERSUASIVE
    assert w["Loudermilk v. State"] == (
        Weight.PERSUASIVE,
        "in Missouri, one panel of an intermediate court does not bind another",
    )
