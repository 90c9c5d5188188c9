"""Case names as keys: normalisation, party splitting and a similarity score; pure (no I/O).

One place knows how case names are written, so that the name checks (``checks/name_match.py``), the
national index's name search (``sources/index/``) and the corrections work agree on what "the same
name" means:

- Bluebook T6 / reporters-db ``CASE_NAME_ABBREVIATIONS`` (plus a few common ones of our own) are
  folded **both ways**: ``Int'l``, ``Intl`` and ``International`` give the same key, and so do
  ``Elec.``, ``Electric`` and ``Electrical`` (every full form of an abbreviation maps to it).
- A caption is split into parties at ``v.`` / ``vs.``; consolidated captions at ``;``; a parenthetical
  alternative name (``People v. A.V. (In re A.V.)``) is a variant of its own. ``In re``, ``Ex parte``,
  ``ex rel.``, ``et al.``, a leading ``The``, articles and corporate suffixes carry no identity.
- :func:`name_score` compares party by party, in either order, and lets either side be shortened
  (``Avianca`` for ``Mata v. Avianca, Inc.``; CourtListener's short name ``Dyous`` for ``State v. Dyous``).
  Words every government caption has (``State``, ``People``, ``United States``) weigh little, so
  ``State v. Vela`` is far from ``State v. Dyous``.

The word-level helpers (:func:`words`, :func:`unmatched`, :func:`split_parties`, ...) are what
``checks/name_match.py`` builds its MATCH / MISSPELLED / MISMATCH verdicts on.

>>> normalise_name("Int'l Bhd. of Elec. Workers v. NLRB")
'intl bhd elec workers v nlrb'
>>> normalise_name("International Brotherhood of Electrical Workers v. N.L.R.B.") == _
True
>>> parties("United States ex rel. Smith v. Jones Co.; Doe v. Roe")
('United States ex rel. Smith', 'Jones Co.', 'Doe', 'Roe')
>>> round(name_score("Plyer v. Doe", ["Plyler v. Doe"]), 2), name_score("Boone v. Vinson", ["Cinel v. Connick"])
(0.9, 0.0)
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache

import reporters_db
from rapidfuzz.distance import DamerauLevenshtein

#: Bump when the keys change: an index built with other keys must be rebuilt, not searched.
NAME_KEYS_VERSION = 1

#: Abbreviations reporters-db's T6 table lacks (or expands to several words).
EXTRA_ABBREVIATIONS: dict[str, tuple[str, ...]] = {
    "us": ("united", "states"),
    "usa": ("united", "states"),
    "dist": ("district",),
    "dept": ("department",),
    "engrs": ("engineers",),
    "eng": ("engineering",),
    "st": ("street",),
    "mt": ("mount",),
    "ft": ("fort",),
    "govt": ("government",),
    "atty": ("attorney",),
    "attys": ("attorneys",),
    "commn": ("commission",),
    "commr": ("commissioner",),
    "assn": ("association",),
    "natl": ("national",),
    "intl": ("international",),
    "dc": ("district", "columbia"),
    "pr": ("puerto", "rico"),
    "co": ("company",),
    "corp": ("corporation",),
    "inc": ("incorporated",),
    "llc": ("llc",),
    "md": ("maryland",),
    "cnty": ("county",),
    "univ": ("university",),
    "bd": ("board",),
    "fin": ("financial",),
    "mgmt": ("management",),
}

#: Bluebook T10 state abbreviations, word by word ("W. Va." is "W." West and "Va." Virginia).
STATES: dict[str, tuple[str, ...]] = {
    "ala": ("alabama",),
    "ariz": ("arizona",),
    "ark": ("arkansas",),
    "cal": ("california",),
    "calif": ("california",),
    "colo": ("colorado",),
    "conn": ("connecticut",),
    "del": ("delaware",),
    "fla": ("florida",),
    "ga": ("georgia",),
    "haw": ("hawaii",),
    "ill": ("illinois",),
    "ind": ("indiana",),
    "kan": ("kansas",),
    "ky": ("kentucky",),
    "la": ("louisiana",),
    "mass": ("massachusetts",),
    "mich": ("michigan",),
    "minn": ("minnesota",),
    "miss": ("mississippi",),
    "mo": ("missouri",),
    "mont": ("montana",),
    "neb": ("nebraska",),
    "nev": ("nevada",),
    "nh": ("new", "hampshire"),
    "nj": ("new", "jersey"),
    "nm": ("new", "mexico"),
    "ny": ("new", "york"),
    "nc": ("north", "carolina"),
    "nd": ("north", "dakota"),
    "okla": ("oklahoma",),
    "ore": ("oregon",),
    "ri": ("rhode", "island"),
    "sc": ("south", "carolina"),
    "sd": ("south", "dakota"),
    "tenn": ("tennessee",),
    "tex": ("texas",),
    "vt": ("vermont",),
    "va": ("virginia",),
    "wash": ("washington",),
    "wis": ("wisconsin",),
    "wyo": ("wyoming",),
}

#: Words that carry no identity: articles, procedural prefixes, corporate suffixes, et al.
IGNORED = frozenset(
    "the of a an and for in re ex rel parte matter et al ux vir incorporated company corporation llc ltd "
    "lp llp plc pc pa na limited".split()
)
#: Words that many captions share (governments, offices): a match on them alone says little.
GENERIC = frozenset(
    "state states united people commonwealth america american government city county town township "
    "village borough district columbia department board commission commissioner secretary director "
    "attorney general court superior municipal public school authority national federal estate trust "
    "bank insurance association university hospital services service international bhd intl dept bd".split()
)
_GENERIC_WEIGHT = 0.25
_UNKNOWN_PARTY = 0.5  # what a party the other name does not state contributes (shortened captions)

_SIGNALS = re.compile(
    r"^\s*(?:see\s+also|see,?\s+e\.g\.,?|see|cf\.|but\s+see|but\s+cf\.|accord|compare|contra|e\.g\.,?|quoting|citing)\s+",
    re.I,
)
_V_SPLIT = re.compile(r"\s+(?:v|vs|versus)\.?\s+", re.I)
_PAREN = re.compile(r"\(([^()]*)\)")
_WORD = re.compile(r"[^\W_]+(?:['’.][^\W_]+)*\.?", re.UNICODE)
_LEADING_THE = re.compile(r"^\s*the\s+", re.I)
_FOLD_DROP = re.compile(r"['’.]")


@dataclass(frozen=True, slots=True)
class Word:
    """One word of a party as written, with its canonical tokens."""

    text: str  # as written (a trailing period dropped)
    start: int  # offsets into the string the word was read from (plus the offset given)
    end: int
    canon: tuple[str, ...]  # canonical tokens (possibly several: "U.S." → united, states)
    abbreviated: bool = False  # written "Res." or "Dep't": may stand for any word it abbreviates
    folded: str = ""  # as written, folded ("res", "dept")


def fold(s: str) -> str:
    """Case-folded, accents and apostrophes/periods removed.

    >>> fold("Dep’t"), fold("Hawai'i"), fold("Peña")
    ('dept', 'hawaii', 'pena')
    """
    if not s.isascii():  # ASCII has no decompositions and no combining marks
        s = unicodedata.normalize("NFKD", s)
        s = "".join(ch for ch in s if not unicodedata.combining(ch))
    return _FOLD_DROP.sub("", s.casefold()).strip()


@cache
def abbreviations() -> dict[str, tuple[str, ...]]:
    """Folded abbreviation → the words of its (first) full form: ``"bhd"`` → ``("brotherhood",)``."""
    table: dict[str, tuple[str, ...]] = {}
    for abbr, fulls in reporters_db.CASE_NAME_ABBREVIATIONS.items():
        key = fold(abbr)
        if key and fulls:
            table[key] = tuple(fold(fulls[0]).split())
    for key, full in STATES.items():
        table.setdefault(key, full)
    table.update(EXTRA_ABBREVIATIONS)
    return table


@cache
def _full_to_key() -> dict[str, str]:
    """Every full form of a one-word abbreviation → the abbreviation's folded key (both ways)."""
    out: dict[str, str] = {}
    for abbr, fulls in reporters_db.CASE_NAME_ABBREVIATIONS.items():
        key = fold(abbr)
        if not key or not key.isalnum():
            continue
        for full in fulls:
            f = fold(full)
            if f and " " not in f:
                out.setdefault(f, key)
    for table in (EXTRA_ABBREVIATIONS, STATES):
        for key, full in table.items():
            if len(full) == 1 and full[0] != key:
                out.setdefault(full[0], key)
    return out


