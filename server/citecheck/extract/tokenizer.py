"""eyecite's tokenizer as plain data, so that a process can tokenize without importing eyecite.

Importing eyecite builds its 6,835 token extractors from reporters-db's JSON (every regex assembled
from templates), and building its Aho-Corasick prefilter takes as long again: about 0.5 s before the
first paragraph of a one-line check could be read, more than everything else the check does. What
the extractors ARE — each regex, its flags, the strings that select it, the kind of token it makes
and the editions it names — is a table of strings and numbers, the same for as long as the
installed eyecite and reporters-db are. :func:`build_table` reads it out of eyecite once;
:meth:`TokenTable.to_bytes` / :meth:`TokenTable.from_bytes` write and read it (JSON with a digest:
no code runs when it is read); the edges keep it in a cache file (``citecheck/startup/``), and
:class:`Tokenizer` tokenizes from it exactly as eyecite's ``AhocorasickTokenizer`` does (the same
tokens, groups and editions; ``tests/extract/test_tokenizer.py`` compares them on real opinions).

Pure: no I/O here.
"""

from __future__ import annotations

import hashlib
import importlib
import re
from bisect import bisect_left
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from enum import IntEnum
from typing import Any

#: Bump when the table's shape or the way it is derived changes: an older cache file is then rebuilt.
FORMAT = 1


class TokenKind(IntEnum):
    """The kind of token an extractor makes (eyecite's token classes)."""

    CITATION = 0
    ID = 1
    SUPRA = 2
    PARAGRAPH = 3
    STOP_WORD = 4
    PLACEHOLDER = 5
    SECTION = 6


_KIND_OF_CLASS = {
    "CitationToken": TokenKind.CITATION,
    "IdToken": TokenKind.ID,
    "SupraToken": TokenKind.SUPRA,
    "ParagraphToken": TokenKind.PARAGRAPH,
    "StopWordToken": TokenKind.STOP_WORD,
    "PlaceholderCitationToken": TokenKind.PLACEHOLDER,
    "SectionToken": TokenKind.SECTION,
}


@dataclass(frozen=True, slots=True)
class EditionRow:
    """What a citation token needs of one of reporters-db's editions (eyecite's ``Edition``)."""

    short_name: str
    reporter: str  # the reporter's (or law's, or journal's) short name
    source: str  # "reporters", "laws" or "journals"
    cite_type: str
    scotus: bool
    start: int | None  # first and last year; None when open
    end: int | None


@dataclass(frozen=True, slots=True)
class Extractor:
    """One of eyecite's token extractors: its regex and what a match of it is."""

    regex: str
    flags: int
    strings: tuple[str, ...]  # one of these must occur (whitespace removed) for the regex to be tried
    kind: TokenKind
    short: bool = False  # a short-form citation regex ("410 U.S. at 116")
    exact: tuple[int, ...] = ()  # editions (indices into the table's) matched exactly …
    variation: tuple[int, ...] = ()  # … and by a variant spelling


