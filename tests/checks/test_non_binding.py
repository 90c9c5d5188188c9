"""non-binding-authority: a persuasive case presented as controlling, on real court pairs."""

from __future__ import annotations

import pytest

from citecheck.checks.base import CheckContext
from citecheck.checks.non_binding import NonBindingAuthorityCheck, claim_text, controlling_phrase
from citecheck.extract import extract_citations
from citecheck.findings import Kind, Severity
from citecheck.jurisdiction import Forum, Question, court_node


def _forum(court_id: str) -> Forum:
    node = court_node(court_id)
    assert node is not None
    return Forum(court=node, question=Question.FEDERAL if node.federal else Question.STATE, origin="config")


def _run(text: str, forum: Forum | None) -> list:
    ex = extract_citations(text)
    out = []
    for c in ex.citations:
        ctx = CheckContext(extraction=ex, citation=c, full=ex.resolved(c), forum=forum)
        out.extend(NonBindingAuthorityCheck().run(ctx))
    return out


@pytest.mark.parametrize(
    ("text", "forum", "flagged"),
    [
        # a 9th Cir. case presented as controlling in S.D.N.Y.
        ("Smith v. Jones, 500 F.3d 1, 5 (9th Cir. 2007), controls here.", "nysd", True),
        # the same case from the 2d Cir. binds S.D.N.Y.
        ("Smith v. Jones, 500 F.3d 1, 5 (2d Cir. 2007), controls here.", "nysd", False),
        # a Maryland case "squarely holds" in a D.C. Court of Appeals brief
        ("Doe v. Roe, 400 Md. 1, 9 (2007), squarely holds that the deposit is returned.", "dc", True),
        # citation sentence after the claim
        ("The rule is binding on this court. Doe v. Roe, 400 Md. 1, 9 (2007).", "dc", True),
        # negated: the draft says it is not binding
        ("Doe v. Roe, 400 Md. 1, 9 (2007), is not controlling, but it is instructive.", "dc", False),
        # persuasive case without controlling language
        ("See Doe v. Roe, 400 Md. 1, 9 (2007) (reaching the same result).", "dc", False),
        # the Supreme Court controls everywhere
        ("Roe v. Wade, 410 U.S. 113, 116 (1973), controls.", "calsuperct", False),
        # "required by" right before the case presents it as controlling ...
        ("The result is required by Smith v. Jones, 500 F.3d 1, 5 (9th Cir. 2007).", "nysd", True),
        # ... but not when it describes a statute (real text: Ill. App. 2015, SORA)
        (
            "After analyzing the obligations required by the SORA statutory scheme, the court upheld them. "
            "Smith v. Jones, 500 F.3d 1, 5 (9th Cir. 2007).",
            "nysd",
            False,
        ),
        # "is binding" / "dispositive" about something else than the case (real sentences of opinions)
        (
            "Such rejection is binding on all persons insured under the policy. "
            "Jackson v. Stroud, 500 F.3d 1, 5 (3d Cir. 2007).",
            "nysd",
            False,
        ),
        (
            "Satisfactory proof of loss was the dispositive issue in this motion. "
            "See Kaua'i v. Hanalei, 500 F.3d 1 (9th Cir. 2007).",
            "nysd",
            False,
        ),
        # ... but with a word for an authority beside it, it is about the case
        ("That holding is binding here. Jackson v. Stroud, 500 F.3d 1, 5 (3d Cir. 2007).", "nysd", True),
        # parallel cites: the official reporter names the court for the regional one
        ("State v. Dyous, 307 Conn. 299, 53 A.3d 153 (2012), controls.", "dc", True),
        # public-domain citation of a Wisconsin case
        ("Smith v. Town, 2019 WI 12, ¶ 9, 385 Wis. 2d 1, controls.", "mnd", True),
        # a Cal. Ct. App. case binds a Cal. superior court
        ("People v. Smith, 10 Cal. App. 4th 100, 105 (Cal. Ct. App. 1992), controls.", "calsuperct", False),
    ],
)
def test_controlling_language_on_non_binding_cases(text, forum, flagged) -> None:
    found = _run(text, _forum(forum))
    assert bool(found) is flagged, [f.message for f in found]
    for f in found:
        assert f.kind is Kind.NON_BINDING_AUTHORITY and f.severity is Severity.INFO
        assert f.evidence.draft and f.evidence.note and f.evidence.court


def test_no_forum_no_finding() -> None:
    assert _run("Smith v. Jones, 500 F.3d 1, 5 (9th Cir. 2007), controls here.", None) == []


def test_unknown_court_is_never_called_non_binding() -> None:
    assert (
        _run("Smith v. Jones, 2019 WL 1396975, at *3 (Cal. Super. Ct. 2019), controls.", _forum("nysd")) == []
    )


def test_claim_before_a_citation_sentence_citing_something_else_is_not_borrowed() -> None:
    text = "Smith v. Jones, 500 F.3d 1 (2d Cir. 2007), controls. See Doe v. Roe, 600 F.3d 2 (9th Cir. 2009)."
    assert _run(text, _forum("nysd")) == []


def test_message_names_both_courts() -> None:
    [f] = _run("Smith v. Jones, 500 F.3d 1, 5 (9th Cir. 2007), controls here.", _forum("nysd"))
    assert "Ninth Circuit" in f.message and "S.D. New York" in f.message and "“controls”" in f.message


