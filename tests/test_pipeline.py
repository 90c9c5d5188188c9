"""The pipeline end to end: real extraction, a real SQLite corpus imported from ../shared/corpus, real opinions."""

from __future__ import annotations

import time
from collections.abc import Sequence
from pathlib import Path

import pytest

from citecheck.config import Settings
from citecheck.errors import SourceUnavailable
from citecheck.findings import Kind, Severity
from citecheck.pipeline import check_document, local_findings
from citecheck.sources.models import CaseRecord, CiteKey, LookupResult, OpinionText, PassageHit
from citecheck.visible import visible
from citecheck_testing import shared_corpus_path

pytestmark = pytest.mark.corpus

PLAINLY = (
    "we may only set aside a judgment on a factual issue "
    "when it is plainly wrong or without evidence to support it"
)
DYOUS_1007 = "He was violent and had to be placed in restraints"

BRIEF = (
    f'The court held that "{PLAINLY}." Peyton v. District of Columbia, 100 A.2d 36, 38 (D.C. 1953).\n\n'
    f'The court held that "{PLAINLY.replace("plainly", "clearly")}." '
    f"Peyton v. District of Columbia, 100 A.2d 36, 38 (D.C. 1953).\n\n"
    f'The record showed that "{PLAINLY}." Branson v. Harris, 100 A.2d 38, 39 (D.C. 1953).\n\n'
    "A commitment may be continued. Boone v. Vinson, 100 A.3d 1004, 1006 (Conn. App. Ct. 2014).\n\n"
    f'The defendant "{DYOUS_1007}." State v. Dyous, 100 A.3d 1004, 1006 (Conn. App. Ct. 2014).\n\n'
    "Umbrellas are no defence. Smith v. Jones, 33 Cal. Rptr. 4th 422 (1986).\n\n"
    "Exposure must be intentional. Peyton v. District of Columbia, 100 A.2d 37 (D.C. 1953).\n\n"
    "Tax assessments are reviewed de novo. Pratt & Whitney Engine Servs. v. Steager, 239 W. Va. 833 (2017).\n\n"
    "An unpublished order. Doe v. Roe, 2019 WL 1234567, at *3 (D. Del. 2019).\n"
)


@pytest.fixture(scope="module")
def corpus_source(tmp_path_factory):  # type: ignore[no-untyped-def]
    from citecheck.sources.corpus import Corpus, CorpusSource
    from citecheck.sources.importing import import_path

    cap = shared_corpus_path("cap-static")
    bulk = shared_corpus_path("courtlistener-bulk")
    corpus = Corpus(tmp_path_factory.mktemp("corpus") / "corpus.sqlite")
    import_path(corpus, cap)
    import_path(corpus, bulk)
    yield CorpusSource(corpus)
    corpus.close()


def _by_text(report, needle: str) -> list[str]:  # type: ignore[no-untyped-def]
    """Kinds of the findings whose citation's full span contains ``needle``."""
    start = report.text.index(needle)
    idx = {
        c.index
        for c in report.extraction.citations
        if c.full_span.start <= start < c.full_span.end + 1 or c.span.start <= start < c.span.end
    }
    return sorted(f.kind.value for f in report.findings if f.citation_index in idx)


