"""eyecite, used as a TOKENIZER only (``tokenizer.py`` reads its extractors into a table and tokenizes
from that; no other module imports eyecite).

We never call ``eyecite.get_citations``: its metadata pass is where the bugs and the hot spots live
(a later court parenthetical overwriting an earlier citation's year and span; the per-parenthetical
linear court search; the per-citation re-scan of the rest of the document for reference citations).
Instead we take eyecite's reporter-aware tokens (volume / reporter / page, editions from reporters-db,
``Id.`` and ``supra`` tokens) and do the rest ourselves, locally and once per paragraph. The text
handed in has already been normalised one-for-one (``normalise.py``), so token offsets are offsets
into the original text.
"""

from __future__ import annotations

import gc
import logging
import re
from bisect import bisect_left
from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum
from functools import cache

from citecheck.extract.models import Database
from citecheck.extract.records import fast_constructor
from citecheck.extract.tokenizer import EditionRow, Token, Tokenizer, TokenKind, TokenTable, build_table

logging.getLogger("eyecite").setLevel(logging.ERROR)


class HitKind(Enum):
    CASE = "case"  # full case citation token: 410 U.S. 113
    SHORT = "short"  # 410 U.S. at 116
    ID = "id"  # Id. / Ibid.
    SUPRA = "supra"  # supra
    LAW = "law"  # a statute, regulation, session law or register (reporters-db's laws): ``law``, ``groups``
    OTHER = "other"  # a journal or a bare section: not a case, but it breaks Id. chains


@dataclass(frozen=True, slots=True, kw_only=True)
class Hit:
    """One eyecite token, offsets relative to the scanned string."""

    kind: HitKind
    start: int
    end: int
    volume: str | None = None
    reporter: str | None = None  # normalised (edition short name) where reporters-db is unambiguous
    reporter_as_written: str | None = None
    page: str | None = None  # for SHORT: the pin page after "at"
    database: Database | None = None
    scotus: bool = False
    #: where reporters-db cannot tell which reporter is meant (``1 P.R. 1``): each candidate edition and
    #: its years (first, last; None when open), for the citation's year to choose between them
    candidates: tuple[tuple[str, int | None, int | None], ...] = ()
    law: str | None = None  # LAW: reporters-db's name of the code ("U.S.C.", "Stat.", "Cal. Code")
    groups: tuple[tuple[str, str], ...] = ()  # LAW: eyecite's regex groups (title, section, …)


#: Where the tokenizer's table comes from: an edge may set a loader (``citecheck/startup``: a cache file,
#: so a process need not import eyecite); without one the table is read out of eyecite.
_table_loader: Callable[[], TokenTable] | None = None


def table_loader() -> Callable[[], TokenTable] | None:
    """The loader set by ``use_table_loader`` (None: the table is read out of eyecite)."""
    return _table_loader


def use_table_loader(loader: Callable[[], TokenTable] | None) -> None:
    """Take the tokenizer's table from ``loader`` (None: from eyecite) when it is next built."""
    global _table_loader
    _table_loader = loader
    _tokenizer.cache_clear()
    _EDITIONS_READ.clear()  # edition numbers are the table's


@cache
def _tokenizer() -> Tokenizer:
    table = _table_loader() if _table_loader is not None else build_table()
    tokenizer = Tokenizer(table)
    # What was loaded (the table; eyecite and reporters-db when the table was read out of them) lives as
    # long as the process. Move it out of the cyclic collector's reach: otherwise every full collection
    # walks it all, a 100-200 ms pause in the middle of a keystroke. (No collection first: a full one
    # cost a one-line check ~40 ms; what little garbage is frozen with it is never freed, and is small.)
    gc.freeze()
    return tokenizer


def _edition_name(editions: list[EditionRow]) -> tuple[str | None, Database | None, bool]:
    names = {e.short_name for e in editions}
    database = None
    scotus = any(e.scotus for e in editions)
    for e in editions:
        if e.cite_type == "specialty_west":
            database = Database.WESTLAW
        elif e.cite_type == "specialty_lexis":
            database = Database.LEXIS
    return (names.pop() if len(names) == 1 else None), database, scotus


def _candidate_editions(editions: list[EditionRow]) -> tuple[tuple[str, int | None, int | None], ...]:
    out = {(e.short_name, e.start, e.end) for e in editions}
    return tuple(sorted(out, key=lambda c: c[0]))


_SPACE_RUN = re.compile(r"  +")
#: ``Hit(**fields)``, twice as fast (one per token)
_new_hit = fast_constructor(Hit)
_BRACKETED_ID = re.compile(
    r"[(\[);:,\]](?:(?<=[(\[])(?=(?:[Ii]d|[Ii]bid)\.)|(?<=\b[Ii]d\.[);:\]])|(?<=\b[Ii]bid\.[);:,\]]))"
)


def spaced_ids(text: str) -> str:
    """California style ``(Id. at p. 152.)``, ``(Ibid.)``, ``(Id.)``, and ``Id.; see also``: eyecite's
    Id. token wants a space on both sides, so the bracket or semicolon is given to it as one (same
    length: offsets still index the text). Only the tokenizer sees this text."""
    if "Id." not in text and "id." not in text and "bid." not in text:
        return text
    return _BRACKETED_ID.sub(" ", text)


