"""A whole fix: the edits that make the draft cite one candidate, and what it says about it; pure.

Name, volume, reporter and page, the pin cite (the page the draft's quote is on when we know it; the
draft's pin when it falls in the case; the cited page when the draft gave its pin page as the first
page), and the year and court of the parenthetical: applied, the citation names the case at its
citation with the right year and court, so the fix creates no new finding. A pin cite that cannot be
placed in the case is removed, and the title says so.
"""

from __future__ import annotations

import re
from functools import cache

from citecheck.checks.base import CheckContext
from citecheck.checks.corrections.candidates import Candidate, _fits, _pin_pages
from citecheck.checks.name_match import NameVerdict, clean_draft_name, compare_names
from citecheck.checks.parenthetical import courts_conflict
from citecheck.extract.models import Citation
from citecheck.findings import Evidence, Fix, TextEdit
from citecheck.sources.models import CaseCite, CaseRecord
from citecheck.spans import Span

_PAREN = re.compile(r"\s*\([^)]*\)")


def draft_name(name: str) -> str:
    """A case's name as a draft writes it: no parenthetical alternatives, no doubled periods.

    >>> draft_name("People v. A.V. (In re A.V.)"), draft_name("Bleecker St. Tenants Corp.. v. Bleeker Jones Llc")
    ('People v. A.V.', 'Bleecker St. Tenants Corp. v. Bleeker Jones Llc')
    """
    out = re.sub(r"\.\.+", ".", _PAREN.sub("", name)).strip()
    return out or name


@cache
def _court_strings() -> dict[str, str]:
    import courts_db  # a dependency; its data is large, so loaded on first use

    return {c["id"]: c.get("citation_string") or "" for c in courts_db.courts}


def court_string(court_id: str) -> str | None:
    """The abbreviation courts-db gives a court (its ``citation_string``), or None.

    >>> court_string("dc"), court_string("nowhere")
    ('D.C. Ct. App.', None)
    """
    return _court_strings().get(court_id) or None


def _year(decision_date: str | None) -> int | None:
    d = decision_date or ""
    return int(d[:4]) if d[:4].isdigit() else None


def _name_edits(ctx: CheckContext, cand: Candidate) -> tuple[list[TextEdit], str | None]:
    """Edits that give the draft the candidate's name, and the name it will then read."""
    c = ctx.citation
    if c.case_name is None:
        return [], None
    draft = c.case_name.text
    cleaned = clean_draft_name(draft)
    if not cleaned:
        return [], None
    offset = c.case_name.span.start + max(0, draft.find(cleaned))
    cmp = compare_names(cleaned, cand.record.names)
    if cmp.verdict is NameVerdict.MATCH:
        return [], cleaned
    if cmp.verdict is NameVerdict.MISSPELLED:
        edits = [
            TextEdit(span=Span(offset + k.start, offset + k.end), new_text=k.new) for k in cmp.corrections
        ]
        return edits, cmp.corrected(cleaned)
    name = draft_name(cand.record.name)
    return [TextEdit(span=Span(offset, offset + len(cleaned)), new_text=name)], name


def _pin(ctx: CheckContext, cand: Candidate) -> tuple[str | None, str | None]:
    """(the pin the fixed citation should carry, a note when the draft's pin had to go)."""
    c, cite = ctx.citation, cand.cite
    assert cite is not None
    pins = _pin_pages(c)
    if cand.quote_page:
        return cand.quote_page, None
    if c.pincite is not None and (not pins or _fits(cite, pins)):
        return c.pincite.text, None
    if cand.inside or (cand.near or "").startswith("the pin page"):
        if c.pincite is None and c.page and c.page != cite.page:
            return c.page, None  # the page the draft cited is inside the case: it was the pin
    if c.pincite is not None:
        return None, f"the pin cite {c.pincite.text} is not within its pages: add the page you mean"
    return None, None


