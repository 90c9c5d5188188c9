"""non-binding-authority: a case the draft presents as controlling is not binding where the brief is filed.

Pure. The forum comes in the context (the pipeline works it out once per document); the cited court
is the matched record's court when a source knew the case, else the court in the parenthetical.
The finding is info: the citation is not wrong, its weight is overstated, and the rules behind
"binding" have exceptions we do not model (docs/jurisdiction.md).
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterator, Sequence
from dataclasses import replace
from functools import lru_cache

from citecheck.checks.base import CheckContext, record_evidence
from citecheck.extract.models import Citation, CiteForm
from citecheck.findings import Finding, Kind, make_finding
from citecheck.jurisdiction import Assessment, Weight, court_node, weigh
from citecheck.jurisdiction.hierarchy import reporter_court, sole_intermediate
from citecheck.jurisdiction.new_york import new_york_court

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
_BARE_APPELLATE = re.compile(r"^(?:Ct\.?\s*App\.?|App\.?\s*Ct\.?|Ct\.?\s*Spec\.?\s*App\.?)$", re.I)
_SIGNAL = re.compile(r"^(?:[*_\s]|see|also|cf\.|accord|but|e\.g\.,?|contra|compare|generally)*$", re.I)


#: Phrases that also describe statutes and procedure ("the notice required by the statute", "the steps that
#: must follow"): they count only when the cited case comes right after them ("required by Smith, 500 F.3d 1").
_ADJACENT_ONLY = re.compile(r"^(?:required\s+by|must\s+follow|must\s+be\s+followed)$", re.I)
_ADJACENT_GAP = 40
#: Phrases that as often describe an issue or a fact ("the dispositive issue", "the rejection is binding on
#: all insureds"): they count only next to the citation ("Smith, 500 F.3d 1 (2007), controls") or with a
#: word for an authority beside them ("the controlling rule", "that holding is binding").
_NEEDS_AUTHORITY = re.compile(r"^(?:controls|controlling|is\s+binding|are\s+binding|dispositive)$", re.I)
_AUTHORITY_WORD = re.compile(
    r"^(?:decisions?|holdings?|cases?|precedents?|authority|authorities|opinions?|rules?|rulings?|law|"
    r"court'?s?|it|this|that|which|they|these|those|he|she)$",
    re.I,
)
_NOT_AUTHORITY_NEXT = re.compile(
    r"^(?:issues?|questions?|facts?|factors?|motions?|inquiry|elements?|considerations?|points?|terms?|"
    r"provisions?|clauses?|language|evidence|dates?|events?)$",
    re.I,
)
_WORD = re.compile(r"[A-Za-z']+")


def controlling_phrase(
    text: str | None, cite_at: int | None = None, cite_end: int | None = None
) -> str | None:
    """The first phrase in ``text`` that presents an authority as binding, unless negated just before.

    ``cite_at``/``cite_end`` delimit the cited case in ``text``: "required by" and "must follow" count
    only right before it; "controls", "controlling", "is binding", "dispositive" only next to it or beside
    a word for an authority ("the controlling rule"), never before "issue", "question", "fact" ...

    >>> (controlling_phrase("This case controls here."), controlling_phrase("It is not controlling."),
    ...  controlling_phrase("See"))
    ('controls', None, None)
    >>> controlling_phrase("Proof of loss was the dispositive issue.") is None
    True
    >>> controlling_phrase("The notice required by the statute was given. Smith v. Jones", cite_at=47) is None
    True
    """
    if not text:
        return None
    for m in CONTROLLING.finditer(text):
        before = text[max(0, m.start() - 20) : m.start()]
        if _NEGATION.search(before):
            continue
        if _ADJACENT_ONLY.match(m.group(0)) and (
            cite_at is None
            or not 0 <= cite_at - m.end() <= _ADJACENT_GAP
            or re.search(r"[.;:]\s", text[m.end() : cite_at])
        ):
            continue
        if _NEEDS_AUTHORITY.match(m.group(0)) and not _about_an_authority(text, m, cite_at, cite_end):
            continue
        return m.group(0)
    return None


def _about_an_authority(text: str, m: re.Match[str], cite_at: int | None, cite_end: int | None) -> bool:
    after = _WORD.findall(text[m.end() : m.end() + 40])[:2]
    if after and _NOT_AUTHORITY_NEXT.match(after[0]):
        return False
    if cite_end is not None and 0 <= m.start() - cite_end <= 12:  # "Smith, 500 F.3d 1 (2007), controls"
        return True
    if cite_at is not None and 0 <= cite_at - m.end() <= 12:  # "... is controlling: Smith, 500 F.3d 1"
        return True
    before = _WORD.findall(text[max(0, m.start() - 40) : m.start()])[-3:]
    return any(_AUTHORITY_WORD.match(w) for w in (*before, *after))


@lru_cache(maxsize=8)
def _sentence_ends(text: str) -> tuple[tuple[int, int], ...]:
    """Every sentence end in ``text`` as (end of the sentence, start of the next), computed once per text."""
    out = []
    for m in _END.finditer(text):
        if not _ABBREV.search(text[max(0, m.start() - 6) : m.start()].rstrip('"”’)]*_')):
            out.append((m.start(), m.end()))
    return tuple(out)


_KEYWORDS = ("control", "binding", "binds", "must", "required by", "requires this", "squarely", "dispositive")
_NEAR = 3000


@lru_cache(maxsize=8)
def _keyword_positions(text: str) -> tuple[int, ...]:
    """Where any word of ``CONTROLLING`` may start (a fast superset, by substring search), once per text."""
    low = text.lower()
    out = []
    for word in _KEYWORDS:
        i = low.find(word)
        while i != -1:
            out.append(i)
            i = low.find(word, i + 1)
    return tuple(sorted(out))


def _keyword_near(text: str, start: int, end: int) -> bool:
    positions = _keyword_positions(text)
    i = bisect.bisect_left(positions, start - _NEAR)
    return i < len(positions) and positions[i] <= end + _NEAR


def _sentence_bounds(text: str, start: int, end: int) -> tuple[int, int]:
    """The sentence around ``[start, end)``: from the end of the previous sentence to the end of this one."""
    ends = _sentence_ends(text)
    i = bisect.bisect_left(ends, (start, -1))  # first sentence end at or after start
    lo = 0
    for j in range(i - 1, -1, -1):  # the last one whose next sentence starts at or before start
        if ends[j][1] <= start:
            lo = ends[j][1]
            break
    k = bisect.bisect_left(ends, (end, -1))
    hi = ends[k][0] if k < len(ends) else len(text)
    return lo, hi


def claim_text(ctx: CheckContext) -> str:
    """What the draft says about the cited case: the sentence it stands in and, for a citation sentence
    (``Rule stated. See Case, cite.``), the sentence before it when that sentence cites nothing else."""
    return _claim(ctx)[0]


def _claim(ctx: CheckContext) -> tuple[str, int, int]:
    """``claim_text`` and where the cited case begins and ends in it."""
    text, c = ctx.text, ctx.citation
    lo, hi = _sentence_bounds(text, c.full_span.start, c.full_span.end)
    own = text[lo:hi]
    if lo == 0 or not _SIGNAL.match(text[lo : c.full_span.start]):
        return own, c.full_span.start - lo, c.full_span.end - lo
    plo, _ = _sentence_bounds(text, max(0, lo - 1), max(0, lo - 1))
    others = False
    cites = ctx.extraction.citations
    for k in range(c.index - 1, -1, -1):  # document order: only earlier ones can be there (no slice: a
        o = cites[k]  # copy of every earlier citation per citation was quadratic in a long brief)
        if o.span.start < plo:
            break
        if o.span.start < lo:
            others = True
            break
    if others:
        return own, c.full_span.start - lo, c.full_span.end - lo
    return text[plo:lo] + own, c.full_span.start - plo, c.full_span.end - plo


def citation_court(ctx: CheckContext) -> str | None:
    """The courts-db id of the court that decided the cited case: the record's, else the parenthetical's,
    else (when the parenthetical names no court) the one an official state reporter or public-domain
    citation of the case implies, this cite's or a parallel cite's."""
    rec = ctx.record
    if rec is not None and rec.court_id and court_node(rec.court_id) is not None:
        return rec.court_id
    full = ctx.full or (ctx.citation if ctx.citation.form is CiteForm.FULL else None)
    if full is None:
        return None
    if full.court:
        return full.court
    # parallel cites of one case share a parenthetical: "307 Conn. 299, 53 A.3d 153 (2012)"
    group = sorted(_parallels(ctx.extraction.citations, full), key=lambda c: c.index != full.index)
    if full.court_text:
        # "(2d Dep't 2010)": New York's Appellate Division, as New York names it (courts-db cannot)
        if (ny := new_york_court(full.court_text)) is not None:
            return ny
        # "(Ct. App. 1990)" after a state's reporter: that state's intermediate court; any other court the
        # parenthetical names but we cannot place stays unknown
        if not _BARE_APPELLATE.match(full.court_text.strip()):
            return None
        state = next(
            (n.state for c in group if (n := court_node(reporter_court(c.reporter))) is not None), None
        )
        return sole_intermediate(state) if state else None
    for c in group:
        if c.court:
            return c.court
    return next((found for c in group if (found := reporter_court(c.reporter)) is not None), None)


def _parallels(citations: tuple[Citation, ...], full: Citation) -> list[Citation]:
    """The full citations of ``full``'s case: a group starts at its first member's index, contiguously."""
    first = full.group if full.group is not None else full.index
    out = []
    for k in range(first, len(citations)):  # indexes, not ``citations[first:]``: that copied the rest
        c = citations[k]  # of the document for every citation
        if c.group != full.group or c.form is not CiteForm.FULL:
            if c.index > full.index:
                break
            continue
        out.append(c)
    return out or [full]


#: Findings that say no case stands at a citation. Such a citation has no weight in any court: it is
#: neither binding nor persuasive, and "it does not bind this court" would be beside the point.
NO_CASE_KINDS = frozenset({Kind.FABRICATED_CASE, Kind.IMPOSSIBLE_CITATION})


def without_weight(
    findings: Sequence[Finding], contexts: Sequence[CheckContext]
) -> tuple[list[Finding], frozenset[int]]:
    """Findings about findings: the citations with no case behind them (a short form counts with its
    full citation) and the findings without the non-binding-authority ones on those citations.

    >>> from citecheck.spans import Span
    >>> gone = make_finding(Kind.IMPOSSIBLE_CITATION, Span(0, 3), "no", citation_index=0)
    >>> weak = make_finding(Kind.NON_BINDING_AUTHORITY, Span(0, 3), "persuasive", citation_index=0)
    >>> kept, none = without_weight([gone, weak], [])
    >>> [f.kind.value for f in kept], sorted(none)
    (['impossible-citation'], [0])
    """
    empty = {f.citation_index for f in findings if f.kind in NO_CASE_KINDS and f.citation_index is not None}
    if not empty:
        return list(findings), frozenset()
    for ctx in contexts:
        if ctx.full is not None and ctx.full.index in empty:
            empty.add(ctx.citation.index)
    kept = [f for f in findings if not (f.kind is Kind.NON_BINDING_AUTHORITY and f.citation_index in empty)]
    return kept, frozenset(empty)


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
        if ctx.forum is None or ctx.full is None or ctx.full.agency:
            return  # an agency's decision binds no court as precedent does; it is not weighed here
        if not _keyword_near(ctx.text, ctx.citation.full_span.start, ctx.citation.full_span.end):
            return  # cheap: most citations have no such word anywhere near them
        phrase = controlling_phrase(*_claim(ctx))
        if phrase is None:
            return
        found = assess(ctx)
        if found is None or found.weight is not Weight.PERSUASIVE:
            return  # "unknown" is never reported as not binding
        c = ctx.citation
        name = (ctx.record.name if ctx.record else None) or (
            ctx.full.case_name.text if ctx.full and ctx.full.case_name else c.text
        )
        court = found.court_name or found.court_id or "its court"
        record_source = ctx.lookup.source if ctx.lookup and ctx.lookup.source else ctx.source_name
        yield make_finding(
            Kind.NON_BINDING_AUTHORITY,
            c.span,
            f"The draft presents {name} as controlling (“{phrase}”), but a decision of the {court} does not bind "
            f"the {ctx.forum.name}: {found.reason}. It is persuasive authority only.",
            evidence=replace(
                record_evidence(
                    ctx,
                    draft=phrase,
                    note=f"Filed in: {ctx.forum.name} (from the {ctx.forum.origin}). Rule: {found.reason}.",
                ),
                court=court,
                # no record: the court is the draft's own parenthetical, not what a source said
                source=record_source if ctx.record is not None else "draft",
            ),
            citation_index=c.index,
        )
