"""``citecheck check`` runs the holding checks when a model is configured; ``--no-holdings`` skips them."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest

from citecheck_testing.model_endpoint import FakeEndpoint, judgment

BRIEF = (
    "The government may rely on a defendant's prior convictions as proof that he is guilty of the offense "
    "charged. Peyton v. District of Columbia, 100 A.2d 36, 38 (D.C. 1953).\n"
)
HOLDING = "evidence of such convictions must be restricted to the question of defendant’s credibility"


@pytest.fixture
def endpoint(monkeypatch) -> Iterator[FakeEndpoint]:
    ep = FakeEndpoint()
    ep.answer(judgment("contradicted", HOLDING, "reversed-meaning", "The opinion says the opposite."))
    monkeypatch.setenv("CITECHECK_MODEL_URL", ep.url)
    monkeypatch.setenv("CITECHECK_MODEL_NAME", "fake-judge")
    yield ep
    ep.close()


def test_check_reports_an_unsupported_holding(run_cli, imported_corpus, endpoint, tmp_path) -> None:
    brief = tmp_path / "brief.md"
    brief.write_text(BRIEF)
    r = run_cli("check", str(brief), "--format", "json")
    doc = json.loads(r.out)
    kinds = [f["kind"] for f in doc["files"][0]["findings"]]
    assert "unsupported-holding" in kinds and r.rc == 0  # a warning: below the default --fail-on error
    assert "holding judge fake-judge" in doc["sources"]
    text = run_cli("check", str(brief))
    assert "unsupported-holding" in text.out and "opposite" in text.out
    assert len(endpoint.chat_requests) == 1  # the second run was answered from the judgment cache


def test_no_holdings_skips_the_model(run_cli, imported_corpus, endpoint, tmp_path) -> None:
    brief = tmp_path / "brief.md"
    brief.write_text(BRIEF)
    r = run_cli("check", str(brief), "--no-holdings", "--format", "json")
    doc = json.loads(r.out)
    assert "unsupported-holding" not in [f["kind"] for f in doc["files"][0]["findings"]]
    assert doc["files"][0]["citations"][0]["holding"] is None and endpoint.chat_requests == []
    offline = json.loads(run_cli("check", str(brief), "--offline", "--format", "json").out)
    assert offline["files"][0]["citations"][0]["holding"] is None and endpoint.chat_requests == []


def test_a_model_endpoint_that_is_down_is_cannot_verify_not_a_failure(
    run_cli, imported_corpus, tmp_path, monkeypatch
) -> None:
    monkeypatch.setenv("CITECHECK_MODEL_URL", "http://127.0.0.1:9/v1")
    monkeypatch.setenv("CITECHECK_MODEL_NAME", "m")
    monkeypatch.setenv("CITECHECK_MODEL_RETRIES", "0")
    brief = tmp_path / "brief.md"
    brief.write_text(BRIEF)
    r = run_cli("check", str(brief), "--format", "json")
    doc = json.loads(r.out)
    msgs = [f["message"] for f in doc["files"][0]["findings"] if f["kind"] == "cannot-verify"]
    assert any("holding check" in m and "cannot reach the endpoint" in m for m in msgs)
    assert doc["files"][0]["citations"][0]["status"] == "verified"
