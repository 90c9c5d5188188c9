"""CAP's case metadata as evidence (the evidence rule, issue 32): a page strictly inside a CAP case under
another name is an error, absence alone a warning; the metadata is fetched once over loopback, kept in the
cache for good, never fetched offline; several decisions on one page are compared by name."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from citecheck.config import Settings
from citecheck.findings import Kind, Severity
from citecheck.pipeline import check_document
from citecheck.sources.base import Unavailable
from citecheck.sources.cache import Cache
from citecheck.sources.cap_fetch import CapFetcher
from citecheck.sources.cap_ranges import CapRanges, evidence_at, parse_cases_metadata
from citecheck.sources.chain import SourceChain
from citecheck.sources.index.build import build_from_folder
from citecheck.sources.index.source import IndexSource
from citecheck_testing import shared_corpus_path
from citecheck_testing.bulk_dump import Case, closed_volume_cases, write_dump


def cap_entry(cap_id: int, name: str, cite: str, first: str, last: str, date: str = "1953-11-17") -> dict:
    """One CasesMetadata.json entry in CAP's shape (keys as the static site writes them; made-up case)."""
    return {
        "id": cap_id, "name": name.upper(), "name_abbreviation": name, "decision_date": date,
        "docket_number": "No. 1", "first_page": first, "last_page": last,
        "citations": [{"type": "official", "cite": cite}],
        "court": {"name_abbreviation": "D.C.", "id": 21806, "name": "District of Columbia Court of Appeals"},
        "jurisdiction": {"id": 56, "name_long": "District of Columbia", "name": "D.C."},
        "cites_to": [], "analysis": {}, "last_updated": "2023-07-21T00:00:00+00:00", "provenance": {},
        "file_name": f"{int(first):04d}-01", "first_page_order": int(first), "last_page_order": int(last),
    }  # fmt: skip


A2D_100 = [
    cap_entry(1, "Harbor Realty Co. v. Baltimore County", "100 A.2d 1", "1", "6"),
    cap_entry(4, "Peyton v. District of Columbia", "100 A.2d 36", "36", "38"),
    cap_entry(5, "Dep't of Human Res. v. Johnson", "100 A.2d 45", "45", "51"),
]
US_346 = [
    cap_entry(11, "Alpha v. United States", "346 U.S. 900", "900", "905", "1953-12-07"),
    cap_entry(12, "Baker v. Ohio", "346 U.S. 906", "906", "906", "1953-12-07"),
    cap_entry(13, "Carter v. Texas", "346 U.S. 906", "906", "906", "1953-12-07"),
    cap_entry(14, "Dorsey v. Kansas", "346 U.S. 907", "907", "940", "1953-12-07"),
]

BRIEF = (
    "The rule is settled. Harmon v. Capital Transit Co., 100 A.2d 37 (D.C. 1953); Whitcomb v. Arundel "
    "County, 100 A.2d 52 (Md. 1953); Carter v. Texas, 346 U.S. 906 (1953).\n"
)


def _us_cases() -> list[Case]:
    return [
        Case(id=920000901, name="Alpha v. United States", cites=[("346", "U.S.", "900")], date="1953-12-07",
             court="scotus"),
        Case(id=920000902, name="Baker v. Ohio", cites=[("346", "U.S.", "906")], date="1953-12-07", court="scotus"),
        Case(id=920000903, name="Dorsey v. Kansas", cites=[("346", "U.S.", "907")], date="1953-12-07",
             court="scotus"),
    ]  # fmt: skip


@pytest.fixture
def index(tmp_path: Path) -> Path:
    write_dump(tmp_path / "dump", [*closed_volume_cases(), *_us_cases()])
    build_from_folder(tmp_path / "index.sqlite", tmp_path / "dump", full_dump=True)
    return tmp_path / "index.sqlite"


def _serve_metadata(loopback) -> None:
    loopback.json("GET", "/a2d/100/CasesMetadata.json", (200, A2D_100))
    loopback.json("GET", "/us/346/CasesMetadata.json", (200, US_346))


async def _findings(index: Path, cache_path: Path, url: str | None) -> dict[str, set[tuple[Kind, Severity]]]:
    cache = await Cache.open(cache_path)
    fetcher = CapFetcher(url) if url else None
    ranges = CapRanges(cache=cache, fetcher=fetcher)
    chain = SourceChain([IndexSource.open(index), cache, Unavailable("offline"), ranges])
    try:
        report = await check_document(BRIEF, chain, Settings(offline=True, cap_fetch=False))
    finally:
        await chain.close()
        if fetcher is not None:
            await fetcher.close()
    out: dict[str, set[tuple[Kind, Severity]]] = {}
    for f in report.findings:
        c = report.extraction.citations[f.citation_index]
        out.setdefault(c.cite_string or c.text, set()).add((f.kind, f.severity))
    return out


