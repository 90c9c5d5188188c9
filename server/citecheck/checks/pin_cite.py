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
from citecheck.checks.base import CheckContext, QuoteMatch, record_evidence
from citecheck.checks.quotes import format_pages
from citecheck.extract.models import Citation, CiteForm, Pincite
from citecheck.findings import Finding, Fix, Kind, Severity, TextEdit, make_finding
from citecheck.sources.models import CaseCite, PageMap


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
        target = _checkable(ctx)
        if target is None:
            return
        pin, cite = target
        if "¶" in pin.text or reporters.is_neutral(cite.reporter):
            yield _unverifiable(
                ctx,
                "a neutral citation is pinned by paragraph, and paragraph numbers are not in our page maps",
            )
            return
        pm = _page_map(ctx, cite)
        pages = _numeric_pages(pin)
        located = _located(ctx)
        right = _right_pages(pm, located)
        if _before_the_written_first_page(ctx, cite, pm, pages):
            return  # checks/pin_before_first_page.py says so, as you type
        found = _out_of_range(ctx, pin, cite, pm, pages, located, right)
        if found is None:
            why = _why_unverifiable(ctx, pin, cite, pm)
            if why == _SAID_ELSEWHERE:
                return
            found = _unverifiable(ctx, why) if why else _wrong_page(ctx, pin, cite, pm, pages, located)
        if found is not None:
            yield found


#: ``_why_unverifiable``'s answer when another finding (opinion-unavailable) already says why.
_SAID_ELSEWHERE = "said elsewhere"


def _checkable(ctx: CheckContext) -> tuple[Pincite, CaseCite] | None:
    """The pin cite and the case's citation in its reporter, when there is a well-formed pin cite of a found
    case (a Westlaw/Lexis database citation has no reporter pages)."""
    c, pin = ctx.citation, ctx.citation.pincite
    if pin is None or pin.malformed or ctx.record is None:
        return None
    if c.form is CiteForm.FULL and (c.database is not None or c.agency):
        return None
    cite = ctx.case_cite()
    return (pin, cite) if cite is not None else None


def _page_map(ctx: CheckContext, cite: CaseCite) -> PageMap | None:
    """Where the cited reporter's pages begin in the opinion text (None: no text, or no labels for it)."""
    if ctx.opinion is None or not ctx.reporter:
        return None
    return ctx.opinion.page_map(cite.reporter, cite.volume) or ctx.opinion.page_map(cite.reporter)


def _located(ctx: CheckContext) -> list[QuoteMatch]:
    """The passages placed in the opinion: the quotes found exactly, else the restated proposition."""
    located = [m for m in ctx.quote_matches if m is not None and m.exact]
    if not located and ctx.proposition_match is not None:
        located = [ctx.proposition_match]
    return located


def _right_pages(pm: PageMap | None, located: list[QuoteMatch]) -> str | None:
    """The pages the first located passage is on ("36–37"), when the page map can say."""
    if pm is None or not located:
        return None
    m = located[0]
    return format_pages(pm.pages_between(m.start, max(m.start, m.end - 1)))


def _case_pages(cite: CaseCite, pm: PageMap | None) -> tuple[int | None, int | None]:
    """The case's first page and its last: the larger of the record's last page and the page map's last
    label (a larger labelled page is proof the case runs that far)."""
    first = int(cite.page) if cite.page.isdigit() else None
    labels = [lbl for _, lbl in pm.starts] if pm else []
    lasts = [int(x) for x in (cite.last_page, *labels) if x and x.isdigit()]
    return first, max(lasts) if lasts else None


def _extent(first: int, last: int | None) -> str:
    """
    >>> _extent(36, 38), _extent(36, 36), _extent(36, None)
    ('pages 36–38', 'page 36', 'page 36 onward')
    """
    if last is None:
        return f"page {first} onward"
    return f"pages {first}–{last}" if last != first else f"page {first}"


def _out_of_range(
    ctx: CheckContext,
    pin: Pincite,
    cite: CaseCite,
    pm: PageMap | None,
    pages: list[int],
    located: list[QuoteMatch],
    right: str | None,
) -> Finding | None:
    """``pincite-out-of-range``: a pin page before the case's first page or after its last."""
    first, last = _case_pages(cite, pm)
    if first is None or not pages:
        return None
    outside = [p for p in pages if p < first or (last is not None and p > last)]
    if not outside:
        return None
    c = ctx.citation
    parallel = _parallel_holding(c, _candidates(ctx), cite, outside)
    if parallel is not None:
        # "Id. at 447" after "519 U.S. 433, 117 S. Ct. 891": Id. names no reporter, and West's
        # parallel style pins the first reporter's page (real First Circuit opinions do it
        # throughout); page 447 of U.S. Reports is no proof against S. Ct. (issue 32)
        return _unverifiable(
            ctx,
            f"page {outside[0]} is not a page of {cite}, but it may be a page of the same case's "
            f"{parallel}, which “{c.text}” does not exclude",
        )
    extent = _extent(first, last)
    assert ctx.record is not None
    # which case "Id." (or supra) stands for is the extraction's reading of the text around it
    # (a footnote's citation between, a page header): a guess, so at most a warning
    guessed = c.form in (CiteForm.ID, CiteForm.SUPRA, CiteForm.REFERENCE) or _other_antecedent(
        ctx, cite, outside
    )
    footnote = not guessed and _footnote_number(first, outside)
    fixes = (
        (Fix(title=f"Change the pin cite to {right}", edits=(TextEdit(span=pin.span, new_text=right),)),)
        if right
        else ()
    )
    return make_finding(
        Kind.PINCITE_OUT_OF_RANGE,
        pin.span,
        f"Pin cite {outside[0]} is outside {ctx.record.name}, {cite}, which occupies {extent}."
        + (f" The quoted passage is on page {right}." if right else "")
        + (f" (This reads “{c.text}” as {cite}: check that it refers to that case.)" if guessed else "")
        + (" (A footnote number read as a pin cite? Check the page.)" if footnote else ""),
        severity=Severity.WARNING if guessed or footnote else None,
        evidence=record_evidence(
            ctx,
            page=right,
            passage=located[0].passage if located and right else None,
            note=f"case occupies {extent}",
        ),
        fixes=fixes,
        citation_index=c.index,
    )


