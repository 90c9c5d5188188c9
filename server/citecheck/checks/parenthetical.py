"""Do the year and court in the citation's parenthetical agree with the record? pure.

Court ids are compared through courts-db, and only when both sides are courts-db ids that are not
the same court, a parent of the other, or a renamed predecessor: an unknown id proves nothing.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import cache

from citecheck.checks.base import CheckContext, describe_record, record_evidence
from citecheck.extract.models import CiteForm
from citecheck.findings import Finding, Fix, Kind, TextEdit, make_finding
from citecheck.spans import Span


@cache
def _courts() -> dict[str, dict[str, object]]:
    import courts_db  # a dependency; imported on first use (its data is large)

    return {c["id"]: c for c in courts_db.courts}


def _lineage(court_id: str) -> set[str]:
    courts = _courts()
    seen: set[str] = set()
    cur: str | None = court_id
    while cur and cur not in seen:
        seen.add(cur)
        parent = courts.get(cur, {}).get("parent")
        cur = parent if isinstance(parent, str) else None
    return seen


def courts_conflict(cited: str, actual: str) -> bool:
    """True only when both are known courts of different systems or places, neither containing the other.

    Courts of the same state (``dccrimct`` vs ``dc`` for "D.C.") are not flagged: a parenthetical like
    "D.C." names a jurisdiction more often than a precise court, and a false alarm costs more than a miss.

    >>> courts_conflict("ca3", "ca9"), courts_conflict("ca3", "ca3"), courts_conflict("ca3", "21806")
    (True, False, False)
    >>> courts_conflict("dccrimct", "dc"), courts_conflict("ca3", "connappct")
    (False, True)
    """
    courts = _courts()
    if cited == actual or cited not in courts or actual not in courts:
        return False
    if cited in _lineage(actual) or actual in _lineage(cited):
        return False
    a, b = courts[cited], courts[actual]
    if a.get("system") != b.get("system"):
        return True
    if a.get("system") == "federal":
        return True  # two different federal courts (circuits, districts)
    return bool(a.get("location")) and bool(b.get("location")) and a.get("location") != b.get("location")


class ParentheticalCheck:
    id = "parenthetical"
    local = False

    def run(self, ctx: CheckContext) -> Iterator[Finding]:
        c, rec = ctx.citation, ctx.record
        if c.form is not CiteForm.FULL or rec is None:
            return
        if c.year and rec.decision_date and rec.decision_date[:4].isdigit():
            actual = int(rec.decision_date[:4])
            if actual != c.year:
                span = c.date_span or c.span
                fixes: tuple[Fix, ...] = ()
                if c.date_span is not None:
                    inner = c.date_span.of(ctx.text)
                    m = re.search(rf"\b{c.year}\b", inner)
                    if m:
                        yspan = Span(c.date_span.start + m.start(), c.date_span.start + m.end())
                        span = yspan
                        fixes = (
                            Fix(
                                title=f"Change the year to {actual}",
                                edits=(TextEdit(span=yspan, new_text=str(actual)),),
                            ),
                        )
                yield make_finding(
                    Kind.YEAR_MISMATCH,
                    span,
                    f"{describe_record(rec, ctx.case_cite())} was decided on {rec.decision_date}, not in {c.year}.",
                    evidence=record_evidence(ctx, draft=str(c.year)),
                    fixes=fixes,
                    citation_index=c.index,
                )
        if c.court and rec.court_id and courts_conflict(c.court, rec.court_id):
            court_name = rec.court_name or _courts().get(rec.court_id, {}).get("name", rec.court_id)
            written = c.court_text or c.court
            yield make_finding(
                Kind.COURT_MISMATCH,
                c.date_span or c.span,
                f"{rec.name} was decided by the {court_name}, not the court the citation names (“{written}”).",
                evidence=record_evidence(ctx, draft=written),
                citation_index=c.index,
            )
