"""Pin cites that no court would accept as written (a range that runs backwards, an unreadable pin); local, pure.

Valid pins that name no checkable page (``at ___``, ``Id. at n. 18``, ``Id., at S3884``) are not malformed:
the extractor keeps them without pages (``extract/pincites.py``).
"""

from __future__ import annotations

from collections.abc import Iterator

from citecheck.checks.base import CheckContext
from citecheck.findings import Finding, Kind, make_finding


class MalformedPinciteCheck:
    id = "malformed_pincite"
    local = True

    def run(self, ctx: CheckContext) -> Iterator[Finding]:
        pin = ctx.citation.pincite
        if pin is None:
            return
        reason = pin.malformed
        if reason is None:
            for part in pin.parts:
                if (
                    part.last
                    and part.first.isdigit()
                    and part.last.isdigit()
                    and int(part.last) < int(part.first)
                ):
                    reason = f"the range {part.first}–{part.last} runs backwards"
                    break
        if reason:
            yield make_finding(
                Kind.MALFORMED_PINCITE,
                pin.span,
                f"The pin cite “{pin.text}” is malformed: {reason}.",
                citation_index=ctx.citation.index,
            )
