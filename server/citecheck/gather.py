"""``gather(extraction, source) -> SourceEvidence``: all the waiting of a check, none of the judging.

One batched lookup (citation keys only leave the machine), then the opinion texts the quote and
pin-cite checks need, then a search of other cases for quotes that are nowhere in the cited one.
A source failure never escapes: the affected citations become cannot-verify with the reason. The
only CPU work here is locating quotes, to know which ones to search for elsewhere; it runs in
``executor`` when one is given, so a server's event loop stays free.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Sequence
from concurrent.futures import Executor
from typing import Any, TypeVar

from citecheck.checks.corrections import NameQuery, Wanted, wanted
from citecheck.checks.quote_location import locate_passages, search_fragments, wants_search_elsewhere
from citecheck.checks.quote_match import opinion_index
from citecheck.checks.statute_sections import brief_date
from citecheck.errors import CitecheckError, Deferred, TextNotHere
from citecheck.extract.models import Extraction, StatuteKey
from citecheck.judge import (
    SourceEvidence,
    _Records,
    cite_key,
    full_of,
    lookup_keys,
    statute_answers,
    statute_keys,
)
from citecheck.sources.base import AuthoritySource, PacedLink
from citecheck.sources.models import (
    CaseRecord,
    CiteKey,
    LookupResult,
    LookupStatus,
    NameSearch,
    OpinionText,
    PassageHit,
)
from citecheck.sources.opinion_fit import why_unfit
from citecheck.sources.statutes.records import LookupOutcome, StatuteAnswer
from citecheck.treatment.models import Treatment

log = logging.getLogger(__name__)
T = TypeVar("T")


def source_name(source: AuthoritySource) -> str:
    return source.name or "the source"


async def gather(
    extraction: Extraction, source: AuthoritySource, *, executor: Executor | None = None
) -> SourceEvidence:
    """Everything the checks need from ``source`` for ``extraction``."""
    name = source_name(source)
    # building a long brief's citations and indexing them is CPU work: off the loop (keystrokes wait there)
    lookups = await _lookup(source, await _cpu(executor, lookup_keys, extraction))
    records = await _cpu(executor, _Records, extraction, lookups)
    opinions, unavailable = await _fetch_opinions(source, extraction, records)
    want = await _cpu(executor, wanted, extraction, lookups, records.record_for, _key_of(records))
    names, near = await _corrections(source, want)
    quotes: list[str] = []
    if opinions and any(c.quotes for c in extraction.citations):
        quotes = await _cpu(executor, _quotes_to_search, extraction, records, opinions)
    quotes = list(dict.fromkeys((*quotes, *want.quotes)))
    elsewhere: dict[str, tuple[PassageHit, ...]] = {}
    if quotes:
        hits = await asyncio.gather(*(_find_elsewhere(source, q) for q in quotes))
        elsewhere = {q: h for q, h in zip(quotes, hits, strict=True) if h}
    if want.quoting or (near and want.quotes):
        found = {q: names[q] for q in want.quoting if q in names}
        opinions = {**await _candidate_texts(source, found, near, opinions), **opinions}
    statutes, texts = await _statutes(source, extraction)
    treatments, treatment_sources = await _treatments(source, lookups)
    return SourceEvidence(
        source_name=name,
        lookups=lookups,
        opinions=opinions,
        elsewhere=elsewhere,
        unavailable=unavailable,
        names=names,
        near=near,
        statutes=statutes,
        statute_texts=texts,
        # the titles the index holds whole: its checks speak for their citations ("not checked" does not)
        statute_titles=frozenset(
            (k.code, k.title) for k, a in statutes.items() if a.outcome is not LookupOutcome.NOT_COVERED
        ),
        treatments=treatments,
        treatment_sources=treatment_sources,
    )


async def _treatments(
    source: AuthoritySource, lookups: dict[CiteKey, LookupResult]
) -> tuple[dict[CiteKey, tuple[Treatment, ...]], tuple[str, ...]]:
    """What the treatment sources say of the cited cases, asked by each key cited and every citation of the
    cases found for it (a table may list a case by its parallel cite); a source without them: nothing."""
    ask = getattr(source, "treatment", None)
    if ask is None or not lookups:
        return {}, ()
    keys = dict.fromkeys(lookups)
    for r in lookups.values():
        for rec in r.records:
            keys.update(dict.fromkeys(c.key for c in rec.citations))
    try:
        found: dict[CiteKey, tuple[Treatment, ...]] = await ask(list(keys))
    except Exception as exc:  # never proof of good law, never a reason to lose the check
        log.exception("treatment lookup failed: %s", exc)
        return {}, ()
    return found, tuple(getattr(source, "treatment_sources", ()) or ())


async def _statutes(
    source: AuthoritySource, extraction: Extraction
) -> tuple[dict[StatuteKey, StatuteAnswer], dict[StatuteKey, str]]:
    """The statute index's answers (a source without one answers nothing), and the quoted sections' texts.

    Asked as of the brief's date when it bears one (a C.F.R. section removed since was in force then)."""
    lookup = getattr(source, "lookup_statutes", None)
    text_of = getattr(source, "statute_text", None)
    keys = statute_keys(extraction)
    if lookup is None or text_of is None or not keys:
        return {}, {}
    try:
        answers: dict[StatuteKey, StatuteAnswer] = await lookup(keys, as_of=brief_date(extraction.text))
        texts: dict[StatuteKey, str] = {}
        for c in extraction.citations:
            if not c.quotes:
                continue
            mine = statute_answers(extraction, c, answers)
            if mine and (rec := mine[0][1].record) is not None and mine[0][0] not in texts:
                text = await text_of(rec)
                if text:
                    texts[mine[0][0]] = text
    except Exception as exc:  # the index is local and never raises by contract; a bug must not sink the check
        log.exception("statute lookup failed: %s", exc)
        return {}, {}
    return answers, texts


