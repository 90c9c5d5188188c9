"""The value parsers a setting names in its row of the settings table (``citecheck.config.Settings``).

Each parser turns what a layer gives (a TOML value, a JSON value from an editor, an environment string)
into the setting's type, or raises ``ConfigError`` with a message that names the setting. They are small
and pure so that adding a setting is one line in the table, reusing one of them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any

from citecheck.errors import ConfigError
from citecheck.findings import Kind, Severity

#: A parser gets the setting's name (for its messages) and the raw value.
Parser = Callable[[str, Any], Any]

_TRUE = ("1", "true", "yes", "on")


def boolean(name: str, value: Any) -> bool:
    """``"1"``/``"true"``/``"yes"``/``"on"`` (any case) and true values are true, the rest false.

    >>> boolean("offline", "Yes"), boolean("offline", "0"), boolean("offline", True)
    (True, False, True)
    """
    if isinstance(value, str):
        return value.strip().lower() in _TRUE
    return bool(value)


def text(name: str, value: Any) -> str:
    return str(value)


def optional_text(name: str, value: Any) -> str | None:
    """Empty means unset."""
    return str(value) if value not in (None, "") else None


def path(name: str, value: Any) -> Path:
    return Path(str(value)).expanduser()


def integer(minimum: int) -> Parser:
    """A whole number of at least ``minimum``."""

    def parse(name: str, value: Any) -> int:
        n = int(value)
        if n < minimum:
            raise ConfigError(
                f"{name} must not be negative" if minimum == 0 else f"{name} must be at least {minimum}"
            )
        return n

    return parse


def seconds(name: str, value: Any) -> float:
    """A positive number of seconds."""
    x = float(value)
    if not x > 0:
        raise ConfigError(f"{name} must be a positive number of seconds")
    return x


def seconds_or_none(*none_words: str) -> Parser:
    """A positive number of seconds, or None for one of ``none_words`` (or an empty string)."""

    def parse(name: str, value: Any) -> float | None:
        if isinstance(value, str) and value.strip().lower() in ("", *none_words):
            return None
        x = float(value)
        if not x > 0:
            raise ConfigError(f"{name} must be positive, not {value!r}")
        return x

    return parse


def choice(*options: str, optional: bool = False) -> Parser:
    """One of ``options`` (any case); with ``optional``, empty means unset.

    >>> choice("hint", "none")("cannot_verify_diagnostics", "Hint")
    'hint'
    """

    def parse(name: str, value: Any) -> str | None:
        if optional and value in (None, ""):
            return None
        word = str(value).strip().lower()
        if word not in options:
            shown = " or ".join(f'"{o}"' for o in options) if len(options) == 2 else ", ".join(options)
            raise ConfigError(f"{name} must be {'one of ' if len(options) > 2 else ''}{shown}, not {value!r}")
        return word

    return parse


def http_url_or_none(name: str, value: Any) -> str | None:
    """An http(s) URL; empty means unset (a ``file:`` or other URL is an error, not a surprise later)."""
    if value in (None, ""):
        return None
    url = str(value).strip()
    if not url.lower().startswith(("http://", "https://")):
        raise ConfigError(f"{name} must be an http(s) URL, not {url!r}")
    return url


def http_url(name: str, value: Any) -> str:
    """An http(s) URL."""
    url = str(value).strip()
    if not url.lower().startswith(("http://", "https://")):
        raise ConfigError(f"{name} must be an http(s) URL, not {url!r}")
    return url


def folder_url(name: str, value: Any) -> str:
    """An http(s) URL of a folder: it ends with ``/`` (relative names are joined to it)."""
    url = http_url(name, value)
    return url if url.endswith("/") else url + "/"


def _loopback(host: str) -> bool:
    import ipaddress

    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def https_folder_url(name: str, value: Any) -> str:
    """An https URL of a folder (``/`` at its end), or plain http to this machine only: what a sync
    downloads from a service on the internet must not be readable or changeable on the way.

    >>> https_folder_url("uscode_url", "https://uscode.house.gov/download")
    'https://uscode.house.gov/download/'
    >>> https_folder_url("uscode_url", "http://127.0.0.1:8000/download/")
    'http://127.0.0.1:8000/download/'
    """
    from urllib.parse import urlsplit

    url = folder_url(name, value)
    try:
        parts = urlsplit(url)
        host = (parts.hostname or "").lower()
    except ValueError as exc:
        raise ConfigError(f"{name} is not a valid URL: {url!r}") from exc
    if host and (parts.scheme.lower() == "https" or _loopback(host)):
        return url
    raise ConfigError(f"{name} must be an https URL (http only to this machine), not {url!r}")


def _items(value: Any) -> Iterable[str]:
    raw = value.split(",") if isinstance(value, str) else list(value)
    return [str(s).strip() for s in raw if str(s).strip()]


def word_list(name: str, value: Any) -> tuple[str, ...]:
    """A comma-separated string or a list."""
    return tuple(_items(value))


def host_set(name: str, value: Any) -> frozenset[str]:
    """Host names (``host`` or ``host:port``), lower-cased."""
    return frozenset(s.lower() for s in _items(value))


def finding_kinds(name: str, value: Any) -> frozenset[str] | None:
    """Finding kinds (docs/findings.md); an unknown one is an error, not a silently empty filter."""
    if value is None:
        return None
    items = list(_items(value))
    known = {k.value for k in Kind}
    unknown = [s for s in items if s not in known]
    if unknown:
        raise ConfigError(f"unknown finding kind(s) in {name}: {', '.join(unknown)}")
    return frozenset(items)


def severity_map(name: str, value: Any) -> Mapping[str, Severity]:
    """``{kind: severity}``, or ``"misquote=warning,name-misspelled=error"``."""
    if isinstance(value, str):
        value = dict(p.split("=", 1) for p in value.split(",") if "=" in p)
    out: dict[str, Severity] = {}
    for k, v in dict(value).items():
        if k not in {kk.value for kk in Kind}:
            raise ConfigError(f"unknown finding kind in severity overrides: {k}")
        out[k] = Severity(str(v).lower())
    return out


def rates(name: str, value: Any) -> str:
    """A pacing allowance such as ``5/min,50/hour`` (a typo is a config error now, not at the first lookup)."""
    from citecheck.sources.pacing import parse_rates

    parse_rates(str(value))
    return str(value)
