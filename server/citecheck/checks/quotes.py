"""Is every quoted passage really in the cited opinion? misquote findings with the closest real text; pure."""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import lru_cache

from citecheck.checks.base import CheckContext, QuoteMatch, record_evidence
from citecheck.checks.quote_match import (
    MIN_QUOTE_WORDS,
    OpinionIndex,
    QuoteTooComplex,
    closest_passage,
    exact_quote,
    locate,
    locate_all,
    negation_blocked,
    quote_word_count,
)
from citecheck.extract.models import Citation
from citecheck.findings import Finding, Fix, Kind, Severity, TextEdit, make_finding
from citecheck.sources.models import OpinionText
from citecheck.spans import Span

SHORT_QUOTE_WORDS = 6
_CLEANED = re.compile(r"cleaned\s+up|citations?\s+omitted|internal\s+quotation", re.I)


def is_cleaned_up(citation: Citation) -> bool:
    """ "(cleaned up)" / "(citations omitted)": the quote may drop internal citations and marks."""
    return any(_CLEANED.search(p.text) for p in citation.parentheticals)


def match_quotes(citation: Citation, index: OpinionIndex) -> tuple[QuoteMatch | None, ...]:
    """Locate each quote of ``citation`` in the opinion (None for quotes too short to check)."""
    return _match_quote_texts(tuple(q.text for q in citation.quotes), is_cleaned_up(citation), index)


@lru_cache(maxsize=1024)
def _match_quote_texts(
    quotes: tuple[str, ...], cleaned: bool, index: OpinionIndex
) -> tuple[QuoteMatch | None, ...]:
    """What ``match_quotes`` computes, remembered: ``gather`` locates quotes to know which to look
    for elsewhere, then ``judge`` locates them again, and the language server judges each version."""
    out: list[QuoteMatch | None] = []
    for qi, text in enumerate(quotes):
        if quote_word_count(text) < MIN_QUOTE_WORDS:
            out.append(None)
            continue
        try:
            found = locate_all(text, index, cleaned_up=cleaned)
        except QuoteTooComplex:
            out.append(None)  # undecided is not a misquote
            continue
        if found:
            loc = found[0]
            out.append(
                QuoteMatch(
                    quote_index=qi,
                    exact=True,
                    start=loc.start,
                    end=loc.end,
                    passage=index.text[loc.start : loc.end],
                    others=tuple((x.start, x.end) for x in found[1:]),
                )
            )
            continue
        negation = negation_blocked(text, index, cleaned_up=cleaned)
        close = closest_passage(text, index)
        if close is None:
            out.append(
                QuoteMatch(
                    quote_index=qi,
                    exact=False,
                    start=0,
                    end=0,
                    passage="",
                    swallowed_negation=negation,
                    score=0.0,
                )
            )
            continue
        out.append(
            QuoteMatch(
                quote_index=qi,
                exact=False,
                start=close.start,
                end=close.end,
                passage=index.text[close.start : close.end],
                diff=close.diff,
                swallowed_negation=negation,
                score=close.score,
            )
        )
    return tuple(out)


MIN_PROPOSITION_WORDS = 8
PROPOSITION_SCORE = 0.85
#: Longer "propositions" are not compared (a long sentence is ~60 words, ~400 characters).
MAX_PROPOSITION_CHARS = 2000


def match_proposition(citation: Citation, index: OpinionIndex) -> QuoteMatch | None:
    """Where the citation's proposition is in the opinion, when it copies the opinion nearly verbatim.

    Paraphrases are not located (that is the model-based check's job): only an exact match, or a
    passage sharing at least 85 % of the proposition's words in order, counts.
    """
    prop = citation.proposition
    # A "proposition" longer than any sentence (a run of hundreds of adjacent cites) is not one the
    # draft copies; comparing each such run with the opinion costs seconds per citation.
    if not prop or len(prop) > MAX_PROPOSITION_CHARS or quote_word_count(prop) < MIN_PROPOSITION_WORDS:
        return None
    loc = locate(prop, index)
    if loc is not None:
        return QuoteMatch(
            quote_index=-1, exact=True, start=loc.start, end=loc.end, passage=index.text[loc.start : loc.end]
        )
    close = closest_passage(prop, index, min_score=PROPOSITION_SCORE)
    if close is None:
        return None
    return QuoteMatch(
        quote_index=-1,
        exact=True,
        start=close.start,
        end=close.end,
        passage=index.text[close.start : close.end],
        score=close.score,
    )


