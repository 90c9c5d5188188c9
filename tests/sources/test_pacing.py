"""The paced scheduler against a loopback CourtListener that enforces both documented limits.

The fake (``citecheck_testing.courtlistener``) is a real HTTP server on 127.0.0.1 with
CourtListener's throttles; windows are scaled down (a minute lasts a fraction of a second) so each
test takes about a second. The cache is a real SQLite file.
"""

from __future__ import annotations

import itertools
import time
from datetime import UTC, datetime
from pathlib import Path

import pytest

from citecheck.errors import AuthenticationError, ConfigError, SourceUnavailable
from citecheck.sources.cache import Cache
from citecheck.sources.courtlistener import CourtListenerClient
from citecheck.sources.models import CiteKey, LookupStatus
from citecheck.sources.pacing import Pacer, Rate, parse_rates
from citecheck_testing.courtlistener import FakeCourtListener, Fault

WINDOW = 0.25  # "a minute", in seconds
SCALE = WINDOW / 60


def keys(n: int) -> list[CiteKey]:
    return [CiteKey(str(200 + i // 50), "F.3d", str(1 + (i % 50) * 20)) for i in range(n)]


def client(fake: FakeCourtListener, **kw) -> CourtListenerClient:
    kw.setdefault("request_rates", "5/min")
    kw.setdefault("citation_rate", "60/min")
    kw.setdefault("time_scale", SCALE)
    kw.setdefault("backoff_s", 0.02)
    return CourtListenerClient(fake.base_url, kw.pop("token", "secret"), **kw)


def fake_cl(**kw) -> FakeCourtListener:
    kw.setdefault("request_rates", "5/min")
    kw.setdefault("citation_rate", "60/min")
    kw.setdefault("time_scale", SCALE)
    return FakeCourtListener(**kw)


def max_in_window(times: list[float], window: float) -> int:
    times = sorted(times)
    return max((sum(1 for u in times if t <= u < t + window) for t in times), default=0)


# ---------------------------------------------------------------- pure planning
def test_rates_parse_and_bad_rates_are_config_errors():
    assert parse_rates("5/min,50/hour,125/day") == (Rate(5, 60.0), Rate(50, 3600.0), Rate(125, 86400.0))
    assert parse_rates("5/1s") == (Rate(5, 1.0),) and parse_rates("none") == ()
    with pytest.raises(ConfigError, match="5/min"):
        parse_rates("five a minute")


async def test_pacer_spends_a_window_then_waits_for_its_end():
    now = [1000.0]

    async def sleep(s: float) -> None:
        now[0] += s

    p = Pacer(
        scope="x",
        request_rates=(Rate(5, 60.0),),
        citation_rate=Rate(60, 60.0),
        clock=lambda: now[0],
        sleep=sleep,
    )
    assert p.citations_free() == 60
    await p.acquire(60)
    assert p.citations_free() == 0
    at, why = p.ready_at(10)
    assert 1060 <= at <= 1062 and "rate limit" in why
    await p.acquire(10)  # sleeps until the window has passed
    assert 1060 <= now[0] <= 1062
    for _ in range(4):
        await p.acquire(0)
    at, _ = p.ready_at(0)  # five requests within the minute: the sixth waits for the first to age out
    assert at > now[0]


# ---------------------------------------------------------------- against the loopback CourtListener
async def test_every_citation_verified_without_one_429_and_within_both_limits():
    with fake_cl() as fake:
        cl = client(fake)
        try:
            t0 = time.monotonic()
            res = await cl.lookup(keys(200))
            took = time.monotonic() - t0
        finally:
            await cl.close()
    assert all(r.status is LookupStatus.FOUND for r in res.values())
    assert fake.counts.throttled == 0 and fake.counts.entry_429 == 0
    assert fake.counts.lookups == 4 and fake.counts.citations == 200  # 60 + 60 + 60 + 20
    assert max_in_window(fake.counts.times, WINDOW) <= 1  # never two 60-citation requests in one window
    assert took >= 3 * WINDOW  # the allowance was waited for, not overrun


async def test_a_naive_250_citation_request_is_what_gets_a_client_blocked():
    """The fake enforces CourtListener's proportional block (the reason we pace at all)."""
    with fake_cl() as fake:
        import httpx

        text = "; ".join(str(k) for k in keys(250))
        async with httpx.AsyncClient() as http:
            first = await http.post(fake.base_url + "citation-lookup/", data={"text": text})
            second = await http.post(fake.base_url + "citation-lookup/", data={"text": "200 F.3d 1"})
    assert first.status_code == 200 and second.status_code == 429
    wait = datetime.fromisoformat(second.json()["wait_until"]).timestamp() - time.time()
    assert wait > 3 * WINDOW  # 250/60 windows


async def test_deadline_leaves_the_rest_pending_and_the_next_run_continues(tmp_path: Path):
    # A longer minute than the other tests: the budget must outlast one loaded-machine round trip
    # (the first window's request) but end long before the next window opens.
    window = 4 * WINDOW
    with fake_cl(time_scale=window / 60) as fake:
        cache = await Cache.open(tmp_path / "cache.sqlite")
        cl = client(fake, budget_s=window / 2, store=cache, time_scale=window / 60)
        try:
            first = await cl.lookup(keys(150))
        finally:
            await cl.close()
        found = [k for k, r in first.items() if r.status is LookupStatus.FOUND]
        waiting = [k for k, r in first.items() if r.pending_until is not None]
        assert len(found) == 60 and len(waiting) == 90  # the file's first 60, in order
        assert found == keys(150)[:60]
        assert all(
            r.status is LookupStatus.CANNOT_VERIFY and "rate limit" in r.reason
            for r in map(first.get, waiting)
        )
        assert [k for k, _ in await cache.pending()] == waiting  # persisted, in order of value
        # the next run (a new client, the same cache) knows the window is spent: it waits, not 429s
        await cache.put_lookups([first[k] for k in found])
        cl2 = client(fake, store=cache, time_scale=window / 60)
        try:
            second = await cl2.lookup(waiting)
        finally:
            await cl2.close()
        assert all(r.status is LookupStatus.FOUND for r in second.values())
        assert await cache.pending() == []
        assert fake.counts.throttled == 0
        await cache.close()


async def test_wait_until_holds_every_caller_across_runs(tmp_path: Path):
    until = datetime.fromtimestamp(time.time() + 3600, UTC).isoformat()
    with fake_cl() as fake:
        fake.faults.append(Fault("status", 429, {"error_message": "Too many requests", "wait_until": until}))
        cache = await Cache.open(tmp_path / "cache.sqlite")
        cl = client(fake, budget_s=1.0, store=cache)
        try:
            res = await cl.lookup(keys(3))
            assert all(r.pending_until and r.pending_until > time.time() + 3500 for r in res.values())
            # an opinion fetch in the same run is held too, without a request
            before = fake.counts.requests
            from citecheck.errors import Deferred
            from citecheck.sources.models import CaseRecord

            with pytest.raises(Deferred):
                await cl.opinion(CaseRecord(id="cl:1000", source="courtlistener", name="x"))
            assert fake.counts.requests == before == 1
        finally:
            await cl.close()
        cl2 = client(fake, budget_s=1.0, store=cache)  # the next run
        try:
            again = await cl2.lookup(keys(3))
        finally:
            await cl2.close()
        assert all(r.pending_until for r in again.values()) and fake.counts.requests == 1
        await cache.close()


async def test_a_rejected_token_stops_every_call_until_it_changes(tmp_path: Path):
    with fake_cl(token="good") as fake:
        cache = await Cache.open(tmp_path / "cache.sqlite")
        cl = client(fake, token="bad", store=cache)
        try:
            with pytest.raises(AuthenticationError, match="refused the token"):
                await cl.lookup(keys(2))
            with pytest.raises(AuthenticationError):
                await cl.lookup(keys(2))
        finally:
            await cl.close()
        cl2 = client(fake, token="bad", store=cache)  # next run, same token: still nothing sent
        try:
            with pytest.raises(AuthenticationError):
                await cl2.lookup(keys(2))
        finally:
            await cl2.close()
        assert fake.counts.requests == 1
        assert "bad" not in (tmp_path / "cache.sqlite").read_bytes().decode("latin-1")  # only a fingerprint
        cl3 = client(fake, token="good", store=cache)  # a new token is tried at once
        try:
            res = await cl3.lookup(keys(2))
        finally:
            await cl3.close()
        assert all(r.status is LookupStatus.FOUND for r in res.values())
        await cache.close()


async def test_5xx_backs_off_exponentially_then_gives_up():
    with fake_cl() as fake:
        fake.always = Fault("status", 503, {"detail": "down"})
        cl = client(fake, backoff_s=0.05, retries=3)
        try:
            with pytest.raises(SourceUnavailable, match="503"):
                await cl.lookup(keys(1))
        finally:
            await cl.close()
    t = fake.counts.times
    gaps = [b - a for a, b in itertools.pairwise(t)]
    assert len(t) == 4  # one try and three retries, not a storm
    assert gaps[0] >= 0.05 and gaps[1] >= 0.1 and gaps[2] >= 0.2


async def test_backoff_is_capped():
    now = [0.0]
    p = Pacer(scope="x", clock=lambda: now[0], backoff_base_s=1.0, backoff_cap_s=8.0)
    delays = [await p.failed("503") for _ in range(6)]
    assert delays == [1.0, 2.0, 4.0, 8.0, 8.0, 8.0]
    await p.succeeded()
    assert await p.failed("503") == 1.0


async def test_per_citation_429s_are_not_resent_at_once():
    with fake_cl(max_citations=20, citation_rate="none") as fake:
        cl = client(fake, citation_rate="none", backoff_s=0.05)
        try:
            res = await cl.lookup(keys(50))
        finally:
            await cl.close()
    assert all(r.status is LookupStatus.FOUND for r in res.values())
    assert fake.counts.entry_429 == 30  # only the first request overran the service's cap
    t = fake.counts.times
    assert len(t) == 3 and t[1] - t[0] >= 0.05  # and the rest came after a back-off


async def test_a_trickling_server_cannot_outlast_the_request_deadline():
    with fake_cl() as fake:
        fake.always = Fault("trickle", bytes_per_s=2.0)
        cl = client(fake, timeout_s=0.4, timeout_retries=1)
        t0 = time.monotonic()
        try:
            with pytest.raises(SourceUnavailable, match="timed out"):
                await cl.lookup(keys(1))
        finally:
            await cl.close()
        assert time.monotonic() - t0 < 3.0  # two tries of 0.4 s, body included (not 2 bytes/s × the body)


async def test_an_unresponsive_server_cannot_outlast_the_run_deadline():
    with fake_cl() as fake:
        fake.always = Fault("hang", seconds=5.0)
        cl = client(fake, timeout_s=20.0, budget_s=0.5)
        t0 = time.monotonic()
        try:
            first = await cl.lookup(keys(1))
            second = await cl.lookup(keys(1))  # the run is out of time: nothing more is sent
            took = time.monotonic() - t0
        finally:
            await cl.close()
        assert took < 2.0 and fake.counts.requests == 1  # the 0.5 s deadline, not 4 tries × 20 s
        for res in (first, second):
            (r,) = res.values()
            assert r.status is LookupStatus.CANNOT_VERIFY and "time limit" in r.reason and r.pending_until


async def test_a_damaged_pacing_row_does_not_stop_lookups(tmp_path: Path):
    import sqlite3

    cache = await Cache.open(tmp_path / "cache.sqlite")
    with fake_cl() as fake:
        scope = fake.base_url.split("/")[2]
        with sqlite3.connect(tmp_path / "cache.sqlite") as db:
            db.execute(
                "INSERT OR REPLACE INTO pacing (scope, state) VALUES (?, ?)",
                (scope, '{"requests": "x", "hold_until": "soon"'),
            )
        cl = client(fake, store=cache)
        try:
            res = await cl.lookup(keys(3))
        finally:
            await cl.close()
        assert all(r.status is LookupStatus.FOUND for r in res.values())
        assert (await cache.load_pacing(scope))["requests"]  # and it is repaired by the next save
    await cache.close()
