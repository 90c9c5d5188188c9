"""CourtListener work in order of value (``pacing.WorkOrder``), against the loopback CourtListener.

What is asked first when the allowance is short: what the user sees (ranks a client gives), then
what an earlier run left pending — read back from the real SQLite cache — then file order. The fake
(``citecheck_testing.courtlistener``) records every citation it looked up, in order; windows
are scaled down so a "minute" lasts a fraction of a second.
"""

from __future__ import annotations

from pathlib import Path

from citecheck.sources.cache import Cache
from citecheck.sources.courtlistener import CourtListenerClient
from citecheck.sources.models import CiteKey, LookupStatus
from citecheck.sources.pacing import WorkOrder
from citecheck_testing.courtlistener import FakeCourtListener

WINDOW = 1.0  # "a minute", in seconds: long enough that a short budget ends well inside it
SCALE = WINDOW / 60


def keys(n: int, first: int = 0) -> list[CiteKey]:
    return [CiteKey(str(200 + i // 50), "F.3d", str(1 + (i % 50) * 20)) for i in range(first, first + n)]


def label(k: CiteKey) -> str:
    return f"{k.volume} {k.reporter} {k.page}"


def fake_cl() -> FakeCourtListener:
    return FakeCourtListener(request_rates="5/min", citation_rate="10/min", time_scale=SCALE)


def client(fake: FakeCourtListener, **kw) -> CourtListenerClient:
    return CourtListenerClient(fake.base_url, "secret", request_rates="5/min", citation_rate="10/min",
                               time_scale=SCALE, backoff_s=0.02, **kw)  # fmt: skip


# ---------------------------------------------------------------- pure
def test_rank_then_pending_then_caller_order():
    order = WorkOrder(lambda: {"e": 0, "b": 2})
    assert order.arrange(list("abcdef"), earlier={"f": 7, "d": 3}) == list("ebdfac")
    assert WorkOrder().arrange(list("abc")) == list("abc")  # nobody says anything: the caller's order
    assert (
        WorkOrder(lambda: {"x": 0}).arrange([("a", ["y"]), ("b", ["z", "x"])], keys=lambda i: i[1])[0][0]
        == "b"
    )


def test_a_broken_rank_source_never_stops_the_work():
    def broken() -> dict:
        raise RuntimeError("the view went away")

    assert WorkOrder(broken).arrange(list("abc"), earlier={"c": 1}) == list("cab")


# ---------------------------------------------------------------- against the loopback CourtListener
async def test_the_first_request_carries_what_the_user_sees():
    wanted = keys(40)
    seen = set(wanted[25:35])  # on screen: the 26th to the 35th citation
    order = WorkOrder(lambda: {k: 0 for k in seen})
    with fake_cl() as fake:
        cl = client(fake, order=order, budget_s=WINDOW / 2)
        try:
            res = await cl.lookup(wanted)
        finally:
            await cl.close()
    assert set(fake.lookup_order) == {label(k) for k in seen}  # ten a window: exactly the visible ten
    assert all(res[k].status is LookupStatus.FOUND for k in seen)
    assert all(res[k].pending_until for k in wanted if k not in seen)


async def test_a_scroll_reorders_what_is_queued_but_not_sent():
    wanted = keys(30)
    view = {"ranks": {k: 0 for k in wanted[:10]}}
    order = WorkOrder(lambda: view["ranks"])
    with fake_cl() as fake:
        cl = client(fake, order=order)

        def scrolled(done: int, total: int, why: str) -> None:
            if done == 10:  # after the first request, the user scrolls to the end of the brief
                view["ranks"] = {k: 0 for k in wanted[20:]}

        cl.on_progress = scrolled
        try:
            res = await cl.lookup(wanted)
        finally:
            await cl.close()
    assert all(r.status is LookupStatus.FOUND for r in res.values())
    expected = [*wanted[:10], *wanted[20:], *wanted[10:20]]
    assert fake.lookup_order == [label(k) for k in expected]
    assert fake.counts.throttled == 0


async def test_the_next_run_starts_with_what_the_last_one_left_pending(tmp_path: Path):
    """Two runs over one SQLite cache: the first (a language server showing the end of the brief)
    is cut off by its deadline; the second (the CLI, file order, the brief has grown at the top)
    looks up what was left first, in the order it was left, then the new citations."""
    brief = keys(30, first=10)
    seen = set(brief[-10:])
    with fake_cl() as fake:
        cache = await Cache.open(tmp_path / "cache.sqlite")
        first = client(fake, store=cache, order=WorkOrder(lambda: {k: 0 for k in seen}), budget_s=WINDOW / 2)
        try:
            one = await first.lookup(brief)
        finally:
            await first.close()
        left = [k for k, r in one.items() if r.pending_until is not None]
        assert (
            {label(k) for k in brief if k not in left} == set(fake.lookup_order) == {label(k) for k in seen}
        )
        await cache.put_lookups([r for r in one.values() if r.status is LookupStatus.FOUND])
        assert [k for k, _ in await cache.pending()] == [k for k in brief if k not in seen]  # in file order

        grown = [*keys(10), *brief]  # ten new citations above the old ones
        cached = await cache.get_lookups(grown)
        todo = [k for k in grown if k not in cached]  # what the chain would send on
        second = client(fake, store=cache)  # no view: file order
        try:
            two = await second.lookup(todo)
        finally:
            await second.close()
        assert all(r.status is LookupStatus.FOUND for r in two.values())
        after = fake.lookup_order[len(seen) :]
        assert after == [label(k) for k in [*left, *keys(10)]]
        assert await cache.pending() == []
        assert fake.counts.throttled == 0
        await cache.close()


async def test_pending_positions_survive_a_reopen_and_forget_old_work(tmp_path: Path):
    path = tmp_path / "cache.sqlite"
    old, (a, b, c) = keys(3), keys(3, first=5)
    cache = await Cache.open(path)
    await cache.put_pending(old, until=1.0, now=1_000_000.0)  # left over a week ago
    await cache.put_pending([a, b], until=2.0)
    await cache.put_pending([c, a], until=3.0)  # ``a`` waits again: it keeps its place
    await cache.close()
    cache = await Cache.open(path)
    try:
        positions = await cache.pending_positions([*old, c, b, a])
        assert sorted(positions, key=positions.__getitem__) == [a, b, c]  # the old brief's work is forgotten
    finally:
        await cache.close()
