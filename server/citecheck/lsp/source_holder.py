"""The case-law source of one server, on its own thread and event loop (the LSP's I/O edge)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
from collections.abc import Awaitable, Callable
from typing import Any

from citecheck.config import Settings

log = logging.getLogger(__name__)


class SourceHolder:
    """One authority source per server, on its own thread and event loop.

    The source-backed check does real CPU work (matching quotes against opinions, running every
    check) between its awaits; on the protocol's loop that would delay keystrokes. Here it runs
    beside it, and a cancelled stage 2 cancels the task on this loop too. The source is opened
    lazily and re-opened when its settings change.
    """

    def __init__(self) -> None:
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._stack: contextlib.AsyncExitStack | None = None
        self._source: Any = None
        self._settings: Settings | None = None
        self._lock: asyncio.Lock | None = None

    def _ensure_loop(self) -> asyncio.AbstractEventLoop:
        if self._loop is None:
            loop = asyncio.new_event_loop()
            thread = threading.Thread(target=loop.run_forever, name="citecheck-sources", daemon=True)
            thread.start()
            self._loop, self._thread = loop, thread
        return self._loop

    async def run(self, settings: Settings, fn: Callable[[Any], Awaitable[Any]]) -> Any:
        """``await fn(source)`` on the source thread; cancelling the caller cancels it there."""
        loop = self._ensure_loop()
        return await asyncio.wrap_future(asyncio.run_coroutine_threadsafe(self._run(settings, fn), loop))

    async def _run(self, settings: Settings, fn: Callable[[Any], Awaitable[Any]]) -> Any:
        return await fn(await self._get(settings))

    async def _get(self, settings: Settings) -> Any:
        from citecheck.lsp.server import CiteServer

        if self._lock is None:
            self._lock = asyncio.Lock()
        async with self._lock:
            if self._source is not None and self._settings is not None:
                if not CiteServer.source_settings_changed(self._settings, settings):
                    return self._source
                await self._close()
            from citecheck.sources.chain import open_source

            stack = contextlib.AsyncExitStack()
            self._source = await stack.enter_async_context(open_source(settings))
            self._stack, self._settings = stack, settings
            return self._source

    async def _close(self) -> None:
        stack, self._stack, self._source, self._settings = self._stack, None, None, None
        if stack is not None:
            try:
                await stack.aclose()
            except Exception as exc:
                log.warning("closing the source failed: %s", exc)

    async def close(self) -> None:
        loop, self._loop = self._loop, None
        if loop is None:
            return
        try:
            await asyncio.wrap_future(asyncio.run_coroutine_threadsafe(self._close(), loop))
        finally:
            loop.call_soon_threadsafe(loop.stop)
