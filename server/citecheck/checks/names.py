"""Case-name comparison that knows Bluebook abbreviations, party order, et al. and short names; pure.

``compare_names(draft, record_names)`` answers MATCH, MISSPELLED (with the corrected words) or
MISMATCH. Both sides are reduced to canonical word sets per party (``Ass'n`` → ``association``,
``U.S.`` → ``united states``), so "Int'l Bhd. of Elec. Workers" and "International Brotherhood of
Electrical Workers" compare equal, and a short name ("Avianca") matches its full form.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from functools import cache

import reporters_db
from rapidfuzz.distance import DamerauLevenshtein

_EXTRA_ABBREVIATIONS: dict[str, tuple[str, ...]] = {
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

#: Words that carry no identity: articles, procedural prefixes, corporate suffixes, et al.
_IGNORED = frozenset(
    "the of a an and for in re ex rel parte matter et al ux vir incorporated company corporation llc ltd "
    "lp llp plc pc pa na limited".split()
)
_SIGNALS = re.compile(
    r"^\s*(?:see\s+also|see,?\s+e\.g\.,?|see|cf\.|but\s+see|but\s+cf\.|accord|compare|contra|e\.g\.,?|quoting|citing)\s+",
    re.I,
)
_V_SPLIT = re.compile(r"\s+(?:v|vs)\.?\s+", re.I)
_PAREN = re.compile(r"\(([^()]*)\)")
_WORD = re.compile(r"[^\W_]+(?:['’.][^\W_]+)*\.?", re.UNICODE)


class NameVerdict(StrEnum):
    MATCH = "match"
    MISSPELLED = "misspelled"
    MISMATCH = "mismatch"


@dataclass(frozen=True, slots=True, kw_only=True)
class Correction:
    """Replace the draft's word at ``[start, end)`` (offsets into the draft name) with ``new``."""

    start: int
    end: int
    old: str
    new: str


@dataclass(frozen=True, slots=True, kw_only=True)
class NameComparison:
    verdict: NameVerdict
    matched_name: str | None = None  # the record name it was compared with (best variant)
    corrections: tuple[Correction, ...] = ()

    def corrected(self, draft: str) -> str:
        out = draft
        for c in sorted(self.corrections, key=lambda c: c.start, reverse=True):
            out = out[: c.start] + c.new + out[c.end :]
        return out


@dataclass(frozen=True, slots=True)
class _Word:
    text: str  # as written
    start: int
    end: int
    canon: tuple[str, ...]  # canonical tokens (possibly several: "U.S." → united, states)
    abbreviated: bool = False  # written "Res." or "Dep't": may stand for any word it abbreviates
    folded: str = ""  # as written, folded ("res", "dept")


@cache
def _abbreviations() -> dict[str, tuple[str, ...]]:
    table: dict[str, tuple[str, ...]] = {}
    for abbr, fulls in reporters_db.CASE_NAME_ABBREVIATIONS.items():
        key = _fold(abbr)
        if key and fulls:
            table[key] = tuple(_fold(fulls[0]).split())
    table.update(_EXTRA_ABBREVIATIONS)
    return table


def _fold(s: str) -> str:
    s = unicodedata.normalize("NFKD", s)
    s = "".join(ch for ch in s if not unicodedata.combining(ch))
    return re.sub(r"['’.]", "", s.casefold()).strip()


def _words(party: str, offset: int = 0) -> list[_Word]:
    out = []
    abbr = _abbreviations()
    for m in _WORD.finditer(party):
        folded = _fold(m.group())
        if not folded:
            continue
        canon = abbr.get(folded, (folded,))
        raw = m.group()
        shortened = (raw.endswith(".") or "'" in raw or "’" in raw) and len(canon) == 1
        word = raw.rstrip(".")
        out.append(_Word(word, offset + m.start(), offset + m.start() + len(word), canon, shortened, folded))
    return out


def _abbreviates(short: str, full: str) -> bool:
    """``res`` → resources, ``dept`` → department: same first letter, letters in order.

    >>> _abbreviates("dept", "department"), _abbreviates("elec", "electrical"), _abbreviates("vela", "dyous")
    (True, True, False)
    """
    if len(short) < 2 or len(short) >= len(full) or short[0] != full[0]:
        return False
    it = iter(full)
    return all(ch in it for ch in short)


