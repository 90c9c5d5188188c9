"""Runs extraction → one batched lookup → opinion fetches → checks, and returns a Report.

The only core module that awaits, and the only thing it awaits is the source it was given. A source
failure never escapes: the affected citations become ``cannot-verify`` with the reason.
"""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from citecheck.checks import LOCAL_CHECKS, SOURCE_CHECKS, Check, CheckContext, QuoteMatch
from citecheck.checks.case_name import best_record
from citecheck.checks.existence import impossible_reason
from citecheck.checks.quote_match import OpinionIndex, opinion_index
from citecheck.checks.quotes import match_proposition, match_quotes, page_of
from citecheck.config import Settings
from citecheck.errors import CitecheckError, Deferred
from citecheck.extract.models import Citation, CiteForm, Extraction
from citecheck.findings import Finding, Kind, Severity, make_finding
from citecheck.sources.base import AuthoritySource
from citecheck.sources.models import CaseRecord, CiteKey, LookupResult, LookupStatus, OpinionText, PassageHit
from citecheck.spans import Span

log = logging.getLogger(__name__)
_ELLIPSIS_SPLIT = re.compile(r"(?:\.\s*){3,}|…")
_BRACKETS = re.compile(r"\[[^\]]*\]")

VERIFIED = "verified"
PROBLEM = "problem"
CANNOT_VERIFY = "cannot-verify"
NOT_CHECKED = "not-checked"


@dataclass(frozen=True, slots=True, kw_only=True)
class CitationResult:
    citation_index: int
    status: str  # "verified" | "problem" | "cannot-verify" | "not-checked"
    record: CaseRecord | None = None  # the matched case (for short forms: the case their antecedent matched)
    lookup: LookupResult | None = None
    page_used: str | None = None  # page where the quoted passage / proposition was located
    passage: str | None = None  # opinion text compared
    pending_until: float | None = None  # part of its checking waits for the service's allowance (epoch s)


@dataclass(frozen=True, slots=True, kw_only=True)
class Report:
    text: str
    extraction: Extraction
    findings: tuple[Finding, ...]  # sorted by span, severity overrides and enabled_checks applied
    results: tuple[CitationResult, ...]  # one per citation, same order as extraction.citations


def apply_settings(findings: Iterable[Finding], settings: Settings) -> list[Finding]:
    """Drop disabled kinds, apply severity overrides (info-only kinds stay info), sort by position."""
    out = []
    for f in findings:
        if not settings.kind_enabled(f.kind):
            continue
        sev = settings.severity_for(f.kind, f.severity)
        out.append(f.with_severity(sev) if sev is not f.severity else f)
    out.sort(key=lambda f: (f.span.start, f.span.end, -f.severity.rank, f.kind.value))
    return out


def _run(checks: Sequence[Check], ctx: CheckContext) -> list[Finding]:
    out: list[Finding] = []
    for check in checks:
        try:
            out.extend(check.run(ctx))
        except Exception:  # one broken check must not hide the others' findings
            log.exception("check %s failed on %r", check.id, ctx.citation)
    return out


def _full_of(extraction: Extraction, c: Citation) -> Citation | None:
    full = extraction.resolved(c)
    return full if full is not None and full.form is CiteForm.FULL else None


def local_findings(extraction: Extraction, settings: Settings) -> list[Finding]:
    """No lookups: impossible citations (unknown reporter / series not yet existing in the cited year / ...),
    malformed pincites, unresolved short forms. Must be fast (keystroke path; no I/O)."""
    found: list[Finding] = []
    for c in extraction.citations:
        found.extend(_run(LOCAL_CHECKS, CheckContext(extraction=extraction, citation=c, full=_full_of(extraction, c))))
    return apply_settings(found, settings)


def _key(c: Citation) -> CiteKey | None:
    if c.form is not CiteForm.FULL or c.database is not None or c.key is None or impossible_reason(c):
        return None
    return CiteKey(*c.key)


