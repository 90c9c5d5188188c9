"""Does the cited case support the proposition? Turns the holding judge's result into a finding; pure.

The judging itself (retrieval, the model, validation, quote verification) happened before, in
``citecheck.holdings``; its result reaches this check through ``CheckContext.holding``, set only on the
citation that owns the claim (the first citation of the draft citing that case for that proposition).
"""

from __future__ import annotations

from collections.abc import Iterator

from citecheck.checks.base import CheckContext
from citecheck.findings import Finding


class HoldingCheck:
    id = "holding"
    local = False

    def run(self, ctx: CheckContext) -> Iterator[Finding]:
        if ctx.holding is None:
            return
        from citecheck.holdings.verdicts import finding_for

        f = finding_for(ctx.holding, ctx.citation.span, ctx.citation.index)
        if f is not None:
            yield f
