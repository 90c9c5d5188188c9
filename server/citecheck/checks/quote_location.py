"""Where each citation's quotes (and unquoted proposition) sit in its case's opinion; pure.

Runs before the checks because a quote is shared: a string cite or an ``Id.`` after it carries the
same quotation, and which of those citations the quote is judged against depends on all of them
(``assign_quotes``). ``wants_search_elsewhere`` names the quotes worth looking for in other cases.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from citecheck.checks.base import QuoteMatch
from citecheck.checks.quote_match import OpinionIndex
from citecheck.checks.quotes import match_proposition, match_quotes
from citecheck.extract.models import Citation
from citecheck.sources.models import CaseRecord
from citecheck.spans import Span

_ELLIPSIS_SPLIT = re.compile(r"(?:\.\s*){3,}|…")
_BRACKETS = re.compile(r"\[[^\]]*\]")

Matches = dict[int, tuple[QuoteMatch | None, ...]]


def locate_passages(
    cites: Sequence[Citation],
    record_for: Callable[[Citation], CaseRecord | None],
    indexes: dict[str, OpinionIndex],
    *,
    propositions: bool = True,
) -> tuple[Matches, dict[int, QuoteMatch]]:
    """Each citation's quotes located in its case's opinion, and (for unquoted pins) its proposition
    (``propositions=False``: quotes only, all ``gather`` needs to choose what to search elsewhere)."""
    matches: Matches = {}
    for c in cites:
        if not c.quotes:
            continue
        rec = record_for(c)
        if rec is not None and rec.id in indexes:
            matches[c.index] = match_quotes(c, indexes[rec.id])
    matches = assign_quotes(cites, matches)
    located: dict[int, QuoteMatch] = {}
    for c in cites if propositions else ():
        if c.pincite is None or c.quotes:
            continue  # a quoted passage, found or not, is what the pin cite is judged by
        rec = record_for(c)
        if rec is None or rec.id not in indexes:
            continue
        pm = match_proposition(c, indexes[rec.id])
        if pm is not None:
            located[c.index] = pm
    return matches, located


def not_in_cited_case(m: QuoteMatch | None) -> bool:
    """Nothing close to the quote in the cited opinion (a near miss is a misquote of the cited case)."""
    return m is not None and not m.exact and not m.passage


def wants_search_elsewhere(cites: Sequence[Citation], matches: Matches) -> list[str]:
    """Quotes, as written, to look for in other cases of the source (each once, in document order)."""
    wanted: dict[str, None] = {}
    for ci, ms in sorted(matches.items()):
        for m in ms:
            if not_in_cited_case(m):
                assert m is not None
                wanted.setdefault(cites[ci].quotes[m.quote_index].text, None)
    return list(wanted)


def search_fragments(quote: str) -> list[str]:
    """What to search for when the whole quote is not found: its first and last eight words
    (of its longest stretch between ellipses), for quotes long enough that eight words identify it."""
    words = max(_ELLIPSIS_SPLIT.split(_BRACKETS.sub(" ", quote)), key=len).split()
    if len(words) < 12:
        return []
    return [" ".join(words[:8]), " ".join(words[-8:])]


def _owner(cites: Sequence[Citation], carriers: list[int], quote: Span) -> int:
    """The citation a quote belongs to: the one whose text contains it, else the next one after it."""
    covering = [i for i in carriers if cites[i].full_span.covers(quote)]
    if covering:
        return covering[0]
    after = [i for i in carriers if cites[i].span.start >= quote.end]
    if after:
        return min(after, key=lambda i: cites[i].span.start)
    return max(carriers, key=lambda i: cites[i].span.start)


def assign_quotes(cites: Sequence[Citation], matches: Matches) -> Matches:
    """One quote may be attached to several citations (a string cite, an Id. after it).

    A quote found in any of their opinions is checked only there; a quote found in none of them is
    reported only against the citation it belongs to (and not at all when that citation could not be
    checked): a quote from an unverifiable case must not become a misquote of its neighbour.
    """
    carriers: dict[Span, list[int]] = {}
    for c in cites:
        for q in c.quotes:
            carriers.setdefault(q.span, []).append(c.index)
    out = dict(matches)
    for span, owners in carriers.items():
        if len(owners) < 2:
            continue
        found_in = [
            ci
            for ci in owners
            for m in matches.get(ci, ())
            if m is not None and m.exact and cites[ci].quotes[m.quote_index].span == span
        ]
        keep = set(found_in) if found_in else {_owner(cites, owners, span)}
        for ci in owners:
            if ci in keep or ci not in out:
                continue
            out[ci] = tuple(
                None if m is not None and cites[ci].quotes[m.quote_index].span == span else m for m in out[ci]
            )
    return out


__all__ = [
    "Matches",
    "assign_quotes",
    "locate_passages",
    "not_in_cited_case",
    "search_fragments",
    "wants_search_elsewhere",
]
