"""The model client against a real loopback HTTP server with scripted answers."""

from __future__ import annotations

import time

import pytest

from citecheck.errors import ConfigError, ModelUnavailable
from citecheck.holdings.client import Deadline, ModelClient
from citecheck_testing.model_endpoint import FakeEndpoint, Step, chat_answer, judgment

MSGS = [{"role": "system", "content": "s"}, {"role": "user", "content": "u"}]


def _client(ep: FakeEndpoint, **kw: object) -> ModelClient:
    opts: dict[str, object] = {"timeout_s": 2.0, "retries": 2, "concurrency": 4, **kw}
    return ModelClient(base_url=ep.url, model="fake-judge", **opts)  # type: ignore[arg-type]


async def test_asks_for_a_json_schema_and_returns_the_content(fake_endpoint: FakeEndpoint) -> None:
    fake_endpoint.answer(judgment("supported", "a b c d e"))
    async with _client(fake_endpoint) as c:
        got = await c.complete(MSGS, Deadline(10))
    assert '"supported"' in got.content and got.response_format == "json_schema"
    req = fake_endpoint.chat_requests[0]
    assert req["model"] == "fake-judge" and req["temperature"] == 0
    assert req["response_format"]["type"] == "json_schema"
    assert req["response_format"]["json_schema"]["schema"]["required"] == [
        "support",
        "misuse",
        "supporting_quote",
        "rationale",
    ]


async def test_falls_back_to_json_object_when_the_schema_form_is_rejected(
    fake_endpoint: FakeEndpoint,
) -> None:
    rejected = Step(status=400, body={"error": {"message": "response_format json_schema is not supported"}})
    fake_endpoint.answer(rejected, judgment("partly", "a b c d e"), judgment("partly", "a b c d e"))
    async with _client(fake_endpoint) as c:
        first = await c.complete(MSGS, Deadline(10))
        second = await c.complete(MSGS, Deadline(10))
    kinds = [r["response_format"]["type"] for r in fake_endpoint.chat_requests]
    assert kinds == ["json_schema", "json_object", "json_object"]  # remembered after the first refusal
    assert first.response_format == second.response_format == "json_object"


async def test_falls_back_when_the_server_answers_500_to_the_schema_form(fake_endpoint: FakeEndpoint) -> None:
    # what llama-cpp-python 0.3.x answers to a json_schema response_format
    rejected = Step(
        status=500,
        body={
            "error": {
                "message": "1 validation error: ('body', 'response_format', 'type') "
                "Input should be 'text' or 'json_object'"
            }
        },
    )
    fake_endpoint.answer(rejected, judgment("partly", "a b c d e"))
    async with _client(fake_endpoint, retries=0) as c:
        got = await c.complete(MSGS, Deadline(10))
    assert got.response_format == "json_object" and len(fake_endpoint.chat_requests) == 2


async def test_429_and_5xx_are_retried(fake_endpoint: FakeEndpoint) -> None:
    fake_endpoint.answer(
        Step(status=429, headers={"retry-after": "0"}, body={"error": {"message": "busy"}}),
        Step(status=503, body={"error": {"message": "loading"}}),
        judgment("supported", "a b c d e"),
    )
    async with _client(fake_endpoint) as c:
        got = await c.complete(MSGS, Deadline(20))
    assert "supported" in got.content and len(fake_endpoint.chat_requests) == 3


async def test_retries_end_with_a_reason(fake_endpoint: FakeEndpoint) -> None:
    fake_endpoint.answer(Step(status=500, body={"error": {"message": "boom"}}))
    async with _client(fake_endpoint, retries=1) as c:
        with pytest.raises(ModelUnavailable, match=r"endpoint failed \(500\).*after 2 tries"):
            await c.complete(MSGS, Deadline(20))
    assert len(fake_endpoint.chat_requests) == 2


async def test_a_slow_answer_times_out(fake_endpoint: FakeEndpoint) -> None:
    fake_endpoint.answer(Step(delay=3.0, body={}))
    async with _client(fake_endpoint, timeout_s=0.5, retries=0) as c:
        t0 = time.monotonic()
        with pytest.raises(ModelUnavailable, match="no answer within"):
            await c.complete(MSGS, Deadline(20))
    assert time.monotonic() - t0 < 2.5


async def test_a_slow_trickling_stream_times_out_as_a_whole(fake_endpoint: FakeEndpoint) -> None:
    slow = judgment("supported", "a b c d e")
    slow.trickle = 0.2  # headers at once, then 8 bytes every 0.2 s: each read is quick, the whole is not
    fake_endpoint.answer(slow)
    async with _client(fake_endpoint, timeout_s=1.0, retries=0) as c:
        t0 = time.monotonic()
        with pytest.raises(ModelUnavailable, match="no answer within"):
            await c.complete(MSGS, Deadline(20))
    assert time.monotonic() - t0 < 3


async def test_the_overall_deadline_bounds_retries(fake_endpoint: FakeEndpoint) -> None:
    fake_endpoint.answer(Step(delay=0.6, status=503, body={"error": {"message": "x"}}))
    async with _client(fake_endpoint, timeout_s=5, retries=50) as c:
        t0 = time.monotonic()
        with pytest.raises(ModelUnavailable, match="deadline"):
            await c.complete(MSGS, Deadline(1.5))
    assert time.monotonic() - t0 < 4


async def test_a_closed_port_is_unavailable_with_the_url() -> None:
    c = ModelClient(base_url="http://127.0.0.1:9/v1", model="m", timeout_s=1, retries=0)
    try:
        with pytest.raises(ModelUnavailable, match=r"cannot reach the endpoint at http://127\.0\.0\.1:9/v1"):
            await c.complete(MSGS, Deadline(5))
    finally:
        await c.close()


async def test_a_wrong_model_name_is_said(fake_endpoint: FakeEndpoint) -> None:
    fake_endpoint.answer(Step(status=404, body={"error": {"message": "model not found"}}))
    async with _client(fake_endpoint) as c:
        with pytest.raises(ModelUnavailable, match="does not serve model 'fake-judge'"):
            await c.complete(MSGS, Deadline(5))


async def test_lists_models(fake_endpoint: FakeEndpoint) -> None:
    async with _client(fake_endpoint) as c:
        assert await c.list_models() == ["fake-judge"]


async def test_the_api_key_is_sent_as_a_bearer_token_to_loopback(fake_endpoint: FakeEndpoint) -> None:
    fake_endpoint.answer(chat_answer("{}"))
    async with _client(fake_endpoint, api_key="sekrit") as c:
        await c.complete(MSGS, Deadline(5))
    assert fake_endpoint.headers[0]["authorization"] == "Bearer sekrit"


def test_the_api_key_never_goes_to_a_plain_http_remote_host() -> None:
    with pytest.raises(ConfigError, match="https"):
        ModelClient(base_url="http://gpu.example.com:8000/v1", model="m", api_key="sekrit")
    assert "sekrit" not in repr(
        ModelClient(base_url="https://gpu.example.com/v1", model="m", api_key="sekrit").__dict__.get(
            "base_url"
        )
    )
