"""Case names read backwards from a citation, on real citations from the shared corpus' cases."""

from __future__ import annotations

import pytest

from citecheck.extract import CiteForm, extract_citations
from citecheck.extract.names import case_name_at
from citecheck.extract.normalise import normalise


def _only(text: str):
    (c,) = [c for c in extract_citations(text).citations if c.form is not CiteForm.UNRECOGNISED]
    return c


def _name(text: str, before: str) -> str | None:
    norm = normalise(text)
    found = case_name_at(norm, text, 0, text.index(before))
    return None if found is None else found.text


def test_hyphenated_first_word_and_abbreviation_before_a_corporate_suffix() -> None:
    # "Labs." is no known abbreviation, but a word before ", Inc." belongs to the name
    text = (
        'Plaintiffs argued that "the judge erred in deeming the article privileged." '
        "Petro-Lubricant Testing Labs., Inc. v. Adelman, 148 A.3d 441, 447 (N.J. 2016)."
    )
    c = _only(text)
    assert c.case_name is not None and c.case_name.text == "Petro-Lubricant Testing Labs., Inc. v. Adelman"
    assert c.case_name.plaintiff == "Petro-Lubricant Testing Labs., Inc."
    assert c.case_name.defendant == "Adelman"
    # the citation sentence is now only a citation, so the quote before it is what it is offered for
    assert [q.text for q in c.quotes] == ["the judge erred in deeming the article privileged."]
    assert c.pincite is not None and c.pincite.text == "447" and c.court == "nj"


def test_hyphenated_names_without_suffix() -> None:
    assert _name("See Petro-Lubricant Testing Labs. v. Adelman, 148 A.3d 441.", "148") == (
        "Petro-Lubricant Testing Labs. v. Adelman"
    )
    assert _name("Coca-Cola Co. v. Pepsi-Cola Co., 172 A. 260 (Del. 1934).", "172") == (
        "Coca-Cola Co. v. Pepsi-Cola Co."
    )


def test_all_capitals_in_re_caption() -> None:
    text = (
        'The court explained that "Almost one month later, the court found the children to be deprived, '
        "awarded temporary custody to the grandmother, and established a visitation schedule for the "
        'mother." IN RE KNC, 590 S.E.2d 792, 793-94 (2003).'
    )
    c = _only(text)
    assert c.case_name is not None and c.case_name.text == "IN RE KNC"
    assert c.full_span.start == text.index("IN RE KNC")
    assert [q.text[:30] for q in c.quotes] == ["Almost one month later, the co"]
    assert c.proposition is not None and c.proposition.startswith("The court explained")


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("See EX PARTE JONES, 590 S.E.2d 792 (2003).", "EX PARTE JONES"),
        ("Ex parte Young, 209 U.S. 123 (1908).", "Ex parte Young"),
        (
            "United States ex rel. Smith v. Jones, 209 U.S. 123 (1908).",
            "United States ex rel. Smith v. Jones",
        ),
        ("IN RE A.V., 590 S.E.2d 792 (2003).", "IN RE A.V."),
        ("The point was made in Smith v. Jones, 590 S.E.2d 792 (2003).", "Smith v. Jones"),
    ],
)
def test_capitals_in_re_and_preposition_in(text: str, name: str) -> None:
    c = _only(text)
    assert c.case_name is not None and c.case_name.text == name


def test_sentence_end_still_stops_the_name() -> None:
    # "Labs." is now an abbreviation, but an ordinary word ending a sentence still ends the scan
    assert _name("That was settled below. Smith v. Jones, 590 S.E.2d 792.", "590") == "Smith v. Jones"


@pytest.mark.parametrize(
    ("text", "name"),
    [
        # Markdown links around a whole citation and around a name, inline and by reference (issue 36: blog
        # Markdown gave "Avianca, Inc.", or no name: "—" in the reports)
        (
            "> — [CNN](https://www.cnn.com/2023/05/27/business/chat-gpt-avianca-mata-lawyers), [Mata v. Avianca, "
            "Inc., 678 F. Supp. 3d 443 (S.D.N.Y. 2023)](https://en.wikipedia.org/wiki/Mata_v._Avianca,_Inc.)\n",
            "Mata v. Avianca, Inc.",
        ),
        (
            "In [*Park v. Kim*](https://www.courtlistener.com/x/), 91 F.4th 610 (2d Cir. 2024), the court",
            "Park v. Kim",
        ),
        (
            "As [Stanley v. Georgia][stanley], 394 U.S. 557, 564 (1969), put it.\n\n[stanley]: https://x.y/",
            None,
        ),
        # inline code (freelawproject/free.law, posts/2020/03/05/citation-depth-data.mdx)
        (
            'recording "full" citation references--e.g., `Bush v. Gore, 531 U.S. 98`--CourtListener is now',
            "Bush v. Gore",
        ),
    ],
)
def test_names_inside_markdown_links_and_code(text: str, name: str | None) -> None:
    c = next(c for c in extract_citations(text).citations if c.form is CiteForm.FULL)
    assert c.case_name is not None
    assert c.case_name.text == (name or "Stanley v. Georgia")


