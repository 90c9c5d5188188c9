"""Pin cites against the case's pages and the page map of the real opinion (100 A.2d 36, pages 36–38)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from citecheck.checks.pin_cite import PinciteCheck
from citecheck.findings import Kind, Severity
from citecheck_testing import make_citation

ON_38 = "we may only set aside a judgment on a factual issue when it is plainly wrong"
OVER_BREAK = "it was highly improbable that anyone would see defendant through the overhanging trees"


def _run(make_ctx, cap_case, quote: str, pin: str, *, with_map: bool = True) -> list:
    record, opinion = cap_case("0036-01")
    if not with_map:
        opinion = replace(opinion, page_maps=())
    text = f'"{quote}." Peyton v. District of Columbia, 100 A.2d 36, {pin} (D.C. 1953).'
    c = make_citation(text, "100 A.2d 36", name="Peyton v. District of Columbia", pin=pin, quotes=(quote,))
    return list(PinciteCheck().run(make_ctx(text, [c], record=record, opinion=opinion))), text


@pytest.mark.parametrize(
    ("quote", "pin"),
    [
        (ON_38, "38"),
        (ON_38, "37–38"),  # a range that includes the page
        (OVER_BREAK, "37"),  # the passage runs over the 37/38 break: either page is right
        (OVER_BREAK, "38"),
    ],
)
def test_right_page_gives_nothing(make_ctx, cap_case, quote: str, pin: str) -> None:
    found, _ = _run(make_ctx, cap_case, quote, pin)
    assert found == []


def test_wrong_page_inside_the_case(make_ctx, cap_case) -> None:
    [f], text = _run(make_ctx, cap_case, ON_38, "37")
    assert (f.kind, f.severity) == (Kind.PINCITE_WRONG_PAGE, Severity.WARNING)
    assert f.span.of(text) == "37" and "page 38" in f.message
    assert f.fixes[0].edits[0].new_text == "38" and f.evidence.page == "38"
    assert "plainly wrong" in f.evidence.passage


def test_out_of_range(make_ctx, cap_case) -> None:
    [f], _ = _run(make_ctx, cap_case, ON_38, "45")
    assert (f.kind, f.severity) == (Kind.PINCITE_OUT_OF_RANGE, Severity.ERROR)
    assert "pages 36–38" in f.message and f.fixes[0].edits[0].new_text == "38"


def test_no_page_map_is_unverifiable_info(make_ctx, cap_case) -> None:
    [f], _ = _run(make_ctx, cap_case, ON_38, "37", with_map=False)
    assert (f.kind, f.severity) == (Kind.PINCITE_UNVERIFIABLE, Severity.INFO)
    # the range check still works from the record's first/last page
    [f], _ = _run(make_ctx, cap_case, ON_38, "45", with_map=False)
    assert f.kind is Kind.PINCITE_OUT_OF_RANGE


def test_star_page_is_unverifiable(make_ctx, cap_case) -> None:
    [f], _ = _run(make_ctx, cap_case, ON_38, "*3")
    assert f.kind is Kind.PINCITE_UNVERIFIABLE and "star page" in f.message


def test_id_short_form_is_checked_against_its_antecedent(make_ctx, cap_case) -> None:
    record, opinion = cap_case("0036-01")
    text = f'Peyton v. District of Columbia, 100 A.2d 36 (D.C. 1953). The court said "{ON_38}." Id. at 37.'
    full = make_citation(text, "100 A.2d 36", name="Peyton v. District of Columbia")
    short = make_citation(text, "Id. at 37", index=1, form="id", pin="37", quotes=(ON_38,), antecedent=0)
    [f] = PinciteCheck().run(make_ctx(text, [full, short], 1, record=record, opinion=opinion))
    assert f.kind is Kind.PINCITE_WRONG_PAGE and f.fixes[0].edits[0].new_text == "38"


def test_proposition_copied_from_the_opinion_locates_the_page(make_ctx, cap_case) -> None:
    from dataclasses import replace as _replace

    from citecheck.checks.quote_match import OpinionIndex
    from citecheck.checks.quotes import match_proposition

    record, opinion = cap_case("0036-01")
    prop = (
        "There was substantial evidence to support the finding, "
        "and we may only set aside a judgment on a factual issue."
    )
    text = f"{prop} Peyton v. District of Columbia, 100 A.2d 36, 37 (D.C. 1953)."
    c = make_citation(text, "100 A.2d 36", pin="37")
    c = _replace(c, proposition=prop)
    m = match_proposition(c, OpinionIndex(opinion.text))
    assert m is not None and m.quote_index == -1
    ctx = _replace(make_ctx(text, [c], record=record, opinion=opinion), proposition_match=m)
    [f] = PinciteCheck().run(ctx)
    assert (
        f.kind is Kind.PINCITE_WRONG_PAGE and "restates" in f.message and f.fixes[0].edits[0].new_text == "38"
    )
    # a paraphrase is not located
    para = _replace(
        c, proposition="Appellate courts rarely disturb findings of fact made by a trial judge below."
    )
    assert match_proposition(para, OpinionIndex(opinion.text)) is None


def test_repeated_passage_may_be_cited_at_any_of_its_pages(make_ctx) -> None:
    from citecheck.sources.models import CaseCite, CaseRecord, OpinionText, PageMap

    body = (
        "The statute provides that time is of the essence in every such contract. " * 3
        + "We turn to the remedy. Again, time is of the essence in every such contract."
    )
    second = body.rindex("Again")
    record = CaseRecord(
        id="t:1",
        source="test",
        name="Acme v. Brown",
        citations=(CaseCite(volume="10", reporter="A.3d", page="100", last_page="102"),),
    )
    opinion = OpinionText(
        case_id="t:1",
        text=body,
        page_maps=(PageMap(reporter="A.3d", volume="10", first_page="100", starts=((second - 5, "102"),)),),
    )
    quote = "time is of the essence in every such contract"
    for pin, wrong in (("100", False), ("102", False), ("101", True)):
        text = f'"{quote}." Acme v. Brown, 10 A.3d 100, {pin} (2015).'
        c = make_citation(text, "10 A.3d 100", pin=pin, quotes=(quote,))
        found = list(PinciteCheck().run(make_ctx(text, [c], record=record, opinion=opinion)))
        assert bool(found) is wrong, (pin, found)


# ---- the named steps of PinciteCheck.run -------------------------------------------------------------------
def test_the_case_runs_to_the_larger_of_its_last_page_and_its_last_page_label() -> None:
    from citecheck.checks.pin_cite import _case_pages
    from citecheck.sources.models import CaseCite, PageMap

    cite = CaseCite(volume="100", reporter="A.2d", page="36", last_page="37")
    labels = PageMap(reporter="A.2d", volume="100", first_page="36", starts=((10, "37"), (90, "38")))
    assert _case_pages(cite, None) == (36, 37)
    assert _case_pages(cite, labels) == (36, 38)  # a labelled page 38 proves the case runs that far
    assert _case_pages(CaseCite(volume="1", reporter="WL", page="*3"), None) == (None, None)


def test_why_a_pin_cite_cannot_be_checked(make_ctx, cap_case) -> None:
    from citecheck.checks.pin_cite import _SAID_ELSEWHERE, _why_unverifiable

    record, opinion = cap_case("0036-01")
    text = "Peyton v. District of Columbia, 100 A.2d 36, 37 (D.C. 1953)."
    c = make_citation(text, "100 A.2d 36", name="Peyton v. District of Columbia", pin="37")
    pin, cite = c.pincite, record.cite_for("A.2d")
    assert pin is not None and cite is not None
    pm = opinion.page_map("A.2d")
    assert _why_unverifiable(make_ctx(text, [c], record=record, opinion=opinion), pin, cite, pm) == ""
    assert "no page map" in _why_unverifiable(
        make_ctx(text, [c], record=record, opinion=opinion), pin, cite, None
    )
    assert (
        _why_unverifiable(make_ctx(text, [c], record=record), pin, cite, None)
        == "the opinion text is not available"
    )
    waiting = replace(make_ctx(text, [c], record=record), opinion_unavailable="waiting for the allowance")
    assert _why_unverifiable(waiting, pin, cite, None) == _SAID_ELSEWHERE
