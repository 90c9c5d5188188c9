"""The hover text for a citation."""

from __future__ import annotations

from citecheck.findings import Kind, make_finding
from citecheck.lsp.features.hover import render_hover
from citecheck.results import CitationResult, Status
from citecheck.sources.models import CaseCite, CaseRecord
from citecheck.spans import Span

RECORD = CaseRecord(
    id="cap:8118004",
    source="cap",
    name="Peyton v. District of Columbia",
    court_name="D.C. Mun. App.",
    decision_date="1953-11-06",
    citations=(CaseCite(volume="100", reporter="A.2d", page="36"),),
    url="https://static.case.law/a2d/100/cases/0036-01.json",
)


def test_hover_names_case_court_date_link_page_and_passage() -> None:
    result = CitationResult(
        citation_index=0,
        status=Status.PROBLEM,
        basis=Status.VERIFIED,
        record=RECORD,
        page_used="37",
        passage="The right door",
    )
    finding = make_finding(Kind.MISQUOTE, Span(0, 5), "the opinion says “car”")
    text = render_hover("100 A.2d 36", result, [finding], None)
    for part in (
        "Peyton v. District of Columbia",
        "100 A.2d 36",
        "D.C. Mun. App.",
        "1953-11-06",
        "[open](https://static.case.law",
        "Page used: 37",
        "> The right door",
        "**Quotation not found in the opinion** (error, `misquote`)",
    ):
        assert part in text, part


def test_hover_without_result_says_not_checked_yet_and_short_form() -> None:
    text = render_hover("Id. at 5", None, [], "100 A.2d 36")
    assert "not checked against a source yet" in text and "Short form of `100 A.2d 36`" in text


def test_hover_shows_weight_in_the_forum() -> None:
    from citecheck.jurisdiction import Forum, Question, court_node, weigh

    nysd = court_node("nysd")
    assert nysd is not None
    forum = Forum(court=nysd, question=Question.FEDERAL, origin="caption")
    result = CitationResult(
        citation_index=0, status=Status.VERIFIED, basis=Status.VERIFIED, weight=weigh("ca9", forum)
    )
    text = render_hover("500 F.3d 1", result, [], None)
    assert (
        "**Persuasive** only here (Court of Appeals for the Ninth Circuit)" in text
        and "S.D. New York" in text
    )
    result = CitationResult(
        citation_index=0, status=Status.VERIFIED, basis=Status.VERIFIED, weight=weigh("ca2", forum)
    )
    assert "**Binding** here" in render_hover("500 F.3d 1", result, [], None)
