"""The one module that imports eyecite. It is used as a TOKENIZER only.

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
from dataclasses import dataclass, replace
from enum import Enum
from functools import cache

from citecheck.extract.models import Database

logging.getLogger("eyecite").setLevel(logging.ERROR)


class HitKind(Enum):
    CASE = "case"  # full case citation token: 410 U.S. 113
    SHORT = "short"  # 410 U.S. at 116
    ID = "id"  # Id. / Ibid.
    SUPRA = "supra"  # supra
    OTHER = "other"  # a statute, regulation, journal or bare section: not a case, but it breaks Id. chains


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


@cache
def _tokenizer():  # type: ignore[no-untyped-def]
    from eyecite.tokenizers import AhocorasickTokenizer

    class _CitationOnlyTokenizer(AhocorasickTokenizer):
        """Skips eyecite's word splitting of the text between citations: we never read those words,
        and splitting is "a significant portion of total runtime" (eyecite's own docstring)."""

        def append_text(self, tokens, text):  # type: ignore[no-untyped-def,override]
            return None

        def get_extractors(self, text):  # type: ignore[no-untyped-def]
            """eyecite's version de-duplicates candidate extractors in a set, and TokenExtractor hashes
            as ``hash(repr(self))`` (the whole regex and reporter data): about half of a paragraph's
            scanning time. The 6,835 extractors all differ, so identity is the same de-duplication."""
            from eyecite.tokenizers import _strip_ws

            stripped = _strip_ws(text)
            found = dict(self._unfiltered_by_id)  # type: ignore[attr-defined]
            for _, extractors in self.case_sensitive_filter.iter(stripped):
                for e in extractors:
                    found[id(e)] = e
            for _, extractors in self.case_insensitive_filter.iter(stripped.lower()):
                for e in extractors:
                    found[id(e)] = e
            return found.values()

    tokenizer = _CitationOnlyTokenizer()
    tokenizer._unfiltered_by_id = {id(e): e for e in tokenizer.unfiltered_extractors}  # type: ignore[attr-defined]
    tokenizer.tokenize(
        "See Roe v. Wade, 410 U.S. 113 (1973). Id. at 116."
    )  # build the Aho-Corasick automaton
    # eyecite and reporters-db hold a few hundred thousand objects that live as long as the process.
    # Move them out of the cyclic collector's reach: otherwise every full collection walks them all,
    # a 100-200 ms pause in the middle of a keystroke.
    gc.collect()
    gc.freeze()
    return tokenizer


def _edition_name(token) -> tuple[str | None, Database | None, bool]:  # type: ignore[no-untyped-def]
    editions = list(token.exact_editions) or list(token.variation_editions)
    names = {e.short_name for e in editions}
    database = None
    scotus = any(e.reporter.is_scotus for e in editions)
    for e in editions:
        if e.reporter.cite_type == "specialty_west":
            database = Database.WESTLAW
        elif e.reporter.cite_type == "specialty_lexis":
            database = Database.LEXIS
    return (names.pop() if len(names) == 1 else None), database, scotus


_SPACE_RUN = re.compile(r"  +")


def scan(text: str) -> list[Hit]:
    """Every citation-ish token eyecite finds in ``text`` (already normalised), in order.

    eyecite's reporter regexes want single spaces, but a citation hard-wrapped with indentation
    (``539\n    U. S. 306``: line breaks are already spaces here) has a run of them. Runs are scanned
    as one space and the offsets mapped back, so such a citation is found and its span still indexes
    the text as written.
    """
    if not text.strip():
        return []
    if "  " not in text:
        return _scan(text)
    keep: list[int] = []  # compact offset → text offset
    last = 0
    parts: list[str] = []
    for m in _SPACE_RUN.finditer(text):
        parts.append(text[last : m.start() + 1])
        keep.extend(range(last, m.start() + 1))
        last = m.end()
    parts.append(text[last:])
    keep.extend(range(last, len(text)))
    keep.append(len(text))
    compact = "".join(parts)
    return [
        replace(h, start=keep[h.start], end=keep[h.end - 1] + 1 if h.end > 0 else keep[0])
        for h in _scan(compact)
    ]


def _scan(text: str) -> list[Hit]:
    from eyecite.models import CitationToken, IdToken, SectionToken, SupraToken

    _, tokens = _tokenizer().tokenize(text)
    hits: list[Hit] = []
    for _, tok in tokens:
        if isinstance(tok, CitationToken):
            source = None
            editions = list(tok.exact_editions) or list(tok.variation_editions)
            if editions:
                source = editions[0].reporter.source
            if source != "reporters":
                hits.append(Hit(kind=HitKind.OTHER, start=tok.start, end=tok.end))
                continue
            groups = tok.groups
            written = " ".join((groups.get("reporter") or "").split())
            name, database, scotus = _edition_name(tok)
            page = groups.get("page")
            if page is not None and not any(ch.isalnum() for ch in page):
                page = None  # "585 U.S. ___": a placeholder
            hits.append(
                Hit(
                    kind=HitKind.SHORT if tok.short else HitKind.CASE,
                    start=tok.start,
                    end=tok.end,
                    volume=groups.get("volume"),
                    reporter=name or written,
                    reporter_as_written=written,
                    page=page,
                    database=database,
                    scotus=scotus,
                )
            )
        elif isinstance(tok, IdToken):
            hits.append(Hit(kind=HitKind.ID, start=tok.start, end=tok.end))
        elif isinstance(tok, SupraToken):
            hits.append(Hit(kind=HitKind.SUPRA, start=tok.start, end=tok.end))
        elif isinstance(tok, SectionToken):
            hits.append(Hit(kind=HitKind.OTHER, start=tok.start, end=tok.end))
    return hits


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
