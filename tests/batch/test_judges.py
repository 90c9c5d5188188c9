"""The endpoint pool every batch worker's holding checks go through: spread, bounded, failing over, one cache.

Real HTTP on 127.0.0.1 (``FakeEndpoint``), the real ``ModelClient``; no Ray (``engine.py`` only wraps the
pool in an actor; tests/cli/test_batch_cli.py runs it there)."""

from __future__ import annotations

import asyncio
import socket
from dataclasses import replace

import pytest

from citecheck.batch.judges import EndpointPool, pool_id
from citecheck.holdings.client import ModelClient
from citecheck.holdings.judgment_cache import JudgmentCache
from citecheck.holdings.models import Judgment, Misuse, Support
from citecheck_testing.model_endpoint import FakeEndpoint, Step, judgment


@pytest.fixture
def endpoints():
    eps = [FakeEndpoint(), FakeEndpoint()]
    try:
        yield eps
    finally:
        for ep in eps:
            ep.close()


def _client(url: str, concurrency: int = 2) -> ModelClient:
    return ModelClient(base_url=url, model="fake-judge", timeout_s=10, concurrency=concurrency, retries=0)


async def _ask(pool: EndpointPool, n: int) -> list[tuple[str, object]]:
    msgs = [{"role": "user", "content": "Is it so?"}]
    return list(await asyncio.gather(*(pool.call("complete", msgs, 30.0, 30.0) for _ in range(n))))


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


async def test_requests_are_spread_over_the_replicas_never_beyond_each_ones_concurrency(endpoints) -> None:
    for ep in endpoints:
        ep.answer(replace(judgment("supported", "q"), delay=0.15))
    pool = EndpointPool([_client(ep.url) for ep in endpoints], capacity=2)
    try:
        answers = await _ask(pool, 12)
    finally:
        await pool.close()
    assert all(status == "ok" for status, _ in answers)
    assert [len(ep.requests) for ep in endpoints] == [6, 6]
    assert set(pool.stats.peak_in_flight.values()) == {2}


async def test_backpressure_holds_requests_beyond_the_pending_limit(endpoints) -> None:
    endpoints[0].answer(replace(judgment("supported", "q"), delay=0.1))
    pool = EndpointPool([_client(endpoints[0].url, 1)], capacity=1, pending=2)
    try:
        answers = await _ask(pool, 6)
    finally:
        await pool.close()
    assert [s for s, _ in answers] == ["ok"] * 6
    assert pool.stats.waited >= 3  # at most two were admitted at once
    assert pool.stats.peak_in_flight == {endpoints[0].url: 1}


async def test_an_endpoint_that_cannot_be_reached_is_left_for_the_others(endpoints) -> None:
    endpoints[0].answer(judgment("supported", "q"))
    dead = f"http://127.0.0.1:{_closed_port()}/v1"
    pool = EndpointPool([_client(dead), _client(endpoints[0].url)], capacity=2)
    try:
        answers = await _ask(pool, 5)
    finally:
        await pool.close()
    assert [s for s, _ in answers] == ["ok"] * 5
    assert len(endpoints[0].requests) == 5
    assert pool.stats.failures.get(dead, 0) >= 1
    assert pool.endpoints[0].down_until > 0


async def test_a_failure_comes_back_as_the_reason_a_check_would_give(endpoints) -> None:
    endpoints[0].answer(Step(status=404, body={"error": {"message": "no such model"}}))
    pool = EndpointPool([_client(endpoints[0].url)], capacity=1)
    try:
        [(status, reason)] = await _ask(pool, 1)
    finally:
        await pool.close()
    assert status == "unavailable"
    assert reason == "the endpoint does not serve model 'fake-judge' (404)"


def test_the_cache_is_the_checks_and_keyed_on_who_judged(tmp_path) -> None:
    cache = JudgmentCache(tmp_path / "holdings.sqlite")
    pool = EndpointPool([], capacity=1, cache=cache)
    verdict = Judgment(support=Support.SUPPORTED, misuse=Misuse.NONE, supporting_quote="q", rationale="r")
    key = (pool_id(["http://a/v1"]), "m", "p", "h", "c", "x")
    assert pool.cache_get(key) is None
    pool.cache_put(key, verdict)
    assert pool.cache_get(key) == verdict
    assert JudgmentCache(tmp_path / "holdings.sqlite").get(key) == verdict  # the file a check reads
    assert (pool.stats.cache_hits, pool.stats.cache_misses) == (1, 1)
    assert pool_id(["http://a/v1"]) == "http://a/v1"  # one endpoint: the key a check uses
    assert pool_id(["http://b/v1", "http://a/v1"]) == pool_id(["http://a/v1", "http://b/v1"]) != "http://a/v1"
