"""The records short forms are resolved against, and the lookup index a keystroke's run borrows from
the run before it (``SharedIndex``: only the positions it changed are scanned, not every full citation)."""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:
    from citecheck.extract.incremental.assembly import Run

import math
import re
from bisect import bisect_left, bisect_right
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import lru_cache

from citecheck.extract.incremental.thresholds import Thresholds, active
from citecheck.extract.models import CaseName, Citation, CiteForm, normalise_section
from citecheck.extract.paragraph import RefCandidate
from citecheck.extract.records import positional_constructor

_GENERIC = frozenset(
    "united states state people commonwealth in re the city county ex parte matter of estate government".split()
)


_PUNCT = re.compile(r"[^\w\s&']")


def norm_name(s: str) -> str:
    return " ".join(_PUNCT.sub(" ", s.lower().replace("\u2019", "'")).split())


class RecordRef(NamedTuple):
    """A full citation's record in its paragraph, by its key and how many records of that paragraph with
    the same key come before it (a citation added or removed before it leaves this as it was)."""

    key: tuple[object, ...]
    nth: int


#: Which citation of a paragraph: a record (``RecordRef``), else — a group's first citation without a
#: record — its place in the paragraph's plan.
Which = RecordRef | int


class Ref(NamedTuple):
    """A citation referred to from a run's plans: its paragraph, and which citation there."""

    paragraph: int
    which: Which


class RelRef(NamedTuple):
    """The same as a plan stores it: paragraphs back from the referring one. Relative, so a citation added
    or removed elsewhere, or a paragraph inserted before both, leaves it as it was."""

    back: int
    which: Which


@dataclass(frozen=True, slots=True)
class Record:
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


_tuple_new = tuple.__new__
#: ``Record(*fields)`` by the slot setters (the frozen dataclass's ``__init__`` sets each of the ten through
#: ``object.__setattr__``; one is made per full citation per run)
_record = positional_constructor(Record)


class Seg(NamedTuple):
    """A stretch of a run's records that sits in the lookup index it was handed."""

    at: int  # position in the run's records
    indexed_at: int  # position in the index's records
    length: int


@dataclass(slots=True)
class LookupState:
    """The full citations seen so far (in order) and the authority a following ``Id.`` means.

    Lookups go through an index of positions in ``fulls``: the run's own (``restored`` False), or the
    one an earlier run left (``base``), which holds the stretches ``segs`` of ``fulls`` at other
    positions, and not the records at ``patches`` (planned by this run, or by a run since the index
    was made) — so a keystroke neither indexes nor scans every full citation again."""

    records_before: list[int]  # per paragraph planned so far: records before it (the run's own list)
    fulls: list[Record] = field(default_factory=list)
    last_authority: Ref | None = None
    by_word: dict[str, list[int]] = field(default_factory=dict)  # word of a name -> positions in ``fulls``
    by_cite: dict[tuple[str | None, str | None], list[int]] = field(default_factory=dict)
    by_short: dict[str, list[int]] = field(default_factory=dict)
    indexed: int = 0
    restored: bool = False
    base: SharedIndex | None = None
    segs: list[Seg] = field(default_factory=list)
    patches: list[int] = field(default_factory=list)  # positions in ``fulls`` not in ``base``
    limits: Thresholds = field(default_factory=active)

    def para_of(self, pos: int) -> int:
        return para_of(self.records_before, pos)

    def ref(self, pos: int) -> Ref:
        return self.ref_in(self.para_of(pos), pos)

    def ref_in(self, t: int, pos: int) -> Ref:
        """``ref(pos)`` for a record of paragraph ``t``. (The named tuples made by ``tuple.__new__``, as
        their own ``__new__`` makes them, without its Python frame: one or two per full citation.)"""
        fulls = self.fulls
        key = fulls[pos].key
        nth = 0
        for i in range(self.records_before[t], pos):
            if fulls[i].key == key:
                nth += 1
        return _tuple_new(Ref, (t, _tuple_new(RecordRef, (key, nth))))

    def leader(self, para: int, group: int) -> Ref:
        """Paragraph ``para``'s citation at ``group`` (a parallel group's first), the one being planned."""
        fulls = self.fulls
        for i in range(self.records_before[para], len(fulls)):
            if fulls[i].pos == group:
                return self.ref_in(para, i)  # the records from ``records_before[para]`` on are its own
        return Ref(para, group)

    def add(self, f: Record) -> None:
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


def para_of(records_before: list[int], pos: int) -> int:
    """The paragraph holding record ``pos`` (the last one whose records start at or before it), from
    the records before each paragraph.

    >>> para_of([0, 0, 2, 5], 3)
    2
    """
    return bisect_right(records_before, pos) - 1


def _add_seg(segs: list[Seg], cur: int, bpos: int, n: int) -> None:
    if segs:
        c, b, m = segs[-1]
        if c + m == cur and b + m == bpos:
            segs[-1] = Seg(c, b, m + n)
            return
    segs.append(Seg(cur, bpos, n))


