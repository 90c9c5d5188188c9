"""overruled / negatively-treated: a cited case that later courts overruled, abrogated, superseded, disapproved.

Why: a real case, quoted exactly, at the right page, can still sink a brief. The treatments come from the
sources (``sources/treatment/``: the Congress.gov table of decisions overruled, the treatment table, an online
search) in ``CheckContext.treatments``. Never an accusation on a guess:

- nothing when the draft gives the history itself (``treatment/acknowledge.py``);
- a **warning** by default; an **error** only when the whole case was overruled, the words are certain (the
  Library of Congress's table, or the overruling court's own opinion — never a report or a parenthetical read
  by a rule) and the overruling court binds the court the document is filed in;
- one finding per case (at its first full citation): later citations of the same case are the same point;
- nothing on a citation of a Justice's or judge's own opinion (``Whitney v. California, 274 U. S. 357, 375
  (1927) (Brandeis, J., concurring)``, ``Korematsu …, 323 U. S. 214, 242 (1944) (Murphy, J., dissenting)``,
  as the Supreme Court cites them in 303 Creative): an overruling overrules the court's opinion, not a
  concurrence or a dissent (the finding goes to the case's first full citation of the court's opinion);
- silence is not "good law": a citation with no treatment gets no finding, and the reports say which data
  were asked (``results.CitationResult.treatment``).
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence

from citecheck.checks.base import CheckContext
from citecheck.extract.models import Citation, CiteForm
from citecheck.findings import Evidence, Finding, Fix, Kind, Severity, TextEdit, make_finding
from citecheck.jurisdiction import Weight, weigh
from citecheck.spans import Span
from citecheck.treatment.models import CERTAIN_BASES, STRENGTH, Treatment, TreatmentKind


def strongest(treatments: Sequence[Treatment]) -> Treatment:
    """The treatment a finding reports: a whole overruling first, then the strongest basis, then the most
    specific (a named treating case before an unnamed one)."""
    return min(
        treatments, key=lambda t: (not t.overruled, STRENGTH[t.basis], t.treating is None, not t.whole)
    )


#: ``(Brandeis, J., concurring)``, ``(Rehnquist, C. J., dissenting)``, ``(Thomas, J., concurring in part and
#: dissenting in part)``, ``(Mur-⏎phy, J., dissenting)``: a separate opinion, not the court's
_SEPARATE_OPINION = re.compile(r"\bJJ?\.,?\s+(?:concurring|dissenting)\b")


def separate_opinion(c: Citation) -> bool:
    """Does the citation cite a concurring or dissenting opinion (its parenthetical says so)?"""
    return any(_SEPARATE_OPINION.search(p.text) for p in c.parentheticals)


def _first_of_case(ctx: CheckContext) -> bool:
    """Is this the first full citation of its case's opinion in the document (a later one repeats the
    point; one of a separate opinion cites no overruled holding)?"""
    c = ctx.citation
    keys = {k for k in (c.key,) if k is not None}
    for o in ctx.extraction.citations:
        if o.index >= c.index:
            return True
        if o.form is CiteForm.FULL and o.key in keys and not separate_opinion(o):
            return False
    return True


def history_phrase(t: Treatment) -> str:
    """What the fix adds after the citation: ``, overruled by Lawrence v. Texas, 539 U.S. 558 (2003)``."""
    if t.treating is None:
        return ""
    return f", {t.phrase()} {t.treating.describe()}"


def _severity(t: Treatment, ctx: CheckContext) -> tuple[Severity, str]:
    """Error only on certainty and binding force; otherwise a warning, and why (for the evidence's note)."""
    if not t.overruled:
        return Severity.WARNING, "not an overruling of the whole case"
    if t.basis not in CERTAIN_BASES:
        return Severity.WARNING, "read from another court's words by a rule, which can misread them"
    if t.treating is None or ctx.forum is None:
        return Severity.WARNING, "the court this document is filed in is not known"
    weight = weigh(t.treating.court, ctx.forum, year=t.treating.year)
    if weight.weight is Weight.BINDING:
        return Severity.ERROR, f"{weight.reason} ({ctx.forum.name})"
    return Severity.WARNING, f"the overruling court does not bind the {ctx.forum.name}: {weight.reason}"


def _message(t: Treatment, name: str) -> str:
    by = f" by {t.treating.describe()}" if t.treating is not None else ""
    what = t.kind.verb if t.kind is not TreatmentKind.OVERRULED or t.whole else "was overruled in part"
    said = ""
    if t.quote:
        where = (
            f" ({t.quoted_from.describe()})"
            if t.quoted_from is not None and t.quoted_from != t.treating
            else ""
        )
        said = f": “{t.quote}”{where}"
    src = f" Source: {t.source}." if t.source else ""
    return f"{name} {what}{by}{said}.{src} Check that the point you cite it for survives.".replace("..", ".")


def _evidence(t: Treatment, note: str) -> Evidence:
    treating = t.treating
    return Evidence(
        source=t.source or t.basis.value,
        record_id=treating.record_id if treating else None,
        case_name=treating.name if treating else None,
        citation=treating.citation if treating else None,
        court=(treating.court_name or treating.court) if treating else None,
        date=str(treating.year) if treating and treating.year else None,
        url=t.url or (treating.url if treating else None),
        passage=t.quote,
        draft=t.cited.describe(),
        note="; ".join(x for x in (f"{t.kind.value}{'' if t.whole else ' (in part)'}", t.note, note) if x),
    )


def _fix(t: Treatment, c: Citation, ctx: CheckContext) -> tuple[Fix, ...]:
    from citecheck.treatment.language import own_end  # its sentence reader's regexes: ~25 ms to import

    phrase = history_phrase(t)
    if not phrase:
        return ()
    group = [o for o in ctx.extraction.citations if o.form is CiteForm.FULL and o.group == c.group] or [c]
    at = max(max(own_end(o) for o in group), max(o.full_span.end for o in group))
    return (
        Fix(
            title=f"Add the subsequent history: {phrase.lstrip(', ')}",
            edits=(TextEdit(span=Span(at, at), new_text=phrase),),
            why=f"{t.source or 'the treatment data'} says so",
        ),
    )


class TreatmentCheck:
    id = "treatment"
    local = False

    def run(self, ctx: CheckContext) -> Iterator[Finding]:
        c = ctx.citation
        if (
            c.form is not CiteForm.FULL
            or not ctx.treatments
            or separate_opinion(c)
            or not _first_of_case(ctx)
        ):
            return
        # imported here: a document that cites no treated case need not compile its regexes (issue 40)
        from citecheck.treatment.acknowledge import acknowledged

        if acknowledged(ctx.extraction, c) is not None:
            return
        t = strongest(ctx.treatments)
        severity, why = _severity(t, ctx)
        name = (ctx.record.name if ctx.record else None) or (
            c.case_name.text if c.case_name else t.cited.name
        )
        kind = Kind.OVERRULED if t.overruled else Kind.NEGATIVELY_TREATED
        yield make_finding(
            kind,
            c.span,
            _message(t, name),
            evidence=_evidence(t, why),
            fixes=_fix(t, c, ctx),
            citation_index=c.index,
            severity=severity,
        )
