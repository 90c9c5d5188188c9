"""One citation given two spellings of a name in one document (``same-citation-two-names``); pure.

A California advice letter cited *Stigall v. City of Taft* (1962) 58 Cal.2d 565 and, further on, *Sigall v.
City of Taft*, 58 Cal.2d 565: no source is needed to see that one of the two names is wrong, yet nothing said
so while the case could not be verified. Only names one slip apart are compared (``compare_names`` says
"misspelled"): two wholly different names at one first page can both be right (several short decisions or
table entries begin on one page of a reporter), so they say nothing. Where a source knows the case, the name
checks already say which name is wrong, and this finding steps aside. On 1,100 First Circuit opinions it
found 5, each a real typo of the court's ("Perez-Guzman v. Gracia" / "Garcia", "Aiello" / "Aeillo").
"""

from __future__ import annotations

from collections.abc import Sequence

from citecheck.checks.base import where_in
from citecheck.checks.name_match import NameVerdict, compare_names
from citecheck.extract.models import Citation, CiteForm, Extraction
from citecheck.findings import Confidence, Evidence, Finding, Fix, Kind, TextEdit, make_finding

#: Name findings that already say, from a source, which name is wrong.
_NAME_KINDS = frozenset({Kind.NAME_MISMATCH, Kind.NAME_MISSPELLED})


def _same_but_spacing(a: str, b: str) -> bool:
    """``Brecedav. Whi`` and ``Breceda v. Whi``: a PDF's text layer drops and adds spaces (a Texas trial
    court's order of referral, LEGAL_DESTROYER @ 795b0a8), which a reader of the page never sees."""
    return "".join(a.split()).casefold() == "".join(b.split()).casefold()


def two_names(
    extraction: Extraction, findings: Sequence[Finding], places: Sequence[tuple[int, str]] = ()
) -> list[Finding]:
    """A warning on each full citation whose name is a misspelling of the name an earlier full citation
    of the same volume, reporter and page gives it; ``places`` say where the earlier one is (``where_in``)."""
    named = {f.citation_index for f in findings if f.kind in _NAME_KINDS and f.citation_index is not None}
    first: dict[tuple[str, str, str], Citation] = {}
    out: list[Finding] = []
    for c in extraction.citations:
        if c.form is not CiteForm.FULL or c.key is None or c.case_name is None:
            continue
        earlier = first.setdefault(c.key, c)
        if earlier is c or earlier.case_name is None or c.index in named or earlier.index in named:
            continue
        mine, theirs = c.case_name.text, earlier.case_name.text
        if _same_but_spacing(mine, theirs) or NameVerdict.MATCH in (
            compare_names(mine, [theirs]).verdict,
            compare_names(theirs, [mine]).verdict,
        ):
            continue
        if compare_names(mine, [theirs]).verdict is not NameVerdict.MISSPELLED:
            continue
        cite = " ".join(c.key)
        where = where_in(extraction.text, places, earlier.span.start)
        out.append(
            make_finding(
                Kind.SAME_CITATION_TWO_NAMES,
                c.case_name.span,
                f"{cite} is named “{theirs}” {where} and “{mine}” here: one of the two names is misspelled.",
                evidence=Evidence(
                    source="draft",
                    citation=cite,
                    draft=mine,
                    case_name=theirs,
                    note=f"the same citation named “{theirs}” {where}",
                ),
                fixes=(
                    Fix(
                        title=f"Name it “{theirs}”, as {where}",
                        edits=(TextEdit(span=c.case_name.span, new_text=theirs),),
                        why="the name the document gives this citation before",
                        confidence=Confidence.LOW,
                        preferred=False,  # which of the two is right, only the case says
                    ),
                ),
                citation_index=c.index,
            )
        )
    return out
