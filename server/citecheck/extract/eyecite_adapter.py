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
import importlib
import logging
import re
from dataclasses import dataclass, replace
from enum import Enum
from functools import cache
from typing import Any

from citecheck.extract.models import Database

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


#: How a reporter extractor's regex may begin before its ``(?P<reporter>…)`` group for the narrower
#: prefilter below: each ends with a mandatory number (its last character a digit, or the ``A`` of
#: ``402A`` / ``17A`` / ``\\d{1,4}A?``) and ONE literal space. Checked against the regex text at start-up.
_VOLUME_FIRST = (
    r"(?:^|[^a-zA-Z0-9])((?P<volume>[1-9]\d*) ",
    r"(?:^|[^a-zA-Z0-9])((?P<year>1\d{3}|20\d{2}) ",
    r"(?:^|[^a-zA-Z0-9])((?P<volume>1[789]\d{2}|20\d{2}) ",
    r"(?:^|[^a-zA-Z0-9])((?P<issue>\d+) ",
    r"(?:^|[^a-zA-Z0-9])((?P<volume>\d{1,3}) ",
    r"(?:^|[^a-zA-Z0-9])((?P<title>\d+) ",
    r"(?:^|[^a-zA-Z0-9])((?P<year>1\d{3}|20\d{2})\-(?P<pamphlet>\d+) ",
    r"(?:^|[^a-zA-Z0-9])((?P<title>\d+)\-(?P<chapter>\d+) ",
    r"(?:^|[^a-zA-Z0-9])((?P<volume>\d{1,4}A?) ",
    r"(?:^|[^a-zA-Z0-9])((?P<volume>33) ",
    r"(?:^|[^a-zA-Z0-9])((?P<volume>(19|20)\d{2}) ",
    r"(?:^|[^a-zA-Z0-9])((?P<volume>\d+|402A) ",
    r"(?:^|[^a-zA-Z0-9])((?P<volume>\d+|17A) ",
    r"(?:^|[^a-zA-Z0-9])((?P<volume>25) ",
    r"(?:^|[^a-zA-Z0-9])((?P<chapter>\d+-\d+-\d+) ",
    r"(?:^|[^a-zA-Z0-9])((?P<chapter>\d+) ",
    r"(?:^|[^a-zA-Z0-9])((?P<volume>\d{1,4}(?:-\d+)?) ",
)
#: Where such a reporter group can start: right after a digit (or ``A``) and one space.
_AFTER_VOLUME = re.compile(r"[0-9A] ")
_WS = re.compile(r"\s+")


def _reporter_group(regex: str, start: int) -> str:
    """The text of the group whose body starts at ``start`` (escapes skipped)."""
    depth, j = 1, start
    while depth:
        ch = regex[j]
        if ch == "\\":
            j += 2
            continue
        depth += ch == "("
        depth -= ch == ")"
        j += 1
    return regex[start : j - 1]


def _volume_prefix(extractor: Any) -> bool:
    """Whether the regex opens with one of ``_VOLUME_FIRST`` and then its reporter group."""
    at = extractor.regex.find("(?P<reporter>")
    return at >= 0 and extractor.regex[:at] in _VOLUME_FIRST


def _leading_literal(regex: str) -> str | None:
    """The text every match of a reporter-first regex contains (``Cal. `` of ``(?:^|[^a-zA-Z0-9])
    ((?P<reporter>Cal\\. (?P<subject>…``), read from the parsed pattern: the literal characters that
    open the reporter group, which opens group 1, neither behind an alternative. None when there are
    fewer than three, or the pattern has another shape."""
    try:
        c = importlib.import_module("re._constants")  # the sre internals (no stubs)
        _parser = importlib.import_module("re._parser")

        if not regex.startswith("(?:^|[^a-zA-Z0-9])("):
            return None
        ops = list(_parser.parse(regex))  # [the boundary's BRANCH, group 1, ...]
        if len(ops) < 2 or ops[1][0] is not c.SUBPATTERN:
            return None
        group1 = list(ops[1][1][3])
        if not group1 or group1[0][0] is not c.SUBPATTERN:
            return None
        out = []
        for op, arg in group1[0][1][3]:
            if op is not c.LITERAL:
                break
            out.append(chr(arg))
    except Exception:  # a pattern this reading does not know: no prefilter, the regex runs as eyecite runs it
        return None
    return "".join(out) if len(out) >= 3 else None


