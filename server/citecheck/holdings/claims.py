"""Which citations make a claim the holding judge can test, and what exactly each claims; pure.

A citation (full or short form) makes a claim when it has a proposition and stands for a case we hold
a record of. Explanatory parentheticals ("(holding that ...)") are part of what the draft says the case
stands for. One proposition cited to one case is asked about once: an ``Id.`` that repeats the sentence
of its full citation adds no new claim.
"""

from __future__ import annotations

from collections.abc import Callable

from citecheck.extract.models import Citation, Extraction
from citecheck.holdings.models import Claim
from citecheck.sources.models import CaseRecord

MIN_PROPOSITION_WORDS = 4
MAX_PROPOSITION_CHARS = 1500


def _reporter_volume(extraction: Extraction, c: Citation) -> tuple[str | None, str | None]:
    full = extraction.resolved(c)
    reporter = c.reporter or (full.reporter if full else None)
    volume = c.volume or (full.volume if full else None)
    return reporter, volume


def claim_text(c: Citation) -> str | None:
    """The proposition plus explanatory parentheticals, or None when there is nothing to test.

    >>> from citecheck.extract import extract_citations
    >>> t = "Tenants may be evicted for any reason. Smith v. Jones, 100 A.2d 36 (1953) (holding so)."
    >>> claim_text(extract_citations(t).citations[0])
    'Tenants may be evicted for any reason. (holding so)'
    >>> claim_text(extract_citations("Smith v. Jones, 100 A.2d 36 (1953).").citations[0]) is None
    True
    """
    parts = []
    if c.proposition and len(c.proposition.split()) >= MIN_PROPOSITION_WORDS:
        parts.append(c.proposition.strip())
    for p in c.parentheticals:
        if len(p.text.split()) >= 2:
            parts.append(f"({p.text.strip()})")
    if not parts or not c.proposition:
        return None
    return " ".join(parts)[:MAX_PROPOSITION_CHARS]


def claims_for(extraction: Extraction, record_for: Callable[[Citation], CaseRecord | None]) -> list[Claim]:
    """One claim per (case, proposition) pair, in document order; the first citation carrying it owns it."""
    out: list[Claim] = []
    seen: set[tuple[str, str]] = set()
    for c in extraction.citations:
        rec = record_for(c)
        text = claim_text(c)
        if rec is None or text is None:
            continue
        if (rec.id, text) in seen:
            continue
        seen.add((rec.id, text))
        reporter, volume = _reporter_volume(extraction, c)
        pins = tuple(p for part in c.pincite.parts for p in part.pages()) if c.pincite else ()
        cite = rec.cite_for(reporter, volume) if reporter else None
        cite = cite or (rec.citations[0] if rec.citations else None)
        out.append(
            Claim(
                citation_index=c.index,
                span=c.span,
                proposition=text,
                case_id=rec.id,
                case_name=rec.name,
                cite=str(cite) if cite else (c.cite_string or c.text),
                reporter=reporter,
                volume=volume,
                pin_pages=pins,
            )
        )
    return out
