"""What to ask the sources to correct a wrong citation, and what they answered for one citation; pure.

``wanted(extraction, lookups, record_for)`` names, for every full citation that looks wrong (nothing
begins at it, it cannot exist, it names another case, it cannot be verified), the searches ``gather``
runs: the draft's case name (``NameQuery``: on CourtListener too, with a token, only for citations a
finding will call wrong), the near misses of its citation (``near_miss.variants``, on this machine
only) and its quotes (full-text search over what is held). ``leads_for`` reads back, for one
citation, what those searches found (``Leads``): the judge's corrections read nothing else.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from citecheck.checks.corrections.near_miss import variants
from citecheck.checks.impossible import impossible_reason
from citecheck.checks.name_match import NameVerdict, clean_draft_name, compare_names
from citecheck.extract.models import Citation, CiteForm, Extraction
from citecheck.sources.models import CaseRecord, CiteKey, LookupResult, LookupStatus, NameSearch, PassageHit

#: Names searched per document at most online (CourtListener's free allowance is 5 requests a minute).
MAX_REMOTE_NAMES = 20
#: Near-miss citations looked up per document at most (on this machine).
MAX_VARIANT_KEYS = 4000
#: Years either side of the draft's year a name search prefers (a wrong year is one of the slips).
YEAR_SLACK = 2


@dataclass(frozen=True, slots=True)
class NameQuery:
    """One name search (hashable: the evidence is keyed by it, so it survives edits elsewhere)."""

    name: str
    court: str | None = None
    years: tuple[int, int] | None = None
    remote: bool = False


@dataclass(frozen=True, slots=True, kw_only=True)
class Wanted:
    names: tuple[NameQuery, ...] = ()
    variants: tuple[CiteKey, ...] = ()
    quotes: tuple[str, ...] = ()
    #: the name searches whose citation quotes something: the texts of what they find are read (held
    #: ones only) to see whether the quote is there
    quoting: tuple[NameQuery, ...] = ()


@dataclass(frozen=True, slots=True, kw_only=True)
class Leads:
    """What the searches found for one citation: cases by its name, cases one slip away from its
    citation (``(slip in words, lookup)``), cases holding its quotes, and the opinions held of them."""

    names: NameSearch | None = None
    near: tuple[tuple[str, LookupResult], ...] = ()
    passages: tuple[PassageHit, ...] = ()


#: Citation forms a correction is proposed for: full citations, and citation-shaped text in a reporter
#: that cannot exist (``100 A. 4th 450``: an unrecognised citation that is impossible).
CORRECTED_FORMS = (CiteForm.FULL, CiteForm.UNRECOGNISED)


def _key(c: Citation) -> CiteKey | None:
    if c.form is not CiteForm.FULL or c.volume is None or c.reporter is None or c.page is None:
        return None
    return CiteKey(c.volume, c.reporter, c.page)


def _name_of(c: Citation) -> str | None:
    if c.case_name is None:
        return None
    name = clean_draft_name(c.case_name.text)
    return name if len(name) >= 3 else None


def looks_wrong(c: Citation, lookup: LookupResult | None, record: CaseRecord | None) -> str | None:
    """Why a full citation may need a correction ("not-found", "impossible", "database", "name",
    "unverified"), or None. "name": a case was found at it but the draft names another."""
    if c.form not in CORRECTED_FORMS:
        return None
    if c.form is CiteForm.UNRECOGNISED:
        return "impossible" if impossible_reason(c) else None
    if c.agency:
        return None  # an agency's decision: no case-law source could correct it
    if c.database is not None:
        return "database"
    if impossible_reason(c):
        return "impossible"
    if lookup is None:
        return None
    if lookup.status is LookupStatus.NOT_FOUND or _inside(lookup):
        return "not-found"
    if lookup.status in (LookupStatus.FOUND, LookupStatus.AMBIGUOUS):
        if (
            lookup.records
            and record is not None
            and lookup.key.page not in [x.page for x in record.citations if x.reporter == lookup.key.reporter]
        ):
            return "not-found"  # found by an inner page (a service's star-pagination fallback)
        name = _name_of(c)
        if name is None:
            return None
        if record is None:
            return "name"
        return None if compare_names(name, record.names).verdict is NameVerdict.MATCH else "name"
    if lookup.pending_until is not None:
        return None  # not asked yet: it may well be found
    return "unverified"


def _inside(lookup: LookupResult) -> bool:
    """The cited page lies strictly inside a case of the volume (``checks/existence``: fabricated)."""
    host, key = lookup.containing, lookup.key
    if host is None or lookup.status is LookupStatus.FOUND:
        return False
    cite = host.cite_for(key.reporter, key.volume)
    if cite is None or not (key.page.isdigit() and cite.page.isdigit() and (cite.last_page or "").isdigit()):
        return False
    return int(cite.page) < int(key.page) < int(cite.last_page or 0)


def name_query(c: Citation, why: str) -> NameQuery | None:
    """The name search for ``c`` (None when the draft gives no name to search by)."""
    name = _name_of(c)
    if name is None:
        return None
    years = (c.year - YEAR_SLACK, c.year + YEAR_SLACK) if c.year else None
    # online only for what a finding calls wrong: an uncovered volume is no reason to spend the allowance
    return NameQuery(name=name, court=c.court, years=years, remote=why != "unverified")


def wanted(
    extraction: Extraction,
    lookups: Mapping[CiteKey, LookupResult],
    record_for: Callable[[Citation], CaseRecord | None],
    key_for: Callable[[Citation], CiteKey | None],
) -> Wanted:
    """Every search the corrections of ``extraction`` need, each once, in document order."""
    names: dict[NameQuery, None] = {}
    quoting: dict[NameQuery, None] = {}
    keys: dict[CiteKey, None] = {}
    quotes: dict[str, None] = {}
    remote = 0
    for c in extraction.citations:
        k = key_for(c)
        why = looks_wrong(c, lookups.get(k) if k else None, record_for(c))
        if why is None:
            continue
        q = name_query(c, why)
        if q is not None:
            if q.remote:
                remote += 1
                if remote > MAX_REMOTE_NAMES:
                    q = NameQuery(name=q.name, court=q.court, years=q.years, remote=False)
            names.setdefault(q, None)
            if c.quotes:
                quoting.setdefault(q, None)
        written = _key(c)
        # near misses of what a finding calls wrong (an unverifiable citation is offered only a case of its
        # name, which the name search finds: its near misses would be thousands of lookups for nothing)
        if written is not None and why in ("not-found", "impossible"):
            if len(keys) < MAX_VARIANT_KEYS:
                for v, _ in variants(written):
                    keys.setdefault(v, None)
        if why in ("not-found", "impossible", "name"):  # elsewhere only the draft's name is ever offered
            for quote in c.quotes:
                quotes.setdefault(quote.text, None)
    return Wanted(names=tuple(names), variants=tuple(keys), quotes=tuple(quotes), quoting=tuple(quoting))


def leads_for(
    c: Citation,
    why: str,
    names: Mapping[NameQuery, NameSearch],
    near: Mapping[CiteKey, LookupResult],
    passages: Mapping[str, Sequence[PassageHit]],
) -> Leads:
    """What the searches of ``wanted`` found for ``c``."""
    q = name_query(c, why)
    found = None
    if q is not None:
        found = names.get(q) or names.get(NameQuery(name=q.name, court=q.court, years=q.years, remote=False))
    slips: list[tuple[str, LookupResult]] = []
    written = _key(c)
    if written is not None and near:
        for v, slip in variants(written):
            r = near.get(v)
            if r is not None and r.records and r.status in (LookupStatus.FOUND, LookupStatus.AMBIGUOUS):
                slips.append((slip, r))
    hits: list[PassageHit] = []
    for quote in c.quotes:
        hits.extend(passages.get(quote.text, ()))
    return Leads(names=found, near=tuple(slips), passages=tuple(hits))


__all__ = [
    "CORRECTED_FORMS",
    "Leads",
    "NameQuery",
    "Wanted",
    "leads_for",
    "looks_wrong",
    "name_query",
    "wanted",
]
