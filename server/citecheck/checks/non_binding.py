"""non-binding-authority: a case the draft presents as controlling is not binding where the brief is filed.

Pure. The forum comes in the context (the pipeline works it out once per document); the cited court
is the matched record's court when a source knew the case, else the court in the parenthetical.
The finding is info: the citation is not wrong, its weight is overstated, and the rules behind
"binding" have exceptions we do not model (docs/jurisdiction.md).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import replace

from citecheck.checks.base import CheckContext, record_evidence
from citecheck.extract.models import CiteForm
from citecheck.findings import Finding, Kind, make_finding
from citecheck.jurisdiction import Assessment, Weight, court_node, weigh
from citecheck.jurisdiction.hierarchy import reporter_court

#: Words that present an authority as binding on the court ("controls", "is binding", "must follow", ...).
CONTROLLING = re.compile(
    r"\b(?:controls|controlling|is\s+binding|are\s+binding|binding\s+(?:precedent|authority|on\s+this\s+court)"
    r"|binds\s+this\s+court|must\s+follow|must\s+be\s+followed|required\s+by|requires\s+this\s+court"
    r"|squarely\s+hold(?:s|ing)?|squarely\s+held|dispositive)\b",
    re.I,
)
_NEGATION = re.compile(r"\b(?:not|never|no|nor|neither|cannot)\b|n[’']t\b", re.I)
# a sentence ends at . ? ! (after closing quotes, brackets, footnote marks) before a capital or markup,
# unless the period closes a short capitalised abbreviation ("Inc.", "Co.", "Cir.", "v.")
_END = re.compile(r"(?<=[.?!])[\"”’)\]*_]*(?:\[\^\w+\])?\s+(?=[A-Z*_\"“(\[])|\n\s*\n")
_ABBREV = re.compile(r"(?:\b[A-Z][a-z]{0,3}|\b[a-z]{1,2}|\b[A-Z](?:\.[A-Z])*|\bId|\bCf)\.$")
_SIGNAL = re.compile(r"^(?:[*_\s]|see|also|cf\.|accord|but|e\.g\.,?|contra|compare|generally)*$", re.I)


def controlling_phrase(text: str | None) -> str | None:
    """The first phrase in ``text`` that presents an authority as binding, unless negated just before.

    >>> controlling_phrase("Smith controls here."), controlling_phrase("Smith is not controlling."), controlling_phrase("See")
    ('controls', None, None)
    """
    if not text:
        return None
    for m in CONTROLLING.finditer(text):
        before = text[max(0, m.start() - 20):m.start()]
        if _NEGATION.search(before):
            continue
        return m.group(0)
    return None


def _sentence_bounds(text: str, start: int, end: int) -> tuple[int, int]:
    """The sentence around ``[start, end)``: from the end of the previous sentence to the end of this one."""
    lo = 0
    for m in _END.finditer(text, max(0, start - 2000), start):
        if not _ABBREV.search(text[max(0, m.start() - 6):m.start()].rstrip("\"”’)]*_")):
            lo = m.end()
    hi = len(text)
    for m in _END.finditer(text, end, min(len(text), end + 2000)):
        if not _ABBREV.search(text[max(0, m.start() - 6):m.start()].rstrip("\"”’)]*_")):
            hi = m.start()
            break
    return lo, hi


def claim_text(ctx: CheckContext) -> str:
    """What the draft says about the cited case: the sentence it stands in and, for a citation sentence
    (``Rule stated. See Case, cite.``), the sentence before it when that sentence cites nothing else."""
    text, c = ctx.text, ctx.citation
    lo, hi = _sentence_bounds(text, c.full_span.start, c.full_span.end)
    own = text[lo:hi]
    if lo == 0 or not _SIGNAL.match(text[lo:c.full_span.start]):
        return own
    plo, _ = _sentence_bounds(text, max(0, lo - 1), max(0, lo - 1))
    others = [o for o in ctx.extraction.citations if o.index != c.index and plo <= o.span.start < lo]
    return own if others else text[plo:lo] + own


def citation_court(ctx: CheckContext) -> str | None:
    """The courts-db id of the court that decided the cited case: the record's, else the parenthetical's,
    else the one an official state reporter implies when the parenthetical names no court."""
    rec = ctx.record
    if rec is not None and rec.court_id and court_node(rec.court_id) is not None:
        return rec.court_id
    full = ctx.full or (ctx.citation if ctx.citation.form is CiteForm.FULL else None)
    if full is None:
        return None
    if full.court or full.court_text:  # a court the parenthetical names but we cannot place stays unknown
        return full.court
    return reporter_court(full.reporter)


def assess(ctx: CheckContext) -> Assessment | None:
    """The citation's weight in the forum, or None when it is not a case citation we can place."""
    full = ctx.full
    if full is None:
        return None
    year = full.year
    if year is None and ctx.record is not None and (ctx.record.decision_date or "")[:4].isdigit():
        year = int((ctx.record.decision_date or "")[:4])
    return weigh(citation_court(ctx), ctx.forum, year=year)


class NonBindingAuthorityCheck:
    id = "non_binding"
    local = False

    def run(self, ctx: CheckContext) -> Iterator[Finding]:
        if ctx.forum is None:
            return
        phrase = controlling_phrase(claim_text(ctx))
        if phrase is None:
            return
        found = assess(ctx)
        if found is None or found.weight is not Weight.PERSUASIVE:
            return  # "unknown" is never reported as not binding
        c = ctx.citation
        name = (ctx.record.name if ctx.record else None) or (
            ctx.full.case_name.text if ctx.full and ctx.full.case_name else c.text)
        court = found.court_name or found.court_id or "its court"
        yield make_finding(
            Kind.NON_BINDING_AUTHORITY,
            c.span,
            f"The draft presents {name} as controlling (“{phrase}”), but a decision of the {court} does not bind "
            f"the {ctx.forum.name}: {found.reason}. It is persuasive authority only.",
            evidence=replace(record_evidence(ctx, draft=phrase, note=f"Filed in: {ctx.forum.name} (from the "
                                             f"{ctx.forum.origin}). Rule: {found.reason}."), court=court),
            citation_index=c.index,
        )
