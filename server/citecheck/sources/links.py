"""The links of the source chain, in the order the chain asks them, and how each is opened from the settings.

``LINKS`` is the one list. Each entry names an opener, ``"module:function"`` (imported only when a chain is
opened, so a process that never checks imports no HTTP or SQLite client): an async function that takes the
``Opening`` (the settings, and the links opened before it) and returns its link, or None when the settings
leave it off or it is not on this machine. To add a source: write its module — a class with a ``name``,
``close()`` and the capabilities of ``sources/base.py`` it has, and its opener — and add one line here, where
it belongs in the order. The settings turn links on and off (``offline``, ``cap_fetch``, a token, a path that
exists); the order is this list's. docs/architecture.md, "Add a source", has the whole recipe.
"""

from __future__ import annotations

import asyncio
import importlib
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeVar

from citecheck.config import Settings, default_corpus_path, token_refusal
from citecheck.errors import CorpusError
from citecheck.sources.base import Link, Unavailable

if TYPE_CHECKING:
    from citecheck.sources.cache import Cache
    from citecheck.sources.cap_volumes import CapVolumes
    from citecheck.sources.corpus import CorpusSource
    from citecheck.sources.courtlistener import CourtListenerClient
    from citecheck.sources.index.source import IndexSource, IndexWatch
    from citecheck.sources.pacing import WorkOrder
    from citecheck.sources.statutes.link import StatuteLink

log = logging.getLogger(__name__)
L = TypeVar("L")

#: The chain's links, in the order it asks them (the local corpus first: it is microseconds away and a fresh
#: import must win over a remembered answer; the citation index next: local and definitive for what it holds;
#: the cache before anything that spends a request; CAP volumes before CourtListener's allowance).
LINKS: tuple[str, ...] = (
    "citecheck.sources.links:open_corpus",  # the local corpus (CAP and CourtListener imports, SQLite + FTS5)
    "citecheck.sources.links:open_index",  # the citation index (`corpus sync`: every reported case, metadata)
    "citecheck.sources.treatment.source:open_treatment",  # later treatment: the Congress.gov table, the treatment table
    "citecheck.sources.links:open_cache",  # what CourtListener answered before
    "citecheck.sources.links:open_cap_volumes",  # CAP static volumes downloaded into the corpus on demand
    "citecheck.sources.links:open_courtlistener",  # CourtListener's API, paced (or why it is off)
    "citecheck.sources.treatment.online:open_treatment_search",  # its search of citing opinions, for treatment
    # CAP's page ranges, after every answer: the evidence a fabricated-case error needs (the evidence rule)
    "citecheck.sources.cap_ranges:open_cap_ranges",
    "citecheck.sources.links:open_statutes",  # the statute index (`corpus sync --statutes`)
)

#: How long one language-server check waits for CourtListener's allowance before it publishes what
#: it has; the rest is re-checked in the background when the allowance returns.
INTERACTIVE_PATIENCE_S = 2.0


@dataclass
class Opening:
    """What an opener is given: the settings, how the chain will be used, and the links opened before it."""

    settings: Settings
    #: a long-running process (the language server, the Word backend): no run deadline, short waits
    interactive: bool = False
    #: the order of value CourtListener work follows (the language server's view of the document)
    order: WorkOrder | None = None
    links: list[Link] = field(default_factory=list)
    #: why the corpus may not be written (set by ``open_corpus``): CAP volumes are then not downloaded
    corpus_read_only: str | None = None

    def find(self, kind: type[L]) -> L | None:
        return next((link for link in self.links if isinstance(link, kind)), None)


Opener = Callable[[Opening], Awaitable[Any]]


def opener(entry: str) -> Opener:
    """The opener a ``LINKS`` entry names."""
    module, _, name = entry.partition(":")
    fn: Opener = getattr(importlib.import_module(module), name)
    return fn


async def open_links(
    settings: Settings, *, interactive: bool = False, order: WorkOrder | None = None
) -> list[Link]:
    """Every link the settings ask for, in ``LINKS``'s order; a link that cannot be opened is a warning
    (it narrows coverage), except a corpus the user named (its error is raised, the rest closed)."""
    opening = Opening(settings=settings, interactive=interactive, order=order)
    try:
        for entry in LINKS:
            link = await opener(entry)(opening)
            if link is not None:
                opening.links.append(link)
    except BaseException:
        for link in reversed(opening.links):
            try:
                await link.close()
            except Exception as exc:  # closing must not mask the real error
                log.debug("error closing %s: %s", link, exc)
        raise
    return opening.links