def _key_of(records: _Records) -> Callable[..., CiteKey | None]:
    return lambda c: records.keys.get(c.index)


#: Texts of candidate cases read (from this machine only) at most per document, to test the quote.
MAX_CANDIDATE_TEXTS = 40


async def _corrections(
    source: AuthoritySource, want: Wanted
) -> tuple[dict[NameQuery, NameSearch], dict[CiteKey, LookupResult]]:
    """The name searches and near-miss lookups the corrections need (sources without them: none)."""
    names: dict[NameQuery, NameSearch] = {}
    near: dict[CiteKey, LookupResult] = {}
    find = getattr(source, "find_by_name", None)
    local = getattr(source, "lookup_local", None)
    if find is not None:
        for q in want.names:
            try:
                names[q] = await find(q.name, limit=5, court=q.court, years=q.years, remote=q.remote)
            except Exception as exc:  # a name search is a help, never a reason to lose the check
                if not isinstance(exc, CitecheckError):
                    log.exception("name search failed")
    if local is not None and want.variants:
        try:
            found = await local(want.variants)
        except Exception as exc:
            if not isinstance(exc, CitecheckError):
                log.exception("near-miss lookup failed")
            found = await _one_by_one(local, want.variants)  # one bad key must not lose the others' fixes
        near = {k: r for k, r in found.items() if r.records}
    return names, near


async def _one_by_one(local: Callable[..., Awaitable[Any]], keys: Any) -> dict[CiteKey, LookupResult]:
    """The near misses looked up one key at a time, after the batch failed: every key that can be answered is."""
    out: dict[CiteKey, LookupResult] = {}
    for key in keys:
        try:
            out.update(await local([key]))
        except Exception:  # logged once above, for the batch
            continue
    return out


async def _candidate_texts(
    source: AuthoritySource,
    names: dict[NameQuery, NameSearch],
    near: dict[CiteKey, LookupResult],
    have: dict[str, OpinionText],
) -> dict[str, OpinionText]:
    """The held texts of the cases found by name or near miss (to see whether the draft's quote is in
    them): from the corpus and the cache only."""
    read = getattr(source, "opinion_local", None)
    if read is None:
        return {}
    records: dict[str, CaseRecord] = {}
    for found in names.values():
        for h in found.hits:
            records.setdefault(h.record.id, h.record)
    for r in near.values():
        for rec in r.records:
            records.setdefault(rec.id, rec)
    out: dict[str, OpinionText] = {}
    for rid, rec in list(records.items())[:MAX_CANDIDATE_TEXTS]:
        if rid in have:
            continue
        try:
            text = await read(rec)
        except Exception as exc:
            if not isinstance(exc, CitecheckError):
                log.exception("reading the text of %s failed", rid)
            continue
        if text is not None and why_unfit(rec, text) is None:  # a garbled text proves nothing either way
            out[rid] = text
    return out


