"""A provision of the U.S. Constitution that does not exist (``art. VIII``, ``amend. XXXI``, ``art. I, §
11``, ``art. I, § 8, cl. 19``): an impossible citation, judged from the Constitution's own structure with
no lookup (issue 41 item 2); pure.

An article numbered as an amendment is (``U.S. Const., art. XIV``, as older opinions write the Fourteenth
Amendment) is a warning proposing ``amend. XIV``, never an error. Only a citation that names the U.S.
Constitution is judged (``U.S. Const.``, ``the United States
Constitution``): a bare ``art. I, § 11`` may be a state's, whose constitutions are not known here. An
amendment's unnumbered paragraphs are not judged (a court that numbers them is not wrong).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

from citecheck.checks.base import CheckContext
from citecheck.extract.constitutions import US_SOURCE, amendment_as_article, to_roman, us_provision_problem
from citecheck.extract.models import CiteForm
from citecheck.findings import Evidence, Finding, Fix, Kind, Severity, TextEdit, make_finding


class ConstitutionCheck:
    """``U.S. Const. art. VIII``: the provision is not in the Constitution (local, no lookup)."""

    id = "constitution"
    local = True

    def run(self, ctx: CheckContext) -> Iterator[Finding]:
        c = ctx.citation
        if c.form is not CiteForm.STATUTE or c.statute is None:
            return
        statute = ctx.extraction.statute_of(c)
        if statute is None:
            return
        written = " ".join(c.text.split())
        reason = us_provision_problem(statute)
        if reason is not None:
            yield make_finding(
                Kind.IMPOSSIBLE_CITATION,
                c.span,
                f"Impossible citation: “{written}” cites a provision of the U.S. Constitution that does not "
                f"exist: {reason}.",
                evidence=Evidence(source=US_SOURCE, citation=str(statute), note=reason),
                citation_index=c.index,
            )
            return
        n = amendment_as_article(statute)
        if n is None:
            return
        # a likely slip, not an invented provision: a warning that proposes the amendment
        right = replace(statute, title=f"amend. {to_roman(n)}")
        note = (
            f"the Constitution has seven articles (I to VII); “art. {to_roman(n)}” reads as Amendment {to_roman(n)}, "
            "as older opinions number the amendments"
        )
        yield make_finding(
            Kind.IMPOSSIBLE_CITATION,
            c.span,
            f"“{written}”: {note}. Cite it as “{right}”.",
            evidence=Evidence(source=US_SOURCE, citation=str(statute), note=note),
            fixes=(Fix(title=f"Cite {right}", edits=(TextEdit(span=c.span, new_text=str(right)),)),),
            citation_index=c.index,
            severity=Severity.WARNING,
        )
