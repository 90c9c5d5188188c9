"""Find a quoted passage in opinion text the way a careful cite-checker would; pure.

Both sides become word tokens (case, accents, curly/straight quotes, punctuation and line breaks
ignored), with offsets into the original opinion text. The draft's quote may contain:

* ``[W]here`` — an alteration inside a word: matches with or without the bracketed letters;
* ``[the court]`` — a standalone alteration: stands for a short run (at most a few words);
* ``...`` / ``. . .`` / ``…`` — an omission: an ordered gap of bounded length that may never
  contain a negation (an ellipsis must not be able to swallow a "not");
* footnote markers on either side (a lone 1–3 digit number) are skipped;
* a word split by line-break hyphenation ("carve-\\nouts") matches the joined word and vice versa;
* with "(cleaned up)" / "(citations omitted)" the opinion may contain short citation runs the
  draft left out.

When a quote is not found, ``closest_passage`` returns the best-aligned window of the opinion and
a word-level diff a lawyer can read.
"""

from __future__ import annotations

import bisect
import re
import unicodedata
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from difflib import Match, SequenceMatcher
from functools import lru_cache

_TOKEN = re.compile(r"[^\W_]+(?:['’][^\W_]+)*", re.UNICODE)
_ELLIPSIS = re.compile(r"(?:\.\s*){3,}|…|\*\s*\*\s*\*")
_BRACKET = re.compile(r"\[([^\]]*)\]")
#: Page markers some opinion texts carry inline; they are not words of the opinion.
_PAGE_MARKER = re.compile(
    r"\[\s*\d+\s+[A-Za-z][^\[\]\n]{0,30}?\s+\d+(?:\s*,\s*\d+\s+[A-Za-z][^\[\]\n]{0,30}?\s+\d+)*\s*\]"
    r"|(?<![\w*])\*\d+\b"
)

NEGATIONS = frozenset(
    "not no never nor cannot neither none nothing nobody nowhere dont doesnt didnt isnt wasnt arent werent "
    "cant couldnt wouldnt shouldnt wont hasnt havent hadnt mustnt neednt aint".split()
)
MAX_GAP = 80  # words an ellipsis may stand for
MAX_ALTERATION = 6  # words a standalone [alteration] may replace
MAX_CITATION_RUN = 30  # words "(cleaned up)" may drop at once
MIN_QUOTE_WORDS = 3  # shorter quotes (scare quotes, single terms) are not checked
MAX_STEPS = 60_000  # matcher steps per quote search (~0.3 s worst case); beyond that the quote is not checked


@dataclass(frozen=True, slots=True)
class Token:
    norm: str
    start: int
    end: int


@lru_cache(maxsize=65536)
def normalise_word(word: str) -> str:
    """Casefold, strip accents and apostrophes: ``Defendant’s`` → ``defendants``.

    >>> normalise_word("Defendant’s"), normalise_word("eithér")
    ('defendants', 'either')
    """
    word = unicodedata.normalize("NFKD", word)
    word = "".join(ch for ch in word if not unicodedata.combining(ch))
    return word.casefold().replace("'", "").replace("’", "")


def tokenize(text: str, offset: int = 0) -> list[Token]:
    return [
        Token(normalise_word(m.group()), offset + m.start(), offset + m.end()) for m in _TOKEN.finditer(text)
    ]


def _is_marker(norm: str) -> bool:
    return norm.isdigit() and len(norm) <= 3


class OpinionIndex:
    """Tokens of one opinion text and where each word occurs (built once per opinion).

    Stored as parallel lists (normalised word, start, end) rather than one object per token: a long
    opinion has tens of thousands of words and the editor keeps several indexes cached.
    """

    __slots__ = ("ends", "norms", "positions", "starts", "text")

    def __init__(self, text: str) -> None:
        self.text = text
        self.norms: list[str] = []
        self.starts: list[int] = []
        self.ends: list[int] = []
        self.positions: dict[str, list[int]] = {}
        skip = [(m.start(), m.end()) for m in _PAGE_MARKER.finditer(text)]
        k = 0
        i = 0
        for m in _TOKEN.finditer(text):
            while k < len(skip) and skip[k][1] <= m.start():
                k += 1
            if k < len(skip) and skip[k][0] <= m.start():
                continue  # inside an inline page marker: "[945 N.E.2d 489, 920 N.Y.S.2d 296]", "*1006"
            norm = normalise_word(m.group())
            self.norms.append(norm)
            self.starts.append(m.start())
            self.ends.append(m.end())
            self.positions.setdefault(norm, []).append(i)
            i += 1

    def __len__(self) -> int:
        return len(self.norms)


