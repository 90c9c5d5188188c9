"""Every LSP registration of citecheck-lsp, and nothing else: the handler modules of ``handlers/``
in one visible list, and the ``workspace/executeCommand`` commands.
"""

from __future__ import annotations

import asyncio
import inspect
from collections.abc import Awaitable, Callable
from typing import Any

from lsprotocol import types

from citecheck.lsp.features import commands
from citecheck.lsp.handlers import (
    code_action,
    diagnostic,
    did_change,
    did_change_configuration,
    did_close,
    did_open,
    hover,
    initialize,
    initialized,
    shutdown,
    visible_ranges,
)
from citecheck.lsp.server import CiteServer

HANDLERS = (
    initialize,
    initialized,
    did_change_configuration,
    did_open,
    did_change,
    did_close,
    diagnostic,
    hover,
    code_action,
    shutdown,
    visible_ranges,
)


def create_server() -> CiteServer:
    server = CiteServer()
    for handler in HANDLERS:
        server.feature(handler.METHOD, handler.OPTIONS)(handler.handle)
    for name, fn in commands.COMMANDS.items():
        server.command(name)(_command(server, name, fn))
    return server


def _command(server: CiteServer, name: str, fn: Callable[..., Any]) -> Callable[..., Awaitable[Any]]:
    # exactly ``(*args)``: pygls structures command arguments from the handler's signature
    async def run(*args: Any) -> Any:
        try:
            result = fn(server, *args)
            return await result if inspect.isawaitable(result) else result
        except commands.CommandError as exc:
            server.log_to_client(f"citecheck: {name}: {exc}", types.MessageType.Warning)
            return {"error": str(exc)}
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            server.report_problem(name, exc)
            return {"error": f"{name} failed; see the citecheck log"}

    return run
