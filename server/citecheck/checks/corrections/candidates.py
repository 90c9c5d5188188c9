"""The authorities a wrong citation may have meant, each with why, ranked; pure.

Routes: the case at the cited citation (the name is wrong), the case whose pages the cited page falls
in, cases found by the draft's name, cases one slip away from the citation, cases holding the draft's
quote. The quote decides: a candidate that holds the draft's quoted passage outranks every other, and
one known *not* to hold it is dropped (a rename to the case at a wrong citation would make the brief
wrong in a new way). Nothing unrelated is ever proposed: a candidate must share the draft's name or
hold its quote (the case at the cited citation is related by the citation itself, unless the quote
is known to be elsewhere).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from citecheck.checks.base import CheckContext
from citecheck.checks.corrections.leads import Leads
from citecheck.checks.corrections.near_miss import relation
from citecheck.checks.name_match import NameVerdict, clean_draft_name, compare_names
from citecheck.checks.parenthetical import courts_conflict
from citecheck.checks.quote_match import OpinionIndex, locate
from citecheck.checks.quotes import page_of
from citecheck.extract.models import Citation
from citecheck.findings import Confidence
from citecheck.reporters import is_neutral, series_siblings
from citecheck.sources.models import CaseCite, CaseRecord, CiteKey, OpinionText, PassageHit
from citecheck.sources.name_keys import name_score

#: Candidates offered at most, and the score below which none is.
MAX_OFFERED = 3
MIN_SCORE = 1.0
#: ``name_keys.name_score`` at which the draft names the case (abbreviations, party order, a shortened
#: party), and at which it names it but for a slip of the keyboard (0.9); below, another case ("State v.
#: Brown" is 0.8 of "Commonwealth v. Brown", "Savage v. Jones" 0.5 of "Savage v. Parks").
NAME_MATCH = 0.95
NAME_CLOSE = 0.85


@dataclass(slots=True)
class Candidate:
    """One authority the draft may have meant, and every reason to think so."""

    record: CaseRecord
    cite: CaseCite | None = None  # the citation to put in the draft (chosen by ``_choose_cite``)
    name: float = 0.0  # name_keys.name_score of the draft's name against it
    mismatch: bool = True  # checks.name_match.compare_names says the draft names another case
    quote: bool | None = None  # the draft's quote is in it (None: not known)
    quote_page: str | None = None  # the page the quote is on, in ``cite``'s reporter
    near: str | None = None  # how the draft's citation is one slip away from it
    at_cite: bool = False  # the case at the citation the draft gives: the fix renames
    inside: bool = False  # the cited page falls inside it
    year: bool | None = None  # the draft's year is its year (None: no year given)
    court: bool | None = None  # the draft's court may be its court (False: a conflict)
    hit: PassageHit | None = None  # where a full-text search found the draft's quote in it
    routes: list[str] = field(default_factory=list)

    @property
    def score(self) -> float:
        s = 0.0
        if self.quote is True:
            s += 3.0
        elif self.quote is False:
            s -= 3.0
        s += 2.0 if self.matches else 1.2 if self.named else 0.0
        if self.near or (self.inside and self.named):
            s += 1.0
        if self.at_cite:
            s += 1.5
        if self.year is True:
            s += 0.5
        elif self.year is False:
            s -= 0.5
        if self.court is False:
            s -= 0.5
        return s

    @property
    def named(self) -> bool:
        """The draft names it (or names it but for a slip of the keyboard): the score says so and the name
        check would not call it another case ("State v. Brown" scores 0.9 against "Commonwealth v.
        Brown", whose short name is "Brown", but names another case)."""
        return self.name >= NAME_CLOSE and not self.mismatch

    @property
    def matches(self) -> bool:
        """The draft names it exactly (abbreviations, party order and shortened parties allowed)."""
        return self.name >= NAME_MATCH and not self.mismatch

    @property
    def related(self) -> bool:
        """Shares the draft's name, holds its quote, or is the case at its citation (and the quote is
        not known to be elsewhere): the only candidates ever proposed."""
        if self.quote is False:
            return False
        return self.quote is True or self.named or self.at_cite

    @property
    def confidence(self) -> Confidence:
        """High when two things the draft says point to it (the quote, the name, the citation or a slip
        of it) and nothing it says contradicts it; medium for the quote or the full name alone."""
        if self.quote is True and (self.named or self.at_cite or self.near):
            return Confidence.HIGH
        cited = self.at_cite or self.near is not None or self.inside
        if self.named and cited and self.year is not False and self.court is not False:
            return Confidence.HIGH
        if self.quote is True or (self.matches and self.year is not False):
            return Confidence.MEDIUM
        return Confidence.LOW


def _written(c: Citation) -> CiteKey | None:
    if c.volume and c.reporter and c.page:
        return CiteKey(c.volume, c.reporter, c.page)
    return None


def _year(rec: CaseRecord) -> int | None:
    d = rec.decision_date or ""
    return int(d[:4]) if d[:4].isdigit() else None


def _pin_pages(c: Citation) -> list[int]:
    if c.pincite is None:
        return []
    return [int(p) for part in c.pincite.parts for p in part.pages() if p.isdigit() and not part.star]


def _fits(cite: CaseCite, pages: list[int]) -> bool:
    """The pin pages lie in the case's pages (its last page, when unknown, is not held against it)."""
    if not pages or not cite.page.isdigit():
        return False
    last = int(cite.last_page) if cite.last_page and cite.last_page.isdigit() else None
    return all(int(cite.page) <= p and (last is None or p <= last) for p in pages)


def _choose_cite(cand: Candidate, written: CiteKey | None, c: Citation) -> CaseCite | None:
    """Of the candidate's citations, the one to put in the draft: the one the draft's slip points to,
    one its pin fits, one in the reporter the draft uses (or its series), else the first."""
    cites = [x for x in cand.record.citations if not is_neutral(x.reporter)] or list(cand.record.citations)
    if not cites:
        return None
    pins = _pin_pages(c)
    family = {written.reporter, *series_siblings(written.reporter)} if written else set()

    def rank(x: CaseCite) -> tuple[int, int, int, int]:
        slip = written is not None and relation(written, x, cand.record.citations) is not None
        same = written is not None and x.reporter == written.reporter
        return (0 if slip and _fits(x, pins) else 1 if slip else 2, 0 if _fits(x, pins) else 1,
                0 if same else 1, 0 if x.reporter in family else 1)  # fmt: skip

    return min(cites, key=rank)


def _quote_in(
    c: Citation, cand: Candidate, opinions: Mapping[str, OpinionText], indexes: Mapping[str, OpinionIndex]
) -> tuple[bool | None, str | None]:
    """Whether the draft's quotes are in the candidate's opinion (when we hold it) and on which page
    of ``cand.cite``'s reporter."""
    index = indexes.get(cand.record.id)
    if not c.quotes or index is None:
        return None, None
    found = None
    for q in c.quotes:
        hit = locate(q.text, index)
        if hit is not None:
            found = hit
            break
    if found is None:
        return False, None
    cite = cand.cite
    page = page_of(
        opinions.get(cand.record.id),
        cite.reporter if cite else None,
        cite.volume if cite else None,
        found.start,
        found.end,
    )
    return True, page


def _collect(ctx: CheckContext, leads: Leads) -> list[Candidate]:
    """Every case any route points to, once (a case two sources hold is one candidate)."""
    by_id: dict[str, Candidate] = {}

    def add(rec: CaseRecord, route: str) -> Candidate:
        keys = {k.key for k in rec.citations}
        cand = by_id.get(rec.id) or next(
            (x for x in by_id.values() if {k.key for k in x.record.citations} & keys), None
        )
        if cand is None:
            cand = by_id[rec.id] = Candidate(record=rec)
        if route not in cand.routes:
            cand.routes.append(route)
        return cand

    lookup = ctx.lookup
    if lookup is not None:
        for rec in lookup.records:
            if ctx.record is None or rec.id == ctx.record.id:
                cand = add(rec, "citation")
                if any(x.key == lookup.key for x in rec.citations):
                    cand.at_cite = True
                else:  # found by a page inside it (a service's star-pagination fallback)
                    cand.inside = True
        if lookup.containing is not None:
            add(lookup.containing, "inside").inside = True
    if leads.names is not None:
        for h in leads.names.hits:
            add(h.record, "name")
    for slip, res in leads.near:
        for rec in res.records:
            add(rec, "near").near = slip
    for hit in leads.passages:
        cand = add(hit.case, "quote")
        cand.quote = True
        cand.hit = cand.hit or hit
    return list(by_id.values())


def _assess(
    ctx: CheckContext,
    cand: Candidate,
    opinions: Mapping[str, OpinionText],
    indexes: Mapping[str, OpinionIndex],
) -> None:
    """Fill in the candidate's citation to propose, name score, quote, near miss, year and court."""
    c, rec = ctx.citation, cand.record
    written = _written(c)
    if c.case_name is not None:
        cand.name = name_score(c.case_name.text, rec.names)
        cand.mismatch = (
            compare_names(clean_draft_name(c.case_name.text), rec.names).verdict is NameVerdict.MISMATCH
        )
    if cand.at_cite and ctx.record is not None and rec.id == ctx.record.id:
        cand.cite = ctx.case_cite()
    if cand.cite is None:
        cand.cite = _choose_cite(cand, written, c)
    if written is not None and cand.cite is not None and not cand.at_cite:
        # the slip as the case's pages explain it (a pin page given as the first page, not "a digit off")
        cand.near = relation(written, cand.cite, rec.citations) or cand.near
    _assess_quote(ctx, cand, opinions, indexes)
    year = _year(rec)
    cand.year = None if not c.year or year is None else year == c.year
    if c.court and rec.court_id:
        cand.court = not courts_conflict(c.court, rec.court_id)


def _assess_quote(
    ctx: CheckContext,
    cand: Candidate,
    opinions: Mapping[str, OpinionText],
    indexes: Mapping[str, OpinionIndex],
) -> None:
    """Whether the citation's quotation is in the candidate's opinion, and the page it is on: for the case
    at the citation itself, the quote check's own matches decide."""
    quote, page = _quote_in(ctx.citation, cand, opinions, indexes)
    if cand.at_cite and ctx.quote_matches:
        known = [m for m in ctx.quote_matches if m is not None]
        if any(m.exact for m in known):
            quote = True
        elif known and all(not m.passage for m in known):
            quote = False  # nothing like the quote in the case at the citation
    if quote is not None and cand.quote is not True:
        cand.quote = quote
    cand.quote_page = page
    hit = cand.hit
    if page is None and hit is not None and hit.page and cand.cite is not None:
        if hit.reporter in (None, cand.cite.reporter):
            cand.quote_page = hit.page


def gather_candidates(
    ctx: CheckContext,
    leads: Leads,
    opinions: Mapping[str, OpinionText],
    indexes: Mapping[str, OpinionIndex],
) -> list[Candidate]:
    """Every related candidate for ``ctx.citation``, best first (those below ``MIN_SCORE`` dropped)."""
    out = []
    for cand in _collect(ctx, leads):
        _assess(ctx, cand, opinions, indexes)
        if cand.related:
            out.append(cand)
    if any(x.quote is True for x in out):
        out = [x for x in out if x.quote is not False]
    out.sort(key=lambda x: -x.score)
    return [x for x in out if x.score >= MIN_SCORE]


__all__ = ["MAX_OFFERED", "MIN_SCORE", "NAME_CLOSE", "NAME_MATCH", "Candidate", "gather_candidates"]
