"""The stdio transport: LSP base-protocol framing that survives a bad header block.

pygls' reader keeps waiting for a ``Content-Length`` after a header block without a valid one, and
from then on glues each body onto the next header line: the server never answers again. This
reader resynchronises on the next ``Content-Length`` line, answers a body that is not JSON with a
JSON-RPC parse error (and JSON that is not an object, an array or a number, with InvalidRequest: one
log line, never a traceback), answers a request whose params do not deserialise (a negative position) with
InvalidParams instead of dropping it, and caps a body's size. ``serve_stdio`` returns the exit status
the LSP ``exit`` notification asks for (1 when ``shutdown`` never came).
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
import sys
import threading
from typing import Any, BinaryIO

from lsprotocol.types import ResponseError
from pygls.exceptions import (
    JsonRpcException,
    JsonRpcInvalidParams,
    JsonRpcInvalidRequest,
    JsonRpcParseError,
)
from pygls.io_ import StdinAsyncReader, StdoutWriter
from pygls.lsp.server import LanguageServer

log = logging.getLogger(__name__)

#: A body larger than this is skipped unread (a 2-million-character brief is ~8 MB of JSON at most).
MAX_BODY_BYTES = 128 * 1024 * 1024
_LENGTH = re.compile(rb"content-length[ \t]*:[ \t]*(\S*)", re.IGNORECASE)


async def read_messages(stop: threading.Event, reader: Any, server: LanguageServer) -> None:
    """Read frames until EOF or ``stop``; hand each to the protocol. Never gives up on bad input."""
    length: int | None = None
    bad = False
    while not stop.is_set():
        line: bytes = await reader.readline()
        if not line:
            return
        if line.strip():
            found = _LENGTH.search(line)
            if found is None:
                continue  # Content-Type or junk before a header: ignored
            if found.start() > 0:
                log.warning("skipped %d bytes of junk before a header", found.start())
            value = found.group(1)
            length, bad = (int(value), False) if value.isdigit() else (None, True)
            continue
        # a blank line ends the header block
        if length is None:
            log.warning(
                "a header block without a valid Content-Length (%s); skipped", "invalid" if bad else "missing"
            )
            bad = False
            continue
        n, length = length, None
        if n > MAX_BODY_BYTES:
            log.warning("a message of %d bytes is over the %d-byte limit; skipped", n, MAX_BODY_BYTES)
            while n > 0:
                chunk = await reader.readexactly(min(n, 1 << 20))
                if not chunk:
                    return
                n -= len(chunk)
            continue
        body: bytes = await reader.readexactly(n)
        while len(body) < n:  # stdin.read(n) may return a short read on a pipe
            more = await reader.readexactly(n - len(body))
            if not more:
                return
            body += more
        _dispatch(server, body)


def _dispatch(server: LanguageServer, body: bytes) -> None:
    protocol = server.protocol
    try:  # one parse in the normal case (a Replace All body is megabytes)
        message = json.loads(body, object_hook=protocol.structure_message)
    except JsonRpcException as exc:
        raw = json.loads(body)  # it parsed as JSON: only the params did not fit the method
        if isinstance(raw, dict) and "method" not in raw and "id" not in raw:
            log.warning("a JSON-RPC object with neither a method nor an id; answered with an error")
            _send_error(server, None, JsonRpcInvalidRequest())
        elif isinstance(raw, dict) and "method" in raw and raw.get("id") is not None:
            log.warning(
                "request %r: params do not match %s; answered with an error", raw.get("id"), raw["method"]
            )
            _send_error(
                server, raw["id"], exc if isinstance(exc, JsonRpcInvalidParams) else JsonRpcInvalidParams()
            )
        else:
            log.warning("a message whose params do not match its method; ignored")
        return
    except (ValueError, RecursionError) as exc:
        log.warning("a message that is not JSON (%s); answered with a parse error", exc)
        _send_error(server, None, JsonRpcParseError())
        return
    except Exception as exc:  # nothing a client sends may stop the loop
        log.warning("a message could not be read (%s: %s); ignored", type(exc).__name__, exc)
        return
    if isinstance(message, dict | list | str | int | float | bool) or message is None:
        # (a message object comes out structured; a plain dict is an object without "jsonrpc")
        # JSON, but not a JSON-RPC message (LSP has no batches): one line, and the answer the spec asks for
        log.warning(
            "a message that is a JSON %s, not a JSON-RPC message; answered with an error", _json_type(message)
        )
        _send_error(server, None, JsonRpcInvalidRequest())
        return
    try:
        protocol.handle_message(message)
    except SystemExit:
        raise
    except Exception as exc:
        log.exception("Unable to handle message")
        server.report_server_error(exc, JsonRpcException)  # type: ignore[arg-type]


def _json_type(value: Any) -> str:
    names = {dict: "object without jsonrpc", list: "array", str: "string", bool: "boolean", int: "number"}
    names[float] = "number"
    return names.get(type(value), "null")


def _send_error(server: LanguageServer, msg_id: Any, error: JsonRpcException) -> None:
    err = error.to_response_error()
    server.protocol._send_response(msg_id, None, ResponseError(code=err.code, message=err.message))


class StdioWriter(StdoutWriter):
    """pygls' stdout writer, plus writing one message from several pieces: a long brief's diagnostics
    are megabytes, and joining them into one more buffer per keystroke is a copy for nothing."""

    def __init__(self, stdout: BinaryIO) -> None:
        super().__init__(stdout)
        self.stream = stdout

    def write_pieces(self, pieces: list[bytes]) -> None:
        for p in pieces:
            self.stream.write(p)
        self.stream.flush()


def serve_stdio(server: LanguageServer, stdin: BinaryIO | None = None, stdout: BinaryIO | None = None) -> int:
    """Run the server on stdin/stdout; the exit status ``exit`` asked for (0 at EOF after shutdown)."""
    stop = threading.Event()
    server._stop_event = stop
    reader = StdinAsyncReader(stdin or sys.stdin.buffer, server.thread_pool)
    server.protocol.set_writer(StdioWriter(stdout or sys.stdout.buffer))
    status = 0
    try:
        asyncio.run(read_messages(stop, reader, server))
        # EOF without exit: the client went away; a clean shutdown before it is a clean end
        status = 0 if server.protocol._shutdown else 1
    except SystemExit as exc:  # the exit notification
        status = exc.code if isinstance(exc.code, int) else 1
    except BrokenPipeError:
        log.error("Connection to the client is lost! Shutting down the server.")
        status = 1
    except KeyboardInterrupt:
        status = 130
    finally:
        server.shutdown()
    return status
