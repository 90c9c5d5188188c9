"""A raw JSON-RPC client for the real ``citecheck-lsp --stdio``: frames are written by hand, so tests
can send what no well-behaved client library would (bad headers, requests after shutdown)."""

from __future__ import annotations

import itertools
import json
import os
import queue
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any, ClassVar

import pytest


class RawServer:
    def __init__(
        self, stderr_path: Path, env: dict[str, str] | None = None, log_level: str = "DEBUG"
    ) -> None:
        self.stderr_path = stderr_path
        self._err = open(stderr_path, "wb")
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "citecheck.lsp", "--stdio", "--log-level", log_level],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self._err,
            env={**os.environ, **(env or {})},
        )
        self.messages: queue.Queue[dict[str, Any]] = queue.Queue()
        self._ids = itertools.count(1)
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        out = self.proc.stdout
        assert out is not None
        while True:
            length = None
            while True:
                line = out.readline()
                if not line:
                    return
                if line in (b"\r\n", b"\n"):
                    break
                if line.lower().startswith(b"content-length:"):
                    length = int(line.split(b":", 1)[1])
            if length is None:
                continue
            self.messages.put(json.loads(out.read(length)))

    def send_bytes(self, data: bytes) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(data)
        self.proc.stdin.flush()

    def send(self, message: dict[str, Any]) -> None:
        body = json.dumps({"jsonrpc": "2.0", **message}).encode()
        self.send_bytes(b"Content-Length: %d\r\n\r\n" % len(body) + body)

    def request(self, method: str, params: Any = None) -> int:
        msg_id = next(self._ids)
        self.send({"id": msg_id, "method": method, "params": params})
        return msg_id

    def notify(self, method: str, params: Any = None) -> None:
        self.send({"method": method, "params": params})

    def wait_for(self, predicate, timeout: float = 30.0) -> dict[str, Any]:
        """The first message (answer, request or notification) ``predicate`` accepts; answers server requests."""
        import time

        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError("no matching message from the server")
            msg = self.messages.get(timeout=left)
            if "method" in msg and "id" in msg and not predicate(msg):
                self.answer_server_request(msg)
                continue
            if predicate(msg):
                return msg

    def answer_server_request(self, msg: dict[str, Any]) -> None:
        result: Any = None
        if msg["method"] == "workspace/configuration":
            result = [self.configuration for _ in msg["params"]["items"]]
        self.send({"id": msg["id"], "result": result})

    configuration: ClassVar[Any] = {}

    def response(self, msg_id: int, timeout: float = 30.0) -> dict[str, Any]:
        return self.wait_for(lambda m: m.get("id") == msg_id and "method" not in m, timeout)

    def initialize(self, options: Any = None, capabilities: Any = None) -> dict[str, Any]:
        caps = capabilities if capabilities is not None else {"workspace": {"configuration": True}}
        rid = self.request(
            "initialize",
            {"processId": None, "rootUri": None, "capabilities": caps, "initializationOptions": options},
        )
        answer = self.response(rid)
        self.notify("initialized", {})
        return answer

    def close(self, timeout: float = 30.0) -> tuple[int, str]:
        try:
            rc = self.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            rc = self.proc.wait()
        self._err.close()
        return rc, self.stderr_path.read_text(errors="replace")


@pytest.fixture
def raw_server(tmp_path: Path) -> Iterator[Any]:
    started: list[RawServer] = []

    def start(env: dict[str, str] | None = None, log_level: str = "DEBUG") -> RawServer:
        server = RawServer(tmp_path / f"stderr-{len(started)}.log", env, log_level)
        started.append(server)
        return server

    yield start
    for s in started:
        if s.proc.poll() is None:
            s.proc.kill()
            s.proc.wait()
        if not s._err.closed:
            s._err.close()