@dataclass(frozen=True)
class TokenTable:
    """Every extractor of the installed eyecite, with what the narrower prefilter needs to know of it.

    Kept as columns (one list per field, an extractor's index into each) and read back as such: a
    process that starts from the file builds no object per extractor (``extractor(i)`` makes one)."""

    key: str  # which eyecite and reporters-db it was read from, and FORMAT
    editions: tuple[EditionRow, ...]
    regexes: list[str]
    flags: list[int]
    kinds: list[TokenKind]
    shorts: list[bool]
    exact: list[tuple[int, ...]]  # editions (indices into ``editions``) matched exactly …
    variation: list[tuple[int, ...]]  # … and by a variant spelling
    #: the prefilters, whitespace-free string → the extractors listing it (in table order): case-sensitive,
    #: case-insensitive (lower-cased), and the volume-first extractors' strings (below)
    case_sensitive: list[tuple[str, list[int]]]
    case_insensitive: list[tuple[str, list[int]]]
    volume_first_strings: list[tuple[str, list[int]]]
    unfiltered: list[int]  # extractors with no strings: tried on every text
    nominative: frozenset[str]  # eyecite's nominative reporters: another citation overlapping one wins
    #: extractors whose every match has its reporter right after "<number> ", and whose reporter group is
    #: exactly the alternation of their strings (tried only where one of those strings follows a number)
    volume_first: frozenset[int] = frozenset()
    #: other volume-first extractors (tried at any position a number and a space precede)
    after_any_volume: frozenset[int] = frozenset()
    #: reporter-first extractors: a literal every match contains (not tried on a paragraph without it)
    required_literal: Mapping[int, str] = field(default_factory=dict)

    def __len__(self) -> int:
        return len(self.regexes)

    def extractor(self, i: int) -> Extractor:
        """Extractor ``i`` as one record (its strings are those of the prefilters that list it)."""
        strings = tuple(
            s for table in (self.case_sensitive, self.case_insensitive) for s, listed in table if i in listed
        )
        return Extractor(
            self.regexes[i],
            self.flags[i],
            strings,
            self.kinds[i],
            self.shorts[i],
            self.exact[i],
            self.variation[i],
        )

    def to_bytes(self) -> bytes:
        """The table as a file's contents: a header line with a digest of the JSON body, then the body."""
        import orjson

        body = orjson.dumps(
            {
                "key": self.key,
                "editions": [list(_edition_fields(e)) for e in self.editions],
                "regexes": self.regexes,
                "flags": self.flags,
                "kinds": [int(k) for k in self.kinds],
                "shorts": self.shorts,
                "exact": self.exact,
                "variation": self.variation,
                "case_sensitive": self.case_sensitive,
                "case_insensitive": self.case_insensitive,
                "volume_first_strings": self.volume_first_strings,
                "unfiltered": self.unfiltered,
                "nominative": sorted(self.nominative),
                "volume_first": sorted(self.volume_first),
                "after_any_volume": sorted(self.after_any_volume),
                "required_literal": sorted(self.required_literal.items()),
            }
        )
        return b"citecheck-tokenizer %d %s\n" % (FORMAT, _digest(body).encode()) + body

    @classmethod
    def from_bytes(cls, data: bytes) -> TokenTable:
        """Read what :meth:`to_bytes` wrote. The digest proves the body is what was written (a file cut
        short or changed is refused), so the columns are checked for shape, not value by value.

        Raises:
            ValueError: the data is not such a table (truncated, altered, another format).
        """
        import orjson

        head, sep, body = data.partition(b"\n")
        parts = head.split(b" ")
        if not sep or len(parts) != 3 or parts[0] != b"citecheck-tokenizer" or parts[1] != b"%d" % FORMAT:
            raise ValueError("not a tokenizer table of this format")
        if parts[2].decode("ascii", "replace") != _digest(body):
            raise ValueError("the tokenizer table's digest does not match its contents")
        try:
            raw = orjson.loads(body)
            kinds = list(map(TokenKind, raw["kinds"]))
            table = cls(
                key=str(raw["key"]),
                editions=tuple(EditionRow(*row) for row in raw["editions"]),
                regexes=raw["regexes"],
                flags=raw["flags"],
                kinds=kinds,
                shorts=raw["shorts"],
                exact=list(map(tuple, raw["exact"])),
                variation=list(map(tuple, raw["variation"])),
                case_sensitive=[(string, listed) for string, listed in raw["case_sensitive"]],
                case_insensitive=[(string, listed) for string, listed in raw["case_insensitive"]],
                volume_first_strings=[(string, listed) for string, listed in raw["volume_first_strings"]],
                unfiltered=raw["unfiltered"],
                nominative=frozenset(raw["nominative"]),
                volume_first=frozenset(raw["volume_first"]),
                after_any_volume=frozenset(raw["after_any_volume"]),
                required_literal=dict(map(tuple, raw["required_literal"])),
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise ValueError(f"malformed tokenizer table: {exc}") from exc
        n = len(table.regexes)
        if not n or any(
            len(column) != n
            for column in (table.flags, table.kinds, table.shorts, table.exact, table.variation)
        ):
            raise ValueError("malformed tokenizer table: columns of different lengths")
        return table


def _edition_fields(e: EditionRow) -> tuple[object, ...]:
    return (e.short_name, e.reporter, e.source, e.cite_type, e.scotus, e.start, e.end)


def _digest(body: bytes) -> str:
    return hashlib.blake2b(body, digest_size=16).hexdigest()


# --- reading the table out of eyecite -------------------------------------------------------------

#: How a reporter extractor's regex may begin before its ``(?P<reporter>…)`` group for the narrower
#: prefilter below: each ends with a mandatory number (its last character a digit, or the ``A`` of
#: ``402A`` / ``17A`` / ``\\d{1,4}A?``) and ONE literal space. Checked against the regex text when the
#: table is built.
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
_I = int(re.I)


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


def _volume_prefix(regex: str) -> bool:
    """Whether the regex opens with one of ``_VOLUME_FIRST`` and then its reporter group."""
    at = regex.find("(?P<reporter>")
    return at >= 0 and regex[:at] in _VOLUME_FIRST


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


def _volume_first(e: Extractor, relax_ws: Any) -> bool:
    """Whether every match of ``e`` has its reporter group right after "<number> ", and that group is
    exactly the alternation of its prefilter strings (whitespace-relaxed, as eyecite builds it): then
    one of those strings, whitespace removed, starts right after that space."""
    if not e.strings or e.flags & _I:
        return False
    marker = "(?P<reporter>"
    at = e.regex.find(marker)
    if at < 0 or e.regex[:at] not in _VOLUME_FIRST:
        return False
    body = _reporter_group(e.regex, at + len(marker))
    alternatives = set(re.split(r"(?<!\\)\|", body))
    return alternatives == {relax_ws(re.escape(s)) for s in e.strings}


def build_table(key: str = "") -> TokenTable:
    """Read every extractor out of the installed eyecite (imports it: about half a second)."""
    from eyecite import tokenizers

    extractors, rows = _extractors(tokenizers.EXTRACTORS)
    strict = frozenset(i for i, e in enumerate(extractors) if _volume_first(e, tokenizers._relax_ws))
    return TokenTable(
        key=key,
        editions=rows,
        regexes=[e.regex for e in extractors],
        flags=[e.flags for e in extractors],
        kinds=[e.kind for e in extractors],
        shorts=[e.short for e in extractors],
        exact=[e.exact for e in extractors],
        variation=[e.variation for e in extractors],
        case_sensitive=_grouped(
            (_WS.sub("", s), i) for i, e in enumerate(extractors) if not e.flags & _I for s in e.strings
        ),
        case_insensitive=_grouped(
            (_WS.sub("", s).lower(), i) for i, e in enumerate(extractors) if e.flags & _I for s in e.strings
        ),
        volume_first_strings=_grouped(
            (_WS.sub("", s), i) for i in sorted(strict) for s in extractors[i].strings
        ),
        unfiltered=[i for i, e in enumerate(extractors) if not e.strings],
        nominative=frozenset(tokenizers.NOMINATIVE_REPORTER_NAMES),
        volume_first=strict,
        after_any_volume=_after_any_volume(extractors, strict),
        required_literal=_required_literals(extractors),
    )


def _extractors(found: Any) -> tuple[list[Extractor], tuple[EditionRow, ...]]:
    """eyecite's extractors as rows of the table, their editions numbered in order of first use; and the
    editions' rows, in that order."""
    editions: dict[Any, int] = {}  # eyecite's Edition (equal by value, as its de-duplication is) → index

    def numbered(values: Any) -> tuple[int, ...]:
        return tuple(dict.fromkeys(editions.setdefault(e, len(editions)) for e in values))

    extractors = []
    for e in found:
        constructor = getattr(e.constructor, "__self__", None)
        kind = _KIND_OF_CLASS[getattr(constructor, "__name__", "")]
        exact = numbered(e.extra.get("exact_editions", ()))
        variation = tuple(i for i in numbered(e.extra.get("variation_editions", ())) if i not in exact)
        extractors.append(
            Extractor(
                e.regex, int(e.flags), tuple(e.strings), kind, bool(e.extra.get("short")), exact, variation
            )
        )
    rows = tuple(
        EditionRow(
            e.short_name,
            e.reporter.short_name,
            e.reporter.source,
            e.reporter.cite_type,
            bool(e.reporter.is_scotus),
            e.start.year if e.start else None,
            e.end.year if e.end else None,
        )
        for e in editions  # in index order
    )
    return extractors, rows


def _after_any_volume(extractors: list[Extractor], strict: frozenset[int]) -> frozenset[int]:
    """The case-sensitive extractors whose regex begins with a volume but that are not volume-first."""
    return frozenset(
        i
        for i, e in enumerate(extractors)
        if _volume_prefix(e.regex) and not e.flags & _I and i not in strict
    )


def _required_literals(extractors: list[Extractor]) -> dict[int, str]:
    """For the case-sensitive extractors that list no strings: the literal their regex must contain."""
    return {
        i: lit
        for i, e in enumerate(extractors)
        if not e.strings and not e.flags & _I and (lit := _leading_literal(e.regex)) is not None
    }


def _grouped(items: Iterator[tuple[str, int]]) -> list[tuple[str, list[int]]]:
    """string → the extractors listing it, in table order (the strings in order of first listing)."""
    grouped: dict[str, list[int]] = {}
    for string, i in items:
        listed = grouped.setdefault(string, [])
        if not listed or listed[-1] != i:
            listed.append(i)
    return list(grouped.items())


# --- tokenizing from the table --------------------------------------------------------------------


@dataclass(slots=True)
class Token:
    """One match of an extractor (eyecite's token): the span of the regex's group 1 and its groups."""

    kind: TokenKind
    start: int
    end: int
    groups: dict[str, str | None]
    short: bool = False
    exact: tuple[int, ...] = ()  # editions, as the table numbers them
    variation: tuple[int, ...] = ()
    extractor: int = -1  # the table's extractor that matched (ties between extractors are ordered by it)


#: the kinds of token ``eyecite_adapter`` makes no hit of: with ``tokenize(every=False)`` one is kept only
#: where it covers the start of another token (elsewhere it changes no other token: ``Tokenizer.tokenize``)
_IGNORED_BY_HITS = frozenset({TokenKind.STOP_WORD, TokenKind.PARAGRAPH})


class Tokenizer:
    """eyecite's ``AhocorasickTokenizer`` over a :class:`TokenTable`, without the word splitting.

    The extractors a paragraph may need are chosen as eyecite chooses them (an Aho-Corasick automaton
    over the whitespace-free strings that select each one); overlapping tokens are resolved as
    eyecite resolves them (sorted by start, the longer first; the same span from two regexes merged;
    a nominative reporter's citation gives way to another citation over it). With ``narrow`` (the
    default) a volume-first reporter regex is only ``match``ed where one of its strings starts right
    after "<number> " — eyecite runs it over the whole paragraph whenever its string occurs anywhere,
    and ``P``, ``W.``, ``A.`` or ``Or`` occur in almost every paragraph of prose: ~45 regexes over every
    paragraph, half of a long document's extraction time. Such a match begins in the word before that
    space (or at the space before that word), so trying the regex there, in order and skipping any
    start inside the previous match, is what ``finditer`` returns.
    """

    narrow = True  # the narrower prefilter (tests turn it off to compare)

    def __init__(self, table: TokenTable) -> None:
        import ahocorasick

        self.table = table
        self._compiled: list[re.Pattern[str] | None] = [None] * len(table)
        self._whole: dict[int, Any] = {}  # extractor → how its matches over a whole text are found
        self._ahocorasick = ahocorasick
        self._every_string: Any = None  # the automaton of every case-sensitive string (``extractors_for``)
        self._case_insensitive = _automaton(table.case_insensitive, ahocorasick)
        volume_first = table.volume_first
        #: the case-sensitive strings of the extractors that are not volume-first (388 of 4,414: a
        #: volume-first extractor is tried where its string follows a number, whatever else the text has)
        self._other_strings = _automaton(
            [
                (string, others)
                for string, listed in table.case_sensitive
                if (others := [i for i in listed if i not in volume_first])
            ],
            ahocorasick,
        )
        self._unfiltered_rank = {i: k for k, i in enumerate(table.unfiltered)}
        #: the stop words', paragraph marks', Id.'s and supra's regexes are those ``_all_clear`` knows
        self._ignored_known = sorted(
            (int(table.kinds[i]), table.regexes[i], table.flags[i])
            for i in range(len(table))
            if table.kinds[i] in (*_IGNORED_BY_HITS, TokenKind.ID, TokenKind.SUPRA)
        ) == sorted(_KNOWN_IGNORED)
        #: each case-sensitive extractor's strings, with its place in each string's list; and as a tuple
        self._strings_of: dict[int, list[tuple[str, int]]] | None = None  # (both built when first needed)
        self._string_sets: dict[int, tuple[str, ...]] = {}
        # the case-insensitive strings (19: "id.", "supra", the stop words) select three extractor lists;
        # "v" alone is found a few hundred times in a page. Each list's first match is found with str.find
        by_list: dict[tuple[int, ...], list[str]] = {}
        for string, listed in table.case_insensitive:
            by_list.setdefault(tuple(listed), []).append(string)
        self._insensitive_lists = [(tuple(found), listed) for listed, found in by_list.items()]
        self._volume_first_filter = _automaton(table.volume_first_strings, ahocorasick, with_length=True)
        self._longest = max((len(s) for s, _ in table.volume_first_strings), default=1)
        #: a path → the reporter lengths whose next characters decide between a short-form and a full regex,
        #: and (what follows each, ``_follows``) → the path's extractors that can match (``_volume_tokens``)
        self._need_of: dict[int, str | None] = {}  # ``_needs``' answers
        self._after_volume_plans: dict[
            str, tuple[tuple[int, ...], dict[tuple[str, ...], tuple[int, ...]]]
        ] = {}
        #: each extractor's prefilter: volume-first, after any volume, or neither (a list: read per extractor)
        self._how = [
            _HOW_STRICT if i in table.volume_first else _HOW_ANYWHERE if i in table.after_any_volume else None
            for i in range(len(table))
        ]
        # eyecite's volume-first regexes all open with "(?:^|[^a-zA-Z0-9])": a match starts at the text's
        # start or on a character that is not an ASCII letter or digit, so only those starts are tried
        self._non_alnum_start = all(
            table.regexes[i].startswith(_START_OR_NON_ALNUM)
            for i in (*table.volume_first, *table.after_any_volume)
        )

    @property
    def _case_sensitive(self) -> Any:
        """The automaton of every case-sensitive string (eyecite's prefilter; built when first asked)."""
        if self._every_string is None:
            self._every_string = _automaton(self.table.case_sensitive, self._ahocorasick)
        return self._every_string

    def regex(self, i: int) -> re.Pattern[str]:
        """Extractor ``i``'s compiled regex (compiled on first use: most are never needed)."""
        compiled = self._compiled[i]
        if compiled is None:
            compiled = self._compiled[i] = re.compile(self.table.regexes[i], self.table.flags[i])
        return compiled

    def tokenize(self, text: str, *, every: bool = True) -> list[Token]:
        """The tokens eyecite's tokenizer would return for ``text``, overlaps resolved, in order.

        ``every=False``: without the stop words and paragraph marks (``_IGNORED_BY_HITS``) that cover the
        start of no other token. Such a token changes no other: the tokens after it in the order below
        start at or after its end (those are never its kind's: its kind's matches do not overlap, and the
        two kinds' never do: checked), so it neither drops one nor merges with one, and the next token
        kept replaces it as the last. The other tokens are then exactly ``tokenize(text)``'s."""
        if self.narrow:
            return self.resolved(self._ordered_tokens(text, every))
        return self.resolved(sorted(self.extract_tokens(text), key=_by_span))

    def resolved(self, tokens: list[Token]) -> list[Token]:
        """eyecite's overlap resolution of ``tokens`` (sorted): one span's tokens of one kind, form and
        groups merged into the first, a token starting inside the last kept one dropped (a nominative
        reporter's citation giving way to another citation). Merging changes the tokens in place."""
        out: list[Token] = []
        last: Token | None = None
        offset = 0
        nominative = self.table.nominative
        for token in tokens:
            if last is not None and _merge(last, token):
                continue
            if offset > token.start:
                if (
                    last is not None
                    and token.kind is TokenKind.CITATION
                    and self._nominative(last, nominative)
                ):
                    out.pop()  # a nominative reporter's citation gives way (eyecite #221, #174)
                else:
                    continue
            out.append(token)
            offset = token.end
            last = token
        return out

    def _nominative(self, token: Token, names: frozenset[str]) -> bool:
        if token.kind is not TokenKind.CITATION:
            return False
        editions = token.exact or token.variation
        return bool(editions) and self.table.editions[editions[0]].reporter in names

    def extractors_for(self, text: str) -> list[int]:
        """The extractors eyecite would try on ``text``, in the order they are tried."""
        stripped = "".join(text.split())  # what ``\s+`` removes: str.isspace's characters
        found = dict.fromkeys(self.table.unfiltered)
        for _, listed in self._case_sensitive.iter(stripped):
            found.update(dict.fromkeys(listed))
        found.update(dict.fromkeys(self._insensitive_order(stripped.lower())))
        return list(found)

    def _insensitive_order(self, lowered: str) -> list[int]:
        """The case-insensitive extractors chosen for the (lower-cased, whitespace-free) text, in order."""
        found: dict[int, None] = {}
        firsts: dict[int, tuple[int, ...]] = {}  # where each list's first string match ends → the list
        for strings, listed in self._insensitive_lists:
            ends = [at + len(s) for s in strings if (at := lowered.find(s)) >= 0]
            if ends:
                end = min(ends)
                if end in firsts:  # two lists first found at one place: their order is the automaton's
                    for _, ordered in self._case_insensitive.iter(lowered):
                        found.update(dict.fromkeys(ordered))
                    return list(found)
                firsts[end] = listed
        for end in sorted(firsts):
            found.update(dict.fromkeys(firsts[end]))
        return list(found)

    def extract_tokens(self, text: str) -> Iterator[Token]:
        """Every chosen extractor's matches over the whole text (eyecite's way, no narrower prefilter),
        extractors in order, each one's matches left to right."""
        table = self.table
        for i in self.extractors_for(text):
            for m in self.regex(i).finditer(text):
                yield _token(m, table, i)

    def _ordered_tokens(self, text: str, every: bool) -> list[Token]:
        """The chosen extractors' matches sorted as eyecite sorts them: by start, the longer first, and
        one span's tokens in the order their extractors are chosen (``extractors_for``'s). That order is
        found only for the extractors of such ties (``_rank``): what else it decides is which
        extractors run at all, and that is known without it (a volume-first extractor runs where one
        of its strings follows a number; the others where ``_other_strings`` finds one of theirs)."""
        table = self.table
        stripped = _without_whitespace(text)
        tokens: list[Token] = []
        ignored: list[int] = []
        anywhere = self._volume_tokens(text, tokens)
        literal = table.required_literal
        kinds = table.kinds
        for i in self._others_chosen(stripped):
            if self._how[i] is _HOW_ANYWHERE:
                if anywhere:
                    self._match_at(i, text, anywhere, tokens)
            elif not every and kinds[i] in _IGNORED_BY_HITS:
                ignored.append(i)
            elif (needed := literal.get(i)) is None or needed in text:
                tokens.extend(_token(m, table, i) for m in self._matches(i, text))
        if ignored and not self._all_clear(text, tokens):
            self._covering(text, [(i, self._spans(i, text)) for i in ignored], tokens)
        tokens.sort(key=_by_span)
        return self._ties_ordered(tokens, stripped)

    def _match_at(self, i: int, text: str, starts: list[int], out: list[Token]) -> None:
        """``regex(i).finditer(text)``'s matches, where every one starts at one of ``starts`` (sorted)."""
        regex = self.regex(i)
        last = 0
        for at in starts:
            if at < last:
                continue
            hit = regex.match(text, at)
            if hit is not None:
                out.append(_token(hit, self.table, i))
                last = hit.end()

    def _others_chosen(self, stripped: str) -> list[int]:
        """The extractors eyecite would try on the text that are not volume-first (any order)."""
        chosen = list(self.table.unfiltered)
        for _, listed in self._other_strings.iter(stripped):
            chosen += listed
        if self._insensitive_lists:
            lowered = stripped.lower()
            for strings, listed in self._insensitive_lists:
                if any(s in lowered for s in strings):
                    chosen += listed
        return list(dict.fromkeys(chosen))

    def _spans(self, i: int, text: str) -> list[tuple[int, int, int]]:
        """(where the match starts, its group 1's start and end) of each of extractor ``i``'s matches."""
        how = self._whole.get(i)
        if how is None:
            self._matches(i, text)  # makes the matcher
            how = self._whole[i]
        spans = getattr(how, "spans", None)
        if spans is not None:
            return spans(text)  # type: ignore[no-any-return]
        return [(m.start(), *m.span(1)) for m in how(text)]

    def _all_clear(self, text: str, tokens: list[Token]) -> bool:
        """Whether no stop word or paragraph mark can cover any of ``tokens``' starts, known without
        looking for them. With eyecite 2.7's regexes (``_KNOWN_IGNORED``; checked when the tokenizer is
        made): a stop word is ``[^\\sa-zA-Z0-9]*`` + one of its words + ``[^\\sa-zA-Z0-9]*`` between
        whitespace, so a digit inside one follows a letter (only ``e.g.``'s unescaped dots match one, after
        ``e`` or ``g``) and a word after whitespace inside one starts ``r``, ``a``, ``g`` or with punctuation
        followed by whitespace; a paragraph mark is a line break. A token starting with an ASCII digit
        after no ASCII letter or digit (every volume-first citation), an ``Id.`` and a ``supra`` (after
        whitespace, ``i``/punctuation + ``s``: neither ``in re`` nor ``see`` fits) start inside neither."""
        if not self._ignored_known:
            return False
        kinds = (TokenKind.ID, TokenKind.SUPRA)
        for t in tokens:
            q = t.start
            if t.kind in kinds:
                continue
            if text[q] not in _ASCII_DIGITS or (q > 0 and text[q - 1] in _ASCII_ALNUM):
                return False
        return True

    def _covering(
        self, text: str, ignored: list[tuple[int, list[tuple[int, int, int]]]], tokens: list[Token]
    ) -> None:
        """Add to ``tokens`` those of the ignored kinds' matches that cover the start of one of them
        (all of them, should two of those kinds' matches overlap)."""
        table = self.table
        every_span = sorted(span[1:] for _, spans in ignored for span in spans)
        if any(every_span[k][1] > every_span[k + 1][0] for k in range(len(every_span) - 1)):
            for i, spans in ignored:  # never on eyecite's stop words and paragraph marks; kept exact anyway
                tokens.extend(_token(self.regex(i).match(text, at), table, i) for at, _, _ in spans)  # type: ignore[arg-type]
            return
        starts = sorted({t.start for t in tokens})
        for i, spans in ignored:
            regex = self.regex(i)
            for at, s, e in spans:
                k = bisect_left(starts, s)
                if k < len(starts) and starts[k] < e:
                    tokens.append(_token(regex.match(text, at), table, i))  # type: ignore[arg-type]

    def _ties_ordered(self, tokens: list[Token], stripped: str) -> list[Token]:
        """``tokens`` (sorted by span), each run of one span from several extractors in their ``_rank``
        order. (One extractor makes no two tokens of one span: its matches do not overlap.)"""
        ranks: dict[int, tuple[int, ...]] = {}
        n = len(tokens)
        k = 0
        while k < n - 1:
            t = tokens[k]
            j = k + 1
            while j < n and tokens[j].start == t.start and tokens[j].end == t.end:
                j += 1
            if j - k > 1 and not _order_free(tokens, k, j):
                run = tokens[k:j]
                strings = self._strings()
                first = strings.get(run[0].extractor)
                if first and all(strings.get(u.extractor) == first for u in run):
                    # the same strings select them all: the one found first lists them in table order
                    run.sort(key=_by_extractor)
                else:
                    for u in run:
                        if u.extractor not in ranks:
                            ranks[u.extractor] = self._rank(u.extractor, stripped)
                    run.sort(key=lambda u: ranks[u.extractor])
                tokens[k:j] = run
            k = j
        return tokens

    def _strings(self) -> dict[int, tuple[str, ...]]:
        """Each case-sensitive extractor's strings (built when first needed)."""
        if self._strings_of is None:
            strings_of: dict[int, list[tuple[str, int]]] = {}
            for string, listed in self.table.case_sensitive:
                for k, j in enumerate(listed):
                    strings_of.setdefault(j, []).append((string, k))
            self._strings_of = strings_of
            self._string_sets = {i: tuple(sorted(s for s, _ in found)) for i, found in strings_of.items()}
        return self._string_sets

    def _rank(self, i: int, stripped: str) -> tuple[int, ...]:
        """Where extractor ``i`` comes in ``extractors_for``'s order on the text ``stripped`` is the
        whitespace-free form of: those with no strings first (table order); then the case-sensitive ones
        by their first string found (eyecite's automaton reports the strings by where they end, the
        longer first where two end at one place, and a string's extractors in table order); then the
        case-insensitive lists."""
        first = self._unfiltered_rank.get(i)
        if first is not None:
            return (0, first)
        self._strings()
        assert self._strings_of is not None
        best: tuple[int, ...] | None = None
        for string, k in self._strings_of.get(i, ()):
            at = stripped.find(string)
            if at >= 0:
                key = (1, at + len(string), -len(string), k)
                if best is None or key < best:
                    best = key
        if best is not None:
            return best
        order = self._insensitive_order(stripped.lower())
        return (2, order.index(i) if i in order else len(order))

    def _matches(self, i: int, text: str) -> Iterator[re.Match[str]]:
        """``regex(i).finditer(text)``, found faster for the regexes tried over every paragraph (the
        same matches: ``tests/extract/test_tokenizer.py``)."""
        how = self._whole.get(i)
        if how is None:
            how = self._whole[i] = _whole_text_matcher(
                self.table.regexes[i], self.table.flags[i], self.regex(i)
            )
        return how(text)  # type: ignore[no-any-return]

    def _volume_tokens(self, text: str, out: list[Token]) -> list[int]:
        """Add the volume-first extractors' matches to ``out`` (each number's positions, each
        extractor tried where one of its strings follows the number, as ``finditer`` would find it: the
        numbers' positions come in order, a start inside the extractor's last match skipped); return
        the positions for any reporter, in order."""
        width = self._longest
        strings = self._volume_first_filter
        plans = self._after_volume_plans
        compiled = self._compiled
        table = self.table
        last: dict[int, int] = {}  # extractor → the end of its last match
        every: list[int] = []
        n = len(text)
        for m in _AFTER_VOLUME.finditer(text):
            start = m.end()
            window = "".join(text[start : start + _SHORT_WINDOW].split())
            depth = strings.longest_prefix(window)
            if depth == len(window) and start + _SHORT_WINDOW < n:
                span = 2 * width
                while True:
                    window = "".join(text[start : start + span].split())
                    if len(window) >= width or start + span >= n:
                        break
                    span *= 2
                window = window[:width]
                depth = strings.longest_prefix(window)
            word = start - 2  # the volume's last character; its word runs back to a space
            while word > 0 and not text[word - 1].isspace():
                word -= 1
            positions: range | list[int] = range(max(word - 1, 0), start - 1)
            if self._non_alnum_start:
                positions = [p for p in positions if p == 0 or text[p] not in _ASCII_ALNUM]
            # a number's positions all come before the next number's (its word starts after this one's space)
            every += positions
            if not depth or not positions:
                continue
            path = window[:depth]
            plan = plans.get(path)
            if plan is None:
                plan = plans[path] = self._path_plan(path)
            ends, chosen = plan
            follows = tuple(_follows(window, k) for k in ends)
            ids = chosen.get(follows)
            if ids is None:
                ids = chosen[follows] = self._path_extractors_for(path, ends, follows)
            for i in ids:
                regex = compiled[i] or self.regex(i)
                after = last.get(i, 0)
                for at in positions:
                    if at < after:
                        continue
                    hit = regex.match(text, at)
                    if hit is not None:
                        out.append(_token(hit, table, i))
                        after = last[i] = hit.end()
        return every

    def _path_plan(self, path: str) -> tuple[tuple[int, ...], dict[tuple[str, ...], tuple[int, ...]]]:
        """The reporter lengths along ``path`` (its strings') of the path's extractors that need an "at" or a
        page right after their reporter (``_needs``), and an empty choice per what follows them."""
        strings = self._volume_first_filter
        ends = tuple(
            k
            for k in range(1, len(path) + 1)
            if (found := strings.get(path[:k], None)) is not None
            and any(self._needs(i) is not None for i in found[1])
        )
        return ends, {}

    def _needs(self, i: int) -> str | None:
        """What must follow volume-first extractor ``i``'s reporter (whitespace and a comma aside): ``_AT``
        (a short form), ``_PAGE`` (a full citation), or None (anything: its regex has another shape)."""
        if i not in self._need_of:
            regex = self.table.regexes[i]
            marker = "(?P<reporter>"
            at = regex.find(marker)
            tail = (
                regex[at + len(marker) + len(_reporter_group(regex, at + len(marker))) + 1 :]
                if at >= 0
                else ""
            )
            self._need_of[i] = (
                _AT if tail.startswith(_SHORT_TAILS) else _PAGE if tail.startswith(_FULL_TAILS) else None
            )
        return self._need_of[i]

    def _path_extractors_for(
        self, path: str, ends: tuple[int, ...], follows: tuple[str, ...]
    ) -> tuple[int, ...]:
        """The path's extractors (``_path_extractors``) that can match when what follows their reporter of
        each length in ``ends`` is as ``follows`` says: one needing an "at" or a page is left out when no
        reporter of its own along the path is followed by it (nor by too few characters to tell)."""
        strings = self._volume_first_filter
        follow_at = dict(zip(ends, follows, strict=True))
        out = []
        for i in self._path_extractors(path):
            need = self._needs(i)
            if need is not None and not any(
                follow_at[k] in (need, _UNKNOWN) for k in ends if i in strings.get(path[:k])[1]
            ):
                continue
            out.append(i)
        return tuple(out)

    def _path_extractors(self, path: str) -> tuple[int, ...]:
        """The extractors of the volume-first strings along ``path`` (the table's, whatever the text)."""
        strings = self._volume_first_filter
        return tuple(
            dict.fromkeys(
                i
                for k in range(1, len(path) + 1)
                if (found := strings.get(path[:k], None)) is not None
                for i in found[1]
            )
        )


#: How eyecite 2.7's volume-first regexes go on after their reporter group: a short form's "at" …
_SHORT_TAILS = (",? at\\s?(p(\\.|age)?)? ", " at\\s?(p(\\.|age)?)? ")
#: … or a full citation's page: a digit (any Unicode one: ``\d``), a roman numeral's letter or "_"
_PAGE_GROUP = (
    "(?P<page>(?:\\d+|c?(?:xc|xl|l?x{1,3})(?:ix|iv|v?i{0,3})|(?:c?l?)(?:ix|iv|v?i{1,3})|(?:lv|cv|cl|clv)|_+))"
)
_FULL_TAILS = (",? " + _PAGE_GROUP, " " + _PAGE_GROUP, " (?P<page>\\d")
_PAGE_OPENING = frozenset("cxliv_")
#: ``_follows``' answers: "at", a page's first character, neither, or too few characters read to tell
_AT = "at"
_PAGE = "page"
_NEITHER = "neither"
_UNKNOWN = "unknown"


def _follows(window: str, k: int) -> str:
    """What follows the first ``k`` characters of ``window`` (whitespace-free text after a number), a comma
    skipped: an "at" (``_AT``), what a page opens with (``_PAGE``), ``_NEITHER``, or ``_UNKNOWN`` where the
    window has fewer than three characters after them."""
    rest = window[k : k + 3]
    if len(rest) < 3:
        return _UNKNOWN
    if rest[0] == ",":
        rest = rest[1:]
    if rest.startswith("at"):
        return _AT
    first = rest[0]
    return _PAGE if first in _PAGE_OPENING or first.isdecimal() else _NEITHER


_START_OR_NON_ALNUM = "(?:^|[^a-zA-Z0-9])"
_ASCII_DIGITS = frozenset("0123456789")
#: eyecite 2.7's regexes of the kinds ``Tokenizer._all_clear`` reasons about: (kind, regex, flags)
_KNOWN_IGNORED = (
    (int(TokenKind.ID), r"(?:^|\s)(id\.,?|ibid\.)(?:\s|$)", int(re.I)),
    (int(TokenKind.SUPRA), r"(?:^|\s)([^\sa-zA-Z0-9]*supra[^\sa-zA-Z0-9]*)(?:\s|$)", int(re.I)),
    (int(TokenKind.PARAGRAPH), r"(\n)", 0),
    (
        int(TokenKind.STOP_WORD),
        r"(?:^|\s)([^\sa-zA-Z0-9]*(?P<stop_word>v|in re|re|quoting|e.g.|parte|denied|citing|aff'd|affirmed|"
        r"remanded|see also|see|granted|dismissed|Cf)[^\sa-zA-Z0-9]*)(?:\s|$)",
        int(re.I),
    ),
)
#: ``Tokenizer._how``'s marks (compared by identity)
_HOW_STRICT = "volume first"
_HOW_ANYWHERE = "after any volume"
#: how many characters after a number are read first for the reporter that may start there
_SHORT_WINDOW = 16
_ASCII_ALNUM = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
_AT_START_OR_SPACE = r"(?:^|\s)"
#: eyecite's placeholder-citation regex (``___ U.S. ___``) opens with these characters and a space
_PLACEHOLDER_OPENING = r"([_—–-]+\s"


def _whole_text_matcher(source: str, flags: int, compiled: re.Pattern[str]) -> Any:
    r"""A function giving ``compiled.finditer(text)``'s matches, faster where the regex's shape allows.

    ``(?:^|\s)REST`` (the ``Id.``, ``supra`` and stop-word regexes): Python's ``re`` tries both branches at
    every position; ``\sREST`` has a first character it can skip to. A match at the text's start is
    tried first, then the rest of the text (``^`` matches only at the real start, so a search from
    ``pos`` behaves as ``finditer``'s next try there). The placeholder regex (``[_—–-]+\s…``) cannot
    match a text where no such character is followed by whitespace; that is checked with ``str.find``.
    """
    if source.startswith(_AT_START_OR_SPACE):
        rest = source[len(_AT_START_OR_SPACE) :]
        at_start = re.compile("^" + rest, flags)
        after_space = re.compile(r"\s" + rest, flags)
        lowered = _lower_case_form(rest, flags)
        starts = _LITERAL_STARTS.get((rest, flags))

        def start_or_space(text: str) -> Iterator[re.Match[str]]:
            first = at_start.match(text)
            if first is not None:
                yield first
            pos = first.end() if first is not None else 0
            if starts is not None and text.isascii():
                # only where the regex's literal ("id.", "supra") stands: the places a match can start,
                # in order, each tried as ``finditer`` would (none inside the last match)
                last = pos
                for at in starts(text.lower(), pos):
                    if at >= last and (hit := after_space.match(text, at)) is not None:
                        yield hit
                        last = hit.end()
                return
            if lowered is None or not text.isascii():
                yield from after_space.finditer(text, pos)
                return
            # an ASCII text: found in its lower-case copy (same offsets) without IGNORECASE, each match
            # then taken from the text itself (its groups as written)
            for m in lowered.finditer(text.lower(), pos):
                hit = after_space.match(text, m.start())
                if hit is not None:  # always: the two regexes agree on an ASCII text
                    yield hit

        def spans(text: str) -> list[tuple[int, int, int]]:
            """(start, group 1's start and end) of each match: on an ASCII text those of the lower-cased
            copy's matches (the same offsets; no match taken again from the text)."""
            first = at_start.match(text)
            out = [] if first is None else [(0, *first.span(1))]
            pos = first.end() if first is not None else 0
            if lowered is None or not text.isascii():
                out += [(m.start(), *m.span(1)) for m in after_space.finditer(text, pos)]
            else:
                out += [(m.start(), *m.span(1)) for m in lowered.finditer(text.lower(), pos)]
            return out

        start_or_space.spans = spans  # type: ignore[attr-defined]
        return start_or_space
    if source.startswith(_START_OR_NON_ALNUM):
        # "(?:^|[^a-zA-Z0-9])REST": the try at the text's start as written, then "[^a-zA-Z0-9]REST", which
        # ``re`` tries only where such a character stands (the group numbers are the same)
        after_other = re.compile("[^a-zA-Z0-9]" + source[len(_START_OR_NON_ALNUM) :], flags)

        def start_or_non_alnum(text: str) -> Iterator[re.Match[str]]:
            first = compiled.match(text)
            if first is not None:
                yield first
            yield from after_other.finditer(text, first.end() if first is not None else 0)

        return start_or_non_alnum
    if source.startswith(_PLACEHOLDER_OPENING):
        dashes = _PLACEHOLDER_OPENING[2:-4]

        def placeholder(text: str) -> Iterator[re.Match[str]]:
            if _dash_then_space(text, dashes):
                yield from compiled.finditer(text)

        return placeholder
    return compiled.finditer


def _without_whitespace(text: str) -> str:
    """``"".join(text.split())`` (what ``\\s+`` removes: str.isspace's characters), without a string per
    word where the only whitespace is the space (a normalised paragraph's): every other whitespace
    character is unprintable, so a text that is printable once its spaces are gone had no other."""
    plain = text.replace(" ", "")
    return plain if plain.isprintable() else "".join(text.split())


def _id_starts(lowered: str, pos: int) -> Iterator[int]:
    r"""Where a match of ``\s(id\.,?|ibid\.)(?:\s|$)`` can start in the lower-cased ASCII text
    ``lowered`` (every place at or after ``pos``, maybe some before it: the caller skips those), in
    order: the character before each "id.", and three before it where "ib" precedes it ("ibid.").
    "id." cannot overlap itself, so the places come in order."""
    at = lowered.find("id.", pos)
    while at >= 0:
        if at >= 3 and lowered.startswith("ib", at - 2):
            yield at - 3
        if at >= 1:
            yield at - 1
        at = lowered.find("id.", at + 3)


def _supra_starts(lowered: str, pos: int) -> Iterator[int]:
    r"""Where a match of ``\s([^\sa-zA-Z0-9]*supra[^\sa-zA-Z0-9]*)(?:\s|$)`` can start in the
    lower-cased ASCII text ``lowered`` (every place at or after ``pos``, maybe some before it), in
    order: before each "supra", back over the characters that are neither whitespace nor ASCII
    letters or digits (the only ones the match can have there). Each such run stops after the
    previous "supra"'s letters, so the places come in order."""
    at = lowered.find("supra", pos)
    while at >= 0:
        p = at - 1
        while p >= 0 and lowered[p] not in _ASCII_ALNUM and not lowered[p].isspace():
            p -= 1
        if p >= 0:
            yield p
        at = lowered.find("supra", at + 5)


#: eyecite's ``Id.`` and ``supra`` regexes (what follows ``(?:^|\s)``, and their flags) → where in a lower-cased
#: ASCII text a match can start (``_whole_text_matcher``)
_LITERAL_STARTS: dict[tuple[str, int], Any] = {
    (r"(id\.,?|ibid\.)(?:\s|$)", _I): _id_starts,
    (r"([^\sa-zA-Z0-9]*supra[^\sa-zA-Z0-9]*)(?:\s|$)", _I): _supra_starts,
}


def _lower_case_form(rest: str, flags: int) -> re.Pattern[str] | None:
    r"""``\sREST`` for a lower-cased ASCII text, without IGNORECASE (Python's ``re`` folds case at every
    character it compares: ~2x slower): REST's capitals lowered. None unless ``flags`` has IGNORECASE
    and REST's only capitals are in ``a-zA-Z``, in ``(?P<`` or literal letters (no ``\S``-like escape,
    no range ending or starting at a capital but ``A-Z``)."""
    if not flags & re.IGNORECASE:
        return None
    plain = rest.replace("a-zA-Z", "").replace("(?P<", "")
    if (
        "(?P=" in rest
        or re.search(r"\\[A-Za-z]", plain.replace("\\s", ""))
        or re.search(r"-[A-Z]|[A-Z]-", plain)
    ):
        return None
    lowered = re.sub(r"\(\?P<|[A-Z]", lambda m: m.group() if m.group()[0] == "(" else m.group().lower(), rest)
    return re.compile(r"\s" + lowered, flags & ~re.IGNORECASE)


def _dash_then_space(text: str, dashes: str) -> bool:
    """Whether one of ``dashes`` is followed by whitespace somewhere in ``text``."""
    for dash in dashes:
        at = text.find(dash)
        while at >= 0:
            if text[at + 1 : at + 2].isspace():
                return True
            at = text.find(dash, at + 1)
    return False


def _token(m: re.Match[str], table: TokenTable, i: int) -> Token:
    start, end = m.span(1)
    return Token(
        table.kinds[i], start, end, m.groupdict(), table.shorts[i], table.exact[i], table.variation[i], i
    )


def _by_span(t: Token) -> tuple[int, int]:
    return (t.start, -t.end)


def _order_free(tokens: list[Token], k: int, j: int) -> bool:
    """Whether the tokens ``tokens[k:j]`` (one span) resolve alike in any order: citations of the same
    groups and form merge into the first (or are all dropped), and their editions' union, one exact and
    one variation edition at most (a reporter's exact regex and its variations' regex: most ties), is
    the same tuple in any order."""
    first = tokens[k]
    if first.kind is not TokenKind.CITATION:
        return False
    exact: set[int] = set()
    variation: set[int] = set()
    for u in tokens[k:j]:
        if u.kind is not TokenKind.CITATION or u.short != first.short or u.groups != first.groups:
            return False
        exact.update(u.exact)
        variation.update(u.variation)
    return len(exact) <= 1 and len(variation - exact) <= 1


def _by_extractor(t: Token) -> int:
    return t.extractor


def _merge(last: Token, token: Token) -> bool:
    """eyecite's ``Token.merge``: the same span and groups from two regexes of one kind is one token
    (a citation's editions combined, when both are short or both full). True when merged."""
    if (
        last.start != token.start
        or last.end != token.end
        or last.kind is not token.kind
        or last.groups != token.groups
    ):
        return False
    if last.kind is not TokenKind.CITATION:
        return True
    if last.short != token.short:
        return False
    exact = tuple(dict.fromkeys(last.exact + token.exact))
    last.exact = exact
    last.variation = tuple(i for i in dict.fromkeys(last.variation + token.variation) if i not in exact)
    return True


def _automaton(grouped: list[tuple[str, list[int]]], ahocorasick: Any, *, with_length: bool = False) -> Any:
    """Aho-Corasick automaton: string → the extractors listing it (with its length)."""
    automaton = ahocorasick.Automaton()
    for string, listed in grouped:
        automaton.add_word(string, (len(string), listed) if with_length else listed)
    automaton.make_automaton()  # with no word it finds nothing, as it should
    return automaton
