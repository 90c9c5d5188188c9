"""A pin cite before the case's first page (``678 F. Supp. 3d 443, 151``; ``Id. at 151`` after it); local, pure.

No page of a case comes before the page it begins on, so this needs no source: the draft contradicts
itself. Found on a real Fifth Circuit order (Fletcher v. Experian, 2026): "Mata v. Avianca, Inc., 678 F.
Supp. 3d 443, 449–51 … Id. at 151" — the opinion meant 451 — passed silently, because the pin checks
ran only against a record. A full citation's own pin is an error; a short form's is a warning, because
which case an ``Id.`` or ``Name, … at`` refers to is read from the text, and a misreading must not
accuse (a parallel citation's pages count too: ``Id. at 150`` after ``93 S. Ct. 705, 410 U.S. 113`` is
a U.S. page). Star pages, paragraph pins, neutral, database and agency citations are left alone.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections.abc import Iterator

from citecheck import reporters
from citecheck.checks.base import CheckContext
from citecheck.checks.pin_cite import _footnote_number as footnote_number
from citecheck.extract.models import Citation, CiteForm, Extraction, Pincite
from citecheck.findings import Confidence, Evidence, Finding, Fix, Kind, Severity, TextEdit, make_finding

#: How far around a full citation its parallel citations are looked for (they stand side by side).
_PARALLEL_REACH = 300


class _Spans:
    """A document's citations ordered by where their full span starts: ``Extraction.touching`` scans every
    citation, and this check asks it twice per citation (a 100,000-citation brief: 10^10 steps, hours;
    issue 40's huge-report test never finished). Answers what ``touching`` answers, in logarithmic time."""

    def __init__(self, extraction: Extraction) -> None:
        self.extraction = extraction
        self.order = sorted(extraction.citations, key=lambda c: c.full_span.start)
        self.starts = [c.full_span.start for c in self.order]
        self.reach = max((c.full_span.end - c.full_span.start for c in self.order), default=0)

    def touching(self, start: int, end: int) -> list[Citation]:
        lo, hi = bisect_left(self.starts, start - self.reach), bisect_right(self.starts, end)
        return sorted((c for c in self.order[lo:hi] if start <= c.full_span.end), key=lambda c: c.index)


_last_spans: _Spans | None = None  # the document being checked (the checks run citation by citation)


def _touching(extraction: Extraction, start: int, end: int) -> list[Citation]:
    """``extraction.touching(start, end)``; for a whole document's extraction through ``_Spans``, built once
    per document. An incremental one (the editor's) answers from the paragraphs it looks at already."""
    global _last_spans
    if type(extraction) is not Extraction:
        return extraction.touching(start, end)
    spans = _last_spans
    if spans is None or spans.extraction is not extraction:
        spans = _last_spans = _Spans(extraction)
    return spans.touching(start, end)


def _pages(pin: Pincite, text: str | None = None) -> list[int]:
    """The pin's numeric pages; given the document ``text``, without the parts that are no pages: a
    number followed by a reporter's name or another number is the volume of a parallel citation the
    extraction missed (``355 Mass. 698, 247 N.E.2d⏎385``), or a PDF's line number (``679, 6 681–84``)."""
    return [
        int(p)
        for part in pin.parts
        if not part.star and (text is None or not _noise(text, part.span.start, part.span.end))
        for p in part.pages()
        if p.isdigit()
    ]


_NOT_A_PAGE = re.compile(r"\s*[A-Z0-9\[]|\.\d")  # "… 723, 24.3": a percentage pinpoint, not page 24


def _noise(text: str, start: int, end: int) -> bool:
    """A pin part that is no page: followed by a reporter's name or a number (a parallel citation's volume,
    a line number), or a footnote number glued to the comma before it (``396 Mass. at 825-26,4``)."""
    return bool(_NOT_A_PAGE.match(text, end)) or (start > 0 and text[start - 1] == "," and end - start <= 2)


def _firsts(ctx: CheckContext, c: Citation, full: Citation) -> list[tuple[Citation, int]]:
    """The first pages the pin may refer to: a full citation's own; for a short form naming a reporter,
    the parallel citation of that reporter and volume; for ``Id.``, every parallel citation of the case."""
    if c.form is CiteForm.FULL:
        return [(c, int(c.page))] if c.page and c.page.isdigit() else []
    group = full.group if full.group is not None else full.index
    around = _touching(
        ctx.extraction, max(0, full.span.start - _PARALLEL_REACH), full.full_span.end + _PARALLEL_REACH
    )
    members = [x for x in around if x.form is CiteForm.FULL and (x.group or x.index) == group] or [full]
    if c.form is not CiteForm.ID and c.reporter:
        members = [x for x in members if x.reporter == c.reporter and (not c.volume or x.volume == c.volume)]
    return [(x, int(x.page)) for x in members if x.page and x.page.isdigit()]


def _slip_fix(pin_page: int, cited: set[int]) -> int | None:
    """The one page the draft cites of the case that a single digit's slip makes of ``pin_page`` (151 for
    the 451 of "449–51"; 51 for 451, a digit dropped), at least 100 pages on, or None when none or several do."""
    s = str(pin_page)
    replaced = [s[:i] + d + s[i + 1 :] for i in range(len(s)) for d in "0123456789"]
    added = [s[:i] + d + s[i:] for i in range(len(s) + 1) for d in "123456789"]
    fits = {int(v) for v in (*replaced, *added) if v != s and not v.startswith("0") and int(v) in cited}
    # a pin a few pages short of the case is more likely another case (the one before it in the volume,
    # which the short form may mean: "ISKCON, 112 S. Ct. at 2708" beside Lee v. ISKCON at 2709) than a slip
    fits = {v for v in fits if v - pin_page >= 100}
    return fits.pop() if len(fits) == 1 else None


def _cited_pages(ctx: CheckContext, full: Citation, c: Citation) -> list[int]:
    """The pages the draft cites of the case elsewhere before ``c`` (its full citation's pin and the
    short forms in between)."""
    out = [p for x in (full,) if x.pincite for p in _pages(x.pincite)]
    for x in _touching(ctx.extraction, full.full_span.end, c.span.start):
        if x.index != c.index and x.antecedent == full.index and x.pincite:
            out.extend(_pages(x.pincite))
    return out


#: A citation of something citecheck does not extract (a journal: "45 U. Chi. L. Rev. 263, 268 n.18"), which
#: an "Id." after it means.
_OTHER_SOURCE = re.compile(r"\b\d{1,4}\s+(?:[A-Z][A-Za-z.'&]*\s+){1,7}\d{1,5}\b")
#: How far after its case an "Id." may stand and still be read as meaning it, in characters.
_NEAR = 800


def _right_after(ctx: CheckContext, full: Citation, c: Citation) -> bool:
    """No other authority is cited between ``full`` (with its parallel citations) and ``c``, which stands near it:
    neither one the extraction found nor a journal or book it does not look for."""
    if c.span.start - full.full_span.end > _NEAR or _OTHER_SOURCE.search(
        ctx.text, full.full_span.end, c.span.start
    ):
        return False
    between = _touching(ctx.extraction, full.full_span.end + 1, max(full.full_span.end + 1, c.span.start - 1))
    group = full.group if full.group is not None else full.index
    return all(
        x.index == c.index or x.index == full.index or (x.group if x.group is not None else x.index) == group
        for x in between
    )


def _the_full(ctx: CheckContext) -> Citation | None:
    """The full citation whose first page the pin is measured against, or None when no pin of this citation
    can be judged so: no pin, a paragraph or database pin, a neutral or year-numbered citation (pinned by
    paragraph), a slip opinion's ``at 2``."""
    c, pin = ctx.citation, ctx.citation.pincite
    if pin is None or pin.malformed or "¶" in pin.text or c.database is not None:
        return None
    full = c if c.form is CiteForm.FULL else ctx.full
    if full is None or full.database is not None or full.reporter is None:
        return None
    if reporters.is_neutral(full.reporter) or (c.reporter and reporters.is_neutral(c.reporter)):
        return None
    volume = full.volume or ""
    if volume.isdigit() and len(volume) == 4 and int(volume) >= 1900:
        return None  # a year for a volume ("1996 Wis 235, 15"): a public-domain citation, pinned by paragraph
    if c.form is CiteForm.FULL and _AT_BEFORE.search(ctx.text[max(0, pin.span.start - 6) : pin.span.start]):
        return None  # "306 N.L.R.B. 83, at 2": a slip opinion's or a database's own page, not the reporter's
    return full


_AT_BEFORE = re.compile(r"\bat\s*$")


def _slip_fix_of(pin: Pincite, before: int, right: int | None) -> tuple[Fix, ...]:
    if right is None:
        return ()
    return (
        Fix(
            title=f"Change the pin cite to {right}",
            edits=(TextEdit(span=pin.span, new_text=_replaced(pin.text, before, right)),),
            why=f"one digit away from {before}, and a page the draft cites of this case just before",
            confidence=Confidence.LOW,
            preferred=False,
        ),
    )


def _finding(
    ctx: CheckContext, full: Citation, at: Citation, first: int, before: int, slip: int | None
) -> Finding:
    c, pin = ctx.citation, ctx.citation.pincite
    assert pin is not None
    cite = f"{at.volume} {at.reporter} {at.page}"
    name = full.case_name.text if full.case_name else None
    case = f"{name}, {cite}" if name else cite
    # a one- or two-digit pin before a first page of three digits: most often a footnote number the
    # extraction read across a page break of a court's PDF text (pin_cite.py's rule), so at most a warning
    footnote = footnote_number(first, [before])
    sure = c.form is CiteForm.FULL and not footnote
    message = (
        f"Pin cite {before} comes before page {first}, where {case} begins: no page of a case is "
        "before its first page, so the pin cite or the citation is wrong."
        if sure
        else f"Pin cite {before} comes before page {first}, where {case} begins"
        + (
            ". (A footnote number read as a pin cite? Check the page.)"
            if footnote
            else f" — the case this “{c.text}” refers to, as read from the text. If it refers to that case, "
            "the pin cite is wrong."
        )
    )
    return make_finding(
        Kind.PINCITE_OUT_OF_RANGE,
        pin.span,
        message,
        evidence=Evidence(
            source="draft",
            citation=cite,
            page=str(first),
            note=f"the draft cites {case} as beginning at page {first}"
            + ("" if sure else f"; “{c.text}” was read as referring to it"),
        ),
        citation_index=c.index,
        severity=Severity.ERROR if sure else Severity.WARNING,
        fixes=_slip_fix_of(pin, before, slip),
    )


class PinBeforeFirstPageCheck:
    id = "pin_before_first_page"
    local = True

    def run(self, ctx: CheckContext) -> Iterator[Finding]:
        c, pin = ctx.citation, ctx.citation.pincite
        full = _the_full(ctx)
        if full is None or pin is None or full.agency:
            return  # an agency's series may number paragraphs, not pages (FERC ¶ 61,042, at 61,199)
        pages = _pages(pin, ctx.text)
        firsts = _firsts(ctx, c, full)
        if not pages or not firsts:
            return
        at, first = min(firsts, key=lambda x: x[1])
        before = [p for p in pages if p < first]
        if not before:
            return
        cited = {p for p in _cited_pages(ctx, full, c) if p >= first}
        slip = _slip_fix(pages[0], cited) if len(pages) == 1 else None
        if c.form is not CiteForm.FULL and (slip is None or not _right_after(ctx, full, c)):
            # A short form's case is read from the text, and in real opinions an "Id." often means the record,
            # a brief or the decision below, which is cited as no case, and "ISKCON, 112 S. Ct. at 2708" the
            # companion case on the page before: on 1,100 First Circuit opinions every short form's pin before
            # the first page but this kind was such a misreading. Only a pin one digit from a page the draft
            # has just cited of the case (151 for the 451 of "449–51") says the short form means it.
            return
        yield _finding(ctx, full, at, first, before[0], slip)


def _replaced(pin_text: str, old: int, new: int) -> str:
    """The pin as written with the wrong page replaced (``151`` → ``451``, ``151 n.3`` → ``451 n.3``)."""
    return pin_text.replace(str(old), str(new), 1)


#: Findings that say the citation itself is wrong: its fix replaces the whole citation, pin cite included.
_CITATION_WRONG = frozenset(
    {Kind.FABRICATED_CASE, Kind.IMPOSSIBLE_CITATION, Kind.WRONG_FIRST_PAGE, Kind.NAME_MISMATCH}
)


def redundant_pins_dropped(findings: list[Finding]) -> list[Finding]:
    """``findings`` without this check's pin finding on a citation a source shows wrong: an invented first
    page (``100 A.3d 22213, 1011``) puts the real pin before it, and the finding that says the citation is
    wrong, with the fix that restores it, says all there is to say (the evaluation counted it a false alarm);
    nor on a short form whose pin a source's record already shows outside the case (``checks/pin_cite.py``)."""
    wrong = {f.citation_index for f in findings if f.kind in _CITATION_WRONG}
    wrong |= {
        f.citation_index
        for f in findings
        if f.kind is Kind.PINCITE_OUT_OF_RANGE and f.evidence.source not in (None, "draft")
    }
    return [
        f
        for f in findings
        if not (
            f.kind is Kind.PINCITE_OUT_OF_RANGE and f.evidence.source == "draft" and f.citation_index in wrong
        )
    ]