def words(party: str, offset: int = 0) -> list[Word]:
    """The words of one party with canonical tokens (abbreviations expanded to their full form)."""
    out = []
    abbr = abbreviations()
    for m in _WORD.finditer(party):
        folded = fold(m.group())
        if not folded:
            continue
        raw = m.group()
        canon = abbr.get(folded)
        if canon is None and len(folded) > 2 and folded.endswith("s") and ("'" in raw or "’" in raw):
            # T6 plurals add an "s" to the abbreviation: "Emp'rs" is Employers
            singular = abbr.get(folded[:-1])
            canon = (*singular[:-1], singular[-1] + "s") if singular else None
        canon = canon or (folded,)
        shortened = (raw.endswith(".") or "'" in raw or "’" in raw) and len(canon) == 1
        word = raw.rstrip(".")
        out.append(Word(word, offset + m.start(), offset + m.start() + len(word), canon, shortened, folded))
    return out


def abbreviates(short: str, full: str) -> bool:
    """``res`` → resources, ``dept`` → department: same first letter, letters in order.

    >>> abbreviates("dept", "department"), abbreviates("elec", "electrical"), abbreviates("vela", "dyous")
    (True, True, False)
    """
    if len(short) < 2 or len(short) >= len(full) or short[0] != full[0]:
        return False
    it = iter(full)
    return all(ch in it for ch in short)


