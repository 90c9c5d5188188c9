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
import math
import re
from bisect import bisect_left, bisect_right
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import lru_cache

from citecheck.extract.incremental.thresholds import Thresholds, active
from citecheck.extract.models import (
    CaseName,
    Citation,
    CiteForm,
    Extraction,
    Parenthetical,
    Pincite,
    PinPage,
    Quote,
    StatuteForm,
    normalise_section,
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


#: Which citation of a paragraph: a full citation's record by its key and how many records of the
#: paragraph before it have that key (a citation added or removed before it leaves this as it was),
#: else (a group's first citation without a record) its place in the paragraph's plan.
Which = tuple[tuple[object, ...], int] | int
#: A citation referred to from a run's plans: ``(paragraph, which)``.
Ref = tuple[int, Which]
#: The same as a plan stores it: ``(paragraphs back from the referring one, which)``. Relative, so a
#: citation added or removed elsewhere, or a paragraph inserted before both, leaves it as it was.
RelRef = tuple[int, Which]


@dataclass(frozen=True, slots=True)
class _Full:
    """What short forms need to know about one full citation (value type: compared across runs).

    Numbers are its paragraph's (``pos``: its place in the paragraph's plan, ``group``: its parallel
    group's first citation there), never the document's: a citation added or removed before it leaves
    the record equal, which is what lets a keystroke take every later paragraph over unplanned."""

    pos: int
    group: int
    volume: str | None
    reporter: str | None
    padded: str  # " plaintiff | defendant | whole name " normalised, for word-sequence containment
    short_names: frozenset[str]  # parties and their first distinctive word: usable as "Roe at 116"
    page: int | None = None  # first page, for resolving "539 U. S., at 328" by page
    page_text: str | None = None  # as written: a local check names the earlier cites of a volume
    full_form: bool = True  # a FULL citation (else UNRECOGNISED)
    key: tuple[object, ...] = ()  # what a reference names it by (``Which``): no names, no place

    @property
    def content(self) -> tuple[object, ...]:
        """Everything a lookup or a reference reads (not its place in the paragraph)."""
        return (self.key, self.padded, self.short_names, self.page)


#: A stretch of a run's records that sits in the lookup index it was handed: ``(position, position in
#: the index's records, length)``.
Seg = tuple[int, int, int]


@dataclass(slots=True)
class _State:
    """The full citations seen so far (in order) and the authority a following ``Id.`` means.

    Lookups go through an index of positions in ``fulls``: the run's own (``restored`` False), or the
    one an earlier run left (``base``), which holds the stretches ``segs`` of ``fulls`` at other
    positions, and not the records at ``patches`` (planned by this run, or by a run since the index
    was made) — so a keystroke neither indexes nor scans every full citation again."""

    fc: list[int]  # per paragraph planned so far: records before it (the run's own list)
    fulls: list[_Full] = field(default_factory=list)
    last_authority: Ref | None = None
    by_word: dict[str, list[int]] = field(default_factory=dict)  # word of a name -> positions in ``fulls``
    by_cite: dict[tuple[str | None, str | None], list[int]] = field(default_factory=dict)
    by_short: dict[str, list[int]] = field(default_factory=dict)
    indexed: int = 0
    restored: bool = False
    base: _Shared | None = None
    segs: list[Seg] = field(default_factory=list)
    patches: list[int] = field(default_factory=list)  # positions in ``fulls`` not in ``base``
    limits: Thresholds = field(default_factory=active)

    def para_of(self, pos: int) -> int:
        return _para_of(self.fc, pos)

    def ref(self, pos: int) -> Ref:
        t = self.para_of(pos)
        fulls = self.fulls
        key = fulls[pos].key
        return t, (key, sum(1 for i in range(self.fc[t], pos) if fulls[i].key == key))

    def leader(self, pno: int, group: int) -> Ref:
        """Paragraph ``pno``'s citation at ``group`` (a parallel group's first), the one being planned."""
        for i in range(self.fc[pno], len(self.fulls)):
            if self.fulls[i].pos == group:
                return self.ref(i)
        return pno, group

    def add(self, f: _Full) -> None:
        if self.restored:
            self.patches.append(len(self.fulls))
        self.fulls.append(f)

    def take(self, prior: Run, a: int, b: int) -> None:
        """Append the previous run's records ``a:b`` (with where they sit in the index it was handed)."""
        if a >= b:
            return
        c0 = len(self.fulls)
        self.fulls.extend(prior.fulls[a:b])
        if not self.restored:
            return  # the run's own index catches up when next asked
        if (
            prior.index is not self.base
        ):  # cannot happen (the base is the previous run's); stay correct anyway
            self.patches.extend(range(c0, c0 + b - a))
            return
        d = c0 - a
        k = max(0, bisect_right(prior.segs, (a, math.inf, 0)) - 1)
        for cur, bpos, n in prior.segs[k:]:
            if cur >= b:
                break
            lo, hi = max(cur, a), min(cur + n, b)
            if lo < hi:
                _add_seg(self.segs, lo + d, bpos + lo - cur, hi - lo)
        self.patches.extend(
            p + d for p in prior.patches[bisect_left(prior.patches, a) : bisect_left(prior.patches, b)]
        )

    def rebase(self, prior: Run, a: int, b: int, start: int) -> None:
        """Records ``start:`` were planned again and equal the previous run's ``a:b`` (typing in prose):
        they sit where those sit in the index, not among the patches (which would soon fill up)."""
        n = len(self.fulls) - start
        if not self.restored or n != b - a or n == 0 or prior.index is not self.base:
            return
        if self.patches[-n:] != list(range(start, start + n)) or self.fulls[start:] != prior.fulls[a:b]:
            return
        del self.patches[-n:]
        del self.fulls[start:]
        self.take(prior, a, b)

    def own_index(self) -> None:
        """Index this run's own records from now on (too much moved or changed since the base was made)."""
        self.restored, self.indexed = False, 0
        self.by_word, self.by_cite, self.by_short = {}, {}, {}
        self.base, self.segs, self.patches = None, [], []


def _para_of(fc: list[int], pos: int) -> int:
    """The paragraph holding record ``pos`` (the last one whose records start at or before it), from
    the records before each paragraph."""
    return bisect_right(fc, pos) - 1


def _add_seg(segs: list[Seg], cur: int, bpos: int, n: int) -> None:
    if segs:
        c, b, m = segs[-1]
        if c + m == cur and b + m == bpos:
            segs[-1] = (c, b, m + n)
            return
    segs.append((cur, bpos, n))


def _segs_upto(segs: list[Seg], n: int) -> list[Seg]:
    out = []
    for cur, b, m in segs:
        if cur >= n:
            break
        out.append((cur, b, min(m, n - cur)))
    return out


@dataclass(slots=True, eq=False)
class _Shared:
    """The lookup indexes of one run's full citations, handed on to the runs that continue it: a
    keystroke's run restores most of the previous run's ``fulls`` and looks names up here (through its
    ``segs``), scanning only the positions it changed (``patches``) — indexing everything again, or
    scanning every full citation for each short form, would cost time proportional to the brief on
    every keystroke. Built lazily: ``fulls`` never changes once its run is over, so completing the
    index later is safe."""

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


def _index_one(
    f: _Full,
    pos: int,
    by_word: dict[str, list[int]],
    by_cite: dict[tuple[str | None, str | None], list[int]],
    by_short: dict[str, list[int]],
) -> None:
    for w in set(f.padded.split()):
        by_word.setdefault(w, []).append(pos)
    by_cite.setdefault((f.volume, f.reporter), []).append(pos)
    for name in f.short_names:
        by_short.setdefault(name, []).append(pos)


def _mapped(base: _Shared, segs: list[Seg], patches: list[int], table: str, key: object) -> list[int]:
    """Ascending positions that may match ``key``: the index's hits moved to where their stretch sits
    now, and every patched position (a superset: callers check each record)."""
    posted: list[int] = getattr(base.ensure(), table).get(key, [])
    out: list[int] = []
    if posted:
        for cur, b, n in segs:
            lo = bisect_left(posted, b)
            hi = bisect_left(posted, b + n, lo)
            if lo < hi:
                d = cur - b
                out.extend(posted[lo:hi] if not d else [p + d for p in posted[lo:hi]])
    if patches:
        return sorted(out + patches) if out else list(patches)
    return out


def _candidates(st: _State, table: str, key: object) -> list[int] | None:
    """Ascending positions in ``st.fulls`` that may match ``key`` in one of the indexes (``by_word``,
    ``by_cite``, ``by_short``) — a superset: callers check each full citation — or None: scan them all."""
    if st.restored and (len(st.patches) > st.limits.patch_limit or len(st.segs) > st.limits.seg_limit):
        st.own_index()
    if not st.restored:
        _index(st)
        return getattr(st, table).get(key, [])  # type: ignore[no-any-return]
    if st.base is None:
        return None
    return _mapped(st.base, st.segs, st.patches, table, key)


def _index(st: _State) -> _State | None:
    """The run's own lookup indexes, brought up to ``st.fulls`` (None while it looks up in an earlier
    run's). Positions are ascending, so scanning one of the lists backwards visits the same full
    citations, in the same order, as scanning ``fulls`` backwards and skipping those that cannot match:
    in a whole-document run a short form costs its candidates, not the whole document."""
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
        self.borrowed: dict[
            int, tuple[str, Span]
        ] = {}  # id(span in the paragraph before) -> (its text, span)

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
        statute=c.statute,
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


def _add_full(st: _State, c: Citation, pos: int, group: int) -> None:
    padded, shorts = _names_of(c.case_name)
    page = int(c.page) if c.page and c.page.isdigit() else None
    full = c.form is CiteForm.FULL
    st.add(
        _Full(
            pos,
            group,
            c.volume,
            c.reporter,
            padded,
            shorts,
            page,
            c.page,
            full,
            (c.volume, c.reporter, c.page, full, group - pos),
        )
    )


#: The ``reporter`` of a statute's records: a full statute citation is one record per section it names,
#: by section (``volume``), so ``§ 1983`` finds the latest full citation of § 1983 as a short case cite
#: finds its volume, through the same index and the same ``_Zone`` bookkeeping (its query is a ``Cite``).
SECTION_MARK = "§"


def _add_statute(st: _State, c: Citation, pos: int) -> int:
    """Records for a full statute citation (one per section it names); the position of the first."""
    s = c.statute
    assert s is not None
    first = len(st.fulls)
    code = (s.code, s.title)
    for section in dict.fromkeys(normalise_section(x) for x in (s.section, *s.also, s.last_section) if x):
        st.add(
            _Full(
                pos,
                pos,
                section,
                SECTION_MARK,
                "",
                frozenset(),
                None,
                None,
                False,
                (section, SECTION_MARK, code, False, 0),
            )
        )
    return first


def _resolve_statute(c: Citation, st: _State) -> int | None:
    """The latest full statute citation naming the short form's section (``§ 1983`` after ``42 U.S.C. §
    1983``); None when none does — a section whose code the text does not say is not guessed."""
    assert c.statute is not None
    section = normalise_section(c.statute.section)
    listed = _candidates(st, "by_cite", (section, SECTION_MARK))
    pool: Iterable[int] = reversed(range(len(st.fulls))) if listed is None else reversed(listed)
    fulls = st.fulls
    for p in pool:
        if fulls[p].volume == section and fulls[p].reporter == SECTION_MARK:
            return p
    return None


def _plan_statute(c: Citation, st: _State, i: int, pno: int, nested: bool) -> tuple[int | None, Ref | None]:
    """(group, antecedent) of a statute citation at place ``i`` of paragraph ``pno``'s plan; a full one
    adds its records, and what a following ``Id.`` means is updated as for cases."""
    assert c.statute is not None
    form = c.statute.form
    if form is StatuteForm.FULL:
        first = _add_statute(st, c, i)
        if not nested:
            st.last_authority = st.ref(first)
        return i, None
    if form is StatuteForm.ID:  # "Id. § 5": the authority cited just before, as "Id." means
        return None, st.last_authority
    at_ = _resolve_statute(c, st)
    antecedent = None if at_ is None else st.ref(at_)
    if not nested:
        st.last_authority = antecedent
    return None, antecedent


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
    """The position of the latest full citation whose names contain the earliest-listed of ``names``
    that any contains (so the whole short name beats its tail); restricted to one volume and reporter
    when ``same_reporter``, falling back then to the latest of those."""
    fallback: int | None = None
    best: int | None = None
    best_rank = len(names)
    candidates: list[int] | None = None
    if same_reporter:
        candidates = _candidates(st, "by_cite", (volume, reporter))
    elif names and names[-1].split():  # every name is a tail of the first: all contain its last word
        candidates = _candidates(st, "by_word", names[-1].split()[-1])
    scan: Iterable[int] = reversed(range(len(st.fulls))) if candidates is None else reversed(candidates)
    fulls = st.fulls
    for p in scan:
        f = fulls[p]
        if same_reporter:
            if f.volume != volume or f.reporter != reporter:
                continue
            if fallback is None:
                fallback = p
        for rank in range(best_rank):
            if names[rank] in f.padded:
                best, best_rank = p, rank
                break
        if best_rank == 0:
            break
    return best if best is not None else fallback


def _resolve_short(c: Citation, st: _State) -> int | None:
    """A named short form goes to the case with that name; otherwise (or when no earlier cite of the
    volume has the name) to the case whose pages can hold the pin (the position of its record).

    Cases in a volume do not overlap, so of the cases cited in full from the volume, the one with the
    greatest first page at or below the pin is the only one that can contain it: in an opinion citing
    both Gratz v. Bollinger, 539 U. S. 244 and Grutter v. Bollinger, 539 U. S. 306, "539 U. S., at
    328" is Grutter. When the pin is below every first page, or two different cases begin on that
    page, the short form stays unresolved rather than guessed.
    """
    fulls = st.fulls
    if c.database is not None and c.page:
        # "Henson, 2008 WL 123456, at *2": the Westlaw number names the case; the latest full cite of it
        listed = _candidates(st, "by_cite", (c.volume, c.reporter))
        pool0: Iterable[int] = range(len(fulls)) if listed is None else listed
        same_doc = [
            p
            for p in pool0
            if fulls[p].volume == c.volume
            and fulls[p].reporter == c.reporter
            and fulls[p].page_text == c.page
        ]
        return same_doc[-1] if same_doc else None
    names = _suffixes(c.antecedent_text) if c.antecedent_text else ()
    if names:
        named = _latest(st, names, c.volume, c.reporter, same_reporter=True)
        if named is not None and any(n in fulls[named].padded for n in names):
            return named
    pin = c.pincite.parts[0].first if c.pincite and c.pincite.parts else None
    listed = _candidates(st, "by_cite", (c.volume, c.reporter))
    pool: Iterable[int] = range(len(fulls)) if listed is None else listed
    same = [p for p in pool if fulls[p].volume == c.volume and fulls[p].reporter == c.reporter]
    if not same:
        return None
    if pin is None or not pin.isdigit() or any(fulls[p].page is None for p in same):
        return same[-1]  # no page to go by: the latest cite of the volume, as before
    below = [p for p in same if (fulls[p].page or 0) <= int(pin)]
    if not below:
        return None
    top = max(fulls[p].page or 0 for p in below)
    holders = {(st.para_of(p), fulls[p].group) for p in below if fulls[p].page == top}
    if len(holders) > 1:
        return None
    return max(p for p in below if fulls[p].page == top)


def _resolve_supra(c: Citation, st: _State) -> int | None:
    if not c.antecedent_text:
        return None
    return _latest(st, _suffixes(c.antecedent_text))


def _resolve_reference(r: RefCandidate, text: str, offset: int, st: _State) -> tuple[int, int, str] | None:
    """(position of the antecedent's record, word position where the name starts, name) for a valid
    ``Name at N``."""
    if not st.fulls:
        return None
    words = r.words
    for k in range(len(words)):  # longest name first
        s = words[k][0]
        name = norm_name(text[offset + s : offset + r.name_end])
        if not name or name in _GENERIC:
            continue
        listed = _candidates(st, "by_short", name)
        pool: Iterable[int] = reversed(range(len(st.fulls))) if listed is None else reversed(listed)
        for p in pool:
            if name in st.fulls[p].short_names:
                return p, s, text[offset + s : offset + r.name_end]
    return None


Plan = list[tuple[object, ...]]


def _absolute(rel: RelRef | None, pno: int) -> Ref | None:
    return None if rel is None else (pno - rel[0], rel[1])


def _relative(ref: Ref | None, pno: int) -> RelRef | None:
    return None if ref is None else (pno - ref[0], ref[1])


@dataclass(slots=True)
class Run:
    """What one run over a document leaves for the next run over the same (edited) document, and
    everything needed to build its citations later (``DocumentExtraction``).

    Plans number a paragraph's citations from its own first one and name an antecedent as a
    ``RelRef`` (paragraphs back, place there), records (``_Full``) likewise: a citation added or
    removed leaves every other paragraph's plan and records as they were, and only the per-paragraph
    counts ``fc``/``nout`` move. Document-wide numbers are made when citations are built."""

    text: str
    paragraphs: list[tuple[int, int]]
    results: list[ParagraphResult]  # per paragraph (the same object while its text is the same)
    fc: list[int]  # per paragraph: full-citation records before it
    la: list[RelRef | None]  # per paragraph: the authority an ``Id.`` at its start means
    nout: list[int]  # per paragraph: citations before it (the index of its first)
    after: tuple[int, RelRef | None, int]  # the same after the last paragraph
    plans: list[Plan]
    reach: list[int]  # per paragraph: how many paragraphs back its plan's looked-up antecedents lie
    built: list[tuple[Citation, ...] | None]  # per paragraph; None until something asks for it
    fulls: list[_Full]
    #: this run's number, the number of the run it continued (None: none), and where the text differs
    #: from that run's (``[start, end]`` of this text; None: unknown) — what lets a per-paragraph memo
    #: take the paragraphs far from the edit over in bulk
    serial: int = 0
    prior_serial: int | None = None
    edited: tuple[int, int] | None = None
    index: _Shared | None = (
        None  # the lookup indexes; ``fulls`` sits in them as ``segs`` say, except ``patches``
    )
    segs: list[Seg] = field(default_factory=list)
    patches: list[int] = field(default_factory=list)
    queries: _Queries | None = None  # see ``_Queries``
    #: paragraphs from here on are the previous run's (the very same plans and results), taken over
    kept_from: int = 0

    def paragraph(self, pno: int) -> tuple[Citation, ...]:
        """Paragraph ``pno``'s citations with absolute spans and numbers (built once, on demand)."""
        got = self.built[pno]
        if got is None:
            got = self.built[pno] = _build_paragraph(self, pno)
        return got

    def first_of(self, pno: int) -> int:
        """The index of paragraph ``pno``'s first citation."""
        return self.nout[pno] if pno < len(self.nout) else self.after[2]

    def fc_at(self, pno: int) -> int:
        return self.fc[pno] if pno < len(self.fc) else self.after[0]

    def la_at(self, pno: int) -> RelRef | None:
        return self.la[pno] if pno < len(self.la) else self.after[1]

    def index_of(self, ref: RelRef | None, pno: int) -> int | None:
        """The document-wide index a plan entry of paragraph ``pno`` refers to."""
        if ref is None:
            return None
        t, which = pno - ref[0], ref[1]
        if isinstance(which, int):
            return self.first_of(t) + which
        key, nth = which
        fulls = self.fulls
        for i in range(self.fc[t], self.fc_at(t + 1)):
            if fulls[i].key == key:
                if not nth:
                    return self.first_of(t) + fulls[i].pos
                nth -= 1
        raise LookupError(f"paragraph {t} has no record {which!r}")  # a broken invariant: the caller re-syncs

    def para_of(self, pos: int) -> int:
        return _para_of(self.fc, pos)


def _build_paragraph(run: Run, pno: int) -> tuple[Citation, ...]:
    text, plan, res = run.text, run.plans[pno], run.results[pno]
    off = run.paragraphs[pno][0]
    prev = run.results[pno - 1] if pno else None
    prev_off = run.paragraphs[pno - 1][0] if pno else 0
    sh = _Shifter(off)
    cits = res.citations
    base = run.first_of(pno)
    out = []
    for i, e in enumerate(plan):
        if e[0] == "c" and not e[4] and not e[5]:
            out.append(
                shift_citation(
                    cits[e[1]],  # type: ignore[call-overload]
                    off,
                    index=base + i,
                    group=None if e[2] is None else base + e[2],  # type: ignore[operator]
                    antecedent=run.index_of(e[3], pno),  # type: ignore[arg-type]
                    paragraph=pno,
                    shifter=sh,
                )
            )
        else:
            out.append(_build(run, text, off, pno, res, prev, prev_off, e, sh, base + i))
    return tuple(out)


def _names_earlier_cites(plan: Plan, res: ParagraphResult) -> bool:
    """Whether a local finding of the paragraph names the earlier full cites of a volume (an
    unresolved reporter short form's does): a citation added before it changes that finding, not
    its plan."""
    cits = res.citations
    return any(
        e[0] == "c" and e[3] is None and cits[e[1]].form is CiteForm.SHORT and bool(cits[e[1]].reporter)  # type: ignore[index,call-overload]
        for e in plan
    )


def uses_prev(plan: Plan) -> bool:
    """Whether a paragraph's citations read the paragraph before it (a block quote, its last sentence)."""
    return any(e[0] == "c" and (e[4] or e[5]) for e in plan)


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
        """The paragraph holding citation ``index`` (the last one whose first citation is at or before it)."""
        return max(0, bisect_right(self.run.nout, index) - 1)

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
        first = (
            bisect_right(run.paragraphs, (start, len(self.text) + 1)) - 1
        )  # the last starting at or before
        out: list[Citation] = []
        for pno in range(max(0, first - 1), len(run.plans)):
            if run.paragraphs[pno][0] > end:
                break
            out.extend(c for c in run.paragraph(pno) if c.full_span.start <= end and start <= c.full_span.end)
        return out

    def earlier_full_cites(self, index: int, volume: str | None, reporter: str | None) -> list[str]:
        """``"volume reporter page"`` of each FULL citation before ``index`` from that volume, from the
        resolution records (no citation built)."""
        run = self.run
        pool: Iterable[int] = range(len(run.fulls))
        if run.index is not None:
            pool = _mapped(run.index, run.segs, run.patches, "by_cite", (volume, reporter))
        out = []
        for p in pool:
            f = run.fulls[p]
            if (
                f.full_form
                and f.volume == volume
                and f.reporter == reporter
                and run.first_of(run.para_of(p)) + f.pos < index
            ):
                out.append(f"{f.volume} {f.reporter} {f.page_text}")
        return out

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


def assemble_incremental(  # noqa: C901
    text: str,
    paragraphs: list[tuple[int, int]],
    results: list[ParagraphResult],
    prior: Run | None,
    edited: tuple[int, int] | None = None,
) -> tuple[DocumentExtraction, Run]:
    """``assemble`` reusing the previous run of the same document; citations are built lazily.

    Paragraphs before the first one whose result or offset changed are taken over as they were. From
    there on paragraphs are planned (numbered and resolved) again, until one is the previous run's
    paragraph after the same ``Id.`` state, and none of its lookups could see a record the paragraphs
    planned again changed (``_Zone``): from then on the previous plans still hold — they number from
    their own paragraph, so a citation added or removed before them changes nothing in them — and
    they are taken over in one slice up to the next paragraph whose lookups could see the change.
    Citations are built when asked for, reusing the previous run's where nothing before them moved.
    The result does not depend on ``prior``.
    """
    if len(paragraphs) != len(results):
        raise ValueError("one result per paragraph")
    n = len(results)
    q = _same_prefix(prior, paragraphs, results, edited) if prior is not None else 0
    # paragraph numbers move by this much when paragraphs were inserted or removed
    pno_delta = n - len(prior.results) if prior is not None else 0
    fc: list[int] = []
    la: list[RelRef | None] = []
    nout: list[int] = []
    plans: list[Plan] = []
    reach: list[int] = []
    built_all: list[tuple[Citation, ...] | None] = []
    st = _State(fc=fc)
    n_out = 0
    zone: _Zone | None = None
    queries: _Queries | None = None
    if prior is not None:
        st.restored, st.base = True, prior.index
        if q > 0:
            n_f = prior.fc_at(q)
            st.fulls = prior.fulls[:n_f]
            st.segs = _segs_upto(prior.segs, n_f)
            st.patches = prior.patches[: bisect_left(prior.patches, n_f)]
            st.last_authority = _absolute(prior.la_at(q), q)
            n_out = prior.first_of(q)
            fc.extend(prior.fc[:q])
            la.extend(prior.la[:q])
            nout.extend(prior.nout[:q])
            plans.extend(prior.plans[:q])
            reach.extend(prior.reach[:q])
            built_all.extend(prior.built[:q])
        have = prior.queries
        most = st.limits.queries_per_paragraph * n + st.limits.queries_slack
        queries = have if have is not None and len(have.of) <= most else _Queries()
        zone = _Zone(prior, st, queries, q, pno_delta)
    stretch: int | None = (
        None  # (previous run's numbering) where the present run of taken-over paragraphs began
    )
    counts_moved = False  # a paragraph planned again has another number of citations than the one it replaces
    pno = q
    kept_from = q if prior is not None else n
    while pno < n:
        off, res = paragraphs[pno][0], results[pno]
        prev = results[pno - 1] if pno else None
        la_here = _relative(st.last_authority, pno)
        fc.append(len(st.fulls))
        la.append(la_here)
        nout.append(n_out)
        old = pno - pno_delta
        in_prior = prior is not None and 0 <= old < len(prior.results)  # the previous run's paragraph ``old``
        synced = (
            zone is not None
            and prior is not None
            and pno > q
            and in_prior
            and prior.results[old] is res
            and prior.la[old] == la_here
            and _prev_sig(prior.results, old) == _prev_sig(results, pno)
            # a paragraph inserted or removed moves what lies before it: a looked-up antecedent must lie
            # in this run of taken-over paragraphs (an ``Id.``'s is checked by the state above)
            and (pno_delta == 0 or prior.reach[old] <= old - (old if stretch is None else stretch))
            and zone.unaffected(res, text, off, old)
        )
        built: tuple[Citation, ...] | None = None
        if synced:
            assert prior is not None and zone is not None
            plan, r = prior.plans[old], prior.reach[old]
            if stretch is None:
                stretch = old
            zone.taken(old)
            st.take(prior, prior.fc[old], prior.fc_at(old + 1))
            st.last_authority = _absolute(prior.la_at(old + 1), pno + 1)
            if (
                old == pno
                and not counts_moved
                and prior.nout[old] == n_out
                and prior.paragraphs[old][0] == off
            ):
                # same plan, same place: the very same citations, unless they read a changed paragraph before
                if not uses_prev(plan) or (
                    prior.results[pno - 1] is prev and prior.paragraphs[pno - 1][0] == paragraphs[pno - 1][0]
                ):
                    built = prior.built[old]
        else:
            stretch = None
            start_f = len(st.fulls)
            plan, r = _plan(text, off, res, prev, st, pno)
            kept_from = pno + 1
            if res.barrier_at_end:
                st.last_authority = None
            if zone is not None and prior is not None:
                zone.planned(pno, start_f)
                if not in_prior or len(prior.plans[old]) != len(plan):
                    counts_moved = True
                if in_prior:
                    st.rebase(prior, prior.fc[old], prior.fc_at(old + 1), start_f)
                    was = prior.plans[old]
                    if prior.results[old] is res and plan == was and not _names_earlier_cites(plan, res):
                        # planned alike (a paragraph inserted before it moved what it reached back to):
                        # the same object, so its local findings are taken over (judge.paragraph_findings)
                        plan = was
        plans.append(plan)
        reach.append(r)
        built_all.append(built)
        n_out += len(plan)
        pno += 1
        if synced and pno < n:
            assert prior is not None and zone is not None and stretch is not None
            old += 1
            if not _same_tail(prior, old, results, pno):
                continue
            # every later paragraph is the previous run's: take them over at once, up to the first one
            # whose lookups could see what changed (or whose antecedents a moved paragraph displaced)
            end = zone.affected_from(results, paragraphs, text, pno, old)
            if pno_delta:
                for i in range(old, end - pno_delta):
                    if prior.reach[i] > i - stretch:
                        end = i + pno_delta
                        break
            if end <= pno:
                continue
            o1 = end - pno_delta
            dfc, dn = len(st.fulls) - prior.fc[old], n_out - prior.nout[old]
            fc.extend(prior.fc[old:o1] if not dfc else [x + dfc for x in prior.fc[old:o1]])
            nout.extend(prior.nout[old:o1] if not dn else [x + dn for x in prior.nout[old:o1]])
            la.extend(prior.la[old:o1])
            plans.extend(prior.plans[old:o1])
            reach.extend(prior.reach[old:o1])
            if pno_delta or counts_moved or dn:
                built_all.extend([None] * (end - pno))  # moved: built again when asked for
            else:
                built_all.extend(_tail_built(prior, paragraphs, results, pno, end))
            zone.taken_range(old, o1)
            st.take(prior, prior.fc[old], prior.fc_at(o1))
            st.last_authority = _absolute(prior.la_at(o1), end)
            n_out += prior.first_of(o1) - prior.nout[old]
            pno = end
    run = Run(
        text=text,
        paragraphs=paragraphs,
        results=list(results),
        fc=fc,
        la=la,
        nout=nout,
        after=(len(st.fulls), _relative(st.last_authority, n), n_out),
        plans=plans,
        reach=reach,
        built=built_all,
        fulls=st.fulls,
        serial=next(_serials),
        prior_serial=prior.serial if prior is not None else None,
        edited=edited if prior is not None else None,
        index=st.base if st.restored else _Shared(st.fulls, st.by_word, st.by_cite, st.by_short, st.indexed),
        segs=st.segs if st.restored else [(0, 0, len(st.fulls))],
        patches=st.patches if st.restored else [],
        queries=queries,
        kept_from=kept_from,
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
    prior: Run, paragraphs: list[tuple[int, int]], results: list[ParagraphResult], pno: int, end: int
) -> list[tuple[Citation, ...] | None]:
    """The previous run's built citations for taken-over paragraphs ``pno:end`` (same numbers), where
    they are still valid: same offset, and (if they read it) the same paragraph before at the same offset."""
    if paragraphs[end - 1][0] != prior.paragraphs[end - 1][0]:
        return [None] * (end - pno)  # moved (the usual keystroke): built again when asked for

    def same(i: int) -> bool:
        return results[i] is prior.results[i] and paragraphs[i][0] == prior.paragraphs[i][0]

    return [
        prior.built[i] if same(i) and (same(i - 1) or not uses_prev(prior.plans[i])) else None
        for i in range(pno, end)
    ]


def _same_prefix(
    prior: Run,
    paragraphs: list[tuple[int, int]],
    results: list[ParagraphResult],
    edited: tuple[int, int] | None,
) -> int:
    """How many first paragraphs are the previous run's, at the same offsets. Those wholly before the
    edited region are (the text there did not change, and an unchanged paragraph keeps its result
    object), so only the few after them are compared."""
    limit = min(len(results), len(prior.results))
    q = 0
    if edited is not None:  # the paragraphs ending before the edit, found by bisection
        q = min(limit, bisect_left(paragraphs, edited[0], hi=limit, key=_end) - 1)
        q = max(0, q)
        if q and not (
            results[q - 1] is prior.results[q - 1] and paragraphs[q - 1] == prior.paragraphs[q - 1]
        ):
            q = 0  # not what the edit promised: compare from the start
    while q < limit and results[q] is prior.results[q] and paragraphs[q] == prior.paragraphs[q]:
        q += 1
    return q


def _end(p: tuple[int, int]) -> int:
    return p[1]


def _prev_sig(results: list[ParagraphResult], i: int) -> bool | None:
    """What a paragraph's plan reads from the paragraph before it."""
    return None if i == 0 else results[i - 1].block is not None


Cite = tuple[str | None, str | None]


class _Queries:
    """Each paragraph result's lookups — the padded names its short forms and ``supra`` search for
    (``_latest``), the short names its ``Name at N`` candidates try (``_resolve_reference``), the
    volumes and reporters of its short forms (``_resolve_short``) — which depend on its text alone,
    kept from run to run; and, for the results asked about, which of them look up a word, short name
    or volume, so the paragraphs a changed record could answer differently are found without looking
    at every paragraph."""

    __slots__ = ("by_cite", "by_short", "by_word", "of")

    def __init__(self) -> None:
        self.of: dict[int, tuple[ParagraphResult, tuple[str, ...], tuple[str, ...], tuple[Cite, ...]]] = {}
        self.by_word: dict[str, set[int]] = {}
        self.by_short: dict[str, set[int]] = {}
        self.by_cite: dict[Cite, set[int]] = {}

    def get(
        self, res: ParagraphResult, text: str, off: int
    ) -> tuple[tuple[str, ...], tuple[str, ...], tuple[Cite, ...]]:
        hit = self.of.get(id(res))
        if hit is None or hit[0] is not res:
            names, shorts, cites = _queries_of(res, text, off)
            hit = self.of[id(res)] = (res, names, shorts, cites)
            key = id(res)
            for name in names:
                w = name.split()
                if w:
                    self.by_word.setdefault(w[-1], set()).add(key)
            for s in shorts:
                self.by_short.setdefault(s, set()).add(key)
            for c in cites:
                self.by_cite.setdefault(c, set()).add(key)
        return hit[1], hit[2], hit[3]


def _queries_of(
    res: ParagraphResult, text: str, off: int
) -> tuple[tuple[str, ...], tuple[str, ...], tuple[Cite, ...]]:
    names: list[str] = []
    cites: list[Cite] = []
    for c in res.citations:
        if c.form in (CiteForm.SHORT, CiteForm.SUPRA) and c.antecedent_text:
            names.extend(_suffixes(c.antecedent_text))
        if c.form is CiteForm.SHORT:
            cites.append((c.volume, c.reporter))
        elif c.form is CiteForm.STATUTE and c.statute is not None and c.statute.form is StatuteForm.SHORT:
            cites.append((normalise_section(c.statute.section), SECTION_MARK))
    shorts = [norm_name(text[off + w[0] : off + r.name_end]) for r in res.refs for w in r.words]
    return tuple(names), tuple(shorts), tuple(dict.fromkeys(cites))


Placed = tuple[int, _Full]  # a record and its paragraph (the previous run's number for it)


class _Zone:
    """What the paragraphs planned again changed in the records later paragraphs look up.

    The records of the previous run's paragraphs that were not taken over (``old``) against those the
    present run planned (``new``), each with its paragraph; equal ones at either end are left out.
    When what is left pairs up with differences in names only (typing inside a case name), a later
    paragraph is affected when one of its name lookups answers differently for a pair; otherwise when
    any of its lookups could match any record left (a record added, removed, renumbered or moved). A
    paragraph whose lookups are unaffected resolves as before, to the same records at the same places."""

    __slots__ = (
        "_hits",
        "_hits_key",
        "_key",
        "_loose",
        "_pairs",
        "flooded",
        "new",
        "old",
        "old_next",
        "pno_delta",
        "prior",
        "queries",
        "st",
    )

    def __init__(self, prior: Run, st: _State, queries: _Queries, q: int, pno_delta: int) -> None:
        self.prior, self.st, self.queries = prior, st, queries
        self.pno_delta = pno_delta
        self.old: list[Placed] = []
        self.new: list[Placed] = []  # placed by the previous run's paragraph numbers, as ``old``
        self.old_next = q  # the previous run's paragraphs before this are accounted for
        self._key: tuple[int, int, int] | None = None
        self._pairs: list[tuple[_Full, _Full]] = []
        self._loose: list[_Full] = []
        self._hits_key: tuple[int, int, int] | None = None
        self._hits: set[int] = set()
        #: so much changed (a paragraph inserted or removed before many short forms that reach back
        #: past it, a long paste) that every later paragraph is planned again, as before numbering
        #: was relative: the comparison would cost more than the planning it saves
        self.flooded = False

    def planned(self, pno: int, start: int) -> None:
        """Paragraph ``pno`` was planned again; its records are ``st.fulls[start:]``."""
        if self.flooded:
            return
        fulls = self.st.fulls
        t = pno - self.pno_delta
        self.new.extend((t, fulls[i]) for i in range(start, len(fulls)))
        if len(self.new) > self.st.limits.zone_records:
            self.flooded = True

    def taken(self, old: int) -> None:
        """The previous run's paragraph ``old`` was taken over: those before it that were not are replaced."""
        self._replaced(old)
        self.old_next = old + 1

    def taken_range(self, start: int, end: int) -> None:
        """The previous run's paragraphs ``start:end`` were taken over."""
        self._replaced(start)
        self.old_next = end

    def _replaced(self, upto: int) -> None:
        prior = self.prior
        if not self.flooded:
            for t in range(self.old_next, upto):
                self.old.extend((t, prior.fulls[i]) for i in range(prior.fc[t], prior.fc_at(t + 1)))
            if len(self.old) > self.st.limits.zone_records:
                self.flooded = True
        self.old_next = max(self.old_next, upto)

    def _changes(self, old: int) -> tuple[list[tuple[_Full, _Full]], list[_Full]]:
        self._replaced(old)
        key = (len(self.old), len(self.new), self.old_next)
        if key == self._key:
            return self._pairs, self._loose
        a, b = self.old, self.new
        i, j, k = 0, len(a), len(b)
        while i < j and i < k and _same_placed(a[i], b[i]):
            i += 1
        while j > i and k > i and _same_placed(a[j - 1], b[k - 1]):
            j, k = j - 1, k - 1
        mid_a, mid_b = a[i:j], b[i:k]
        if len(mid_a) == len(mid_b) and all(
            x[0] == y[0] and _names_only(x[1], y[1]) for x, y in zip(mid_a, mid_b, strict=True)
        ):
            self._pairs, self._loose = [(x[1], y[1]) for x, y in zip(mid_a, mid_b, strict=True)], []
        else:
            loose = mid_a + mid_b
            # a reference names a record by its key and how many before it share that key: a record
            # added or removed before another of the same key changes the other's name too
            clash = {(t, f.key) for t, f in loose}
            self._pairs = []
            self._loose = [f for t, f in a + b if (t, f.key) in clash]
            if len(self._loose) > self.st.limits.zone_loose:
                self.flooded = True
        self._key = key
        return self._pairs, self._loose

    def unaffected(self, res: ParagraphResult, text: str, off: int, old: int) -> bool:
        """Whether paragraph ``res`` (the previous run's ``old``) resolves as before."""
        if self.flooded:
            return False
        pairs, loose = self._changes(old)
        if self.flooded:
            return False
        if not pairs and not loose:
            return True
        return not _hits(self.queries.get(res, text, off), pairs, loose)

    def affected_from(
        self, results: list[ParagraphResult], paragraphs: list[tuple[int, int]], text: str, pno: int, old: int
    ) -> int:
        """The first paragraph from ``pno`` on (the previous run's ``old`` on) whose lookups the changes
        could answer differently; ``len(results)`` when none."""
        if self.flooded:
            return pno
        pairs, loose = self._changes(old)
        n = len(results)
        if self.flooded:
            return pno
        if not pairs and not loose:
            return n
        if self._hits_key != self._key:
            self._hits_key, self._hits = (
                self._key,
                self._affected(results, paragraphs, text, pno, pairs, loose),
            )
        hits = self._hits
        if not hits:
            return n
        for i in range(pno, n):
            if id(results[i]) in hits:
                return i
        return n

    def _affected(
        self,
        results: list[ParagraphResult],
        paragraphs: list[tuple[int, int]],
        text: str,
        pno: int,
        pairs: list[tuple[_Full, _Full]],
        loose: list[_Full],
    ) -> set[int]:
        """The results (by id) whose lookups the changes could answer differently."""
        qs = self.queries
        n = len(results)
        for i in range(pno, n):  # every later paragraph's lookups are in the index (once per result)
            r = results[i]
            hit = qs.of.get(id(r))
            if hit is None or hit[0] is not r:
                qs.get(r, text, paragraphs[i][0])
        keys: set[int] = set()
        for f in [*loose, *(g for pair in pairs for g in pair)]:
            for w in set(f.padded.split()):
                keys |= qs.by_word.get(w, set())
            for s in f.short_names:
                keys |= qs.by_short.get(s, set())
            if loose:
                keys |= qs.by_cite.get((f.volume, f.reporter), set())
        return {k for k in keys if _hits(qs.of[k][1:], pairs, loose)}


def _same_placed(a: Placed, b: Placed) -> bool:
    return a[0] == b[0] and (a[1] is b[1] or a[1].content == b[1].content)


def _hits(
    queries: tuple[tuple[str, ...], tuple[str, ...], tuple[Cite, ...]],
    pairs: list[tuple[_Full, _Full]],
    loose: list[_Full],
) -> bool:
    names, shorts, cites = queries
    for old, new in pairs:
        if any((n in old.padded) != (n in new.padded) for n in names):
            return True
        if any((n in old.short_names) != (n in new.short_names) for n in shorts):
            return True
    for f in loose:
        if (f.volume, f.reporter) in cites:
            return True
        if any(n in f.padded for n in names) or any(n in f.short_names for n in shorts):
            return True
    return False


def _names_only(a: _Full, b: _Full) -> bool:
    """Whether two records differ in their names alone (a reference names both alike)."""
    return a.key == b.key and a.page == b.page


def _plan(
    text: str, off: int, res: ParagraphResult, prev: ParagraphResult | None, st: _State, pno: int
) -> tuple[Plan, int]:
    """Document order, numbering (from the paragraph's first citation) and resolution for paragraph
    ``pno`` (no objects built), and how far back its looked-up antecedents lie."""
    order: list[tuple[int, int, int]] = [(c.span.start, 0, k) for k, c in enumerate(res.citations)]
    if res.refs:
        order.extend((r.words[0][0], 1, k) for k, r in enumerate(res.refs))
        order.sort(key=lambda t: (t[0], t[1]))
    plan: Plan = []
    local: dict[int, int] = {}
    reach = 0
    for _pos, kind, k in order:
        i = len(plan)
        if kind == 1:
            found = _resolve_reference(res.refs[k], text, off, st)
            if found is None:
                continue
            at, s, name = found
            ante = st.ref(at)
            reach = max(reach, pno - ante[0])
            plan.append(("r", k, (pno - ante[0], ante[1]), s, name))
            st.last_authority = ante
            continue
        c = res.citations[k]
        local[k] = i
        if res.barrier_before[k]:
            st.last_authority = None
        group: int | None = None
        antecedent: Ref | None = None
        if c.form in (CiteForm.FULL, CiteForm.UNRECOGNISED):
            group = local.get(c.group if c.group is not None else k, i)
            _add_full(st, c, i, group)
            if not res.nested[k]:
                st.last_authority = st.leader(pno, group)
        elif c.form is CiteForm.STATUTE and c.statute is not None:
            group, antecedent = _plan_statute(c, st, i, pno, res.nested[k])
            if antecedent is not None:
                reach = max(reach, pno - antecedent[0])
        else:
            if c.form is CiteForm.SHORT:
                at_ = _resolve_short(c, st)
                if at_ is not None:
                    antecedent = st.ref(at_)
                    reach = max(reach, pno - antecedent[0])
                elif res.parallel_short and res.parallel_short[k] and plan and plan[-1][0] == "c":
                    antecedent = _absolute(plan[-1][3], pno)  # type: ignore[arg-type]  # the pin's parallel partner
            elif c.form is CiteForm.SUPRA:
                at_ = _resolve_supra(c, st)
                if at_ is not None:
                    antecedent = st.ref(at_)
                    reach = max(reach, pno - antecedent[0])
            elif c.form is CiteForm.ID:
                antecedent = st.last_authority
            if not res.nested[k] and c.form is not CiteForm.ID:
                st.last_authority = antecedent
        block = bool(res.leading[k] and prev is not None and prev.block is not None)
        prop_prev = bool(res.needs_prev[k] and prev is not None)
        plan.append(("c", k, group, _relative(antecedent, pno), block, prop_prev))
    return plan, reach


def _build(
    run: Run,
    text: str,
    off: int,
    pno: int,
    res: ParagraphResult,
    prev: ParagraphResult | None,
    prev_off: int,
    e: tuple[object, ...],
    sh: _Shifter,
    index: int,
) -> Citation:
    if e[0] == "r":
        _, k, ante, s, name = e
        r = res.refs[k]  # type: ignore[index,call-overload]
        span = Span(off + s, off + r.pincite.span.end)  # type: ignore[operator]
        prop_span, ref_quotes, _np = res.ref_props[k]  # type: ignore[index,call-overload]
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
            antecedent=run.index_of(ante, pno),  # type: ignore[arg-type]
            antecedent_text=" ".join(str(name).split()),
            paragraph=pno,
        )
    _, k, group, ante, block, prop_prev = e
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
        index=index,
        group=None if group is None else run.first_of(pno) + group,  # type: ignore[operator]
        antecedent=run.index_of(ante, pno),  # type: ignore[arg-type]
        paragraph=pno,
        quotes=quotes,
        proposition=proposition,
        shifter=sh,
    )