async def _lookup(source: AuthoritySource, keys: list[CiteKey]) -> dict[CiteKey, LookupResult]:
    if not keys:
        return {}
    try:
        answers = await source.lookup(keys)
    except Exception as exc:  # SourceError by contract; anything else is a source bug, same outcome
        if not _is_source_error(exc):
            log.exception("source %s raised an unexpected error", getattr(source, "name", "?"))
        reason = f"{getattr(source, 'name', 'the source')} failed: {exc}"
        return {k: LookupResult(key=k, status=LookupStatus.CANNOT_VERIFY, reason=reason) for k in keys}
    out = {}
    for k in keys:
        out[k] = answers.get(k) or LookupResult(
            key=k, status=LookupStatus.CANNOT_VERIFY, reason=f"{getattr(source, 'name', 'the source')} gave no answer"
        )
    return out


def _is_source_error(exc: BaseException) -> bool:
    return isinstance(exc, CitecheckError)


async def _opinion(source: AuthoritySource, record: CaseRecord) -> tuple[OpinionText | None, str, float | None]:
    """The text, or why it could not be fetched and (when it is only waiting for the allowance) until when."""
    try:
        return await source.opinion(record), "", None
    except Deferred as exc:
        return None, str(exc), exc.until
    except Exception as exc:
        if not _is_source_error(exc):
            log.exception("opinion fetch for %s failed", record.id)
        else:
            log.warning("opinion text for %s unavailable: %s", record.id, exc)
        return None, f"fetching it failed: {exc}", None


async def _find_elsewhere(source: AuthoritySource, quote: str) -> tuple[PassageHit, ...]:
    """Cases of the source containing the quote, or failing that its first or last eight words."""
    try:
        hits = await source.find_passage(quote, limit=3)
        if hits:
            return tuple(hits)
        words = max(_ELLIPSIS_SPLIT.split(_BRACKETS.sub(" ", quote)), key=len).split()
        if len(words) >= 12:
            for fragment in (" ".join(words[:8]), " ".join(words[-8:])):
                hits = await source.find_passage(fragment, limit=3)
                if hits:
                    return tuple(hits)
        return ()
    except Exception as exc:
        if not _is_source_error(exc):
            log.exception("find_passage failed")
        return ()


def _too_large(text: str, settings: Settings) -> Report:
    f = make_finding(
        Kind.DOCUMENT_TOO_LARGE,
        Span(0, 0),
        f"The document has {len(text):,} characters, more than the limit of {settings.max_document_chars:,}; "
        "it was not checked. Raise max_document_chars to check it.",
    )
    return Report(text=text, extraction=Extraction(text=text, citations=()), findings=tuple(apply_settings([f], settings)), results=())


