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

import itertools
import re
from bisect import bisect_left, bisect_right
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import lru_cache

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
from citecheck.extract.normalise import citation_text
from citecheck.extract.paragraph import ParagraphResult, RefCandidate
from citecheck.spans import Span

_GENERIC = frozenset(
    "united states state people commonwealth in re the city county ex parte matter of estate government".split()
)
_PUNCT = re.compile(r"[^\w\s&']")


def norm_name(s: str) -> str:
    return " ".join(_PUNCT.sub(" ", s.lower().replace("\u2019", "'")).split())


@dataclass(frozen=True, slots=True)
class _Full:
    """What short forms need to know about one full citation (value type: compared across runs)."""

    index: int
    group: int
    volume: str | None
    reporter: str | None
    padded: str  # " plaintiff | defendant | whole name " normalised, for word-sequence containment
    short_names: frozenset[str]  # parties and their first distinctive word: usable as "Roe at 116"
    page: int | None = None  # first page, for resolving "539 U. S., at 328" by page
    page_text: str | None = None  # as written: a local check names the earlier cites of a volume
    full_form: bool = True  # a FULL citation (else UNRECOGNISED)


@dataclass(slots=True)
class _State:
    """The full citations seen so far (in order) and the authority a following ``Id.`` means.

    Lookups scan backwards (the latest match wins); a plain list makes the state at any earlier
    paragraph a prefix of this one."""

    fulls: list[_Full] = field(default_factory=list)
    last_authority: int | None = None
    #: where to look instead of scanning every full citation (built lazily, see ``_index``)
    by_word: dict[str, list[int]] = field(default_factory=dict)  # word of a name -> positions in ``fulls``
    by_cite: dict[tuple[str | None, str | None], list[int]] = field(default_factory=dict)
    by_short: dict[str, list[int]] = field(default_factory=dict)
    indexed: int = 0
    restored: bool = False  # ``fulls`` came from an earlier run: look up in its index (``base``) instead
    base: _Shared | None = None  # the index an earlier run left (valid where ``fulls`` agrees with it)
    patches: list[int] = field(default_factory=list)  # positions in ``fulls`` that may differ from ``base``'s

    def fulls_by_index(self, index: int) -> _Full:
        """``fulls`` is in document order, so ascending by index: a binary search (scanning back from
        the end for every named short form was quadratic in a long brief)."""
        k = bisect_left(self.fulls, index, key=_full_index)
        if k < len(self.fulls) and self.fulls[k].index == index:
            return self.fulls[k]
        return next(f for f in reversed(self.fulls) if f.index == index)


@dataclass(slots=True, eq=False)
class _Shared:
    """The lookup indexes of one run's full citations, handed on to the runs that continue it: a
    keystroke's run restores most of the previous run's ``fulls`` and looks names up here, scanning
    only the positions it changed (``_State.patches``) — indexing everything again, or scanning every
    full citation for each short form, would cost time proportional to the brief on every keystroke.
    Built lazily: ``fulls`` never changes once its run is over, so completing the index later is safe."""

    fulls: list[_Full]
    by_word: dict[str, list[int]]
    by_cite: dict[tuple[str | None, str | None], list[int]]
    by_short: dict[str, list[int]]
    indexed: int

    def ensure(self) -> _Shared:
        for pos in range(self.indexed, len(self.fulls)):
            _index_one(self.fulls[pos], pos, self.by_word, self.by_cite, self.by_short)
        self.indexed = len(self.fulls)
        return self


#: more changed positions than this in one run: index the run's own full citations instead
_PATCH_LIMIT = 256


def _index_one(f: _Full, pos: int, by_word: dict[str, list[int]],
               by_cite: dict[tuple[str | None, str | None], list[int]], by_short: dict[str, list[int]]) -> None:
    for w in set(f.padded.split()):
        by_word.setdefault(w, []).append(pos)
    by_cite.setdefault((f.volume, f.reporter), []).append(pos)
    for name in f.short_names:
        by_short.setdefault(name, []).append(pos)


def _candidates(st: _State, table: str, key: object) -> list[int] | None:
    """Ascending positions in ``st.fulls`` that may match ``key`` in one of the indexes (``by_word``,
    ``by_cite``, ``by_short``) — a superset: callers check each full citation — or None: scan them all."""
    if not st.restored:
        _index(st)
        return getattr(st, table).get(key, [])  # type: ignore[no-any-return]
    if st.base is None:
        return None
    if len(st.patches) > _PATCH_LIMIT:  # too much changed: this run indexes its own
        st.restored, st.indexed = False, 0
        st.by_word, st.by_cite, st.by_short = {}, {}, {}
        _index(st)
        return getattr(st, table).get(key, [])  # type: ignore[no-any-return]
    posted: list[int] = getattr(st.base.ensure(), table).get(key, [])
    listed = posted[: bisect_left(posted, len(st.fulls))]
    if not st.patches:
        return list(listed)
    patched = set(st.patches)
    return sorted([p for p in listed if p not in patched] + st.patches)


def _patches_in(patches: list[int], start: int, end: int) -> list[int]:
    return patches[bisect_left(patches, start) : bisect_left(patches, end)]


def _full_index(f: _Full) -> int:
    return f.index