@lru_cache(maxsize=64)
def opinion_index(text: str) -> OpinionIndex:
    """The index of an opinion text, cached: the editor re-checks the same cases on every pause."""
    return OpinionIndex(text)


# ---- quote pattern -------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Word:
    alts: frozenset[str]  # acceptable normalised forms


@dataclass(frozen=True, slots=True)
class _Alteration:
    max_words: int


@dataclass(frozen=True, slots=True)
class _Gap:
    max_words: int


_Item = _Word | _Alteration | _Gap


def parse_quote(quote: str) -> list[_Item]:
    """The quote as a pattern of words, alterations and gaps (leading/trailing gaps dropped)."""
    items: list[_Item] = []
    segments = _ELLIPSIS.split(quote)
    for si, seg in enumerate(segments):
        if si > 0:
            items.append(_Gap(MAX_GAP))
        pos = 0
        for m in _BRACKET.finditer(seg):
            inner_word = (m.start() > 0 and seg[m.start() - 1].isalnum()) or (
                m.end() < len(seg) and seg[m.end()].isalnum()
            )
            if inner_word:
                continue
            items.extend(_words_of(seg[pos : m.start()]))
            n = len(tokenize(m.group(1)))
            items.append(_Alteration(max(MAX_ALTERATION, 2 * n)))
            pos = m.end()
        items.extend(_words_of(seg[pos:]))
    while items and not isinstance(items[0], _Word):
        items.pop(0)
    while items and not isinstance(items[-1], _Word):
        items.pop()
    return items


def _words_of(segment: str) -> list[_Word]:
    """Words of a segment; a word with an in-word [alteration] accepts both readings."""
    out = []
    for raw in re.findall(r"\S+", segment):
        if "[" in raw:
            with_inner = _BRACKET.sub(lambda m: m.group(1), raw)
            without = _BRACKET.sub("", raw)
            a, b = tokenize(with_inner), tokenize(without)
            if len(a) == 1 and len(b) <= 1:
                out.append(_Word(frozenset({a[0].norm} | ({b[0].norm} if b else set()))))
                continue
            out.extend(_Word(frozenset({t.norm})) for t in a)
            continue
        out.extend(_Word(frozenset({t.norm})) for t in tokenize(raw))
    return out


def quote_word_count(quote: str) -> int:
    return sum(1 for i in parse_quote(quote) if isinstance(i, _Word))


_CLOSING = re.compile(r"[.,;:!?]+$")


def exact_quote(draft: str, passage: str) -> str:
    """What a "quote it exactly" fix writes over the draft's quotation: the source's passage, keeping the
    punctuation the draft closes it with inside the marks (``…for damages."`` → ``…for redress."``), which
    is the sentence's, not the source's; without it the fix left the sentence with no full stop."""
    tail = _CLOSING.search(draft.rstrip())
    if tail is None or _CLOSING.search(passage.rstrip()):
        return passage
    return passage.rstrip() + tail.group()


# ---- exact (normalised) matching -----------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Located:
    start: int  # offsets into the opinion text
    end: int


def locate(quote: str, index: OpinionIndex, *, cleaned_up: bool = False) -> Located | None:
    """Where ``quote`` occurs in the opinion (first occurrence), or None (also when too complex to decide).

    >>> idx = OpinionIndex("The court held that the statute does not apply. It reversed.")
    >>> loc = locate("[T]he statute does not apply", idx)
    >>> idx.text[loc.start:loc.end]
    'the statute does not apply'
    >>> locate("the statute . . . apply", idx) is None  # the ellipsis would swallow "not"
    True
    """
    try:
        found = locate_all(quote, index, cleaned_up=cleaned_up, limit=1)
    except QuoteTooComplex:
        return None
    return found[0] if found else None


