"""Regexes rewritten for speed match exactly what their plain forms match (issue 40).

Python's ``re`` can skip ahead to a match's possible first character only when the pattern opens with a
literal, a character class or an alternation of literals; a pattern that opens with a lookbehind, ``\\b``
or ``(?:^|\\s)`` is tried at every position. The rewritten forms move the lookbehind after the first
character (``X(?<!…X)``) or open each branch with a literal. Each is compared here with the form it
replaced, match for match (spans and groups), on random text drawn from the characters they look at.
"""

from __future__ import annotations

import random
import re

import pytest

from citecheck.extract import (
    agency,
    constitutions,
    eyecite_adapter,
    foreign,
    names,
    normalise,
    paragraph,
    sentences,
    state_statutes,
    unrecognised,
)
from citecheck.extract.tokenizer import (
    _KNOWN_IGNORED,
    _LITERAL_STARTS,
    _dash_then_space,
    _whole_text_matcher,
)

_PLAIN = {
    "paragraph._MAY_CITE_CODE": (
        paragraph._MAY_CITE_CODE,
        r"U\.\s?S\.\s?C|USC|C\.\s?F\.\s?R|CFR|KRS|K\.R\.S|RCW|ORS|MCL|M\.C\.L|NRS|N\.J\.S\.A|R\.\s?[SC]\.|CPLR|"
        r"G\.S\.|O\.C\.G\.A|A\.R\.S|Pub\.\s?L|Public Law|P\.\s?L\.|Stat\.|Reg\.|[Ss]ection|"
        r"NYCRR|N\.Y\.C\.R\.R|CCR|C\.C\.R|TAC|T\.A\.C|N\.J\.A\.C|F\.A\.C|Adm(?:in)?\.\s?Code|Pa\.\s?Code|"
        r"Administrative Code",
    ),
    "paragraph._REFERENCE": (
        paragraph._REFERENCE,
        r"(?<![\w.'])(?P<name>[A-Z][\w'&.-]*(?:\s+(?:of|the|&|[A-Z][\w'&.-]*)){0,3})\s+(?:at\s+|pp?\.\s*)(?=\*?\d)",
    ),
    "paragraph._RECORD": (
        paragraph._RECORD,
        r"\b(?:ECF\s+No\.|Dkt\.(?:\s+No\.)?|(?:Am\.\s+)?Compl\.|Tr\.|Ex\.|Decl\.|J\.A\.|R\.)\s*(?:¶\s*)?\d",
    ),
    "eyecite_adapter._BRACKETED_ID": (
        eyecite_adapter._BRACKETED_ID,
        r"[(\[](?=(?:[Ii]d|[Ii]bid)\.)|(?<=\b[Ii]d\.)[);:\]]|(?<=\b[Ii]bid\.)[);:,\]]",
    ),
    "normalise._EMPHASIS": (normalise._EMPHASIS, r"\*(?!\d)|(?<!_)_{1,2}(?!_)"),
    "unrecognised._CANDIDATE": (
        unrecognised._CANDIDATE,
        unrecognised._CANDIDATE.pattern.replace(
            r"(?P<volume>[1-9](?<![\w.§$/-][1-9])\d{0,3})", r"(?<![\w.§$/-])(?P<volume>[1-9]\d{0,3})"
        ),
    ),
    "agency._FIND": (
        agency._FIND,
        agency._FIND.pattern.replace(r"(?P<volume>\d(?<![\w.]\d)\d{0,3})", r"(?<![\w.])(?P<volume>\d{1,4})"),
    ),
    "constitutions._MAY_CITE": (
        constitutions._MAY_CITE,
        r"Const|CONST|[Aa]mend|[Aa]rt\.|[Aa]rticle|ARTICLE|ART\.",
    ),
    "names._IN_RE_BEFORE": (
        names._IN_RE_BEFORE,
        names._IN_RE_BEFORE.pattern.replace(r"I(?<![\w.]I)[nN]\s+", r"(?<![\w.])(?:In|IN)\s+"),
    ),
    "state_statutes._MAY_CITE": (
        state_statutes._MAY_CITE,
        r"[Ss]ec|SEC|[Cc]hapter|CHAPTER|RCW|Laws|Acts|Act\b|St\.|G\.\s?L\.|Gen\.\s?Laws",
    ),
    "foreign._NEUTRAL": (
        foreign._NEUTRAL,
        foreign._NEUTRAL.pattern.replace(
            r"(?P<year>1(?<![\w\[(/.-]1)99\d|2(?<![\w\[(/.-]2)0\d\d)",
            r"(?<![\w\[(/.-])(?P<year>(?:199\d|20\d\d))",
        ),
    ),
    "foreign._YEAR_THEN_CAPITAL": (foreign._YEAR_THEN_CAPITAL, r"\d{4}\s+[A-Z]"),
    "state_statutes._SECTION_WORD": (
        state_statutes._SECTION_WORD,
        r"(?<![\w.])(?:Secs?\.|SECS?\.|Sections?|SECTIONS?|sec\.|secs\.|section|sections)\s*(?=\d)",
    ),
    "state_statutes._STATUTES_OF": (
        state_statutes._STATUTES_OF,
        state_statutes._STATUTES_OF.pattern.replace(
            r"(?P<name>S(?<![\w.]S)t\.)", r"(?<![\w.])(?P<name>St\.)"
        ),
    ),
    "state_statutes._MASS_CHAPTER": (
        state_statutes._MASS_CHAPTER,
        state_statutes._MASS_CHAPTER.pattern.replace(
            r"(?P<code>M(?<![\w.]M)(?:ass\.\s?Gen\.\s?Laws(?:\s?Ann\.)?|\.\s?G\.\s?L\.)|G(?<![\w.]G)\.\s?L\.)",
            r"(?<![\w.])(?P<code>Mass\.\s?Gen\.\s?Laws(?:\s?Ann\.)?|M\.\s?G\.\s?L\.|G\.\s?L\.)",
        ),
    ),
    "constitutions._BARE": (
        constitutions._BARE,
        constitutions._BARE.pattern.replace(
            r"(?:(?:A(?<![\w.]A)(?:rt\.|rticle|RT\.)|a(?<![\w.]a)(?:rt\.|rticle))",
            r"(?<![\w.])(?:(?:[Aa]rt\.|[Aa]rticle|ART\.)",
        ).replace(r"|(?:A(?<![\w.]A)(?:mend\.|MEND\.)|a(?<![\w.]a)mend\.)", r"|(?:[Aa]mend\.|AMEND\.)"),
    ),
    "sentences._END": (sentences._END, r"[.?!]+[\"')\]]*(?=\s+[\"'(\[]?[A-Z0-9*_>])"),
}

