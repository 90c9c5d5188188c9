"""``citecheck model check`` against a real loopback endpoint (scripted) and a closed port."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from citecheck_testing.model_endpoint import FakeEndpoint, chat_answer, judgment


@pytest.fixture
def endpoint() -> Iterator[FakeEndpoint]:
    ep = FakeEndpoint()
    yield ep
    ep.close()


def test_model_check_prints_models_and_latency(run_cli, endpoint, monkeypatch) -> None:
    endpoint.answer(judgment("contradicted", "What a person knowingly exposes to the public"))
    monkeypatch.setenv("CITECHECK_MODEL_URL", endpoint.url)
    monkeypatch.setenv("CITECHECK_MODEL_NAME", "fake-judge")
    r = run_cli("model", "check")
    assert r.rc == 0, r.err
    assert f"endpoint  {endpoint.url}" in r.out
    assert "models    fake-judge" in r.out and " ms)" in r.out
    assert "valid JSON (json_schema); verdict 'contradicted'" in r.out
    sent = endpoint.chat_requests[0]["messages"][1]["content"]
    assert "Katz v. United States" in sent  # the fixed sample, never a draft


def test_model_check_says_when_the_answer_is_not_valid(run_cli, endpoint) -> None:
    endpoint.answer(chat_answer("Sure! The case supports it."))
    r = run_cli("model", "check", "--url", endpoint.url, "--model", "fake-judge")
    assert r.rc == 2 and "not JSON" in r.out


def test_model_check_without_an_endpoint_is_a_one_line_error(run_cli) -> None:
    r = run_cli("model", "check")
    assert r.rc == 2 and r.err.strip().count("\n") == 0 and "model_url" in r.err


def test_model_check_against_a_closed_port(run_cli) -> None:
    r = run_cli("model", "check", "--url", "http://127.0.0.1:9/v1", "--model", "m", "--timeout", "2")
    assert r.rc == 2 and "cannot reach the endpoint" in r.err and "Traceback" not in r.err
