"""Real cases for check tests: CaseRecord + OpinionText read from ../shared/corpus/cap-static.

A deliberately small reader of the CAP static HTML (page labels → PageMap) so the check tests do
not wait on the corpus importer; pipeline and evaluation tests use the real importer.
"""

from __future__ import annotations

import json
from collections.abc import Callable

import pytest
from lxml import html as lxml_html

from citecheck.checks.base import CheckContext
from citecheck.checks.quote_match import OpinionIndex
from citecheck.checks.quotes import match_quotes
from citecheck.extract.models import Citation, Extraction
from citecheck.sources.models import (
    CaseCite,
    CaseRecord,
    CiteKey,
    LookupResult,
    LookupStatus,
    OpinionText,
    PageMap,
    PassageHit,
)
from citecheck_testing import shared_corpus_path

_BLOCKS = {"p", "h4", "blockquote", "li", "h1", "h2", "h3", "h5"}


def _read_cap(file_name: str) -> tuple[CaseRecord, OpinionText]:
    folder = shared_corpus_path("cap-static", "a2d", "100")
    meta = json.loads((folder / "cases" / f"{file_name}.json").read_text(encoding="utf-8"))
    vol, rep, page = meta["citations"][0]["cite"].split(" ", 2)[0], "A.2d", meta["first_page"]
    record = CaseRecord(
        id=f"cap:{meta['id']}",
        source="cap",
        name=meta["name_abbreviation"],
        name_full=meta["name"],
        name_abbreviation=meta["name_abbreviation"],
        court_name=meta["court"]["name"],
        decision_date=meta["decision_date"],
        citations=(
            CaseCite(volume=vol, reporter=rep, page=page, last_page=meta["last_page"], type="official"),
        ),
        url=f"https://static.case.law/a2d/100/cases/{file_name}.json",
    )
    root = lxml_html.fromstring((folder / "html" / f"{file_name}.html").read_text(encoding="utf-8"))
    buf: list[str] = []
    starts: list[tuple[int, str]] = []
    size = 0

    def walk(el) -> None:  # type: ignore[no-untyped-def]
        nonlocal size
        if el.tag == "a" and "page-label" in (el.get("class") or ""):
            starts.append((size, el.get("data-label")))
        elif el.text:
            buf.append(el.text)
            size += len(el.text)
        for child in el:
            walk(child)
            if child.tail:
                buf.append(child.tail)
                size += len(child.tail)
        if el.tag in _BLOCKS:
            buf.append("\n")
            size += 1

    walk(root)
    text = "".join(buf)
    pm = PageMap(reporter=rep, volume=vol, first_page=page, starts=tuple(starts))
    return record, OpinionText(case_id=record.id, text=text, page_maps=(pm,))


@pytest.fixture
def cap_case() -> Callable[[str], tuple[CaseRecord, OpinionText]]:
    """``cap_case("0036-01")`` → (record, opinion) of Peyton v. District of Columbia, 100 A.2d 36."""
    return _read_cap


def build_ctx(
    text: str,
    citations: list[Citation],
    i: int = 0,
    *,
    record: CaseRecord | None = None,
    opinion: OpinionText | None = None,
    status: LookupStatus = LookupStatus.FOUND,
    lookup: LookupResult | None = None,
    elsewhere: dict[int, tuple[PassageHit, ...]] | None = None,
    source_name: str | None = "corpus",
) -> CheckContext:
    """The context the pipeline would build for ``citations[i]`` (quotes located as the pipeline does)."""
    ex = Extraction(text=text, citations=tuple(citations))
    c = citations[i]
    full = ex.resolved(c)
    if lookup is None and full is not None and full.key is not None and source_name is not None:
        records = (
            (record,) if record is not None and status in (LookupStatus.FOUND, LookupStatus.AMBIGUOUS) else ()
        )
        lookup = LookupResult(key=CiteKey(*full.key), status=status, records=records, source=source_name)
    matches = (
        match_quotes(c, OpinionIndex(opinion.text)) if opinion is not None and record is not None else ()
    )
    return CheckContext(
        extraction=ex,
        citation=c,
        full=full,
        lookup=lookup,
        record=record,
        opinion=opinion,
        quote_matches=matches,
        elsewhere=elsewhere or {},
        source_name=source_name,
    )


@pytest.fixture
def make_ctx() -> Callable[..., CheckContext]:
    return build_ctx
