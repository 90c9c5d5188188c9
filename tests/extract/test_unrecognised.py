"""Citation-shaped strings with invented reporters; and the ordinary text that must NOT look like one."""

from __future__ import annotations

import pytest

from citecheck.extract import CiteForm, extract_citations


def _unrec(text: str):
    return [c for c in extract_citations(text).citations if c.form is CiteForm.UNRECOGNISED]


def test_invented_reporter_series_with_name() -> None:
    text = "See Boone v. Vinson, 446 Cal. Rptr. 4th 183, 190 (2019)."
    (c,) = _unrec(text)
    assert c.text == "446 Cal. Rptr. 4th 183"
    assert (c.volume, c.reporter, c.page) == ("446", "Cal. Rptr. 4th", "183")
    assert c.case_name is not None and c.case_name.text == "Boone v. Vinson"
    assert c.pincite.text == "190" and c.year == 2019
    assert c.key is None  # never looked up as if it were a real reporter


def test_invented_reporter_word() -> None:
    (c,) = _unrec("Varghese v. China S. Airlines Co., 33 Umbrella 422 (11th Cir. 2019).")
    assert c.text == "33 Umbrella 422" and c.court == "ca11"
    (c,) = _unrec("See 33 Umbrella 422.")
    assert c.text == "33 Umbrella 422" and c.case_name is None


@pytest.mark.parametrize(
    "text",
    [
        "Plaintiff sues under 42 U.S.C. \u00a7 1983 and 28 U.S.C. \u00a7\u00a7 1331, 1343.",
        "Smith v. Jones, No. 12 Civ. 345, 2019 WL 1396975 (S.D.N.Y. Mar. 27, 2019).",
        "In 2019 WL reported the case; on 3 March 2020 the court ruled.",
        "Pub. L. No. 111-148, 124 Stat. 119 (2010).",
        "The hearing was held on June 3, 2019, at 10 A.M. in Courtroom 4 Room 12.",
        "See 17 C.F.R. \u00a7 240.10b-5 and Fed. R. Civ. P. 12(b)(6).",
        "The jury awarded 12 Million 400 thousand dollars.",
        "Roe v. Wade, 410 U.S. 113 (1973); Casey, 505 U.S. 833, 846 (1992).",
        "Section 3 Title 42 applies. Article 2 Section 1 also applies.",
        "Dkt. 12 Ex. 3 at 4; ECF No. 45 Attach. 2 at 7.",
        "U.S. Const. amend. XIV, \u00a7 1; 5 Witkin, Summary of Cal. Law 423 (10th ed. 2005).",
    ],
)
def test_ordinary_text_is_not_an_invented_citation(text: str) -> None:
    assert _unrec(text) == []


def test_real_opinion_text_has_no_invented_reporters(bulk_extractions) -> None:
    """Real opinions cite real reporters; every candidate here would be a false accusation."""
    found = []
    for text, ex in bulk_extractions:
        for c in (c for c in ex.citations if c.form is CiteForm.UNRECOGNISED):
            found.append(text[max(0, c.full_span.start - 40) : c.full_span.end + 10])
    assert found == []


@pytest.mark.parametrize(
    ("text", "reporter"),
    [
        ("Smith v. Jones, 12 F.5th 345 (9th Cir. 2023).", "F.5th"),
        ("Smith v. Jones, 512 U.S.2d 345 (1999).", "U.S.2d"),
        ("Smith v. Jones, 12 Fed. Appx. 4th 345 (2d Cir. 2001).", "Fed. Appx. 4th"),
        ("See Smith v. Jones, 12 N.Y.4th 345 (2020).", "N.Y.4th"),
        ("Smith v. Jones, 12 S. Ct. 2d 345 (1999).", "S. Ct. 2d"),
        ("Smith v. Jones, 332 P. 4th 688, 690 (Cal. 2019).", "P. 4th"),
        ("Smith v. Jones, 332 P.4th 688 (Cal. 2019).", "P.4th"),
        ("Smith v. Jones, 148 A.4th 441, 447 (N.J. 2016).", "A.4th"),
        ("See Smith v. Jones, 12 F.6th 345 (9th Cir. 2023).", "F.6th"),
    ],
)
def test_series_that_do_not_exist(text: str, reporter: str) -> None:
    (c,) = _unrec(text)
    assert c.reporter == reporter and c.case_name.text == "Smith v. Jones"


def test_real_case_tuples_are_full_citations_never_unrecognised() -> None:
    """499 real citations (legalcitebench, 2017-2020, state and federal reporters) written as a brief would."""
    import json

    from citecheck_testing import shared_corpus_path

    path = shared_corpus_path("citations", "legalcitebench-cases-A.jsonl")
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    text = "\n\n".join(f"See Smith v. Jones, {r['citation']} ({r['year']})." for r in rows)
    cites = extract_citations(text).citations
    assert [c.form for c in cites] == [CiteForm.FULL] * len(rows)
    assert all(c.year == int(r["year"]) for c, r in zip(cites, rows, strict=True))


def test_invented_series_after_a_quote_as_a_brief_writes_it() -> None:
    """The evaluation's injected error: a real case's name and pin with a series that does not exist."""
    text = (
        'The court explained that "a publisher who republishes a defamatory statement is liable." '
        "Petro-Lubricant Testing Labs., Inc. v. Adelman, 332 P. 4th 688, 447 (2016)."
    )
    (c,) = _unrec(text)
    assert (c.volume, c.reporter, c.page) == ("332", "P. 4th", "688")
    assert c.case_name.text == "Petro-Lubricant Testing Labs., Inc. v. Adelman"
    assert c.pincite.text == "447" and c.year == 2016
    assert [q.text[:15] for q in c.quotes] == ["a publisher who"]


@pytest.mark.parametrize(
    "text",
    [
        "The record is at 3 P. 4 of the transcript.",
        "See Doe, 12 P. 45, 47.",
        "Smith v. Jones, 12 P. 4th ed. 2019.",
    ],
)
def test_page_abbreviation_is_still_no_reporter(text: str) -> None:
    assert _unrec(text) == []


@pytest.mark.parametrize(
    ("text", "reporter"),
    [
        # the Mata v. Avianca sanctions opinion cites itself so (issue 32): one period missing
        ("Mata v. Avianca, Inc., 678 F. Supp 3d 443, 448 (S.D.N.Y. 2023).", "F. Supp. 3d"),
        ("Smith v. Jones, 123 F. Supp 2d 456 (D. Md. 2000).", "F. Supp. 2d"),
        ("Smith v. Jones, 123 Fed Appx 456 (3d Cir. 2005).", "F. App'x"),
        ("Smith v. Jones, 123 F.Supp.3d 456 (S.D.N.Y. 2016).", "F. Supp. 3d"),
        ("Smith v. Jones, 123 Fed. Appx. 456 (3d Cir. 2005).", "F. App'x"),
        ("Roe v. Wade, 93 S.Ct. 705 (1973).", "S. Ct."),
    ],
)
def test_a_real_reporter_with_periods_or_spaces_missing_is_that_reporter(text: str, reporter: str) -> None:
    from citecheck.checks.impossible import impossible_reason

    (c,) = extract_citations(text).citations
    assert c.form is CiteForm.FULL and c.reporter == reporter
    assert impossible_reason(c) is None
    assert c.case_name is not None and c.year is not None


def test_an_invented_series_is_still_not_a_variant() -> None:
    (c,) = _unrec("See Boone v. Vinson, 446 Cal. Rptr. 4th 183, 190 (2019).")
    assert c.reporter == "Cal. Rptr. 4th"
