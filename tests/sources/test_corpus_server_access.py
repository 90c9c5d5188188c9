"""`citecheck corpus serve` access control: loopback by default, a token for any other address, and a
Host check so a web page cannot reach a loopback server through DNS rebinding."""

from __future__ import annotations

import http.client
import json
from pathlib import Path

import pytest

from citecheck.errors import ConfigError
from citecheck.sources.corpus import Corpus
from citecheck.sources.corpus_server import CorpusServer


@pytest.fixture
def corpus_file(tmp_path: Path) -> Path:
    path = tmp_path / "c.sqlite"
    Corpus(path).close()
    return path


def _get(port: int, headers: dict[str, str], path: str = "/api/rest/v4/clusters/1/") -> int:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        conn.putrequest("GET", path, skip_host=True)
        for k, v in headers.items():
            conn.putheader(k, v)
        conn.endheaders()
        return conn.getresponse().status
    finally:
        conn.close()


def test_loopback_server_refuses_a_foreign_host_header(corpus_file: Path) -> None:
    with CorpusServer(corpus_file) as srv:
        port = srv.port
        assert _get(port, {"Host": f"127.0.0.1:{port}"}) == 404  # allowed: the case is simply unknown
        assert _get(port, {"Host": f"localhost:{port}"}) == 404
        assert _get(port, {"Host": f"attacker.example:{port}"}) == 403  # DNS rebinding
        assert _get(port, {}) == 403  # HTTP/1.1 without Host
        assert _get(port, {"Host": f"127.0.0.1:{port}", "Origin": "http://attacker.example"}) == 403


def test_a_token_is_required_when_configured(corpus_file: Path) -> None:
    with CorpusServer(corpus_file, token="serve-secret-1") as srv:
        host = {"Host": f"127.0.0.1:{srv.port}"}
        assert _get(srv.port, host) == 401
        assert _get(srv.port, {**host, "Authorization": "Token wrong"}) == 401
        assert _get(srv.port, {**host, "Authorization": "Token serve-secret-1"}) == 404


def test_non_loopback_needs_a_token(corpus_file: Path) -> None:
    with pytest.raises(ConfigError, match="token"):
        CorpusServer(corpus_file, host="0.0.0.0")


def test_cli_refuses_non_loopback_without_a_token(tmp_path: Path, monkeypatch) -> None:
    from citecheck.cli import main

    corpus = tmp_path / "c.sqlite"
    Corpus(corpus).close()
    monkeypatch.delenv("CITECHECK_SERVE_TOKEN", raising=False)
    assert main(["corpus", "serve", "--corpus", str(corpus), "--host", "0.0.0.0", "--port", "0"]) == 2


def test_the_citecheck_client_passes_the_checks(corpus_file: Path) -> None:
    import httpx

    with CorpusServer(corpus_file, token="serve-secret-2") as srv:
        r = httpx.get(srv.base_url + "clusters/1/", headers={"Authorization": "Token serve-secret-2"})
        assert r.status_code == 404 and json.loads(r.text)["detail"]