#: the pieces the random texts are made of: the words and characters the regexes look for, and others
_PIECES = [
    *"U.S.C. USC C.F.R. CFR R.S. R.C. Section section Const. amend. Art. art. Article Sec. sec Chapter Laws "
    "Acts Act St. G.L. Gen. Laws Pub. L. Stat. Reg. Admin. Code ECF No. Dkt. Am. Compl. Tr. Ex. Decl. J.A. "
    "R. Id. id. Ibid. ibid. Roe Smith of the & at p. pp. NLRB F.C.C. B.T.A. T.C.M. Op. Att'y Gen. Mass. "
    "Foo Bar Rep. 5 12 123 1234 410 *3 ¶ § $ / - — _ __ ___ * ** ( ) [ ] ; : , . ' a x".split(),
    "12 FCC Rcd. 345",
    "5 S.E.C. 12",
    "x5 F.E.R.C. 7",
    ".5 Ag. Dec. 1",
    "12 Foo Rep. 345",
    "410 Bar 12",
    "1 Foo 2",
    "(5 FLRA 3)",
    "Roe at 5",
    "Smith of the Bar at *3",
    "the Roe pp. 5",
    "Dkt. No. 5",
    "R. 12",
    "In re Grand Jury of the",
    "IN RE Smith",
    "xIn re Foo",
    ".In re Bar",
    "In Re Baz",
    "In\nre",
    "2016 SCC 27",
    "1999 UKSC 12",
    "x2019 EWCA Civ 5",
    "/2003 FCA 1",
    "(1995 QB 3",
    "1989 HCA 4",
    "2021 NZSC 7.5",
    "١٩٩٩ UK 3",
    "Hello.",
    "?!",
    '?"',
    "!)",
    ".]",
    "...",
    '"The',
    "(A",
    "*5",
    "Sec. 5",
    "SECS. 12",
    "sections 4",
    "xSection 5",
    ".sec. 4",
    "SECTION 9",
    "St. 2020, c. 65, § 3",
    "xSt. 2019, c. 1",
    "G.L. c. 93A",
    "M. G. L. ch. 12",
    "Mass. Gen. Laws Ann. chapter 5",
    ".G. L. c. 4",
    "art. I, § 8",
    "Article III, sec. 2",
    "ART. IV, § 1, cl. 3",
    "amend. XIV",
    "AMEND. V, § 1",
    "xart. I, § 2",
    "Amend. II",
]