def locate_all(
    quote: str, index: OpinionIndex, *, cleaned_up: bool = False, limit: int = 10
) -> list[Located]:
    """Every occurrence of ``quote`` (an opinion may repeat a standard or a statute), in text order.

    Raises ``QuoteTooComplex`` when the search would take too long (then the quote is not checked).

    >>> idx = OpinionIndex("Time is of the essence. Later: time is of the essence.")
    >>> [idx.text[x.start:x.end] for x in locate_all("time is of the essence", idx)]
    ['Time is of the essence', 'time is of the essence']
    """
    items = parse_quote(quote)
    if not any(isinstance(i, _Word) for i in items):
        return []
    toks = index.norms
    first = items[0]
    assert isinstance(first, _Word)
    starts: set[int] = set()
    for alt in first.alts:
        starts.update(index.positions.get(alt, ()))
    second = items[1] if len(items) > 1 else None
    out: list[Located] = []
    after = -1
    budget = _Budget()
    for s in sorted(starts):
        if s < after:
            continue  # inside the previous occurrence
        if isinstance(second, _Word) and s + 1 < len(toks) and not _may_continue(toks, s + 1, second):
            continue  # cheap rejection of the many starts at a common first word
        end = _Matcher(items, toks, cleaned_up, budget=budget, positions=index.positions).match(0, s)
        if end is not None:
            out.append(Located(index.starts[s], index.ends[end - 1]))
            after = end
            if len(out) >= limit:
                break
    return out


def _may_continue(toks: list[str], t: int, item: _Word) -> bool:
    """Could the opinion token at ``t`` begin matching ``item`` (exactly, as a marker or a compound)?"""
    norm = toks[t]
    if norm in item.alts or _is_marker(norm) or _is_marker_item(item):
        return True
    if t + 1 < len(toks) and norm + toks[t + 1] in item.alts:
        return True
    return any(norm.startswith(a) for a in item.alts)


def negation_blocked(quote: str, index: OpinionIndex, *, cleaned_up: bool = False) -> str | None:
    """The negation an ellipsis would have had to swallow for the quote to match, if that is the only obstacle."""
    items = parse_quote(quote)
    if not any(isinstance(i, _Gap) for i in items):
        return None
    first = items[0]
    assert isinstance(first, _Word)
    toks = index.norms
    budget = _Budget()
    try:
        for alt in first.alts:
            for s in index.positions.get(alt, ()):
                m = _Matcher(
                    items, toks, cleaned_up, allow_negation=True, budget=budget, positions=index.positions
                )
                end = m.match(0, s)
                if end is not None and m.swallowed:
                    return m.swallowed
    except QuoteTooComplex:
        return None
    return None


class QuoteTooComplex(Exception):
    """The quote's pattern (many ellipses between common words) would take too long to decide."""


class _Budget:
    """Steps one search may take over all its start positions; past it the answer is "undecided"."""

    __slots__ = ("left",)

    def __init__(self, steps: int = MAX_STEPS) -> None:
        self.left = steps


