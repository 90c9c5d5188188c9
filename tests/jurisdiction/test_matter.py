"""Where the forum comes from: front matter, declarations (settings, .docx property), caption."""

from __future__ import annotations

from citecheck.jurisdiction import Declared, Question, matter_forum, resolve_court
from citecheck.jurisdiction.matter import front_matter

CAPTION = "IN THE DISTRICT OF COLUMBIA COURT OF APPEALS\n\nBRIEF FOR APPELLANT\n"


def test_caption_when_nothing_is_declared() -> None:
    f = matter_forum(CAPTION)
    assert f is not None and f.court.id == "dc" and f.origin == "caption" and f.question is Question.STATE


def test_front_matter_beats_settings_and_caption() -> None:
    text = "---\ncourt: nysd\nquestion: state\n---\n" + CAPTION
    f = matter_forum(text, declared=(Declared(court="ca9", origin="config"),))
    assert f is not None and (f.court.id, f.origin, f.question) == ("nysd", "front matter", Question.STATE)


def test_declarations_in_order_then_caption() -> None:
    decl = (Declared(court="S.D.N.Y.", origin="document property"), Declared(court="ca9", origin="config"))
    f = matter_forum(CAPTION, declared=decl)
    assert f is not None and (f.court.id, f.origin, f.question) == (
        "nysd",
        "document property",
        Question.FEDERAL,
    )
    f = matter_forum(CAPTION, declared=(Declared(court="no such court", origin="config"),))
    assert f is not None and f.court.id == "dc"  # an unrecognised declaration falls back on the caption


def test_question_from_settings_applies_to_a_caption_forum() -> None:
    f = matter_forum(
        "UNITED STATES DISTRICT COURT\nSOUTHERN DISTRICT OF NEW YORK\n",
        declared=(Declared(question="state"),),
    )
    assert f is not None and f.court.id == "nysd" and f.question is Question.STATE


def test_no_forum_at_all() -> None:
    assert matter_forum("Nothing here names a court.\n") is None


def test_front_matter_parsing() -> None:
    d = front_matter('---\ncourt: "Cal. Super. Ct."\nlaw: California\nquestion: bogus\n---\ntext')
    assert (d.court, d.law_state, d.question) == ("Cal. Super. Ct.", "California", "bogus")
    f = matter_forum("---\ncourt: nysd\nquestion: bogus\n---\n")
    assert f is not None and f.question is Question.FEDERAL  # a typo in a document is ignored, not fatal


def test_resolve_court_forms() -> None:
    assert resolve_court("nysd") == "nysd"
    assert resolve_court("NYSD") == "nysd"
    assert resolve_court("2d Cir.") == "ca2"
    assert resolve_court("Superior Court of California") == "calsuperct"
    assert resolve_court("") is None and resolve_court("Court of Nowhere") is None