def _before_the_written_first_page(
    ctx: CheckContext, cite: CaseCite, pm: PageMap | None, pages: list[int]
) -> bool:
    """A full citation's pin before the first page the draft itself gives, where no parallel citation could
    hold it: ``checks/pin_before_first_page.py`` reports it without a source."""
    c = ctx.citation
    written = _written_first(ctx) if c.form is CiteForm.FULL else None
    first, last = _case_pages(cite, pm)
    if written is None or first is None or not pages:
        return False
    outside = [p for p in pages if p < first or (last is not None and p > last)]
    return (
        bool(outside)
        and all(p < written for p in outside)
        and _parallel_holding(c, _candidates(ctx), cite, outside) is None
    )


def _footnote_number(first: int, outside: list[int]) -> bool:
    """A one- or two-digit "pin" before a first page of three digits or more: most often a footnote number
    the extraction read after the citation across a page break of a court's PDF text ("313 U.S. 487,⏎⏎8 In
    his opinion"; bench/evidence.py, 11 of 18 such errors on real opinions), so at most a warning.

    >>> _footnote_number(487, [8]), _footnote_number(487, [48, 12]), _footnote_number(487, [312])
    (True, True, False)
    >>> _footnote_number(36, [8])
    False
    """
    return first >= 100 and all(p < 100 for p in outside)


def _why_unverifiable(ctx: CheckContext, pin: Pincite, cite: CaseCite, pm: PageMap | None) -> str:
    """Why the pin page cannot be checked ("": it can; ``_SAID_ELSEWHERE``: the opinion-unavailable finding
    of this citation says why)."""
    star = any(part.star for part in pin.parts)
    if not star and pm is not None:
        return ""
    if ctx.opinion is None:
        return _SAID_ELSEWHERE if ctx.opinion_unavailable else "the opinion text is not available"
    if star:
        return "a star page refers to a database's pagination, which we cannot check"
    return f"there is no page map for {cite.reporter} in the opinion text we have"


def _wrong_page(
    ctx: CheckContext,
    pin: Pincite,
    cite: CaseCite,
    pm: PageMap | None,
    pages: list[int],
    located: list[QuoteMatch],
) -> Finding | None:
    """``pincite-wrong-page``: a located passage on none of the cited pages (a passage repeated in the opinion
    may be cited at any of its places; one running over a page break counts on both pages)."""
    if pm is None or not located or not pages:
        return None
    cited = {str(p) for p in pages}
    for m in located:
        on = pm.pages_between(m.start, max(m.start, m.end - 1))
        if cited & set(on) or any(cited & set(pm.pages_between(a, max(a, b - 1))) for a, b in m.others):
            continue
        where = format_pages(on)
        what = "quoted passage" if m.quote_index >= 0 else "passage the sentence restates"
        return make_finding(
            Kind.PINCITE_WRONG_PAGE,
            pin.span,
            f"The {what} is on page {where} of {cite}, not at {pin.text}.",
            evidence=record_evidence(
                ctx, page=where, passage=m.passage, draft=_draft_of(ctx.citation, m.quote_index)
            ),
            fixes=(
                Fix(
                    title=f"Change the pin cite to {where}", edits=(TextEdit(span=pin.span, new_text=where),)
                ),
            ),
            citation_index=ctx.citation.index,
        )
    return None


def _written_first(ctx: CheckContext) -> int | None:
    """The first page the draft gives the case in the reporter of this citation's pin."""
    c = ctx.citation
    own = c if c.form is CiteForm.FULL else ctx.full
    if own is None or not own.page or not own.page.isdigit():
        return None
    if c.form is not CiteForm.FULL and c.reporter and c.reporter != own.reporter:
        return None
    return int(own.page)


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
        # the group's members follow its first citation (index ``full.group``) in its paragraph: read
        # from there, not every citation of the document per citation (quadratic; issue 40)
        cites = ctx.extraction.citations
        for at in range(max(full.group, 0), len(cites)):
            other = cites[at]
            if other.paragraph > full.paragraph:
                break
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
