"""The language server's one case-law source, opened lazily on the server's event loop.

There is one loop and one executor in the server: the source's own I/O is async (aiosqlite,
httpx, SQLite in ``to_thread``), the CPU work of a check (extraction, locating quotes, ``judge``)
runs in the server's executor. The source is re-opened when its settings change. ``local`` is a
view of the same open source that answers only from this machine (corpus and cache): the first
wave of a check is judged over it while the network is still being asked.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from dataclasses import fields
from typing import TYPE_CHECKING

from citecheck.config import Settings
from citecheck.sources.chain import SourceChain, build_from_settings

if TYPE_CHECKING:
    from citecheck.holdings.stage import HoldingStage
    from citecheck.sources.pacing import WorkOrder

log = logging.getLogger(__name__)

#: Settings that change which source answers; a change re-opens the source.
SOURCE_FIELDS = (
    "corpus_path",
    "index_path",
    "cache_path",
    "courtlistener_token",
    "courtlistener_url",
    "token_hosts",  # where the token may go: a host added there turns CourtListener on
    "cap_fetch",
    "cap_url",
    "name_search_online",
    "statutes_path",
    "treatment_path",
    "treatment_online",
    "offline",
    "http_timeout_s",
    "courtlistener_rates",
    "courtlistener_citation_rate",
    "model_url",
    "model_name",
)

LOCAL_ONLY_REASON = "waiting for the network sources"
#: How often the server looks for a citation index it does not have yet (``IndexWatch`` stats no more
#: often than every ``index.source.REFRESH_EVERY_S``).
INDEX_POLL_S = 5.0

#: Settings that change the holding judge; a change rebuilds its client (and reopens its cache).
MODEL_FIELDS = (
    "model_url",
    "model_name",
    "model_api_key",
    "model_timeout_s",
    "model_deadline_s",
    "model_concurrency",
    "model_retries",
    "model_passage_tokens",
    "model_protocol",
    "holdings",
    "offline",
    "cache_path",
)


def source_settings_changed(old: Settings, new: Settings) -> bool:
    return any(getattr(old, f) != getattr(new, f) for f in SOURCE_FIELDS)


def settings_differ(old: Settings, new: Settings) -> bool:
    return any(getattr(old, f.name) != getattr(new, f.name) for f in fields(Settings))


class Sources:
    """The open ``SourceChain`` for the current settings (one per server)."""

    def __init__(self, order: WorkOrder | None = None, *, on_index: Callable[[], None] | None = None) -> None:
        #: the order of value CourtListener work follows (the client's view), kept across re-opens
        self.order = order
        #: called once a citation index that did not exist (or could not be read) when the source was
        #: opened is taken up: the server checks its documents again
        self.on_index = on_index
        self._watcher: asyncio.Task[None] | None = None
        self._chain: SourceChain | None = None
        self._local: SourceChain | None = None
        self._settings: Settings | None = None
        self._lock = asyncio.Lock()
        self._holdings: HoldingStage | None = None
        self._holdings_settings: Settings | None = None

    async def get(self, settings: Settings) -> SourceChain:
        async with self._lock:
            if self._chain is not None and self._settings is not None:
                if not source_settings_changed(self._settings, settings):
                    return self._chain
                await self._close()
            # interactive: no run deadline, a short wait per call; what waits is re-checked later
            self._chain = await build_from_settings(settings, interactive=True, order=self.order)
            self._local = self._chain.local_view(LOCAL_ONLY_REASON)
            self._settings = settings
            if self._chain.pending:
                self._watcher = asyncio.ensure_future(self._watch_pending(self._chain))
            return self._chain

    async def _watch_pending(self, chain: SourceChain) -> None:
        """Until the citation index exists: look for it every few seconds (a stat), even while no check
        runs, and once it is there (in the chain, so in its local view too) have the documents checked
        again."""
        try:
            while chain.pending:
                if await chain.take_up_pending():
                    if self.on_index is not None:
                        self.on_index()
                    return
                await asyncio.sleep(INDEX_POLL_S)
        except Exception:  # never let the watch take the server down; lookups still poll it
            log.exception("watching for the citation index failed")

    async def local(self, settings: Settings) -> SourceChain:
        """The chain's local view: its links on this machine, without the CAP download or CourtListener."""
        await self.get(settings)
        assert self._local is not None
        return self._local

    async def _close(self) -> None:
        if self._watcher is not None:
            self._watcher.cancel()
            self._watcher = None
        chain, self._chain, self._local, self._settings = self._chain, None, None, None
        if chain is not None:
            with contextlib.suppress(Exception):
                await chain.close()

    async def holdings(self, settings: Settings) -> HoldingStage | None:
        """The holding-judge stage for these settings (None when no model is configured or it is off)."""
        async with self._lock:
            old = self._holdings_settings
            if old is not None and not any(getattr(old, f) != getattr(settings, f) for f in MODEL_FIELDS):
                return self._holdings
            await self._close_holdings()
            from citecheck.holdings.stage import (
                HoldingStage,  # the client and its openai import: only when used
            )

            self._holdings = HoldingStage.from_settings(
                settings
            )  # ConfigError (e.g. a key over http) propagates
            self._holdings_settings = settings
            return self._holdings

    async def _close_holdings(self) -> None:
        stage, self._holdings, self._holdings_settings = self._holdings, None, None
        if stage is not None:
            with contextlib.suppress(Exception):
                await stage.close()

    async def close(self) -> None:
        async with self._lock:
            await self._close()
            await self._close_holdings()


__all__ = [
    "LOCAL_ONLY_REASON",
    "MODEL_FIELDS",
    "SOURCE_FIELDS",
    "Sources",
    "settings_differ",
    "source_settings_changed",
]
