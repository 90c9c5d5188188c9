"""The language server against a loopback CourtListener with its limits (windows scaled to 0.4 s, 10
citations a window, so 90 citations take longer than the 2 s one check waits for the allowance):
it keeps verifying in the background and republishes, and it obeys a 429 asking it to wait."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import UTC, datetime
from pathlib import Path

from pytest_lsp import client_capabilities

from citecheck_testing.courtlistener import FakeCourtListener, Fault

WINDOW = 0.4
N = 90
TEXT = "\n\n".join(
    f"See Alpha v. Beta, {200 + i // 50} F.3d {1 + (i % 50) * 20} (9th Cir. 2000)." for i in range(N)
)


def _options(h, corpus: Path, cache: Path, fake: FakeCourtListener, window: float = WINDOW) -> dict:
    return h.init_options(corpus, cache, offline=False, courtlistenerUrl=fake.base_url, courtlistenerToken="tok",
                          courtlistenerRates=f"5/{window}s", courtlistenerCitationRate=f"10/{window}s")  # fmt: skip


def _fake(window: float = WINDOW) -> FakeCourtListener:
    return FakeCourtListener(request_rates="5/min", citation_rate="10/min", time_scale=window / 60)


@asynccontextmanager
async def _session(
    h, kind: str, corpus: Path, tmp_path: Path, fake: FakeCourtListener, window: float = WINDOW
) -> AsyncIterator:
    """A real citecheck-lsp talking to ``fake``, as the client ``kind``."""
    client = await h.config.start()
    try:
        await h.start_session(client, client_capabilities(kind), _options(h, corpus, tmp_path, fake, window))
        yield client
    finally:
        await client.shutdown_session()
        await client.stop()


async def test_verifies_in_the_background_and_republishes(h, corpus_db: Path, tmp_path: Path) -> None:
    uri = (tmp_path / "brief.txt").as_uri()
    with _fake() as fake:
        client = await h.config.start()
        try:
            await h.start_session(
                client, client_capabilities("visual-studio-code"), _options(h, corpus_db, tmp_path, fake)
            )
            h.open_doc(client, uri, TEXT)
            # a first answer soon, with citations still waiting ("not checked yet")...
            first = await h.wait_publish(client, uri, 1, lambda ds: any("not checked yet" in d.message for d in ds),
                                         timeout=60)  # fmt: skip
            assert any(d.code == "cannot-verify" for d in first)
            # ...and, without any edit, republished until nothing waits
            n = len(client.published[uri])
            await h.wait_publish(client, uri, 1, lambda ds: len(client.published[uri]) > n
                                 and fake.counts.citations == N
                                 and not any(d.code == "cannot-verify" for d in ds), timeout=30)  # fmt: skip
            assert fake.counts.throttled == 0
        finally:
            await client.shutdown_session()
            await client.stop()


async def test_a_429_asking_to_wait_an_hour_stops_the_lookups(h, corpus_db: Path, tmp_path: Path) -> None:
    uri = (tmp_path / "brief.txt").as_uri()
    until = datetime.fromtimestamp(time.time() + 3600, UTC).isoformat()
    with _fake() as fake:
        fake.always = Fault("status", 429, {"error_message": "Too many requests", "wait_until": until})
        client = await h.config.start()
        try:
            await h.start_session(
                client, client_capabilities("neovim@v0.11.0"), _options(h, corpus_db, tmp_path, fake)
            )
            h.open_doc(client, uri, TEXT)
            await h.wait_publish(
                client, uri, 1, lambda ds: any("not checked yet" in d.message for d in ds), timeout=60
            )
            for v in range(2, 6):  # the writer keeps typing: every version is checked again...
                h.change_doc(client, uri, v, *[])
                await asyncio.sleep(0.3)
            await asyncio.sleep(1.0)
            assert fake.counts.requests == 1  # ...but nothing more is sent before the hour is up
        finally:
            await client.shutdown_session()
            await client.stop()


def _label(i: int) -> str:
    return f"{200 + i // 50} F.3d {1 + (i % 50) * 20}"


def _view(uri: str, first_line: int, last_line: int) -> dict:
    rng = {"start": {"line": first_line, "character": 0}, "end": {"line": last_line, "character": 0}}
    return {"documents": [{"uri": uri, "ranges": [rng]}]}


async def _until(predicate, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, "timed out"
        await asyncio.sleep(0.01)


async def test_what_the_user_sees_is_looked_up_first_and_a_scroll_reorders_the_rest(
    h, corpus_db: Path, tmp_path: Path
) -> None:
    """citecheck/visibleRanges (what the VS Code extension sends): the citations on screen go first."""
    uri = (tmp_path / "brief.txt").as_uri()
    window = 1.0  # a long "minute": the scroll below has most of it to reach the server before the next batch
    with _fake(window) as fake:
        async with _session(h, "visual-studio-code", corpus_db, tmp_path, fake, window) as client:
            # each citation is a paragraph of its own: citation i is on line 2i. The user sees 60–69.
            client.protocol.notify("citecheck/visibleRanges", _view(uri, 120, 139))
            h.open_doc(client, uri, TEXT)
            await _until(lambda: fake.counts.lookups >= 1)
            client.protocol.notify("citecheck/visibleRanges", _view(uri, 0, 19))  # scrolled to the top
            await _until(lambda: len(fake.lookup_order) >= 20)
            assert fake.lookup_order[:10] == [_label(i) for i in range(60, 70)]
            assert fake.lookup_order[10:20] == [_label(i) for i in range(10)]
            assert fake.counts.throttled == 0


async def test_the_document_on_screen_goes_before_another_document_being_checked(
    h, corpus_db: Path, tmp_path: Path
) -> None:
    """Two documents checked at once over one CourtListener allowance: the editor shows the second,
    so its citations go before the rest of the first, although the first one's check began first
    (the pacer serves concurrent callers by value, not in the order they came)."""
    first, second = (tmp_path / "first.txt").as_uri(), (tmp_path / "second.txt").as_uri()
    other = "\n\n".join(f"See Gamma v. Delta, 300 F.3d {1 + i * 20} (9th Cir. 2001)." for i in range(20))
    window = (
        1.0  # shorter than a check's 2 s patience (both checks wait); long enough for the second to arrive
    )
    with _fake(window) as fake:
        async with _session(h, "visual-studio-code", corpus_db, tmp_path, fake, window) as client:
            client.protocol.notify("citecheck/visibleRanges", _view(second, 0, 19))  # its citations 0–9
            h.open_doc(client, first, TEXT)
            await _until(lambda: fake.counts.lookups >= 1)  # the first spent this window and waits...
            h.open_doc(client, second, other)  # ...when the second one's check begins
            await _until(lambda: len(fake.lookup_order) >= 20)
            assert fake.lookup_order[:10] == [_label(i) for i in range(10)]
            assert fake.lookup_order[10:20] == [f"300 F.3d {1 + i * 20}" for i in range(10)]
            assert fake.counts.throttled == 0


async def test_a_client_that_does_not_say_what_it_shows_gets_document_order(
    h, corpus_db: Path, tmp_path: Path
) -> None:
    uri = (tmp_path / "brief.txt").as_uri()
    window = 1.0  # as above: room for the notification to arrive before the next batch is chosen
    with _fake(window) as fake:
        async with _session(h, "neovim@v0.11.0", corpus_db, tmp_path, fake, window) as client:
            h.open_doc(client, uri, TEXT)
            await _until(lambda: len(fake.lookup_order) >= 20)
            assert fake.lookup_order[:20] == [_label(i) for i in range(20)]
            client.protocol.notify("citecheck/visibleRanges", {"documents": "not a list"})  # ignored, logged
            client.protocol.notify("citecheck/visibleRanges", _view(uri, 170, 179))  # the last five: go next
            await _until(lambda: len(fake.lookup_order) >= 30)
            assert fake.lookup_order[20:25] == [_label(i) for i in range(85, 90)]


async def test_the_language_server_continues_where_the_last_run_stopped(
    h, corpus_db: Path, tmp_path: Path
) -> None:
    """A run over the same SQLite cache (here one that showed the end of the brief, so it left the rest
    pending from the end backwards) is continued by the language server in the order it was left."""
    from citecheck.sources.cache import Cache
    from citecheck.sources.courtlistener import CourtListenerClient
    from citecheck.sources.models import CiteKey
    from citecheck.sources.pacing import WorkOrder

    keys = [CiteKey(*_label(i).split(" ")) for i in range(N)]
    backwards = WorkOrder(
        lambda: {k: (N - 1 - i) // 10 for i, k in enumerate(keys)}
    )  # ten at a time, from the end
    uri = (tmp_path / "brief.txt").as_uri()
    window = 2.0  # the earlier run's budget (half a window) must cover its first answer on a busy machine
    with _fake(window) as fake:
        cache = await Cache.open(tmp_path / "cache.sqlite")  # the file the server's cachePath names
        earlier = CourtListenerClient(fake.base_url, "tok", request_rates=f"5/{window}s",
                                      citation_rate=f"10/{window}s", budget_s=window / 2, store=cache,
                                      order=backwards)  # fmt: skip
        try:
            await earlier.lookup(keys)
        finally:
            await earlier.close()
            await cache.close()
        assert fake.lookup_order == [_label(i) for i in range(80, 90)]
        async with _session(
            h, "neovim@v0.11.0", corpus_db, tmp_path, fake, window
        ) as client:  # no view: the order left
            h.open_doc(client, uri, TEXT)
            await _until(lambda: len(fake.lookup_order) >= 30)
            assert fake.lookup_order[10:30] == [_label(i) for i in [*range(70, 80), *range(60, 70)]]
            assert fake.counts.throttled == 0
