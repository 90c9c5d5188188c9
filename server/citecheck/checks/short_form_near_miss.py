"""A short form that matches no full citation, one slip from one the document gives: the fix; pure.

Real filings wrote ``Public Citizen, 740 F.3d at 271`` for a case cited in full at ``749 F.3d 246`` and
``Smith, 971 F.2d at 326`` for one at ``971 F.3d 310``, and were only told to "cite the case in full", though
the right citation stood a page earlier. The document's own earlier full citations are searched for the
volume one digit off (changed, swapped, dropped or added) or the other series of the reporter, the page of
the pin at or after its first page (within ``_REACH`` pages), and a name that contains the name the short
form gives. One such citation: the unresolved-short-form warning says which and offers it. Several or none,
or a short form with no name: the finding stays as it was. On 1,100 First Circuit opinions this named the
right case for 17 of the courts' own slips (``Holland, 452 U.S. at 432-33`` for Missouri v. Holland, 252 U.S.
416) and, before names were required, a wrong one for three unnamed ones (``457 U.S. at 643``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace

from citecheck.checks.base import where_in
from citecheck.checks.corrections.near_miss import _digit_slips
from citecheck.extract.models import Citation, CiteForm, Extraction
from citecheck.findings import Confidence, Evidence, Finding, Fix, Kind, TextEdit
from citecheck.reporters import series_siblings
from citecheck.spans import Span

#: How far past a case's first page a pin may fall and still be read as the same case's page.
_REACH = 150


def _pin(c: Citation) -> int | None:
    if c.pincite is None:
        return None
    for part in c.pincite.parts:
        if not part.star and part.first.isdigit():
            return int(part.first)
    return None


def _names(c: Citation) -> str:
    return " ".join((c.case_name.text if c.case_name else "").lower().split())


def _candidates(c: Citation, fulls: dict[tuple[str, str], list[Citation]]) -> list[tuple[Citation, str]]:
    assert c.volume is not None and c.reporter is not None
    pin = _pin(c)
    if pin is None:
        return []
    wanted = [
        (v, c.reporter, f"{why} in the volume ({c.volume} for {v})") for v, why in _digit_slips(c.volume)
    ]
    wanted += [(c.volume, r, f"the wrong series ({c.reporter} for {r})") for r in series_siblings(c.reporter)]
    short = " ".join((c.antecedent_text or "").lower().split())
    if not short:  # "457 U.S. at 643" in a real opinion meant a case it never cited in full, not 447 U.S. 557
        return []
    out: list[tuple[Citation, str]] = []
    seen: set[tuple[str, str, str]] = set()
    for volume, reporter, why in wanted:
        for f in fulls.get((volume, reporter), ()):
            if f.index >= c.index or f.key is None or f.key in seen or not (f.page or "").isdigit():
                continue
            if not int(f.page or 0) <= pin <= int(f.page or 0) + _REACH:
                continue
            if not re.search(rf"(?<!\w){re.escape(short)}(?!\w)", _names(f)):
                continue
            seen.add(f.key)
            out.append((f, why))
    return out


def _volume_and_reporter(text: str, c: Citation) -> Span | None:
    """Where ``740 F.3d`` stands inside the short form as written."""
    written = c.reporter_as_written or c.reporter or ""
    inside = c.span.of(text)
    m = re.search(rf"(?<!\d){re.escape(c.volume or '')}\s+{re.escape(written)}", inside)
    return Span(c.span.start + m.start(), c.span.start + m.end()) if m else None


def _unresolved_short_cite(extraction: Extraction, f: Finding) -> Citation | None:
    """The short citation naming a volume and reporter an unresolved-short-form finding is about, if any."""
    if f.kind is not Kind.UNRESOLVED_SHORT_FORM or f.citation_index is None:
        return None
    c = extraction.citation(f.citation_index)
    ok = c.form is CiteForm.SHORT and c.volume and c.reporter and c.antecedent is None
    return c if ok else None


def _told(
    extraction: Extraction,
    f: Finding,
    c: Citation,
    full: Citation,
    why: str,
    where: Span,
    places: Sequence[tuple[int, str]],
) -> Finding:
    """The finding saying which full citation the short form is one slip from, with it as the fix."""
    name = full.case_name.text if full.case_name else ""
    cite = f"{full.volume} {full.reporter} {full.page}"
    new = f"{full.volume} {full.reporter}"
    at = where_in(extraction.text, places, full.span.start)
    return replace(
        f,
        message=(
            f"“{c.text}” matches no case cited in full before it, but {name + ', ' if name else ''}{cite}, "
            f"cited in full {at}, is one slip away ({why}): the short form likely means it."
        ),
        evidence=Evidence(source="draft", case_name=name or None, citation=cite, note=why),
        fixes=(
            Fix(
                title=f"Change “{where.of(extraction.text)}” to “{new}”",
                edits=(TextEdit(span=where, new_text=new),),
                why=f"{why}; its name is that case's ({cite}, cited in full above)",
                confidence=Confidence.HIGH,
            ),
        ),
    )


def near_miss_short_forms(
    extraction: Extraction, findings: Sequence[Finding], places: Sequence[tuple[int, str]] = ()
) -> list[Finding]:
    """``findings`` with each unresolved short form that is one slip from a full citation of the document
    told so, and given that citation as a fix; ``places`` say where that citation is (``where_in``)."""
    todo = [(f, c) for f in findings if (c := _unresolved_short_cite(extraction, f)) is not None]
    if not todo:
        return list(findings)
    fulls: dict[tuple[str, str], list[Citation]] = {}
    for x in extraction.citations:
        if x.form is CiteForm.FULL and x.volume and x.reporter:
            fulls.setdefault((x.volume, x.reporter), []).append(x)
    changed: dict[int, Finding] = {}
    for f, c in todo:
        found = _candidates(c, fulls)
        where = _volume_and_reporter(extraction.text, c)
        if len(found) == 1 and where is not None:
            changed[id(f)] = _told(extraction, f, c, found[0][0], found[0][1], where, places)
    return [changed.get(id(f), f) for f in findings]
