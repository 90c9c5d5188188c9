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
    assert _run("Smith v. Jones, 2019 WL 1396975, at *3 (Cal. Super. Ct. 2019), controls.", _forum("nysd")) == []


def test_claim_before_a_citation_sentence_citing_something_else_is_not_borrowed() -> None:
    text = ("Smith v. Jones, 500 F.3d 1 (2d Cir. 2007), controls. "
            "See Doe v. Roe, 600 F.3d 2 (9th Cir. 2009).")
    assert _run(text, _forum("nysd")) == []


def test_message_names_both_courts() -> None:
    [f] = _run("Smith v. Jones, 500 F.3d 1, 5 (9th Cir. 2007), controls here.", _forum("nysd"))
    assert "Ninth Circuit" in f.message and "S.D. New York" in f.message and "“controls”" in f.message


def test_phrases() -> None:
    assert controlling_phrase("We must follow Smith.") == "must follow"
    assert controlling_phrase("This result is required by Smith.") == "required by"
    assert controlling_phrase("Smith doesn't control.") is None
    assert controlling_phrase("Smith is not binding here.") is None


def test_claim_text_of_a_citation_sentence() -> None:
    text = "The controlling rule is settled. Cook v. Public Storage, Inc., 761 N.W.2d 645, 650 (Minn. Ct. App. 2008)."
    ex = extract_citations(text)
    c = ex.citations[0]
    assert claim_text(CheckContext(extraction=ex, citation=c, full=c)).startswith("The controlling rule")