def segs_upto(segs: list[Seg], n: int) -> list[Seg]:
    out = []
    for cur, b, m in segs:
        if cur >= n:
            break
        out.append(Seg(cur, b, min(m, n - cur)))
    return out


@dataclass(slots=True, eq=False)
class SharedIndex:
    """The lookup indexes of one run's full citations, handed on to the runs that continue it: a
    keystroke's run restores most of the previous run's ``fulls`` and looks names up here (through its
    ``segs``), scanning only the positions it changed (``patches``) — indexing everything again, or
    scanning every full citation for each short form, would cost time proportional to the brief on
    every keystroke. Built lazily: ``fulls`` never changes once its run is over, so completing the
    index later is safe."""

    fulls: list[Record]
    by_word: dict[str, list[int]]
    by_cite: dict[tuple[str | None, str | None], list[int]]
    by_short: dict[str, list[int]]
    indexed: int

    def ensure(self) -> SharedIndex:
        for pos in range(self.indexed, len(self.fulls)):
            _index_one(self.fulls[pos], pos, self.by_word, self.by_cite, self.by_short)
        self.indexed = len(self.fulls)
        return self


def _index_one(
    f: Record,
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


def mapped(base: SharedIndex, segs: list[Seg], patches: list[int], table: str, key: object) -> list[int]:
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


def _candidates(st: LookupState, table: str, key: object) -> list[int] | None:
    """Ascending positions in ``st.fulls`` that may match ``key`` in one of the indexes (``by_word``,
    ``by_cite``, ``by_short``) — a superset: callers check each full citation — or None: scan them all."""
    if st.restored and (len(st.patches) > st.limits.patch_limit or len(st.segs) > st.limits.seg_limit):
        st.own_index()
    if not st.restored:
        _index(st)
        got: list[int] = getattr(st, table).get(key, [])
        return got
    if st.base is None:
        return None
    return mapped(st.base, st.segs, st.patches, table, key)


def _index(st: LookupState) -> LookupState | None:
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


def _names_of(name: CaseName | None) -> tuple[str, frozenset[str]]:
    """(padded names, short names) of a case name."""
    if name is None:
        return "", frozenset()
    return _names_of_parts(name.text, name.plaintiff, name.defendant)


@lru_cache(maxsize=65_536)
def _names_of_parts(text: str, plaintiff: str | None, defendant: str | None) -> tuple[str, frozenset[str]]:
    """``_names_of`` by the name's words, not its place: every citation of a case shares one answer
    (keyed by the ``CaseName``, whose span differs at each, the cache held a copy per citation: issue 40)."""
    names: list[str] = []
    shorts: set[str] = set()
    for party in (plaintiff, defendant):
        if party:
            p = norm_name(party)
            names.append(p)
            shorts.add(p)
            words = [w for w in p.split() if w not in _GENERIC]
            if words:
                shorts.add(words[0])
    names.append(norm_name(text))
    return " " + " | ".join(names) + " ", frozenset(shorts)


def clear_name_caches() -> None:
    """Empty ``_names_of_parts``' and ``suffixes``' caches (what the batch path does once a document is
    assembled: they hold case names it will not ask about again)."""
    _names_of_parts.cache_clear()
    suffixes.cache_clear()


def add_record(st: LookupState, c: Citation, pos: int, group: int) -> None:
    padded, shorts = _names_of(c.case_name)
    page = int(c.page) if c.page and c.page.isdigit() else None
    full = c.form is CiteForm.FULL
    st.add(
        _record(
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
#: finds its volume, through the same index and the same ``Zone`` bookkeeping (its query is a ``Cite``).
SECTION_MARK = "§"


def add_statute(st: LookupState, c: Citation, pos: int) -> int:
    """Records for a full statute citation (one per section it names); the position of the first."""
    s = c.statute
    assert s is not None
    first = len(st.fulls)
    code = (s.code, s.title)
    sections = list(dict.fromkeys(normalise_section(x) for x in (s.section, *s.also, s.last_section) if x))
    if (s.kind and s.kind != "act") or not sections:
        # a constitution's provision, a session law, a whole chapter: one record no "§ N" short form
        # names (its "§ 1" is no section of a code), so that Id. still finds it
        sections = [f"{s.kind or 'code'}:{s.code}:{s.title}:{s.chapter or ''}:{s.section}"]
    for section in sections:
        st.add(
            _record(
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


def resolve_statute(c: Citation, st: LookupState) -> int | None:
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


@lru_cache(maxsize=65_536)
def suffixes(name: str) -> tuple[str, ...]:
    """``"Md. Donze"`` → ``(" md donze ", " donze ")``: the name as written first, then shorter tails,
    normalised and padded for word-sequence containment.

    A tail keeps at least the last word before ``v.``: ``Kimbrough v. United States, 128 S.Ct. at 575``
    is not ``Gall v. United States, 128 S. Ct. 586`` by ``v. United States``, and ``Miller v. United
    States, supra`` is no other case against the United States (``States v. Vargas``, a name cut short,
    still finds ``United States v. Vargas``)."""
    words = norm_name(name).split()
    v = next((k for k in range(1, len(words)) if words[k] in ("v", "vs")), len(words))
    return tuple(f" {' '.join(words[k:])} " for k in range(v))


def _latest(
    st: LookupState,
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


def resolve_short(c: Citation, st: LookupState) -> int | None:
    """A named short form goes to the case with that name; otherwise (or when no earlier cite of the
    volume has the name) to the case whose pages can hold the pin (the position of its record).

    Cases in a volume do not overlap, so of the cases cited in full from the volume, the one with the
    greatest first page at or below the pin is the only one that can contain it: in an opinion citing
    both Gratz v. Bollinger, 539 U. S. 244 and Grutter v. Bollinger, 539 U. S. 306, "539 U. S., at
    328" is Grutter. When the pin is below every first page, or two different cases begin on that
    page, the short form stays unresolved rather than guessed.
    """
    if c.database is not None and c.page:
        return _same_database_cite(c, st)
    names = suffixes(c.antecedent_text) if c.antecedent_text else ()
    if names:
        named = _latest(st, names, c.volume, c.reporter, same_reporter=True)
        if named is not None and any(n in st.fulls[named].padded for n in names):
            return named
    same = _cites_of_volume(st, c.volume, c.reporter)
    if not same:
        return None
    pin = c.pincite.parts[0].first if c.pincite and c.pincite.parts else None
    if pin is None or not pin.isdigit() or any(st.fulls[p].page is None for p in same):
        return same[-1]  # no page to go by: the latest cite of the volume, as before
    return _case_holding_page(st, same, int(pin))


def _cites_of_volume(st: LookupState, volume: str | None, reporter: str | None) -> list[int]:
    """The positions of the full citations of this volume and reporter, in order."""
    fulls = st.fulls
    listed = _candidates(st, "by_cite", (volume, reporter))
    pool: Iterable[int] = range(len(fulls)) if listed is None else listed
    return [p for p in pool if fulls[p].volume == volume and fulls[p].reporter == reporter]


def _same_database_cite(c: Citation, st: LookupState) -> int | None:
    """ "Henson, 2008 WL 123456, at *2": the Westlaw number names the case; the latest full cite of it."""
    same = [p for p in _cites_of_volume(st, c.volume, c.reporter) if st.fulls[p].page_text == c.page]
    return same[-1] if same else None


def _case_holding_page(st: LookupState, same: list[int], pin: int) -> int | None:
    """Of the full cites ``same`` of one volume, the case whose pages can hold ``pin``: the greatest first
    page at or below it (cases in a volume do not overlap); None when the pin is below every first page or
    two different cases begin on that page."""
    fulls = st.fulls
    below = [p for p in same if (fulls[p].page or 0) <= pin]
    if not below:
        return None
    top = max(fulls[p].page or 0 for p in below)
    on_top = [p for p in below if fulls[p].page == top]
    holders = {(st.para_of(p), fulls[p].group) for p in on_top}
    if len(holders) > 1 and _different_cases([fulls[p] for p in on_top]):
        return None
    return max(on_top)


def _different_cases(records: list[Record]) -> bool:
    """Whether full citations of one first page name different cases: two of them name parties and no
    party but the government is common to both. The same case cited in full twice (``United States v.
    Valencia-Copete, 792 F.2d 4`` in the opinion and again in its footnote) is one."""
    named = [r.short_names - _GENERIC for r in records if r.short_names - _GENERIC]
    return any(not (a & b) for i, a in enumerate(named) for b in named[i + 1 :])


def resolve_supra(c: Citation, st: LookupState) -> int | None:
    if not c.antecedent_text:
        return None
    return _latest(st, suffixes(c.antecedent_text))


class ReferenceHit(NamedTuple):
    """A ``Name at N`` resolved: the antecedent's record (its position in ``LookupState.fulls``), where in
    the paragraph the name starts, and the name as written."""

    record: int
    name_start: int
    name: str


def resolve_reference(r: RefCandidate, text: str, offset: int, st: LookupState) -> ReferenceHit | None:
    """The antecedent of a valid ``Name at N``, or None."""
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
                return ReferenceHit(p, s, text[offset + s : offset + r.name_end])
    return None


def absolute(rel: RelRef | None, para: int) -> Ref | None:
    """``rel`` as seen from paragraph ``para``, by the paragraph it names.

    >>> absolute(RelRef(2, 0), 7)
    Ref(paragraph=5, which=0)
    """
    return None if rel is None else Ref(para - rel.back, rel.which)


def relative(ref: Ref | None, para: int) -> RelRef | None:
    """``ref`` as paragraph ``para``'s plan stores it, by how many paragraphs back it lies.

    >>> relative(Ref(5, 0), 7)
    RelRef(back=2, which=0)
    """
    return None if ref is None else _tuple_new(RelRef, (para - ref.paragraph, ref.which))