async def test_brief_end_to_end(corpus_source) -> None:  # type: ignore[no-untyped-def]
    report = await check_document(BRIEF, corpus_source, Settings())
    kinds = {f.kind for f in report.findings}
    assert len(report.results) == len(report.extraction.citations)
    # the correct quote at the correct page: nothing to say
    peyton = next(r for r in report.results if r.record and r.record.name.startswith("Peyton"))
    assert (
        peyton.status == "verified" and peyton.page_used == "38" and "plainly wrong" in (peyton.passage or "")
    )
    # a misquote of Peyton (one word changed), and Peyton's words attributed to Branson
    altered, elsewhere = (f for f in report.findings if f.kind is Kind.MISQUOTE)
    assert (
        altered.severity is Severity.ERROR
        and "“plainly”" in altered.message
        and altered.evidence.page == "38"
    )
    assert (
        elsewhere.severity is Severity.ERROR
        and "it is from Peyton v. District of Columbia" in elsewhere.message
    )
    # another case's name on a real cite
    mismatch = [f for f in report.findings if f.kind is Kind.NAME_MISMATCH]
    assert mismatch and "State v. Dyous" in mismatch[0].message
    # Dyous quoted on 1007 but pinned at 1006
    wrong = [f for f in report.findings if f.kind is Kind.PINCITE_WRONG_PAGE]
    assert wrong and wrong[0].fixes[0].edits[0].new_text == "1007"
    assert Kind.IMPOSSIBLE_CITATION in kinds
    # 100 A.2d 37 is inside Peyton (36–38): the draft cites the middle of it
    middle = [f for f in report.findings if f.kind is Kind.WRONG_FIRST_PAGE]
    assert len(middle) == 1 and "Peyton v. District of Columbia" in middle[0].message
    assert Kind.FABRICATED_CASE not in kinds  # the draft names the real case: never "fabricated"
    # a real case we do not hold, and a Westlaw cite: info, never an accusation
    info = [f for f in report.findings if f.kind is Kind.CANNOT_VERIFY]
    assert len(info) == 2 and all(f.severity is Severity.INFO for f in info)
    assert any("239 W. Va. 833" in f.message for f in info)
    # findings are sorted and carry evidence
    assert [f.span.start for f in report.findings] == sorted(f.span.start for f in report.findings)
    assert all(f.evidence.record_id for f in report.findings if f.kind in (Kind.MISQUOTE, Kind.NAME_MISMATCH))


async def test_no_source_means_cannot_verify(corpus_source) -> None:  # type: ignore[no-untyped-def]
    report = await check_document(BRIEF, None, Settings())
    kinds = {f.kind for f in report.findings}
    assert not kinds & {Kind.FABRICATED_CASE, Kind.WRONG_FIRST_PAGE, Kind.NAME_MISMATCH}
    assert Kind.IMPOSSIBLE_CITATION in kinds  # no lookup needed for that
    assert all(r.status in ("cannot-verify", "problem", "not-checked") for r in report.results)
    assert all(f.severity is Severity.INFO for f in report.findings if f.kind is not Kind.IMPOSSIBLE_CITATION)


class _FailingSource:
    name = "courtlistener"

    def __init__(self) -> None:
        self.keys: list[CiteKey] = []

    async def lookup(self, keys: Sequence[CiteKey]) -> dict[CiteKey, LookupResult]:
        self.keys.extend(keys)
        raise SourceUnavailable("connection refused by 127.0.0.1")

    async def opinion(self, record: CaseRecord) -> OpinionText | None:  # pragma: no cover
        raise AssertionError("no opinion fetch after a failed lookup")

    async def find_passage(self, passage: str, *, limit: int = 5) -> list[PassageHit]:  # pragma: no cover
        return []

    async def close(self) -> None:
        pass


async def test_failing_source_becomes_cannot_verify() -> None:
    src = _FailingSource()
    report = await check_document(BRIEF, src, Settings())
    info = [f for f in report.findings if f.kind is Kind.CANNOT_VERIFY and "WL" not in f.message]
    assert info and all("connection refused" in f.message for f in info)
    assert Kind.FABRICATED_CASE not in {f.kind for f in report.findings}
    # one batched call, with citation keys only (privacy: nothing else leaves the machine)
    assert all(isinstance(k, CiteKey) for k in src.keys)
    assert CiteKey("100", "A.2d", "36") in src.keys and CiteKey("33", "Cal. Rptr. 4th", "422") not in src.keys