def _texts(seed: int, n: int) -> list[str]:
    rng = random.Random(seed)
    seps = (" ", " ", " ", "", "\n", "  ", ", ", ".")
    return [
        "".join(rng.choice(_PIECES) + rng.choice(seps) for _ in range(rng.randrange(1, 40))) for _ in range(n)
    ]


def _found(regex: re.Pattern[str], text: str) -> list[tuple]:
    return [(m.span(), m.groupdict(), m.groups()) for m in regex.finditer(text)]


@pytest.mark.parametrize("name", sorted(_PLAIN))
def test_a_rewritten_regex_matches_as_its_plain_form(name: str) -> None:
    fast, plain_source = _PLAIN[name]
    plain = re.compile(plain_source, fast.flags)
    assert plain.pattern != fast.pattern
    matched = 0
    for text in _texts(40, 3_000):
        assert _found(fast, text) == _found(plain, text), text
        for pos in (1, len(text) // 2):  # searched from inside the text, as some callers do
            got, want = fast.search(text, pos), plain.search(text, pos)
            assert (got and (got.span(), got.groups())) == (want and (want.span(), want.groups())), (
                text,
                pos,
            )
        matched += bool(plain.search(text))
    assert matched > 30  # the texts do contain what the regex looks for


_STOP_AND_ID = (
    r"(?:^|\s)([^\sa-zA-Z0-9]*(?P<stop_word>v|in re|re|quoting|e.g.|parte|denied|citing|aff'd|affirmed|remanded"
    r"|see also|see|granted|dismissed|Cf)[^\sa-zA-Z0-9]*)(?:\s|$)",
    r"(?:^|\s)(id\.,?|ibid\.)(?:\s|$)",
    r"(?:^|\s)([^\sa-zA-Z0-9]*supra[^\sa-zA-Z0-9]*)(?:\s|$)",
    r"([_—–-]+\s(A\.?2d|F\.?3d|N\.?J\.?|U\.\s?S\.)\s[_—–-]+)",
)


@pytest.mark.parametrize("source", _STOP_AND_ID)
def test_the_tokenizers_whole_text_matchers_find_what_finditer_finds(source: str) -> None:
    compiled = re.compile(source, re.I)
    matcher = _whole_text_matcher(source, re.I, compiled)
    rng = random.Random(7)
    words = [
        *"see also v. In re e.g., aff'd (quoting id. ibid. supra, Cf. --- ___ — – U.S. A.2d N.J. x".split(),
        # capitals, and the non-ASCII letters IGNORECASE folds to ASCII ones (an ASCII text is searched
        # lower-cased without IGNORECASE, any other as written)
        *"SEE Also V. IN RE Id. IBID. Supra, CF. cf İd. ıbid. ſee ſupra K".split(),
        # the literals ``Id.`` and ``supra`` are looked for first (``_LITERAL_STARTS``): inside words, after
        # punctuation, twice in a row
        *'xid. bid. Ibid., id.id. (supra) ..supra" "supra supra.supra xsupra 3supra IBID ib id.,'.split(),
        "___ U.S. ___",
        "— N.J. —",
        "-- A.2d --",
        "_ F.3d __",
    ]
    matched = spanned = 0
    for _ in range(3_000):
        text = "".join(
            rng.choice(words) + rng.choice((" ", "", "\t", "\n", "  ")) for _ in range(rng.randrange(1, 12))
        )
        want = [(m.span(1), m.groupdict()) for m in compiled.finditer(text)]
        assert [(m.span(1), m.groupdict()) for m in matcher(text)] == want, text
        if hasattr(matcher, "spans"):  # where each match starts, and its group 1 (Tokenizer._spans)
            assert matcher.spans(text) == [(m.start(), *m.span(1)) for m in compiled.finditer(text)], text
            spanned += 1
        matched += bool(want)
    assert matched > 100
    assert spanned == 3_000 or not source.startswith("(?:^|\\s)")


def test_the_literal_first_places_are_every_place_a_match_can_start() -> None:
    """``_LITERAL_STARTS``: for the ``Id.`` and ``supra`` regexes (eyecite's: ``_KNOWN_IGNORED``), every place
    in a lower-cased ASCII text where ``\\sREST`` matches is among the places given, which come in order."""
    known = {source[len("(?:^|\\s)") :]: flags for _, source, flags in _KNOWN_IGNORED}
    assert {rest for rest, _ in _LITERAL_STARTS} <= set(known)
    assert all(known[rest] == flags for rest, flags in _LITERAL_STARTS)
    rng = random.Random(9)
    pieces = [*"id. ibid. ib supra ( ) . , \" ' x 3 -".split(), " ", " ", "\n", "\t"]
    matched = 0
    for (rest, flags), starts in _LITERAL_STARTS.items():
        regex = re.compile("\\s" + rest, flags)
        for _ in range(3_000):
            text = "".join(rng.choice(pieces) for _ in range(rng.randrange(1, 14)))
            places = list(starts(text, 0))
            assert places == sorted(set(places)), text
            want = [at for at in range(len(text)) if regex.match(text, at)]
            assert set(want) <= set(places), text
            assert {at for at in want if at >= 2} <= set(starts(text, 2)), text  # looked for from 2 on
            matched += bool(want)
    assert matched > 300


def test_a_dash_followed_by_whitespace_is_found_anywhere() -> None:
    assert _dash_then_space("a-b c — d", "_—–-")
    assert _dash_then_space("x -", "-") is False
    assert _dash_then_space("x-\ny", "-")
    assert not _dash_then_space("well-known under_score 5–7", "_—–-")


def test_references_searched_in_their_windows_are_those_of_the_whole_paragraph() -> None:
    """``_REFERENCE`` is searched only from the fourth word before each "at N"/"p. N" to its number
    (``paragraph._reference_windows``): the same matches as over the whole text."""
    matched = windows = 0
    for text in _texts(41, 4_000):
        want = _found(paragraph._REFERENCE, text)
        found = paragraph._reference_windows(text)
        got = [
            (m.span(), m.groupdict(), m.groups())
            for a, b in found
            for m in paragraph._REFERENCE.finditer(text, a, b)
        ]
        assert got == want, text
        matched += bool(want)
        windows += len(found) > 1
    assert matched > 100
    assert windows > 100  # texts with windows apart


def test_regexes_opening_at_the_start_or_a_non_alphanumeric_find_what_finditer_finds() -> None:
    """eyecite's regexes that are not volume-first open with ``(?:^|[^a-zA-Z0-9])``; the whole-text matcher
    tries the start as written, then ``[^a-zA-Z0-9]REST`` (which ``re`` tries only at such characters)."""
    from citecheck.extract.eyecite_adapter import _tokenizer

    tokenizer = _tokenizer()
    table = tokenizer.table
    sources = [
        i
        for i in range(len(table))
        if table.regexes[i].startswith("(?:^|[^a-zA-Z0-9])") and i not in table.volume_first
    ]
    assert len(sources) > 100
    rng = random.Random(8)
    words = (
        "Cal. Penal Code N.Y. Gen. Bus. Law Tex. Fam. Code 2020-Ohio-123 2019 -Ohio- 12 Bald. C.C. 1 "
        "5 U.S.C. § 1983 42 Stat. 808 Pub. L. No. 111-148 ( ) , ; . - x X 7 Ohio St. 3d at p. 12 "
        "Hask. 3 Gil. 5 Olc. 9 Deady 4 Taney 2 Wall. 5 Pet. 6 1 12 123 2020 1998 A B at at at §§ tit. r. , 3 4"
    ).split()
    matched = 0
    for i in rng.sample(sources, 60):
        compiled = re.compile(table.regexes[i], table.flags[i])
        matcher = _whole_text_matcher(table.regexes[i], table.flags[i], compiled)
        assert matcher != compiled.finditer
        own = [*tokenizer._strings().get(i, ()), *words]  # its own strings (whitespace-free) and others
        for _ in range(100):
            text = "".join(rng.choice(own) + rng.choice((" ", " ", "", "\n", "  ", "-")) for _ in range(10))
            want = [(m.span(), m.groupdict(), m.groups()) for m in compiled.finditer(text)]
            assert [(m.span(), m.groupdict(), m.groups()) for m in matcher(text)] == want, (i, text)
            matched += bool(want)
    assert matched > 25


def test_the_supra_volume_is_searched_from_where_a_match_can_start() -> None:
    """``_VOLUME_BEFORE_SUPRA`` searched from ``_supra_volume_from`` finds what it finds from the start."""
    rng = random.Random(43)
    pieces = [
        "Roe",
        ",",
        " ",
        "  ",
        "\n",
        "410",
        "U.S.",
        "F. Supp.",
        "Smith v. Jones",
        "1",
        "So. 2d",
        "x",
        "'",
    ]
    found = 0
    for _ in range(6_000):
        text = "".join(rng.choice(pieces) for _ in range(rng.randrange(2, 60))) + rng.choice(
            (",", ", ", ",  ")
        )
        start = rng.randrange(0, 5)
        want = paragraph._VOLUME_BEFORE_SUPRA.search(text, start, len(text))
        got = paragraph._VOLUME_BEFORE_SUPRA.search(
            text, paragraph._supra_volume_from(text, start, len(text)), len(text)
        )
        assert (got and (got.span(), got.groups())) == (want and (want.span(), want.groups())), text
        found += want is not None
    assert found > 300


def test_every_mass_chapter_holds_what_its_prefilter_looks_for() -> None:
    """``state_statutes._chapters`` searches ``_MASS_CHAPTER`` only where "L." or "Mass." stands."""
    found = 0
    for text in _texts(44, 4_000):
        for variant in (text, text.replace("L.", "L ")):
            if state_statutes._MASS_CHAPTER.search(variant):
                assert "L." in variant or "Mass." in variant, variant
                found += 1
    assert found > 100


def test_every_agency_series_holds_what_its_prefilter_looks_for() -> None:
    """``agency.find_agency_series`` reads only a paragraph ``may_cite_agency_series`` passes: every
    ``_FIND`` match holds one of its strings (each series written every way its pattern allows)."""
    rng = random.Random(45)
    series = [
        "FCC Rcd.", "FCCRcd", "F. C. C. R.", "F.C.C.Rcd.", "F.C.C. Rcd.", "FCC 2d", "FCC2d", "F. E. R. C.",
        "F.E.R.C.", "Ag. Dec.", "Ag.Dec.", "S. E. C.", "S.E.C.", "F. L. R. A.", "F.L.R.A.", "FLRA",
        "E. C. A. B.", "E.C.A.B.", "ECAB",
    ]  # fmt: skip
    found = 0
    for _ in range(3_000):
        text = " ".join(
            rng.choice(
                (*series, "12", "345", "x", "Roe,", "(", "1.", f"{rng.randrange(1, 99)} {rng.choice(series)}")
            )
            for _ in range(rng.randrange(1, 12))
        )
        if agency._FIND.search(text):
            assert agency.may_cite_agency_series(text), text
            found += 1
    assert found > 100


def test_reference_windows_step_back_four_words_over_any_whitespace() -> None:
    """``_reference_windows`` steps back from each tail over four words (``_FOUR_WORDS``, read in the
    reversed paragraph): the same place as walking back character by character, whatever whitespace
    (``str.isspace``'s: tabs, line breaks, no-break and thin spaces) stands between the words."""

    def walked(norm: str, at: int) -> int:
        for _ in range(4):
            while at > 0 and norm[at - 1].isspace():
                at -= 1
            while at > 0 and not norm[at - 1].isspace():
                at -= 1
        return at

    rng = random.Random(43)
    words = "Roe Wade v. In re Smith, the Court (1973) § 5 x".split()
    stepped = 0
    for _ in range(3_000):
        text = "".join(
            rng.choice(words) + rng.choice((" ", "\t", "\n", "\xa0", "\u2009", "\u3000", "\x1c", "  \n"))
            for _ in range(rng.randrange(0, 7))
        ) + rng.choice(("at 5", "p. 3", "at *4", "pp. 12"))
        tails = list(paragraph._REFERENCE_TAIL.finditer(text))
        found = paragraph._reference_windows(text)
        if len(tails) == 1:
            assert found == [(walked(text, tails[0].start()), tails[0].end())], text
            stepped += found[0][0] > 0
    assert stepped > 500


def test_whitespace_removed_as_split_removes_it() -> None:
    """``tokenizer._without_whitespace`` (spaces replaced, then the printable check) gives
    ``"".join(text.split())`` on text with every kind of whitespace and unprintable characters; and no
    character but the space is both whitespace and printable (what the shortcut rests on)."""
    from citecheck.extract.tokenizer import _without_whitespace

    assert not [c for c in map(chr, range(0x110000)) if c.isspace() and c.isprintable() and c != " "]
    rng = random.Random(45)
    pieces = [
        "Roe",
        "U.S.",
        "5",
        " ",
        "  ",
        "\t",
        "\n",
        "\xa0",
        "\u2009",
        "\u3000",
        "\x1f",
        "\x00",
        "\u200e",
        "é",
    ]
    shortcut = 0
    for _ in range(3_000):
        text = "".join(rng.choice(pieces) for _ in range(rng.randrange(0, 10)))
        assert _without_whitespace(text) == "".join(text.split()), repr(text)
        shortcut += text.replace(" ", "").isprintable()
    assert shortcut > 100
