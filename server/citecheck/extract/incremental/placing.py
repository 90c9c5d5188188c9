"""Building citations from a plan: every span moved by the paragraph's offset and the document-wide
numbers set (``build_paragraph``), with constructors fast enough for a keystroke that moves thousands."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

from citecheck.extract.incremental.plan import CiteStep, RefStep, Step

if TYPE_CHECKING:
    from citecheck.extract.incremental.assembly import Run


from citecheck.extract.models import (
    CaseName,
    Citation,
    CiteForm,
    Parenthetical,
    Pincite,
    PinPage,
    Quote,
)
from citecheck.extract.normalise import citation_text
from citecheck.extract.paragraph import ParagraphResult
from citecheck.extract.records import fast_constructor, positional_constructor
from citecheck.spans import Span, unchecked_span

_citation_at = positional_constructor(Citation)
#: the same objects as the classes' constructors make, at about half the cost (thousands a document)
_case_name_at = positional_constructor(CaseName)
_pincite_at = positional_constructor(Pincite)
_pin_page_at = positional_constructor(PinPage)
_new_quote = fast_constructor(Quote)
_parenthetical = fast_constructor(Parenthetical)


#: The one string of a value: a citation's short strings (its text, volume, page, the reporter as written,
#: a case name, a pin) recur all through a document, and each paragraph's extraction (a worker's,
#: unpickled) has its own copies; ~150 bytes a citation of a 100,000-citation brief (issue 40). Interned
#: strings are freed with their last reference. (Called inline, ``None if s is None else _intern(s)``.)
_intern = sys.intern


def _sp(s: Span, d: int) -> Span:
    return unchecked_span(s.start + d, s.end + d)


class Shifter:
    """Moves one paragraph's objects by ``d``; objects shared between citations (a group's case name
    and parentheticals, a sentence's quotes) are moved once: keyed by the object's identity (``id``:
    the paragraph's result holds them all while the shifter lives), so citations that shared one
    share its moved copy. (Keyed by value, each look-up hashed the object, its spans and its strings
    through the dataclasses' ``__hash__``: ~5 calls a citation.)"""

    __slots__ = ("borrowed", "d", "names", "parentheticals", "quoted", "spans")

    def __init__(self, d: int) -> None:
        self.d = d
        self.spans: dict[int, Span] = {}
        self.names: dict[int, CaseName] = {}
        self.quoted: dict[int, Quote] = {}
        self.parentheticals: dict[tuple[int, ...], tuple[Parenthetical, ...]] = {}
        self.borrowed: dict[int, tuple[str, Span]] = {}  # span in the paragraph before -> (its text, span)

    def borrowed_proposition(self, text: str, src: Span, src_off: int) -> tuple[str, Span]:
        """The previous paragraph's sentence as the proposition, one string for every citation that borrows
        it (a copy per citation took a hundred megabytes on a one-line brief of 100,000 citations)."""
        got = self.borrowed.get(id(src))
        if got is None:
            ps = _sp(src, src_off)
            got = self.borrowed[id(src)] = (text[ps.start : ps.end], ps)
        return got

    def span(self, s: Span) -> Span:
        return unchecked_span(s.start + self.d, s.end + self.d)

    def shared_span(self, s: Span) -> Span:
        got = self.spans.get(id(s))
        if got is None:
            got = self.spans[id(s)] = unchecked_span(s.start + self.d, s.end + self.d)
        return got

    def name(self, n: CaseName | None) -> CaseName | None:
        if n is None or not self.d:
            return n
        got = self.names.get(id(n))
        if got is None:
            d = self.d
            got = self.names[id(n)] = _case_name_at(
                _intern(n.text),  # text
                unchecked_span(n.span.start + d, n.span.end + d),  # span
                None if (s := n.plaintiff) is None else _intern(s),  # plaintiff
                None if (s := n.defendant) is None else _intern(s),  # defendant
            )
        return got

    def pin(self, p: Pincite | None) -> Pincite | None:
        if p is None or not self.d:
            return p
        d = self.d
        start, end = p.span.start, p.span.end
        whole = unchecked_span(start + d, end + d)
        # the fields in their order (``positional_constructor``; tests/extract/test_records.py)
        return _pincite_at(
            _intern(p.text),  # text
            whole,  # span
            tuple(
                [
                    _pin_page_at(
                        _intern(x.first),  # first
                        None if (s := x.last) is None else _intern(s),  # last
                        x.footnote,  # footnote
                        x.star,  # star
                        # a pin of one page is its one part: one span for both (~100 bytes a citation)
                        whole
                        if x.span.start == start and x.span.end == end
                        else unchecked_span(x.span.start + d, x.span.end + d),  # span
                    )
                    for x in p.parts
                ]
            ),  # parts
            p.malformed,  # malformed
        )

    def quotes(self, qs: tuple[Quote, ...]) -> tuple[Quote, ...]:
        if not qs or not self.d:
            return qs
        return tuple(self.quote(q) for q in qs)

    def quote(self, q: Quote) -> Quote:
        got = self.quoted.get(id(q))
        if got is None:
            got = self.quoted[id(q)] = _new_quote(text=q.text, span=self.span(q.span), block=q.block)
        return got

    def parens(self, ps: tuple[Parenthetical, ...]) -> tuple[Parenthetical, ...]:
        if not ps or not self.d:
            return ps
        key = tuple(map(id, ps))  # a parallel group's members hold copies of one list of them
        got = self.parentheticals.get(key)
        if got is None:
            got = self.parentheticals[key] = tuple(
                _parenthetical(text=p.text, span=self.span(p.span)) for p in ps
            )
        return got


def _pin(p: Pincite | None, d: int) -> Pincite | None:
    return Shifter(d).pin(p)


def _quote(q: Quote, d: int) -> Quote:
    return q if d == 0 else Quote(text=q.text, span=_sp(q.span, d), block=q.block)


def shift_citation(
    c: Citation,
    d: int,
    *,
    index: int,
    group: int | None,
    antecedent: int | None,
    paragraph: int,
    quotes: tuple[Quote, ...] | None = None,
    proposition: tuple[str, Span] | None = None,
    shifter: Shifter | None = None,
) -> Citation:
    """``c`` with every span moved by ``d`` and the document-level fields set."""
    sh = shifter if shifter is not None else Shifter(d)
    prop, prop_span = c.proposition, c.proposition_span
    if proposition is not None:
        prop, prop_span = proposition
    elif prop_span is not None and d:
        prop_span = sh.shared_span(prop_span)  # one sentence, many citations
    date_span = c.date_span
    if date_span is not None and d:
        date_span = sh.shared_span(date_span)  # parallel cites share it
    cs = c.span
    span = unchecked_span(cs.start + d, cs.end + d)
    full = c.full_span  # the same as the span, often: one object for both (compared by its two fields)
    full = (
        span
        if full.start == cs.start and full.end == cs.end
        else unchecked_span(full.start + d, full.end + d)
    )
    # the fields in their order (``positional_constructor``; tests/extract/test_records.py checks the
    # names); the strings interned (``_one``) as conditional expressions, not a call each
    return _citation_at(
        index,  # index
        c.form,  # form
        span,  # span
        full,  # full_span
        _intern(c.text),  # text
        None if (s := c.volume) is None else _intern(s),  # volume
        None if (s := c.reporter) is None else _intern(s),  # reporter
        None if (s := c.reporter_as_written) is None else _intern(s),  # reporter_as_written
        None if (s := c.page) is None else _intern(s),  # page
        c.database,  # database
        c.foreign,  # foreign
        c.agency,  # agency
        c.listed,  # listed
        None if (n := c.case_name) is None else sh.name(n),  # case_name
        None if (p := c.pincite) is None else sh.pin(p),  # pincite
        c.court,  # court
        None if (s := c.court_text) is None else _intern(s),  # court_text
        c.year,  # year
        None if (s := c.date) is None else _intern(s),  # date
        date_span,  # date_span
        sh.parens(ps) if (ps := c.parentheticals) else ps,  # parentheticals
        c.history,  # history
        quotes if quotes is not None else sh.quotes(c.quotes),  # quotes
        prop,  # proposition
        prop_span,  # proposition_span
        group,  # group
        antecedent,  # antecedent
        None if (s := c.antecedent_text) is None else _intern(s),  # antecedent_text
        paragraph,  # paragraph
        c.statute,  # statute
    )


def build_paragraph(run: Run, para: int) -> tuple[Citation, ...]:
    text, plan, res = run.text, run.plans[para], run.results[para]
    off = run.paragraphs[para][0]
    prev = run.results[para - 1] if para else None
    prev_off = run.paragraphs[para - 1][0] if para else 0
    sh = Shifter(off)
    cits = res.citations
    base = run.first_of(para)
    out = []
    for i, e in enumerate(plan.steps):
        if type(e) is CiteStep and not e.block and not e.prop_prev:
            out.append(
                shift_citation(
                    cits[e.k],
                    off,
                    index=base + i,
                    group=None if e.group is None else base + e.group,
                    antecedent=run.index_of(e.antecedent, para),
                    paragraph=para,
                    shifter=sh,
                )
            )
        else:
            out.append(build_step(run, text, off, para, res, prev, prev_off, e, sh, base + i))
    return tuple(out)


def build_step(
    run: Run,
    text: str,
    off: int,
    para: int,
    res: ParagraphResult,
    prev: ParagraphResult | None,
    prev_off: int,
    e: Step,
    sh: Shifter,
    index: int,
) -> Citation:
    if type(e) is RefStep:
        r = res.refs[e.k]
        span = Span(off + e.start, off + r.pincite.span.end)
        prop_span, ref_quotes, _np = res.ref_props[e.k]
        return Citation(
            index=index,
            form=CiteForm.REFERENCE,
            span=span,
            full_span=span,
            text=citation_text(text[span.start : span.end]),
            pincite=_pin(r.pincite, off),
            quotes=tuple(_quote(q, off) for q in ref_quotes),
            proposition=None if prop_span is None else text[off + prop_span.start : off + prop_span.end],
            proposition_span=None if prop_span is None else _sp(prop_span, off),
            group=index,
            antecedent=run.index_of(e.antecedent, para),
            antecedent_text=" ".join(e.name.split()),
            paragraph=para,
        )
    assert type(e) is CiteStep
    c = res.citations[e.k]
    quotes: tuple[Quote, ...] | None = None
    proposition: tuple[str, Span] | None = None
    if e.block and prev is not None and prev.block is not None:
        quotes = (_quote(prev.block, prev_off), *(_quote(q, off) for q in c.quotes))
    if e.prop_prev and prev is not None:
        # a citation standing alone under a block quote is offered for the block quote itself
        src = prev.block.span if (prev.block is not None and res.leading[e.k]) else prev.last_sentence
        if src is not None:
            proposition = sh.borrowed_proposition(text, src, prev_off)
    return shift_citation(
        c,
        off,
        index=index,
        group=None if e.group is None else run.first_of(para) + e.group,
        antecedent=run.index_of(e.antecedent, para),
        paragraph=para,
        quotes=quotes,
        proposition=proposition,
        shifter=sh,
    )
