"""USLM titles → sections: numbers, headings, status, where transferred sections went, text, schema."""

from __future__ import annotations

import io

import pytest

from citecheck.errors import SchemaChanged
from citecheck.sources.statutes.records import SectionStatus
from citecheck.sources.statutes.uslm import parse_uslm
from citecheck_testing.statutes import FakeSection, uslm_title


def _sections(data: bytes) -> dict[str, object]:
    title, it = parse_uslm(io.BytesIO(data), name="usc42.xml")
    out = {s.section: s for s in it}
    assert title.title == "42"
    return out


def test_sections_headings_and_text(usc42: bytes) -> None:
    secs = _sections(usc42)
    s = secs["1983"]
    assert s.heading == "Civil action for deprivation of rights"
    assert s.status is SectionStatus.CURRENT
    assert s.text.startswith("Every person who, under color of any statute")
    assert "R.S." not in s.text  # the source credit is not the section's text
    assert "Short title" not in s.text and "1" not in secs  # a quoted Act's section in the notes is skipped


def test_subsections_keep_their_letters_on_separate_lines(usc42: bytes) -> None:
    text = _sections(usc42)["2000e-2"].text  # en dash in the number, normalised to "-"
    assert text.splitlines()[0].startswith("(a) It shall be an unlawful employment practice for an employer")
    assert text.splitlines()[1].startswith("(b) ")


def test_status_from_attribute_and_from_bracketed_heading(usc42: bytes) -> None:
    secs = _sections(usc42)
    assert secs["1984"].status is SectionStatus.REPEALED  # no @status: "[§ 1984. Repealed. …]"
    assert secs["1984"].heading.startswith("Repealed. Pub. L. 99–1")
    assert secs["3001"].status is SectionStatus.OMITTED
    assert secs["1981a"].status is SectionStatus.TRANSFERRED
    assert secs["1981a"].moved_to == "42 U.S.C. § 2000e-16a"  # "of this title"


def test_a_repealed_range_is_one_record_with_its_last_section(usc42: bytes) -> None:
    s = _sections(usc42)["2401"]
    assert (s.status, s.range_last) == (SectionStatus.REPEALED, "2408")


def test_transferred_to_another_title() -> None:
    data = uslm_title(
        "5",
        [
            FakeSection(
                number="3",
                heading="Transferred",
                status="transferred",
                note="Section transferred to section 1101 of Title 8, Aliens and Nationality.",
            )
        ],
    )
    _title, it = parse_uslm(io.BytesIO(data))
    (s,) = list(it)
    assert s.moved_to == "8 U.S.C. § 1101"


@pytest.mark.parametrize(
    ("note", "where"),
    [
        # the Codification note the Code prints for the titles reorganised since 2014 (52, 34, 54 …)
        (
            "Section 1971 was editorially reclassified as section 10101 of Title 52, Voting and Elections.",
            "52",
        ),
        ("Section 1971 was editorially reclassified as section 10101 of this title.", "42"),
    ],
)
def test_editorially_reclassified_says_where_it_went(note: str, where: str) -> None:
    data = uslm_title(
        "42", [FakeSection(number="1971", heading="Transferred", status="transferred", note=note)]
    )
    _title, it = parse_uslm(io.BytesIO(data))
    (s,) = list(it)
    assert s.status is SectionStatus.TRANSFERRED
    assert s.moved_to == f"{where} U.S.C. § 10101"


def test_a_current_section_whose_heading_starts_with_a_status_word_stays_current() -> None:
    data = uslm_title(
        "10",
        [
            FakeSection(
                number="12",
                heading="Reserved powers of the States",
                paragraphs=("The powers not delegated are reserved.",),
            )
        ],
    )
    _title, it = parse_uslm(io.BytesIO(data))
    assert next(it).status is SectionStatus.CURRENT


@pytest.mark.parametrize(
    ("data", "needle"),
    [
        (b"<?xml version='1.0'?><lawDoc xmlns='http://xml.house.gov/schemas/uslm/1.0'/>", "found <lawDoc>"),
        (
            b"<?xml version='1.0'?><uscDoc xmlns='http://example.org/uslm/3.0'/>",
            "in http://example.org/uslm/3.0",
        ),
        (b"<uscDoc>", "without a namespace"),
        (b"", "not XML"),
        (b"PK\x03\x04 not xml at all", "not XML"),
    ],
)
def test_a_changed_schema_is_a_clear_error(data: bytes, needle: str) -> None:
    with pytest.raises(SchemaChanged, match=r"usc01\.xml") as err:
        _title, it = parse_uslm(io.BytesIO(data), name="usc01.xml")
        list(it)
    assert needle in str(err.value)


