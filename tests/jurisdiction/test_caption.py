"""Recognising the forum from a caption, through courts-db's name patterns."""

from __future__ import annotations

from pathlib import Path

import pytest

from citecheck.jurisdiction.caption import caption_court, caption_like, recognise_court

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "brief.md"


@pytest.mark.parametrize(
    ("line", "court"),
    [
        ("IN THE UNITED STATES DISTRICT COURT FOR THE SOUTHERN DISTRICT OF NEW YORK", "nysd"),
        ("IN THE DISTRICT OF COLUMBIA COURT OF APPEALS", "dc"),
        ("# IN THE DISTRICT OF COLUMBIA COURT OF APPEALS", "dc"),  # Markdown heading
        ("SUPERIOR COURT OF THE STATE OF CALIFORNIA FOR THE COUNTY OF LOS ANGELES", "calsuperct"),
        ("IN THE COURT OF APPEAL OF THE STATE OF CALIFORNIA", "calctapp"),
        ("IN THE SUPREME COURT OF CALIFORNIA", "cal"),
        ("IN THE UNITED STATES COURT OF APPEALS FOR THE NINTH CIRCUIT", "ca9"),
        ("IN THE UNITED STATES COURT OF APPEALS FOR THE DISTRICT OF COLUMBIA CIRCUIT", "cadc"),
        ("UNITED STATES DISTRICT COURT FOR THE DISTRICT OF COLUMBIA", "dcd"),
        ("IN THE SUPERIOR COURT OF THE DISTRICT OF COLUMBIA", "supctdc"),
        ("UNITED STATES BANKRUPTCY COURT SOUTHERN DISTRICT OF NEW YORK", "nysb"),
        ("COURT OF APPEALS OF MARYLAND", "md"),
        ("IN THE SUPREME COURT OF THE UNITED STATES", "scotus"),
        ("UNITED STATES DISTRICT COURT", None),  # which district? not a guess
        ("BRIEF FOR APPELLANT", None),
    ],
)
def test_caption_lines(line, court) -> None:
    assert recognise_court(line) == court


def test_example_brief_caption_is_the_dc_court_of_appeals() -> None:
    assert caption_court(EXAMPLE.read_text(encoding="utf-8")) == ("dc", 0)


def test_caption_split_over_two_lines() -> None:
    text = "UNITED STATES DISTRICT COURT\nSOUTHERN DISTRICT OF NEW YORK\n\nJANE DOE, Plaintiff,\n\nv.\n"
    assert caption_court(text) == ("nysd", 0)


def test_argument_sentences_are_not_captions() -> None:
    text = "The Ninth Circuit held that the rule applies. Smith v. Jones, 500 F.3d 1 (9th Cir. 2007).\n"
    assert caption_court(text) is None
    assert not caption_like("The Ninth Circuit held that the rule applies.")


def test_caption_far_into_the_document_is_ignored() -> None:
    text = "word " * 1000 + "\nIN THE UNITED STATES COURT OF APPEALS FOR THE NINTH CIRCUIT\n"
    assert caption_court(text) is None
