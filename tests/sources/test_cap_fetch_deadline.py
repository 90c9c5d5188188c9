"""CAP downloads on a bad network: one run-wide deadline, a silent host remembered, progress said.

Real loopback servers: one that accepts connections and never answers (what a network that drops
packets looks like to the client), and one that answers a byte at a time.
"""

from __future__ import annotations

import logging
import socket
import time
from collections.abc import Iterator

import pytest

from citecheck.sources.cap_fetch import CapFetcher
from citecheck.sources.corpus import Corpus
from citecheck_testing import loopback_tcp


@pytest.fixture
def silent_host() -> Iterator[tuple[str, list]]:
    """Accepts every connection, never answers."""
    with loopback_tcp() as (url, accepted):
        yield url, accepted


def _drip(conn: socket.socket) -> None:
    """Answer CasesMetadata.json one byte every 0.2 s: alive, but far too slow."""
    try:
        conn.recv(4096)
        body = b"[" + b" " * 10_000 + b"]"
        conn.sendall(
            b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: "
            + str(len(body)).encode()
            + b"\r\n\r\n"
        )
        for i in range(len(body)):
            conn.sendall(body[i : i + 1])
            time.sleep(0.2)
    except OSError:
        pass  # the client gave up, or the test closed it


@pytest.fixture
def dripping_host() -> Iterator[str]:
    with loopback_tcp(_drip) as (url, _):
        yield url


async def test_a_host_that_never_answers_costs_one_timeout_not_one_per_volume(silent_host, tmp_path, caplog):
    url, accepted = silent_host
    fetcher = CapFetcher(url, timeout_s=0.5, budget_s=30)
    volumes = [("A.2d", str(v)) for v in range(100, 110)]  # a ten-volume brief
    start = time.monotonic()
    with caplog.at_level(logging.INFO, logger="citecheck.sources.cap_fetch"):
        try:
            out = await fetcher.fetch_and_import(volumes, Corpus(tmp_path / "c.sqlite"))
        finally:
            await fetcher.close()
    took = time.monotonic() - start
    assert took < 3, f"{took:.1f} s for ten volumes from a silent host"
    assert len(accepted) == 1  # the failing host is remembered: nine volumes never touch the network
    assert "timed out" in out.failures[("A.2d", "100")]
    assert all(out.failures[v].startswith("CAP site unreachable") for v in volumes[1:])
    said = [r.getMessage() for r in caplog.records]
    assert said[0] == f"downloading CAP volume 100 A.2d from {url}"  # progress, for stderr
    assert any("CAP site unreachable" in m for m in said)


async def test_one_deadline_for_the_whole_run(dripping_host, tmp_path):
    fetcher = CapFetcher(dripping_host, timeout_s=5, budget_s=1.0)
    start = time.monotonic()
    try:
        out = await fetcher.fetch_and_import(
            [("A.2d", "100"), ("A.2d", "101")], Corpus(tmp_path / "c.sqlite")
        )
    finally:
        await fetcher.close()
    took = time.monotonic() - start
    assert took < 3, f"{took:.1f} s against a budget of 1 s"
    assert "ran out" in out.failures[("A.2d", "100")] and "cap_budget_s" in out.failures[("A.2d", "100")]
    assert "not tried" in out.failures[("A.2d", "101")]


async def test_the_language_server_has_no_run_deadline(dripping_host, tmp_path):
    fetcher = CapFetcher(dripping_host, timeout_s=5)
    assert fetcher.budget_s is None and fetcher._time_left() is None
    await fetcher.close()