def content(ws: Iterable[Word]) -> set[str]:
    """The canonical tokens of ``ws`` that carry identity."""
    return {t for w in ws for t in w.canon if t not in IGNORED}


def unmatched(ws: list[Word], other: list[Word]) -> list[Word]:
    """Words of ``ws`` whose identity is not in ``other`` (abbreviations allowed both ways)."""
    tokens = content(other)
    shortened = [x for w in other if w.abbreviated for x in (w.folded, *w.canon)]
    out = []
    for w in ws:
        missing = [t for t in w.canon if t not in IGNORED and t not in tokens]
        if not missing:
            continue
        if all(
            (
                w.abbreviated
                and any(abbreviates(a, r) or r.startswith(a) for a in (w.folded, t) for r in tokens)
            )
            or any(abbreviates(s, t) or t.startswith(s) for s in shortened)
            for t in missing
        ):
            continue
        out.append(w)
    return out


def clean_draft_name(name: str) -> str:
    """Strip a leading signal ("See", "But see", "quoting") and trailing commas.

    >>> clean_draft_name("See, e.g., Roe v. Wade,")
    'Roe v. Wade'
    """
    prev = None
    while prev != name:
        prev = name
        name = _SIGNALS.sub("", name)
    return name.strip().strip(",").strip()


def split_parties(name: str) -> list[tuple[str, int]]:
    """``[(party text, offset)]`` split on `` v. `` (offsets into ``name``)."""
    parts, pos = [], 0
    for m in _V_SPLIT.finditer(name):
        parts.append((name[pos : m.start()], pos))
        pos = m.end()
    parts.append((name[pos:], pos))
    return parts


_CAPTION_V = re.compile(r"\sv(?:s)?\.?\s", re.IGNORECASE)


def name_variants(record_names: Sequence[str]) -> list[str]:
    """Record names plus any parenthetical alternative ("X v. Y (In re Z)" → "In re Z") and each caption
    of a consolidated one ("A, Appellant, v. B, Appellee; A, Petitioner, v. C" → each of the two: the
    draft names the case when it names either, issue 32).

    >>> name_variants(["Mark James ASAY, Appellant, v. STATE of Florida; Mark James Asay v. Julie L. Jones"])[1:]
    ['Mark James ASAY, Appellant, v. STATE of Florida', 'Mark James Asay v. Julie L. Jones']
    """
    out: list[str] = []
    for n in record_names:
        if not n:
            continue
        whole = _PAREN.sub(" ", n)
        out.append(whole)
        out.extend(m.group(1) for m in _PAREN.finditer(n) if len(m.group(1)) > 6)
        if ";" in whole:
            parts = [p.strip() for p in whole.split(";")]
            captions = [p for p in parts if _CAPTION_V.search(p)]
            if len(captions) > 1:
                out.extend(captions)
    return list(dict.fromkeys(out))


