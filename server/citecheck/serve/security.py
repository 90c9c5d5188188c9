"""The guard in front of every request: loopback Host, the add-in's Origin, the install token, a body cap.

The threat is a web page in the user's browser (or Word on the web's own frame) talking to the local
server: the Host check stops DNS rebinding, the Origin check stops other sites, the token (which only
the server's own page carries, and which no other origin can read: there are no CORS headers at all)
stops everything that is not our pane, and the body cap stops a memory attack. Every response carries
a strict Content-Security-Policy: the pane may load office.js from Microsoft's CDN and talk only to
this server.
"""

from __future__ import annotations

import hmac
import json
import os
import secrets
from collections.abc import Awaitable, Callable, MutableMapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

TOKEN_HEADER = "x-citecheck-token"
OFFICE_JS = "https://appsforoffice.microsoft.com"
#: Where Word on the web frames the pane (the desktop apps load it top-level in their own web view).
OFFICE_FRAME_ANCESTORS = (
    "https://*.officeapps.live.com https://*.office.com https://*.office365.com "
    "https://*.microsoft365.com https://*.sharepoint.com"
)
CSP = "; ".join(
    (
        "default-src 'none'",
        f"script-src 'self' {OFFICE_JS}",
        "style-src 'self'",
        "img-src 'self' data:",
        f"connect-src 'self' {OFFICE_JS}",
        "font-src 'self'",
        f"frame-ancestors 'self' {OFFICE_FRAME_ANCESTORS}",
        "base-uri 'none'",
        "form-action 'none'",
    )
)
LOOPBACK_HOSTS = ("127.0.0.1", "::1", "localhost")
DEFAULT_MAX_BODY = 16 * 1024 * 1024


def load_or_create_token(path: Path) -> str:
    """The per-install token: created once (owner-only file), then read back on every start."""
    try:
        token = path.read_text(encoding="ascii").strip()
        if len(token) >= 32:
            return token
    except (OSError, UnicodeDecodeError):
        pass
    path.parent.mkdir(parents=True, exist_ok=True)
    token = secrets.token_urlsafe(32)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="ascii") as fh:
        fh.write(token + "\n")
    return token


@dataclass(frozen=True, slots=True, kw_only=True)
class Policy:
    """Who may talk to the server on ``port``."""

    port: int
    token: str
    max_body: int = DEFAULT_MAX_BODY
    extra_origins: tuple[str, ...] = ()
    hosts: frozenset[str] = field(init=False)
    origins: frozenset[str] = field(init=False)

    def __post_init__(self) -> None:
        names = ("localhost", "127.0.0.1", "[::1]")
        object.__setattr__(self, "hosts", frozenset(f"{n}:{self.port}" for n in names))
        own = {f"https://{n}:{self.port}" for n in names}
        object.__setattr__(self, "origins", frozenset(own | set(self.extra_origins)))

    def token_ok(self, presented: str | None) -> bool:
        return presented is not None and hmac.compare_digest(presented.encode(), self.token.encode())


#: Headers that decide who may ask and what is sent: given twice, one of them would win unseen.
SINGLE_HEADERS = ("host", "origin", TOKEN_HEADER, "content-type", "content-length")


def _headers(scope: Scope) -> dict[str, str]:
    out: dict[str, str] = {}
    for k, v in scope.get("headers", []):
        out[k.decode("latin-1").lower()] = v.decode("latin-1")
    return out


def _given_twice(scope: Scope) -> str | None:
    """The first of ``SINGLE_HEADERS`` the request carries more than once (the last used to win)."""
    seen: set[str] = set()
    for k, _v in scope.get("headers", []):
        name = k.decode("latin-1").lower()
        if name in SINGLE_HEADERS:
            if name in seen:
                return name
            seen.add(name)
    return None


def _media_type(value: str) -> str:
    """``application/json; charset=utf-8`` → ``application/json``."""
    return value.split(";", 1)[0].strip().lower()


async def _refuse(send: Send, status: int, message: str) -> None:
    body = json.dumps({"error": message}).encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
                (b"cache-control", b"no-store"),
                *_SECURITY_HEADERS,
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})


_SECURITY_HEADERS = [
    (b"content-security-policy", CSP.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"cross-origin-resource-policy", b"same-origin"),
]


class Guard:
    """ASGI middleware enforcing ``Policy`` before the app sees a request."""

    def __init__(self, app: ASGIApp, policy: Policy) -> None:
        self.app = app
        self.policy = policy

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = _headers(scope)
        twice = _given_twice(scope)
        if twice is not None:
            await _refuse(send, 400, f"the {twice} header is given twice; a request gives it once")
            return
        if headers.get("host", "").lower() not in self.policy.hosts:
            await _refuse(send, 421, "this server answers only to localhost")
            return
        method = scope["method"]
        if scope["path"].startswith("/api/"):
            refusal = self._api_refusal(method, headers)
            if refusal is not None:
                await _refuse(send, *refusal)
                return
            if method == "POST":
                body = await self._read_body(receive, headers)
                if body is None:
                    await _refuse(send, 413, f"request larger than {self.policy.max_body:,} bytes")
                    return
                receive = _replay(body)
        elif method not in ("GET", "HEAD"):
            await _refuse(send, 405, "method not allowed")
            return
        await self.app(scope, receive, _with_headers(send))

    def _api_refusal(self, method: str, headers: dict[str, str]) -> tuple[int, str] | None:
        if method not in ("GET", "POST"):  # no OPTIONS: no preflight ever succeeds, so no CORS
            return 405, "method not allowed"
        origin = headers.get("origin")
        if (origin is None and method == "POST") or (
            origin is not None and origin not in self.policy.origins
        ):
            return 403, "requests are accepted only from the citecheck task pane"
        if not self.policy.token_ok(headers.get(TOKEN_HEADER)):
            return 401, "missing or wrong citecheck token; reload the task pane"
        if method == "POST" and _media_type(headers.get("content-type", "")) != "application/json":
            return 415, "the API takes application/json"
        length = headers.get("content-length")
        if length is not None and (not length.isdigit() or int(length) > self.policy.max_body):
            return 413, f"request larger than {self.policy.max_body:,} bytes"
        return None

    async def _read_body(self, receive: Receive, headers: dict[str, str]) -> bytes | None:
        chunks, size = [], 0
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                break
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.policy.max_body:
                return None
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        return b"".join(chunks)


def _replay(body: bytes) -> Receive:
    sent = False

    async def receive() -> Message:
        nonlocal sent
        if sent:
            return {"type": "http.disconnect"}
        sent = True
        return {"type": "http.request", "body": body, "more_body": False}

    return receive


def _with_headers(send: Send) -> Send:
    async def wrapped(message: Message) -> None:
        if message["type"] == "http.response.start":
            names = {k.lower() for k, _ in message.get("headers", [])}
            extra = [(k, v) for k, v in _SECURITY_HEADERS if k not in names]
            message = {**message, "headers": [*message.get("headers", []), *extra]}
        await send(message)

    return wrapped
