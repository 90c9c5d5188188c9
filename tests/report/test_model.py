"""The shared report view: statuses, line/column in code points, the table of authorities, notes."""

from __future__ import annotations

from types import SimpleNamespace

from citecheck.findings import Kind, make_finding
from citecheck.report.model import BatchResult, Status, authorities, file_result, notes
from citecheck.spans import Span


def test_line_col_counts_code_points_not_utf16(sample_batch):
    f = sample_batch.files[0]
    start = f.text.index("512 A.4th 77")
    line, col = f.line_col(start)
    # the emoji before it is one code point (two UTF-16 units): column must count it once
    assert (line, col) == (3, f.text.split("\n")[2].index("512 A.4th 77") + 1)


def test_table_of_authorities_lists_each_case_once_with_every_place(sample_batch):
    toa = authorities(sample_batch.files[0])
    by_name = {a.name: a for a in toa}
    assert sorted(by_name) == ["Berry v. Keith", "Savage v. Parks", "Whitfield v. Kessler"]
    berry = by_name["Berry v. Keith"]
    assert [p.citation_index for p in berry.places] == [1, 2]  # full cite and its Id.
    assert berry.status is Status.PROBLEM and berry.kinds == ("pincite-out-of-range",)
    assert by_name["Savage v. Parks"].status is Status.VERIFIED
    assert by_name["Whitfield v. Kessler"].status is Status.PROBLEM


def test_a_finding_overrides_a_milder_pipeline_status(sample_batch):
    report = SimpleNamespace(
        extraction=sample_batch.files[0] and SimpleNamespace(citations=sample_batch.files[0].citations),
        findings=(make_finding(Kind.NAME_MISMATCH, Span(35, 47), "x", citation_index=0),),
        results=(SimpleNamespace(citation_index=0, status="verified", record=None),),
    )
    fr = file_result("a.md", "markdown", sample_batch.files[0].text, report)
    assert fr.status_of(0).status is Status.PROBLEM
    # no result at all and no finding: nothing was looked up
    assert fr.status_of(1).status is Status.NOT_CHECKED


def test_cannot_verify_note_explains_how_to_enable_verification_and_accuses_nobody(sample_batch):
    report = SimpleNamespace(
        extraction=SimpleNamespace(citations=sample_batch.files[0].citations[:1]),
        findings=(make_finding(Kind.CANNOT_VERIFY, Span(35, 47), "not covered", citation_index=0),),
        results=(),
    )
    fr = file_result("a.md", "markdown", sample_batch.files[0].text, report)
    assert fr.status_of(0).status is Status.CANNOT_VERIFY
    (note,) = notes(BatchResult(files=(fr,)))
    assert "1 citation could not be verified" in note
    assert "citecheck corpus import" in note and "CITECHECK_COURTLISTENER_TOKEN" in note
    assert "fabricat" not in note