async def test_settings_filter_and_override(corpus_source) -> None:  # type: ignore[no-untyped-def]
    settings = Settings(
        enabled_kinds=frozenset({"misquote", "cannot-verify"}),
        severity_overrides={"misquote": Severity.WARNING, "cannot-verify": Severity.ERROR},
    )
    report = await check_document(BRIEF, corpus_source, settings)
    assert {f.kind for f in report.findings} == {Kind.MISQUOTE, Kind.CANNOT_VERIFY}
    assert all(f.severity is Severity.WARNING for f in report.findings if f.kind is Kind.MISQUOTE)
    assert all(
        f.severity is Severity.INFO for f in report.findings if f.kind is Kind.CANNOT_VERIFY
    )  # stays info
    assert visible([], settings) == []


def test_local_findings_are_fast_and_need_no_source() -> None:
    from citecheck.extract import extract_citations

    text = BRIEF + "As held in id. at 4.\n"
    extraction = extract_citations(text)
    t = time.perf_counter()
    found = local_findings(extraction, Settings())
    elapsed = time.perf_counter() - t
    assert {f.kind for f in found} >= {Kind.IMPOSSIBLE_CITATION}
    assert elapsed < 1.0


async def test_oversize_document_is_one_finding() -> None:
    report = await check_document("x" * 50, None, Settings(max_document_chars=10))
    assert [f.kind for f in report.findings] == [Kind.DOCUMENT_TOO_LARGE]


def test_corpus_path_exists() -> None:
    assert isinstance(shared_corpus_path("cap-static"), Path)


async def test_parallel_cites_and_neutral_pins(corpus_source) -> None:  # type: ignore[no-untyped-def]
    text = (
        "Madison Teachers, Inc. v. Scott, 2018 WI 11, ¶ 5, 379 Wis. 2d 439, 906 N.W.2d 436 (2018).\n\n"
        "State v. Dyous, 100 A.3d 1004, 153 Conn. App. 266, 270 (2015).\n"
    )
    report = await check_document(text, corpus_source, Settings())
    kinds = [f.kind for f in report.findings]
    # a paragraph pin of a neutral cite is never "out of range"
    assert Kind.PINCITE_OUT_OF_RANGE not in kinds
    assert any(f.kind is Kind.PINCITE_UNVERIFIABLE and "¶ 5" in f.message for f in report.findings)
    # one wrong year in a parenthetical shared by two parallel cites is one finding, not two
    years = [f for f in report.findings if f.kind is Kind.YEAR_MISMATCH]
    assert len(years) == 1 and years[0].fixes[0].edits[0].new_text == "2014"


async def test_quote_of_an_uncovered_case_is_not_a_misquote_of_its_neighbour(corpus_source) -> None:  # type: ignore[no-untyped-def]
    quote = "the assessor must value the property at its true and actual value as of the assessment date"
    text = (
        f'The court held that "{quote}." Pratt & Whitney Engine Servs. v. Steager, 239 W. Va. 833, 840 (2017); '
        "see also Peyton v. District of Columbia, 100 A.2d 36, 38 (D.C. 1953).\n"
    )
    report = await check_document(text, corpus_source, Settings())
    assert Kind.MISQUOTE not in {f.kind for f in report.findings}
    assert any(f.kind is Kind.CANNOT_VERIFY and "239 W. Va. 833" in f.message for f in report.findings)


async def test_ids_quote_is_checked_against_the_case_it_refers_to(corpus_source) -> None:  # type: ignore[no-untyped-def]
    text = (
        "Exposure must be intentional. Peyton v. District of Columbia, 100 A.2d 36, 37 (D.C. 1953). "
        f'Reversal requires more: "{PLAINLY}." Id. at 37.\n'
    )
    report = await check_document(text, corpus_source, Settings())
    [wrong] = [f for f in report.findings if f.kind is Kind.PINCITE_WRONG_PAGE]
    assert wrong.span.of(text) == "37" and wrong.span.start > text.index("Id.")
    assert wrong.fixes[0].edits[0].new_text == "38"
