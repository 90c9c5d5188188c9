"""``shutdown``: stop the background checks, close the case-law source and stop the executor."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from lsprotocol import types

if TYPE_CHECKING:
    from citecheck.lsp.server import CiteServer

METHOD = types.SHUTDOWN
OPTIONS = None


async def handle(ls: CiteServer, params: Any) -> None:
    for state in list(ls.docs.values()):
        ls.diagnostics.closed(state.uri, clear=False)
    await ls.stop_tasks()  # the checks let go of the cache before it closes
    await ls.sources.close()
    ls.executor.shutdown(wait=False, cancel_futures=True)
