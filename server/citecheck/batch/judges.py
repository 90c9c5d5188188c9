"""The holding judge's endpoints, shared by every worker of a batch: batching, backpressure, one cache.

Workers do not talk to the model endpoints themselves. Their ``HoldingStage`` gets a ``PooledCompleter``
and a ``PooledCache`` that forward to one ``EndpointPool`` (a Ray actor on the driver's node, the only
process that holds the API key), which

- spreads the requests over one or more OpenAI-compatible endpoints (vLLM replicas serving the same
  model), each request to the endpoint with the fewest in flight relative to its ``model_concurrency``;
  an endpoint that cannot be reached is left alone for ``DOWN_S`` and the request goes to another;
- keeps up to ``model_concurrency`` requests in flight at each endpoint — vLLM batches concurrent
  requests (continuous batching), so this is the batching — and at most ``pending`` waiting in all:
  beyond that a worker's request waits, its document does not finish, and the worker takes no new one
  (backpressure reaches the document queue instead of piling up requests);
- reads and writes the same judgment cache as ``citecheck check`` (``holdings.sqlite`` beside the lookup
  cache, same keys), so a batch and a check never ask twice for the same judgment. With one endpoint the
  cache key names it as a check does; with several it names them all (``pool_id``).

Everything that comes back to a worker is a plain value or ``ModelUnavailable``/``ModelBadAnswer`` with the
reason a check would give, so findings read the same as a check's.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from citecheck.config import Settings
from citecheck.errors import ModelBadAnswer, ModelError, ModelUnavailable
from citecheck.holdings.client import Completion, Deadline, ModelClient

DOWN_S = 30.0  # an endpoint that could not be reached is left alone this long


def pool_id(urls: Sequence[str]) -> str:
    """Who judged, for the cache key: the endpoint itself (as ``check`` keys it), or all replicas.

    >>> pool_id(["http://127.0.0.1:8000/v1"])
    'http://127.0.0.1:8000/v1'
    >>> pool_id(["http://b:1/v1", "http://a:1/v1"])
    'pool:http://a:1/v1 http://b:1/v1'
    """
    if len(urls) == 1:
        return urls[0]
    return "pool:" + " ".join(sorted(urls))


@dataclass
class _Endpoint:
    client: Any  # ModelClient (or a test's completer)
    capacity: int
    in_flight: int = 0
    sent: int = 0
    failed: int = 0
    down_until: float = 0.0


@dataclass
class PoolStats:
    requests: dict[str, int] = field(default_factory=dict)
    failures: dict[str, int] = field(default_factory=dict)
    peak_in_flight: dict[str, int] = field(default_factory=dict)  # the most at once, per endpoint
    waited: int = 0  # requests that waited for room (backpressure)
    cache_hits: int = 0
    cache_misses: int = 0


class EndpointPool:
    """One process's view of every endpoint; all methods run on one event loop (an async actor's)."""

    def __init__(
        self, clients: Sequence[Any], capacity: int, cache: Any = None, *, pending: int | None = None
    ) -> None:
        self.endpoints = [_Endpoint(client=c, capacity=max(1, capacity)) for c in clients]
        self.cache = cache
        self.pending = pending or 4 * sum(e.capacity for e in self.endpoints)
        self._room = asyncio.Semaphore(self.pending)
        self._freed = asyncio.Condition()
        self.stats = PoolStats()

    @classmethod
    def from_settings(cls, settings: Settings, urls: Sequence[str]) -> EndpointPool:
        from citecheck.holdings.judgment_cache import JudgmentCache
        from citecheck.holdings.stage import judgment_cache_path

        clients = [
            ModelClient(
                base_url=u,
                model=settings.model_name or "",
                api_key=settings.model_api_key,
                timeout_s=settings.model_timeout_s,
                concurrency=settings.model_concurrency,
                retries=settings.model_retries,
            )
            for u in urls
        ]
        return cls(clients, settings.model_concurrency, JudgmentCache(judgment_cache_path(settings)))

    async def call(
        self, method: str, messages: Sequence[dict[str, str]], seconds: float, remaining: float, *args: Any
    ) -> tuple[str, Any]:
        """``("ok", value)`` or ``("unavailable" | "bad-answer", reason)``: one request on the least busy endpoint."""
        deadline = Deadline(seconds)
        deadline.end = time.monotonic() + remaining
        if self._room.locked():
            self.stats.waited += 1
        async with self._room:
            tried: set[int] = set()
            while True:
                endpoint = await self._choose(tried)
                if endpoint is None:
                    return ("unavailable", "no model endpoint can be reached")
                index = self.endpoints.index(endpoint)
                tried.add(index)
                endpoint.in_flight += 1
                endpoint.sent += 1
                name = getattr(endpoint.client, "base_url", str(index))
                peak = self.stats.peak_in_flight
                peak[name] = max(peak.get(name, 0), endpoint.in_flight)
                self.stats.requests[name] = self.stats.requests.get(name, 0) + 1
                try:
                    value = await getattr(endpoint.client, method)(messages, deadline, *args)
                    return ("ok", value)
                except ModelBadAnswer as exc:
                    return ("bad-answer", str(exc))
                except ModelUnavailable as exc:
                    endpoint.failed += 1
                    self.stats.failures[name] = self.stats.failures.get(name, 0) + 1
                    if (
                        "cannot reach" in str(exc)
                        and len(tried) < len(self.endpoints)
                        and not deadline.expired()
                    ):
                        endpoint.down_until = time.monotonic() + DOWN_S
                        continue
                    return ("unavailable", str(exc))
                except ModelError as exc:
                    return ("unavailable", str(exc))
                finally:
                    endpoint.in_flight -= 1
                    async with self._freed:
                        self._freed.notify_all()

    async def _choose(self, tried: set[int]) -> _Endpoint | None:
        """The endpoint with the most room (not tried for this request, not down); waits while all are full."""
        async with self._freed:
            while True:
                now = time.monotonic()
                usable = [e for i, e in enumerate(self.endpoints) if i not in tried]
                if not usable:
                    return None
                up = [e for e in usable if e.down_until <= now] or usable  # all down: try one anyway
                best = min(up, key=lambda e: (e.in_flight / e.capacity, e.sent))  # ties: the least used
                if best.in_flight < best.capacity:
                    return best
                await self._freed.wait()

    def cache_get(self, key: tuple[str, ...]) -> Any:
        judgment = self.cache.get(key) if self.cache is not None else None
        if judgment is None:
            self.stats.cache_misses += 1
        else:
            self.stats.cache_hits += 1
        return judgment

    def cache_put(self, key: tuple[str, ...], judgment: Any) -> None:
        if self.cache is not None:
            self.cache.put(key, judgment)

    def report(self) -> PoolStats:
        return self.stats

    async def close(self) -> None:
        for e in self.endpoints:
            close = getattr(e.client, "close", None)
            if close is not None:
                await close()
        if self.cache is not None:
            self.cache.close()


class PooledCompleter:
    """A worker's ``Completer`` (``holdings.judging``): every request goes to the shared pool."""

    def __init__(self, pool: Any, model: str, base_url: str) -> None:
        self.pool = pool  # a Ray actor handle of EndpointPool
        self.model = model
        self.base_url = base_url  # the cache key's endpoint: pool_id(urls)

    async def _call(
        self, method: str, messages: Sequence[dict[str, str]], deadline: Deadline, *args: Any
    ) -> Any:
        status, value = await self.pool.call.remote(
            method, list(messages), deadline.seconds, deadline.remaining(), *args
        )
        if status == "ok":
            return value
        if status == "bad-answer":
            raise ModelBadAnswer(value)
        raise ModelUnavailable(value)

    async def complete(self, messages: Sequence[dict[str, str]], deadline: Deadline) -> Completion:
        result: Completion = await self._call("complete", messages, deadline)
        return result

    async def first_token_logprobs(
        self, messages: Sequence[dict[str, str]], deadline: Deadline, top: int = 20
    ) -> list[tuple[str, float]]:
        result: list[tuple[str, float]] = await self._call("first_token_logprobs", messages, deadline, top)
        return result

    async def close(self) -> None:
        return None


class PooledCache:
    """A worker's ``JudgmentCache``: reads and writes go to the pool's one cache file."""

    def __init__(self, pool: Any) -> None:
        self.pool = pool

    def get(self, key: tuple[str, ...]) -> Any:
        import ray

        return ray.get(self.pool.cache_get.remote(key))

    def put(self, key: tuple[str, ...], judgment: Any) -> None:
        self.pool.cache_put.remote(key, judgment)  # no need to wait: the next read is of another key

    def close(self) -> None:
        return None


def pooled_stage(pool: Any, key: str, settings: Settings) -> Any:
    """A worker's holding stage: the shared pool (its cache key ``key``) as its client and its cache."""
    from citecheck.holdings.stage import HoldingStage

    cache: Any = PooledCache(pool)  # JudgmentCache's get/put/close, forwarded
    return HoldingStage(PooledCompleter(pool, settings.model_name or "", key), settings, cache)
