"""--offline is enforced at the socket level: nothing connects, nothing resolves, asyncio still runs."""

from __future__ import annotations

import asyncio
import socket
import threading
from http.server import BaseHTTPRequestHandler

import pytest

from citecheck.privacy.offline import NetworkBlocked, no_network
from citecheck.sources.corpus_server import QuietHTTPServer


@pytest.fixture
def server():
    hits: list[str] = []

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self):
            hits.append(self.path)
            self.send_response(200)
            self.end_headers()

        def log_message(self, *args):
            pass

    httpd = QuietHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield httpd.server_address[1], hits
    httpd.shutdown()
    httpd.server_close()


def test_no_network_blocks_connections_and_lookups_then_lets_go(server):
    port, hits = server
    with no_network():
        with pytest.raises(NetworkBlocked):
            socket.create_connection(("127.0.0.1", port), timeout=2)
        with pytest.raises(NetworkBlocked):
            socket.getaddrinfo("example.com", 443)
        s = socket.socket()
        with pytest.raises(NetworkBlocked):
            s.connect(("127.0.0.1", port))
        s.close()
        assert asyncio.run(asyncio.sleep(0, result=7)) == 7  # the event loop's self-pipe still works
    assert hits == []
    with socket.create_connection(("127.0.0.1", port), timeout=2) as conn:  # allowed again outside
        conn.sendall(b"GET /after HTTP/1.0\r\n\r\n")
        conn.recv(100)
    assert hits == ["/after"]


async def test_httpx_inside_no_network_fails_as_a_connect_error(server):
    import httpx

    port, hits = server
    with no_network():
        async with httpx.AsyncClient() as client:
            with pytest.raises(httpx.ConnectError):
                await client.get(f"http://127.0.0.1:{port}/x")
    assert hits == []
