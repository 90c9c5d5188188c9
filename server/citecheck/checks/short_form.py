"""Short forms (Id., supra, "Roe, 410 U.S. at 116") that refer to no full citation; local and pure.

Short forms that do resolve are checked by the other checks against their antecedent's case.

Severity depends on what the short form could refer to. A reporter short cite ("Roe, 410 U.S. at
116") can only mean a case, so one without an earlier full cite is a warning. "Id." and "supra" very
often refer to a statute, the record or a treatise, which are not case citations: they are info.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from citecheck.checks.base import CheckContext
from citecheck.extract.models import Citation, CiteForm, Extraction
from citecheck.findings import Finding, Kind, Severity, make_finding

#: Just before a short cite: a pin to something else it parallels ("majority op. at 172, 100 A.3d at
#: 1137"; "Id. at 173, 100 A.3d at 1138") or a footnote holding the full cite ("Atkins, supra note 1,
#: 536 U.S. at 318"). The case is cited where we cannot see it (the opinion itself, a footnote).
_PARALLEL_BEFORE = re.compile(r"(?:\bat\s+\d+(?:\s?[-\u2013]\s?\d+)?|\bsupra,?\s+note\s+\d+),\s*$")

_NOTE_AFTER = re.compile(r",?\s*supra,?\s+note\s+\d+")

_SHORT_FORMS = frozenset({CiteForm.SHORT, CiteForm.ID, CiteForm.SUPRA, CiteForm.REFERENCE})


def earlier_full_cites(extraction: Extraction, c: Citation) -> list[str]:
    """``"volume reporter page"`` of the FULL citations before ``c`` from its volume (an incremental
    extraction answers from its resolution records instead of building every citation before ``c``)."""
    return extraction.earlier_full_cites(c.index, c.volume, c.reporter)


class UnresolvedShortFormCheck:
    id = "short_form"
    local = True

    def run(self, ctx: CheckContext) -> Iterator[Finding]:
        c = ctx.citation
        if c.form not in _SHORT_FORMS or c.antecedent is not None:
            return
        if c.form is CiteForm.SHORT and c.reporter:
            earlier = earlier_full_cites(ctx.extraction, c)
            text = ctx.extraction.text
            if _PARALLEL_BEFORE.search(text, max(0, c.span.start - 40), c.span.start) or _NOTE_AFTER.match(
                text, c.span.end
            ):
                yield make_finding(
                    Kind.UNRESOLVED_SHORT_FORM,
                    c.span,
                    f"“{c.text}” is a parallel pin to the citation before it, whose case is not cited in "
                    "full here (the opinion itself, or a footnote), so it was not checked.",
                    citation_index=c.index,
                    severity=Severity.INFO,
                )
                return
            if earlier:
                # the volume was cited, but the pin fits none of its cases (or two): say so, do not guess
                cites = "; ".join(sorted(set(earlier)))
                yield make_finding(
                    Kind.UNRESOLVED_SHORT_FORM,
                    c.span,
                    f"“{c.text}” could not be tied to one case: the cases cited earlier from {c.volume} "
                    f"{c.reporter} ({cites}) do not settle which one holds page "
                    f"{c.pincite.text if c.pincite else '?'}, so it was not checked. Add the case name.",
                    citation_index=c.index,
                    severity=Severity.INFO,
                )
                return
            yield make_finding(
                Kind.UNRESOLVED_SHORT_FORM,
                c.span,
                f"Unresolved short form: no case cited earlier in full matches “{c.text}”. "
                "Cite the case in full the first time it appears.",
                citation_index=c.index,
            )
            return
        what = {
            CiteForm.ID: "“Id.” does not follow a case citation",
            CiteForm.SUPRA: f"“{c.antecedent_text or c.text}, supra” names no case cited earlier in full",
        }.get(c.form, f"“{c.text}” matches no case cited earlier in full")
        yield make_finding(
            Kind.UNRESOLVED_SHORT_FORM,
            c.span,
            f"{what}, so it was not checked. If it refers to a statute, the record or another source, "
            "nothing is wrong.",
            citation_index=c.index,
            severity=Severity.INFO,
        )
