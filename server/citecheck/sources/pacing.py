"""The paced request scheduler every CourtListener call goes through (lookups, clusters, opinions, dockets).

Why: CourtListener allows a free user 60 looked-up citations and 5 requests a minute (also 50 an
hour, 125 a day). Sending what we have as fast as we can makes the service block us for minutes and
everything after that becomes cannot-verify. The pacer spends the allowance smoothly instead, and it
obeys what the service says: a ``wait_until``/``Retry-After`` holds every caller until then, a
rejected token stops every call until the token changes, a 5xx backs off exponentially (capped).

The state (what was spent in the current windows, holds, a rejected token's fingerprint) is
persisted through a ``PacingStore`` (the SQLite cache), so the next CLI run and a language server
running at the same time see the same allowance. A caller gives a deadline; when the allowance
will not be there before it, ``Deferred`` says until when to come back instead of sleeping.

Between concurrent callers (two documents checked at once in one language server) the slot goes to
the caller whose waiting work is worth most by the pacer's ``WorkOrder``: each caller says what it
would send (``Work``), and the value is read again at every grant, so a scroll while they wait counts.
"""

from __future__ import annotations

import asyncio
import hashlib
import itertools
import math
import re
import time
from collections.abc import Awaitable, Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar

from citecheck.errors import AuthenticationError, ConfigError, Deferred

#: Documented limits of a free CourtListener account (see docs/sources.md).
FREE_REQUEST_RATES = "5/min,50/hour,125/day"
FREE_CITATION_RATE = "60/min"
BACKOFF_BASE_S = 2.0
BACKOFF_CAP_S = 300.0
#: A small margin past a window's end, for clock skew between us and the service.
MARGIN = 0.02

_UNITS = {"s": 1.0, "sec": 1.0, "second": 1.0, "min": 60.0, "minute": 60.0, "m": 60.0,
          "hour": 3600.0, "h": 3600.0, "day": 86400.0, "d": 86400.0}  # fmt: skip
_RATE = re.compile(r"^\s*(\d+)\s*/\s*(\d*\.?\d*)\s*([a-z]+)\s*$")


@dataclass(frozen=True, slots=True)
class Rate:
    """``count`` units per ``window_s`` seconds."""

    count: int
    window_s: float


def parse_rates(spec: str | None, *, time_scale: float = 1.0) -> tuple[Rate, ...]:
    """``"5/min,50/hour"`` → rates; ``""``/``None``/``"none"`` → no limit. ``time_scale`` shrinks windows (bench).

    >>> parse_rates("5/min, 50/hour")
    (Rate(count=5, window_s=60.0), Rate(count=50, window_s=3600.0))
    >>> parse_rates("60/min", time_scale=1 / 60)
    (Rate(count=60, window_s=1.0),)
    """
    if spec is None or spec.strip().lower() in ("", "none", "unlimited"):
        return ()
    out = []
    for part in spec.split(","):
        m = _RATE.match(part.lower())
        if not m or m.group(3) not in _UNITS or int(m.group(1)) < 1:
            raise ConfigError(f"bad rate {part.strip()!r}: write it like 5/min, 50/hour or 125/day")
        n = float(m.group(2) or 1)
        out.append(Rate(int(m.group(1)), n * _UNITS[m.group(3)] * time_scale))
    return tuple(out)


def about(seconds: float) -> str:
    """A wait as people say it, for messages.

    >>> about(3), about(250), about(5400)
    ('about 3 s', 'about 4 min', 'about 2 h')
    """
    if seconds < 60:
        return f"about {max(1, math.ceil(seconds))} s"
    if seconds < 3600:
        return f"about {max(1, round(seconds / 60))} min"
    return f"about {max(1, round(seconds / 3600))} h"


T = TypeVar("T")


