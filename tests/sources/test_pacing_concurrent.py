"""Concurrent callers of one pacer (two documents checked at once in one language server): the slot
goes to the waiting work worth most by the pacer's ``WorkOrder``, read again at every grant.

The first tests run two lookups through one client against the loopback CourtListener
(``citecheck_testing.courtlistener``, windows scaled down; its request log is the evidence);
the rest drive the ``Pacer`` itself on the real clock with short windows: cancellation, deadlines,
holds and a refused token while several callers wait.
"""

from __future__ import annotations

import asyncio
import time

import pytest

from citecheck.errors import AuthenticationError, Deferred
from citecheck.sources.courtlistener import CourtListenerClient
from citecheck.sources.models import CiteKey, LookupStatus
from citecheck.sources.pacing import Pacer, Rate, Work, WorkOrder
from citecheck_testing.courtlistener import FakeCourtListener

WINDOW = 0.5  # "a minute", in seconds
SCALE = WINDOW / 60


def keys(n: int, volume: int) -> list[CiteKey]:
    return [CiteKey(str(volume), "F.3d", str(1 + i * 20)) for i in range(n)]


def labels(ks: list[CiteKey]) -> list[str]:
    return [f"{k.volume} {k.reporter} {k.page}" for k in ks]


async def settle() -> None:
    """Let tasks just created run up to the point where they wait (no I/O on the way: no store)."""
    for _ in range(5):
        await asyncio.sleep(0)


# ---------------------------------------------------------------- against the loopback CourtListener
async def _two_documents(scroll: bool) -> tuple[list[str], list[CiteKey], list[CiteKey], FakeCourtListener]:
    """Document A (far off-screen) starts first and waits for the allowance; document B (on screen)
    comes a moment later. With ``scroll``, the user scrolls to A while both wait."""
    far, seen, spent = keys(20, 300), keys(10, 400), keys(10, 500)
    view: dict[CiteKey, float] = {**{k: 9 for k in far}, **{k: 0 for k in seen}}
    with FakeCourtListener(request_rates="5/min", citation_rate="10/min", time_scale=SCALE) as fake:
        cl = CourtListenerClient(fake.base_url, "secret", request_rates="5/min", citation_rate="10/min",
                                 time_scale=SCALE, backoff_s=0.02, order=WorkOrder(lambda: view))  # fmt: skip
        try:
            await cl.lookup(spent)  # this window's ten citations are spent: the next request waits
            waiting = asyncio.Event()
            cl.pacer.on_wait = lambda s, why: waiting.set()
            a = asyncio.create_task(cl.lookup(far))
            await asyncio.wait_for(waiting.wait(), 10)  # A waits for the allowance...
            b = asyncio.create_task(cl.lookup(seen))  # ...when B comes
            await settle()
            assert not a.done() and not b.done()
            if scroll:
                view.update({**{k: 0 for k in far}, **{k: 9 for k in seen}})
            ra, rb = await asyncio.wait_for(asyncio.gather(a, b), 30)
        finally:
            await cl.close()
    assert all(r.status is LookupStatus.FOUND for r in (*ra.values(), *rb.values()))
    assert fake.counts.throttled == 0 and fake.counts.entry_429 == 0
    assert fake.lookup_order[:10] == labels(spent)
    return fake.lookup_order[10:], far, seen, fake


async def test_the_document_on_screen_is_looked_up_before_one_that_started_first():
    """In arrival order (the old pacer) A's next ten went first; now the ten B shows do."""
    sent, far, seen, _ = await _two_documents(scroll=False)
    assert sent[:10] == labels(seen)
    assert sorted(sent[10:]) == sorted(labels(far))


async def test_the_value_is_read_again_when_the_slot_is_granted():
    """The user scrolls to A while both wait: A's citations are now worth more, all of them go first."""
    sent, far, seen, _ = await _two_documents(scroll=True)
    assert sent == [*labels(far), *labels(seen)]


# ---------------------------------------------------------------- the pacer itself, several callers at once
def pacer(order: WorkOrder | None = None, **kw) -> Pacer:
    kw.setdefault("request_rates", (Rate(1, 0.2),))
    return Pacer(scope="x", order=order or WorkOrder(lambda: {"seen": 0, "near": 1, "far": 5}), **kw)