def _index(st: _State) -> _State | None:
    """The lookup indexes, brought up to ``st.fulls`` (None when it was restored from an earlier run:
    a keystroke re-assembles one paragraph, and scanning costs less than indexing everything again).
    Positions are ascending, so scanning one of the lists backwards visits the same full citations,
    in the same order, as scanning ``fulls`` backwards and skipping those that cannot match: in a
    whole-document run a short form costs its candidates, not the whole document."""
    if st.restored:
        return None
    for pos in range(st.indexed, len(st.fulls)):
        _index_one(st.fulls[pos], pos, st.by_word, st.by_cite, st.by_short)
    st.indexed = len(st.fulls)
    return st


_new = object.__new__
_set_start = Span.__dict__["start"].__set__
_set_end = Span.__dict__["end"].__set__


def _span(start: int, end: int) -> Span:
    """``Span(start, end)`` without the constructor's checks: only for moving an already valid span
    by a paragraph offset (never negative), which cannot make it invalid. About twice as fast, and a
    keystroke moves thousands of spans."""
    s = _new(Span)
    _set_start(s, start)
    _set_end(s, end)
    return s


def _make_fast_constructor(cls: type) -> object:
    """A keyword-only constructor for a frozen slotted dataclass that stores the fields through the
    slot descriptors: the same object as ``cls(**kw)`` (fields not passed take their defaults, a
    ``__post_init__`` still runs) at under half the cost of the generated ``__init__``, which sets
    each field through ``object.__setattr__``. Used only for rebuilding citations on keystrokes."""
    import dataclasses

    fields = dataclasses.fields(cls)
    ns: dict[str, object] = {"_new": object.__new__, "_cls": cls}
    params = []
    body = ["    o = _new(_cls)"]
    for i, f in enumerate(fields):
        ns[f"_s{i}"] = cls.__dict__[f.name].__set__
        if f.default is not dataclasses.MISSING:
            ns[f"_d{i}"] = f.default
            params.append(f"{f.name}=_d{i}")
        elif f.default_factory is not dataclasses.MISSING:
            ns[f"_f{i}"] = f.default_factory
            params.append(f"{f.name}=None")
            body.append(f"    if {f.name} is None: {f.name} = _f{i}()")
        else:
            params.append(f.name)
        body.append(f"    _s{i}(o, {f.name})")
    if hasattr(cls, "__post_init__"):
        body.append("    o.__post_init__()")
    body.append("    return o")
    exec("def make(*, " + ", ".join(params) + "):\n" + "\n".join(body), ns)
    return ns["make"]


_citation = _make_fast_constructor(Citation)


def _sp(s: Span, d: int) -> Span:
    return _span(s.start + d, s.end + d)


class _Shifter:
    """Moves one paragraph's objects by ``d``; objects shared between citations (a group's case name
    and parentheticals, a sentence's quotes) are moved once."""

    __slots__ = ("borrowed", "d", "done")

    def __init__(self, d: int) -> None:
        self.d = d
        self.done: dict[int, object] = {}
        self.borrowed: dict[int, tuple[str, Span]] = {}  # id(span in the paragraph before) -> (its text, span)

    def borrowed_proposition(self, text: str, src: Span, src_off: int) -> tuple[str, Span]:
        """The previous paragraph's sentence as the proposition, one string for every citation that borrows
        it (a copy per citation took a hundred megabytes on a one-line brief of 100,000 citations)."""
        got = self.borrowed.get(id(src))
        if got is None:
            ps = _sp(src, src_off)
            got = self.borrowed[id(src)] = (text[ps.start : ps.end], ps)
        return got

    def span(self, s: Span) -> Span:
        return _span(s.start + self.d, s.end + self.d)

    def shared_span(self, s: Span) -> Span:
        got = self.done.get(id(s))
        if got is None:
            got = self.done[id(s)] = _span(s.start + self.d, s.end + self.d)
        return got  # type: ignore[return-value]

    def name(self, n: CaseName | None) -> CaseName | None:
        if n is None or not self.d:
            return n
        got = self.done.get(id(n))
        if got is None:
            got = self.done[id(n)] = CaseName(
                text=n.text, span=self.span(n.span), plaintiff=n.plaintiff, defendant=n.defendant
            )
        return got  # type: ignore[return-value]

    def pin(self, p: Pincite | None) -> Pincite | None:
        if p is None or not self.d:
            return p
        d = self.d
        return Pincite(
            text=p.text,
            span=_span(p.span.start + d, p.span.end + d),
            parts=tuple(
                [
                    PinPage(
                        first=x.first,
                        last=x.last,
                        footnote=x.footnote,
                        star=x.star,
                        span=_span(x.span.start + d, x.span.end + d),
                    )
                    for x in p.parts
                ]
            ),
            malformed=p.malformed,
        )

    def quotes(self, qs: tuple[Quote, ...]) -> tuple[Quote, ...]:
        if not qs or not self.d:
            return qs
        return tuple(self.quote(q) for q in qs)

    def quote(self, q: Quote) -> Quote:
        got = self.done.get(id(q))
        if got is None:
            got = self.done[id(q)] = Quote(text=q.text, span=self.span(q.span), block=q.block)
        return got  # type: ignore[return-value]

    def parens(self, ps: tuple[Parenthetical, ...]) -> tuple[Parenthetical, ...]:
        if not ps or not self.d:
            return ps
        got = self.done.get(id(ps))
        if got is None:
            got = self.done[id(ps)] = tuple(Parenthetical(text=p.text, span=self.span(p.span)) for p in ps)
        return got  # type: ignore[return-value]