def test_brackets_that_are_no_link_stay() -> None:
    norm = normalise("[W]here the brief [sic] cites [2019] UKSC 12 and [a](b) is no link.")
    assert "[W]" in norm and "[sic]" in norm and "[2019]" in norm and "[a](b)" in norm


def test_a_docket_number_and_a_blank_reporter_in_either_order_are_stepped_over() -> None:
    """A real Rule 28(j) letter (freelawproject/doctor test_assets/recap_documents/ca8_.pdf): "United States v.
    Qin, No. 21-1832, __F.4th__, 2023 WL 128600" had no name ("—" in the reports); a docket number like a
    neutral citation ("No. 2018 CA 1234") was a "non-US citation"."""
    text = (
        "the government's supplemental notice of the First Circuit's decision in United\nStates v. Qin, No. "
        "21-1832, __F.4th__, 2023 WL 128600 (1st Cir. Jan. 9, 2023). See Ross v. Bayview Realty, LLC, No. 2018 "
        "CA 1234, 2019 WL 1396975, at *3 (D.C. Super. Ct. Mar. 27, 2019).\n"
    )
    cites = extract_citations(text).citations
    assert [(c.text, c.case_name.text if c.case_name else None) for c in cites] == [
        ("2023 WL 128600", "United States v. Qin"),
        ("2019 WL 1396975", "Ross v. Bayview Realty, LLC"),
    ]


def test_a_banks_charter_after_a_comma_keeps_the_name() -> None:
    """A Texas motion (chuckdustin12/LEGAL_DESTROYER, '06.23.24 Objection to Title IV'): "First Heights Bank,
    FSB v. Marom" came out "FSB v. Marom"."""
    text = (
        "objection at the time of rendition.” In re D.S., 76 S.W.3d 512 (Tex. App. 2002); see \nFirst Heights "
        "Bank, FSB v. Marom, 934 S.W.2d 843 (Tex.App.-Houston [14th Dist.] \n1996, no writ); Home Sav. Bank, "
        "F.S.B. v. Gomez, 100 S.W.3d 1 (Tex. 2003).\n"
    )
    cites = extract_citations(text).citations
    assert [c.case_name.text if c.case_name else None for c in cites] == [
        "In re D.S.",
        "First Heights Bank, FSB v. Marom",
        "Home Sav. Bank, F.S.B. v. Gomez",
    ]


def test_reading_the_last_160_characters_first_finds_the_names_the_last_400_give(monkeypatch) -> None:
    """``scan_name_back`` reads the words of the last 160 characters first and the last 400 only when the
    reading came near their start: every name (and the lack of one) is what reading the 400 gives, on
    long names, parentheticals, abbreviations and sentence ends placed at every distance."""
    import random

    from citecheck.extract import names

    rng = random.Random(11)
    pieces = (
        "Smith v. Jones, Consol. Min. Co. (In re Lazarus) Dept. of Transp. Pacific Nav. Co. the court held. "
        "Then In re Grand Jury Subpoena No. 381 Shell Co. (P.R.), Ltd. and of & Inc. ex rel. See, e.g., "
        "Van Ness U.S. (1990) N.L.R.B. v. Local Union No. 3 Bd. of Educ."
    ).split()
    # names of long words: eighteen of them run past 160 characters, so the 400 are read, and the words a
    # test looks back at lie on both sides of the 160
    capitals = (
        "Alpha Beta Gamma Delta Epsilonian Zetaworth Etaville Thetason of & the Corp. Ass'n v. Pacif. Nav. "
        "Xyl. (In re Foo) (Bar) Co., Inc. Then the court held. Smith Internationalization Extraordinarily "
        "Commonwealth Transportation"
    ).split()
    texts = [" ".join(rng.choice(pieces) for _ in range(rng.randrange(1, 90))) for _ in range(1_500)]
    ends = [(t, rng.randrange(len(t) + 1)) for t in texts for _ in range(3)]
    for _ in range(20_000):
        text = " ".join(rng.choice(capitals) for _ in range(rng.randrange(15, 45)))
        ends.append((text, len(text)))
    first = [names.scan_name_back(t, 0, end) for t, end in ends]
    monkeypatch.setattr(names, "_FIRST_READ", 400)
    assert [names.scan_name_back(t, 0, end) for t, end in ends] == first
    assert sum(f is not None and f[1] - f[0] > 100 for f in first) > 20  # long names were read too


