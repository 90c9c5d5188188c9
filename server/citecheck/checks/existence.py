"""Does the cited case exist? The source's verdict on a full citation; pure.

Impossible citations (judged without a lookup) are ``checks/impossible.py``.

**The evidence rule** (docs/findings.md, "The evidence rule"; issue 32) — the one place it is decided how
sure a finding that a case does not exist may be:

- an **error** needs positive evidence: (a) the cited page lies *strictly inside* a case whose first and
  last pages come from CAP's case metadata (an imported CAP volume, or the volume's ``CasesMetadata.json``)
  and the draft does not name that case; (b) the case the draft names is found at another citation (the
  corrections' name search: ``checks/corrections``, which raises the finding to an error with the fix);
  (c) the citation cannot exist (``checks/impossible.py``);
- **absence** from a source's data alone — no case begins at the page in a volume the source holds "in
  full" (CourtListener's, CAP's) — is at most a **warning**, "likely fabricated", with the cases around
  the page as evidence: those data have known holes (missing neutral and regional citations, table
  dispositions, several decisions on one page, pagination errors);
- where a **parallel citation** of the same cite resolves to the case the draft names, there is no
  finding at all (CourtListener lacks the other citation, not the case);
- everything a source cannot cover is ``cannot-verify`` (info): "we could not check" is never an
  accusation.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

from citecheck.checks.base import CheckContext, describe_record, record_evidence
from citecheck.checks.impossible import impossible_reason
from citecheck.checks.name_match import NameVerdict, compare_names
from citecheck.extract.models import Citation, CiteForm
from citecheck.findings import Evidence, Finding, Fix, Kind, Severity, TextEdit, make_finding
from citecheck.sources.models import CaseRecord, LookupResult, LookupStatus
from citecheck.spans import Span


class ExistenceCheck:
    """Turns the source's verdict on a full citation into fabricated-case / impossible / cannot-verify."""

    id = "existence"
    local = False

    def run(self, ctx: CheckContext) -> Iterator[Finding]:
        c = ctx.citation
        if c.form is not CiteForm.FULL or impossible_reason(c):
            return
        unasked = _why_not_looked_up(ctx)
        lookup = ctx.lookup
        if unasked is not None or lookup is None:  # no lookup always has its reason
            yield _cannot_verify(ctx, unasked or "")
            return
        if lookup.status is not LookupStatus.FOUND and lookup.status is not LookupStatus.AMBIGUOUS:
            if parallel_confirms(ctx) is not None:
                return  # the same cite's parallel citation is the named case: the source lacks this one
        middle = _inside_a_case(ctx, lookup)
        if middle is not None:
            yield middle
            return
        if lookup.status is LookupStatus.AMBIGUOUS and ctx.record is None and c.case_name is None:
            names = "; ".join(describe_record(r) for r in lookup.records[:4])
            yield _cannot_verify(
                ctx,
                f"several cases begin at {lookup.key} ({names}) and the draft does not "
                "name one, so the citation was not checked",
            )
            return
        if lookup.status is LookupStatus.CANNOT_VERIFY:
            reason = lookup.reason or "no source we have covers this volume"
            yield _cannot_verify(ctx, f"{lookup.key} could not be verified: {reason}")
        elif lookup.status is LookupStatus.NOT_FOUND:
            yield from _not_found(ctx)


def _why_not_looked_up(ctx: CheckContext) -> str | None:
    """Why the citation was not looked up (an agency's decision, a database citation, no source), or None."""
    c = ctx.citation
    if c.agency:
        return (
            f"{' '.join(c.text.split())} is a decision of the {c.agency} ({c.reporter}), not a court's: "
            "no source citecheck has covers agency decisions, so it was not looked up"
        )
    if c.database is not None:
        return f"{c.text} is a {c.database.value} database citation; its text is not in any source we have"
    if ctx.lookup is None:
        why = "no case-law source is configured" if ctx.source_name is None else "it was not looked up"
        return f"{c.cite_string or c.text} was not checked: {why}"
    return None


def _inside_a_case(ctx: CheckContext, lookup: LookupResult) -> Finding | None:
    """The cited page is inside a case, not its first page: by the case that contains it (proven by CAP's
    page ranges), or a case a source found by an inner page."""
    if lookup.containing is not None and lookup.status is not LookupStatus.FOUND and _strictly_inside(ctx):
        return _middle_of(ctx, proven=range_from_cap(lookup.containing))
    if lookup.status is LookupStatus.FOUND and ctx.record is not None and _found_by_inner_page(ctx):
        # a source that resolves a page inside a case (star-pagination fallback) found the case,
        # but no case begins at the cited page: its marker test is a substring match, no proof
        return _middle_of(replace(ctx, lookup=replace(lookup, containing=ctx.record)), proven=False)
    return None


_SOURCE_NAMES = {
    "corpus": "the local corpus",
    "index": "the citation index",
    "courtlistener": "CourtListener",
    "cache": "the cache",
    "cap": "CAP",
}