def _volume_first(extractor: Any) -> bool:
    """Whether every match of ``extractor`` has its reporter group right after "<number> ", and that
    group is exactly the alternation of its prefilter strings (whitespace-relaxed, as eyecite builds
    it): then one of those strings, whitespace removed, starts right after that space."""
    from eyecite.tokenizers import _relax_ws

    if not extractor.strings or extractor.flags & re.I:
        return False
    marker = "(?P<reporter>"
    at = extractor.regex.find(marker)
    if at < 0 or extractor.regex[:at] not in _VOLUME_FIRST:
        return False
    body = _reporter_group(extractor.regex, at + len(marker))
    alternatives = set(re.split(r"(?<!\\)\|", body))
    return alternatives == {_relax_ws(re.escape(s)) for s in extractor.strings}


@cache
def _tokenizer() -> Any:  # noqa: C901
    from eyecite.tokenizers import AhocorasickTokenizer

    class _CitationOnlyTokenizer(AhocorasickTokenizer):
        """Skips eyecite's word splitting of the text between citations: we never read those words,
        and splitting is "a significant portion of total runtime" (eyecite's own docstring)."""

        narrow = True  # the narrower prefilter for volume-first reporter extractors (tests turn it off)
        # set once, below, when the tokenizer is built
        _unfiltered_by_id: dict[int, Any]
        _volume_first_ids: frozenset[int]
        _volume_first_filter: Any
        _after_any_volume_ids: frozenset[int]
        _required_literal: dict[int, str]
        _longest: int

        @staticmethod
        def append_text(tokens: Any, text: Any) -> Any:
            return None

        def get_extractors(self, text: str) -> Any:
            """eyecite's version de-duplicates candidate extractors in a set, and TokenExtractor hashes
            as ``hash(repr(self))`` (the whole regex and reporter data): about half of a paragraph's
            scanning time. The 6,835 extractors all differ, so identity is the same de-duplication."""
            stripped = _WS.sub("", text)
            found = dict(self._unfiltered_by_id)
            for _, extractors in self.case_sensitive_filter.iter(stripped):
                for e in extractors:
                    found[id(e)] = e
            for _, extractors in self.case_insensitive_filter.iter(stripped.lower()):
                for e in extractors:
                    found[id(e)] = e
            return found

        def extract_tokens(self, text: str) -> Any:
            """eyecite's ``extract_tokens`` (every chosen extractor's matches, extractors in the same
            order, each one's matches left to right), but a volume-first reporter regex is only tried
            where it can match.

            eyecite runs a reporter's regex over the whole paragraph when the reporter string occurs
            ANYWHERE in it, and strings such as ``P``, ``W.``, ``A.`` or ``Or`` occur in almost every
            paragraph of prose: ~45 regexes over every paragraph, half of a long document's
            extraction time. A volume-first reporter (``410 U.S. 113``: 6,277 of the 6,835
            extractors) matches only where one of its strings starts right after "<number> ", and
            such a match begins in the word before that space (or at the space before that word).
            So the regex is ``match``ed at those few positions, in order, skipping any inside the
            previous match, which is what ``finditer`` returns. Tokens are the same
            (tests/extract/test_eyecite_adapter.py compares both on real opinions).
            """
            found = self.get_extractors(text)
            if not self.narrow:
                for extractor in found.values():
                    for match in extractor.get_matches(text):
                        yield extractor.get_token(match)
                return
            strict = self._volume_first_ids
            anywhere = self._after_any_volume_ids
            literal = self._required_literal
            near, every = self._near_volumes(text)
            for key, extractor in found.items():
                if key in strict:
                    starts = near.get(key)
                elif key in anywhere:
                    starts = every
                else:
                    needed = literal.get(key)
                    if needed is None or needed in text:
                        for match in extractor.get_matches(text):
                            yield extractor.get_token(match)
                    continue
                if not starts:
                    continue
                regex = extractor.compiled_regex
                last = 0
                for i in sorted(starts):
                    if i < last:
                        continue
                    match = regex.match(text, i)
                    if match is not None:
                        yield extractor.get_token(match)
                        last = match.end()

        def _near_volumes(self, text: str) -> tuple[dict[int, set[int]], set[int]]:
            """(id of each volume-first extractor one of whose strings starts right after a number →
            the positions where a match of it could start; those positions for any reporter)."""
            width = self._longest
            windows = []
            where: dict[int, range] = {}  # window start in the joined string → where a match may start
            every: set[int] = set()
            at = 0
            for m in _AFTER_VOLUME.finditer(text):
                start = m.end()
                span = 2 * width
                while True:
                    window = _WS.sub("", text[start : start + span])
                    if len(window) >= width or start + span >= len(text):
                        break
                    span *= 2
                windows.append(window[:width])
                word = start - 2  # the volume's last character; its word runs back to a space
                while word > 0 and not text[word - 1].isspace():
                    word -= 1
                where[at] = positions = range(max(word - 1, 0), start - 1)
                every.update(positions)
                at += len(windows[-1]) + 1
            near: dict[int, set[int]] = {}
            if not windows:
                return near, every
            joined = "\x00".join(windows)
            for end, (length, extractors) in self._volume_first_filter.iter(joined):
                near_positions = where.get(end - length + 1)
                if near_positions is None:
                    continue
                for e in extractors:
                    near.setdefault(id(e), set()).update(near_positions)
            return near, every

    tokenizer = _CitationOnlyTokenizer()
    tokenizer._unfiltered_by_id = {id(e): e for e in tokenizer.unfiltered_extractors}
    strict = [e for e in _extractors() if _volume_first(e)]
    tokenizer._volume_first_ids = frozenset(map(id, strict))
    tokenizer._volume_first_filter = _prefix_filter(strict)
    tokenizer._after_any_volume_ids = frozenset(
        id(e)
        for e in _extractors()
        if _volume_prefix(e) and not e.flags & re.I and id(e) not in tokenizer._volume_first_ids
    )
    tokenizer._required_literal = {
        id(e): lit
        for e in tokenizer.unfiltered_extractors
        if not e.flags & re.I and (lit := _leading_literal(e.regex)) is not None
    }
    tokenizer._longest = max(len(_WS.sub("", s)) for e in strict for s in e.strings)
    tokenizer.tokenize(
        "See Roe v. Wade, 410 U.S. 113 (1973). Id. at 116."
    )  # build the Aho-Corasick automaton
    # eyecite and reporters-db hold a few hundred thousand objects that live as long as the process.
    # Move them out of the cyclic collector's reach: otherwise every full collection walks them all,
    # a 100-200 ms pause in the middle of a keystroke.
    gc.collect()
    gc.freeze()
    return tokenizer