def _pin(p: Pincite | None, d: int) -> Pincite | None:
    return _Shifter(d).pin(p)


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
    shifter: _Shifter | None = None,
) -> Citation:
    """``c`` with every span moved by ``d`` and the document-level fields set."""
    sh = shifter if shifter is not None else _Shifter(d)
    prop, prop_span = c.proposition, c.proposition_span
    if proposition is not None:
        prop, prop_span = proposition
    elif prop_span is not None and d:
        prop_span = sh.shared_span(prop_span)  # one sentence, many citations
    date_span = c.date_span
    if date_span is not None and d:
        date_span = sh.shared_span(date_span)  # parallel cites share it
    span = _span(c.span.start + d, c.span.end + d)
    full = c.full_span
    full = span if full == c.span else _span(full.start + d, full.end + d)
    return _citation(  # type: ignore[operator, no-any-return]
        index=index,
        form=c.form,
        span=span,
        full_span=full,
        text=c.text,
        volume=c.volume,
        reporter=c.reporter,
        reporter_as_written=c.reporter_as_written,
        page=c.page,
        database=c.database,
        foreign=c.foreign,
        case_name=sh.name(c.case_name),
        pincite=sh.pin(c.pincite),
        court=c.court,
        court_text=c.court_text,
        year=c.year,
        date=c.date,
        date_span=date_span,
        parentheticals=sh.parens(c.parentheticals),
        history=c.history,
        quotes=quotes if quotes is not None else sh.quotes(c.quotes),
        proposition=prop,
        proposition_span=prop_span,
        group=group,
        antecedent=antecedent,
        antecedent_text=c.antecedent_text,
        paragraph=paragraph,
    )


@lru_cache(maxsize=65_536)
def _names_of(name: CaseName | None) -> tuple[str, frozenset[str]]:
    """(padded names, short names) of a case name."""
    if name is None:
        return "", frozenset()
    names: list[str] = []
    shorts: set[str] = set()
    for party in (name.plaintiff, name.defendant):
        if party:
            p = norm_name(party)
            names.append(p)
            shorts.add(p)
            words = [w for w in p.split() if w not in _GENERIC]
            if words:
                shorts.add(words[0])
    names.append(norm_name(name.text))
    return " " + " | ".join(names) + " ", frozenset(shorts)


def _add_full(st: _State, c: Citation, index: int, group: int) -> None:
    padded, shorts = _names_of(c.case_name)
    page = int(c.page) if c.page and c.page.isdigit() else None
    st.fulls.append(_Full(index, group, c.volume, c.reporter, padded, shorts, page, c.page, c.form is CiteForm.FULL))
    if st.restored:
        st.patches.append(len(st.fulls) - 1)


@lru_cache(maxsize=65_536)
def _suffixes(name: str) -> tuple[str, ...]:
    """``"Md. Donze"`` → ``(" md donze ", " donze ")``: the name as written first, then shorter tails,
    normalised and padded for word-sequence containment."""
    words = norm_name(name).split()
    return tuple(f" {' '.join(words[k:])} " for k in range(len(words)))


def _latest(
    st: _State,
    names: tuple[str, ...],
    volume: str | None = None,
    reporter: str | None = None,
    *,
    same_reporter: bool = False,
) -> int | None:
    """The latest full citation whose names contain the earliest-listed of ``names`` that any
    contains (so the whole short name beats its tail); restricted to one volume and reporter when
    ``same_reporter``, falling back then to the latest of those."""
    fallback: int | None = None
    best: int | None = None
    best_rank = len(names)
    scan: Iterable[_Full] = reversed(st.fulls)
    candidates: list[int] | None = None
    if same_reporter:
        candidates = _candidates(st, "by_cite", (volume, reporter))
    elif names and names[-1].split():  # every name is a tail of the first: all contain its last word
        candidates = _candidates(st, "by_word", names[-1].split()[-1])
    if candidates is not None:
        scan = (st.fulls[pos] for pos in reversed(candidates))
    for f in scan:
        if same_reporter:
            if f.volume != volume or f.reporter != reporter:
                continue
            if fallback is None:
                fallback = f.index
        for rank in range(best_rank):
            if names[rank] in f.padded:
                best, best_rank = f.index, rank
                break
        if best_rank == 0:
            break
    return best if best is not None else fallback


