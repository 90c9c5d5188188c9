"""Existence: fabricated only from NOT_FOUND, cannot-verify (info) for everything uncovered."""

from __future__ import annotations

from citecheck.checks.existence import ExistenceCheck
from citecheck.findings import Kind, Severity
from citecheck.sources.models import CiteKey, LookupResult, LookupStatus
from citecheck_testing import make_citation

TEXT = "See Peyton v. District of Columbia, 100 A.2d 37 (D.C. 1953)."


def kinds(findings) -> list[str]:  # type: ignore[no-untyped-def]
    return [f.kind.value for f in findings]


def test_not_found_in_covered_volume_is_a_likely_fabricated_warning(make_ctx) -> None:
    c = make_citation(TEXT, "100 A.2d 37", name="Peyton v. District of Columbia", year=1953)
    lookup = LookupResult(
        key=CiteKey("100", "A.2d", "37"),
        status=LookupStatus.NOT_FOUND,
        source="corpus",
        reason="the corpus holds all of 100 A.2d",
    )
    found = list(ExistenceCheck().run(make_ctx(TEXT, [c], lookup=lookup)))
    assert kinds(found) == ["fabricated-case"]
    # absence from a source's data alone is a warning (issue 32: the evidence rule)
    assert found[0].severity is Severity.WARNING
    assert "likely fabricated" in found[0].message
    assert "100 A.2d 37" in found[0].message and found[0].span.of(TEXT) == "100 A.2d 37"


def test_first_page_inside_the_named_case_is_wrong_first_page_not_fabricated(make_ctx, cap_case) -> None:
    record, _ = cap_case("0036-01")  # Peyton, 100 A.2d 36-38
    c = make_citation(TEXT, "100 A.2d 37", name="Peyton v. District of Columbia", year=1953)
    lookup = LookupResult(
        key=CiteKey("100", "A.2d", "37"), status=LookupStatus.NOT_FOUND, source="corpus", containing=record
    )
    [f] = ExistenceCheck().run(make_ctx(TEXT, [c], lookup=lookup))
    # the draft names the real case whose middle it cites: never "fabricated"
    assert (f.kind, f.severity) == (Kind.WRONG_FIRST_PAGE, Severity.ERROR)
    assert "is a real case, but it begins at page 36" in f.message
    assert f.evidence.record_id == record.id
    [fix] = f.fixes
    assert fix.edits[0].new_text == "36, 37" and fix.edits[0].span.of(TEXT) == "37"


def test_first_page_inside_another_case_under_another_name_is_fabricated(make_ctx, cap_case) -> None:
    record, _ = cap_case("0036-01")  # Peyton, 100 A.2d 36-38
    text = "See Harmon v. Capital Transit Co., 100 A.2d 37 (D.C. 1953)."
    c = make_citation(text, "100 A.2d 37", name="Harmon v. Capital Transit Co.", year=1953)
    lookup = LookupResult(
        key=CiteKey("100", "A.2d", "37"), status=LookupStatus.NOT_FOUND, source="corpus", containing=record
    )
    [f] = ExistenceCheck().run(make_ctx(text, [c], lookup=lookup))
    assert f.kind is Kind.FABRICATED_CASE
    assert "middle of Peyton v. District of Columbia" in f.message
    assert f.evidence.record_id == record.id
    # Peyton is evidence that nothing begins there, not the case the draft meant (issue 24: the README's
    # Harmon got a fix naming Pennsylvania R. v. Newmyer): no fix, and no advice to cite Peyton
    assert f.fixes == () and "Cite the case by its first page" not in f.message


def test_cannot_verify_is_info_never_fabricated(make_ctx) -> None:
    c = make_citation(TEXT, "100 A.2d 37", year=1953)
    lookup = LookupResult(
        key=CiteKey("100", "A.2d", "37"),
        status=LookupStatus.CANNOT_VERIFY,
        reason="100 A.2d is only partly in the corpus",
    )
    [f] = ExistenceCheck().run(make_ctx(TEXT, [c], lookup=lookup))
    assert (f.kind, f.severity) == (Kind.CANNOT_VERIFY, Severity.INFO)
    assert "only partly" in f.message


def test_no_source_and_westlaw_are_cannot_verify(make_ctx) -> None:
    c = make_citation(TEXT, "100 A.2d 37")
    [f] = ExistenceCheck().run(make_ctx(TEXT, [c], source_name=None))
    assert f.kind is Kind.CANNOT_VERIFY and "no case-law source" in f.message
    wl_text = "Smith v. Jones, 2019 WL 1234567, at *3 (D. Del. 2019)."
    wl = make_citation(
        wl_text, "2019 WL 1234567", database="WL", volume="2019", reporter="WL", page="1234567"
    )
    [f] = ExistenceCheck().run(make_ctx(wl_text, [wl], lookup=None))
    assert f.kind is Kind.CANNOT_VERIFY and "WL" in f.message


def test_page_past_end_of_complete_volume_is_a_warning_not_impossible(make_ctx) -> None:
    text = "Doe v. Roe, 100 A.2d 2417 (D.C. 1953)."
    c = make_citation(text, "100 A.2d 2417")
    lookup = LookupResult(
        key=CiteKey("100", "A.2d", "2417"),
        status=LookupStatus.NOT_FOUND,
        source="corpus",
        volume_complete=True,
        volume_last_page="1210",
    )
    [f] = ExistenceCheck().run(make_ctx(text, [c], lookup=lookup))
    # the source's last case ends there; the volume may not (CAP #2115): absence, so a warning
    assert (f.kind, f.severity) == (
        Kind.FABRICATED_CASE,
        Severity.WARNING,
    ) and "ends at page 1210" in f.message