def _unmatched(words: list[_Word], other: list[_Word]) -> list[_Word]:
    """Words of ``words`` whose identity is not in ``other`` (abbreviations allowed both ways)."""
    tokens = _content(other)
    shortened = [x for w in other if w.abbreviated for x in (w.folded, *w.canon)]
    out = []
    for w in words:
        missing = [t for t in w.canon if t not in _IGNORED and t not in tokens]
        if not missing:
            continue
        if all(
            (
                w.abbreviated
                and any(_abbreviates(a, r) or r.startswith(a) for a in (w.folded, t) for r in tokens)
            )
            or any(_abbreviates(s, t) or t.startswith(s) for s in shortened)
            for t in missing
        ):
            continue
        out.append(w)
    return out


def _content(words: Iterable[_Word]) -> set[str]:
    return {t for w in words for t in w.canon if t not in _IGNORED}


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


def _parties(name: str) -> list[tuple[str, int]]:
    """``[(party text, offset)]`` split on `` v. ``."""
    parts, pos = [], 0
    for m in _V_SPLIT.finditer(name):
        parts.append((name[pos : m.start()], pos))
        pos = m.end()
    parts.append((name[pos:], pos))
    return parts


def _variants(record_names: Sequence[str]) -> list[str]:
    """Record names plus any parenthetical alternative ("X v. Y (In re Z)" → "In re Z")."""
    out: list[str] = []
    for n in record_names:
        if not n:
            continue
        out.append(_PAREN.sub(" ", n))
        out.extend(m.group(1) for m in _PAREN.finditer(n) if len(m.group(1)) > 6)
    return list(dict.fromkeys(out))


def _typo(a: str, b: str) -> bool:
    """One slip of the keyboard (two for long words), never for short initials."""
    if a == b or min(len(a), len(b)) < 3 or (a[0] != b[0] and len(a) < 4):
        return False
    d = DamerauLevenshtein.distance(a, b)
    return d == 1 or (d == 2 and min(len(a), len(b)) >= 7)


def _party_fit(draft: list[_Word], record: list[_Word]) -> tuple[str, list[tuple[_Word, str]]] | None:
    """("match", []) / ("typo", [(draft word, record word text)]) / None for one draft vs record party."""
    dset, rset = _content(draft), _content(record)
    if not dset:
        return ("match", [])  # "In re" or "et al." alone: nothing to compare
    unmatched = _unmatched(draft, record)
    if not unmatched or (rset and not _unmatched(record, draft)):
        return ("match", [])
    fixes: list[tuple[_Word, str]] = []
    for w in unmatched:
        missing = [t for t in w.canon if t not in _IGNORED and t not in rset]
        if len(missing) != 1:
            return None
        cand = [r for r in record if any(_typo(missing[0], t) for t in r.canon)]
        if not cand:
            return None
        fixes.append((w, cand[0].text))
    return ("typo", fixes) if fixes else ("match", [])


def compare_names(draft: str, record_names: Sequence[str]) -> NameComparison:
    """Compare the draft's case name with every name the record has.

    >>> compare_names("Plyer v. Doe", ["Plyler v. Doe"]).verdict
    <NameVerdict.MISSPELLED: 'misspelled'>
    >>> compare_names("Doe v. Plyler", ["Plyler v. Doe"]).verdict
    <NameVerdict.MATCH: 'match'>
    >>> compare_names("Boone v. Vinson", ["Cinel v. Connick"]).verdict
    <NameVerdict.MISMATCH: 'mismatch'>
    >>> compare_names("Smith v. Jones; Plyler v. Doe", ["Plyler v. Doe"]).verdict
    <NameVerdict.MATCH: 'match'>
    """
    captions = _consolidated(draft)
    if len(captions) > 1:  # "A v. B; C v. D": a consolidated caption names the case if any caption does
        rank = {NameVerdict.MATCH: 0, NameVerdict.MISSPELLED: 1, NameVerdict.MISMATCH: 2}
        tried = []
        for off, caption in captions:
            r = compare_names(caption, record_names)
            shifted = tuple(
                Correction(start=k.start + off, end=k.end + off, old=k.old, new=k.new) for k in r.corrections
            )
            tried.append(NameComparison(verdict=r.verdict, matched_name=r.matched_name, corrections=shifted))
        return min(tried, key=lambda r: rank[r.verdict])
    draft_parties = [(_words(p, off)) for p, off in _parties(draft)]
    best: NameComparison | None = None
    short = _short_parties(record_names)
    for variant in _variants(record_names):
        rec_parties = [_words(p) for p, _ in _parties(variant)]
        result = _compare_parties(draft_parties, rec_parties)
        if result is None:
            continue
        verdict, fixes = result
        if verdict == "match" and not _both_sides_named(draft_parties, short):
            continue  # "Jackson v. Clark" matched "Jackson v. Munson, Clark County Sheriff" word for word
        if verdict == "match":
            return NameComparison(verdict=NameVerdict.MATCH, matched_name=variant)
        if best is None:
            corrections = tuple(Correction(start=w.start, end=w.end, old=w.text, new=new) for w, new in fixes)
            best = NameComparison(
                verdict=NameVerdict.MISSPELLED, matched_name=variant, corrections=corrections
            )
    return best or NameComparison(
        verdict=NameVerdict.MISMATCH, matched_name=record_names[0] if record_names else None
    )