def test_phrases() -> None:
    assert controlling_phrase("We must follow Smith.", cite_at=15) == "must follow"
    assert controlling_phrase("This result is required by Smith.", cite_at=27) == "required by"
    assert controlling_phrase("This result is required by Smith.") is None  # no citation to be next to
    assert controlling_phrase("Smith doesn't control.") is None
    assert controlling_phrase("Smith is not binding here.") is None


def test_claim_text_of_a_citation_sentence() -> None:
    text = "The controlling rule is settled. Cook v. Public Storage, Inc., 761 N.W.2d 645, 650 (Minn. Ct. App. 2008)."
    ex = extract_citations(text)
    c = ex.citations[0]
    assert claim_text(CheckContext(extraction=ex, citation=c, full=c)).startswith("The controlling rule")


def test_bare_court_of_appeals_parenthetical_takes_the_state_from_the_reporter() -> None:
    from citecheck.checks.non_binding import citation_court

    text = "Doe v. Roe, 150 Wis. 2d 1, 440 N.W.2d 1 (Ct. App. 1989), controls."
    ex = extract_citations(text)
    courts = {c.text: citation_court(CheckContext(extraction=ex, citation=c, full=c)) for c in ex.citations}
    assert courts == {"150 Wis. 2d 1": "wisctapp", "440 N.W.2d 1": "wisctapp"}
    assert (
        len(_run(text, _forum("wis"))) == 2
    )  # the Wisconsin Supreme Court is not bound by its court of appeals


@pytest.mark.corpus
async def test_a_citation_with_no_case_behind_it_has_no_weight(tmp_path) -> None:
    """Findings about findings (issue 25 item 6): a citation that cannot exist or a fabricated one is
    neither "Persuasive" nor "Binding authority": its result has no weight, the controlling language
    around it raises no non-binding-authority finding, and a short form of it has no weight either.
    Real 100 A.2d records (../shared/corpus); the draft is filed in the D.C. Court of Appeals."""
    from citecheck.config import Settings
    from citecheck.pipeline import check_document
    from citecheck.sources.corpus import Corpus, CorpusSource
    from citecheck_testing import import_shared_corpus

    text = (
        "IN THE DISTRICT OF COLUMBIA COURT OF APPEALS\n\n"
        "The controlling rule is that a deposit is returned. Whitfield v. Kessler Mgmt. Co., 640 F.4th 512, "
        "515 (D.C. Cir. 2001). Id. at 516 squarely holds it.\n\n"
        "This Court is bound by Harmon v. Capital Transit Co., 100 A.2d 457 (D.C. Mun. App. 1953).\n\n"
        "A real case of this Court binds it. Savage v. Parks, 100 A.2d 450, 451 (D.C. Mun. App. 1953).\n\n"
        "The controlling rule is stated in Doe v. Roe, 400 Md. 1, 9 (2007).\n"
    )
    corpus = Corpus(import_shared_corpus(tmp_path / "corpus.sqlite"))
    try:
        report = await check_document(text, CorpusSource(corpus), Settings(offline=True, court="dc"))
    finally:
        corpus.close()
    cites = {c.text: c.index for c in report.extraction.citations}
    kinds = {(f.kind, f.citation_index) for f in report.findings}
    weight = {
        text: (r.weight.weight.value if (r := report.result(i)) and r.weight else None)
        for text, i in cites.items()
    }
    assert (Kind.IMPOSSIBLE_CITATION, cites["640 F.4th 512"]) in kinds
    assert (Kind.FABRICATED_CASE, cites["100 A.2d 457"]) in kinds
    # before: "persuasive" (a D.C. Circuit case in a D.C. court) and "binding" (100 A.2d is D.C.'s reporter)
    assert weight["640 F.4th 512"] is None and weight["Id. at 516"] is None and weight["100 A.2d 457"] is None
    assert not any(
        k is Kind.NON_BINDING_AUTHORITY and i in (cites["640 F.4th 512"], cites["Id. at 516"])
        for k, i in kinds
    )
    # a real case keeps its weight, and a persuasive one presented as controlling is still flagged
    assert weight["100 A.2d 450"] == "binding" and weight["400 Md. 1"] == "persuasive"
    assert (Kind.NON_BINDING_AUTHORITY, cites["400 Md. 1"]) in kinds


def test_without_a_record_the_evidence_is_the_drafts_parenthetical() -> None:
    """Issue 36's bare-clone check of examples/brief.md said 'source: corpus' for 761 N.W.2d 645, a volume the
    (empty) corpus does not hold: the court weighed was the draft's '(Minn. Ct. App. 2009)'."""
    from citecheck.sources.models import CiteKey, LookupResult, LookupStatus

    text = "Cook v. Public Storage, Inc., 761 N.W.2d 645, 649 (Minn. Ct. App. 2009), is controlling."
    ex = extract_citations(text)
    [c] = ex.citations
    missed = LookupResult(key=CiteKey("761", "N.W.2d", "645"), status=LookupStatus.NOT_FOUND, source="corpus")
    ctx = CheckContext(
        extraction=ex, citation=c, full=c, forum=_forum("dc"), lookup=missed, source_name="corpus"
    )
    [f] = NonBindingAuthorityCheck().run(ctx)
    assert f.evidence.source == "draft" and f.evidence.court == "Court of Appeals of Minnesota"
