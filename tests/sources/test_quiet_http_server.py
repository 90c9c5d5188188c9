"""A client that resets its connection makes no "Exception occurred during processing of request" on
stderr: the loopback fakes (and ``citecheck corpus serve``) log it instead, so ``python -m pytest -q``
prints only dots and the server's own stderr stays one line per problem."""

from __future__ import annotations

import logging
import socket
import struct
import threading
import time
from http.server import BaseHTTPRequestHandler

import pytest

from citecheck.sources.corpus_server import QuietHTTPServer
from citecheck_testing.courtlistener import FakeCourtListener


def _reset_mid_request(port: int) -> None:
    """Send half a request, then close with SO_LINGER 0: the server's next read fails with ECONNRESET."""
    sock = socket.create_connection(("127.0.0.1", port))
    sock.sendall(b"GET /api/rest/v4/clusters/1/ HTTP/1.1\r\nHost: 127.0.0.1\r\n")
    time.sleep(0.2)  # let the handler block on the next header line
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    sock.close()


def _wait_for_handlers(before: int) -> None:
    deadline = time.monotonic() + 10
    while threading.active_count() > before and time.monotonic() < deadline:
        time.sleep(0.05)


def test_the_loopback_courtlistener_stays_quiet_when_a_client_resets(
    capfd: pytest.CaptureFixture[str],
) -> None:
    with FakeCourtListener() as fake:
        port = int(fake.base_url.split(":")[2].split("/")[0])
        before = threading.active_count()
        for _ in range(3):
            _reset_mid_request(port)
        _wait_for_handlers(before)
    assert "Exception occurred" not in capfd.readouterr().err


def test_a_failing_handler_is_logged_not_printed(
    capfd: pytest.CaptureFixture[str], caplog: pytest.LogCaptureFixture
) -> None:
    class Broken(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            raise ValueError("a bug in a handler")

        def log_message(self, *args: object) -> None:
            pass

    httpd = QuietHTTPServer(("127.0.0.1", 0), Broken)
    thread = threading.Thread(target=httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    try:
        with caplog.at_level(logging.DEBUG, logger="citecheck.sources.corpus_server"):
            before = threading.active_count()
            with socket.create_connection(("127.0.0.1", httpd.server_address[1])) as sock:
                sock.sendall(b"GET / HTTP/1.0\r\n\r\n")
                sock.recv(100)
            _wait_for_handlers(before)
    finally:
        httpd.shutdown()
        httpd.server_close()
    assert "Exception occurred" not in capfd.readouterr().err
    assert any("a bug in a handler" in r.getMessage() for r in caplog.records if r.levelno == logging.ERROR)
