"""A year outside the years a reporter series holds; pure, no lookup.

The volume may be right and the year a typo, or the year right and the citation invented: the check
cannot tell which, so it is a warning that says so, never an impossible citation. Only series whose
years we audited (``citecheck.reporters.SERIES_YEARS``) are judged.
"""

from __future__ import annotations

from collections.abc import Iterator

from citecheck import reporters
from citecheck.checks.base import CheckContext
from citecheck.checks.impossible import impossible_reason
from citecheck.extract.models import CiteForm
from citecheck.findings import Evidence, Finding, Kind, Severity, make_finding


class SeriesYearCheck:
    """``15 S.W.3d 100 (Tex. 1986)``: S.W.3d began in 1999; either the year or the citation is wrong."""

    id = "series_year"
    local = True

    def run(self, ctx: CheckContext) -> Iterator[Finding]:
        c = ctx.citation
        if c.form is not CiteForm.FULL or c.database is not None or c.foreign or c.agency:
            return
        if not c.reporter or not c.year:
            return
        if impossible_reason(c):
            return  # already an impossible citation; one finding is enough
        reason = reporters.series_year_problem(c.reporter, c.year)
        if reason is None:
            return
        years = reporters.SERIES_YEARS[c.reporter]
        yield make_finding(
            Kind.YEAR_MISMATCH,
            # either part can be wrong, so the finding covers both (not the parenthetical alone)
            c.span.union(c.date_span) if c.date_span is not None else c.span,
            f"{reason}: either the year or the citation is wrong.",
            severity=Severity.WARNING,
            evidence=Evidence(source="citecheck reporter table", citation=c.cite_string, note=years.source),
            citation_index=c.index,
        )
