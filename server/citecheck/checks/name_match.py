"""Case-name comparison that knows Bluebook abbreviations, party order, et al. and short names; pure.

``compare_names(draft, record_names)`` answers MATCH, MISSPELLED (with the corrected words) or
MISMATCH. Both sides are reduced to canonical word sets per party (``Ass'n`` → ``association``,
``U.S.`` → ``united states``), so "Int'l Bhd. of Elec. Workers" and "International Brotherhood of
Electrical Workers" compare equal, and a short name ("Avianca") matches its full form.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from citecheck.sources.name_keys import (
    IGNORED,
    Word,
    clean_draft_name,
    content,
    is_typo,
    name_variants,
    split_parties,
    unmatched,
    words,
)

__all__ = ["NameComparison", "NameVerdict", "clean_draft_name", "compare_names"]

_PAREN = re.compile(r"\(([^()]*)\)")


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


def _party_fit(draft: list[Word], record: list[Word]) -> tuple[str, list[tuple[Word, str]]] | None:
    """("match", []) / ("typo", [(draft word, record word text)]) / None for one draft vs record party."""
    dset, rset = content(draft), content(record)
    if not dset:
        return ("match", [])  # "In re" or "et al." alone: nothing to compare
    left = unmatched(draft, record)
    if not left or (rset and not unmatched(record, draft)):
        return ("match", [])
    fixes: list[tuple[Word, str]] = []
    for w in left:
        missing = [t for t in w.canon if t not in IGNORED and t not in rset]
        if len(missing) != 1:
            return None
        cand = [r for r in record if any(is_typo(missing[0], t) for t in r.canon)]
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
    draft_parties = [(words(p, off)) for p, off in split_parties(draft)]
    best: NameComparison | None = None
    short = _short_parties(record_names)
    for variant in name_variants(record_names):
        rec_parties = [words(p) for p, _ in split_parties(variant)]
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


def _short_parties(record_names: Sequence[str]) -> list[list[Word]] | None:
    """The two parties of the record's shortest two-party name (its caption as reporters abbreviate it)."""
    two = [n for n in record_names if n and len(split_parties(_PAREN.sub(" ", n))) == 2]
    if not two:
        return None
    shortest = min(two, key=len)
    return [words(p) for p, _ in split_parties(_PAREN.sub(" ", shortest))]


def _both_sides_named(draft: list[list[Word]], short: list[list[Word]] | None) -> bool:
    """Each side of a two-party draft name shares a word with a different side of the case's short name.

    A full caption lists counsel, officials and places ("Jackson v. Munson, Clark County Sheriff"), so
    a draft can find each of its words somewhere in it while naming the wrong case: one shared party
    is not a match (issue 17: "Jackson v. Clark" for Jackson v. Munson, "State v. Hamzy" for Williams
    v. State). Abbreviations, "et al.", corporate suffixes and State/People/United States still match,
    because they are compared through the same canonical words.
    """
    if short is None or len(draft) != 2:
        return True
    d1, d2 = content(draft[0]), content(draft[1])
    s1, s2 = content(short[0]), content(short[1])
    if not (d1 and d2 and s1 and s2):
        return True

    def shares(d: set[str], s: set[str], draft_side: list[Word], short_side: list[Word]) -> bool:
        return bool(d & s) or not unmatched(draft_side, short_side) or not unmatched(short_side, draft_side)

    straight = shares(d1, s1, draft[0], short[0]) and shares(d2, s2, draft[1], short[1])
    crossed = shares(d1, s2, draft[0], short[1]) and shares(d2, s1, draft[1], short[0])
    return straight or crossed


def _compare_parties(
    draft: list[list[Word]], record: list[list[Word]]
) -> tuple[str, list[tuple[Word, str]]] | None:
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