async def test_a_page_strictly_inside_a_cap_case_is_an_error_absence_alone_a_warning(
    index: Path, tmp_path: Path, loopback
) -> None:
    without = await _findings(index, tmp_path / "none.sqlite", None)
    assert without["100 A.2d 37"] == {(Kind.FABRICATED_CASE, Severity.WARNING)}  # CourtListener's absence
    assert without["100 A.2d 52"] == {(Kind.FABRICATED_CASE, Severity.WARNING)}
    # one case at 346 U.S. 906 in CourtListener's data, the next at 907: several may share the page
    assert without["346 U.S. 906"] == {(Kind.NAME_MISMATCH, Severity.WARNING)}

    _serve_metadata(loopback)
    found = await _findings(index, tmp_path / "cache.sqlite", loopback.url)
    # Harmon at 100 A.2d 37: strictly inside Peyton (36-38) by CAP's own pages: proof
    assert found["100 A.2d 37"] == {(Kind.FABRICATED_CASE, Severity.ERROR)}
    # 52 lies after Johnson (45-51) in no CAP case: still absence only
    assert found["100 A.2d 52"] == {(Kind.FABRICATED_CASE, Severity.WARNING)}
    # CAP lists Carter v. Texas at 906 beside Baker v. Ohio: the name is compared with both (#336)
    assert "346 U.S. 906" not in found
    paths = [p for _, p, _, _ in loopback.requests]
    assert sorted(paths) == ["/a2d/100/CasesMetadata.json", "/us/346/CasesMetadata.json"]  # volume ids only


async def test_the_metadata_is_kept_for_good_and_never_fetched_without_a_fetcher(
    index: Path, tmp_path: Path, loopback
) -> None:
    _serve_metadata(loopback)
    cache = tmp_path / "cache.sqlite"
    await _findings(index, cache, loopback.url)
    loopback.stop()  # CAP is frozen: the cache answers from now on, offline too
    again = await _findings(index, cache, None)
    assert again["100 A.2d 37"] == {(Kind.FABRICATED_CASE, Severity.ERROR)}
    assert "346 U.S. 906" not in again
    loopback.requests.clear()
    fresh = await _findings(index, tmp_path / "other.sqlite", None)
    assert fresh["100 A.2d 37"] == {(Kind.FABRICATED_CASE, Severity.WARNING)}
    assert loopback.requests == []


async def test_a_broken_or_hostile_metadata_file_is_no_evidence(
    index: Path, tmp_path: Path, loopback
) -> None:
    loopback.routes[("GET", "/a2d/100/CasesMetadata.json")] = [(200, {}, b"<html>maintenance</html>")]
    loopback.json("GET", "/us/346/CasesMetadata.json", (200, {"detail": "not a list"}))
    found = await _findings(index, tmp_path / "cache.sqlite", loopback.url)
    assert found["100 A.2d 37"] == {(Kind.FABRICATED_CASE, Severity.WARNING)}
    assert found["346 U.S. 906"] == {(Kind.NAME_MISMATCH, Severity.WARNING)}


def test_parse_skips_what_is_not_a_case() -> None:
    raw = json.dumps([
        cap_entry(1, "Peyton v. District of Columbia", "100 A.2d 36", "36", "38"),
        {"id": 2, "name_abbreviation": "No Pages v. Anyone"},
        {"id": 3, "name_abbreviation": "X" * 5000, "first_page": "1", "last_page": "2"},
        {"id": 4, "name_abbreviation": "Bad Page v. Path", "first_page": "../1", "last_page": "2"},
        "a string", 7, None,
    ])  # fmt: skip
    cases = parse_cases_metadata(raw)
    assert [c.cap_id for c in cases] == [1, 3]
    assert len(cases[1].name) == 2000
    with pytest.raises(ValueError):
        parse_cases_metadata(b"{}")
    with pytest.raises(ValueError):
        parse_cases_metadata(b"[" * 100_000)


def test_the_real_cap_volume_metadata_gives_the_ranges() -> None:
    """The shared corpus's CasesMetadata.json (harvard-lil/cap-static-tools @ ec96319, 100 A.2d)."""
    path = shared_corpus_path("cap-static", "a2d", "100") / "CasesMetadata.json"
    if not path.is_file():
        pytest.skip("../shared/corpus/cap-static is not here")
    cases = parse_cases_metadata(path.read_bytes())
    assert len(cases) == 9
    inside = evidence_at(cases, "A.2d", "100", "457")
    assert inside.containing is not None and inside.containing.name == "Pennsylvania R. v. Newmyer"
    cite = inside.containing.cite_for("A.2d", "100")
    assert cite is not None and (cite.page, cite.last_page) == ("456", "459")
    at = evidence_at(cases, "A.2d", "100", "38")  # Peyton ends and Branson begins on page 38
    assert at.containing is None and [r.name for r in at.beginning] == ["Branson v. Harris"]
