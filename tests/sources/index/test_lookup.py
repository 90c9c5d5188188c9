"""The index answers like the chain expects: found with the record, NOT_FOUND only in a complete volume
(with the cases around the page as evidence), CANNOT_VERIFY for running series, partial imports and
reporters it has nothing of; and its name search finds a case from a name as briefs write it."""

from __future__ import annotations

from pathlib import Path

import pytest

from citecheck.sources.index.build import build_from_folder
from citecheck.sources.index.lookup import CitationIndex
from citecheck.sources.models import CiteKey, LookupStatus
from citecheck_testing.bulk_dump import Case, closed_volume_cases, write_dump


@pytest.fixture(scope="module")
def full(tmp_path_factory) -> CitationIndex:
    root = tmp_path_factory.mktemp("full")
    cases = closed_volume_cases()
    # two cases at one page (an errata and the case): the lookup is ambiguous, never a guess
    cases.append(
        Case(id=910000107, name="Smith v. State (Errata)", cites=[("100", "A.2d", "7")], status="Errata")
    )
    write_dump(root / "dump", cases, unreferenced_dockets=20)
    build_from_folder(root / "index.sqlite", root / "dump", full_dump=True)
    index = CitationIndex(root / "index.sqlite")
    yield index
    index.close()


@pytest.fixture(scope="module")
def partial(tmp_path_factory) -> CitationIndex:
    root = tmp_path_factory.mktemp("partial")
    write_dump(root / "dump", closed_volume_cases())
    build_from_folder(root / "index.sqlite", root / "dump", full_dump=False)
    index = CitationIndex(root / "index.sqlite")
    yield index
    index.close()


def one(index: CitationIndex, cite: str):
    vol, rest = cite.split(" ", 1)
    rep, page = rest.rsplit(" ", 1)
    key = CiteKey(vol, rep, page)
    return index.lookup([key])[key]


def test_a_found_citation_carries_the_whole_record(full: CitationIndex) -> None:
    r = one(full, "100 A.2d 36")
    assert r.status is LookupStatus.FOUND and r.source == "index" and r.volume_complete
    rec = r.record
    assert rec is not None
    assert (rec.id, rec.name, rec.name_short, rec.decision_date) == (
        "cl:910000104",
        "Peyton v. District of Columbia",
        "Peyton",
        "1953-11-17",
    )
    assert (rec.court_id, rec.court_name, rec.docket_number, rec.status) == (
        "dc",
        "District of Columbia Court of Appeals",
        "No. 1375",
        "Published",
    )
    assert rec.url == "https://www.courtlistener.com/opinion/910000104/peyton-v-district-of-columbia/"


def test_parallel_citations_come_in_citation_order(full: CitationIndex) -> None:
    rec = one(full, "203 Md. 1").record
    assert rec is not None and [str(c) for c in rec.citations] == ["100 A.2d 1", "203 Md. 1"]
    assert one(full, "93 S. Ct. 705").record.name == "Roe v. Wade"  # type: ignore[union-attr]


def test_reporter_spellings_are_normalised(full: CitationIndex) -> None:
    assert one(full, "100 A. 2d 36").status is LookupStatus.FOUND
    assert one(full, "410 U. S. 113").status is LookupStatus.FOUND


def test_two_cases_at_one_page_are_ambiguous(full: CitationIndex) -> None:
    r = one(full, "100 A.2d 7")
    assert r.status is LookupStatus.AMBIGUOUS
    assert sorted(x.name for x in r.records) == ["Smith v. State", "Smith v. State (Errata)"]


def test_a_page_inside_a_complete_volume_is_not_found_with_its_neighbours(full: CitationIndex) -> None:
    r = one(full, "100 A.2d 40")
    assert r.status is LookupStatus.NOT_FOUND and r.volume_complete
    # the index knows where cases begin, not where they end: it names the cases around the page and no
    # case "containing" it (that needs CAP's page ranges: the evidence rule, issue 32)
    assert r.containing is None
    assert [n.name for n in r.neighbours] == [
        "Peyton v. District of Columbia",
        "Dep't of Human Res. v. Johnson",
    ]
    assert "at page 36" in r.reason and "at page 45" in r.reason
    assert "CourtListener's data holds 7 cases of 100 A.2d and none begins at page 40" in r.reason


def test_a_page_after_the_last_case_cannot_be_verified(full: CitationIndex) -> None:
    r = one(full, "100 A.2d 70")
    assert r.status is LookupStatus.CANNOT_VERIFY  # the volume may hold more cases than CourtListener lists
    assert r.containing is None
    assert "after the last case the index holds" in r.reason and "Jones v. Board of Education" in r.reason


def test_us_reports_are_complete_through_570(full: CitationIndex) -> None:
    assert one(full, "410 U.S. 150").status is LookupStatus.NOT_FOUND


def test_a_running_series_never_proves_absence(full: CitationIndex) -> None:
    r = one(full, "12 F.4th 120")
    assert r.status is LookupStatus.CANNOT_VERIFY and r.containing is None
    assert "F.4th" in r.reason and "falls within" not in r.reason


def test_a_volume_with_too_few_cases_stays_unverifiable(full: CitationIndex) -> None:
    assert one(full, "411 U.S. 5").status is LookupStatus.CANNOT_VERIFY  # one case of 411 U.S. in the dump


@pytest.mark.parametrize(
    ("cite", "words"),
    [
        ("5 Cal. Rptr. 3", "no case in Cal. Rptr."),
        ("101 A.2d 3", "no case in 101 A.2d"),
        ("2019 WL 1396975", "Westlaw"),
    ],
)
def test_what_the_index_has_nothing_of_cannot_be_verified(full: CitationIndex, cite: str, words: str) -> None:
    r = one(full, cite)
    assert r.status is LookupStatus.CANNOT_VERIFY and words in r.reason