def _source_label(ctx: CheckContext) -> str:
    name = (ctx.lookup.source if ctx.lookup else None) or ctx.source_name
    return _SOURCE_NAMES.get(name or "", name or "the source")


def _cannot_verify(ctx: CheckContext, message: str) -> Finding:
    return make_finding(
        Kind.CANNOT_VERIFY,
        ctx.citation.span,
        message.rstrip(". ") + ". This is not a finding that the case does not exist.",
        evidence=Evidence(
            source=ctx.lookup.source if ctx.lookup else ctx.source_name,
            citation=ctx.citation.cite_string,
            note=ctx.lookup.reason if ctx.lookup else None,
        ),
        citation_index=ctx.citation.index,
    )


def _not_found(ctx: CheckContext) -> Iterator[Finding]:
    """Nothing begins at the page in a volume the source holds in full: absence, so a warning at most."""
    c, lookup = ctx.citation, ctx.lookup
    assert lookup is not None
    source = _source_label(ctx)
    named = _named_neighbour(ctx)
    if named is not None:
        yield _named_elsewhere(ctx, named)
        return
    if lookup.containing is not None:
        yield _middle_of(ctx, proven=False)
        return
    page = c.page or ""
    last = lookup.volume_last_page or ""
    if lookup.volume_complete and page.isdigit() and last.isdigit() and int(page) > int(last):
        why = f"its last case of {lookup.key.volume} {lookup.key.reporter} ends at page {last}"
    else:
        why = lookup.reason or "it holds this volume and has no case there"
    yield make_finding(
        Kind.FABRICATED_CASE,
        c.span,
        f"No case begins at {lookup.key} in {source} ({why}). The citation is likely fabricated; "
        "absence from the data is not proof, so check it.",
        evidence=Evidence(source=source, citation=str(lookup.key), note=lookup.reason or None),
        citation_index=c.index,
        severity=Severity.WARNING,
    )


def range_from_cap(record: CaseRecord) -> bool:
    """The record's first and last pages are CAP's (an imported CAP volume, CAP's case metadata): the
    only page ranges a fabricated-case *error* may rest on (a range derived from star pagination, or a
    service's star-pagination fallback, is a substring match on page markers)."""
    return record.source == "cap"


def parallel_confirms(ctx: CheckContext) -> CaseRecord | None:
    """The case a parallel citation of the same cite resolved to, when it is the case the draft names
    (or the draft names none): ``State ex rel. Fenley v. Ohio Historical Society, 64 Ohio St. 3d 509,
    1992-Ohio-2`` is that case whether or not CourtListener lists its neutral citation."""
    if not ctx.parallels:
        return None
    name = _group_name(ctx)
    for rec in ctx.parallels:
        if name is None or compare_names(name, rec.names).verdict is not NameVerdict.MISMATCH:
            return rec
    return None


def _group_name(ctx: CheckContext) -> str | None:
    c = ctx.citation
    if c.case_name is not None:
        return c.case_name.text
    group = c.group if c.group is not None else c.index
    # A group's members follow its first citation, whose index ``group`` is, in the same paragraph
    # (``extract/incremental/plan.py``): read from there, not the whole document per citation — that
    # was quadratic, 28 of 38 s of judging 18,106 citations (issue 40).
    cites = ctx.extraction.citations
    for at in range(max(group, 0), len(cites)):
        other = cites[at]
        if other.paragraph > c.paragraph:
            break
        if other.group == group and other.case_name is not None:
            return other.case_name.text
    return None


def _named_neighbour(ctx: CheckContext) -> CaseRecord | None:
    """The case beginning just after the cited page, when the draft names it (not the one it falls in).

    A real case cited a page or two before its first page is a wrong page, not an invented case.
    """
    c, lookup = ctx.citation, ctx.lookup
    if c.case_name is None or lookup is None:
        return None
    for rec in lookup.neighbours:
        if rec is lookup.containing or (lookup.containing is not None and rec.id == lookup.containing.id):
            continue
        if compare_names(c.case_name.text, rec.names).verdict is not NameVerdict.MISMATCH:
            return rec
    return None


def _named_elsewhere(ctx: CheckContext, rec: CaseRecord) -> Finding:
    c, lookup = ctx.citation, ctx.lookup
    assert lookup is not None
    cite = rec.cite_for(lookup.key.reporter, lookup.key.volume)
    first = cite.page if cite else "?"
    fixes: tuple[Fix, ...] = ()
    page_span = _page_span(c)
    if cite is not None and page_span is not None:
        fixes = (
            Fix(
                title=f"Cite {rec.name} at its first page, {cite}",
                edits=(TextEdit(span=page_span, new_text=cite.page),),
            ),
        )
    # a warning: the source's first pages have errors of their own (CAP #2115), so the draft may be right
    return make_finding(
        Kind.WRONG_FIRST_PAGE,
        c.span,
        f"{describe_record(rec, cite)} is a real case, but it begins at page {first}, not {lookup.key.page}, "
        f"according to {_source_label(ctx)}; no case begins at {lookup.key} there.",
        evidence=record_evidence(_with_record(ctx, rec), page=first, note=lookup.reason or None),
        fixes=fixes,
        citation_index=c.index,
        severity=Severity.WARNING,
    )


