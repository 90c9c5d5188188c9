"""The contract between the engine and its edges: ``Report``, ``CitationResult`` and ``Status``.

The language server, the CLI and its reports, the Word backend and any later stage accept these
types and nothing looser. A citation's status is decided here and only here (``status_for``): the
sources give a *basis* (verified, cannot-verify, not-checked) and the findings shown on the
citation may turn it into a problem. An edge that hides findings (settings, the ignore list) calls
``Report.with_findings`` and gets statuses recomputed by the same rule. Pure: no I/O.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import TYPE_CHECKING

from citecheck.extract.models import Citation, CiteForm, Extraction
from citecheck.findings import Finding, Severity
from citecheck.jurisdiction.weight import Assessment, Forum
from citecheck.sources.models import CaseRecord, LookupResult
from citecheck.sources.statutes.records import SectionRecord
from citecheck.treatment.models import TreatmentNote

if TYPE_CHECKING:  # the holdings package imports the checks, which import this module
    from citecheck.holdings.models import HoldingResult


class Status(StrEnum):
    """Per-citation outcome shown by every edge."""

    PROBLEM = "problem"  # at least one warning or error finding on it
    CANNOT_VERIFY = "cannot-verify"  # no source we have covers it
    NOT_CHECKED = "not-checked"  # nothing to look up (e.g. short form without antecedent)
    VERIFIED = "verified"  # found in a source and no problem was raised


def basis_for(
    citation: Citation, full: Citation | None, record: CaseRecord | None, statute: SectionRecord | None = None
) -> Status:
    """What the sources alone say about a citation, before any finding is counted.

    ``full`` is the full citation it stands for (itself for a full cite), ``record`` the case that
    full citation matched; ``statute`` the section a statute or regulation citation matched in the
    statute index.
    """
    if record is not None or statute is not None:
        return Status.VERIFIED
    if full is None or (
        citation.form is CiteForm.FULL and citation.key is None and citation.database is None
    ):
        return Status.NOT_CHECKED
    return Status.CANNOT_VERIFY


def status_for(basis: Status, findings: Iterable[Finding]) -> Status:
    """The one rule: a warning or an error on a citation makes it a problem; info never does.

    >>> from citecheck.findings import Kind, make_finding
    >>> from citecheck.spans import Span
    >>> status_for(Status.VERIFIED, [make_finding(Kind.YEAR_MISMATCH, Span(0, 1), "year")])
    <Status.PROBLEM: 'problem'>
    >>> status_for(Status.CANNOT_VERIFY, [make_finding(Kind.CANNOT_VERIFY, Span(0, 1), "no source")])
    <Status.CANNOT_VERIFY: 'cannot-verify'>
    """
    if any(f.severity is not Severity.INFO for f in findings):
        return Status.PROBLEM
    return basis


@dataclass(frozen=True, slots=True, kw_only=True)
class CitationResult:
    """What the engine knows about one citation: its status, the case it matched and the passage used."""

    citation_index: int
    status: Status
    basis: Status  # the status before findings (see ``basis_for``)
    record: CaseRecord | None = None  # the matched case (for short forms: the case their antecedent matched)
    lookup: LookupResult | None = None
    page_used: str | None = None  # page where the quoted passage / proposition was located
    passage: str | None = None  # opinion text compared
    holding: HoldingResult | None = (
        None  # the holding judge's result for this citation's claim, if it was judged
    )
    pending_until: float | None = None  # part of its checking waits for the service's allowance (epoch s)
    weight: Assessment | None = (
        None  # binding / persuasive / unknown where the document is filed (None: no case)
    )
    statute: SectionRecord | None = None  # the section a statute or regulation citation matched
    #: what later courts did to the cited case, and in which data we looked (None: not a case citation)
    treatment: TreatmentNote | None = None

    @property
    def reason(self) -> str:
        """Why it could not be verified, in the source's words ("" when it could)."""
        return (self.lookup.reason or "") if self.lookup is not None else ""


@dataclass(frozen=True, slots=True, kw_only=True)
class Report:
    """One checked document. ``findings`` are sorted by span with the settings applied.

    ``results`` holds one ``CitationResult`` per citation, in the extraction's order; it is empty
    while ``complete`` is False (the language server's local first wave: findings from what is on
    this machine, statuses still pending the network).
    """

    text: str
    extraction: Extraction
    findings: tuple[Finding, ...]
    results: tuple[CitationResult, ...]
    complete: bool = True
    forum: Forum | None = None  # the court the document is filed in, when known (docs/jurisdiction.md)

    def result(self, index: int) -> CitationResult | None:
        """The result of citation ``index`` (None while the report is incomplete)."""
        if 0 <= index < len(self.results) and self.results[index].citation_index == index:
            return self.results[index]
        return next((r for r in self.results if r.citation_index == index), None)

    def with_findings(self, findings: Iterable[Finding]) -> Report:
        """The same report showing only ``findings`` (a filtered subset), statuses recomputed."""
        kept = tuple(findings)
        per: dict[int, list[Finding]] = {}
        for f in kept:
            if f.citation_index is not None:
                per.setdefault(f.citation_index, []).append(f)
        results = tuple(
            r
            if (s := status_for(r.basis, per.get(r.citation_index, ()))) is r.status
            else replace(r, status=s)
            for r in self.results
        )
        return replace(self, findings=kept, results=results)


__all__ = ["CitationResult", "Report", "Status", "basis_for", "status_for"]