def test_a_partial_import_makes_nothing_complete(partial: CitationIndex) -> None:
    assert one(partial, "100 A.2d 36").status is LookupStatus.FOUND
    r = one(partial, "100 A.2d 40")
    assert r.status is LookupStatus.CANNOT_VERIFY and "partial import" in r.reason
    assert partial.status().complete_volumes == 0 and not partial.status().full_dump


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        (
            "Int'l Bhd. of Elec. Workers v. Chesapeake & Potomac Tel. Co.",
            "Int'l Bhd. of Elec. Workers v. Chesapeake Tel. Co.",
        ),
        ("Department of Human Resources v. Johnson", "Dep't of Human Res. v. Johnson"),
        ("Peyton v. D.C.", "Peyton v. District of Columbia"),
        ("Harbor Realty", "Harbor Realty Co. v. Baltimore County"),
        ("Roe", "Roe v. Wade"),
        (
            "San Antonio Independent School District v. Rodriguez",
            "San Antonio Indep. Sch. Dist. v. Rodriguez",
        ),
        ("Carter v. Flemming", "Carter v. Fleming"),  # a typo in one party: found by the other
    ],
)
def test_the_name_search_finds_the_case_first(full: CitationIndex, query: str, expected: str) -> None:
    hits = full.search_names(query, limit=5)
    assert hits and hits[0].record.name == expected, [(h.record.name, h.score) for h in hits]


def test_the_name_search_filters_by_court_and_years(full: CitationIndex) -> None:
    assert [h.record.name for h in full.search_names("Smith v. State", court="md")][:1] == ["Smith v. State"]
    assert full.search_names("Smith v. State", court="ca4") == []
    assert full.search_names("Roe v. Wade", years=(1970, 1975))[0].record.name == "Roe v. Wade"
    assert full.search_names("Roe v. Wade", years=(1990, 2000)) == []
    assert full.search_names("of the and") == []  # no word that names anything


def test_status_counts_what_was_built(full: CitationIndex) -> None:
    st = full.status()
    assert st.full_dump and st.dump_date == "2026-06-30"
    assert (st.cases, st.citations, st.courts) == (14, 17, 5)
    assert st.dockets == 14  # only the dockets a case refers to; the 20 RECAP dockets are dropped
    assert st.complete_volumes == 2  # 100 A.2d and 410 U.S.


def test_a_newer_build_swapped_in_is_picked_up(tmp_path: Path) -> None:
    write_dump(tmp_path / "d1", closed_volume_cases()[:2], date="2026-03-31")  # too few to be complete
    build_from_folder(tmp_path / "ix.sqlite", tmp_path / "d1", full_dump=True)
    index = CitationIndex(tmp_path / "ix.sqlite")
    try:
        assert one(index, "100 A.2d 36").status is LookupStatus.CANNOT_VERIFY
        write_dump(tmp_path / "d2", closed_volume_cases(), date="2026-06-30")
        build_from_folder(tmp_path / "ix.sqlite", tmp_path / "d2", full_dump=True, rebuild=True)
        assert index.refresh() is True
        assert one(index, "100 A.2d 36").status is LookupStatus.FOUND
        assert index.refresh() is False
    finally:
        index.close()


def test_a_file_that_is_no_index_is_refused_clearly(tmp_path: Path) -> None:
    from citecheck.errors import CorpusError

    bogus = tmp_path / "not-an-index.sqlite"
    bogus.write_bytes(b"SQLite format 3\x00" + b"\x00" * 100)
    with pytest.raises(CorpusError, match="not a citation index"):
        CitationIndex(bogus)
    with pytest.raises(CorpusError, match="no citation index"):
        CitationIndex(tmp_path / "missing.sqlite")


def test_a_page_that_is_no_number_and_an_id_past_32_bits_are_found(tmp_path: Path) -> None:
    """The volume row packs pages and clusters as integers; a slip-opinion page ("50123(U)") is looked
    up among the citation rows instead, and a cluster id past 2**32 widens that volume's array."""
    cases = [
        *closed_volume_cases(),
        Case(id=5_000_000_123, name="Big Id v. Wide Array", cites=[("100", "A.2d", "20")], date="1953-10-30"),
        Case(id=910000401, name="People v. Slip", cites=[("2020", "N.Y. Slip Op.", "50123(U)")], date="2020-02-03",
             court="md"),
    ]  # fmt: skip
    write_dump(tmp_path / "d", cases)
    build_from_folder(tmp_path / "ix.sqlite", tmp_path / "d", full_dump=True)
    index = CitationIndex(tmp_path / "ix.sqlite")
    try:
        wide = one(index, "100 A.2d 20")
        assert wide.status is LookupStatus.FOUND and wide.record.id == "cl:5000000123"  # type: ignore[union-attr]
        after = one(index, "100 A.2d 25")  # between 20 and 36: the wide id is the case before it
        assert after.status is LookupStatus.NOT_FOUND and after.neighbours[0].name == "Big Id v. Wide Array"
        assert one(index, "100 A.2d 36").record.name == "Peyton v. District of Columbia"  # type: ignore[union-attr]
        slip = one(index, "2020 N.Y. Slip Op. 50123(U)")
        assert slip.status is LookupStatus.FOUND and slip.record.name == "People v. Slip"  # type: ignore[union-attr]
        assert one(index, "2020 N.Y. Slip Op. 50124(U)").status is LookupStatus.CANNOT_VERIFY
    finally:
        index.close()
