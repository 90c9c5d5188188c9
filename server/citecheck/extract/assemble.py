"""The document pass: paragraph results → one ``Extraction`` with absolute spans and resolved short forms.

It is deliberately cheap (no scanning, only arithmetic over the cached paragraph results), because it
runs on every keystroke over the whole document:

- shift each paragraph's spans by the paragraph's offset and number the citations in document order;
- accept ``Name at 116`` reference candidates whose name is a party to an earlier full citation
  (one pass per document, replacing eyecite's per-citation re-scan of the rest of the text);
- resolve short forms: ``Id.`` → the previous authority (WL star pins included; a statute or record
  cite in between breaks the chain; citations inside another's parenthetical are skipped), short
  cites → the earlier full cite with the same volume and reporter (the name breaks ties), ``supra`` and
  references → the latest full cite whose party names contain the short name;
- bring in what lives in the neighbouring paragraph: the block quote a citation follows, and the
  sentence before a paragraph that is only a citation.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from citecheck.extract.models import (
    CaseName,
    Citation,
    CiteForm,
    Extraction,
    Parenthetical,
    Pincite,
    PinPage,
    Quote,
)
from citecheck.extract.paragraph import ParagraphResult, RefCandidate
from citecheck.spans import Span

_GENERIC = frozenset(
    "united states state people commonwealth in re the city county ex parte matter of estate government".split()
)
_PUNCT = re.compile(r"[^\w\s&']")


def norm_name(s: str) -> str:
    return " ".join(_PUNCT.sub(" ", s.lower().replace("\u2019", "'")).split())


@dataclass(slots=True)
class _Full:
    index: int
    group: int
    volume: str | None
    reporter: str | None
    names: tuple[str, ...]  # normalised plaintiff, defendant, whole name
    short_names: frozenset[str]  # single words / parties usable as "Roe at 116"


@dataclass(slots=True)
class _State:
    fulls: list[_Full] = field(default_factory=list)
    last_authority: int | None = None


def _sp(s: Span, d: int) -> Span:
    return Span(s.start + d, s.end + d)


def _pin(p: Pincite | None, d: int) -> Pincite | None:
    if p is None or d == 0:
        return p
    return Pincite(
        text=p.text,
        span=_sp(p.span, d),
        parts=tuple(
            PinPage(first=x.first, last=x.last, footnote=x.footnote, star=x.star, span=_sp(x.span, d))
            for x in p.parts
        ),
        malformed=p.malformed,
    )


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
) -> Citation:
    """``c`` with every span moved by ``d`` and the document-level fields set."""
    name = c.case_name
    if name is not None and d:
        name = CaseName(
            text=name.text, span=_sp(name.span, d), plaintiff=name.plaintiff, defendant=name.defendant
        )
    prop, prop_span = c.proposition, c.proposition_span
    if proposition is not None:
        prop, prop_span = proposition
    elif prop_span is not None:
        prop_span = _sp(prop_span, d)
    return Citation(
        index=index,
        form=c.form,
        span=_sp(c.span, d),
        full_span=_sp(c.full_span, d),
        text=c.text,
        volume=c.volume,
        reporter=c.reporter,
        reporter_as_written=c.reporter_as_written,
        page=c.page,
        database=c.database,
        case_name=name,
        pincite=_pin(c.pincite, d),
        court=c.court,
        court_text=c.court_text,
        year=c.year,
        date=c.date,
        date_span=None if c.date_span is None else _sp(c.date_span, d),
        parentheticals=tuple(Parenthetical(text=p.text, span=_sp(p.span, d)) for p in c.parentheticals)
        if d
        else c.parentheticals,
        history=c.history,
        quotes=quotes if quotes is not None else tuple(_quote(q, d) for q in c.quotes),
        proposition=prop,
        proposition_span=prop_span,
        group=group,
        antecedent=antecedent,
        antecedent_text=c.antecedent_text,
        paragraph=paragraph,
    )


def _full_record(c: Citation, index: int, group: int) -> _Full:
    names: list[str] = []
    shorts: set[str] = set()
    if c.case_name is not None:
        for party in (c.case_name.plaintiff, c.case_name.defendant):
            if party:
                p = norm_name(party)
                names.append(p)
                shorts.add(p)
                words = [w for w in p.split() if w not in _GENERIC]
                if words:
                    shorts.add(words[0])
        names.append(norm_name(c.case_name.text))
    return _Full(index, group, c.volume, c.reporter, tuple(names), frozenset(shorts))


def _name_matches(short: str, full: _Full) -> bool:
    s = norm_name(short)
    if not s:
        return False
    return any(f" {s} " in f" {n} " for n in full.names)


def _suffixes(name: str) -> list[str]:
    """``"Md. Donze"`` → ``["Md. Donze", "Donze"]``: the name as written first, then shorter tails."""
    words = name.split()
    return [" ".join(words[k:]) for k in range(len(words))]


def _resolve_short(c: Citation, st: _State) -> int | None:
    same = [f for f in st.fulls if f.volume == c.volume and f.reporter == c.reporter]
    if not same:
        return None
    if c.antecedent_text:
        for name in _suffixes(c.antecedent_text):
            named = [f for f in same if _name_matches(name, f)]
            if named:
                return named[-1].index
    return same[-1].index


def _resolve_supra(c: Citation, st: _State) -> int | None:
    if not c.antecedent_text:
        return None
    for name in _suffixes(c.antecedent_text):
        for f in reversed(st.fulls):
            if _name_matches(name, f):
                return f.index
    return None


def _resolve_reference(r: RefCandidate, text: str, offset: int, st: _State) -> tuple[int, int, str] | None:
    """(antecedent index, word position where the name starts, name) for a valid ``Name at N``."""
    words = r.words
    for k in range(len(words)):  # longest name first
        s = words[k][0]
        name = norm_name(text[offset + s : offset + r.name_end])
        if not name or name in _GENERIC:
            continue
        for f in reversed(st.fulls):
            if name in f.short_names:
                return f.index, s, text[offset + s : offset + r.name_end]
    return None


def assemble(text: str, paragraphs: list[tuple[int, int]], results: list[ParagraphResult]) -> Extraction:
    out: list[Citation] = []
    st = _State()
    prev: ParagraphResult | None = None
    prev_off = 0
    for pno, ((off, _end), res) in enumerate(zip(paragraphs, results, strict=True)):
        order: list[tuple[int, int, object]] = [(c.span.start, 0, k) for k, c in enumerate(res.citations)]
        if res.refs:
            order.extend((r.words[0][0], 1, k) for k, r in enumerate(res.refs))
            order.sort(key=lambda t: (t[0], t[1]))
        local_to_global: dict[int, int] = {}
        for _pos, kind, k in order:
            index = len(out)
            if kind == 1:
                r = res.refs[k]  # type: ignore[index]
                found = _resolve_reference(r, text, off, st)
                if found is None:
                    continue
                ante, s, name = found
                span = Span(off + s, off + r.pincite.span.end)
                prop_span, quotes, _np = res.ref_props[k]  # type: ignore[index]
                out.append(
                    Citation(
                        index=index,
                        form=CiteForm.REFERENCE,
                        span=span,
                        full_span=span,
                        text=text[span.start : span.end],
                        pincite=_pin(r.pincite, off),
                        quotes=tuple(_quote(q, off) for q in quotes),
                        proposition=None
                        if prop_span is None
                        else text[off + prop_span.start : off + prop_span.end],
                        proposition_span=None if prop_span is None else _sp(prop_span, off),
                        group=index,
                        antecedent=ante,
                        antecedent_text=" ".join(name.split()),
                        paragraph=pno,
                    )
                )
                st.last_authority = ante
                continue
            c = res.citations[k]  # type: ignore[index]
            local_to_global[k] = index  # type: ignore[index]
            nested = res.nested[k]  # type: ignore[index]
            if res.barrier_before[k]:  # type: ignore[index]
                st.last_authority = None
            group: int | None = None
            antecedent: int | None = None
            if c.form in (CiteForm.FULL, CiteForm.UNRECOGNISED):
                group = local_to_global.get(c.group if c.group is not None else k, index)
            elif c.form is CiteForm.SHORT:
                antecedent = _resolve_short(c, st)
            elif c.form is CiteForm.SUPRA:
                antecedent = _resolve_supra(c, st)
            elif c.form is CiteForm.ID:
                antecedent = st.last_authority
            quotes: tuple[Quote, ...] | None = None
            proposition: tuple[str, Span] | None = None
            if res.leading[k] and prev is not None and prev.block is not None:  # type: ignore[index]
                quotes = (_quote(prev.block, prev_off), *(_quote(q, off) for q in c.quotes))
            if res.needs_prev[k] and prev is not None:  # type: ignore[index]
                # a citation standing alone under a block quote is offered for the block quote itself
                src = prev.block.span if (prev.block is not None and res.leading[k]) else prev.last_sentence  # type: ignore[index]
                if src is not None:
                    ps = _sp(src, prev_off)
                    proposition = (text[ps.start : ps.end], ps)
            cit = shift_citation(
                c,
                off,
                index=index,
                group=group,
                antecedent=antecedent,
                paragraph=pno,
                quotes=quotes,
                proposition=proposition,
            )
            out.append(cit)
            if c.form in (CiteForm.FULL, CiteForm.UNRECOGNISED):
                st.fulls.append(_full_record(cit, index, group if group is not None else index))
                if not nested:
                    st.last_authority = group
            elif not nested and c.form is not CiteForm.ID:
                st.last_authority = antecedent
        if res.barrier_at_end:
            st.last_authority = None
        prev, prev_off = res, off
    return Extraction(text=text, citations=tuple(out))
