"""Citations that cannot exist, judged from the reporter tables alone (no lookup); pure.

An error here needs certainty (DEVELOPERS.md: never accuse a real case), so only three shapes qualify:
a volume past the end of a series, a first page no volume reaches, and an *invented series* of a real
reporter (``Cal. Rptr. 4th``, ``P. 4th``, ``S.W.3d. 7th``). Anything else reporters-db does not list
(English nominative reports ``2 Vern. 540``, looseleaf services ``20 IDELR 123``, foreign neutral
citations ``2016 SCC 27``) is real more often than not: it is reported as outside what citecheck
verifies (info), never as impossible. A year outside a series' years is ``checks/series_year.py``.
"""

from __future__ import annotations

from collections.abc import Iterator

from citecheck import reporters
from citecheck.checks.base import CheckContext
from citecheck.extract.models import Citation, CiteForm
from citecheck.findings import Evidence, Finding, Kind, make_finding


def impossible_reason(citation: Citation) -> str | None:
    """Why a citation cannot exist, judged from the reporter tables alone; None when it may exist.

    Applies to full and unrecognised citations only (short forms inherit their antecedent's verdict).
    """
    if citation.form is CiteForm.UNRECOGNISED:
        if citation.foreign:
            return None
        reporter = citation.reporter_as_written or citation.reporter or ""
        real = reporters.invented_series(reporter) if reporter else None
        if real is None:
            return None
        return (
            f"“{reporter}” is not a reporter: {real} has no such series, so no case can be cited as "
            f"“{citation.text}”"
        )
    if citation.form is not CiteForm.FULL or citation.database is not None or not citation.reporter:
        return None
    if citation.agency:  # an agency's series: its volumes are not in the reporter tables' ranges
        return None
    if citation.foreign:
        return None
    if citation.volume:
        reason = reporters.volume_problem(citation.reporter, citation.volume)
        if reason:
            return reason
    if citation.page:
        reason = reporters.page_problem(citation.reporter, citation.page)
        if reason:
            return reason
    return None


def outside_reason(citation: Citation) -> str | None:
    """Why citecheck does not verify this citation at all (a foreign or unknown-reporter cite), or None."""
    if citation.foreign:
        article = "an" if citation.foreign[:1] in "AEIOU" else "a"
        return f"“{citation.text}” is {article} {citation.foreign} citation"
    if citation.form is CiteForm.UNRECOGNISED and impossible_reason(citation) is None:
        reporter = citation.reporter_as_written or citation.reporter or "this reporter"
        return (
            f"“{reporter}” is not a case reporter citecheck knows (it may be an early or foreign "
            "nominative report, a looseleaf service, a journal or a record cite)"
        )
    return None


class ImpossibleCitationCheck:
    """An invented reporter series, an impossible volume or page; foreign and unknown cites as info."""

    id = "impossible"
    local = True

    def run(self, ctx: CheckContext) -> Iterator[Finding]:
        c = ctx.citation
        reason = impossible_reason(c)
        if reason:
            yield make_finding(
                Kind.IMPOSSIBLE_CITATION,
                c.span,
                f"Impossible citation: {reason}.",
                evidence=Evidence(source="reporters-db", citation=c.cite_string or c.text, note=reason),
                citation_index=c.index,
            )
            return
        outside = outside_reason(c)
        if outside:
            yield make_finding(
                Kind.CANNOT_VERIFY,
                c.span,
                f"{outside}: outside what citecheck verifies. This is not a finding that the case does not exist.",
                evidence=Evidence(source="reporters-db", citation=c.text, note=outside),
                citation_index=c.index,
            )