def whole_fix(ctx: CheckContext, cand: Candidate, *, preferred: bool) -> Fix | None:
    """The fix that makes the draft cite ``cand`` (None when there is nothing to change)."""
    c, rec, cite = ctx.citation, cand.record, cand.cite
    if cite is None:
        return None
    edits, name = _name_edits(ctx, cand)
    core = f"{cite.volume} {cite.reporter} {cite.page}"
    pin, note = _pin(ctx, cand)
    edits.extend(_citation_edits(c, cite, core, pin, ctx.text))
    year = _year(rec.decision_date)
    edits.extend(_parenthetical_edits(c, rec, year, ctx.text))
    if not edits:
        return None
    edits.sort(key=lambda e: e.span.start)
    only_name = all(e.span.end <= c.span.start for e in edits)
    if only_name and cand.named:
        title = f"Correct the name to “{name}”"
    elif only_name:
        title = f"Use the name of the case at this citation: {name}"
    else:
        shown = (
            f"{name or draft_name(rec.name)}, {core}"
            + (f", {pin}" if pin else "")
            + (f" ({year})" if year else "")
        )
        title = f"Cite {shown}"
    if note:
        title += f" ({note})"
    evidence = Evidence(
        source=rec.source,
        record_id=rec.id,
        case_name=rec.name,
        citation=str(cite),
        court=rec.court_name or rec.court_id,
        date=rec.decision_date,
        url=rec.url,
        page=cand.quote_page,
        passage=cand.hit.passage if cand.hit is not None else None,
    )
    return Fix(
        title=title,
        edits=tuple(edits),
        why=why(cand, ctx),
        confidence=cand.confidence,
        preferred=preferred,
        evidence=evidence,
    )


def _citation_edits(c: Citation, cite: CaseCite, core: str, pin: str | None, text: str) -> list[TextEdit]:
    """The volume, reporter and page (``core``) and the pin cite made the candidate's: one edit over both
    when the pin changes, else one over the citation when it differs."""
    old_pin = c.pincite.text if c.pincite is not None else None
    if pin != old_pin:
        end = c.pincite.span.end if c.pincite is not None else c.span.end
        return [TextEdit(span=Span(c.span.start, end), new_text=core + (f", {pin}" if pin else ""))]
    if c.span.of(text) != core and (c.volume, c.reporter, c.page) != (cite.volume, cite.reporter, cite.page):
        return [TextEdit(span=c.span, new_text=core)]
    return []


def _parenthetical_edits(c: Citation, rec: CaseRecord, year: int | None, text: str) -> list[TextEdit]:
    """The year and the court of the parenthetical made the case's, where they differ."""
    if c.date_span is None:
        return []
    edits = []
    inner = c.date_span.of(text)
    if c.year and year and year != c.year and (m := re.search(rf"\b{c.year}\b", inner)):
        edits.append(
            TextEdit(
                span=Span(c.date_span.start + m.start(), c.date_span.start + m.end()), new_text=str(year)
            )
        )
    if c.court and rec.court_id and c.court_text and courts_conflict(c.court, rec.court_id):
        at = inner.find(c.court_text)
        right = court_string(rec.court_id) or ""
        if at >= 0 and right:
            span = Span(c.date_span.start + at, c.date_span.start + at + len(c.court_text))
            edits.append(TextEdit(span=span, new_text=right))
    return edits


def why(cand: Candidate, ctx: CheckContext) -> str:
    """Every reason to think the draft meant this case, in words a lawyer reads."""
    parts = []
    if cand.quote is True:
        parts.append(
            "the quoted passage is in it" + (f" (page {cand.quote_page})" if cand.quote_page else "")
        )
    if cand.matches:
        parts.append("its name matches the draft's")
    elif cand.named:
        parts.append("its name differs from the draft's by a slip of the keyboard")
    if cand.at_cite and ctx.lookup is not None:
        parts.append(f"it is the case at {ctx.lookup.key}")
    if cand.near:
        parts.append(f"the draft's citation has {cand.near}")
    elif cand.inside and ctx.citation.page:
        parts.append(f"the cited page {ctx.citation.page} is inside it")
    year = _year(cand.record.decision_date)
    if cand.year is True and year:
        parts.append(f"it was decided in {year}, as the draft says")
    elif cand.year is False and year:
        parts.append(f"it was decided in {year}, not {ctx.citation.year}")
    if cand.court is False:
        parts.append("its court is not the one the draft names")
    return "; ".join(parts)


__all__ = ["draft_name", "whole_fix", "why"]