class _Matcher:
    """Backtracking match of the quote pattern against opinion tokens from a start position."""

    def __init__(
        self,
        items: list[_Item],
        toks: list[str],
        cleaned_up: bool,
        allow_negation: bool = False,
        budget: _Budget | None = None,
        positions: dict[str, list[int]] | None = None,
    ):
        self.items = items
        self.positions = positions
        self.toks = toks
        self.cleaned_up = cleaned_up
        self.allow_negation = allow_negation
        self.swallowed: str | None = None
        self.memo: dict[tuple[int, int], int | None] = {}
        self.budget = budget or _Budget()

    def match(self, i: int, t: int) -> int | None:
        key = (i, t)
        if key in self.memo:
            return self.memo[key]
        self.budget.left -= 1
        if self.budget.left < 0:
            raise QuoteTooComplex
        result = self._match(i, t)
        self.memo[key] = result
        return result

    def _gap_ends(self, nxt: int, t: int, limit: int) -> Iterable[int]:
        """Where a gap starting at ``t`` may end: only before an occurrence of the next quoted word
        (found through the index) when there is one, else at every position."""
        item = self.items[nxt] if nxt < len(self.items) else None
        if self.positions is None or not isinstance(item, _Word) or _is_marker_item(item):
            return range(t, limit + 1)
        ends: set[int] = set()
        for alt in item.alts:
            occ = self.positions.get(alt, ())
            lo = bisect.bisect_left(occ, t)
            hi = bisect.bisect_right(occ, limit)
            ends.update(occ[lo:hi])
            # the next word may also be the head of a compound, or follow a footnote marker
            ends.update(k for k in range(t, min(limit, t + 1) + 1))
        return sorted(ends)

    def _match(self, i: int, t: int) -> int | None:
        # the word cases stay here, not in a method of their own: each level of a match is a frame of
        # ``match`` and one of this, and a long quotation goes hundreds of levels deep (the recursion limit)
        items, toks = self.items, self.toks
        if i == len(items):
            return t
        item = items[i]
        n = len(toks)
        if isinstance(item, _Gap | _Alteration):
            return self._gap(i, t, item)
        if t >= n:
            # the quote may end with a footnote marker the opinion does not repeat
            return t if _is_marker_item(item) and i == len(items) - 1 else None
        tok = toks[t]
        if tok in item.alts:
            r = self.match(i + 1, t + 1)
            if r is not None:
                return r
        # compounds: opinion "carveouts" vs draft "carve outs", or the reverse
        nxt = items[i + 1] if i + 1 < len(items) else None
        if isinstance(nxt, _Word) and any(tok == a + b for a in item.alts for b in nxt.alts):
            r = self.match(i + 2, t + 1)
            if r is not None:
                return r
        if t + 1 < n and toks[t] + toks[t + 1] in item.alts:
            r = self.match(i + 1, t + 2)
            if r is not None:
                return r
        if i > 0 and _is_marker(tok) and not _is_marker_item(item):
            r = self.match(i, t + 1)  # footnote marker in the opinion
            if r is not None:
                return r
        if _is_marker_item(item) and i > 0:
            r = self.match(i + 1, t)  # footnote marker in the draft
            if r is not None:
                return r
        return self._cited_run(i, t) if self.cleaned_up and i > 0 else None

    def _gap(self, i: int, t: int, item: _Gap | _Alteration) -> int | None:
        """An ellipsis (or an alteration) at item ``i``: the rest matched after each place it may end; an
        ellipsis may not leave out a negation (unless allowed, when the first one it swallows is kept)."""
        toks = self.toks
        limit = min(len(toks), t + item.max_words)
        scanned = t  # tokens t..scanned-1 have been checked for a negation
        for k in self._gap_ends(i + 1, t, limit):
            if isinstance(item, _Gap):
                while scanned < k:
                    if toks[scanned] in NEGATIONS:
                        if not self.allow_negation:
                            return None
                        self.swallowed = self.swallowed or toks[scanned]
                    scanned += 1
            r = self.match(i + 1, k)
            if r is not None:
                return r
        return None

    def _cited_run(self, i: int, t: int) -> int | None:
        """(cleaned up) A citation the quotation left out, in the opinion before item ``i``: a short run
        of tokens holding a number, "v", "id" or "see", and no negation."""
        toks = self.toks
        limit = min(len(toks), t + MAX_CITATION_RUN)
        for k in range(t + 1, limit + 1):
            run = toks[t:k]
            if any(x in NEGATIONS for x in run):
                break
            if any(x.isdigit() or x in ("v", "id", "see") for x in run):
                r = self.match(i, k)
                if r is not None:
                    return r
        return None


def _is_marker_item(item: _Item) -> bool:
    return isinstance(item, _Word) and all(_is_marker(a) for a in item.alts)


# ---- closest passage and diff --------------------------------------------------------------------


@dataclass(frozen=True, slots=True, kw_only=True)
class Closest:
    start: int
    end: int
    score: float  # share of the quote's words found in order in the passage
    diff: str  # human readable, word level
    changes: tuple[tuple[str, str], ...] = ()  # (opinion words, draft words) per change


