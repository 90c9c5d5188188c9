"""Where a section went, sections one element stands for, duplicates, editions and the eCFR's volumes
(issue 33 items 1, 3, 4), in the shapes the real release files print them (the headings, ``num`` values and
notes below are those of 37 U.S.C. §§ 404 and 491, 23 U.S.C. §§ 181 to 190, 48 U.S.C. §§ 471 to 471o,
45 U.S.C. §§ 44 to 46, 30 U.S.C. §§ 451 to 483, 14 U.S.C. § 548 and 5 U.S.C. App. § 1 in releases 113-31
and 119-36; the files here are written for the tests)."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from citecheck.errors import SchemaChanged
from citecheck.extract.models import StatuteKey
from citecheck.sources.statutes.ecfr import parse_ecfr
from citecheck.sources.statutes.index import StatuteIndex
from citecheck.sources.statutes.records import LookupOutcome, SectionStatus
from citecheck.sources.statutes.uslm import parse_uslm

NS = "http://xml.house.gov/schemas/uslm/1.0"


def doc(title: str, body: str, *, edition: str = "119-36", appendix: bool = False) -> bytes:
    container = (
        f'<appendix identifier="/us/usc/t{title}"><num value="{title}">Title—APPENDIX</num><heading>X</heading>'
        if appendix
        else f'<main><title identifier="/us/usc/t{title}"><num value="{title}">Title {title}—</num><heading>T</heading>'
    )
    close = "</appendix>" if appendix else "</title></main>"
    return (
        f'<?xml version="1.0"?><uscDoc xmlns="{NS}" identifier="/us/usc/t{title}"><meta><docNumber>{title}'
        f"</docNumber><docPublicationName>Online@{edition}</docPublicationName></meta>{container}{body}{close}"
        "</uscDoc>"
    ).encode()


def sec(
    value: str, shown: str, heading: str, *, status: str = "", notes: tuple[str, ...] = (), text: str = ""
) -> str:
    attr = f' status="{status}"' if status else ""
    sign = "§§" if (" to " in value or "," in value) else "§"
    body = f"<content><p>{text}</p></content>" if text else ""
    note = "".join(f'<note topic="codification"><p>{n}</p></note>' for n in notes)
    return (
        f'<section{attr}><num value="{value}">{"[" if status else ""}{sign} {shown}.</num><heading> {heading}'
        f"{']' if status else ''}</heading>{body}{f'<notes>{note}</notes>' if note else ''}</section>"
    )


def parsed(data: bytes) -> dict[str, object]:
    _title, it = parse_uslm(io.BytesIO(data), name="test.xml")
    return {s.section: s for s in it}


def test_a_renumbered_heading_names_its_destination() -> None:
    """'Renumbered § 474': the pattern wanted a word boundary before '§', so 0 of 79 headings gave one."""
    got = parsed(doc("37", sec("404", "404", "Renumbered § 474", status="renumbered")))
    assert got["404"].moved_to == "37 U.S.C. § 474"  # type: ignore[attr-defined]


def test_a_section_never_moves_to_itself() -> None:
    got = parsed(doc("37", sec("491", "491", "Renumbered § 491", status="renumbered")))
    assert got["491"].moved_to is None  # type: ignore[attr-defined]


def test_a_range_renumbered_as_a_range_moves_section_by_section() -> None:
    got = parsed(doc("23", sec("181 to 190", "181 to 190", "Renumbered §§ 601 to 610", status="renumbered")))
    s = got["181"]
    assert s.moved_to is None and dict(s.moves) == {str(181 + i): f"23 U.S.C. § {601 + i}" for i in range(10)}  # type: ignore[attr-defined]


def test_a_range_transferred_by_notes_takes_each_sections_own_destination() -> None:
    notes = (
        "Section 471, act Mar. 4, 1927, ch. 513, § 1, 44 Stat. 1452, which declared Congressional policy, was "
        "transferred to section 316 of Title 43, Public Lands.",
        "Section 471a, act Mar. 4, 1927, ch. 513, § 2, 44 Stat. 1452, which defined terms, was transferred to "
        "section 316a of Title 43.",
    )
    got = parsed(
        doc("48", sec("471 to 471o", "471 to 471o", "Transferred", status="transferred", notes=notes))
    )
    s = got["471"]
    assert s.moved_to is None  # the first destination is not every section's  # type: ignore[attr-defined]
    assert dict(s.moves) == {"471": "43 U.S.C. § 316", "471a": "43 U.S.C. § 316a"}  # type: ignore[attr-defined]


def test_a_destination_in_a_former_title_is_none() -> None:
    note = (
        "Sections 44 to 46 were transferred to sections 1201 to 1203, respectively, of former Title 49, "
        "Transportation, and were subsequently repealed."
    )
    got = parsed(doc("45", sec("44 to 46", "44 to 46", "Transferred", status="transferred", notes=(note,))))
    assert got["44"].moved_to is None and got["44"].moves == ()  # type: ignore[attr-defined]


def test_this_title_in_an_appendix_is_the_title_it_is_the_appendix_of() -> None:
    """'this title' in 5 U.S.C. App. was read as 5a."""
    note = (
        "Section, Pub. L. 92–463, § 1, Oct. 6, 1972, 86 Stat. 770, which provided that Pub. L. 92–463 could be cited "
        "as the “Federal Advisory Committee Act”, was transferred and is set out as a note under section 1001 of "
        "this title."
    )
    section = sec("1", "1", "Transferred", status="transferred", notes=(note,))
    body = f"<compiledAct><heading>FEDERAL ADVISORY COMMITTEE ACT</heading>{section}</compiledAct>"
    got = parsed(doc("5a", body, appendix=True))
    assert got["1"].moved_to == "5 U.S.C. § 1001 note"  # type: ignore[attr-defined]


def test_one_element_for_several_ranges() -> None:
    """``<num value="451 to 460, 471 to 483">`` was read as one section "451to460,471to483"."""
    body = sec(
        "451 to 460, 471 to 483", "451 to 460, 471 to 483", "Repealed. Pub. L. 91–173", status="repealed"
    )
    s = parsed(doc("30", body))["451"]
    assert s.range_last == "460" and s.also == (("471", "483"),)  # type: ignore[attr-defined]


def _index(tmp_path: Path, *files: bytes) -> StatuteIndex:
    index = StatuteIndex(tmp_path / "statutes.sqlite")
    for data in files:
        title, it = parse_uslm(io.BytesIO(data), name="test.xml")
        index.replace_title(title, it, source="test")
    return index


def test_every_section_of_a_multi_range_element_is_found(tmp_path: Path) -> None:
    body = sec(
        "451 to 460, 471 to 483", "451 to 460, 471 to 483", "Repealed. Pub. L. 91–173", status="repealed"
    )
    with _index(tmp_path, doc("30", body + sec("484", "484", "Later", text="Text."))) as index:
        for section in ("451", "455", "460", "471", "475", "483"):
            rec = index.lookup(StatuteKey("usc", "30", section)).record
            assert rec is not None and rec.status is SectionStatus.REPEALED, section
        assert index.lookup(StatuteKey("usc", "30", "465")).outcome is LookupOutcome.NOT_FOUND


def test_duplicate_numbers_are_kept_and_get_no_heading_or_text(tmp_path: Path) -> None:
    """Two 14 U.S.C. § 548 in 119-36: the second was dropped, so its quotation was a misquote."""
    a = sec(
        "548",
        "548",
        "Prohibition against officers and employees being interested in contracts",
        text="No officer …",
    )
    b = sec(
        "548", "548", "Marking anchorage grounds by Commandant of the Coast Guard", text="The Commandant …"
    )
    with _index(tmp_path, doc("14", a + b)) as index:
        rec = index.lookup(StatuteKey("usc", "14", "548")).record
        assert rec is not None and rec.ambiguous and rec.status is SectionStatus.CURRENT
        assert [r.heading[:10] for r in rec.alternatives] == ["Prohibitio", "Marking an"]
        assert "2 sections bear this number" in rec.heading and index.text(rec) == ""
        assert index.titles("usc")[0].sections == 2


def test_a_chain_of_moves_is_followed_and_a_repealed_end_is_never_offered(tmp_path: Path) -> None:
    body = (
        sec("404", "404", "Renumbered § 474", status="renumbered")
        + sec("405", "405", "Renumbered § 475", status="renumbered")
        + sec("471 to 474b", "471 to 474b", "Repealed. Pub. L. 117–81", status="repealed")
        + sec("475", "475", "Renumbered § 405a", status="renumbered")
        + sec("405a", "405a", "Per diem", text="A member …")
    )
    with _index(tmp_path, doc("37", body)) as index:
        gone = index.lookup(StatuteKey("usc", "37", "404")).record
        assert gone is not None and gone.moved_to == "37 U.S.C. § 474" and gone.moved_state == "repealed"
        assert not gone.moved_checked
        chained = index.lookup(StatuteKey("usc", "37", "405")).record
        assert chained is not None and chained.moved_to == "37 U.S.C. § 405a" and chained.moved_checked


def test_a_section_missing_from_an_older_release_is_not_certain(tmp_path: Path) -> None:
    """An index of 113-31 called PROMESA (48 U.S.C. §§ 2101 ff., 2016) fabricated, with no word of the release."""
    old = doc("48", sec("2003", "2003", "Older", text="…"), edition="113-31")
    with _index(tmp_path, old) as index:
        answer = index.lookup(StatuteKey("usc", "48", "2121"))
        assert (
            answer.outcome is LookupOutcome.NOT_FOUND
            and answer.newer == "119-36"
            and answer.edition == "113-31"
        )
    with _index(tmp_path, doc("48", sec("2003", "2003", "Older", text="…"), edition="119-36")) as index:
        assert index.lookup(StatuteKey("usc", "48", "2121")).newer == ""  # the newest known: certain


def test_a_newer_release_held_once_makes_older_titles_uncertain(tmp_path: Path) -> None:
    with _index(tmp_path, doc("9", sec("1", "1", "A", text="…"), edition="120-5")) as index:
        index.replace_title(
            *parse_uslm(io.BytesIO(doc("48", sec("1", "1", "B", text="…"), edition="119-36"))), source="t"
        )
        assert index.newest_release() == "120-5"
        assert index.lookup(StatuteKey("usc", "48", "2")).newer == "120-5"
        assert index.lookup(StatuteKey("usc", "9", "2")).newer == ""


def test_a_cfr_edition_older_than_the_briefs_date_is_not_certain(tmp_path: Path) -> None:
    data = io.BytesIO(_bulk("3", [("1", "3:1")], edition="March 17, 2015"))
    with StatuteIndex(tmp_path / "s.sqlite") as index:
        title, it = parse_ecfr(data, name="title-3.xml")
        index.replace_title(title, it, source="t")
        assert index.lookup(StatuteKey("cfr", "3", "100.9"), as_of="2024-05-01").newer == "2024-05-01"
        assert index.lookup(StatuteKey("cfr", "3", "100.9"), as_of="2014-05-01").newer == ""
        assert index.lookup(StatuteKey("cfr", "3", "100.9")).newer == ""


def _bulk(
    title: str, volumes: list[tuple[str, str]], *, edition: str = "May 1, 2018", idno: str | None = None
) -> bytes:
    """govinfo's eCFR bulk file: a header naming the title, one ``DIV1`` per volume (``N`` the volume)."""
    out = [
        '<?xml version="1.0" encoding="UTF-8" ?><DLPSTEXTCLASS><HEADER><FILEDESC><TITLESTMT><TITLE>'
        f'Title {title}: Test</TITLE></TITLESTMT><PUBLICATIONSTMT><IDNO TYPE="title">{idno or title}</IDNO>'
        f"</PUBLICATIONSTMT></FILEDESC></HEADER><TEXT><BODY><ECFRBRWS><AMDDATE>{edition}</AMDDATE>"
    ]
    for n, node in volumes:
        part = str(100 * int(n))
        out.append(
            f'<DIV1 N="{n}" NODE="{node}" TYPE="TITLE"><HEAD>Title {title}--Volume {n}</HEAD>'
            f'<DIV5 N="{part}" NODE="{node}.0.1" TYPE="PART"><HEAD>PART {part} - RULES</HEAD>'
            f'<DIV8 N="§ {part}.1" NODE="{node}.0.1.1" TYPE="SECTION"><HEAD>§ {part}.1   Scope.</HEAD>'
            "<P>Text.</P></DIV8>"
            "</DIV5></DIV1>"
        )
    out.append("</ECFRBRWS></BODY></TEXT></DLPSTEXTCLASS>")
    return "".join(out).encode()


def test_a_bulk_file_of_several_volumes_is_one_title() -> None:
    title, it = parse_ecfr(io.BytesIO(_bulk("40", [("1", "40:1"), ("2", "40:2")])), name="ECFR-title40.xml")
    assert (
        [s.section for s in it] == ["100.1", "200.1"]
        and title.title == "40"
        and title.edition == "2018-05-01"
    )


@pytest.mark.parametrize(
    ("data", "expected", "message"),
    [
        (_bulk("40", [("1", "40:1"), ("2", "41:2")]), None, "says title 41, the file's title is 40"),
        (_bulk("40", [("1", "40:1")], idno="41"), None, "says title 40, the file's title is 41"),
        (_bulk("40", [("1", "40:1")]), "3", "holds title 40, not title 3"),
    ],
)
def test_a_bulk_file_that_disagrees_about_its_title_is_refused(
    data: bytes, expected: str | None, message: str
) -> None:
    _title, it = parse_ecfr(io.BytesIO(data), name="x.xml", expected_title=expected)
    with pytest.raises(SchemaChanged, match=message):
        list(it)
