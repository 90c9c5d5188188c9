"""`citecheck corpus import|fetch|stats|serve` through the real CLI entry point (and a real subprocess for serve)."""

from __future__ import annotations

import functools
import json
import os
import socket
import subprocess
import sys
import threading
import time
from http.server import SimpleHTTPRequestHandler
from pathlib import Path

import httpx
import pytest

from citecheck.cli import main
from citecheck.sources.corpus_server import QuietHTTPServer
from citecheck_testing import shared_corpus_path


@pytest.fixture(autouse=True)
def isolated(tmp_path: Path, monkeypatch):
    """No user config, cache or data directory is touched."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("CITECHECK_CACHE_PATH", str(tmp_path / "cache.sqlite"))
    monkeypatch.delenv("CITECHECK_COURTLISTENER_TOKEN", raising=False)


def test_import_then_stats(tmp_path: Path, capsys):
    corpus = tmp_path / "c.sqlite"
    assert main(["corpus", "import", str(shared_corpus_path("cap-static")), "--corpus", str(corpus)]) == 0
    assert (
        main(["--corpus", str(corpus), "corpus", "import", str(shared_corpus_path("courtlistener-bulk"))])
        == 0
    )
    out = capsys.readouterr().out
    assert "imported 9 cases" in out and "imported 30 cases" in out
    assert main(["corpus", "stats", "--corpus", str(corpus)]) == 0
    text = capsys.readouterr().out
    assert "39 cases" in text and "complete volumes (0): none" in text
    assert main(["corpus", "stats", "--json", "--corpus", str(corpus)]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["citations_per_reporter"]["A.2d"] == 9
    assert {
        "reporter": "A.2d",
        "volume": "100",
        "cases": 9,
        "complete": False,
        "ranges": [[36, 42], [450, 459], [831, 834]],
    } in data["volumes"]


def test_bad_inputs_are_one_line_errors(tmp_path: Path, capsys):
    corpus = str(tmp_path / "c.sqlite")
    assert main(["corpus", "import", str(tmp_path / "missing"), "--corpus", corpus]) == 2
    assert main(["corpus", "stats", "--corpus", str(tmp_path / "none.sqlite")]) == 2
    assert main(["corpus", "fetch", "A.2d", "x", "--corpus", corpus]) == 2
    assert main(["corpus", "fetch", "A.2d", "100", "--offline", "--corpus", corpus]) == 2
    assert main(["corpus", "--corpus", corpus]) == 2
    err = capsys.readouterr().err
    assert "no such file" in err and "no corpus at" in err and "digits" in err and "--offline" in err
    assert "Traceback" not in err


def test_fetch_from_a_loopback_static_site(tmp_path: Path, capsys):
    root = shared_corpus_path("cap-static")
    handler = functools.partial(SimpleHTTPRequestHandler, directory=str(root))
    handler.log_message = lambda *a: None  # type: ignore[attr-defined]
    httpd = QuietHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True).start()
    try:
        url = f"http://127.0.0.1:{httpd.server_address[1]}/"
        corpus = str(tmp_path / "c.sqlite")
        assert main(["corpus", "fetch", "A. 2d", "100", "--base-url", url, "--corpus", corpus]) == 0
        assert "imported 9 cases" in capsys.readouterr().out
        assert main(["corpus", "fetch", "A.2d", "102", "--base-url", url, "--corpus", corpus]) == 1
        assert "CAP has no volume 102 A.2d" in capsys.readouterr().err
    finally:
        httpd.shutdown()
        httpd.server_close()


def test_serve_runs_as_a_process_and_answers(tmp_path: Path):
    corpus = tmp_path / "c.sqlite"
    assert (
        main(["corpus", "import", str(shared_corpus_path("courtlistener-bulk")), "--corpus", str(corpus)])
        == 0
    )
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    proc = subprocess.Popen(
        [sys.executable, "-m", "citecheck", "corpus", "serve", "--port", str(port), "--corpus", str(corpus)],
        stderr=subprocess.PIPE,
        env=env,
    )
    try:
        base = f"http://127.0.0.1:{port}/api/rest/v4/"
        deadline = time.monotonic() + 20
        while True:
            try:
                resp = httpx.post(base + "citation-lookup/", data={"text": "279 Neb. 94"}, timeout=2)
                break
            except httpx.TransportError:
                if time.monotonic() > deadline or proc.poll() is not None:
                    raise
                time.sleep(0.1)
        assert resp.json()[0]["clusters"][0]["case_name"] == "State v. Vela"
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def test_rich_progress_draws_stages_on_a_terminal():
    import io

    from citecheck.cli.corpus import RichProgress

    buf = io.StringIO()
    with RichProgress(buf, force_terminal=True) as progress:
        progress.stage("opinions.csv", 100)
        progress.advance(60)
        progress.stage("assembling cases", 3)
        progress.advance(3)
    out = buf.getvalue()
    assert "opinions.csv" in out and "assembling cases" in out and "3/3" in out
    quiet = io.StringIO()
    with RichProgress(quiet) as progress:  # not a terminal: nothing drawn
        progress.stage("x", 1)
        progress.advance(1)
    assert quiet.getvalue() == ""
