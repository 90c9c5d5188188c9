"""A real OpenAI-compatible HTTP server on 127.0.0.1 that answers from a script (tests and bench only).

Each scripted step is one HTTP answer: a status, a JSON body (or raw bytes), optional headers, a delay
before the headers, and an optional trickle (the body sent a few bytes at a time, slowly). Requests
beyond the script get the last step again. The server records every request body it received.
"""

from __future__ import annotations

import json
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler
from typing import Any

from citecheck.sources.corpus_server import QuietHTTPServer


@dataclass
class Step:
    status: int = 200
    body: Any = None  # dict → JSON; bytes → as is
    headers: dict[str, str] = field(default_factory=dict)
    delay: float = 0.0
    trickle: float = 0.0  # seconds between 8-byte chunks of the body


def chat_answer(content: str, model: str = "fake-judge") -> Step:
    """A chat completion whose message content is ``content``."""
    return Step(
        body={
            "id": "cmpl-1",
            "object": "chat.completion",
            "created": 0,
            "model": model,
            "choices": [
                {"index": 0, "finish_reason": "stop", "message": {"role": "assistant", "content": content}}
            ],
            "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
        }
    )


def judgment(support: str, quote: str = "", misuse: str = "none", rationale: str = "Because.") -> Step:
    return chat_answer(
        json.dumps({"support": support, "misuse": misuse, "supporting_quote": quote, "rationale": rationale})
    )


def logprob_answer(yes: float, no: float, model: str = "fake-judge") -> Step:
    """A one-token chat answer whose ``top_logprobs`` give "Yes" probability ``yes`` and "No" ``no``
    (what the yes-no protocol reads); the rest of the mass goes to a token that is neither."""
    import math

    pairs = [(t, math.log(p)) for t, p in (("Yes", yes), ("No", no)) if p > 0]
    pairs.append(("The", math.log(max(1e-9, 1 - yes - no))))
    top: list[dict[str, Any]] = [{"token": t, "logprob": lp, "bytes": None} for t, lp in pairs]
    first = top[max(range(len(pairs)), key=lambda i: pairs[i][1])]
    return Step(
        body={
            "id": "cmpl-1",
            "object": "chat.completion",
            "created": 0,
            "model": model,
            "choices": [
                {
                    "index": 0,
                    "finish_reason": "length",
                    "message": {"role": "assistant", "content": first["token"]},
                    "logprobs": {"content": [{**first, "top_logprobs": top}]},
                }
            ],
            "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
        }
    )


class FakeEndpoint:
    def __init__(self) -> None:
        self.script: list[Step] = []
        self.requests: list[dict[str, Any]] = []
        self.paths: list[str] = []
        self.headers: list[dict[str, str]] = []
        self._lock = threading.Lock()
        self._i = 0
        self.responder: Any = None  # request body → Step, instead of the script (answers by content)
        endpoint = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args: object) -> None:
                pass

            def _answer(self) -> None:
                length = int(self.headers.get("content-length") or 0)
                raw = self.rfile.read(length) if length else b""
                with endpoint._lock:
                    endpoint.paths.append(self.path)
                    endpoint.headers.append({k.lower(): v for k, v in self.headers.items()})
                    endpoint.requests.append(json.loads(raw) if raw else {})
                    if self.path.rstrip("/").endswith("/models"):
                        step = Step(
                            body={
                                "object": "list",
                                "data": [
                                    {"id": "fake-judge", "object": "model", "created": 0, "owned_by": "test"}
                                ],
                            }
                        )
                    elif endpoint.responder is not None:
                        step = endpoint.responder(endpoint.requests[-1])
                    else:
                        step = endpoint.script[min(endpoint._i, len(endpoint.script) - 1)]
                        endpoint._i += 1
                if step.delay:
                    time.sleep(step.delay)
                body = step.body if isinstance(step.body, bytes) else json.dumps(step.body or {}).encode()
                try:
                    self.send_response(step.status)
                    self.send_header("content-type", "application/json")
                    self.send_header("content-length", str(len(body)))
                    for k, v in step.headers.items():
                        self.send_header(k, v)
                    self.end_headers()
                    if step.trickle:
                        for i in range(0, len(body), 8):
                            self.wfile.write(body[i : i + 8])
                            self.wfile.flush()
                            time.sleep(step.trickle)
                    else:
                        self.wfile.write(body)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client gave up (a timeout under test)

            do_GET = _answer
            do_POST = _answer

        self.server = QuietHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/v1"
        self._thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self._thread.start()

    def answer(self, *steps: Step) -> FakeEndpoint:
        with self._lock:
            self.script = list(steps)
            self.responder = None
            self._i = 0
            self.requests.clear()
            self.paths.clear()
        return self

    def answer_by(self, responder: Any) -> FakeEndpoint:
        """Answer each chat request with ``responder(request_body)`` (concurrent requests in any order)."""
        with self._lock:
            self.responder = responder
            self.requests.clear()
            self.paths.clear()
        return self

    @property
    def chat_requests(self) -> list[dict[str, Any]]:
        return [r for r, p in zip(self.requests, self.paths, strict=True) if p.endswith("/chat/completions")]

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()