def work(*ks: str) -> Work:
    return Work(keys=lambda: ks)


async def test_callers_are_served_by_value_and_an_unranked_one_once_nobody_better_waits():
    p = pacer()
    await p.acquire()  # the window is spent
    served: list[str] = []

    async def call(name: str, w: Work) -> None:
        await p.acquire(work=w)
        served.append(name)

    tasks = [asyncio.create_task(call("unranked", Work()))]
    await settle()
    tasks += [asyncio.create_task(call(n, work(n))) for n in ("far", "near", "seen")]
    await asyncio.wait_for(asyncio.gather(*tasks), 10)
    assert served == ["seen", "near", "far", "unranked"]


async def test_equal_value_goes_in_arrival_order_and_pending_work_before_new():
    p = pacer(WorkOrder())
    await p.acquire()
    served: list[str] = []

    async def call(name: str, w: Work) -> None:
        await p.acquire(work=w)
        served.append(name)

    first, second = Work(), Work()  # made in this order: the order the two calls came in
    tasks = [asyncio.create_task(call("second", second)), asyncio.create_task(call("first", first))]
    await settle()
    tasks.append(asyncio.create_task(call("left pending", Work(keys=lambda: ["k"], earlier={"k": 3}))))
    await asyncio.wait_for(asyncio.gather(*tasks), 10)
    assert served == ["left pending", "first", "second"]


@pytest.mark.parametrize("cancel", ["the first", "the next"])
async def test_a_caller_cancelled_while_waiting_does_not_wedge_the_others(cancel: str):
    p = pacer()
    await p.acquire()
    seen = asyncio.create_task(p.acquire(work=work("seen")))
    near = asyncio.create_task(p.acquire(work=work("near")))
    far = asyncio.create_task(p.acquire(work=work("far")))
    await settle()
    gone, rest = (seen, [near, far]) if cancel == "the first" else (near, [seen, far])
    gone.cancel()
    stamps = await asyncio.wait_for(asyncio.gather(*rest), 10)  # both still get their slots, in order
    assert gone.cancelled() and stamps == sorted(stamps)
    assert p._waiting == []  # nothing left behind
    await asyncio.wait_for(p.acquire(), 10)  # and the next caller is served


async def test_a_caller_behind_better_work_defers_at_its_deadline_instead_of_waiting_past_it():
    # the on-screen caller waits for the citation window to turn; the other (no citations) would fit
    # now, but better work waits: it waits its turn until its own deadline, then is told to come back
    p = pacer(request_rates=(), citation_rate=Rate(10, 5.0))
    await p.acquire(10)
    seen = asyncio.create_task(p.acquire(10, work=work("seen")))
    await settle()
    deadline = time.time() + 0.1
    with pytest.raises(Deferred, match="rate limit"):
        await asyncio.wait_for(p.acquire(0, deadline=deadline, work=work("far")), 10)
    assert not seen.done()  # deferred at its deadline, long before the window turned
    seen.cancel()
    await asyncio.gather(seen, return_exceptions=True)
    assert p._waiting == []


async def test_a_hold_or_a_refused_token_stops_every_waiting_caller():
    p = pacer(request_rates=(Rate(1, 0.5),))
    await p.acquire()
    patient = asyncio.create_task(p.acquire(work=work("seen")))  # no deadline
    hurried = asyncio.create_task(p.acquire(deadline=time.time() + 60, work=work("far")))
    await settle()
    await p.hold(time.time() + 3600, "CourtListener's rate limit (it asked us to wait, HTTP 429)")
    with pytest.raises(Deferred) as why:
        await asyncio.wait_for(hurried, 5)  # told at once, not at its deadline
    assert why.value.until > time.time() + 3500
    assert not patient.done()
    other = asyncio.create_task(p.acquire(work=work("near")))
    await settle()
    await p.token_rejected()
    with pytest.raises(AuthenticationError):
        await asyncio.wait_for(other, 5)
    patient.cancel()
    with pytest.raises(asyncio.CancelledError):
        await patient
    assert p._waiting == []
