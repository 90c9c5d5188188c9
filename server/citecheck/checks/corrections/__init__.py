"""Corrections: for a finding that says a citation is wrong, the authority the draft most likely meant; pure.

``gather`` asks the sources what ``leads.wanted`` names (the draft's case name, the near misses of its
citation, its quotes); ``judge`` calls ``correct`` with what they found for each citation. The
fixes it attaches replace whatever the checks proposed for the finding that says the citation is
wrong (fabricated case, wrong first page, impossible citation, name mismatch or misspelling,
cannot verify): up to three candidates, each a whole fix with why and how sure, applied by default only
when one stands alone and is certain. When the citation (not the name) is wrong, the year, court,
pin-cite and quote findings of that citation carry the same fixes: their own were made against the
wrong case. See docs/findings.md, "Fixes".
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace

from citecheck.checks.base import CheckContext, describe_record
from citecheck.checks.corrections.candidates import MAX_OFFERED, Candidate, gather_candidates
from citecheck.checks.corrections.edits import whole_fix
from citecheck.checks.corrections.leads import Leads, NameQuery, Wanted, leads_for, looks_wrong, wanted
from citecheck.checks.quote_match import OpinionIndex
from citecheck.findings import Confidence, Finding, Fix, Kind
from citecheck.sources.models import OpinionText

#: Findings that say the citation is wrong, in the order one of them carries the corrections.
PRIMARY = (
    Kind.FABRICATED_CASE,
    Kind.WRONG_FIRST_PAGE,
    Kind.IMPOSSIBLE_CITATION,
    Kind.NAME_MISMATCH,
    Kind.NAME_MISSPELLED,
    Kind.CANNOT_VERIFY,
)
#: Findings whose own fixes were made against the case at the citation: wrong when the citation is.
_AGAINST_CITED = frozenset(
    {
        Kind.YEAR_MISMATCH,
        Kind.COURT_MISMATCH,
        Kind.PINCITE_OUT_OF_RANGE,
        Kind.PINCITE_WRONG_PAGE,
        Kind.MISQUOTE,
    }
)
#: A second candidate this close to the first (in score) keeps either from being applied by default.
CLOSE = 2.0


def _offer(cands: Sequence[Candidate], why: str) -> list[Candidate]:
    """The candidates worth offering.

    An unverifiable citation is not shown wrong: it is offered a case only when the draft's name is that
    case's and its citation, the year or a database number points to it too — a quote alone is not
    enough (the case we hold may be the one the cited case quotes), and a same-named case of another
    year is another case. A citation shown wrong is offered any related candidate, but a case related
    by the quote alone only when the draft's year does not contradict it."""
    if why in ("unverified", "database"):
        cands = [
            x
            for x in cands
            if x.matches
            and x.year is not False
            and x.court is not False
            and (x.near is not None or x.quote is True or why == "database" or x.year is True)
        ]
        if why == "unverified" and len(cands) > 1 and not any(x.quote or x.near for x in cands):
            return []  # several cases of that name and year: nothing points to one of them
    else:
        cands = [x for x in cands if x.named or x.at_cite or x.near or x.year is not False]
    return list(cands[:MAX_OFFERED])


def _decision(ctx: CheckContext, best: Candidate) -> str:
    """A sentence for the finding: what the quote (or the name) says is wrong."""
    rec = best.record
    page = f" (page {best.quote_page})" if best.quote_page else ""
    label = describe_record(rec, best.cite)
    if best.quote is True and best.at_cite:
        return f" The quoted passage is in {label}{page}: the name is wrong, not the citation."
    if best.quote is True and best.named:
        return f" The quoted passage is in {label}{page}, the case the draft names: the citation is wrong."
    if best.quote is True:
        return f" The quoted passage comes from {label}{page}."
    if best.named and not best.at_cite:
        return f" A case of that name is {label}."
    return ""


def correct(
    ctx: CheckContext,
    findings: list[Finding],
    leads: Leads,
    opinions: Mapping[str, OpinionText],
    indexes: Mapping[str, OpinionIndex],
) -> list[Finding]:
    """``findings`` (of ``ctx.citation``) with the corrections attached (see the module docstring)."""
    c = ctx.citation
    why = looks_wrong(c, ctx.lookup, ctx.record)
    if why is None:
        return findings
    mine = [f for f in findings if f.citation_index == c.index]
    primary = next((f for k in PRIMARY for f in mine if f.kind is k), None)
    if primary is None:
        return findings
    named = leads.names is not None and bool(leads.names.hits)
    found: list[Candidate] = []
    if named or why not in ("unverified", "database"):  # else only a case of the draft's name is offered
        found = gather_candidates(ctx, leads, opinions, indexes)
    cands = _offer(found, why)
    fixes = _fixes(ctx, cands)
    extra = _explained(ctx, cands, found, why, leads)
    message = primary.message if extra is None else primary.message.rstrip() + extra
    elsewhere = bool(cands) and not cands[0].at_cite and cands[0].confidence is not Confidence.LOW
    out = []
    for f in findings:
        if f is primary:
            f = replace(f, fixes=fixes, message=message)
        elif elsewhere and f.citation_index == c.index and f.kind in _AGAINST_CITED and f.fixes:
            f = replace(f, fixes=fixes)
        out.append(f)
    return out


def _fixes(ctx: CheckContext, cands: list[Candidate]) -> tuple[Fix, ...]:
    """The candidates as whole fixes, best first, each once; only a high one that stands alone is preferred."""
    close = len(cands) > 1 and (
        cands[0].score - cands[1].score < CLOSE or cands[1].confidence is Confidence.HIGH
    )
    sure = bool(cands) and cands[0].confidence is Confidence.HIGH and not close
    fixes: list[Fix] = []
    for i, cand in enumerate(cands):
        fix = whole_fix(ctx, cand, preferred=sure and i == 0)
        if fix is not None and all(fix.edits != f.edits for f in fixes):
            fixes.append(fix)
    return tuple(fixes)


def _explained(
    ctx: CheckContext, cands: list[Candidate], found: list[Candidate], why: str, leads: Leads
) -> str | None:
    """What the primary finding's message adds: the case the draft meant, else where its quoted words come
    from, else — information only — that no case of that name is in a source covering its court and years
    (None: nothing)."""
    if cands:
        return _decision(ctx, cands[0])
    if holder := next((x for x in found if x.quote is True and not x.at_cite), None):
        return _decision(ctx, holder)
    if why in ("unverified", "database") and leads.names is not None and leads.names.covering:
        return (
            f" No case of that name is in {leads.names.covering} (information only: unpublished "
            "decisions exist only in the databases)."
        )
    return None


__all__ = ["Leads", "NameQuery", "Wanted", "correct", "leads_for", "looks_wrong", "wanted"]
