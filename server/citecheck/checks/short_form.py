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

#: Between a short cite and the parallel short cite right after it ("Young, 128 Tex. at 636-37, 101 S.W.2d
#: at 800-01"): a comma or a semicolon.
_PARALLEL_GAP = re.compile(r"\s*[,;]?\s*")
#: How far back (and on) a quotation that holds a short cite may open (and close), within its paragraph.
_QUOTE_REACH = 1500
_QUOTE = re.compile('["\u201c\u201d]')
#: What comes before a straight quotation mark that opens a quotation.
_OPENS = frozenset(" \n\t([:\u2014-")


def _parallel_after(extraction: Extraction, c: Citation) -> Citation | None:
    """The short cite right after ``c`` that names the same case in another reporter, when it is tied to a
    full citation: ``c``'s case is cited in full, under that reporter (V.D. Anderson Co. v. Young, 101 S.W.2d
    798, then "Young, 128 Tex. at 636-37, 101 S.W.2d at 800-01" in a Texas trial-court filing)."""
    if c.index + 1 >= extraction.citation_count:
        return None
    nxt = extraction.citation(c.index + 1)
    if nxt.form is not CiteForm.SHORT or nxt.antecedent is None or nxt.reporter == c.reporter:
        return None
    gap = extraction.text[c.span.end : nxt.span.start]
    return nxt if _PARALLEL_GAP.fullmatch(gap) else None


def _inside_a_quotation(text: str, start: int, end: int) -> bool:
    """Is ``text[start:end]`` inside a quotation that opens before it and closes after it, in one paragraph?
    A short form there is the quoted court's, tied to a full citation in its own opinion ("Jimenez ...
    explains: \"Trial courts possess inherent ... power to dismiss .... See Rotello, 671 S.W.2d at 509. In a
    dismissal ... the test is due diligence.\"" in a Texas trial-court filing); the draft cannot cite it in
    full inside the quotation."""
    lo = max(text.rfind("\n\n", 0, start), start - _QUOTE_REACH, 0)
    hi = text.find("\n\n", end)
    hi = min(hi if hi >= 0 else len(text), end + _QUOTE_REACH)
    opened = _QUOTE.search(text[lo:start][::-1])  # the nearest quotation mark before
    shut = _QUOTE.search(text, end, hi)  # and after
    if opened is None or shut is None:
        return False
    i, j = start - 1 - opened.start(), shut.start()
    if text[i] == "\u201c" or (
        text[i] == '"' and (i == 0 or text[i - 1] in _OPENS) and text[i + 1 : i + 2].strip()
    ):
        return text[j] == "\u201d" or (text[j] == '"' and bool(text[j - 1 : j].strip()))
    return False


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
            parallel = _parallel_after(ctx.extraction, c)
            if parallel is not None or _inside_a_quotation(text, c.span.start, c.span.end):
                why = (
                    f"a parallel pin to “{parallel.text}”, whose case is cited in full before it, not under "
                    f"{c.reporter}"
                    if parallel is not None
                    else "inside a quotation: the quoted court cites the case in full in its own opinion"
                )
                yield make_finding(
                    Kind.UNRESOLVED_SHORT_FORM,
                    c.span,
                    f"“{c.text}” is {why}, so it was not checked.",
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