def _resolve_short(c: Citation, st: _State) -> int | None:
    """A named short form goes to the case with that name; otherwise (or when no earlier cite of the
    volume has the name) to the case whose pages can hold the pin.

    Cases in a volume do not overlap, so of the cases cited in full from the volume, the one with the
    greatest first page at or below the pin is the only one that can contain it: in an opinion citing
    both Gratz v. Bollinger, 539 U. S. 244 and Grutter v. Bollinger, 539 U. S. 306, "539 U. S., at
    328" is Grutter. When the pin is below every first page, or two different cases begin on that
    page, the short form stays unresolved rather than guessed.
    """
    names = _suffixes(c.antecedent_text) if c.antecedent_text else ()
    if names:
        named = _latest(st, names, c.volume, c.reporter, same_reporter=True)
        if named is not None and any(n in st.fulls_by_index(named).padded for n in names):
            return named
    pin = c.pincite.parts[0].first if c.pincite and c.pincite.parts else None
    listed = _candidates(st, "by_cite", (c.volume, c.reporter))
    pool = st.fulls if listed is None else (st.fulls[pos] for pos in listed)
    same = [f for f in pool if f.volume == c.volume and f.reporter == c.reporter]
    if not same:
        return None
    if pin is None or not pin.isdigit() or any(f.page is None for f in same):
        return same[-1].index  # no page to go by: the latest cite of the volume, as before
    below = [f for f in same if f.page is not None and f.page <= int(pin)]
    if not below:
        return None
    top = max(f.page for f in below if f.page is not None)
    holders = {f.group for f in below if f.page == top}
    if len(holders) > 1:
        return None
    return max(f.index for f in below if f.page == top)


def _resolve_supra(c: Citation, st: _State) -> int | None:
    if not c.antecedent_text:
        return None
    return _latest(st, _suffixes(c.antecedent_text))


def _resolve_reference(r: RefCandidate, text: str, offset: int, st: _State) -> tuple[int, int, str] | None:
    """(antecedent index, word position where the name starts, name) for a valid ``Name at N``."""
    if not st.fulls:
        return None
    words = r.words
    for k in range(len(words)):  # longest name first
        s = words[k][0]
        name = norm_name(text[offset + s : offset + r.name_end])
        if not name or name in _GENERIC:
            continue
        listed = _candidates(st, "by_short", name)
        pool = reversed(st.fulls) if listed is None else (st.fulls[pos] for pos in reversed(listed))
        for f in pool:
            if name in f.short_names:
                return f.index, s, text[offset + s : offset + r.name_end]
    return None


Plan = list[tuple[object, ...]]
#: after planning this many paragraphs again in one run, index the full citations instead of scanning them
_INDEX_AFTER = 8


@dataclass(slots=True)
class Run:
    """What one run over a document leaves for the next run over the same (edited) document, and
    everything needed to build its citations later (``DocumentExtraction``)."""

    text: str
    paragraphs: list[tuple[int, int]]
    results: list[ParagraphResult]  # per paragraph (the same object while its text is the same)
    before: list[tuple[int, int | None, int]]  # per paragraph: fulls seen, last authority, citations before
    after: tuple[int, int | None, int]  # the same after the last paragraph
    plans: list[Plan]
    built: list[tuple[Citation, ...] | None]  # per paragraph; None until something asks for it
    fulls: list[_Full]
    #: this run's number, the number of the run it continued (None: none), and where the text differs
    #: from that run's (``[start, end]`` of this text; None: unknown) — what lets a per-paragraph memo
    #: take the paragraphs far from the edit over in bulk
    serial: int = 0
    prior_serial: int | None = None
    edited: tuple[int, int] | None = None
    index: _Shared | None = None  # the lookup indexes ``fulls`` agrees with, except at ``patches``
    patches: list[int] = field(default_factory=list)
    queries: Queries = field(default_factory=dict)  # see ``_PrefixCheck.queries``

    def paragraph(self, pno: int) -> tuple[Citation, ...]:
        """Paragraph ``pno``'s citations with absolute spans and numbers (built once, on demand)."""
        got = self.built[pno]
        if got is None:
            got = self.built[pno] = _build_paragraph(self, pno)
        return got

    def first_of(self, pno: int) -> int:
        """The index of paragraph ``pno``'s first citation."""
        return self.before[pno][2] if pno < len(self.before) else self.after[2]


def _build_paragraph(run: Run, pno: int) -> tuple[Citation, ...]:
    text, plan, res = run.text, run.plans[pno], run.results[pno]
    off = run.paragraphs[pno][0]
    prev = run.results[pno - 1] if pno else None
    prev_off = run.paragraphs[pno - 1][0] if pno else 0
    sh = _Shifter(off)
    cits = res.citations
    return tuple(
        shift_citation(
            cits[e[1]],  # type: ignore[call-overload]
            off,
            index=e[2],  # type: ignore[arg-type]
            group=e[3],  # type: ignore[arg-type]
            antecedent=e[4],  # type: ignore[arg-type]
            paragraph=pno,
            shifter=sh,
        )
        if e[0] == "c" and not e[5] and not e[6]
        else _build(text, off, pno, res, prev, prev_off, e, sh)
        for e in plan
    )


def uses_prev(plan: Plan) -> bool:
    """Whether a paragraph's citations read the paragraph before it (a block quote, its last sentence)."""
    return any(e[0] == "c" and (e[5] or e[6]) for e in plan)


_ext_citations = Extraction.__dict__["citations"]