def page_of(
    opinion: OpinionText | None, reporter: str | None, volume: str | None, start: int, end: int
) -> str | None:
    """``"1006"`` or ``"1006–07"`` for the passage, from the reporter's page map (None without one)."""
    if opinion is None or reporter is None:
        return None
    pm = opinion.page_map(reporter, volume) or opinion.page_map(reporter)
    if pm is None:
        return None
    return format_pages(pm.pages_between(start, max(start, end - 1)))


def format_pages(pages: tuple[str, ...]) -> str:
    """``("1006", "1007")`` → ``"1006–07"`` (Bluebook drops repeated digits).

    >>> format_pages(("1006",)), format_pages(("1006", "1007")), format_pages(("99", "100"))
    ('1006', '1006–07', '99–100')
    """
    if len(pages) == 1:
        return pages[0]
    a, b = pages[0], pages[-1]
    if a.isdigit() and b.isdigit() and len(a) == len(b) and len(a) > 2:
        common = 0
        while common < len(a) - 2 and a[common] == b[common]:
            common += 1
        b = b[common:]
    return f"{a}–{b}"


class QuoteCheck:
    id = "quotes"
    local = False

    def run(self, ctx: CheckContext) -> Iterator[Finding]:
        c = ctx.citation
        if ctx.record is None or ctx.opinion is None:
            return
        for m in ctx.quote_matches:
            if m is None or m.exact:
                continue
            quote = c.quotes[m.quote_index]
            yield self._misquote(ctx, quote.text, quote.span, m)

    def _misquote(self, ctx: CheckContext, draft: str, span: Span, m: QuoteMatch) -> Finding:
        rec = ctx.record
        assert rec is not None
        short = draft if len(draft) <= 80 else draft[:77] + "…"
        hits = ctx.elsewhere.get(m.quote_index, ())
        other = next((h for h in hits if h.case.id != rec.id), None)
        if other is not None:
            where = f" at page {other.page}" if other.page else ""
            cite = other.case.citations[0] if other.case.citations else None
            return make_finding(
                Kind.MISQUOTE,
                span,
                f"This quotation is not in {rec.name}; it is from {other.case.name}"
                f"{', ' + str(cite) if cite else ''}{where}.",
                evidence=record_evidence(
                    ctx, page=other.page, passage=other.passage, draft=draft, note=f"found in {other.case.id}"
                ),
                citation_index=ctx.citation.index,
            )
        if m.swallowed_negation:
            return make_finding(
                Kind.MISQUOTE,
                span,
                f"The ellipsis in “{short}” leaves out “{m.swallowed_negation}”, which reverses the meaning "
                f"of the passage in {rec.name}.",
                evidence=record_evidence(
                    ctx,
                    passage=m.passage or None,
                    draft=draft,
                    page=page_of(ctx.opinion, ctx.reporter, ctx.volume, m.start, m.end),
                    diff=m.diff,
                ),
                citation_index=ctx.citation.index,
            )
        if not m.passage:
            return make_finding(
                Kind.MISQUOTE,
                span,
                f"The quotation “{short}” does not appear in {rec.name}, and nothing in the opinion comes close.",
                evidence=record_evidence(ctx, draft=draft),
                citation_index=ctx.citation.index,
                severity=Severity.WARNING,
            )
        page = page_of(ctx.opinion, ctx.reporter, ctx.volume, m.start, m.end)
        where = f" ({'pages' if page and '–' in page else 'page'} {page})" if page else ""
        fixes: tuple[Fix, ...] = ()
        if m.score >= 0.7 and "..." not in draft and "…" not in draft and ". . ." not in draft:
            fixes = (
                Fix(
                    title="Quote the opinion exactly",
                    edits=(TextEdit(span=span, new_text=exact_quote(draft, m.passage)),),
                ),
            )
        return make_finding(
            Kind.MISQUOTE,
            span,
            f"Misquotation of {rec.name}{where}: {m.diff}.",
            evidence=record_evidence(ctx, page=page, passage=m.passage, draft=draft, diff=m.diff),
            fixes=fixes,
            citation_index=ctx.citation.index,
            # a short phrase in quotation marks is often a term, not a quotation: say "probably"
            severity=Severity.WARNING if quote_word_count(draft) < SHORT_QUOTE_WORDS else None,
        )