def _consolidated(draft: str) -> list[tuple[int, str]]:
    """(offset, caption) of each ``v.`` caption of a consolidated caption ``A v. B; C v. D``."""
    if ";" not in draft:
        return [(0, draft)]
    out, pos = [], 0
    for part in draft.split(";"):
        lead = len(part) - len(part.lstrip())
        if " v. " not in part and " vs. " not in part:
            return [(0, draft)]
        out.append((pos + lead, part.strip()))
        pos += len(part) + 1
    return out


def _short_parties(record_names: Sequence[str]) -> list[list[_Word]] | None:
    """The two parties of the record's shortest two-party name (its caption as reporters abbreviate it)."""
    two = [n for n in record_names if n and len(_parties(_PAREN.sub(" ", n))) == 2]
    if not two:
        return None
    shortest = min(two, key=len)
    return [_words(p) for p, _ in _parties(_PAREN.sub(" ", shortest))]


def _both_sides_named(draft: list[list[_Word]], short: list[list[_Word]] | None) -> bool:
    """Each side of a two-party draft name shares a word with a different side of the case's short name.

    A full caption lists counsel, officials and places ("Jackson v. Munson, Clark County Sheriff"), so
    a draft can find each of its words somewhere in it while naming the wrong case: one shared party
    is not a match (issue 17: "Jackson v. Clark" for Jackson v. Munson, "State v. Hamzy" for Williams
    v. State). Abbreviations, "et al.", corporate suffixes and State/People/United States still match,
    because they are compared through the same canonical words.
    """
    if short is None or len(draft) != 2:
        return True
    d1, d2 = _content(draft[0]), _content(draft[1])
    s1, s2 = _content(short[0]), _content(short[1])
    if not (d1 and d2 and s1 and s2):
        return True

    def shares(d: set[str], s: set[str], draft_side: list[_Word], short_side: list[_Word]) -> bool:
        return bool(d & s) or not _unmatched(draft_side, short_side) or not _unmatched(short_side, draft_side)

    straight = shares(d1, s1, draft[0], short[0]) and shares(d2, s2, draft[1], short[1])
    crossed = shares(d1, s2, draft[0], short[1]) and shares(d2, s1, draft[1], short[0])
    return straight or crossed


def _compare_parties(
    draft: list[list[_Word]], record: list[list[_Word]]
) -> tuple[str, list[tuple[_Word, str]]] | None:
    if len(draft) == 1:
        # a short name or an "In re" name: compare with the whole record name
        whole = [w for party in record for w in party]
        return _party_fit(draft[0], whole)
    if len(record) == 1:
        whole = [w for party in draft for w in party]
        fit = _party_fit(whole, record[0])
        return fit
    orders = [(draft[0], record[0], draft[-1], record[-1]), (draft[0], record[-1], draft[-1], record[0])]
    outcome = None
    for d1, r1, d2, r2 in orders:
        f1, f2 = _party_fit(d1, r1), _party_fit(d2, r2)
        if f1 is None or f2 is None:
            continue
        fixes = f1[1] + f2[1]
        if not fixes:
            return ("match", [])
        outcome = outcome or ("typo", fixes)
    return outcome
