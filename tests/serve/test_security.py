"""The guard proves itself against a real HTTPS client: foreign origin, missing/wrong token,
oversized body, wrong Host and CORS preflight are refused; the pane gets its token and a strict CSP."""

from __future__ import annotations

import json
import socket
import ssl
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest
from tests.serve.conftest import Served, start_server, stop_server

CHECK = {"document": "sec", "paragraphs": ["See Savage v. Parks, 100 A.2d 450 (D.C. Mun. App. 1953)."]}


def post(
    served: Served, headers: dict[str, str], body: bytes | None = None, path: str = "/api/v1/check"
) -> httpx.Response:
    with served.client() as c:
        return c.post(path, content=body if body is not None else json.dumps(CHECK).encode(), headers=headers)


def test_the_pane_accepts_a_proper_request(served: Served) -> None:
    r = post(served, served.headers())
    assert r.status_code == 200, r.text
    assert r.json()["report"]["summary"]["citations"] == 1


def test_foreign_origin_is_refused(served: Served) -> None:
    r = post(served, served.headers(Origin="https://evil.example"))
    assert r.status_code == 403
    assert "access-control-allow-origin" not in r.headers


def test_missing_origin_is_refused_for_posts(served: Served) -> None:
    h = served.headers()
    del h["Origin"]
    assert post(served, h).status_code == 403


def test_plain_http_origin_of_localhost_is_refused(served: Served) -> None:
    assert post(served, served.headers(Origin=f"http://localhost:{served.port}")).status_code == 403


@pytest.mark.parametrize("token", [None, "", "wrong-token", "x" * 43])
def test_missing_or_wrong_token_is_refused(served: Served, token: str | None) -> None:
    h = served.headers()
    if token is None:
        del h["X-Citecheck-Token"]
    else:
        h["X-Citecheck-Token"] = token
    r = post(served, h)
    assert r.status_code == 401
    assert "token" in r.json()["error"]


def test_oversized_body_is_refused(served: Served) -> None:
    big = json.dumps({"document": "big", "paragraphs": ["x" * 250_000]}).encode()
    r = post(served, served.headers(), big)
    assert r.status_code == 413


def test_oversized_streamed_body_without_length_is_refused(served: Served) -> None:
    def chunks():
        yield b'{"document": "big", "paragraphs": ["'
        for _ in range(40):
            yield b"y" * 10_000
        yield b'"]}'

    with served.client() as c:
        r = c.post("/api/v1/check", content=chunks(), headers=served.headers())
    assert r.status_code == 413


def test_foreign_host_header_is_refused(served: Served) -> None:
    # DNS rebinding: a page at evil.example resolved to 127.0.0.1 sends Host: evil.example
    r = post(served, served.headers(Host=f"evil.example:{served.port}"))
    assert r.status_code == 421
    with served.client() as c:
        assert c.get("/taskpane.html", headers={"Host": "evil.example"}).status_code == 421


def test_preflight_gets_no_cors(served: Served) -> None:
    with served.client() as c:
        r = c.options(
            "/api/v1/check",
            headers={
                "Origin": "https://evil.example",
                "Access-Control-Request-Method": "POST",
                "Access-Control-Request-Headers": "x-citecheck-token",
            },
        )
    assert r.status_code == 405
    assert not any(k.lower().startswith("access-control-") for k in r.headers)


def test_non_json_post_is_refused(served: Served) -> None:
    assert post(served, served.headers(**{"Content-Type": "text/plain"})).status_code == 415


def test_the_pane_page_carries_the_token_and_a_strict_csp(served: Served) -> None:
    with served.client() as c:
        r = c.get("/taskpane.html")
    assert r.status_code == 200
    assert f'<meta name="citecheck-token" content="{served.token}">' in r.text
    csp = r.headers["content-security-policy"]
    assert "default-src 'none'" in csp
    assert "script-src 'self' https://appsforoffice.microsoft.com;" in csp
    assert "connect-src 'self' https://appsforoffice.microsoft.com;" in csp
    assert (
        "'unsafe-inline'" not in csp
        and "'unsafe-eval'" not in csp
        and "*" not in csp.split("frame-ancestors")[0]
    )
    assert r.headers["x-content-type-options"] == "nosniff"
    assert "access-control-allow-origin" not in r.headers


def test_static_files_and_manifest_for_this_port(served: Served) -> None:
    with served.client() as c:
        js = c.get("/taskpane.js")
        manifest = c.get("/manifest.xml")
        missing = c.get("/../../etc/passwd")
    assert js.status_code == 200 and "citecheck" in js.text
    assert f"https://localhost:{served.port}/taskpane.html" in manifest.text
    assert "localhost:8765" not in manifest.text
    assert missing.status_code == 404


def test_the_server_listens_on_loopback_only(served: Served) -> None:
    # what the kernel says is listening on our port
    out = subprocess.run(["ss", "-ltnH", f"sport = :{served.port}"], capture_output=True, text=True)
    if out.returncode != 0:
        pytest.skip("ss is not available to list listening sockets")
    local = [line.split()[3] for line in out.stdout.splitlines() if line.strip()]
    assert local, out.stdout
    assert all(addr.rsplit(":", 1)[0] in ("127.0.0.1", "[::1]") for addr in local), local
    # and another address of this machine does not answer
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            s.connect(("10.255.255.255", 1))
            mine = s.getsockname()[0]
    except OSError:
        mine = None
    if mine and not mine.startswith("127."):
        with pytest.raises(OSError), socket.create_connection((mine, served.port), timeout=2):
            pass


def test_a_network_host_is_refused_at_startup(tmp_path) -> None:
    r = subprocess.run(
        [sys.executable, "-m", "citecheck", "serve", "--host", "0.0.0.0"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert r.returncode == 2
    assert "loopback" in r.stderr and "Traceback" not in r.stderr


def test_slow_clients_are_disconnected_and_others_served(tmp_path: Path, serve_corpus: Path) -> None:
    """300 clients that send half a request and then nothing get 408 and are disconnected once the
    request timeout passes (they held their connections forever), and the pane is served meanwhile."""
    proc, s = start_server(tmp_path, serve_corpus, "--request-timeout", "2")
    context = ssl.create_default_context(cafile=str(s.ca))
    slow: list[ssl.SSLSocket] = []
    try:
        for _ in range(300):
            sock = context.wrap_socket(
                socket.create_connection(("127.0.0.1", s.port), timeout=30), server_hostname="localhost"
            )
            sock.sendall(f"GET /api/v1/health HTTP/1.1\r\nHost: localhost:{s.port}\r\nX-Slow: ".encode())
            slow.append(sock)
        with s.client() as c:
            assert c.get("/api/v1/health", headers={"X-Citecheck-Token": s.token}).status_code == 200
        deadline = time.monotonic() + 60
        for sock in slow:
            answer = b""
            while chunk := _recv(sock, deadline):
                answer += chunk
            assert answer.startswith(b"HTTP/1.1 408"), answer[:80]
    finally:
        for sock in slow:
            sock.close()
        stop_server(proc)


def _recv(sock: ssl.SSLSocket, deadline: float) -> bytes:
    sock.settimeout(max(0.1, deadline - time.monotonic()))
    try:
        return sock.recv(4096)
    except (ConnectionResetError, ssl.SSLError):
        return b""
    # socket.timeout propagates: the server kept the connection open
