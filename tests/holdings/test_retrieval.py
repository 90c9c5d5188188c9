"""Passages for a proposition: bm25 over paragraphs, pages from the page map, a token budget."""

from __future__ import annotations

from citecheck.holdings.models import Claim
from citecheck.holdings.retrieval import approx_tokens, retrieve_passages, split_passages
from citecheck.sources.models import OpinionText
from citecheck.spans import Span


def _claim(prop: str, pins: tuple[str, ...] = ()) -> Claim:
    return Claim(
        citation_index=0,
        span=Span(0, 1),
        proposition=prop,
        case_id="cap:1",
        case_name="Smith v. Jones",
        cite="100 A.2d 36",
        reporter="A.2d",
        volume="100",
        pin_pages=pins,
    )


def test_the_relevant_paragraph_comes_first_with_its_page(opinion: OpinionText) -> None:
    got = retrieve_passages(opinion, _claim("A landlord may evict a tenant without written notice."))
    assert got and "thirty days written notice" in got[0].text
    assert got[0].page == "36"
    assert opinion.text[got[0].start : got[0].end] == got[0].text


def test_a_passage_on_the_pin_cited_page_is_boosted(opinion: OpinionText) -> None:
    prop = "The tenant argues the landlord may not evict."
    plain = retrieve_passages(opinion, _claim(prop))
    pinned = retrieve_passages(opinion, _claim(prop, pins=("36",)))
    assert plain[0].page == "37"  # bm25 alone: the paragraph with "tenant ... argues"
    assert pinned[0].page == "36"  # the draft says the support is on p. 36, and a close match is there


def test_the_budget_limits_what_is_sent(opinion: OpinionText) -> None:
    got = retrieve_passages(opinion, _claim("landlord tenant notice rent statute question"), budget_tokens=40)
    assert sum(approx_tokens(p.text) for p in got) <= 40 or len(got) == 1
    everything = retrieve_passages(
        opinion, _claim("landlord tenant notice rent statute question"), budget_tokens=5000
    )
    assert len(everything) > len(got)


def test_a_huge_paragraph_is_cut_into_windows_and_to_the_budget() -> None:
    para = " ".join(f"Sentence number {i} says the landlord must give notice." for i in range(200))
    op = OpinionText(case_id="x", text=para)
    spans = split_passages(op)
    assert len(spans) > 5 and all(len(op.text[a:b].split()) <= 170 for a, b in spans)
    got = retrieve_passages(op, _claim("landlord notice"), budget_tokens=100)
    assert sum(approx_tokens(p.text) for p in got) <= 100


def test_no_shared_word_means_no_passages(opinion: OpinionText) -> None:
    assert retrieve_passages(opinion, _claim("Zebras quarrel")) == ()


def test_fts_syntax_in_the_proposition_is_harmless(opinion: OpinionText) -> None:
    got = retrieve_passages(opinion, _claim('landlord "NEAR(notice* OR) AND -tenant: ^rent'))
    assert got  # quoted terms: no FTS5 syntax error, still a result
