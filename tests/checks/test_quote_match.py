"""Quote location on real opinion text (Peyton v. District of Columbia, 100 A.2d 36, OCR quirks and all)."""

from __future__ import annotations

import pytest

from citecheck.checks.quote_match import OpinionIndex, closest_passage, locate, negation_blocked


@pytest.fixture
def peyton(cap_case) -> OpinionIndex:
    _, opinion = cap_case("0036-01")
    return OpinionIndex(opinion.text)


@pytest.mark.parametrize(
    "quote",
    [
        # verbatim
        "we may only set aside a judgment on a factual issue "
        "when it is plainly wrong or without evidence to support it",
        # [alteration] of the first letter, straight apostrophe vs the opinion's curly one, stray OCR bullet
        "[T]he scene of defendant's act was certainly public enough",
        # a footnote marker ("it.7") between the quoted sentences
        "without evidence to support it. The contention that the trial judge improperly considered",
        # a standalone alteration standing for a few words
        "[the court] may only set aside a judgment on a factual issue when it is plainly wrong",
        # ellipses, both styles
        "There was substantial evidence to support the finding . . . when it is plainly wrong",
        "Defendant was convicted by the court… in a public place",
        # a passage over the page break 37/38
        "it was highly improbable that anyone would see defendant through the overhanging trees",
    ],
)
def test_real_quotes_are_found(peyton: OpinionIndex, quote: str) -> None:
    assert locate(quote, peyton) is not None, quote


def test_located_offsets_point_at_the_opinion_text(peyton: OpinionIndex) -> None:
    loc = locate("plainly wrong or without evidence to support it", peyton)
    assert loc is not None
    assert peyton.text[loc.start : loc.end] == "plainly wrong or without evidence to support it"


def test_ellipsis_cannot_swallow_not(peyton: OpinionIndex) -> None:
    quote = (
        "The contention that the trial judge improperly considered defendant's prior conviction "
        "is . . . supported by the record"
    )
    assert locate(quote, peyton) is None
    assert negation_blocked(quote, peyton) == "not"


def test_synonym_gives_closest_passage_and_word_diff(peyton: OpinionIndex) -> None:
    quote = (
        "we may only set aside a judgment on a factual issue "
        "when it is clearly wrong or without evidence to support it"
    )
    assert locate(quote, peyton) is None
    close = closest_passage(quote, peyton)
    assert close is not None
    assert close.diff == "the opinion says “plainly”, the draft says “clearly”"
    assert "plainly wrong" in peyton.text[close.start : close.end]


def test_nothing_close_gives_none(peyton: OpinionIndex) -> None:
    assert (
        closest_passage("the automatic stay bars every act to obtain possession of estate property", peyton)
        is None
    )


@pytest.mark.parametrize(
    ("opinion", "quote"),
    [
        (
            "The statute's carve-\nouts are read narrowly.",
            "The statute's carveouts are read narrowly",
        ),  # line-break hyphenation
        ("The statute\u2019s carveouts are read narrowly.", "the statute's carve-outs are read narrowly"),
        (
            "We \u201cneed not\u201d decide the question.",
            "We 'need not' decide the question",
        ),  # inner quotation marks
        ("Where a party defaults, the court may enter judgment.", "[w]here a party defaults"),
    ],
)
def test_normalisation(opinion: str, quote: str) -> None:
    assert locate(quote, OpinionIndex(opinion)) is not None


def test_cleaned_up_may_drop_internal_citations() -> None:
    idx = OpinionIndex(
        "A plaintiff must plead facts. Smith v. Jones, 12 F.3d 45, 47 (3d Cir. 1994). Labels will not do."
    )
    quote = "A plaintiff must plead facts. Labels will not do."
    assert locate(quote, idx) is None
    assert locate(quote, idx, cleaned_up=True) is not None


@pytest.mark.parametrize(
    "opinion",
    [
        "The rule against perpetuities\n[945 N.E.2d 490 , 920 N.Y.S.2d 297]\nrule applies to options to renew.",
        "The rule against perpetuities *1006 rule applies to options to renew.",
    ],
)
def test_inline_page_markers_are_not_words(opinion: str) -> None:
    idx = OpinionIndex(opinion)
    loc = locate("against perpetuities rule applies to options", idx)
    assert loc is not None and idx.text[loc.start : loc.end].endswith("options")


def test_pathological_quote_is_undecided_quickly(peyton: OpinionIndex) -> None:
    import time

    from citecheck.checks.quote_match import QuoteTooComplex, locate_all

    quote = "the . . . the . . . the . . . the . . . the . . . the . . . zebra"
    t = time.perf_counter()
    try:
        assert locate_all(quote, peyton) == []
    except QuoteTooComplex:
        pass
    assert negation_blocked(quote, peyton) is None
    assert time.perf_counter() - t < 5


def test_the_exact_quote_keeps_the_drafts_closing_punctuation() -> None:
    from citecheck.checks.quote_match import exact_quote

    assert exact_quote("confers full jurisdiction.", "confers no jurisdiction") == "confers no jurisdiction."
    assert exact_quote("confers full jurisdiction,", "confers no jurisdiction") == "confers no jurisdiction,"
    assert exact_quote("confers full jurisdiction", "confers no jurisdiction") == "confers no jurisdiction"
    assert exact_quote("confers full jurisdiction.", "confers no jurisdiction;") == "confers no jurisdiction;"
