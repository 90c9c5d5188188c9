"""Secrets never reach a log line: every handler citecheck installs formats through ``redact``.

Two nets, because a token can appear in a log in two shapes:

* by value: every secret the process knows (``CITECHECK_*TOKEN*`` variables, the CourtListener
  token from any settings layer, a ``corpus serve`` token) is registered here and replaced wherever
  it occurs — in ``InitializeParams``' repr, a ``workspace/configuration`` answer, a traceback;
* by key: ``"courtlistenerToken": "…"``, ``token='…'``, ``Authorization: Token …`` are masked even
  when the value was never registered (a token sent by the client for the first time).
"""

from __future__ import annotations

import logging
import re
import threading
from collections.abc import Iterable, Mapping

__all__ = ["MASK", "RedactingFormatter", "install", "redact", "register_secret", "register_secrets_from_env"]

MASK = "***"
_MIN_SECRET = 4  # shorter values would mask ordinary words
_lock = threading.Lock()
_secrets: frozenset[str] = frozenset()

_KEY = r"[\w-]*(?:token|secret|password|passwd|api[_-]?key|authorization)[\w-]*"
#: ``"key": "value"``, ``'key': 'value'``, ``key='value'``, ``key="value"`` (JSON, dict and attrs reprs)
_QUOTED = re.compile(rf"""(?i)(["']?{_KEY}["']?\s*[:=]\s*)(["'])((?:\\.|(?!\2).)*)\2""")
#: ``Authorization: Token abc`` / ``Bearer abc`` in a header dump; ``key=value`` in a URL or env line
_HEADER = re.compile(r"(?i)\b(authorization\s*[:=]\s*(?:token|bearer|basic)?\s*)([^\s'\",}]+)")
_BARE = re.compile(rf"(?i)(\b{_KEY}=)([^\s&'\",}}]+)")


def register_secret(value: object) -> None:
    """Remember a secret value so every later log line masks it wherever it appears."""
    global _secrets
    if isinstance(value, str) and len(value.strip()) >= _MIN_SECRET:
        with _lock:
            _secrets = _secrets | {value, value.strip()}


def register_secrets_from_env(environ: Mapping[str, str]) -> None:
    for key, value in environ.items():
        if key.startswith("CITECHECK_") and re.search(_KEY, key, re.I):
            register_secret(value)


def redact(text: str, extra: Iterable[str] = ()) -> str:
    """``text`` with every known secret and every ``token``-like value masked.

    >>> redact('{"courtlistenerToken": "abc123", "offline": false}')
    '{"courtlistenerToken": "***", "offline": false}'
    >>> redact("Authorization: Token abc123")
    'Authorization: Token ***'
    """
    for secret in sorted((*_secrets, *(s for s in extra if len(s) >= _MIN_SECRET)), key=len, reverse=True):
        if secret in text:
            text = text.replace(secret, MASK)
    text = _QUOTED.sub(lambda m: f"{m.group(1)}{m.group(2)}{MASK}{m.group(2)}", text)
    text = _HEADER.sub(lambda m: m.group(1) + MASK, text)
    return _BARE.sub(lambda m: m.group(1) + MASK, text)


class RedactingFormatter(logging.Formatter):
    """A formatter whose whole output (message, arguments, traceback) passes through ``redact``."""

    def format(self, record: logging.LogRecord) -> str:
        return redact(super().format(record))


def install(logger: logging.Logger | None = None) -> None:
    """Make every handler on ``logger`` (the root logger by default) format through ``redact``."""
    logger = logger or logging.getLogger()
    for handler in logger.handlers:
        current = handler.formatter
        fmt = current._fmt if current is not None else None
        datefmt = current.datefmt if current is not None else None
        if not isinstance(current, RedactingFormatter):
            handler.setFormatter(RedactingFormatter(fmt, datefmt))