class DocumentExtraction(Extraction):
    """An ``Extraction`` whose citations are built when first asked for.

    A keystroke moves every citation after it; building them all again costs time proportional to the
    document, and the keystroke path (local findings, the hold, ignore keys) needs only the paragraphs
    the edit touched. ``citations`` is the full tuple, equal to ``extract_citations(text).citations``;
    ``paragraph_citations``, ``citation``, ``resolved``, ``at`` and ``touching`` build only the
    paragraphs they look at. Building is pure, so two threads asking at once get equal tuples.
    """

    __slots__ = ("run",)
    run: Run

    def __init__(self, run: Run) -> None:
        Extraction.__dict__["text"].__set__(self, run.text)
        object.__setattr__(self, "run", run)

    @property  # type: ignore[override]
    def citations(self) -> tuple[Citation, ...]:
        try:
            return _ext_citations.__get__(self)  # type: ignore[no-any-return]
        except AttributeError:
            run = self.run
            out: list[Citation] = []
            for pno in range(len(run.plans)):
                out.extend(run.paragraph(pno))
            got = tuple(out)
            _ext_citations.__set__(self, got)
            return got

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Extraction):
            return NotImplemented
        return self.text == other.text and self.citations == other.citations

    __hash__ = Extraction.__hash__

    def __repr__(self) -> str:
        return f"DocumentExtraction({len(self.text)} chars, {self.run.after[2]} citations)"

    @property
    def paragraph_count(self) -> int:
        return len(self.run.plans)

    def paragraph_citations(self, pno: int) -> tuple[Citation, ...]:
        return self.run.paragraph(pno)

    def paragraph_of(self, index: int) -> int:
        """The paragraph holding citation ``index``."""
        run = self.run
        lo, hi = 0, len(run.plans) - 1
        while lo < hi:  # the last paragraph whose first citation is at or before ``index``
            mid = (lo + hi + 1) // 2
            if run.before[mid][2] <= index:
                lo = mid
            else:
                hi = mid - 1
        return lo

    def citation(self, index: int) -> Citation:
        """``citations[index]``, building only its paragraph."""
        if not 0 <= index < self.run.after[2]:
            raise IndexError(index)
        pno = self.paragraph_of(index)
        return self.run.paragraph(pno)[index - self.run.first_of(pno)]

    def resolved(self, citation: Citation) -> Citation | None:
        if citation.form is CiteForm.FULL:
            return citation
        if citation.antecedent is None:
            return None
        return self.citation(citation.antecedent)

    def touching(self, start: int, end: int) -> list[Citation]:
        """Citations whose full span touches ``[start, end]`` (a citation's full span lies in its
        paragraph, save for a borrowed block quote or sentence of the paragraph before)."""
        run = self.run
        first = bisect_right(run.paragraphs, (start, len(self.text) + 1)) - 1  # the last starting at or before
        out: list[Citation] = []
        for pno in range(max(0, first - 1), len(run.plans)):
            if run.paragraphs[pno][0] > end:
                break
            out.extend(
                c for c in run.paragraph(pno) if c.full_span.start <= end and start <= c.full_span.end
            )
        return out

    def earlier_full_cites(self, index: int, volume: str | None, reporter: str | None) -> list[str]:
        """``"volume reporter page"`` of each FULL citation before ``index`` from that volume, from the
        resolution records (no citation built)."""
        run = self.run
        pool: Iterable[_Full] = run.fulls
        if run.index is not None and len(run.patches) <= _PATCH_LIMIT:
            cited: list[int] = run.index.ensure().by_cite.get((volume, reporter), [])
            listed = cited[: bisect_left(cited, len(run.fulls))]
            patched = set(run.patches)
            pool = (run.fulls[p] for p in sorted([p for p in listed if p not in patched] + run.patches))
        return [
            f"{f.volume} {f.reporter} {f.page_text}"
            for f in pool
            if f.index < index and f.full_form and f.volume == volume and f.reporter == reporter
        ]

    def at(self, offset: int) -> Citation | None:
        best: Citation | None = None
        for c in self.touching(offset, offset):
            if best is None or len(c.full_span) < len(best.full_span):
                best = c
        return best


def assemble(text: str, paragraphs: list[tuple[int, int]], results: list[ParagraphResult]) -> Extraction:
    """Number, shift and resolve the paragraph results of ``text``."""
    ex = assemble_incremental(text, paragraphs, results, None)[0]
    return Extraction(text=text, citations=ex.citations)


_serials = itertools.count(1)


