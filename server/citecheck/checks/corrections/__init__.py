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

from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace

from citecheck.checks.base import CheckContext, describe_record
from citecheck.checks.corrections.candidates import MAX_OFFERED, Candidate, gather_candidates
from citecheck.checks.corrections.edits import whole_fix
from citecheck.checks.corrections.leads import Leads, NameQuery, Wanted, leads_for, looks_wrong, wanted
from citecheck.checks.quote_match import OpinionIndex
from citecheck.findings import Confidence, Finding, Fix, Kind, Severity, make_finding
from citecheck.reporters import state_reporter
from citecheck.sources.models import CaseRecord, CiteKey, LookupStatus, OpinionText

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


def _weigh_absence(
    ctx: CheckContext, primary: Finding, found: Sequence[Candidate], message: str
) -> Callable[[Finding], Finding] | None:
    """The evidence rule's part (b) (``checks/existence.py``): what the name search says of a citation only
    *absent* from a source's data (a fabricated-case warning).

    - The case the draft names is found, and CourtListener lists no citation of it in the cited state
      reporter: its parallel citation is what the data lacks (CAP #345, #2013: regional citations of
      Maryland, New Jersey, Connecticut, New Hampshire cases) → cannot-verify (info), naming the case.
    - The case the draft names, and only it, is found at another citation of the same reporter one slip of
      the keyboard from the draft's (digits swapped, one off) — not a page or two away in the same volume
      (a pagination error of the data), and not with another year or court → an **error**: the citation is
      wrong.
    """
    lookup = ctx.lookup
    if (
        primary.kind is not Kind.FABRICATED_CASE
        or primary.severity is not Severity.WARNING
        or lookup is None
        or lookup.status is not LookupStatus.NOT_FOUND
        or ctx.citation.case_name is None
    ):
        return None
    key = lookup.key
    named = [x for x in found if x.matches and x.year is not False and x.court is not False]
    if not named:
        return None
    lacking = [x for x in named if x.record.cite_for(key.reporter) is None]
    if lacking and state_reporter(key.reporter):
        return _unverified_parallel(lacking[0].record, key)
    if len(named) != 1:
        return None
    return _proven_slip(named[0], key, message)


def _unverified_parallel(rec: CaseRecord, key: CiteKey) -> Callable[[Finding], Finding] | None:
    """Part (b)'s first case: the named state case the source lists without a citation in the cited state
    reporter → cannot-verify, naming it."""
    if rec.jurisdiction in (None, "United States"):
        return None
    why = (
        f"{describe_record(rec)} is the case the draft names, and the source lists no {key.reporter} "
        f"citation of it (CourtListener and CAP lack many regional citations of state cases), so "
        f"{key} may be its parallel citation; it could not be verified"
    )

    def unverified(f: Finding) -> Finding:
        return make_finding(
            Kind.CANNOT_VERIFY,
            f.span,
            why + ". This is not a finding that the case does not exist.",
            evidence=f.evidence,
            fixes=f.fixes,
            citation_index=f.citation_index,
        )

    return unverified


def _proven_slip(best: Candidate, key: CiteKey, message: str) -> Callable[[Finding], Finding] | None:
    """Part (b)'s second case: the only case of the draft's name, at a citation one slip of the keyboard
    away → an error."""
    cite = best.record.cite_for(key.reporter)
    if cite is None or best.at_cite:
        return None
    same_volume = cite.volume == key.volume and cite.page.isdigit() and key.page.isdigit()
    if same_volume and abs(int(cite.page) - int(key.page)) <= 2:
        return None  # the data's own first page may be the wrong one (CAP #2115)
    if best.near is None:
        # one slip of the keyboard from the citation (digits swapped, one off): a case of the same name and
        # year elsewhere in the reporter may be another decision between the same parties that the data
        # lacks the one of (bench/evidence.py: Gonzalez-Gonzalez v. United States, 244 and 257 F.3d)
        return None

    def proven(f: Finding) -> Finding:
        return replace(
            f,
            severity=Severity.ERROR,
            message=message.rstrip() + f" The case the draft names is at {cite}: the citation is wrong.",
        )

    return proven


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
    weighed = _weigh_absence(ctx, primary, found, message)

    def attached(f: Finding) -> Finding:
        if f is primary:
            f = replace(f, fixes=fixes, message=message)
            return f if weighed is None else weighed(f)
        if elsewhere and f.citation_index == c.index and f.kind in _AGAINST_CITED and f.fixes:
            return replace(f, fixes=fixes)
        return f

    return [attached(f) for f in findings]


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