def is_typo(a: str, b: str) -> bool:
    """One slip of the keyboard (two for long words), never for short initials.

    >>> is_typo("plyer", "plyler"), is_typo("jw", "av"), is_typo("vela", "dyous")
    (True, False, False)
    """
    if a == b or min(len(a), len(b)) < 3 or (a[0] != b[0] and len(a) < 4):
        return False
    d = DamerauLevenshtein.distance(a, b)
    return d == 1 or (d == 2 and min(len(a), len(b)) >= 7)


# --- keys for search -------------------------------------------------------------------------------


def _key(token: str) -> str:
    table = _full_to_key()
    key = table.get(token)
    if key is None and len(token) > 3 and token.endswith("s") and token[:-1] in table:
        return table[token[:-1]] + "s"  # "employers" → "emprs", as "Emp'rs" is written
    return key or token


@lru_cache(maxsize=1 << 16)
def _captions(name: str) -> tuple[str, ...]:
    """A name's captions: parenthetical alternatives and consolidated captions (``;``) apart."""
    out: list[str] = []
    for variant in name_variants([name]):
        out.extend(c for c in variant.split(";") if c.strip())
    return tuple(dict.fromkeys(out))


def _party_keys(party: str) -> tuple[str, ...]:
    # word by word (``_party_word_keys``): a word's keys depend on its own letters alone, as ``words`` reads
    # each match of ``_WORD`` by itself, and the name search's candidates share most of their words
    party = _LEADING_THE.sub("", party)
    keys = [k for m in _WORD.finditer(party) for k in _party_word_keys(m.group())]
    return tuple(dict.fromkeys(keys))


@lru_cache(maxsize=1 << 18)
def _party_word_keys(raw: str) -> tuple[str, ...]:
    """The keys one word as written gives a party (``words``; unlike ``_word_keys``, ``v`` too)."""
    return tuple(_key(t) for w in words(raw) for t in w.canon if t not in IGNORED)


@lru_cache(maxsize=1 << 16)
def _caption_keys(caption: str) -> tuple[tuple[str, ...], ...]:
    return tuple(k for k in (_party_keys(p) for p, _ in split_parties(caption.strip())) if k)


def parties(name: str) -> tuple[str, ...]:
    """The parties of a caption as written, every consolidated caption's in turn.

    >>> parties("The Hertz Corp. v. Friend")
    ('Hertz Corp.', 'Friend')
    >>> parties("In re Fin. Oversight & Mgmt. Bd. for P.R.")
    ('In re Fin. Oversight & Mgmt. Bd. for P.R.',)
    """
    out: list[str] = []
    for caption in name.split(";"):
        for party, _ in split_parties(caption.strip()):
            p = _LEADING_THE.sub("", party).strip().strip(",").strip()
            if p:
                out.append(p)
    return tuple(out)


@lru_cache(maxsize=1 << 18)
def _word_keys(raw: str) -> tuple[str, ...]:
    """The search keys of one word as written (cached: names share most of their words)."""
    ws = words(raw)
    return tuple(_key(t) for w in ws for t in w.canon if t not in IGNORED and t not in _SEPARATORS)


_SEPARATORS = frozenset({"v", "vs", "versus"})


def name_tokens(name: str) -> tuple[str, ...]:
    """The search keys of every word that carries identity, in order, each once.

    Abbreviations and their full forms give the same key; ``In re``, ``et al.``, ``v.``, articles
    and corporate suffixes give none. Every caption and party of the name counts (a bag of keys:
    what the index stores and the name search asks for).

    >>> name_tokens("Dep't of Human Res. v. Johnson"), name_tokens("Department of Human Resources v. Johnson")
    (('dept', 'human', 'res', 'johnson'), ('dept', 'human', 'res', 'johnson'))
    >>> name_tokens("In re Smith, et al.")
    ('smith',)
    """
    keys: dict[str, None] = {}
    for m in _WORD.finditer(clean_draft_name(name)):
        for k in _word_keys(m.group()):
            keys[k] = None
    return tuple(keys)