def assemble_incremental(
    text: str,
    paragraphs: list[tuple[int, int]],
    results: list[ParagraphResult],
    prior: Run | None,
    edited: tuple[int, int] | None = None,
) -> tuple[DocumentExtraction, Run]:
    """``assemble`` reusing the previous run of the same document; citations are built lazily.

    Paragraphs before the first one whose result or offset changed are taken over as they were. From
    there on paragraphs are planned (numbered and resolved) again, until one leaves the resolution
    state exactly as the previous run had it after the same paragraph: from then on the previous
    plans still hold (taken over in one slice when the paragraphs after it are the previous run's),
    and only the offsets move. Citations are built when asked for, reusing the previous run's where
    the plan and the offset are the same. The result does not depend on ``prior``.
    """
    if len(paragraphs) != len(results):
        raise ValueError("one result per paragraph")
    q = 0
    if prior is not None:
        q = _same_prefix(prior, paragraphs, results, edited)
    st = _State()
    before: list[tuple[int, int | None, int]] = []
    plans: list[Plan] = []
    built_all: list[tuple[Citation, ...] | None] = []
    n_out = 0
    if prior is not None and q > 0:
        n_fulls, st.last_authority, n_out = prior.before[q] if q < len(prior.before) else prior.after
        st.fulls, st.restored = prior.fulls[:n_fulls], True
        st.base, st.patches = prior.index, _patches_in(prior.patches, 0, n_fulls)
        before = prior.before[:q]
        plans = prior.plans[:q]
        built_all = prior.built[:q]
    # paragraph numbers move by this much when paragraphs were inserted or removed
    pno_delta = len(results) - len(prior.results) if prior is not None else 0
    queries = prior.queries if prior is not None and len(prior.queries) <= 2 * len(results) + 64 else {}
    fulls_check = _PrefixCheck(prior.fulls if prior is not None else [], st.fulls, len(st.fulls), queries)
    pno = q
    replanned = 0
    while pno < len(results):
        off, res = paragraphs[pno][0], results[pno]
        prev = results[pno - 1] if pno else None
        prev_off = paragraphs[pno - 1][0] if pno else 0
        here = (len(st.fulls), st.last_authority, n_out)
        before.append(here)
        old = pno - pno_delta
        synced = (
            prior is not None
            and pno > q
            and 0 <= old < len(prior.results)
            and prior.results[old] is res
            and prior.before[old] == here
            and _prev_sig(prior.results, old) == _prev_sig(results, pno)
            and fulls_check.same_upto(here[0])
            and fulls_check.unaffected(res, text, off)
        )
        built: tuple[Citation, ...] | None = None
        if synced:
            # the state is the one the previous run had here: its plan still holds
            plan = prior.plans[old]  # type: ignore[union-attr]
            n_next, last_authority, _ = prior.before[old + 1] if old + 1 < len(prior.before) else prior.after  # type: ignore[union-attr]
            st.fulls.extend(prior.fulls[here[0] : n_next])  # type: ignore[union-attr]
            if st.restored:
                st.patches.extend(_patches_in(prior.patches, here[0], n_next))  # type: ignore[union-attr]
            st.last_authority = last_authority
            if old == pno and prior.paragraphs[old][0] == off:  # type: ignore[union-attr]
                # same plan, same place: the very same citations, unless they read a changed paragraph before
                if not uses_prev(plan) or (prior.results[pno - 1] is prev and prior.paragraphs[pno - 1][0] == prev_off):  # type: ignore[union-attr]
                    built = prior.built[old]  # type: ignore[union-attr]
        else:
            replanned += 1
            if replanned == _INDEX_AFTER:  # a long stretch to plan again: index the records once
                st.restored = False
            plan = _plan(text, off, res, prev, st, n_out)
            if res.barrier_at_end:
                st.last_authority = None
        plans.append(plan)
        built_all.append(built)
        n_out += len(plan)
        pno += 1
        if synced and not fulls_check.renamed and _same_tail(prior, old + 1, results, pno):  # type: ignore[arg-type]
            # every later paragraph is the previous run's, after the same state: take the rest over
            assert prior is not None
            before.extend(prior.before[old + 1 :])
            plans.extend(prior.plans[old + 1 :])
            built_all.extend(_tail_built(prior, old + 1, paragraphs, results, pno))
            if st.restored:
                st.patches.extend(_patches_in(prior.patches, len(st.fulls), len(prior.fulls)))
            st.fulls.extend(prior.fulls[len(st.fulls) :])
            st.last_authority, n_out = prior.after[1], prior.after[2]
            break
    run = Run(
        text=text,
        paragraphs=paragraphs,
        results=list(results),
        before=before,
        after=(len(st.fulls), st.last_authority, n_out),
        plans=plans,
        built=built_all,
        fulls=st.fulls,
        serial=next(_serials),
        prior_serial=prior.serial if prior is not None else None,
        edited=edited if prior is not None else None,
        index=st.base if st.restored else _Shared(st.fulls, st.by_word, st.by_cite, st.by_short, st.indexed),
        patches=st.patches if st.restored else [],
        queries=fulls_check.queries,
    )
    return DocumentExtraction(run), run


def _same_tail(prior: Run, old: int, results: list[ParagraphResult], pno: int) -> bool:
    """Whether ``results[pno:]`` are (in practice: the very objects of) ``prior.results[old:]``."""
    n = len(results) - pno
    if n != len(prior.results) - old:
        return False
    # identical objects compare equal without looking inside (and equal results plan alike anyway)
    return results[pno:] == prior.results[old:]


def _tail_built(
    prior: Run, old: int, paragraphs: list[tuple[int, int]], results: list[ParagraphResult], pno: int
) -> list[tuple[Citation, ...] | None]:
    """The previous run's built citations for a taken-over tail, where they are still valid: same
    paragraph number, same offset, and (if they read it) the same paragraph before at the same offset."""
    n = len(results) - pno
    if old != pno or n == 0 or paragraphs[-1][0] != prior.paragraphs[-1][0]:
        return [None] * n  # moved (the usual keystroke): built again when asked for

    def same(i: int) -> bool:
        return results[i] is prior.results[i] and paragraphs[i][0] == prior.paragraphs[i][0]

    return [
        prior.built[i] if same(i) and (same(i - 1) or not uses_prev(prior.plans[i])) else None
        for i in range(pno, len(results))
    ]


