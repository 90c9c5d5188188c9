"""opinion-unavailable: a quote or pin cite whose case's text could not be fetched says so.

Why: quote and pin-cite checks need the opinion text. When fetching it failed (the service's
allowance ran out, the server was down, its answer was unusable), those checks have nothing to
compare and would pass in silence; a lawyer must see that they were not run, and why.
"""

from __future__ import annotations

from collections.abc import Iterator

from citecheck.checks.base import CheckContext, record_evidence
from citecheck.findings import Finding, Kind, make_finding


class OpinionUnavailableCheck:
    id = "opinion_text"
    local = False

    def run(self, ctx: CheckContext) -> Iterator[Finding]:
        c = ctx.citation
        if ctx.record is None or ctx.opinion is not None or not ctx.opinion_unavailable:
            return
        what = [w for w, has in (("quotation", bool(c.quotes)), ("pin cite", c.pincite is not None)) if has]
        if not what:
            return
        yield make_finding(
            Kind.OPINION_UNAVAILABLE,
            c.span,
            f"The {' and '.join(what)} of {ctx.record.name} could not be checked: the opinion text is not "
            f"available ({ctx.opinion_unavailable}).",
            evidence=record_evidence(ctx, note=ctx.opinion_unavailable),
            citation_index=c.index,
        )
