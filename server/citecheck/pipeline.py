"""``check_document``: extraction → ``gather`` (the waiting) → ``judge`` (the checks) → ``Report``.

The pipeline only orchestrates; the language server calls the same three steps itself so it can
judge partial evidence first. A source failure never escapes: the affected citations become
``cannot-verify`` with the reason.
"""

from __future__ import annotations

from concurrent.futures import Executor
from typing import TYPE_CHECKING

from citecheck.config import Settings
from citecheck.extract.models import Extraction
from citecheck.gather import gather
from citecheck.judge import SourceEvidence, judge, local_findings
from citecheck.jurisdiction import Declared
from citecheck.results import CitationResult, Report, Status
from citecheck.sources.base import AuthoritySource
from citecheck.visible import too_large_finding, visible

if TYPE_CHECKING:
    from citecheck.holdings.stage import HoldingStage
    from citecheck.ignores import IgnoreList
    from citecheck.inputs import InputDocument
    from citecheck.report.model import FileResult


def too_large_report(text: str, settings: Settings) -> Report:
    """A document over the size limit: not checked, one finding that says so."""
    findings = visible([too_large_finding(text, settings.max_document_chars)], settings)
    return Report(
        text=text, extraction=Extraction(text=text, citations=()), findings=tuple(findings), results=()
    )


async def check_document(
    text: str,
    source: AuthoritySource | None,
    settings: Settings,
    *,
    extraction: Extraction | None = None,
    executor: Executor | None = None,
    declared: tuple[Declared, ...] = (),
    holdings: HoldingStage | None = None,
    places: tuple[tuple[int, str], ...] = (),
) -> Report:
    """Full check. source None → everything source-backed is cannot-verify. Sends only CiteKeys to the
    source (one batched lookup call), fetches opinions only for the cases it needs, never raises for a
    source failure. ``declared`` names the matter's court where the edge knows it (a .docx custom
    document property); see ``jurisdiction.matter_forum`` for the order of the other places. With a
    ``holdings`` stage, claims are judged on the model endpoint after the sources have answered (a
    failing endpoint gives cannot-verify, never a missing report)."""
    if len(text) > settings.max_document_chars:
        return too_large_report(text, settings)
    if extraction is None:
        from citecheck.extract import extract_citations  # extraction is pure but heavy to import

        extraction = extract_citations(text)
    evidence = await gather(extraction, source, executor=executor) if source is not None else SourceEvidence()
    if holdings is not None:
        evidence = await holdings.gather(extraction, evidence, source)
    return judge(extraction, evidence, settings, declared=declared, places=places)


async def check_input(
    doc: InputDocument,
    source: AuthoritySource | None,
    settings: Settings,
    *,
    ignores: IgnoreList | None = None,
    holdings: HoldingStage | None = None,
    extraction: Extraction | None = None,
) -> tuple[FileResult, Report, int]:
    """One input document as every command checks it (``citecheck check`` per file, each worker of
    ``citecheck batch``): ``check_document`` with the court its .docx properties declare, the findings
    the ignore list dismisses left out, adapted for the reports. One function, so that a batch's
    findings are a check's findings by construction. Returns the file's result, the full report (the
    pacing summary reads it) and how many findings the ignore list hid."""
    from citecheck.report.model import file_result

    report = await check_document(
        doc.text,
        source,
        settings,
        declared=declared_by(doc),
        holdings=holdings,
        extraction=extraction,
        places=places_of(doc),
    )
    hidden = 0
    if ignores is not None and len(ignores):
        kept = visible(report.findings, settings, ignores, extraction=report.extraction, text=doc.text)
        hidden = len(report.findings) - len(kept)
        shown = report.with_findings(kept)
    else:
        shown = report
    return (
        file_result(doc.name, doc.kind, doc.text, shown, doc.pages, doc.places, doc.unread_pages),
        report,
        hidden,
    )


def places_of(doc: InputDocument) -> tuple[tuple[int, str], ...]:
    """Where each page of a PDF (``"page 3"``, its own label) or each paragraph of a .docx begins: how a
    finding names another place of the document (a line of text extracted from a PDF means nothing to a
    reader of the PDF)."""
    if doc.pages:
        return tuple((offset, f"page {label}") for offset, label in doc.pages)
    return doc.places


def declared_by(doc: InputDocument) -> tuple[Declared, ...]:
    """The matter's court as a .docx custom document property (``court``, ``question``), if set."""
    court, question = (
        doc.custom_property("court", "citecheck.court"),
        doc.custom_property("question", "citecheck.question"),
    )
    if not court and not question:
        return ()
    return (Declared(court=court, question=question, origin="document property"),)


__all__ = [
    "CitationResult",
    "Report",
    "SourceEvidence",
    "Status",
    "check_document",
    "check_input",
    "declared_by",
    "judge",
    "local_findings",
    "places_of",
    "too_large_report",
]