async def check_document(
    text: str,
    source: AuthoritySource | None,
    settings: Settings,
    *,
    extraction: Extraction | None = None,
) -> Report:
    """Full check. source None → everything source-backed is cannot-verify. Sends only CiteKeys to the source
    (one batched lookup call), fetches opinions only for the cases it needs, never raises for a source
    failure (SourceError → cannot-verify for the affected citations, with the reason in the message)."""
    if len(text) > settings.max_document_chars:
        return _too_large(text, settings)
    if extraction is None:
        from citecheck.extract import extract_citations  # extraction is pure but heavy to import

        extraction = extract_citations(text)
    cites = extraction.citations
    keys = {i: k for i, c in enumerate(cites) if (k := _key(c)) is not None}
    # file order is the order of value: what the writer reads first is asked first when the allowance is short
    lookups = await _lookup(source, list(dict.fromkeys(keys.values()))) if source is not None else {}
    chosen = _choose_records(cites, keys, lookups)

    def record_for(c: Citation) -> CaseRecord | None:
        full = _full_of(extraction, c)
        return chosen.get(full.index) if full is not None else None

    opinions, unavailable = await _fetch_opinions(source, cites, record_for) if source is not None else ({}, {})
    indexes = {rid: opinion_index(t.text) for rid, t in opinions.items()}
    matches, propositions = _locate_passages(cites, record_for, indexes)
    elsewhere = await _search_elsewhere(source, cites, matches) if source is not None else {}

    source_name = getattr(source, "name", "source") if source is not None else None
    found: list[Finding] = []
    contexts: list[CheckContext] = []
    for c in cites:
        full = _full_of(extraction, c)
        rec = record_for(c)
        ctx = CheckContext(
            extraction=extraction,
            citation=c,
            full=full,
            lookup=lookups.get(keys[full.index]) if full is not None and full.index in keys else None,
            record=rec,
            opinion=opinions.get(rec.id) if rec is not None else None,
            quote_matches=matches.get(c.index, ()),
            elsewhere=elsewhere.get(c.index, {}),
            proposition_match=propositions.get(c.index),
            source_name=source_name,
            opinion_unavailable=unavailable[rec.id][0] if rec is not None and rec.id in unavailable else None,
        )
        contexts.append(ctx)
        found.extend(_run(LOCAL_CHECKS, ctx))
        found.extend(_run(SOURCE_CHECKS, ctx))
    findings = apply_settings(_dedupe(found), settings)
    results = tuple(
        _result(ctx, [f for f in findings if f.citation_index == ctx.citation.index], unavailable) for ctx in contexts
    )
    return Report(text=text, extraction=extraction, findings=tuple(findings), results=results)


def _choose_records(
    cites: Sequence[Citation], keys: dict[int, CiteKey], lookups: dict[CiteKey, LookupResult]
) -> dict[int, CaseRecord]:
    """The case each full citation stands for (of several at one cite, the one the draft names)."""
    records: dict[int, CaseRecord] = {}
    for i, k in keys.items():
        res = lookups.get(k)
        if res is None or res.status not in (LookupStatus.FOUND, LookupStatus.AMBIGUOUS):
            continue
        name = cites[i].case_name.text if cites[i].case_name else None
        rec = res.record if res.status is LookupStatus.FOUND else best_record(name, res.records)
        if rec is None and res.status is LookupStatus.FOUND and res.records:
            rec = res.records[0]
        if rec is not None:
            records[i] = rec
    return records


async def _fetch_opinions(
    source: AuthoritySource, cites: Sequence[Citation], record_for: Callable[[Citation], CaseRecord | None]
) -> tuple[dict[str, OpinionText], dict[str, tuple[str, float | None]]]:
    """Opinion texts, only for cases whose text a check needs (quotes or pin cites), in file order.

    One at a time: the source paces its requests, and once one fetch has to wait past the deadline
    the rest wait too (without asking). The second dict says, per case, why its text is missing.
    """
    needed: dict[str, CaseRecord] = {}
    for c in cites:
        rec = record_for(c)
        if rec is not None and (c.quotes or c.pincite):
            needed.setdefault(rec.id, rec)
    texts: dict[str, OpinionText] = {}
    missing: dict[str, tuple[str, float | None]] = {}
    waiting: tuple[str, float] | None = None
    for rid, rec in needed.items():
        if waiting is not None:
            missing[rid] = waiting
            continue
        text, why, until = await _opinion(source, rec)
        if text is not None:
            texts[rid] = text
        elif why:
            missing[rid] = (why, until)
            if until is not None:
                waiting = (why, until)
    return texts, missing


def _locate_passages(
    cites: Sequence[Citation],
    record_for: Callable[[Citation], CaseRecord | None],
    indexes: dict[str, OpinionIndex],
) -> tuple[dict[int, tuple[QuoteMatch | None, ...]], dict[int, QuoteMatch]]:
    """Each citation's quotes located in its case's opinion, and (for unquoted pins) its proposition."""
    matches: dict[int, tuple[QuoteMatch | None, ...]] = {}
    for c in cites:
        rec = record_for(c)
        if rec is not None and rec.id in indexes and c.quotes:
            matches[c.index] = match_quotes(c, indexes[rec.id])
    matches = _assign_quotes(cites, matches)
    propositions: dict[int, QuoteMatch] = {}
    for c in cites:
        rec = record_for(c)
        if rec is None or rec.id not in indexes or c.pincite is None or c.quotes:
            continue  # a quoted passage, found or not, is what the pin cite is judged by
        pm = match_proposition(c, indexes[rec.id])
        if pm is not None:
            propositions[c.index] = pm
    return matches, propositions


