"""Find the corpus's cases by name: an in-memory index of the ``name_keys`` tokens of every name a case has.

Built on the first name search of a process and rebuilt when the corpus changed (an import in this
process, or in another one: SQLite's ``data_version``). A corpus of 100,000 cases takes well under a
second to index and a few megabytes; a search then costs microseconds plus scoring its candidates with
``name_keys.name_score``. The national citation index (``sources/index/``) has its own search (FTS5 of
the same tokens); this is the local corpus's.
"""

from __future__ import annotations

from collections.abc import Iterable

from citecheck.sources.name_keys import GENERIC, name_tokens, parties

#: Cases scored at most per search (those sharing most words, then the nearest years, first).
MAX_CANDIDATES = 60


def search_terms(name: str) -> list[str]:
    """The tokens that identify a case (not ``State``, ``People``, initials), each once; a party with no
    other token keeps its one-letter key (``West`` folds to ``w``, as in ``W. Va.``).

    >>> search_terms("Dep't of Human Res. v. Johnson"), search_terms("In re J.W."), search_terms("Fox v. State")
    (['human', 'res', 'johnson'], ['jw'], ['fox'])
    >>> search_terms("West v. United States")
    ['w']
    """
    out: list[str] = []
    for party in parties(name) or (name,):
        keys = [t for t in name_tokens(party) if t not in GENERIC]
        out.extend([t for t in keys if len(t) > 1] or keys)
    return list(dict.fromkeys(out))


class NameIndex:
    """Token → case rowids, and each case's year (to search the nearest years first)."""

    def __init__(self, rows: Iterable[tuple[int, str | None, tuple[str | None, ...]]]) -> None:
        self.words: dict[str, list[int]] = {}
        self.years: dict[int, int] = {}
        for rowid, date, names in rows:
            if date and date[:4].isdigit():
                self.years[rowid] = int(date[:4])
            seen: set[str] = set()
            for n in names:
                if n:
                    seen.update(search_terms(n))
            for w in seen:
                self.words.setdefault(w, []).append(rowid)

    def candidates(self, name: str, years: tuple[int, int] | None = None) -> list[int]:
        """Rowids of cases sharing a token with ``name``: those sharing the most first (both parties before
        one), then the nearest years; at most ``MAX_CANDIDATES``."""
        shared: dict[int, int] = {}
        for t in search_terms(name):
            for rowid in self.words.get(t, ()):
                shared[rowid] = shared.get(rowid, 0) + 1
        mid = (years[0] + years[1]) / 2 if years is not None else None

        def rank(r: int) -> tuple[int, float]:
            return (-shared[r], abs(self.years.get(r, 0) - mid) if mid is not None else 0.0)

        return sorted(shared, key=rank)[:MAX_CANDIDATES]


__all__ = ["MAX_CANDIDATES", "NameIndex", "search_terms"]