class WorkOrder:
    """Which waiting work is worth most: the order in which the pacer's callers spend the allowance.

    Three keys, most important first: the *rank* a client gives (the language server: how many
    screens away from what the user sees, 0 = on screen; unranked work after ranked work), then what
    an earlier run left *pending* (in the order it was left: the next run continues where that one
    stopped), then the caller's own order (file order). ``ranks`` is read again at every batch, so
    work queued but not yet sent follows the view as it scrolls.
    """

    def __init__(self, ranks: Callable[[], Mapping[Any, float]] | None = None) -> None:
        self.ranks = ranks

    def arrange(
        self,
        items: Sequence[T],
        *,
        earlier: Mapping[Any, int] | None = None,
        keys: Callable[[T], Iterable[Hashable]] | None = None,
    ) -> list[T]:
        """``items`` in order of value (a stable sort; an item with several keys takes its best one).

        >>> WorkOrder(lambda: {"c": 0}).arrange(["a", "b", "c", "d"], earlier={"d": 1})
        ['c', 'd', 'a', 'b']
        """
        if len(items) < 2:
            return list(items)
        earlier = earlier or {}
        table = self.table()
        if not table and not earlier:
            return list(items)

        def value(pair: tuple[int, T]) -> tuple[float, float, int]:
            i, item = pair
            return (*self.value(keys(item) if keys is not None else (item,), earlier=earlier, table=table), i)

        return [item for _, item in sorted(enumerate(items), key=value)]

    def table(self) -> Mapping[Any, float]:
        """The client's ranks now (``{}`` when it gives none, or when its view cannot be read)."""
        if self.ranks is None:
            return {}
        try:
            return self.ranks()
        except Exception:  # a client's view is a hint; it must never stop the work
            return {}

    def value(
        self,
        keys: Iterable[Hashable],
        *,
        earlier: Mapping[Any, int] | None = None,
        table: Mapping[Any, float] | None = None,
    ) -> tuple[float, float]:
        """What work carrying ``keys`` is worth, lower first: its best rank, then its best pending position.

        ``table`` is ``self.table()`` when not given (pass it when valuing many things at one moment).

        >>> order = WorkOrder(lambda: {"a": 0, "b": 3})
        >>> order.value(["b", "z"]), order.value(["z"], earlier={"z": 4}), order.value([])
        ((3, inf), (inf, 4), (inf, inf))
        """
        table = self.table() if table is None else table
        earlier = earlier or {}
        best = left = math.inf
        for k in keys:
            r = table.get(k)
            if r is not None and r < best:
                best = r
            p = earlier.get(k)
            if p is not None and p < left:
                left = p
        return best, left


_arrivals = itertools.count()


def _nothing() -> tuple[Hashable, ...]:
    return ()


@dataclass(frozen=True, slots=True, eq=False)
class Work:
    """What a caller of ``Pacer.acquire`` would send, so that the pacer can tell which waiting caller's
    work is worth most (``WorkOrder.value``).

    ``keys`` gives the keys it would send now; it is called again at every grant (the caller's queue
    shrinks, and what the keys are worth follows the client's view). ``earlier`` is where an earlier
    run left them pending. ``arrived`` breaks ties (first come, first served): make one ``Work`` per
    call, so every request of a lookup keeps the place the lookup came in. ``Work()`` is unranked.
    """

    keys: Callable[[], Iterable[Hashable]] = _nothing
    earlier: Mapping[Any, int] = field(default_factory=dict)
    arrived: int = field(default_factory=lambda: next(_arrivals))


@dataclass(frozen=True, slots=True, eq=False)
class _Waiter:
    """A caller waiting in ``Pacer.acquire``; ``woken`` is set when what it waits on may have changed."""

    work: Work
    citations: int
    woken: asyncio.Event = field(default_factory=asyncio.Event)


class PacingStore(Protocol):
    """Where pacing state lives between runs (the lookup cache implements it)."""

    async def load_pacing(self, scope: str) -> dict[str, Any] | None: ...

    async def save_pacing(self, scope: str, state: dict[str, Any]) -> None: ...


def token_fingerprint(token: str | None) -> str:
    """A short one-way fingerprint, so "the token changed" can be told without storing the token."""
    return hashlib.sha256((token or "").encode("utf-8", "surrogatepass")).hexdigest()[:16]