def test_a_readings_word_offsets_are_the_non_space_runs_of_the_text() -> None:
    """The name reader splits the text it reads (``str.split``) and finds only the offsets of a name's end
    words afterwards, backwards: each word's offsets must be those of the ``\\S+`` run it is, whatever
    whitespace (tabs, line and paragraph separators, the ASCII separators ``str.isspace`` counts) and
    repeated words surround it, and with the first word cut where the reading starts."""
    import random
    import re

    from citecheck.extract import names

    rng = random.Random(5)
    spaces = [" ", "  ", "\t", "\n", "\u00a0", "\u2003", "\u2028", "\x1c", "\x85", "\r\n"]
    pieces = ["v.", "Smith", "Smith,", "Co.", "(In", "re", "Foo)", "S", "Sm", "mith", "1", ",", "Inc.,"]
    run = re.compile(r"\S+")
    checked = 0
    for _ in range(3_000):
        text = "".join(rng.choice(pieces) + rng.choice(spaces) for _ in range(rng.randrange(1, 40)))
        end = rng.randrange(len(text) + 1)
        got = names._name_words(text, rng.randrange(end + 1), end, 18)
        if got is None:
            continue
        want = [(m.start(), m.end()) for m in run.finditer(text, got.lo, got.stop)]
        assert len(want) == len(got.words)
        for i in range(len(want)):
            for j in range(i, len(want)):
                assert got.offset(i, j) == (want[i][0], want[j][1])
                checked += 1
    assert checked > 10_000


def test_a_word_of_letters_alone_is_read_as_any_word_is() -> None:
    """``_word_back`` decides a word of letters alone by its case and the word lists; ``_read_word`` reads any
    word. They must agree on every such word, whatever the name read so far: signals, connectors, ``In
    re``/``Ex parte``/``ex rel.``, titlecase, caseless and non-ASCII letters, lower-case brands."""
    import random

    from citecheck.extract import names

    rng = random.Random(8)
    lists = sorted(names.SIGNALS | names.CONNECTORS | names._OPENING_PARTICLES | names._SENTENCE_OPENERS)
    alpha = [w for w in lists if w.isalpha()]
    letters = "abcxyzABCXYZßéÉǅǆ中ªΣσ"
    words = alpha + [w.capitalize() for w in alpha] + [w.upper() for w in alpha]
    words += [
        "In",
        "IN",
        "Ex",
        "EX",
        "in",
        "ex",
        "With",
        "with",
        "eBay",
        "iPhone",
        "xSee",
        "Smith",
        "v.",
        "vs.",
    ]
    words += ["".join(rng.choice(letters) for _ in range(rng.randrange(1, 6))) for _ in range(2_000)]
    rights = ["re", "parte", "rel.", "Wade", "v.", "Inc.", "of", "Jones,"]
    checked = 0
    for w in words:
        assert w.isalpha() or w in ("v.", "vs.", "")
        for right in rights:
            for kept_n in (0, 1, 3):
                seq = ["See", "Smith", w] + ([right] * kept_n)
                kept = list(range(len(seq) - 1, 2, -1))
                core = w.rstrip(",") if not kept else w
                assert names._word_back(seq, 2, kept, core, w) == names._read_word(seq, 2, kept, core, w), (
                    w,
                    right,
                    kept_n,
                )
                assert names._plain_word(w) in (None, names._read_word(seq, 2, kept, core, w))
                checked += 1
    assert checked > 50_000


def test_names_read_with_remembered_word_verdicts_are_those_read_afresh() -> None:
    """``_read_back`` remembers what ``_plain_word`` said of a word (``_verdicts``): reading with the verdicts
    remembered from earlier readings gives the names reading with none remembered does."""
    import random

    from citecheck.extract import names

    rng = random.Random(9)
    pieces = (
        "Smith v. Jones, Consol. Min. Co. (In re Lazarus) Dept. of Transp. the court held. See, e.g., "
        "In re Grand Jury Ex parte Van Ness vs. Smith with Citizens with Disabilities v. eBay Inc. and of"
    ).split()
    texts = [" ".join(rng.choice(pieces) for _ in range(rng.randrange(1, 30))) for _ in range(2_000)]
    fresh = []
    for t in texts:
        names._verdicts.clear()
        fresh.append((names.scan_name_back(t, 0, len(t)), names.short_name_at(t, t, 0, len(t))))
    warm = [(names.scan_name_back(t, 0, len(t)), names.short_name_at(t, t, 0, len(t))) for t in texts]
    assert warm == fresh
    assert len(names._verdicts) > 10
