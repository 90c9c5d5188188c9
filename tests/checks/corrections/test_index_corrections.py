"""Corrections against the national citation index (issue 23), offline: name search of every reported case,
near misses looked up in it, and "no case of that name" said as information where a full dump covers it."""

from __future__ import annotations

from pathlib import Path

import pytest

from citecheck.config import Settings
from citecheck.findings import Finding, Kind, Severity
from citecheck.pipeline import check_document
from citecheck.results import Report
from citecheck.sources.base import Unavailable
from citecheck.sources.chain import SourceChain
from citecheck.sources.index.build import build_from_folder
from citecheck.sources.index.source import IndexSource
from citecheck_testing.bulk_dump import closed_volume_cases, write_dump

from .conftest import apply

BRIEF = {
    # the page is in the middle of Dep't of Human Res. v. Johnson (45–59), whose name the draft does not give
    "harmon": "The county may not act. Whitcomb v. Anne Arundel County, 100 A.2d 52 (Md. 1953).",
    # 12 F.4th 151: two digits of Carter's first page (115) transposed; F.4th is a running series (uncovered)
    "transposed": "The circuit agrees. Carter v. Fleming, 12 F.4th 151, 153 (4th Cir. 2021).",
    # the other series: 12 F.3d for 12 F.4th
    "series": "The circuit agrees. Nguyen v. Holder, 12 F.3d 130 (4th Cir. 2021).",
    # a Westlaw number for a reported case the index holds, and one for a name it does not hold
    "westlaw": "See Harbor Realty Co. v. Baltimore County, 1953 WL 7012, at *2 (Md. Oct. 14, 1953).",
    "unknown": "See Whitcomb v. Anne Arundel County, 1953 WL 7013, at *2 (Md. Oct. 20, 1953).",
}


@pytest.fixture(scope="module")
def index_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("index")
    write_dump(folder / "dump", closed_volume_cases())
    build_from_folder(folder / "index.sqlite", folder / "dump", full_dump=True)
    return folder / "index.sqlite"


async def _check(index_file: Path, text: str) -> Report:
    chain = SourceChain([IndexSource.open(index_file), Unavailable("offline mode")])
    try:
        return await check_document(text, chain, Settings(offline=True, cap_fetch=False))
    finally:
        await chain.close()


def _fixed(report: Report) -> list[Finding]:
    return [f for f in report.findings if f.fixes]


async def test_an_unnamed_case_around_the_page_is_never_the_fix(index_file: Path) -> None:
    report = await _check(index_file, BRIEF["harmon"])
    assert {f.kind for f in report.findings} >= {Kind.FABRICATED_CASE}
    assert _fixed(report) == []


@pytest.mark.parametrize(
    ("case", "title", "slip"),
    [
        ("transposed", "Cite Carter v. Fleming, 12 F.4th 115, 153 (2021)", None),
        ("series", "Cite Nguyen v. Holder, 12 F.4th 130 (2021)", "the wrong series (F.3d for F.4th)"),
        ("westlaw", "Cite Harbor Realty Co. v. Baltimore County, 100 A.2d 1 (1953)", None),
    ],
)
async def test_a_citation_the_index_cannot_verify_gets_the_reported_one(
    index_file: Path, case: str, title: str, slip: str | None
) -> None:
    text = BRIEF[case]
    report = await _check(index_file, text)
    [f] = [x for x in report.findings if x.kind is Kind.CANNOT_VERIFY]
    assert f.severity is Severity.INFO  # information: the draft's citation may still be right
    fix = f.fixes[0]
    assert fix.title.startswith(title.split(" (")[0]), fix.title
    if slip:
        assert slip in (fix.why or "")
    fixed = await _check(index_file, apply(text, fix))
    assert not [x for x in fixed.findings if x.severity is not Severity.INFO], fixed.findings


async def test_no_case_of_that_name_is_said_as_information(index_file: Path) -> None:
    report = await _check(index_file, BRIEF["unknown"])
    [f] = report.findings
    assert f.kind is Kind.CANNOT_VERIFY and f.severity is Severity.INFO and f.fixes == ()
    assert "No case of that name is in the citation index built from CourtListener's bulk data" in f.message
    assert "information only" in f.message and "not a finding that the case does not exist" in f.message
