"""A real ``citecheck serve`` on 127.0.0.1 over HTTPS, with its own certificate, token and corpus.

The server runs as a subprocess of the real command line (``citecheck serve --init``, then
``citecheck serve``) with its config directory in a temporary folder; clients verify TLS against the
certificate authority ``--init`` made.
"""

from __future__ import annotations

import os
import socket
import ssl
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest

from citecheck_testing import shared_corpus_or_empty

REPO = Path(__file__).resolve().parents[2]


@dataclass
class Served:
    base: str
    port: int
    token: str
    ca: Path
    root: Path
    env: dict[str, str]

    @property
    def origin(self) -> str:
        return f"https://localhost:{self.port}"

    def client(self) -> httpx.Client:
        return httpx.Client(
            base_url=self.base, verify=ssl.create_default_context(cafile=str(self.ca)), timeout=60
        )

    def headers(self, **extra: str) -> dict[str, str]:
        return {
            "Origin": self.origin,
            "X-Citecheck-Token": self.token,
            "Content-Type": "application/json",
            **extra,
        }


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="session")
def serve_corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The CAP 100 A.2d fixture and the CourtListener bulk sample from ../shared/corpus, imported; an empty
    corpus without them (a test that needs the cases skips inside itself there)."""
    return shared_corpus_or_empty(tmp_path_factory.mktemp("serve-corpus") / "corpus.sqlite")


def start_server(tmp: Path, corpus: Path, *extra: str) -> tuple[subprocess.Popen, Served]:
    env = {
        **os.environ,
        "XDG_CONFIG_HOME": str(tmp / "config"),
        "CITECHECK_CACHE_PATH": str(tmp / "cache.sqlite"),
        "CITECHECK_CAP_FETCH": "0",
        "PYTHONPATH": str(REPO / "server"),
    }
    init = subprocess.run(
        [sys.executable, "-m", "citecheck", "serve", "--init"],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert init.returncode == 0, init.stderr
    serve_dir = tmp / "config" / "citecheck" / "serve"
    port = free_port()
    root = tmp / "workspace"
    root.mkdir(exist_ok=True)
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "citecheck",
            "--offline",
            "--corpus",
            str(corpus),
            "serve",
            "--port",
            str(port),
            "--root",
            str(root),
            *extra,
        ],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    served = Served(
        base=f"https://localhost:{port}",
        port=port,
        token=(serve_dir / "token").read_text().strip(),
        ca=serve_dir / "citecheck-localhost-ca.pem",
        root=root,
        env=env,
    )
    deadline = time.monotonic() + 60
    with served.client() as c:
        while True:
            if proc.poll() is not None:
                raise AssertionError(f"citecheck serve exited: {proc.stderr.read() if proc.stderr else ''}")
            try:
                if c.get("/api/v1/health", headers={"X-Citecheck-Token": served.token}).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            if time.monotonic() > deadline:
                proc.kill()
                raise AssertionError("citecheck serve did not answer within 60 s")
            time.sleep(0.2)
    return proc, served


def stop_server(proc: subprocess.Popen) -> None:
    proc.terminate()
    try:
        proc.wait(timeout=15)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory, serve_corpus: Path) -> Iterator[Served]:
    proc, s = start_server(tmp_path_factory.mktemp("serve"), serve_corpus, "--max-request-bytes", "200000")
    try:
        yield s
    finally:
        stop_server(proc)


def brief_paragraphs() -> list[str]:
    """examples/brief.md as Word would give it: one string per paragraph."""
    text = (REPO / "examples" / "brief.md").read_text(encoding="utf-8")
    return [p.strip() for p in text.split("\n\n") if p.strip()]