def _same_prefix(
    prior: Run, paragraphs: list[tuple[int, int]], results: list[ParagraphResult], edited: tuple[int, int] | None
) -> int:
    """How many first paragraphs are the previous run's, at the same offsets. Those wholly before the
    edited region are (the text there did not change, and an unchanged paragraph keeps its result
    object), so only the few after them are compared."""
    limit = min(len(results), len(prior.results))
    q = 0
    if edited is not None:  # the paragraphs ending before the edit, found by bisection
        q = min(limit, bisect_left(paragraphs, edited[0], hi=limit, key=_end) - 1)
        q = max(0, q)
        if q and not (results[q - 1] is prior.results[q - 1] and paragraphs[q - 1] == prior.paragraphs[q - 1]):
            q = 0  # not what the edit promised: compare from the start
    while q < limit and results[q] is prior.results[q] and paragraphs[q] == prior.paragraphs[q]:
        q += 1
    return q


def _end(p: tuple[int, int]) -> int:
    return p[1]


def _prev_sig(results: list[ParagraphResult], i: int) -> bool | None:
    """What a paragraph's plan reads from the paragraph before it."""
    return None if i == 0 else results[i - 1].block is not None


class _PrefixCheck:
    """Whether the new run's full-citation records agree with the previous run's up to some count.
    Records are only ever appended, so a disagreement, once found, stays: the check is linear over a
    whole run, not per paragraph.

    Typing inside a case name changes only a record's names: those records are kept in ``renamed``,
    and a later paragraph whose name lookups see no difference between the old and the new names is
    still in step (``unaffected``). Any other difference (a volume, a page, a count) ends it.
    """

    __slots__ = ("checked", "mismatch", "new", "old", "queries", "renamed")

    def __init__(self, old: list[_Full], new: list[_Full], taken_over: int, queries: Queries | None = None) -> None:
        self.old, self.new = old, new
        self.checked = taken_over  # the prefix was copied from ``old``
        self.mismatch = False
        self.renamed: list[tuple[_Full, _Full]] = []
        #: each paragraph result's name lookups (they depend on its text alone), kept from run to run
        self.queries: Queries = {} if queries is None else queries

    def same_upto(self, n: int) -> bool:
        if self.mismatch or n > len(self.old) or n > len(self.new):
            return False
        while self.checked < n:
            a, b = self.old[self.checked], self.new[self.checked]
            if a is not b and a != b:
                if _names_only(a, b):
                    self.renamed.append((a, b))
                else:
                    self.mismatch = True
                    return False
            self.checked += 1
        return True

    def unaffected(self, res: ParagraphResult, text: str, off: int) -> bool:
        """Whether every name lookup of paragraph ``res`` answers alike over the old and the new names."""
        if not self.renamed:
            return True
        hit = self.queries.get(id(res))
        if hit is None or hit[0] is not res:
            hit = self.queries[id(res)] = (res, *_name_queries(res, text, off))
        _, names, shorts = hit
        for old, new in self.renamed:
            if any((n in old.padded) != (n in new.padded) for n in names):
                return False
            if any((n in old.short_names) != (n in new.short_names) for n in shorts):
                return False
        return True


Queries = dict[int, tuple[ParagraphResult, tuple[str, ...], tuple[str, ...]]]


def _names_only(a: _Full, b: _Full) -> bool:
    """Whether two records differ in their names alone."""
    return (a.index, a.group, a.volume, a.reporter, a.page, a.page_text, a.full_form) == (
        b.index, b.group, b.volume, b.reporter, b.page, b.page_text, b.full_form
    )


def _name_queries(res: ParagraphResult, text: str, off: int) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """Every name a paragraph's resolution looks up: the padded names its short forms and ``supra``
    search for (``_latest``), and the short names its ``Name at N`` candidates try (``_resolve_reference``)."""
    names: list[str] = []
    for c in res.citations:
        if c.form in (CiteForm.SHORT, CiteForm.SUPRA) and c.antecedent_text:
            names.extend(_suffixes(c.antecedent_text))
    shorts = [
        norm_name(text[off + w[0] : off + r.name_end]) for r in res.refs for w in r.words
    ]
    return tuple(names), tuple(shorts)


