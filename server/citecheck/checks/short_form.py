"""Short forms (Id., supra, "Roe, 410 U.S. at 116") that refer to no full citation; local and pure.

Short forms that do resolve are checked by the other checks against their antecedent's case.
"""

from __future__ import annotations

from collections.abc import Iterator

from citecheck.checks.base import CheckContext
from citecheck.extract.models import CiteForm
from citecheck.findings import Finding, Kind, make_finding

_SHORT_FORMS = frozenset({CiteForm.SHORT, CiteForm.ID, CiteForm.SUPRA, CiteForm.REFERENCE})


class UnresolvedShortFormCheck:
    id = "short_form"
    local = True

    def run(self, ctx: CheckContext) -> Iterator[Finding]:
        c = ctx.citation
        if c.form in _SHORT_FORMS and c.antecedent is None:
            what = {
                CiteForm.ID: "“Id.” has no preceding citation to refer to",
                CiteForm.SUPRA: f"“{c.antecedent_text or c.text}, supra” names no case cited earlier in full",
            }.get(c.form, f"the short form “{c.text}” matches no case cited earlier in full")
            yield make_finding(
                Kind.UNRESOLVED_SHORT_FORM,
                c.span,
                f"Unresolved short form: {what}. Cite the case in full the first time it appears.",
                citation_index=c.index,
            )
