"""The reversed-meaning proposition through a REAL OpenAI-compatible server on this CPU: llama.cpp serving
Qwen2.5-Coder-0.5B-Instruct (from PyPI part packages), with the yes-no protocol.

Here the model decides, not the test: the brief states the opposite of what Peyton v. District of Columbia,
100 A.2d 36, 38, holds (prior convictions go to credibility only and "may not be considered for the purpose
of determining his guilt"), and the only thing that turns that into an ``unsupported-holding`` warning is
the model's answer moving towards "No" when shown the court's sentence. A faithful paraphrase of the same
holding, against the same passage, must not be flagged — so a protocol that flagged everything would fail.
The thresholds were set on eval items, not on these sentences (docs/model-endpoint.md).

Skips, saying why, only where llama.cpp or the model's part packages are missing (.ci/run installs both).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

import pytest

from citecheck.config import Settings
from citecheck.findings import Kind, Severity
from citecheck.holdings.client import ModelClient
from citecheck.holdings.models import Outcome, Support
from citecheck_testing.llama_server import LlamaServer, qwen_model_path, why_qwen_unavailable

from .conftest import PEYTON_HOLDING, REVERSED_BRIEF, check_with_model

pytestmark = pytest.mark.corpus

FAITHFUL_BRIEF = (
    "Evidence of a defendant's prior convictions may be considered only on his credibility, not as proof that he "
    "is guilty of the offense charged. Peyton v. District of Columbia, 100 A.2d 36, 38 (D.C. 1953).\n"
)


@pytest.fixture(scope="module")
def qwen() -> Iterator[LlamaServer]:
    why = why_qwen_unavailable()
    if why:
        pytest.skip(f"llama.cpp yes-no end-to-end test skipped: {why}")
    with LlamaServer(
        qwen_model_path(), start_timeout_s=300, n_ctx=2048, model_name="qwen2.5-coder-0.5b"
    ) as srv:
        yield srv


async def _check(srv: LlamaServer, corpus_path, text: str):  # type: ignore[no-untyped-def]
    settings = replace(
        Settings(),
        corpus_path=corpus_path,
        offline=True,
        model_url=srv.url,
        model_name=srv.model_name,
        model_protocol="yes-no",
        model_timeout_s=240,
        model_deadline_s=500,
        model_retries=0,
        model_passage_tokens=300,
    )
    return await check_with_model(corpus_path, text, settings, ModelClient.from_settings(settings))


def _skip_if_too_slow(h) -> None:  # type: ignore[no-untyped-def]
    if h.outcome is Outcome.FAILED and "no answer within" in h.reason:
        pytest.skip(
            f"llama.cpp yes-no end-to-end test skipped: the CPU server was too slow here ({h.reason})"
        )


async def test_a_reversed_holding_gets_unsupported_holding_through_the_real_server(qwen, cap_corpus) -> None:
    report = await _check(qwen, cap_corpus, REVERSED_BRIEF)
    r = report.results[0]
    assert r.record is not None and r.record.id == "cap:8118004"  # the other checks ran: the case is real
    h = r.holding
    assert h is not None and h.model == qwen.model_name
    _skip_if_too_slow(h)
    print(
        f"\nqwen2.5-coder-0.5b, reversed Peyton: {h.outcome.value} {h.reason or (h.judgment and h.judgment.rationale)}"
    )
    assert h.outcome is Outcome.JUDGED and h.judgment is not None, h.reason
    assert h.judgment.support is Support.NOT_SUPPORTED
    [f] = [f for f in report.findings if f.kind is Kind.UNSUPPORTED_HOLDING]
    assert f.severity is Severity.WARNING  # never an error
    # the evidence is the court's own sentence, found in the opinion, on the pin-cited page
    assert h.quote_text is not None and "determining his guilt" in h.quote_text
    assert PEYTON_HOLDING.split(" and ")[0][:40] in (f.evidence.passage or "").replace("'", "’")
    assert f.evidence.page == "38" and f.evidence.model == qwen.model_name


async def test_a_faithful_paraphrase_of_the_same_holding_is_not_flagged(qwen, cap_corpus) -> None:
    report = await _check(qwen, cap_corpus, FAITHFUL_BRIEF)
    h = report.results[0].holding
    assert h is not None
    _skip_if_too_slow(h)
    print(
        f"\nqwen2.5-coder-0.5b, faithful Peyton: {h.outcome.value} {h.reason or (h.judgment and h.judgment.rationale)}"
    )
    assert h.outcome in (Outcome.JUDGED, Outcome.UNDECIDED), h.reason
    assert not [f for f in report.findings if f.kind is Kind.UNSUPPORTED_HOLDING]


async def test_model_check_asks_the_yes_no_sample_when_that_protocol_is_set(qwen, capsys) -> None:
    from citecheck.cli.model import check_endpoint

    settings = replace(
        Settings(),
        model_url=qwen.url,
        model_name=qwen.model_name,
        model_protocol="yes-no",
        model_timeout_s=240,
    )
    rc = await check_endpoint(settings)
    out = capsys.readouterr().out
    assert rc == 0, out
    assert (
        f"models    {qwen.model_name}" in out
        and "log-probabilities returned; shift" in out
        and "yesno-v1" in out
    )
