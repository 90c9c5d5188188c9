"""Check the judge before believing it: its supporting quote must be in the opinion; pure.

A small model was seen inventing its "supporting quote". A judgment whose quote cannot be found in the
opinion (with the quote checker's normalisation: case, curly quotes, line breaks, ``[a]lterations`` and
ellipses that never swallow a negation) is discarded; it never becomes evidence.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from citecheck.checks.quote_match import QuoteTooComplex, locate_all, opinion_index, quote_word_count
from citecheck.checks.quotes import page_of
from citecheck.holdings.models import Claim, Judgment, Passage, Support
from citecheck.sources.models import OpinionText

MIN_QUOTE_WORDS = 5  # a shorter "quote" ("the statute") is found anywhere and proves nothing


@dataclass(frozen=True, slots=True, kw_only=True)
class QuoteCheck:
    """Where the judge's quote is in the opinion (``found``), or why the judgment cannot be trusted."""

    found: bool
    start: int | None = None
    end: int | None = None
    page: str | None = None
    reason: str = ""


def verify_judgment(
    judgment: Judgment, opinion: OpinionText, claim: Claim, passages: Sequence[Passage]
) -> QuoteCheck:
    """Is ``judgment`` anchored in the opinion?

    Every verdict needs a quote that is in the opinion, except ``not-supported``, which may come with
    none (there may be no sentence that decides the point); a quote it does give must still be found.
    An occurrence inside the passages shown is preferred, so the page is the one the judge read.
    """
    quote = judgment.supporting_quote
    if not quote:
        if judgment.support is Support.NOT_SUPPORTED:
            return QuoteCheck(found=True)
        return QuoteCheck(
            found=False, reason=f"the model answered '{judgment.support}' without quoting the opinion"
        )
    if quote_word_count(quote) < MIN_QUOTE_WORDS:
        return QuoteCheck(found=False, reason="the model's supporting quote is too short to check")
    try:
        places = locate_all(quote, opinion_index(opinion.text))
    except QuoteTooComplex:
        places = []
    if not places:
        return QuoteCheck(found=False, reason="the model's supporting quote is not in the opinion")
    shown = [p for p in places if any(s.start <= p.start and p.end <= s.end for s in passages)]
    best = (shown or places)[0]
    return QuoteCheck(
        found=True,
        start=best.start,
        end=best.end,
        page=page_of(opinion, claim.reporter, claim.volume, best.start, best.end),
    )
