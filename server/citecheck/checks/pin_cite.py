"""Is the pin cite inside the case, and on the page where the quoted passage is? pure.

* ``malformed-pincite`` (local) is ``checks/malformed_pincite.py``.
* ``pincite-out-of-range``: a page before the case's first page or after its last one. The last page
  is the larger of the record's ``last_page`` and the last page label in the opinion's page map
  (sources disagree; a larger labelled page is proof the case runs that far).
* ``pincite-wrong-page``: the quoted passage is located, the page map exists, and the passage is on
  none of the cited pages (a passage running over a page break counts on both pages).
* ``pincite-unverifiable`` (info): no page map for that reporter, or a Westlaw/Lexis star page.
"""

from __future__ import annotations

from collections.abc import Iterator

from citecheck import reporters
from citecheck.checks.base import CheckContext, record_evidence
from citecheck.checks.quotes import format_pages
from citecheck.extract.models import Citation, CiteForm, Pincite
from citecheck.findings import Finding, Fix, Kind, Severity, TextEdit, make_finding
from citecheck.sources.models import CaseCite


def _numeric_pages(pin: Pincite) -> list[int]:
    return [int(p) for part in pin.parts if not part.star for p in part.pages() if p.isdigit()]


def _draft_of(c: Citation, quote_index: int) -> str | None:
    if 0 <= quote_index < len(c.quotes):
        return c.quotes[quote_index].text
    return c.proposition


class PinciteCheck:
    id = "pin_cite"
    local = False

    def run(self, ctx: CheckContext) -> Iterator[Finding]:
        c = ctx.citation
        pin = c.pincite
        if pin is None or pin.malformed or ctx.record is None:
            return
        if c.form is CiteForm.FULL and c.database is not None:
            return
        rec = ctx.record
        cite = ctx.case_cite()
        if cite is None:
            return
        if "¶" in pin.text or reporters.is_neutral(cite.reporter):
            why = "a neutral citation is pinned by paragraph, and paragraph numbers are not in our page maps"
            yield _unverifiable(ctx, why)
            return
        pm = None
        if ctx.opinion is not None and ctx.reporter:
            pm = ctx.opinion.page_map(cite.reporter, cite.volume) or ctx.opinion.page_map(cite.reporter)
        pages = _numeric_pages(pin)
        located = [m for m in ctx.quote_matches if m is not None and m.exact]
        if not located and ctx.proposition_match is not None:
            located = [ctx.proposition_match]
        right = None
        if pm is not None and located:
            m = located[0]
            right = format_pages(pm.pages_between(m.start, max(m.start, m.end - 1)))
        fix_edits = (
            (Fix(title=f"Change the pin cite to {right}", edits=(TextEdit(span=pin.span, new_text=right),)),)
            if right
            else ()
        )

        # 1. out of range
        first = int(cite.page) if cite.page.isdigit() else None
        labels = [lbl for _, lbl in pm.starts] if pm else []
        lasts = [int(x) for x in (cite.last_page, *labels) if x and x.isdigit()]
        last = max(lasts) if lasts else None
        if first is not None and pages:
            outside = [p for p in pages if p < first or (last is not None and p > last)]
            parallel = _parallel_holding(c, _candidates(ctx), cite, outside) if outside else None
            if parallel is not None:
                # "Id. at 447" after "519 U.S. 433, 117 S. Ct. 891": Id. names no reporter, and West's
                # parallel style pins the first reporter's page (real First Circuit opinions do it
                # throughout); page 447 of U.S. Reports is no proof against S. Ct. (issue 32)
                yield _unverifiable(
                    ctx,
                    f"page {outside[0]} is not a page of {cite}, but it may be a page of the same case's "
                    f"{parallel}, which “{c.text}” does not exclude",
                )
                return
            if outside:
                extent = f"pages {first}–{last}" if last is not None and last != first else f"page {first}"
                if last is None:
                    extent = f"page {first} onward"
                # which case "Id." (or supra) stands for is the extraction's reading of the text around it
                # (a footnote's citation between, a page header): a guess, so at most a warning
                guessed = c.form in (CiteForm.ID, CiteForm.SUPRA, CiteForm.REFERENCE) or _other_antecedent(
                    ctx, cite, outside
                )
                # a one- or two-digit "pin" before a first page of three digits or more is most often a
                # footnote number the extraction read after the citation (a page break in a court's PDF
                # text: "313 U.S. 487,⏎⏎8 In his opinion"): bench/evidence.py, 11 of 18 on real opinions
                footnote = not guessed and all(p < 100 for p in outside) and first >= 100
                yield make_finding(
                    Kind.PINCITE_OUT_OF_RANGE,
                    pin.span,
                    f"Pin cite {outside[0]} is outside {rec.name}, {cite}, which occupies {extent}."
                    + (f" The quoted passage is on page {right}." if right else "")
                    + (
                        f" (This reads “{c.text}” as {cite}: check that it refers to that case.)"
                        if guessed
                        else " (A footnote number read as a pin cite? Check the page.)"
                        if footnote
                        else ""
                    ),
                    severity=Severity.WARNING if guessed or footnote else None,
                    evidence=record_evidence(
                        ctx,
                        page=right,
                        passage=located[0].passage if located and right else None,
                        note=f"case occupies {extent}",
                    ),
                    fixes=fix_edits,
                    citation_index=c.index,
                )
                return

        # 2. unverifiable
        star = any(part.star for part in pin.parts)
        if star or pm is None:
            why = (
                "a star page refers to a database's pagination, which we cannot check"
                if star
                else f"there is no page map for {cite.reporter} in the opinion text we have"
            )
            if ctx.opinion is None:
                if ctx.opinion_unavailable:
                    return  # opinion-unavailable (checks/opinion_text.py) says so for this pin cite, and why
                why = "the opinion text is not available"
            yield _unverifiable(ctx, why)
            return

        # 3. wrong page
        if not located or not pages:
            return
        cited = {str(p) for p in pages}
        for m in located:
            on = pm.pages_between(m.start, max(m.start, m.end - 1))
            if cited & set(on) or any(cited & set(pm.pages_between(a, max(a, b - 1))) for a, b in m.others):
                continue  # on a cited page (a repeated passage may be cited at any of its places)
            where = format_pages(on)
            what = "quoted passage" if m.quote_index >= 0 else "passage the sentence restates"
            yield make_finding(
                Kind.PINCITE_WRONG_PAGE,
                pin.span,
                f"The {what} is on page {where} of {cite}, not at {pin.text}.",
                evidence=record_evidence(
                    ctx, page=where, passage=m.passage, draft=_draft_of(c, m.quote_index)
                ),
                fixes=(
                    Fix(
                        title=f"Change the pin cite to {where}",
                        edits=(TextEdit(span=pin.span, new_text=where),),
                    ),
                ),
                citation_index=c.index,
            )
            return


