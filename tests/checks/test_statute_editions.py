"""What the statute checks say on what the real releases hold (issue 33 items 2–4): an older release never
accuses, a wrong appendix act number is a warning, parts are checked as parts, a move names its release and
offers only a destination in force, and a number two sections bear gets no quotation verdict."""

from __future__ import annotations

import io
from pathlib import Path

from citecheck.config import Settings
from citecheck.extract import extract_citations
from citecheck.findings import Kind, Severity
from citecheck.gather import gather
from citecheck.judge import judge
from citecheck.sources.chain import SourceChain
from citecheck.sources.statutes.ecfr import parse_ecfr
from citecheck.sources.statutes.index import StatuteIndex
from citecheck.sources.statutes.link import StatuteLink
from citecheck.sources.statutes.uslm import parse_uslm
from citecheck_testing.statutes import FakeSection, ecfr_title, uslm_title

NS = "http://xml.house.gov/schemas/uslm/1.0"


def _appendix_18a() -> bytes:
    """An 18a of two acts numbered alike, shaped as release 119-36 prints it (compiledAct identifiers)."""

    def act(law: str, name: str, heading4: str, text4: str) -> str:
        return (
            f'<compiledAct identifier="/us/usc/t18a/pl/{law}"><heading>{name}</heading>'
            f'<section identifier="/us/usc/t18a/pl/{law}/s4"><num value="4">§ 4.</num><heading> {heading4}</heading>'
            f"<content><p>{text4}</p></content></section></compiledAct>"
        )

    body = act(
        "91/538",
        "INTERSTATE AGREEMENT ON DETAINERS",
        "Definition of term “appropriate court”",
        "The term “appropriate court” as used in the agreement on detainers shall mean the courts of the "
        "United States.",
    ) + act(
        "96/456",
        "CLASSIFIED INFORMATION PROCEDURES ACT",
        "Discovery of classified information by defendants",
        "The court, upon a sufficient showing, may authorize the United States to delete specified items of "
        "classified information from documents to be made available to the defendant through discovery.",
    )
    return (
        f'<?xml version="1.0"?><uscDoc xmlns="{NS}" identifier="/us/usc/t18a"><meta><docNumber>18a</docNumber>'
        f'<docPublicationName>Online@119-36</docPublicationName></meta><appendix identifier="/us/usc/t18a">'
        f'<num value="18a">Title 18—APPENDIX</num><heading>APPENDIX</heading>{body}</appendix></uscDoc>'
    ).encode()


def _index(tmp_path: Path) -> StatuteIndex:
    index = StatuteIndex(tmp_path / "statutes.sqlite")
    files = [
        _appendix_18a(),
        uslm_title("48", [FakeSection(number="2003", heading="Older", paragraphs=("…",))], edition="113-31"),
        uslm_title(
            "37",
            [
                FakeSection(number="404", heading="Renumbered § 474", status="renumbered"),
                FakeSection(number="405", heading="Renumbered § 475", status="renumbered"),
                FakeSection(
                    number="471", heading="Repealed. Pub. L. 117–81", status="repealed", range_to="474b"
                ),
                FakeSection(number="475", heading="Per diem", paragraphs=("A member …",)),
            ],
        ),
    ]
    for data in files:
        title, it = parse_uslm(io.BytesIO(data), name="t.xml")
        index.replace_title(title, it, source="test")
    cfr = ecfr_title(
        "2",
        {
            "200": [
                FakeSection(number="200.317", heading="Procurements by states.", paragraphs=("A State …",))
            ]
        },
    )
    title, it = parse_ecfr(io.BytesIO(cfr), name="title-2.xml")
    index.replace_title(title, it, source="test")
    return index


async def _check(text: str, index: StatuteIndex):  # type: ignore[no-untyped-def]
    extraction = extract_citations(text)
    evidence = await gather(extraction, SourceChain([StatuteLink(index)]))
    return judge(extraction, evidence, Settings(offline=True))


def _found(report) -> list[tuple[str, Kind, Severity, str]]:  # type: ignore[no-untyped-def]
    texts = {c.index: c.text for c in report.extraction.citations}
    return [(texts[f.citation_index], f.kind, f.severity, f.message) for f in report.findings]


async def test_a_section_missing_from_an_older_release_is_a_warning_naming_both_releases(
    tmp_path: Path,
) -> None:
    with _index(tmp_path) as index:
        report = await _check("The Oversight Board, 48 U.S.C. § 2121, was created in 2016.", index)
    [(_cite, kind, severity, message)] = _found(report)
    assert (kind, severity) == (Kind.FABRICATED_STATUTE, Severity.WARNING)
    assert (
        "release point 113-31" in message
        and "119-36 is newer" in message
        and "may have been enacted since" in message
    )


async def test_appendix_acts_a_quotation_of_the_right_one_and_a_wrong_act_number(tmp_path: Path) -> None:
    text = (
        "Under 18 U.S.C. App. 3 § 4, “the court, upon a sufficient showing, may authorize the United States to "
        "delete specified items of classified information.” And 18 U.S.C. App. § 4 says “the court, upon a "
        "sufficient showing, may authorize the United States.”"
    )
    with _index(tmp_path) as index:
        report = await _check(text, index)
        assert _found(report) == []  # CIPA's own words: no misquote; the ambiguous number: no verdict
        hover = report.result(0)
        assert hover is not None and hover.statute is not None
        assert hover.statute.heading == "Discovery of classified information by defendants"
        report = await _check("See 18 U.S.C. App. 1 § 4 and 18 U.S.C. App. 2 § 9.", index)
    found = _found(report)
    assert [(c, k, s) for c, k, s, _m in found] == [
        ("18 U.S.C. App. 2 § 9", Kind.FABRICATED_STATUTE, Severity.ERROR)
    ]


async def test_a_cfr_part_is_checked_as_a_part(tmp_path: Path) -> None:
    with _index(tmp_path) as index:
        report = await _check("See 2 C.F.R. Part 200 and 2 C.F.R. Part 999 and 2 C.F.R. § 200.317.", index)
    found = _found(report)
    assert [(c, k, s) for c, k, s, _m in found] == [
        ("2 C.F.R. Part 999", Kind.FABRICATED_STATUTE, Severity.WARNING)
    ]
    assert "part" in found[0][3] and report.result(0).statute is not None  # type: ignore[union-attr]


async def test_a_move_names_its_release_and_offers_only_a_destination_in_force(tmp_path: Path) -> None:
    with _index(tmp_path) as index:
        report = await _check("Allowances: 37 U.S.C. § 404 and 37 U.S.C. § 405.", index)
    by = {f.citation_index: f for f in report.findings}
    to_repealed, to_current = by[0], by[1]
    assert "renumbered as 37 U.S.C. § 474, since repealed itself" in to_repealed.message
    assert "release point 119-36" in to_repealed.message and to_repealed.fixes == ()
    assert "renumbered as 37 U.S.C. § 475, according to" in to_current.message
    assert [f.edits[0].new_text for f in to_current.fixes] == ["37 U.S.C. § 475"]
