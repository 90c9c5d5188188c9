"""Never an error or warning on a court's own citation (issue 25, item 4), checked offline.

Each excerpt is a short quotation of a real First Circuit opinion as CourtListener serves it (its
``html_with_citations`` turned to text the way ``bench/real_text.py`` does), with the opinion named
in the row, or an example the issue reports from real text. Double-spaced opinions come with a blank
line after every line, so a pin range cut at a line end is cut at a paragraph end.
"""

from __future__ import annotations

import asyncio

import pytest

from citecheck.config import Settings
from citecheck.extract import extract_citations
from citecheck.findings import Kind, Severity
from citecheck.pipeline import check_document

CA1 = "First Circuit, CourtListener opinion "
FULL = "Roe v. Wade, 410 U.S. 113 (1973). "


def _loud(text: str) -> list[tuple[str, str]]:
    report = asyncio.run(check_document(text, None, Settings()))
    return [
        (f.kind.value, f.message) for f in report.findings if f.severity in (Severity.ERROR, Severity.WARNING)
    ]


# (excerpt, the pin as extracted, source)
CUT_AT_A_BREAK: list[tuple[str, str, str]] = [
    (
        "would be upheld even if it regulated protected speech. Id. at 54-\n\n60.\n\nB.",
        "54",
        CA1 + "152285 (IMS Health Inc. v. Rowe)",
    ),
    (
        'month and a half" after the incident). Laaperi, 787 F.2d at 734-\n\n36. Anthony and Laaperi',
        "734",
        CA1 + "176946 (Bielunas v. F/V Misty Dawn, Inc.)",
    ),
    (
        'Cf. Tidewater Transfer Co., 337 U.S. at 589-\n\nresidents].").\n\n-57-',
        "589",
        CA1 + "179901 (Igartua v. United States)",
    ),
]


@pytest.mark.parametrize(("text", "pin", "source"), CUT_AT_A_BREAK, ids=[s for *_, s in CUT_AT_A_BREAK])
def test_a_range_cut_at_a_paragraph_end_is_its_first_page(text: str, pin: str, source: str) -> None:
    text = (
        FULL + "Laaperi v. Sears, Roebuck & Co., 787 F.2d 726 (1st Cir. 1986). National Mut. Ins. Co. "
        "v. Tidewater Transfer Co., 337 U.S. 582 (1949). " + text
    )
    pins = [c.pincite for c in extract_citations(text).citations if c.pincite is not None]
    [cut] = [p for p in pins if p.text == pin]
    assert cut.malformed is None and [p.pages() for p in cut.parts] == [(pin,)]
    assert _loud(text) == [], source


def test_a_range_wrapped_inside_a_paragraph_is_one_range() -> None:
    # a PDF's line break inside the range: "325-⏎26"
    [_, pin] = [c.pincite for c in extract_citations(FULL + "Id. at 325-\n26.").citations]
    assert pin is not None and pin.parts[0].pages() == tuple(str(p) for p in range(325, 327))


def test_a_dangling_range_before_more_words_is_still_malformed() -> None:
    assert [k for k, _ in _loud(FULL + "Id. at 352- and more.")] == ["malformed-pincite"]


# (text after a full cite, the pin as extracted, source): Id. standing for a record, a treaty, a slip
# opinion or a page left blank
RECORD_PINS: list[tuple[str, str, str]] = [
    ("The motion was denied. Id. at Exhibit H.", "Exhibit H", "issue 25"),
    ("The page was left blank. Id. at ----.", "----", "issue 25"),
    ("The subsection says so. Id. at (d).", "(d)", "issue 25"),
    (
        "So the syllabus said. Id. at paragraph three of the syllabus.",
        "paragraph three of the syllabus",
        "issue 25",
    ),
    (
        'place the child[ren] in an intolerable situation." Id. at art. 13. Specifically, she alleged',
        "art. 13",
        CA1 + "180598 (Charalambous v. Charalambous)",
    ),
    (
        "the Optional Protocol by January 1, 1987. Id. at XX. The United States was not on",
        "XX",
        CA1 + "179901 (Igartua v. United States)",
    ),
    (
        "which was not present in that case. Id. at [68]. In Dunthorne, the insured's",
        "[68]",
        CA1 + "183762 (Hartford Fire Ins. Co. v. CNA Ins. Co. (Europe))",
    ),
    (
        "a change in a food to which it is added. Id. at [slip op. at 6]. Turning to the",
        "[slip op. at 6]",
        CA1 + "194573 (United States v. 29 Cartons)",
    ),
    ("The witness agreed. Id. at 119:12-14.", "119:12-14", "a transcript's page and lines"),
]