def test_sections_without_numbers_mean_the_format_changed() -> None:
    data = (
        b'<uscDoc xmlns="http://xml.house.gov/schemas/uslm/1.0" identifier="/us/usc/t1"><main><title>'
        b"<section><designation>1</designation><heading>Words</heading></section></title></main></uscDoc>"
    )
    _title, it = parse_uslm(io.BytesIO(data), name="usc01.xml")
    with pytest.raises(SchemaChanged, match="none with <num value"):
        list(it)


def test_truncated_file_is_a_clear_error(usc42: bytes) -> None:
    _title, it = parse_uslm(io.BytesIO(usc42[: len(usc42) // 2]), name="usc42.xml")
    with pytest.raises(SchemaChanged, match=r"usc42\.xml: broken XML"):
        list(it)


# The shapes of a real OLRC release (title 16, release point 119-102): @status on the section, en dashes in
# identifiers and numbers, a range in @value, a pair of sections in one element, a transfer "set out as a
# note" with a <ref>, and the USLM 2 namespace of GPO's conversion (title 1). Written here in that form.
REAL_SHAPES = """<?xml version='1.0' encoding='UTF-8'?>
<uscDoc xmlns="{ns}" xmlns:dc="http://purl.org/dc/elements/1.1/" identifier="/us/usc/t16">
<meta><docNumber>16</docNumber><docPublicationName>Online@119-102not101</docPublicationName></meta>
<main><title identifier="/us/usc/t16"><num value="16">TITLE 16—</num><heading>CONSERVATION</heading>
<chapter identifier="/us/usc/t16/ch1"><num value="1">CHAPTER 1—</num><heading>NATIONAL PARKS</heading>
<section status="repealed" identifier="/us/usc/t16/s10"><num value="10">§§ 10, 10a.</num><heading> Repealed. Pub. L. \
91–383</heading></section>
<section status="transferred" identifier="/us/usc/t16/s18f–1"><num value="18f–1">§ 18f–1.</num><heading> \
Transferred</heading>
<notes type="uscNote"><note topic="codification"><p>Section, <ref href="/us/pl/101/512/tI/s116">Pub. L. 101–512, \
title I, § 116</ref>, which related to museum objects, was transferred and is set out as a note under <ref \
href="/us/usc/t54/s102501">section 102501 of Title 54</ref>, National Park Service and Related Programs.</p></note>\
</notes></section>
<section status="repealed" identifier="/us/usc/t16/s19"><num value="19 to 19c">§§ 19 to 19c.</num><heading> Repealed. \
Pub. L. 90–209, § 2, Dec. 18, 1967, 81 Stat. 656</heading></section>
<section identifier="/us/usc/t16/s19jj–1"><num value="19jj–1">§ 19jj–1.</num><heading> Liability</heading><subsection \
identifier="/us/usc/t16/s19jj–1/a"><num value="a">(a)</num><heading> In general</heading><content>Any person who \
destroys, causes the loss of, or injures any park system resource is liable to the United States.</content></subsection>
<notes type="uscNote"><note topic="amendments"><p>1990—Subsec. (a). Pub. L. 101–337 substituted text.</p></note>
<note topic="shortTitle"><quotedContent><section><num value="5">“SEC. 5.</num><heading> ADMINISTRATION.</heading>\
<content>Quoted Act text.</content></section></quotedContent></note></notes></section>
</chapter></title></main></uscDoc>"""


@pytest.mark.parametrize("ns", ["http://xml.house.gov/schemas/uslm/1.0", "http://schemas.gpo.gov/xml/uslm"])
def test_the_shapes_of_a_real_release(ns: str) -> None:
    title, it = parse_uslm(io.BytesIO(REAL_SHAPES.format(ns=ns).encode()), name="usc16.xml")
    secs = {s.section: s for s in it}
    assert (title.title, title.edition, title.heading) == ("16", "119-102not101", "CONSERVATION")
    assert set(secs) == {"10", "18f-1", "19", "19jj-1"}  # the quoted Act's "SEC. 5." is not the Code's
    assert secs["10"].also == (("10a", None),) and secs["10"].status is SectionStatus.REPEALED
    assert (secs["19"].range_last, secs["19"].status) == ("19c", SectionStatus.REPEALED)
    assert secs["18f-1"].moved_to == "54 U.S.C. § 102501 note"
    live = secs["19jj-1"]
    assert live.status is SectionStatus.CURRENT
    assert (
        live.text
        == "(a) In general Any person who destroys, causes the loss of, or injures any park system resource "
        "is liable to the United States."
    )