def _plan(
    text: str, off: int, res: ParagraphResult, prev: ParagraphResult | None, st: _State, base: int
) -> list[tuple[object, ...]]:
    """Document order, numbering and resolution for one paragraph (no objects built)."""
    order: list[tuple[int, int, int]] = [(c.span.start, 0, k) for k, c in enumerate(res.citations)]
    if res.refs:
        order.extend((r.words[0][0], 1, k) for k, r in enumerate(res.refs))
        order.sort(key=lambda t: (t[0], t[1]))
    plan: list[tuple[object, ...]] = []
    local_to_global: dict[int, int] = {}
    for _pos, kind, k in order:
        index = base + len(plan)
        if kind == 1:
            found = _resolve_reference(res.refs[k], text, off, st)
            if found is None:
                continue
            ante, s, name = found
            plan.append(("r", k, index, ante, s, name))
            st.last_authority = ante
            continue
        c = res.citations[k]
        local_to_global[k] = index
        if res.barrier_before[k]:
            st.last_authority = None
        group: int | None = None
        antecedent: int | None = None
        if c.form in (CiteForm.FULL, CiteForm.UNRECOGNISED):
            group = local_to_global.get(c.group if c.group is not None else k, index)
            _add_full(st, c, index, group)
            if not res.nested[k]:
                st.last_authority = group
        else:
            if c.form is CiteForm.SHORT:
                antecedent = _resolve_short(c, st)
                if (
                    antecedent is None
                    and res.parallel_short
                    and res.parallel_short[k]
                    and plan
                    and plan[-1][0] == "c"
                ):
                    antecedent = plan[-1][4]  # type: ignore[assignment]  # the pin's parallel partner
            elif c.form is CiteForm.SUPRA:
                antecedent = _resolve_supra(c, st)
            elif c.form is CiteForm.ID:
                antecedent = st.last_authority
            if not res.nested[k] and c.form is not CiteForm.ID:
                st.last_authority = antecedent
        block = bool(res.leading[k] and prev is not None and prev.block is not None)
        prop_prev = bool(res.needs_prev[k] and prev is not None)
        plan.append(("c", k, index, group, antecedent, block, prop_prev))
    return plan


def _build(
    text: str,
    off: int,
    pno: int,
    res: ParagraphResult,
    prev: ParagraphResult | None,
    prev_off: int,
    e: tuple[object, ...],
    sh: _Shifter,
) -> Citation:
    if e[0] == "r":
        _, k, index, ante, s, name = e
        r = res.refs[k]  # type: ignore[index,call-overload]
        span = Span(off + s, off + r.pincite.span.end)  # type: ignore[operator]
        prop_span, ref_quotes, _np = res.ref_props[k]  # type: ignore[index,call-overload]
        return Citation(
            index=index,  # type: ignore[arg-type]
            form=CiteForm.REFERENCE,
            span=span,
            full_span=span,
            text=citation_text(text[span.start : span.end]),
            pincite=_pin(r.pincite, off),
            quotes=tuple(_quote(q, off) for q in ref_quotes),
            proposition=None if prop_span is None else text[off + prop_span.start : off + prop_span.end],
            proposition_span=None if prop_span is None else _sp(prop_span, off),
            group=index,  # type: ignore[arg-type]
            antecedent=ante,  # type: ignore[arg-type]
            antecedent_text=" ".join(str(name).split()),
            paragraph=pno,
        )
    _, k, index, group, antecedent, block, prop_prev = e
    c = res.citations[k]  # type: ignore[index,call-overload]
    quotes: tuple[Quote, ...] | None = None
    proposition: tuple[str, Span] | None = None
    if block and prev is not None and prev.block is not None:
        quotes = (_quote(prev.block, prev_off), *(_quote(q, off) for q in c.quotes))
    if prop_prev and prev is not None:
        # a citation standing alone under a block quote is offered for the block quote itself
        src = prev.block.span if (prev.block is not None and res.leading[k]) else prev.last_sentence  # type: ignore[index,call-overload]
        if src is not None:
            proposition = sh.borrowed_proposition(text, src, prev_off)
    return shift_citation(
        c,
        off,
        index=index,  # type: ignore[arg-type]
        group=group,  # type: ignore[arg-type]
        antecedent=antecedent,  # type: ignore[arg-type]
        paragraph=pno,
        quotes=quotes,
        proposition=proposition,
        shifter=sh,
    )


class Assembler:
    """``assemble`` fed one paragraph at a time, in document order: the batch path's parallel
    extraction (``parallel_extract.py``) numbers, resolves and builds the paragraphs that have
    arrived while the rest are still being extracted, instead of all of them afterwards. The same
    steps as ``assemble_incremental`` without a previous run (plan each paragraph, then build its
    citations), so ``finish()`` equals ``assemble`` (tests/test_parallel_extract.py compares them)."""

    __slots__ = ("built", "n_out", "run", "st")

    def __init__(self, text: str) -> None:
        self.st = _State()
        self.n_out = 0
        self.run = Run(text=text, paragraphs=[], results=[], before=[], after=(0, None, 0),
                       plans=[], built=[], fulls=self.st.fulls)
        self.built: list[Citation] = []

    def add(self, span: tuple[int, int], res: ParagraphResult) -> None:
        """The next paragraph (``span`` in the text) and its result."""
        run, st = self.run, self.st
        pno = len(run.plans)
        run.before.append((len(st.fulls), st.last_authority, self.n_out))
        plan = _plan(run.text, span[0], res, run.results[-1] if pno else None, st, self.n_out)
        if res.barrier_at_end:
            st.last_authority = None
        run.paragraphs.append(span)
        run.results.append(res)
        run.plans.append(plan)
        run.built.append(None)
        self.n_out += len(plan)
        self.built.extend(run.paragraph(pno))

    def finish(self) -> Extraction:
        self.run.after = (len(self.st.fulls), self.st.last_authority, self.n_out)
        return Extraction(text=self.run.text, citations=tuple(self.built))
