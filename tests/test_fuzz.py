"""Hypothesis fuzz: any mix of citation pieces and hostile characters goes through extraction, every
check (offline, against an empty corpus) and every report format without an exception, and every
span stays inside the text. Bounded time: a fixed number of examples, no per-example deadline."""

from __future__ import annotations

import asyncio

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from citecheck.config import Settings
from citecheck_testing import HOSTILE_FRAGMENTS

documents = st.lists(
    st.one_of(st.sampled_from(HOSTILE_FRAGMENTS), st.text(max_size=12)), min_size=0, max_size=40
).map("".join)


@pytest.fixture(scope="module")
def chain_settings(tmp_path_factory) -> Settings:
    tmp = tmp_path_factory.mktemp("fuzz")
    return Settings(corpus_path=tmp / "corpus.sqlite", cache_path=tmp / "cache.sqlite", offline=True)


@given(text=documents)
@settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
def test_no_input_crashes_the_checker_or_a_report(text: str, chain_settings: Settings) -> None:
    from citecheck.pipeline import check_document
    from citecheck.report import FORMATS, BatchResult, file_result
    from citecheck.sources.chain import open_source

    async def run():
        async with open_source(chain_settings) as source:
            return await check_document(text, source, chain_settings)

    report = asyncio.run(run())
    for c in report.extraction.citations:
        assert 0 <= c.span.start <= c.span.end <= len(text)
    for f in report.findings:
        assert 0 <= f.span.start <= f.span.end <= len(text)
    batch = BatchResult(files=(file_result("fuzz.md", "markdown", text, report),))
    for render in FORMATS.values():
        assert isinstance(render(batch), str)