async def _search_elsewhere(
    source: AuthoritySource, cites: Sequence[Citation], matches: dict[int, tuple[QuoteMatch | None, ...]]
) -> dict[int, dict[int, tuple[PassageHit, ...]]]:
    """Other cases of the source containing quotes that have nothing close in the cited opinion."""
    wanted = [
        (ci, m.quote_index)
        for ci, ms in matches.items()
        for m in ms
        if m is not None and not m.exact and not m.passage  # a near miss is a misquote of the cited case
    ]
    hits = await asyncio.gather(*(_find_elsewhere(source, cites[ci].quotes[qi].text) for ci, qi in wanted))
    elsewhere: dict[int, dict[int, tuple[PassageHit, ...]]] = {}
    for (ci, qi), h in zip(wanted, hits, strict=True):
        if h:
            elsewhere.setdefault(ci, {})[qi] = h
    return elsewhere


def _dedupe(findings: list[Finding]) -> list[Finding]:
    """One finding per kind and span (parallel cites of one case share a parenthetical and quotes)."""
    seen: set[tuple[Kind, Span]] = set()
    out = []
    for f in findings:
        if (f.kind, f.span) not in seen:
            seen.add((f.kind, f.span))
            out.append(f)
    return out


def _owner(cites: Sequence[Citation], carriers: list[int], quote: Span) -> int:
    """The citation a quote belongs to: the one whose text contains it, else the next one after it."""
    covering = [i for i in carriers if cites[i].full_span.covers(quote)]
    if covering:
        return covering[0]
    after = [i for i in carriers if cites[i].span.start >= quote.end]
    if after:
        return min(after, key=lambda i: cites[i].span.start)
    return max(carriers, key=lambda i: cites[i].span.start)


def _assign_quotes(
    cites: Sequence[Citation], matches: dict[int, tuple[QuoteMatch | None, ...]]
) -> dict[int, tuple[QuoteMatch | None, ...]]:
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
            ci for ci in owners
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


def _result(
    ctx: CheckContext, findings: list[Finding], unavailable: dict[str, tuple[str, float | None]] | None = None
) -> CitationResult:
    page = passage = None
    for m in (*ctx.quote_matches, ctx.proposition_match):
        if m is not None and m.passage:
            passage = m.passage
            page = page_of(ctx.opinion, ctx.reporter, ctx.volume, m.start, m.end)
            break
    if any(f.severity in (Severity.ERROR, Severity.WARNING) for f in findings):
        status = PROBLEM
    elif ctx.record is not None:
        status = VERIFIED
    elif ctx.full is None or (ctx.citation.form is CiteForm.FULL and ctx.citation.key is None and ctx.citation.database is None):
        status = NOT_CHECKED
    else:
        status = CANNOT_VERIFY
    pending = ctx.lookup.pending_until if ctx.lookup is not None else None
    needs_text = bool(ctx.citation.quotes) or ctx.citation.pincite is not None
    if pending is None and ctx.record is not None and ctx.opinion_unavailable and unavailable and needs_text:
        pending = unavailable.get(ctx.record.id, ("", None))[1]
    return CitationResult(
        citation_index=ctx.citation.index,
        status=status,
        record=ctx.record,
        lookup=ctx.lookup,
        page_used=page,
        passage=passage,
        pending_until=pending,
    )


__all__ = [
    "CitationResult",
    "Report",
    "apply_settings",
    "check_document",
    "local_findings",
]