class Pacer:
    """One per service (host + token): every request first ``acquire``s a slot here."""

    def __init__(
        self,
        *,
        scope: str,
        request_rates: tuple[Rate, ...] = (),
        citation_rate: Rate | None = None,
        token: str | None = None,
        store: PacingStore | None = None,
        clock: Callable[[], float] = time.time,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
        backoff_base_s: float = BACKOFF_BASE_S,
        backoff_cap_s: float = BACKOFF_CAP_S,
        on_wait: Callable[[float, str], None] | None = None,
        order: WorkOrder | None = None,
    ) -> None:
        self.scope = scope
        #: the order of value every caller spends the allowance in (the language server sets ranks)
        self.order = order or WorkOrder()
        self.request_rates = request_rates
        self.citation_rate = citation_rate
        self.fingerprint = token_fingerprint(token)
        self.store = store
        self.clock = clock
        self._sleep = sleep
        self.backoff_base_s = backoff_base_s
        self.backoff_cap_s = backoff_cap_s
        self.on_wait = on_wait
        self._waiting: list[_Waiter] = []  # callers in ``acquire``, in the order they came
        self.requests: list[float] = []  # send times within the longest request window
        self.citations: list[tuple[float, int]] = []  # (send time, citations) within the citation window
        self.hold_until = 0.0
        self.hold_reason = ""
        self.failures = 0  # consecutive 5xx / entry-429 answers, for the back-off
        self.rejected_token = ""  # fingerprint of a token the service refused
        self.sent = 0  # requests this process sent (for reports and the bench)
        self.waited_s = 0.0

    # ------------------------------------------------------------------ state
    def _prune(self, now: float) -> None:
        longest = max((r.window_s for r in self.request_rates), default=0.0)
        self.requests = [t for t in self.requests if t > now - longest]
        if self.citation_rate is not None:
            self.citations = [(t, n) for t, n in self.citations if t > now - self.citation_rate.window_s]
        else:
            self.citations = []

    def _to_dict(self) -> dict[str, Any]:
        return {"requests": self.requests, "citations": self.citations, "hold_until": self.hold_until,
                "hold_reason": self.hold_reason, "failures": self.failures,
                "rejected_token": self.rejected_token}  # fmt: skip

    def _merge(self, d: dict[str, Any]) -> None:
        """Merge what another run (or process) recorded: union of sends, the later hold."""
        try:
            reqs = {float(t) for t in d.get("requests", ())}
            cites = {(float(t), int(n)) for t, n in d.get("citations", ())}
            hold = float(d.get("hold_until", 0.0))
            reason = str(d.get("hold_reason", ""))
            failures = int(d.get("failures", 0))
            rejected = str(d.get("rejected_token", ""))
        except (TypeError, ValueError):
            return  # a damaged row is no reason to stop; our own memory still paces us
        self.requests = sorted(reqs | set(self.requests))
        self.citations = sorted(cites | set(self.citations))
        if hold > self.hold_until:
            self.hold_until, self.hold_reason = hold, reason
        self.failures = max(self.failures, failures)
        self.rejected_token = rejected or self.rejected_token

    async def _load(self) -> None:
        if self.store is None:
            return
        try:
            d = await self.store.load_pacing(self.scope)
        except Exception:  # pacing must work with a broken cache too
            return
        if isinstance(d, dict):
            self._merge(d)

    async def _save(self) -> None:
        if self.store is None:
            return
        self._prune(self.clock())
        try:
            await self.store.save_pacing(self.scope, self._to_dict())
        except Exception:
            pass

    # ------------------------------------------------------------------ planning (pure)
    def citations_free(self, now: float | None = None) -> int | None:
        """How many citations one request may carry now without being throttled (None: no limit)."""
        if self.citation_rate is None:
            return None
        now = self.clock() if now is None else now
        self._prune(now)
        used = sum(n for _, n in self.citations)
        return max(0, self.citation_rate.count - used)

    def ready_at(self, citations: int = 0, now: float | None = None) -> tuple[float, str]:
        """When a request carrying ``citations`` may be sent, and what it waits for."""
        now = self.clock() if now is None else now
        self._prune(now)
        at, why = now, ""
        if self.hold_until > at:
            at, why = self.hold_until, self.hold_reason or "CourtListener's rate limit"
        for rate in self.request_rates:
            inside = sorted(t for t in self.requests if t > now - rate.window_s)
            if len(inside) >= rate.count:
                t = inside[len(inside) - rate.count] + rate.window_s * (1 + MARGIN)
                if t > at:
                    at, why = t, "CourtListener's rate limit"
        if citations and self.citation_rate is not None:
            rate = self.citation_rate
            want = min(citations, rate.count)
            used = sorted(self.citations)
            total = sum(n for _, n in used)
            i = 0
            t = now
            while total + want > rate.count and i < len(used):
                total -= used[i][1]
                t = used[i][0] + rate.window_s * (1 + MARGIN)
                i += 1
            if t > at:
                at, why = t, "CourtListener's rate limit"
        return at, why

    async def spare(self, share: float = 0.5) -> bool:
        """May a request of optional work (the treatment search) go now? Only without waiting and while every
        request window stays within ``share`` of its allowance after it: the rest is left to the lookups that
        verify citations, which an extra must never delay (the next document's lookups come after it)."""
        await self._load()
        now = self.clock()
        if self.rejected_token and self.rejected_token == self.fingerprint:
            return False
        if self._waiting or self.ready_at(0, now)[0] > now:
            return False
        return all(
            sum(1 for t in self.requests if t > now - rate.window_s) + 1 <= rate.count * share
            for rate in self.request_rates
        )

    # ------------------------------------------------------------------ the one way in
    async def acquire(
        self, citations: int = 0, *, deadline: float | None = None, work: Work | None = None
    ) -> float:
        """Wait for a slot for one request (carrying ``citations``), then record it as sent.

        When several callers wait, the slot goes to the one whose ``work`` is worth most now (ties:
        the one whose ``Work`` came first); a caller without ``work`` is unranked. A caller that
        chooses what to send only once the slot is granted sends what is worth most at that moment.

        Raises ``AuthenticationError`` while the service's last word on this token was 401/403,
        and ``Deferred`` when the slot comes after ``deadline``.
        """
        me = _Waiter(work or Work(), citations)
        self._waiting.append(me)
        try:
            await self._load()
            await self._wait_turn(me, deadline)
            # granted: recorded before anything else runs, so no other caller can take the same slot
            now = self.clock()
            self.requests.append(now)
            if citations and self.citation_rate is not None:
                self.citations.append((now, citations))
            self.sent += 1
        finally:
            self._waiting.remove(me)
            self._wake()  # granted, deferred, refused or cancelled: the others look again
        await self._save()
        return now

    def _first(self) -> _Waiter | None:
        """The waiting caller whose work is worth most now (the view is read again: it may have scrolled)."""
        if len(self._waiting) < 2:
            return self._waiting[0] if self._waiting else None
        table = self.order.table()

        def worth(w: _Waiter) -> tuple[float, float, int]:
            try:
                keys = tuple(w.work.keys())
            except Exception:  # a caller's queue is a hint too: unranked, never stuck
                keys = ()
            return (*self.order.value(keys, earlier=w.work.earlier, table=table), w.work.arrived)

        return min(self._waiting, key=worth)

    def _wake(self) -> None:
        """What every waiter waits on may have changed (a grant, a departure, a hold, a refused token)."""
        for w in self._waiting:
            w.woken.set()

    async def _wait_turn(self, me: _Waiter, deadline: float | None) -> None:
        """Return (without an await after the last check) when ``me`` may send: the allowance has a
        slot for its request and no waiting caller's work is worth more."""
        while True:
            if self.rejected_token and self.rejected_token == self.fingerprint:
                raise AuthenticationError(
                    "CourtListener refused the token (HTTP 401); no lookups are sent until it changes — "
                    "check CITECHECK_COURTLISTENER_TOKEN"
                )
            me.woken.clear()
            now = self.clock()
            at, why = self.ready_at(me.citations, now)
            if deadline is not None and at > deadline:
                raise Deferred(f"waiting for {why}", until=at)  # "waiting for CourtListener's rate limit"
            first = self._first()
            if first is me:
                if at <= now:
                    return
                wait = at - now
                if self.on_wait is not None:
                    try:
                        self.on_wait(wait, why)
                    except Exception:  # a progress display must never stop the work
                        pass
                self.waited_s += wait
                await self._sleep(wait)  # then look again: a better caller may have come meanwhile
                continue
            if first is not None:
                first.woken.set()  # it may be waiting for a change (it became first by a scroll)
            try:
                if deadline is None:
                    await me.woken.wait()
                else:
                    async with asyncio.timeout(max(0.0, deadline - now)):
                        await me.woken.wait()
            except TimeoutError:
                # work worth more took the allowance up to our deadline: come back when it may have room
                now = self.clock()
                at, why = self.ready_at(me.citations, now)
                why = why or "CourtListener's rate limit"
                raise Deferred(f"waiting for {why}", until=max(at, now)) from None

    async def completed(self, stamp: float) -> None:
        """The request sent at ``stamp`` got its answer: count it from now on.

        The service stamps a request somewhere between our send and its answer; counting from the
        answer keeps our window from ending before the service's does (no 429 from a slow answer).
        """
        now = self.clock()
        if now <= stamp:
            return
        self.requests = [now if t == stamp else t for t in self.requests]
        self.citations = [(now if t == stamp else t, n) for t, n in self.citations]
        await self._save()

    # ------------------------------------------------------------------ what the service said
    async def hold(self, until: float, reason: str) -> None:
        """The service asked every caller to wait until ``until`` (wall clock)."""
        if until > self.hold_until:
            self.hold_until, self.hold_reason = until, reason
            self._wake()  # a waiter whose deadline comes first defers now, not at its deadline
        await self._save()

    async def failed(self, reason: str) -> float:
        """A 5xx (or a throttled entry): hold everyone for the next step of the capped back-off."""
        self.failures += 1
        delay = min(self.backoff_cap_s, self.backoff_base_s * 2 ** (self.failures - 1))
        await self.hold(self.clock() + delay, reason)
        return delay

    async def succeeded(self) -> None:
        if self.failures:
            self.failures = 0
            await self._save()

    async def token_rejected(self) -> None:
        self.rejected_token = self.fingerprint
        self._wake()  # every waiter stops now
        await self._save()