def _strictly_inside(ctx: CheckContext) -> bool:
    """The cited first page lies strictly between another case's first and last page.

    Then no case can begin there, even in a volume we hold only in part (a case may begin on the
    last page of the one before it, so that page proves nothing).
    """
    lookup = ctx.lookup
    assert lookup is not None and lookup.containing is not None
    cite = lookup.containing.cite_for(lookup.key.reporter, lookup.key.volume)
    page = lookup.key.page
    if cite is None or not (page.isdigit() and cite.page.isdigit() and (cite.last_page or "").isdigit()):
        return False
    return int(cite.page) < int(page) < int(cite.last_page or 0)


def _found_by_inner_page(ctx: CheckContext) -> bool:
    """The record found for the key begins on an earlier page of the same volume."""
    lookup, rec = ctx.lookup, ctx.record
    assert lookup is not None and rec is not None
    key = lookup.key
    same = [x for x in rec.citations if x.reporter == key.reporter and x.volume == key.volume]
    if not same or any(x.page == key.page for x in same) or not key.page.isdigit():
        return False
    return all(x.page.isdigit() and int(x.page) < int(key.page) for x in same)


def _middle_of(ctx: CheckContext, *, proven: bool) -> Finding:
    """The cited page lies inside another case. ``proven``: its pages are CAP's and the page is strictly
    between them (an error); otherwise the same words at warning level (the evidence rule)."""
    c, lookup = ctx.citation, ctx.lookup
    assert lookup is not None and lookup.containing is not None
    source = _source_label(ctx)
    host = lookup.containing
    cite = host.cite_for(lookup.key.reporter, lookup.key.volume)
    span_txt = f" (pages {cite.page}–{cite.last_page})" if cite and cite.last_page else ""
    names_host = c.case_name is not None and (
        compare_names(c.case_name.text, host.names).verdict is not NameVerdict.MISMATCH
    )
    if names_host:
        # The draft names the very case whose middle it cites: a real case with a wrong first page,
        # not an invented one. Calling it "fabricated" would accuse a real case.
        kind = Kind.WRONG_FIRST_PAGE
        message = (
            f"{describe_record(host, cite)} is a real case, but it begins at page {cite.page if cite else '?'}"
            f"{span_txt} according to {source}; page {lookup.key.page} is in its middle. Cite the case by its "
            f"first page and put "
            f"{lookup.key.page} in the pin cite."
        )
    else:
        # the case whose pages it falls in is evidence that nothing begins there, not the case the draft
        # meant: naming it as the fix would send the lawyer to an unrelated case (issue 24, Harmon v.
        # Capital Transit Co. at a page of Pennsylvania R. v. Newmyer); ``checks/corrections`` proposes
        # what the name or the quote points to
        kind = Kind.FABRICATED_CASE
        unnamed = " (a case the draft does not name)" if c.case_name is not None else ""
        message = (
            f"No case begins at {lookup.key} in {source}: page {lookup.key.page} is in the middle of "
            f"{describe_record(host, cite)}{span_txt}{unnamed}. The citation appears to be fabricated."
        )
    fixes: tuple[Fix, ...] = ()
    if cite is not None and c.page and names_host:
        page_span = _page_span(c)
        if page_span is not None:
            edits = [TextEdit(span=page_span, new_text=f"{cite.page}, {lookup.key.page}")]
            fixes = (
                Fix(
                    title=f"Cite {host.name} at its first page, {cite}, {lookup.key.page}",
                    edits=tuple(edits),
                ),
            )
    if not proven:
        message = message.replace("appears to be fabricated", "is likely fabricated")
    return make_finding(
        kind,
        c.span,
        message,
        evidence=record_evidence(_with_record(ctx, host), page=lookup.key.page, note=lookup.reason or None),
        fixes=fixes if c.pincite is None else (),
        citation_index=c.index,
        severity=Severity.ERROR if proven else Severity.WARNING,
    )


def _with_record(ctx: CheckContext, record: CaseRecord) -> CheckContext:
    return replace(ctx, record=record)


def _page_span(c: Citation) -> Span | None:
    """Span of the first-page number inside the citation core, e.g. ``37`` in ``100 A.2d 37``."""
    if not c.page:
        return None
    pos = c.text.rfind(c.page)
    if pos < 0:
        return None
    return Span(c.span.start + pos, c.span.start + pos + len(c.page))


__all__ = ["ExistenceCheck", "impossible_reason", "parallel_confirms", "range_from_cap"]
