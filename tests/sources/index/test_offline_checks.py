"""The acceptance case of issue 23, through the whole pipeline and offline: a brief citing pages on which no
case begins gets fabricated-case in closed series, not in F.4th; real cases are verified with their names,
and names, years and courts are checked against the index; a partial import makes nothing complete."""

from __future__ import annotations

from pathlib import Path

import pytest

from citecheck.config import Settings
from citecheck.findings import Kind, Severity
from citecheck.pipeline import check_document
from citecheck.results import Status
from citecheck.sources.base import Unavailable
from citecheck.sources.chain import SourceChain
from citecheck.sources.index.build import build_from_folder
from citecheck.sources.index.source import IndexSource
from citecheck_testing.bulk_dump import closed_volume_cases, write_dump

BRIEF = """\
The county may not take the land without a hearing. *Harbor Realty Co. v. Baltimore County*, 100 A.2d 1, 4
(Md. 1953). Nor may it rely on *Whitcomb v. Anne Arundel County*, 100 A.2d 52 (Md. 1953), which does not
exist, or on *Greer v. Tolliver*, 410 U.S. 150 (1973). The Fourth Circuit agrees. *Carter v. Fleming*,
12 F.4th 120 (4th Cir. 2021). See also *Peyton v. District of Columbia*, 100 A.2d 36 (D.C. 1953);
*Peyton v. District of Columbia*, 100 A.2d 38 (D.C. 1953); *Dep't of Human Res. v. Johnson*, 100 A.2d 44
(Md. 1953); *Brown v. Board of Education*, 100 A.2d 60 (Md. 1953); *Smith v. State*, 100 A.2d 7 (Md. 1961);
*Nguyen v. Holder*, 12 F.4th 130 (9th Cir. 2021). The court held that "a hearing is required."
*Roe v. Wade*, 410 U.S. 113, 150 (1973).
"""


def _chain(tmp_path: Path, *, full_dump: bool) -> SourceChain:
    write_dump(tmp_path / "dump", closed_volume_cases(), unreferenced_dockets=20)
    build_from_folder(tmp_path / "index.sqlite", tmp_path / "dump", full_dump=full_dump)
    return SourceChain([IndexSource.open(tmp_path / "index.sqlite"), Unavailable("offline mode")])


async def _check(chain: SourceChain) -> dict[str, list[tuple[Kind, Severity, str]]]:
    try:
        report = await check_document(BRIEF, chain, Settings(offline=True, cap_fetch=False))
    finally:
        await chain.close()
    out: dict[str, list[tuple[Kind, Severity, str]]] = {}
    for f in report.findings:
        c = report.extraction.citations[f.citation_index]
        out.setdefault(c.cite_string or c.text, []).append(
            (f.kind, f.severity, f.message + " | " + (f.evidence.note or ""))
        )
    out["_statuses"] = [(report.result(c.index).status, c.cite_string) for c in report.extraction.citations]  # type: ignore[list-item]
    return out


def kinds(found: dict, cite: str) -> set[Kind]:
    return {k for k, _, _ in found.get(cite, [])}


@pytest.fixture(scope="module")
def full(tmp_path_factory) -> dict:
    import asyncio

    return asyncio.run(_check(_chain(tmp_path_factory.mktemp("full"), full_dump=True)))


def test_pages_on_which_no_case_begins_are_likely_fabricated_in_closed_series(full: dict) -> None:
    assert kinds(full, "100 A.2d 52") == {Kind.FABRICATED_CASE}
    assert kinds(full, "410 U.S. 150") == {Kind.FABRICATED_CASE}
    ((_, severity, text),) = full["100 A.2d 52"]
    # absence from CourtListener's data alone is a warning, never an error (issue 32: the evidence rule)
    assert severity is Severity.WARNING and "likely fabricated" in text
    assert "CourtListener's data holds 6 cases of 100 A.2d" in text
    assert "citation index" in text and "Dep't of Human Res. v. Johnson (1953) at page 45" in text
    assert "Jones v. Board of Education (1953) at page 60" in text  # the cases before and after


def test_the_same_page_in_a_running_series_is_cannot_verify(full: dict) -> None:
    assert kinds(full, "12 F.4th 120") == {Kind.CANNOT_VERIFY}
    ((_, severity, text),) = full["12 F.4th 120"]
    assert severity is Severity.INFO and "not a finding that the case does not exist" in text


def test_real_cases_are_verified_offline_with_their_names(full: dict) -> None:
    statuses = dict((cite, st) for st, cite in full["_statuses"])
    assert statuses["100 A.2d 36"] is Status.VERIFIED
    assert "100 A.2d 36" not in full


def test_a_real_case_cited_by_a_page_in_its_middle_or_just_before_it_is_a_wrong_page(full: dict) -> None:
    assert kinds(full, "100 A.2d 38") == {Kind.WRONG_FIRST_PAGE}  # inside Peyton, which the draft names
    assert kinds(full, "100 A.2d 44") == {Kind.WRONG_FIRST_PAGE}  # the page before Johnson's first
    assert "begins at page 45, not 44" in full["100 A.2d 44"][0][2]


def test_names_years_and_courts_are_checked_against_the_index(full: dict) -> None:
    assert Kind.NAME_MISMATCH in kinds(full, "100 A.2d 60")  # Jones v. Board of Education is there
    assert Kind.YEAR_MISMATCH in kinds(full, "100 A.2d 7")  # decided 1953, the draft says 1961
    assert Kind.COURT_MISMATCH in kinds(full, "12 F.4th 130")  # the Fourth Circuit, not the Ninth


def test_a_quote_or_pin_of_a_case_the_index_resolved_is_not_checked_and_says_why(full: dict) -> None:
    found = full["410 U.S. 113"]
    assert Kind.OPINION_UNAVAILABLE in {k for k, _, _ in found}
    assert all(sev is Severity.INFO for _, sev, _ in found)  # "not checked", never an accusation
    assert any("holds no opinion text" in text for _, _, text in found)
    assert Kind.MISQUOTE not in kinds(full, "410 U.S. 113")  # the index alone never finds a misquote


async def test_a_partial_import_makes_nothing_complete(tmp_path: Path) -> None:
    found = await _check(_chain(tmp_path, full_dump=False))
    assert kinds(found, "100 A.2d 52") == {Kind.CANNOT_VERIFY}
    assert kinds(found, "410 U.S. 150") == {Kind.CANNOT_VERIFY}
    assert "partial import" in found["100 A.2d 52"][0][2]
    assert dict((c, s) for s, c in found["_statuses"])["100 A.2d 36"] is Status.VERIFIED
