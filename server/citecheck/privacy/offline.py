"""A process-level guarantee for ``--offline``: no socket may connect and no name may be resolved.

Sources already honour ``Settings.offline``; this guard makes a mistake anywhere (a new source, a
library that phones home) fail loudly instead of leaking a citation to the network. It uses a
Python audit hook, which cannot be removed, so the hook is installed once and switched by a counter.
Local socket pairs and Unix sockets (asyncio's self-pipe) stay allowed.
"""

from __future__ import annotations

import socket
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager

_lock = threading.Lock()
_active = 0
_installed = False


class NetworkBlocked(OSError):
    """Raised inside the guarded block when something tries to use the network."""


def _hook(event: str, args: tuple) -> None:
    if not _active:
        return
    if event == "socket.connect":
        sock = args[0]
        if getattr(sock, "family", None) == getattr(socket, "AF_UNIX", object()):
            return
        raise NetworkBlocked(f"offline mode: refused to connect to {args[1]!r}")
    if event == "socket.getaddrinfo":
        raise NetworkBlocked(f"offline mode: refused to resolve {args[0]!r}")


@contextmanager
def no_network() -> Iterator[None]:
    """Inside this block every network connection or DNS lookup raises ``NetworkBlocked``."""
    global _active, _installed
    with _lock:
        if not _installed:
            sys.addaudithook(_hook)
            _installed = True
        _active += 1
    try:
        yield
    finally:
        with _lock:
            _active -= 1
