"""Benchmark CourtListener pacing: a 1,000-citation brief through a loopback CourtListener with its limits.

The loopback service (``citecheck_testing.courtlistener``) enforces the free account's documented
limits — 5 requests a minute (and 50 an hour, 125 a day) on every route, 60 looked-up citations a minute
on citation-lookup with CourtListener's proportional block, 250 citations per request — with time scaled
down (``--minute 1``: a 60-second minute lasts one second). The brief has ``--cites`` distinct citations,
``--quotes`` of them with a quotation and pin cite (so their opinions are fetched too).

Figures printed, for each mode:
- ``--wait``: one run that keeps going until done (the CLI's ``--wait``);
- ``run again``: repeated runs with the default deadline (scaled like the minute), each continuing from the
  cache, until every citation is verified — how many runs it takes;
- ``--wait, lookups only``: the same brief without quotations (no opinion fetches);
- ``order of value``: one service minute of allowance with 60 citations near the end of the brief on
  screen (the language server's ``citecheck/visibleRanges``), then the next run with no view: how many of
  the visible ones the first minute verified, and that the next run starts with what the first left
  pending (read back from the cache), in its order;
- ``old client``: what the client did before pacing — 250-citation requests, a 429 wait over 90 s gives
  up the rest of the run — for contrast (lookups only, three runs).
Each prints total time (in real and in service minutes), requests by route, 429s the service sent, the
largest number of requests in any one window, and whether every citation was eventually verified.

    python bench/courtlistener_pacing.py [--cites 1000] [--quotes 20] [--minute 1.0]
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
from datetime import datetime
from pathlib import Path

import httpx

from citecheck.config import Settings
from citecheck.pipeline import check_document
from citecheck.sources.cache import Cache
from citecheck.sources.chain import SourceChain
from citecheck.sources.courtlistener import CourtListenerClient
from citecheck.sources.models import CiteKey
from citecheck.sources.pacing import WorkOrder
from citecheck_testing.courtlistener import FakeCourtListener

QUOTE = "the rule applies to every case"


def brief(n: int, quotes: int) -> str:
    parts = []
    for i in range(n):
        vol, page = 200 + i // 50, 10 + (i % 50) * 20
        tail = f', {page} (9th Cir. 2000) ("{QUOTE}").' if i < quotes else " (9th Cir. 2000)."
        parts.append(f"See Alpha v. Beta, {vol} F.3d {page}{tail}")
    return "\n\n".join(parts)


def max_in_window(times: list[float], window: float) -> int:
    times = sorted(times)
    j = best = 0
    for i, t in enumerate(times):
        while times[j] <= t - window:
            j += 1
        best = max(best, i - j + 1)
    return best


def fake(minute: float) -> FakeCourtListener:
    return FakeCourtListener(time_scale=minute / 60)


def client(
    server: FakeCourtListener,
    minute: float,
    cache: Cache,
    budget: float | None,
    order: WorkOrder | None = None,
) -> CourtListenerClient:
    return CourtListenerClient(server.base_url, "bench", request_rates="5/min,50/hour,125/day",
                               citation_rate="60/min", time_scale=minute / 60, budget_s=budget,
                               backoff_s=0.5 * minute / 60, store=cache, order=order)  # fmt: skip


def label(i: int) -> str:
    return f"{200 + i // 50} F.3d {10 + (i % 50) * 20}"


async def order_of_value(n: int, minute: float) -> bool:
    """Citations ``n-100 … n-41`` on screen; two runs, each with one service minute of allowance."""
    seen = range(max(0, n - 100), max(0, n - 40))
    ranks = {CiteKey(*label(i).split(" ")): 0.0 for i in seen}
    text = brief(n, 0)
    with tempfile.TemporaryDirectory() as tmp, fake(minute) as server:
        settings = Settings(cache_path=Path(tmp) / "cache.sqlite")
        for view in (WorkOrder(lambda: ranks), None):
            cache = await Cache.open(settings.cache_path)
            async with SourceChain([cache, client(server, minute, cache, minute * 0.9, view)]) as chain:
                rep = await check_document(text, chain, settings)
            if view is not None:
                first = list(server.lookup_order)
                left = sum(1 for r in rep.results if r.pending_until)
                await asyncio.sleep(minute * 1.05)  # the user runs it again when the allowance is back
        second = server.lookup_order[len(first) :]
    on_screen = sum(1 for x in first if x in {label(i) for i in seen})
    continues = second == [x for x in [label(i) for i in range(n)] if x not in first][: len(second)]
    print("order of value (one service minute per run; 60 citations near the end on screen):")
    print(f"  first run looked up   {len(first):8d}  of which on screen {on_screen} of {len(seen)}"
          f"  (file order would have been {sum(1 for i in range(len(first)) if i in seen)})")  # fmt: skip
    print(f"  next run looked up    {len(second):8d}  the first of what was left pending, in file order: "
          f"{'yes' if continues and second else 'NO'}  ({left} were left)")  # fmt: skip
    print(f"  throttled (HTTP 429)  {server.counts.throttled:8d}")
    return (
        on_screen == len(seen) == len(first) and continues and bool(second) and server.counts.throttled == 0
    )


def report(
    mode: str, server: FakeCourtListener, took: float, minute: float, verified: int, total: int, runs: int
) -> None:
    c = server.counts
    print(f"{mode}:")
    print(
        f"  total time            {took:8.2f} s  ({took / minute:.1f} service minutes)"
        f"{f', {runs} runs' if runs > 1 else ''}"
    )
    print(
        f"  requests              {c.requests:8d}  ({', '.join(f'{k} {v}' for k, v in sorted(c.by_route.items()))})"
    )
    print(f"  throttled (HTTP 429)  {c.throttled:8d}  entry 429s {c.entry_429}")
    print(f"  max requests/window   {max_in_window(c.times, minute):8d}  (limit 5)")
    print(f"  citations verified    {verified:8d} of {total}  -> {'ALL' if verified == total else 'NOT ALL'}")


async def run_checks(
    text: str, minute: float, budget: float | None, max_runs: int
) -> tuple[FakeCourtListener, float, int, int, int]:
    with tempfile.TemporaryDirectory() as tmp, fake(minute) as server:
        settings = Settings(cache_path=Path(tmp) / "cache.sqlite")
        t0 = time.perf_counter()
        runs = 0
        while True:
            runs += 1
            cache = await Cache.open(settings.cache_path)
            async with SourceChain([cache, client(server, minute, cache, budget)]) as chain:
                rep = await check_document(text, chain, settings)
            verified = sum(1 for r in rep.results if r.status == "verified" and r.pending_until is None)
            waiting = sum(1 for r in rep.results if r.pending_until is not None)
            if not waiting or runs >= max_runs:
                break
            # "run again": the user comes back when the line said the wait is over
            await asyncio.sleep(
                max(0.0, min(r.pending_until for r in rep.results if r.pending_until) - time.time())
            )
        return server, time.perf_counter() - t0, verified, len(rep.results), runs


async def old_client(n: int, minute: float, runs: int = 3) -> None:
    """What the client did before pacing: 250 citations a request; a 429 wait of at most 90 s is slept
    out once, a longer one gives up the rest of the run (everything after it cannot-verify)."""
    keys = [f"{200 + i // 50} F.3d {10 + (i % 50) * 20}" for i in range(n)]
    with fake(minute) as server:
        t0 = time.perf_counter()
        done: set[str] = set()
        per_run = []
        async with httpx.AsyncClient(timeout=30) as http:
            for _ in range(runs):
                before = len(done)
                todo = [k for k in keys if k not in done]
                waited = False
                i = 0
                while i < len(todo):
                    r = await http.post(
                        server.base_url + "citation-lookup/", data={"text": "; ".join(todo[i : i + 250])}
                    )
                    if r.status_code == 429:
                        until = r.json().get("wait_until")
                        wait = datetime.fromisoformat(until).timestamp() - time.time() if until else 0.0
                        if waited or wait > 90 * minute / 60:
                            break  # the rest of this run: cannot-verify
                        waited = True
                        await asyncio.sleep(max(0.0, wait))
                        continue
                    done.update(e["citation"] for e in r.json() if e["status"] == 200)
                    i += 250
                per_run.append(len(done) - before)
        report(f"old client, {runs} runs (250 a request, gives up on a wait over 90 s)", server,
               time.perf_counter() - t0, minute, len(done), n, runs)  # fmt: skip
        print(f"  verified per run      {per_run}")


async def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--cites", type=int, default=1000)
    ap.add_argument("--quotes", type=int, default=20)
    ap.add_argument("--minute", type=float, default=1.0, help="seconds one service minute lasts")
    ap.add_argument("--skip-old", action="store_true", help="skip the old client's behaviour, for contrast")
    args = ap.parse_args()
    text = brief(args.cites, args.quotes)
    print(f"brief: {args.cites} citations, {args.quotes} with a quotation and pin cite; "
          f"a minute lasts {args.minute} s; "
          "limits 5 requests/min, 50/hour, 125/day; 60 citations/min; 250 per request")  # fmt: skip
    server, took, verified, total, runs = await run_checks(text, args.minute, None, 1)
    report("--wait (one run until done)", server, took, args.minute, verified, total, runs)
    ok = verified == total and server.counts.throttled == 0
    server, took, verified, total, runs = await run_checks(text, args.minute, args.minute, 100)
    report(
        "run again (deadline one service minute per run, cache between runs)",
        server,
        took,
        args.minute,
        verified,
        total,
        runs,
    )
    ok = ok and verified == total
    server, took, verified, total, runs = await run_checks(brief(args.cites, 0), args.minute, None, 1)
    report("--wait, lookups only (no quotations)", server, took, args.minute, verified, total, runs)
    ok = ok and verified == total and server.counts.throttled == 0
    ok = await order_of_value(args.cites, args.minute) and ok
    if not args.skip_old:
        await old_client(args.cites, args.minute)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
