"""The holding stage inside ``check_document``, on a real corpus case, through a real loopback endpoint."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from citecheck.config import Settings
from citecheck.findings import Kind, Severity
from citecheck.holdings.client import ModelClient
from citecheck_testing.model_endpoint import FakeEndpoint, Step, judgment

from .conftest import PEYTON_HOLDING, REVERSED_BRIEF, check_with_model

pytestmark = pytest.mark.corpus


async def _check(corpus_path, ep: FakeEndpoint, text: str = REVERSED_BRIEF, **settings_kw):
    settings = replace(
        Settings(),
        corpus_path=corpus_path,
        offline=True,
        model_url=ep.url,
        model_name="fake-judge",
        **settings_kw,
    )
    client = ModelClient(
        base_url=ep.url,
        model="fake-judge",
        timeout_s=settings.model_timeout_s,
        retries=settings.model_retries,
    )
    return await check_with_model(corpus_path, text, settings, client)


async def test_a_reversed_proposition_gets_unsupported_holding_with_pages(cap_corpus, fake_endpoint) -> None:
    fake_endpoint.answer(
        judgment("contradicted", PEYTON_HOLDING, "reversed-meaning", "The court held the opposite.")
    )
    report = await _check(cap_corpus, fake_endpoint)
    [f] = [f for f in report.findings if f.kind is Kind.UNSUPPORTED_HOLDING]
    assert f.severity is Severity.WARNING and f.span.of(report.text) == "100 A.2d 36"
    assert f.evidence.page == "38" and "[p. 38]" in f.evidence.passage
    assert "may not be considered for the purpose of determining his guilt" in f.evidence.note
    # only the proposition, the case and opinion passages were sent
    sent = fake_endpoint.chat_requests[0]["messages"][1]["content"]
    assert "prior convictions as proof that he is guilty" in sent and "Peyton v. District of Columbia" in sent
    assert report.results[0].holding is not None and report.results[0].status.value == "problem"
    # every other check still ran: the case was verified in the corpus
    assert report.results[0].record is not None and report.results[0].record.id == "cap:8118004"


async def test_supported_gives_no_finding_but_the_result_carries_the_passage(
    cap_corpus, fake_endpoint
) -> None:
    fake_endpoint.answer(judgment("supported", PEYTON_HOLDING))
    text = (
        "Prior convictions go only to credibility and may not be considered to determine guilt. "
        "Peyton v. District of Columbia, 100 A.2d 36, 38 (D.C. 1953).\n"
    )
    report = await _check(cap_corpus, fake_endpoint, text)
    assert [f for f in report.findings if f.kind in (Kind.UNSUPPORTED_HOLDING, Kind.HOLDING_UNVERIFIED)] == []
    r = report.results[0]
    assert r.status.value == "verified" and r.page_used == "38" and "may not be considered" in r.passage


async def test_an_endpoint_that_times_out_leaves_the_other_checks_alone(cap_corpus, fake_endpoint) -> None:
    fake_endpoint.answer(Step(delay=3, body={}))
    text = REVERSED_BRIEF + "See also Savage v. Parks, 100 A.2d 38 (D.C. 1953).\n"  # 38 is Branson v. Harris
    report = await _check(cap_corpus, fake_endpoint, text, model_timeout_s=0.5, model_retries=0)
    kinds = [(f.kind, f.span.of(report.text)) for f in report.findings]
    assert (Kind.CANNOT_VERIFY, "100 A.2d 36") in kinds
    assert any(k is Kind.NAME_MISMATCH for k, _ in kinds)  # the other checks ran
    [cv] = [
        f for f in report.findings if f.kind is Kind.CANNOT_VERIFY and f.span.of(report.text) == "100 A.2d 36"
    ]
    assert "no answer within" in cv.message


async def test_the_json_report_shows_verdict_and_passages(cap_corpus, fake_endpoint) -> None:
    from citecheck.report.json import render_json
    from citecheck.report.model import BatchResult, file_result

    fake_endpoint.answer(judgment("contradicted", PEYTON_HOLDING, "reversed-meaning"))
    report = await _check(cap_corpus, fake_endpoint)
    doc = json.loads(
        render_json(
            BatchResult(
                files=(file_result("b.md", "markdown", report.text, report),),
                errors=(),
                tool_version="x",
                sources="",
                offline=True,
            )
        )
    )
    h = doc["files"][0]["citations"][0]["holding"]
    assert (h["outcome"], h["verdict"], h["misuse"], h["model"]) == (
        "judged",
        "contradicted",
        "reversed-meaning",
        "fake-judge",
    )
    assert h["quote_page"] == "38" and h["passages"][0]["page"]
    f = next(f for f in doc["files"][0]["findings"] if f["kind"] == "unsupported-holding")
    assert f["evidence"]["prompt_version"] == "holding-v1" and f["evidence"]["verdict"] == "contradicted"