def _other_antecedent(ctx: CheckContext, cite: CaseCite, outside: list[int]) -> bool:
    """A short form whose pin another full citation of the same volume could hold (``ISKCON, 112 S. Ct. at
    2708`` where the draft cites both ISKCON v. Lee, 112 S. Ct. 2701, and Lee v. ISKCON, 112 S. Ct. 2709):
    which one it stands for was the extraction's choice."""
    if ctx.citation.form is not CiteForm.SHORT:
        return False
    low = min(outside)
    for other in ctx.extraction.citations:
        if other.form is not CiteForm.FULL or other.volume != cite.volume or other.page == cite.page:
            continue
        if other.reporter == cite.reporter and other.page and other.page.isdigit() and int(other.page) <= low:
            return True
    return False


def _candidates(ctx: CheckContext) -> tuple[CaseCite, ...]:
    """The case's citations as the record has them, and the draft's own parallel citations of the full
    citation a short form stands for (the record may lack one: regional parallels, CAP #345)."""
    assert ctx.record is not None
    out = list(ctx.record.citations)
    full = ctx.full
    if full is not None and full.group is not None:
        for other in ctx.extraction.citations:
            if other.group == full.group and other.form is CiteForm.FULL and other.volume and other.reporter:
                if other.page:
                    out.append(CaseCite(volume=other.volume, reporter=other.reporter, page=other.page))
    return tuple(out)


def _parallel_holding(
    c: Citation, citations: tuple[CaseCite, ...], cite: CaseCite, outside: list[int]
) -> CaseCite | None:
    """For a citation that names no reporter of its own (``Id. at 447``), the case's other citation whose
    pages the pin may be (from its first page on, up to its last when known), or None."""
    if c.reporter is not None:
        return None
    for other in citations:
        if other is cite or other.key == cite.key or not other.page.isdigit():
            continue
        last = int(other.last_page) if other.last_page and other.last_page.isdigit() else None
        if all(int(other.page) <= p and (last is None or p <= last) for p in outside):
            return other
    return None


def _unverifiable(ctx: CheckContext, why: str) -> Finding:
    """``pincite-unverifiable`` (always info): we could not check the page, which accuses nobody."""
    pin = ctx.citation.pincite
    assert pin is not None
    return make_finding(
        Kind.PINCITE_UNVERIFIABLE,
        pin.span,
        f"The pin cite “{pin.text}” could not be checked: {why}.",
        evidence=record_evidence(ctx, note=why),
        citation_index=ctx.citation.index,
    )