# ------------------------------------------------------------------------------ the openers
async def open_corpus(o: Opening) -> CorpusSource | None:
    """The local corpus, writable when CAP volumes are to be stored in it; one the user named must open."""
    from citecheck.sources.corpus import CorpusSource, open_for_check

    settings = o.settings
    named = settings.corpus_path.expanduser().resolve() != default_corpus_path().resolve()
    wants_cap = settings.cap_fetch and not settings.offline
    try:
        opened, o.corpus_read_only = await asyncio.to_thread(
            open_for_check, settings.corpus_path, named=named, writable=wants_cap
        )
    except (CorpusError, OSError) as exc:
        if named:  # the user pointed at this corpus: running without it would hide every finding it gives
            text = str(exc)
            raise CorpusError(
                text
                if str(settings.corpus_path) in text
                else f"cannot use the corpus {settings.corpus_path}: {text}"
            ) from exc
        log.warning("local corpus unavailable (%s): %s", settings.corpus_path, exc)
        return None
    return CorpusSource(opened) if opened is not None else None


async def open_index(o: Opening) -> IndexSource | IndexWatch | None:
    """The citation index when one was built (``corpus sync``); a broken one is a warning, not a failure.
    A long-running process without a usable one watches for it (``IndexWatch``: taken up once a sync
    builds it)."""
    path = o.settings.index_path.expanduser()
    index = None
    from citecheck.sources.index import files

    if not o.interactive and not path.exists() and not files.pending_path(path).exists():
        return None  # no index built: its reader is not even imported (a one-line check's start)
    from citecheck.sources.index.source import IndexSource, IndexWatch

    if path.exists() or files.pending_path(path).exists():
        try:
            index = IndexSource.open(path)
        except CorpusError as exc:
            log.warning("citation index unavailable: %s", exc)
    if index is None and o.interactive:
        return IndexWatch(o.settings.index_path)
    return index


async def open_cache(o: Opening) -> Cache | None:
    from citecheck.sources.cache import Cache

    try:
        return await Cache.open(o.settings.cache_path)
    except (CorpusError, OSError) as exc:
        log.warning("cache unavailable (%s): %s", o.settings.cache_path, exc)
        return None


async def open_cap_volumes(o: Opening) -> CapVolumes | None:
    """CAP volumes on demand (``cap_fetch``, not offline), into a corpus that may be written."""
    from citecheck.sources.corpus import CorpusSource

    settings = o.settings
    if not settings.cap_fetch or settings.offline or o.find(CorpusSource) is None:
        return None
    from citecheck.sources.cache import Cache
    from citecheck.sources.cap_fetch import CapFetcher  # the HTTP client: imported only when it may be used
    from citecheck.sources.cap_volumes import CapVolumes

    if o.corpus_read_only is not None:
        log.warning("%s", o.corpus_read_only)
        return None
    fetcher = CapFetcher(
        settings.cap_url,
        timeout_s=settings.http_timeout_s,
        cache=o.find(Cache),
        budget_s=None if o.interactive else settings.cap_budget_s,
    )
    return CapVolumes(fetcher)


async def open_courtlistener(o: Opening) -> CourtListenerClient | Unavailable:
    """CourtListener's API with the token, paced; or, offline / without a token / with a host the token
    may not go to, what says why it is off (a reason on every citation it would have answered)."""
    settings = o.settings
    if settings.offline:
        return Unavailable("offline mode: CourtListener not consulted")
    from citecheck.sources.cache import Cache
    from citecheck.sources.courtlistener import (
        CourtListenerClient,
    )  # the HTTP client: only when it may be used

    if not settings.courtlistener_token:
        return Unavailable("no CourtListener token configured (set CITECHECK_COURTLISTENER_TOKEN)")
    if refusal := token_refusal(settings.courtlistener_url, settings.token_hosts):
        log.warning("%s", refusal)  # never the token itself
        return Unavailable(refusal)
    return CourtListenerClient(
        settings.courtlistener_url,
        settings.courtlistener_token,
        timeout_s=settings.http_timeout_s,
        request_rates=settings.courtlistener_rates,
        citation_rate=settings.courtlistener_citation_rate,
        budget_s=None if o.interactive else settings.courtlistener_budget_s,
        patience_s=INTERACTIVE_PATIENCE_S if o.interactive else None,
        store=o.find(Cache),
        order=o.order,
        search_names=settings.name_search_online,
    )


async def open_statutes(o: Opening) -> StatuteLink | None:
    """The statute index read-only, when there is one (none yet: statutes stay "not checked")."""
    path = o.settings.statutes_path.expanduser()
    if not path.exists():
        return None
    from citecheck.sources.statutes.index import StatuteIndex
    from citecheck.sources.statutes.link import StatuteLink

    try:
        index = await asyncio.to_thread(StatuteIndex, path, readonly=True)
    except CorpusError as exc:
        log.warning("statute index unavailable: %s", exc)
        return None
    return StatuteLink(index)


__all__ = ["INTERACTIVE_PATIENCE_S", "LINKS", "Opening", "open_links", "opener"]
