"""Run the pipeline over a dataset and score it (awaits only the source it is given)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from citecheck.config import Settings
from citecheck.evaluation.fix_scoring import (
    FixTruth,
    apply_fix,
    correction_fixes,
    edited_region,
    fixed_citation_index,
    is_right,
)
from citecheck.evaluation.scoring import Example, Scores, predictions, score_example
from citecheck.findings import Severity
from citecheck.pipeline import check_document
from citecheck.results import Report
from citecheck.sources.base import AuthoritySource

if TYPE_CHECKING:
    from citecheck.holdings.stage import HoldingStage


async def evaluate(
    examples: Sequence[Example],
    source: AuthoritySource | None,
    settings: Settings,
    *,
    on_progress: Callable[[int], None] | None = None,
    holdings: HoldingStage | None = None,
) -> Scores:
    """Check every example's text and score the error/warning findings against its gold spans.

    With a ``holdings`` stage the holding judge runs too, so misrepresentation items can be scored.
    """
    scores = Scores()
    for i, ex in enumerate(examples):
        report = await check_document(ex.text, source, settings, holdings=holdings)
        score_example(scores, ex, predictions(ex.text, report.findings))
        if ex.fix is not None:
            await _score_fixes(scores, ex, ex.fix, report, source, settings)
        if on_progress:
            on_progress(i + 1)
    return scores


async def _score_fixes(
    scores: Scores,
    ex: Example,
    truth: FixTruth,
    report: Report,
    source: AuthoritySource | None,
    settings: Settings,
) -> None:
    """Apply each correction fix, extract again, judge it against ``truth``; re-check the first right one."""
    from citecheck.extract import extract_citations

    fixes = correction_fixes(report.findings)
    right: list[bool] = []
    first_right: tuple[str, int | None] | None = None
    for _, fix in fixes:
        fixed = apply_fix(ex.text, fix)
        extraction = extract_citations(fixed)
        region = edited_region(ex.text, fix)
        ok = is_right(extraction, region, truth)
        right.append(ok)
        if ok and first_right is None:
            first_right = (fixed, fixed_citation_index(extraction, region))
    clean: bool | None = None
    if first_right is not None:
        fixed, index = first_right
        again = await check_document(fixed, source, settings)
        clean = not any(
            f.citation_index == index and f.severity in (Severity.ERROR, Severity.WARNING)
            for f in again.findings
        )
    scores.fixes.add(ex.id or "?", truth, fixes, right, clean)