def test_found_gives_no_existence_finding(make_ctx, cap_case) -> None:
    record, _ = cap_case("0036-01")
    text = "Peyton v. District of Columbia, 100 A.2d 36 (D.C. 1953)."
    c = make_citation(text, "100 A.2d 36", name="Peyton v. District of Columbia")
    assert list(ExistenceCheck().run(make_ctx(text, [c], record=record))) == []


def test_existence_does_not_pile_a_finding_on_an_impossible_citation(make_ctx) -> None:
    text = "Boone v. Vinson, 446 Cal. Rptr. 4th 183 (2019); Doe v. Roe, 1204 F.3d 100 (2001)."
    volume = make_citation(text, "1204 F.3d 100", index=1, year=2001)
    unknown = make_citation(
        text,
        "446 Cal. Rptr. 4th 183",
        form="unrecognised",
        volume="446",
        reporter="Cal. Rptr. 4th",
        page="183",
    )
    assert list(ExistenceCheck().run(make_ctx(text, [unknown, volume], 1, source_name=None))) == []


def test_found_through_an_inner_page_is_the_middle_of_that_case(make_ctx, cap_case) -> None:
    # CourtListener-style sources resolve a page inside a case to the case (star-pagination fallback)
    record, _ = cap_case("0036-01")
    c = make_citation(TEXT, "100 A.2d 37", name="Peyton v. District of Columbia", year=1953)
    lookup = LookupResult(
        key=CiteKey("100", "A.2d", "37"), status=LookupStatus.FOUND, records=(record,), source="courtlistener"
    )
    [f] = ExistenceCheck().run(make_ctx(TEXT, [c], record=record, lookup=lookup))
    assert f.kind is Kind.WRONG_FIRST_PAGE and "Peyton" in f.message and "CourtListener" in f.message


# --- the evidence rule (issue 32) -------------------------------------------------------------------


def test_a_page_inside_a_range_that_is_not_caps_is_a_warning(make_ctx, cap_case) -> None:
    """Only CAP's first and last pages make "strictly inside" proof; a range from star pagination (or a
    service's star-pagination fallback) is a substring match on page markers."""
    from dataclasses import replace

    cap, _ = cap_case("0036-01")  # Peyton, 100 A.2d 36-38
    derived = replace(cap, id="cl:1", source="courtlistener")
    text = "See Harmon v. Capital Transit Co., 100 A.2d 37 (D.C. 1953)."
    c = make_citation(text, "100 A.2d 37", name="Harmon v. Capital Transit Co.", year=1953)
    key = CiteKey("100", "A.2d", "37")
    for record, severity in ((cap, Severity.ERROR), (derived, Severity.WARNING)):
        lookup = LookupResult(key=key, status=LookupStatus.NOT_FOUND, source="index", containing=record)
        [f] = ExistenceCheck().run(make_ctx(text, [c], lookup=lookup))
        assert (f.kind, f.severity) == (Kind.FABRICATED_CASE, severity), record.source


def test_the_named_case_a_page_later_in_the_sources_data_is_a_warning(make_ctx, cap_case) -> None:
    """CourtListener's first pages have errors of their own (CAP #2115): the draft may be the one right."""
    peyton, _ = cap_case("0036-01")
    text = "See Peyton v. District of Columbia, 100 A.2d 35 (D.C. 1953)."
    c = make_citation(text, "100 A.2d 35", name="Peyton v. District of Columbia", year=1953)
    lookup = LookupResult(key=CiteKey("100", "A.2d", "35"), status=LookupStatus.NOT_FOUND, source="index",
                          volume_complete=True, neighbours=(peyton,))  # fmt: skip
    [f] = ExistenceCheck().run(make_ctx(text, [c], lookup=lookup))
    assert (f.kind, f.severity) == (Kind.WRONG_FIRST_PAGE, Severity.WARNING)
    assert f.fixes and f.fixes[0].edits[0].new_text == "36"


def test_a_parallel_citation_that_is_the_named_case_leaves_no_finding(make_ctx, cap_case) -> None:
    """State ex rel. Fenley v. Ohio Historical Society, 1992-Ohio-2 (CourtListener #3992, #5768): the
    neutral citation is missing from the data, its parallel in the same cite is the named case."""
    from dataclasses import replace

    peyton, _ = cap_case("0036-01")
    text = "Peyton v. District of Columbia, 100 A.2d 36, 1953-DC-7 (D.C. 1953)."
    a = make_citation(text, "100 A.2d 36", name="Peyton v. District of Columbia", year=1953)
    b = replace(make_citation(text, "100 A.2d 36", index=1), group=0)
    a = replace(a, group=0)
    lookup = LookupResult(key=CiteKey("1953", "DC", "7"), status=LookupStatus.NOT_FOUND, source="index",
                          volume_complete=True)  # fmt: skip
    ctx = make_ctx(text, [a, b], 1, lookup=lookup)
    assert kinds(ExistenceCheck().run(ctx)) == ["fabricated-case"]  # without the parallel's record
    assert list(ExistenceCheck().run(replace(ctx, parallels=(peyton,)))) == []
    other = replace(peyton, name="Jones v. Board of Education", name_abbreviation=None, name_full=None,
                    name_short=None)  # fmt: skip
    assert kinds(ExistenceCheck().run(replace(ctx, parallels=(other,)))) == ["fabricated-case"]
