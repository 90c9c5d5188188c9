"""Run the pipeline over a dataset and score it (awaits only the source it is given)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from citecheck.config import Settings
from citecheck.evaluation.scoring import Example, Scores, predictions, score_example
from citecheck.pipeline import check_document
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
        if on_progress:
            on_progress(i + 1)
    return scores