def normalise_name(name: str) -> str:
    """One canonical string per name: parties' keys joined by ``v``, captions by ``;``.

    >>> normalise_name("The People v. A.V. (In re A.V.)")
    'people v av; av'
    >>> normalise_name("West v. U.S.") == normalise_name("West vs. United States")
    True
    """
    captions = [_caption_keys(c) for c in _captions(clean_draft_name(name))]
    return "; ".join(" v ".join(" ".join(p) for p in c) for c in captions if c)


def deletions(key: str) -> tuple[str, ...]:
    """``key`` with each of its letters dropped in turn, each once: a word's deletion neighbourhood.

    Two words one slip apart (a letter dropped, added or changed, two swapped) share a key of this
    neighbourhood or one is a key of the other's, which is how the index's name search finds a word
    typed wrong without comparing it with every word it holds.

    >>> deletions("smith")
    ('mith', 'sith', 'smth', 'smih', 'smit')
    >>> sorted(set(deletions("smiht")) & set(deletions("smith")))
    ['smih', 'smit']
    """
    return tuple(dict.fromkeys(key[:i] + key[i + 1 :] for i in range(len(key))))


def one_slip(a: str, b: str) -> bool:
    """Whether ``b`` is ``a`` with one letter dropped, added or changed, or two neighbours swapped.

    >>> one_slip("miranda", "mirnda"), one_slip("chevron", "chevorn"), one_slip("chevron", "chevron")
    (True, True, False)
    """
    return a != b and DamerauLevenshtein.distance(a, b) == 1


# --- scoring ---------------------------------------------------------------------------------------


def _weight(key: str) -> float:
    return _GENERIC_WEIGHT if key in GENERIC or len(key) == 1 else 1.0


#: Words a known abbreviation also stands for, beyond the full forms folded into its key (scoring only:
#: the search keys stay as they are): "St." is Saint or State as often as Street.
_ALSO_STANDS_FOR: dict[str, tuple[str, ...]] = {"st": ("saint", "state"), "mt": ("mountain",)}


@cache
def _stands_for() -> dict[str, frozenset[str]]:
    """Known abbreviation key → the keys of the words it stands for (``"sec"`` → security, securities).

    A known abbreviation stands for those words only: "St." (Street) is no abbreviation of "Smithers",
    "Md." (Maryland) none of "McDonald", "Ins." (Insurance) none of "Institute", although their letters
    come in order."""
    out: dict[str, set[str]] = {key: set() for key in abbreviations()}
    for full, key in _full_to_key().items():
        out.setdefault(key, set()).add(full)
    for key, fulls in _ALSO_STANDS_FOR.items():
        out.setdefault(key, set()).update(fulls)
    return {k: frozenset(v) for k, v in out.items()}


@lru_cache(maxsize=1 << 16)
def _token_match(a: str, b: str) -> float:
    """1 for the same key, one shortened to the other, 0.8 for a typo, else 0."""
    if a == b:
        return 1.0
    if a[:1] != b[:1] and abs(len(a) - len(b)) > 1:
        return 0.0  # neither an abbreviation (same first letter) nor one slip of the keyboard
    short, full = (a, b) if len(a) < len(b) else (b, a)
    known = _stands_for().get(short)
    if known is not None:
        if full in known:
            return 1.0
    elif len(short) >= 2 and 4 * len(short) <= 3 * len(full) and abbreviates(short, full):
        return 1.0  # "Hagner" is no abbreviation of "Hagnerr"; "Constr" is one of "Construction"
    if min(len(a), len(b)) >= 4 and is_typo(a, b):
        return 0.8
    return 0.0


def _containment(inner: Sequence[str], outer: Sequence[str]) -> float:
    """How much of ``inner`` (weighted by word) is found in ``outer``.

    The name search scores a few hundred candidates per query with this (issue 40): ``_weight`` is
    written out and the best match of a word stops at a whole one; the same sums in the same order."""
    total = got = 0.0
    for k in inner:
        weight = _GENERIC_WEIGHT if k in GENERIC or len(k) == 1 else 1.0
        total += weight
        if k in outer:
            got += weight
            continue
        best = 0.0
        for o in outer:
            match = _token_match(k, o)
            if match > best:
                best = match
                if best >= 1.0:
                    break
        got += weight * best
    return got / total if total else 0.0