def scan(text: str) -> list[Hit]:
    """Every citation-ish token eyecite finds in ``text`` (already normalised), in order.

    eyecite's reporter regexes want single spaces, but a citation hard-wrapped with indentation
    (``539\n    U. S. 306``: line breaks are already spaces here) has a run of them. Runs are scanned
    as one space and the offsets mapped back, so such a citation is found and its span still indexes
    the text as written.
    """
    if not text.strip():
        return []
    text = spaced_ids(text)
    if "  " not in text:
        return _scan(text)
    # each run kept as its first space: (where that space is in the compact text, how many characters the
    # runs up to and including it removed), offsets mapped by bisection (not a list of every offset)
    bounds: list[int] = []
    shifts: list[int] = [0]
    last = 0
    parts: list[str] = []
    for m in _SPACE_RUN.finditer(text):
        parts.append(text[last : m.start() + 1])
        bounds.append(m.start() - shifts[-1])
        shifts.append(shifts[-1] + m.end() - m.start() - 1)
        last = m.end()
    parts.append(text[last:])
    return _scan("".join(parts), (bounds, shifts))


def _map_spans(tokens: list[Token], runs: tuple[list[int], list[int]] | None) -> list[Token]:
    """``tokens``, each span mapped back to the text the space runs were taken out of, when they were
    (the tokens are the caller's own: moved in place). A compact offset ``c`` is ``c`` plus what the runs
    kept before it (their first space at a compact offset under ``c``) removed."""
    if runs is not None:
        bounds, shifts = runs
        for tok in tokens:
            start, end = tok.start, tok.end
            tok.start = start + shifts[bisect_left(bounds, start)]
            if end > 0:
                tok.end = end + shifts[bisect_left(bounds, end - 1)]
    return tokens


def _scan(text: str, runs: tuple[list[int], list[int]] | None = None) -> list[Hit]:
    """The hits of ``text``'s tokens; with ``runs`` (the space runs taken out of the text, ``scan``)
    their spans mapped back."""
    tokenizer = _tokenizer()
    hits: list[Hit] = []
    tokens = _map_spans(tokenizer.tokenize(text, every=False), runs)
    for tok in tokens:
        kind = tok.kind
        if kind is TokenKind.CITATION:
            source, law, name, database, scotus, candidates = _editions(tok.exact or tok.variation)
            if source == "laws":
                law_groups = tuple((k, v) for k, v in tok.groups.items() if v)
                hits.append(
                    _new_hit(
                        kind=HitKind.LAW,
                        start=tok.start,
                        end=tok.end,
                        law=law,
                        groups=law_groups,
                    )
                )
                continue
            if source != "reporters":
                hits.append(_new_hit(kind=HitKind.OTHER, start=tok.start, end=tok.end))
                continue
            groups = tok.groups
            written = " ".join((groups.get("reporter") or "").split())
            page = groups.get("page")
            if page is not None and not page.isdigit() and not any(ch.isalnum() for ch in page):
                page = None  # "585 U.S. ___": a placeholder
            hits.append(
                _new_hit(
                    kind=HitKind.SHORT if tok.short else HitKind.CASE,
                    start=tok.start,
                    end=tok.end,
                    volume=groups.get("volume"),
                    reporter=name or written,
                    reporter_as_written=written,
                    page=page,
                    database=database,
                    scotus=scotus,
                    candidates=candidates,
                )
            )
        elif kind is TokenKind.ID:
            hits.append(_new_hit(kind=HitKind.ID, start=tok.start, end=tok.end))
        elif kind is TokenKind.SUPRA:
            hits.append(_new_hit(kind=HitKind.SUPRA, start=tok.start, end=tok.end))
        elif kind is TokenKind.SECTION:
            hits.append(_new_hit(kind=HitKind.OTHER, start=tok.start, end=tok.end))
    return hits


_EditionsRead = tuple[
    str | None, str | None, str | None, Database | None, bool, tuple[tuple[str, int | None, int | None], ...]
]
#: what a citation token's editions say (the table's edition numbers → source, the first's reporter, the one
#: name, database, scotus, the candidates): a few hundred sets of editions recur in every document
_EDITIONS_READ: dict[tuple[int, ...], _EditionsRead] = {}


def _editions(numbers: tuple[int, ...]) -> _EditionsRead:
    """(source, first reporter, name, database, scotus, candidates) of a token's editions, memoised."""
    got = _EDITIONS_READ.get(numbers)
    if got is None:
        rows = _tokenizer().table.editions
        editions = [rows[i] for i in numbers]
        source = editions[0].source if editions else None
        name, database, scotus = _edition_name(editions)
        candidates = () if name else _candidate_editions(editions)
        got = (source, editions[0].reporter if editions else None, name, database, scotus, candidates)
        if len(_EDITIONS_READ) < 100_000:
            _EDITIONS_READ[numbers] = got
    return got


@cache
def known_reporter_strings() -> frozenset[str]:
    """Every reporter, law and journal abbreviation reporters-db knows (editions and variations),
    whitespace-collapsed and lower-cased; for telling invented reporters from real ones."""
    from reporters_db import EDITIONS, JOURNALS, LAWS, VARIATIONS_ONLY

    names: set[str] = set(EDITIONS) | set(VARIATIONS_ONLY)
    for table in (LAWS, JOURNALS):
        for key, entries in table.items():
            names.add(key)
            for entry in entries:
                names.update(entry.get("variations", {}))
    return frozenset("".join(n.split()).lower() for n in names)