def closest_passage(quote: str, index: OpinionIndex, *, min_score: float = 0.5) -> Closest | None:
    """The opinion passage the quote most resembles, with a word diff; None when nothing is close.

    >>> idx = OpinionIndex("Courts must read carve-outs from the statute narrowly and with care.")
    >>> c = closest_passage("Courts must read exclusions from the statute narrowly", idx)
    >>> c.diff
    'the opinion says “carve-outs”, the draft says “exclusions”'
    """
    qtext = _BRACKET.sub(lambda m: m.group(1), _ELLIPSIS.sub(" ", quote))
    qtoks = tokenize(qtext)
    n = len(qtoks)
    toks = index.norms
    if n == 0 or not toks:
        return None
    best_start = _likeliest_start(qtoks, index)
    if best_start is None:
        return None
    lo = max(0, best_start - 5)
    hi = min(len(toks), best_start + n + 8)
    window = toks[lo:hi]
    sm = SequenceMatcher(a=window, b=[t.norm for t in qtoks], autojunk=False)
    blocks = _without_strays([b for b in sm.get_matching_blocks() if b.size])
    if not blocks:
        return None
    matched = sum(b.size for b in blocks)
    score = matched / n
    if score < min_score:
        return None
    a0 = blocks[0].a
    a1 = blocks[-1].a + blocks[-1].size
    b0 = blocks[0].b
    b1 = blocks[-1].b + blocks[-1].size
    sm2 = SequenceMatcher(a=window[a0:a1], b=[t.norm for t in qtoks[b0:b1]], autojunk=False)
    changes = []
    for op, i1, i2, j1, j2 in sm2.get_opcodes():
        if op == "equal":
            continue
        op_text = index.text[index.starts[lo + a0 + i1] : index.ends[lo + a0 + i2 - 1]] if i2 > i1 else ""
        dr_text = qtext[qtoks[b0 + j1].start : qtoks[b0 + j2 - 1].end] if j2 > j1 else ""
        changes.append((op_text, dr_text))
    # unaligned words at either end of the quote: replacements of the opinion words beside the
    # aligned part (a changed first or last word), else additions
    if b0 > 0:
        k = min(b0, lo + a0)
        op_text = index.text[index.starts[lo + a0 - k] : index.ends[lo + a0 - 1]] if k else ""
        changes.insert(0, (op_text, qtext[qtoks[0].start : qtoks[b0 - 1].end]))
        a0 -= k
    if b1 < n:
        k = min(n - b1, len(toks) - (lo + a1))
        op_text = index.text[index.starts[lo + a1] : index.ends[lo + a1 + k - 1]] if k else ""
        changes.append((op_text, qtext[qtoks[b1].start : qtoks[n - 1].end]))
        a1 += k
    return Closest(
        start=index.starts[lo + a0],
        end=index.ends[lo + a1 - 1],
        score=score,
        diff=describe_changes(changes),
        changes=tuple(changes),
    )


def _likeliest_start(qtoks: list[Token], index: OpinionIndex) -> int | None:
    """Where in the opinion's words the quote most likely starts: each quote word votes for the starts its
    occurrences imply (a word found more than 400 times votes for none), smoothed over three words either side."""
    votes: Counter[int] = Counter()
    for j, qt in enumerate(qtoks):
        occ = index.positions.get(qt.norm, ())
        if len(occ) > 400:
            continue
        for i in occ:
            votes[i - j] += 1
    if not votes:
        return None
    smoothed: Counter[int] = Counter()
    for s, v in votes.items():
        for d in range(-3, 4):
            smoothed[s + d] += v
    return smoothed.most_common(1)[0][0]


def _without_strays(blocks: list[Match]) -> list[Match]:
    """A stray short match far from the rest ("the" a few words earlier) is not part of the passage."""
    while (
        len(blocks) > 1
        and blocks[0].size < 3
        and (blocks[1].a - (blocks[0].a + blocks[0].size) > blocks[1].b - (blocks[0].b + blocks[0].size) + 1)
    ):
        blocks.pop(0)
    while (
        len(blocks) > 1
        and blocks[-1].size < 3
        and (
            blocks[-1].a - (blocks[-2].a + blocks[-2].size)
            > blocks[-1].b - (blocks[-2].b + blocks[-2].size) + 1
        )
    ):
        blocks.pop()
    return blocks


def describe_changes(changes: list[tuple[str, str]] | tuple[tuple[str, str], ...]) -> str:
    parts = []
    for op, dr in changes[:6]:
        if op and dr:
            parts.append(f"the opinion says “{op}”, the draft says “{dr}”")
        elif op:
            parts.append(f"the draft leaves out “{op}” without an ellipsis")
        elif dr:
            parts.append(f"the draft adds “{dr}”")
    if len(changes) > 6:
        parts.append(f"and {len(changes) - 6} more differences")
    return "; ".join(parts) if parts else "the words match but not in a form we could align"
