"""The shared report view: statuses, line/column in code points, the table of authorities, notes."""

from __future__ import annotations

from citecheck.extract.models import Extraction
from citecheck.findings import Kind, make_finding
from citecheck.report.model import BatchResult, Status, authorities, file_result, notes
from citecheck.results import CitationResult, Report
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


def test_a_finding_on_a_verified_citation_makes_it_a_problem(sample_batch):
    text, cites = sample_batch.files[0].text, sample_batch.files[0].citations
    V = Status.VERIFIED
    report = Report(
        text=text,
        extraction=Extraction(text=text, citations=cites[:2]),
        findings=(),
        results=(
            CitationResult(citation_index=0, status=V, basis=V),
            CitationResult(citation_index=1, status=Status.NOT_CHECKED, basis=Status.NOT_CHECKED),
        ),
    ).with_findings([make_finding(Kind.NAME_MISMATCH, Span(35, 47), "x", citation_index=0)])
    fr = file_result("a.md", "markdown", text, report)
    assert fr.status_of(0).status is Status.PROBLEM
    assert fr.status_of(1).status is Status.NOT_CHECKED
    # the finding dismissed again: back to what the sources said
    assert file_result("a.md", "markdown", text, report.with_findings([])).status_of(0).status is V


def test_cannot_verify_note_explains_how_to_enable_verification_and_accuses_nobody(sample_batch):
    text, cites = sample_batch.files[0].text, sample_batch.files[0].citations
    C = Status.CANNOT_VERIFY
    report = Report(
        text=text,
        extraction=Extraction(text=text, citations=cites[:1]),
        findings=(make_finding(Kind.CANNOT_VERIFY, Span(35, 47), "not covered", citation_index=0),),
        results=(CitationResult(citation_index=0, status=C, basis=C),),
    )
    fr = file_result("a.md", "markdown", text, report)
    assert fr.status_of(0).status is Status.CANNOT_VERIFY
    (note,) = notes(BatchResult(files=(fr,)))
    # one citation of one: most of the document, so the first-run note (issue 32 item 6)
    assert note.startswith("Most citations could not be checked: 1 of 1 case citations.")
    assert "`citecheck corpus sync`" in note
    assert "citecheck corpus import" in note and "CITECHECK_COURTLISTENER_TOKEN" in note
    assert "fabricat" not in note


def test_when_few_citations_are_unverified_the_note_is_the_plain_count(sample_batch):
    (note,) = notes(BatchResult(files=(replace_statuses(sample_batch.files[0]),)))
    assert note.startswith("1 citation could not be verified") and "Most citations" not in note


def replace_statuses(fr):
    """``fr`` with its first citation cannot-verify and the others verified."""
    from dataclasses import replace as dc_replace

    statuses = tuple(
        dc_replace(st, status=Status.CANNOT_VERIFY if i == 0 else Status.VERIFIED)
        for i, st in enumerate(fr.statuses)
    )
    return dc_replace(fr, statuses=statuses)