@pytest.mark.parametrize(("tail", "pin", "source"), RECORD_PINS, ids=[p for _, p, _ in RECORD_PINS])
def test_record_and_placeholder_pins_after_id_are_not_malformed(tail: str, pin: str, source: str) -> None:
    text = FULL + tail
    cites = extract_citations(text).citations
    [idc] = [c for c in cites if c.text.startswith(("Id", "id"))]
    assert idc.antecedent == 0
    assert idc.pincite is not None and idc.pincite.text == pin and idc.pincite.parts == ()
    assert idc.pincite.malformed is None
    assert _loud(text) == [], source


# (excerpt, the citation's core, its name): star pages in text copied from an opinion
STAR_PAGES: list[tuple[str, str, str]] = [
    (
        "As the Court held in Wisconsin v. Yoder, *428406 U.S. 205 (1972), the",
        "406 U.S. 205",
        "Wisconsin v. Yoder",
    ),
    (
        "The somewhat similar cases of Crane v. Hyde Park, 135 *355 Mass. 147, and others",
        "135 *355 Mass. 147",
        "Crane v. Hyde Park",
    ),
]


@pytest.mark.parametrize(("text", "core", "name"), STAR_PAGES, ids=[c for _, c, _ in STAR_PAGES])
def test_a_star_page_glued_to_the_volume_is_not_the_volume(text: str, core: str, name: str) -> None:
    [c] = extract_citations(text).citations
    assert (c.text, c.case_name.text if c.case_name else None) == (core, name)
    assert c.volume == core.split()[0]
    assert _loud(text) == []


def test_a_short_form_after_a_glued_star_page_resolves() -> None:
    text = "Wisconsin v. Yoder, *428406 U.S. 205 (1972). Later, Yoder, *429406 U.S. at 210."
    _full, short = extract_citations(text).citations
    assert (short.volume, short.antecedent, short.antecedent_text) == ("406", 0, "Yoder")


def test_california_and_bracketed_ids_are_found_and_resolved() -> None:
    text = (
        "(People v. Smith (1990) 50 Cal.3d 100, 150.) The court agreed. (Id. at p. 152.) It said "
        "so again. (Ibid.) And once more. (Id. at pp. 150-151.) Finally (Id.), and Id.; see also x."
    )
    cites = extract_citations(text).citations
    assert [(c.text, c.antecedent) for c in cites[1:]] == [
        ("Id. at p. 152", 0),
        ("Ibid.", 0),
        ("Id. at pp. 150-151", 0),
        ("Id.", 0),
        ("Id.", 0),
    ]
    assert [p.pages() for p in cites[3].pincite.parts] == [("150", "151")]  # type: ignore[union-attr]
    assert _loud(text) == []


def test_an_impossible_volume_written_by_a_court_is_still_reported() -> None:
    # First Circuit opinion 149043 prints "1533 L. Ed. 2d 499" for 153 L. Ed. 2d 499: a real typo,
    # and the one finding raised on the 1,097 opinions of that set that is an error
    text = "BE & K Constr. Co. v. NLRB, 536 U.S. 516, 531, 122 S. Ct. 2390, 1533 L. Ed. 2d 499 (2002)."
    assert Kind.IMPOSSIBLE_CITATION.value in [k for k, _ in _loud(text)]