def _prefix_filter(extractors: list[Any]) -> Any:
    """Aho-Corasick automaton: whitespace-free string → (its length, the extractors listing it)."""
    import ahocorasick

    grouped: dict[str, list[Any]] = {}
    for e in extractors:
        for string in e.strings:
            grouped.setdefault(_WS.sub("", string), []).append(e)
    automaton = ahocorasick.Automaton()
    for string, listed in grouped.items():
        automaton.add_word(string, (len(string), listed))
    automaton.make_automaton()
    return automaton


def _extractors() -> list[Any]:
    from eyecite.tokenizers import EXTRACTORS

    return EXTRACTORS


def _edition_name(token: Any) -> tuple[str | None, Database | None, bool]:
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


def _candidate_editions(token: Any) -> tuple[tuple[str, int | None, int | None], ...]:
    editions = list(token.exact_editions) or list(token.variation_editions)
    out = {(e.short_name, e.start.year if e.start else None, e.end.year if e.end else None) for e in editions}
    return tuple(sorted(out, key=lambda c: c[0]))


_SPACE_RUN = re.compile(r"  +")
_BRACKETED_ID = re.compile(r"[(\[](?=(?:[Ii]d|[Ii]bid)\.)|(?<=\b[Ii]d\.)[);:\]]|(?<=\b[Ii]bid\.)[);:,\]]")


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
            if source == "laws":
                law_groups = tuple((k, v) for k, v in tok.groups.items() if v)
                law = editions[0].reporter.short_name
                hits.append(Hit(kind=HitKind.LAW, start=tok.start, end=tok.end, law=law, groups=law_groups))
                continue
            if source != "reporters":
                hits.append(Hit(kind=HitKind.OTHER, start=tok.start, end=tok.end))
                continue
            groups = tok.groups
            written = " ".join((groups.get("reporter") or "").split())
            name, database, scotus = _edition_name(tok)
            candidates = () if name else _candidate_editions(tok)
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
                    candidates=candidates,
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
