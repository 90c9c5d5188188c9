"""Find the corpus's cases by name: an in-memory word index over every name a case has.

Built on the first name search of a process and rebuilt when the corpus changed (an import in this
process, or in another one: SQLite's ``data_version``). A corpus of 100,000 cases takes well under a
second to index and a few megabytes; a search then costs microseconds plus scoring its candidates.
The national index (issue 23) has its own search; this is the local corpus's.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

#: Words too common in case names to find a case by (a party is more than "State" or "Inc.").
NAME_STOP = frozenset(
    "the of and for in re ex rel parte matter et al ux vs state states united people commonwealth "
    "inc co corp llc ltd company corporation city county town village".split()
)
_WORD = re.compile(r"[^\W\d_]+", re.UNICODE)
#: Cases scored at most per search (those sharing most words, then the nearest years, first).
MAX_CANDIDATES = 60


def name_terms(name: str) -> list[str]:
    """Words to find a case by, longest first: whole words of a party, not abbreviations.

    >>> name_terms("Dep't of Human Res. v. Johnson")
    ['johnson', 'human']
    >>> name_terms("In re J.W."), name_terms("Fox v. State")
    (['jw'], ['fox'])
    """
    whole = [
        m.group().casefold()
        for m in _WORD.finditer(name)
        if len(m.group()) >= 3 and name[m.end() : m.end() + 1] not in (".", "'", "’")
    ]
    terms = [w for w in dict.fromkeys(whole) if w not in NAME_STOP]
    if any(len(t) >= 4 for t in terms):
        terms = [t for t in terms if len(t) >= 4]  # "Fox v. State" searches by "fox"; longer words win
    if not terms:  # initials ("J.W."), short names: the letters run together, as they are stored
        joined = _joined(re.split(r"\s+v\.?\s+|\bin re\b", name, flags=re.I)[-1])
        terms = [joined] if len(joined) >= 2 and joined not in NAME_STOP else []
    return sorted(terms, key=len, reverse=True)[:4]


def _joined(text: str) -> str:
    return "".join(m.group() for m in _WORD.finditer(text)).casefold()


def indexed_words(name: str) -> set[str]:
    """Every word a name can be found by: its words, and each party's letters run together (``jw``)."""
    words = {m.group().casefold() for m in _WORD.finditer(name) if len(m.group()) >= 3}
    for party in re.split(r"\s+v\.?\s+|\bin re\b|[;()]", name, flags=re.I):
        j = _joined(party)
        if 2 <= len(j) <= 12:
            words.add(j)
    return words - NAME_STOP


class NameIndex:
    """Word → case rowids, and each case's year (to search the nearest years first)."""

    def __init__(self, rows: Iterable[tuple[int, str | None, tuple[str | None, ...]]]) -> None:
        self.words: dict[str, list[int]] = {}
        self.years: dict[int, int] = {}
        for rowid, date, names in rows:
            if date and date[:4].isdigit():
                self.years[rowid] = int(date[:4])
            seen: set[str] = set()
            for n in names:
                if n:
                    seen |= indexed_words(n)
            for w in seen:
                self.words.setdefault(w, []).append(rowid)

    def candidates(self, name: str, years: tuple[int, int] | None = None) -> list[int]:
        """Rowids of cases sharing a search word with ``name``: those sharing the most words first (both
        parties before one), then the nearest years; at most ``MAX_CANDIDATES``."""
        shared: dict[int, int] = {}
        for t in name_terms(name):
            for rowid in self.words.get(t, ()):
                shared[rowid] = shared.get(rowid, 0) + 1
        mid = (years[0] + years[1]) / 2 if years is not None else None

        def rank(r: int) -> tuple[int, float]:
            return (-shared[r], abs(self.years.get(r, 0) - mid) if mid is not None else 0.0)

        return sorted(shared, key=rank)[:MAX_CANDIDATES]


__all__ = ["MAX_CANDIDATES", "NAME_STOP", "NameIndex", "indexed_words", "name_terms"]