# cached, as ``_party_weight``: a name search's candidates share parties ("United States" in thousands of
# captions), each scored against the same draft parties (issue 40)
@lru_cache(maxsize=1 << 16)
def _party_score(a: tuple[str, ...], b: tuple[str, ...]) -> float:
    # either side may be the shortened one: "Avianca" for "Avianca Inc. et al."
    return max(_containment(a, b), _containment(b, a))


@lru_cache(maxsize=1 << 16)
def _party_weight(keys: tuple[str, ...]) -> float:
    return max((_weight(k) for k in keys), default=0.0)


def _caption_score(draft: Sequence[tuple[str, ...]], cand: Sequence[tuple[str, ...]]) -> float:
    if not draft or not cand:
        return 0.0
    if len(draft) == 1 or len(cand) == 1:
        one, other = (draft, cand) if len(draft) == 1 else (cand, draft)
        whole = [k for p in other for k in p]
        score = _containment(one[0], whole)
        if len(other) == 1:
            return max(score, _containment(whole, one[0]))
        # a one-party name against a two-party caption: the parties it does not state are unknown
        hit = max(other, key=lambda p: _containment(one[0], p))
        rest = [p for p in other if p is not hit]
        w_hit = _party_weight(hit) or 1.0
        w_rest = sum(_party_weight(p) for p in rest)
        if len(draft) == 1:  # the draft shortened the caption to one party: that is how briefs cite
            return score
        return (w_hit * score + w_rest * _UNKNOWN_PARTY) / (w_hit + w_rest)
    d1, d2, c1, c2 = draft[0], draft[-1], cand[0], cand[-1]
    best = 0.0
    for x1, x2 in ((c1, c2), (c2, c1)):
        s1, s2 = _party_score(d1, x1), _party_score(d2, x2)
        w1 = max(_party_weight(d1), _party_weight(x1))
        w2 = max(_party_weight(d2), _party_weight(x2))
        best = max(best, (w1 * s1 + w2 * s2) / (w1 + w2))
    return best


class NameScorer:
    """``name_score`` for one draft name against many candidates: the draft is read once.

    >>> score = NameScorer("Doe v. Plyler")
    >>> score(["Plyler v. Doe"]), score(["Roe v. Wade"])
    (1.0, 0.0)
    """

    __slots__ = ("_scored", "drafts")

    def __init__(self, draft_name: str) -> None:
        self.drafts = [_caption_keys(c) for c in _captions(clean_draft_name(draft_name))]
        # caption keys → their best score against the drafts: a name search's candidates share
        # captions ("State v. Smith" many times over): half of the captions it scores (issue 40)
        self._scored: dict[tuple[tuple[str, ...], ...], float] = {}

    def __call__(self, candidate_names: Sequence[str]) -> float:
        best = 0.0
        scored = self._scored
        for cand in candidate_names:
            if not cand:
                continue
            for caption in _captions(cand):
                keys = _caption_keys(caption)
                score = scored.get(keys)
                if score is None:
                    score = 0.0
                    for d in self.drafts:
                        score = max(score, _caption_score(d, keys))
                        if score >= 1.0:
                            break
                    scored[keys] = score
                best = max(best, score)
                if best >= 1.0:
                    return 1.0
        return round(best, 6)


def name_score(draft_name: str, candidate_names: Sequence[str]) -> float:
    """How well ``draft_name`` names a case known by ``candidate_names`` (its name, short and full
    names): 1.0 the same case as briefs write it, 0.0 nothing in common.

    Party by party, in either order; either side may be shortened; government words weigh little.
    Scoring many candidates against one draft: ``NameScorer``.

    >>> name_score("Avianca", ["Mata v. Avianca, Inc."]), name_score("Doe v. Plyler", ["Plyler v. Doe"])
    (1.0, 1.0)
    >>> name_score("State v. Vela", ["State v. Dyous"]) < 0.25 < name_score("State v. Dyous", ["Dyous"])
    True
    >>> name_score("Att'y Grievance Comm'n of Md. v. Zhang", ["Attorney Grievance Commission of Maryland v. Zhang"])
    1.0
    """
    return NameScorer(draft_name)(candidate_names)
