"""A time limit for receiving a request: a client that sends its headers (or body) a byte at a time is
disconnected instead of holding a connection for as long as it likes.

uvicorn's HTTP/1.1 protocol has a keep-alive timeout for idle connections, but once the first byte of a
request has arrived it waits for the rest forever: 300 clients trickling headers held 300 connections
(and their memory) indefinitely. Here every request must arrive whole (headers and body) within
``seconds`` of the connection opening or of the previous response; otherwise the server answers
``408 Request Timeout`` and closes the connection. The TLS handshake before it has asyncio's own
limit (60 s).
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any, cast

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

log = logging.getLogger(__name__)

#: Default for ``citecheck serve --request-timeout``: the pane's requests arrive over loopback in
#: milliseconds, even a 16 MB one.
DEFAULT_REQUEST_TIMEOUT_S = 10.0

_TIMEOUT_RESPONSE = (
    b"HTTP/1.1 408 Request Timeout\r\ncontent-type: text/plain; charset=utf-8\r\n"
    b"content-length: 37\r\nconnection: close\r\n\r\nthe request did not arrive in time.\r\n"
)
_RECEIVED = (h11.DONE, h11.MUST_CLOSE, h11.CLOSED, h11.ERROR)


class _DeadlineProtocol(H11Protocol):
    """uvicorn's h11 protocol with a deadline for each request to arrive."""

    request_timeout_s: float = DEFAULT_REQUEST_TIMEOUT_S

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self._deadline: asyncio.TimerHandle | None = None
        super().connection_made(cast("asyncio.Transport", transport))  # an event loop's socket transport
        self._arm()

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        if self.conn.their_state in _RECEIVED:
            self._disarm()  # the whole request is in: the app takes as long as a check takes

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if not self.transport.is_closing():
            self._arm()  # the next request on this connection gets its own deadline

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def _arm(self) -> None:
        self._disarm()
        self._deadline = self.loop.call_later(self.request_timeout_s, self._expire)

    def _disarm(self) -> None:
        if getattr(self, "_deadline", None) is not None:
            assert self._deadline is not None
            self._deadline.cancel()
            self._deadline = None

    def _expire(self) -> None:
        self._deadline = None
        if self.transport.is_closing() or self.conn.their_state in _RECEIVED:
            return
        started = self.conn.their_state is not h11.IDLE or bool(self.conn.trailing_data[0])
        log.debug("a request did not arrive within %g s; connection closed", self.request_timeout_s)
        if started and self.conn.our_state is h11.IDLE:
            # part of a request came and nothing was answered yet: say why. A connection that never
            # began a request (a browser's preconnect) is closed silently, as an idle keep-alive is.
            self.transport.write(_TIMEOUT_RESPONSE)
        self.transport.close()


def deadline_protocol(seconds: float) -> type[Any]:
    """The protocol class to give ``uvicorn.Config(http=...)``: each request must arrive within ``seconds``."""
    if not seconds > 0:
        raise ValueError(f"a request timeout must be positive, not {seconds}")
    return type("RequestDeadlineProtocol", (_DeadlineProtocol,), {"request_timeout_s": float(seconds)})
