"""The misquote check: the closest real passage, a word diff, the page, and other cases the quote is from."""

from __future__ import annotations

from citecheck.checks.quotes import QuoteCheck, format_pages
from citecheck.findings import Kind, Severity
from citecheck.sources.models import PassageHit
from citecheck_testing import make_citation

GOOD = "we may only set aside a judgment on a factual issue when it is plainly wrong or without evidence to support it"
ALTERED = GOOD.replace("plainly", "clearly")


def _doc(quote: str, pin: str = "38") -> str:
    return f'The court held that "{quote}." Peyton v. District of Columbia, 100 A.2d 36, {pin} (D.C. 1953).'


def test_exact_quote_gives_nothing(make_ctx, cap_case) -> None:
    record, opinion = cap_case("0036-01")
    text = _doc(GOOD)
    c = make_citation(text, "100 A.2d 36", name="Peyton v. District of Columbia", pin="38", quotes=(GOOD,))
    ctx = make_ctx(text, [c], record=record, opinion=opinion)
    assert ctx.quote_matches[0].exact
    assert list(QuoteCheck().run(ctx)) == []


def test_synonym_is_misquote_with_diff_page_and_fix(make_ctx, cap_case) -> None:
    record, opinion = cap_case("0036-01")
    text = _doc(ALTERED)
    c = make_citation(text, "100 A.2d 36", name="Peyton v. District of Columbia", pin="38", quotes=(ALTERED,))
    [f] = QuoteCheck().run(make_ctx(text, [c], record=record, opinion=opinion))
    assert (f.kind, f.severity) == (Kind.MISQUOTE, Severity.ERROR)
    assert "the opinion says “plainly”, the draft says “clearly”" in f.message
    assert f.span.of(text) == ALTERED
    assert f.evidence.page == "38" and "plainly wrong" in f.evidence.passage
    assert f.evidence.record_id == record.id and f.evidence.draft == ALTERED
    assert f.fixes[0].edits[0].new_text.startswith("we may only set aside")


def test_quote_from_another_case_says_which(make_ctx, cap_case) -> None:
    record, opinion = cap_case("0036-01")
    other, _ = cap_case("0038-01")
    quote = "the automatic stay bars every act to obtain possession of estate property"
    text = _doc(quote)
    c = make_citation(text, "100 A.2d 36", name="Peyton v. District of Columbia", pin="38", quotes=(quote,))
    hit = PassageHit(case=other, offset=10, passage=quote, page="39", reporter="A.2d")
    [f] = QuoteCheck().run(make_ctx(text, [c], record=record, opinion=opinion, elsewhere={0: (hit,)}))
    assert f.kind is Kind.MISQUOTE and "Branson v. Harris" in f.message and "page 39" in f.message


def test_quote_nowhere_close_is_a_warning(make_ctx, cap_case) -> None:
    record, opinion = cap_case("0036-01")
    quote = "the automatic stay bars every act to obtain possession of estate property"
    text = _doc(quote)
    c = make_citation(text, "100 A.2d 36", pin="38", quotes=(quote,))
    [f] = QuoteCheck().run(make_ctx(text, [c], record=record, opinion=opinion))
    assert (f.kind, f.severity) == (Kind.MISQUOTE, Severity.WARNING)


def test_ellipsis_swallowing_not_is_reported(make_ctx, cap_case) -> None:
    record, opinion = cap_case("0036-01")
    quote = (
        "The contention that the trial judge improperly considered defendant's prior conviction "
        "is . . . supported by the record"
    )
    text = _doc(quote)
    c = make_citation(text, "100 A.2d 36", pin="38", quotes=(quote,))
    [f] = QuoteCheck().run(make_ctx(text, [c], record=record, opinion=opinion))
    assert f.kind is Kind.MISQUOTE and "“not”" in f.message


def test_short_quotes_are_not_checked(make_ctx, cap_case) -> None:
    record, opinion = cap_case("0036-01")
    text = _doc("manifestly unjust")
    c = make_citation(text, "100 A.2d 36", pin="38", quotes=("manifestly unjust",))
    assert list(QuoteCheck().run(make_ctx(text, [c], record=record, opinion=opinion))) == []


def test_format_pages() -> None:
    assert format_pages(("1006", "1007")) == "1006–07"
    assert format_pages(("37", "38")) == "37–38"


def test_short_altered_phrase_is_only_a_warning(make_ctx, cap_case) -> None:
    record, opinion = cap_case("0036-01")
    phrase = "clearly wrong or without evidence"
    text = _doc(phrase)
    c = make_citation(text, "100 A.2d 36", pin="38", quotes=(phrase,))
    [f] = QuoteCheck().run(make_ctx(text, [c], record=record, opinion=opinion))
    assert (f.kind, f.severity) == (Kind.MISQUOTE, Severity.WARNING) and "“plainly”" in f.message