async def _cpu(executor: Executor | None, fn: Callable[..., T], *args: object) -> T:
    if executor is None:
        return fn(*args)
    return await asyncio.get_running_loop().run_in_executor(executor, fn, *args)


def _quotes_to_search(
    extraction: Extraction, records: _Records, opinions: dict[str, OpinionText]
) -> list[str]:
    indexes = {rid: opinion_index(t.text) for rid, t in opinions.items()}
    matches, _ = locate_passages(extraction.citations, records.record_for, indexes, propositions=False)
    return wants_search_elsewhere(extraction.citations, matches)


async def _lookup(source: AuthoritySource, keys: Sequence[CiteKey]) -> dict[CiteKey, LookupResult]:
    if not keys:
        return {}
    try:
        answers = await source.lookup(keys)
    except Exception as exc:  # SourceError by contract; anything else is a source bug, same outcome
        if not isinstance(exc, CitecheckError):
            log.exception("source %s raised an unexpected error", source_name(source))
        return dict(
            SourceEvidence.failed(keys, source_name(source), f"{source_name(source)} failed: {exc}").lookups
        )
    out = {}
    for k in keys:
        out[k] = answers.get(k) or LookupResult(
            key=k, status=LookupStatus.CANNOT_VERIFY, reason=f"{source_name(source)} gave no answer"
        )
    return out


async def _fetch_opinions(
    source: AuthoritySource, extraction: Extraction, records: _Records
) -> tuple[dict[str, OpinionText], dict[str, tuple[str, float | None]]]:
    """Opinion texts, only for cases whose text a check needs (quotes or pin cites), in file order.

    A text that is not the case's or is cut short (``sources/opinion_fit.py``) is not used: it is
    missing, with the reason, like one that could not be fetched.

    One at a time: the source paces its requests (sources/pacing.py), and once one fetch has to wait
    past the deadline the rest wait too, without asking. The second dict says, per case, why its text
    is missing and, when it only waits for the allowance, until when.
    """
    needed: dict[str, CaseRecord] = {}
    keys: dict[str, list[CiteKey]] = {}  # the cites each case is needed for (their rank orders the fetches)
    for c in extraction.citations:
        if c.quotes or c.pincite:
            rec = records.record_for(c)
            if rec is not None:
                needed.setdefault(rec.id, rec)
                full = full_of(extraction, c) or c
                if (k := cite_key(full)) is not None:
                    keys.setdefault(rec.id, []).append(k)
    order = source.work_order if isinstance(source, PacedLink) else None  # what the user sees first
    if order is not None:
        needed = dict(order.arrange(list(needed.items()), keys=lambda item: keys.get(item[0], ())))
    texts: dict[str, OpinionText] = {}
    missing: dict[str, tuple[str, float | None]] = {}
    waiting: tuple[str, float] | None = None
    for rid, rec in needed.items():
        if waiting is not None:
            missing[rid] = waiting
            continue
        text, why, until = await _opinion(source, rec)
        if text is not None and (unfit := why_unfit(rec, text)) is not None:
            log.info("opinion text for %s not used: %s", rec.id, unfit)
            text, why = None, unfit  # garbled evidence never accuses: the checks say "cannot verify"
        if text is not None:
            texts[rid] = text
        elif why:
            missing[rid] = (why, until)
            if until is not None:
                waiting = (why, until)
    return texts, missing


async def _opinion(
    source: AuthoritySource, record: CaseRecord
) -> tuple[OpinionText | None, str, float | None]:
    """The text, or why it could not be fetched and (when it only waits for the allowance) until when."""
    try:
        return await source.opinion(record), "", None
    except Deferred as exc:
        return None, str(exc), exc.until
    except TextNotHere as exc:  # expected (the citation index is metadata only): the finding says it
        return None, str(exc), None
    except Exception as exc:
        if not isinstance(exc, CitecheckError):
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
        for fragment in search_fragments(quote):
            hits = await source.find_passage(fragment, limit=3)
            if hits:
                return tuple(hits)
        return ()
    except Exception as exc:
        if not isinstance(exc, CitecheckError):
            log.exception("find_passage failed")
        return ()


__all__ = ["gather", "source_name"]