class Assembler:
    """``assemble`` fed one paragraph at a time, in document order: the batch path's parallel
    extraction (``extract/parallel.py``) numbers, resolves and builds the paragraphs that have
    arrived while the rest are still being extracted, instead of all of them afterwards. The same
    steps as ``assemble_incremental`` without a previous run (plan each paragraph, then build its
    citations), so ``finish()`` equals ``assemble`` (tests/extract/test_parallel.py compares them)."""

    __slots__ = ("built", "n_out", "run", "st")

    def __init__(self, text: str) -> None:
        self.st = _State(fc=[])
        self.n_out = 0
        self.run = Run(
            text=text,
            paragraphs=[],
            results=[],
            fc=self.st.fc,
            la=[],
            nout=[],
            after=(0, None, 0),
            plans=[],
            reach=[],
            built=[],
            fulls=self.st.fulls,
        )
        self.built: list[Citation] = []

    def add(self, span: tuple[int, int], res: ParagraphResult) -> None:
        """The next paragraph (``span`` in the text) and its result."""
        run, st = self.run, self.st
        pno = len(run.plans)
        run.fc.append(len(st.fulls))
        run.la.append(_relative(st.last_authority, pno))
        run.nout.append(self.n_out)
        plan, reach = _plan(run.text, span[0], res, run.results[-1] if pno else None, st, pno)
        if res.barrier_at_end:
            st.last_authority = None
        run.paragraphs.append(span)
        run.results.append(res)
        run.plans.append(plan)
        run.reach.append(reach)
        run.built.append(None)
        self.n_out += len(plan)
        run.after = (len(st.fulls), _relative(st.last_authority, pno + 1), self.n_out)  # what building reads
        self.built.extend(run.paragraph(pno))

    def finish(self) -> Extraction:
        n = len(self.run.plans)
        self.run.after = (len(self.st.fulls), _relative(self.st.last_authority, n), self.n_out)
        return Extraction(text=self.run.text, citations=tuple(self.built))
