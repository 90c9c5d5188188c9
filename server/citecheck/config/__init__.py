"""Settings shared by the CLI and the language server, and pure parsers for each place they come from.

Precedence (lowest first): defaults → ``citecheck.toml`` / ``[tool.citecheck]`` → ``CITECHECK_*``
environment → CLI flags or LSP ``initializationOptions`` / ``workspace/configuration``.
This module never reads files or the environment itself: callers pass the values in.
"""

from __future__ import annotations

import difflib
from collections.abc import Mapping
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Any

import platformdirs

from citecheck.errors import ConfigError
from citecheck.findings import Kind, Severity

DEFAULT_COURTLISTENER_URL = "https://www.courtlistener.com/api/rest/v4/"
DEFAULT_CAP_URL = "https://static.case.law/"
DEFAULT_USCODE_URL = "https://uscode.house.gov/download/"
DEFAULT_ECFR_URL = "https://www.ecfr.gov/api/versioner/v1/"


def _data_dir() -> Path:
    return Path(platformdirs.user_data_dir("citecheck", appauthor=False))


def default_corpus_path() -> Path:
    """Where the corpus lives when nobody named one (it may not exist yet: a fresh machine)."""
    return _data_dir() / "corpus.sqlite"


def default_index_path() -> Path:
    """Where ``corpus sync`` builds the citation index and checks look for it (it may not exist)."""
    return _data_dir() / "index.sqlite"


#: CourtListener's public bucket of bulk data (its listing names the dated files).
DEFAULT_BULK_URL = "https://com-courtlistener-storage.s3-us-west-2.amazonaws.com/"


def default_statutes_path() -> Path:
    """Where ``corpus sync --statutes`` builds the statute index when nobody named a file."""
    return _data_dir() / "statutes.sqlite"


def _cache_dir() -> Path:
    return Path(platformdirs.user_cache_dir("citecheck", appauthor=False))


@dataclass(frozen=True, slots=True, kw_only=True)
class Settings:
    corpus_path: Path = field(default_factory=default_corpus_path)
    cache_path: Path = field(default_factory=lambda: _cache_dir() / "cache.sqlite")
    index_path: Path = field(default_factory=default_index_path)  # the citation index (corpus sync)
    bulk_url: str = DEFAULT_BULK_URL  # where corpus sync lists and downloads CourtListener's bulk files
    courtlistener_token: str | None = field(default=None, repr=False)
    courtlistener_url: str = DEFAULT_COURTLISTENER_URL
    cap_fetch: bool = True
    cap_url: str = DEFAULT_CAP_URL
    statutes_path: Path = field(default_factory=default_statutes_path)  # the statute index (U.S.C., C.F.R.)
    uscode_url: str = DEFAULT_USCODE_URL  # the OLRC's download pages (corpus sync --statutes)
    ecfr_url: str = DEFAULT_ECFR_URL  # the eCFR versioner API (corpus sync --statutes)
    offline: bool = False
    enabled_checks: frozenset[str] | None = None  # None = all; else finding kinds to report
    severity_overrides: Mapping[str, Severity] = field(default_factory=dict)
    languages: tuple[str, ...] = ("plaintext", "markdown")
    max_document_chars: int = 2_000_000
    debounce_ms: int = 150
    model_url: str | None = None  # OpenAI-compatible endpoint (".../v1") for unsupported-holding; None = off
    model_name: str | None = None
    model_api_key: str | None = field(default=None, repr=False)  # CITECHECK_MODEL_API_KEY; never from a file
    model_timeout_s: float = 60.0  # one request
    model_deadline_s: float = 300.0  # every holding judgment of one check together
    model_concurrency: int = 8  # requests in flight at once (vLLM batches them)
    model_retries: int = 2  # further tries after a timeout, 429 or 5xx
    model_passage_tokens: int = 1200  # opinion text sent per proposition, in approximate tokens
    model_protocol: str = "judgment"  # "judgment" (JSON verdict, 7B+ models) | "yes-no" (small CPU models)
    holdings: bool = True  # run holding checks when a model is configured (--no-holdings turns them off)
    http_timeout_s: float = 20.0  # one request, body included
    #: hosts besides the official one that may receive the CourtListener token ("host" or
    #: "host:port"). Only user-level layers set it (environment, flags): never a citecheck.toml in
    #: the folder being checked, nor LSP initializationOptions / workspace configuration.
    token_hosts: frozenset[str] = frozenset()
    serve_token: str | None = field(default=None, repr=False)  # ``corpus serve`` off loopback
    # CourtListener pacing (docs/sources.md): None = the documented free-account limits on the official host
    courtlistener_rates: str | None = None  # requests, e.g. "5/min,50/hour,125/day"
    courtlistener_citation_rate: str | None = None  # looked-up citations, e.g. "60/min"
    courtlistener_budget_s: float | None = 60.0  # a CLI run's deadline for CourtListener; None = --wait
    cap_budget_s: float | None = 30.0  # a CLI run's total time for CAP volume downloads; None = no limit
    #: How editors show a citation no source covers: "hint" (faint dots, no squiggle), "information"
    #: (a squiggle like any finding) or "none". The status bar and Citations view count them anyway.
    cannot_verify_diagnostics: str = "hint"
    court: str | None = None  # the matter's court: courts-db id, abbreviation or name (else the caption)
    question: str | None = None  # "federal" | "state"; default: federal law in federal court, state in state

    def network_allowed(self) -> bool:
        return not self.offline

    def holdings_enabled(self) -> bool:
        """Holding checks run only when a model endpoint is configured and they were not turned off."""
        return bool(self.holdings and self.model_url and self.model_name)

    def kind_enabled(self, kind: Kind | str) -> bool:
        return self.enabled_checks is None or str(kind) in self.enabled_checks

    def severity_for(self, kind: Kind | str, default: Severity) -> Severity:
        return self.severity_overrides.get(str(kind), default)


# key as written in TOML / JSON (either snake_case or camelCase) → field name
_ALIASES = {
    "corpus": "corpus_path",
    "corpusPath": "corpus_path",
    "cache": "cache_path",
    "cachePath": "cache_path",
    "index": "index_path",
    "indexPath": "index_path",
    "bulkUrl": "bulk_url",
    "courtlistenerToken": "courtlistener_token",
    "token": "courtlistener_token",
    "courtlistenerUrl": "courtlistener_url",
    "courtlistener_base_url": "courtlistener_url",
    "courtlistenerBaseUrl": "courtlistener_url",
    "capFetch": "cap_fetch",
    "capUrl": "cap_url",
    "statutes": "statutes_path",
    "statutesPath": "statutes_path",
    "uscodeUrl": "uscode_url",
    "ecfrUrl": "ecfr_url",
    "enabledChecks": "enabled_checks",
    "checks": "enabled_checks",
    "severityOverrides": "severity_overrides",
    "severity": "severity_overrides",
    "maxDocumentChars": "max_document_chars",
    "sizeLimit": "max_document_chars",
    "size_limit": "max_document_chars",
    "debounceMs": "debounce_ms",
    "modelUrl": "model_url",
    "modelName": "model_name",
    "modelApiKey": "model_api_key",
    "modelTimeout": "model_timeout_s",
    "model_timeout": "model_timeout_s",
    "modelDeadline": "model_deadline_s",
    "model_deadline": "model_deadline_s",
    "modelConcurrency": "model_concurrency",
    "modelRetries": "model_retries",
    "modelPassageTokens": "model_passage_tokens",
    "modelProtocol": "model_protocol",
    "httpTimeout": "http_timeout_s",
    "http_timeout": "http_timeout_s",
    "cannotVerifyDiagnostics": "cannot_verify_diagnostics",
    "tokenHosts": "token_hosts",
    "courtlistenerRates": "courtlistener_rates",
    "courtlistenerCitationRate": "courtlistener_citation_rate",
    "courtlistenerBudget": "courtlistener_budget_s",
    "capBudget": "cap_budget_s",
}
CANNOT_VERIFY_DISPLAY = ("hint", "information", "none")
#: Settings only user-level layers may set: a folder's own config must not redirect a secret, nor
#: choose the hosts bulk files and statute releases are downloaded from, nor the index checks trust.
USER_LEVEL_ONLY = frozenset(
    {"token_hosts", "serve_token", "uscode_url", "ecfr_url", "bulk_url", "index_path"}
)
_FIELDS = {f.name for f in fields(Settings)}
#: ``CITECHECK_*`` variables that are not settings fields but are read somewhere (add yours here, or
#: users who set it are told it is unknown).
OTHER_ENV = frozenset(
    {
        "CITECHECK_CONFIG",
        "CITECHECK_CORPUS",
        "CITECHECK_CACHE",
        "CITECHECK_INDEX",
        # the project's own test harness (tests/, clients/vscode/test/): not settings, but not typos either
        "CITECHECK_E2E",
        "CITECHECK_E2E_CACHE",
        "CITECHECK_E2E_SCREENSHOTS",
        "CITECHECK_REGEN_GOLDEN",
        "CITECHECK_PYTHON",
        "CITECHECK_UPDATE_SCREENSHOTS",
    }
)


def _key(raw_key: str) -> str:
    return _ALIASES.get(raw_key, raw_key.replace("-", "_"))


def _suggest(word: str, choices: list[str]) -> str:
    close = difflib.get_close_matches(word, choices, n=1, cutoff=0.8)
    return f" (did you mean {close[0]}?)" if close else ""


def unknown_keys(data: Mapping[str, Any], where: str) -> list[str]:
    """One warning per key of a settings table that no setting has (they are otherwise ignored).

    >>> unknown_keys({"offline": True, "http_timout": 5}, "citecheck.toml")
    ['citecheck.toml: unknown setting "http_timout" (did you mean http_timeout?); it is ignored']
    """
    names = sorted(_FIELDS | set(_ALIASES))
    return [
        f'{where}: unknown setting "{k}"{_suggest(k, names)}; it is ignored'
        for k in data
        if _key(k) not in _FIELDS
    ]


def unknown_env(environ: Mapping[str, str]) -> list[str]:
    """One warning per ``CITECHECK_*`` variable that is no setting (a typo is otherwise silent).

    >>> unknown_env({"CITECHECK_HTTP_TIMOUT": "5", "CITECHECK_OFFLINE": "1", "HOME": "/"})
    ['unknown environment variable CITECHECK_HTTP_TIMOUT (did you mean CITECHECK_HTTP_TIMEOUT?); it is ignored']
    """
    known = {f"CITECHECK_{f.upper()}" for f in _FIELDS} | set(OTHER_ENV)
    known |= {f"CITECHECK_{a.upper()}" for a in _ALIASES if "_" in a or a.islower()}
    return [
        f"unknown environment variable {k}{_suggest(k, sorted(known))}; it is ignored"
        for k in sorted(environ)
        if k.startswith("CITECHECK_") and k not in known
    ]


def _coerce(name: str, value: Any) -> Any:  # noqa: C901
    try:
        if name in ("corpus_path", "cache_path", "index_path", "statutes_path"):
            return Path(str(value)).expanduser()
        if name == "bulk_url":
            url = str(value).strip()
            if not url.lower().startswith(("http://", "https://")):
                raise ConfigError(f"bulk_url must be an http(s) URL, not {url!r}")
            return url if url.endswith("/") else url + "/"
        if name in ("cap_fetch", "offline", "holdings"):
            if isinstance(value, str):
                return value.strip().lower() in ("1", "true", "yes", "on")
            return bool(value)
        if name in (
            "max_document_chars",
            "debounce_ms",
            "model_concurrency",
            "model_retries",
            "model_passage_tokens",
        ):
            n = int(value)
            if name in ("model_concurrency", "model_passage_tokens") and n < 1:
                raise ConfigError(f"{name} must be at least 1")
            if n < 0:
                raise ConfigError(f"{name} must not be negative")
            return n
        if name in ("http_timeout_s", "model_timeout_s", "model_deadline_s"):
            x = float(value)
            if not x > 0:
                raise ConfigError(f"{name} must be a positive number of seconds")
            return x
        if name == "model_url":
            if value in (None, ""):
                return None
            url = str(value).strip()
            if not url.lower().startswith(("http://", "https://")):
                raise ConfigError(f"model_url must be an http(s) URL, not {url!r}")
            return url
        if name in ("uscode_url", "ecfr_url"):
            url = str(value).strip()
            if not url.lower().startswith(("http://", "https://")):
                raise ConfigError(f"{name} must be an http(s) URL, not {url!r}")
            return url
        if name == "model_protocol":
            protocol = str(value).strip().lower()
            if protocol not in ("judgment", "yes-no"):
                raise ConfigError(f'model_protocol must be "judgment" or "yes-no", not {value!r}')
            return protocol
        if name == "cannot_verify_diagnostics":
            if str(value).strip().lower() not in CANNOT_VERIFY_DISPLAY:
                raise ConfigError(
                    f"cannot_verify_diagnostics must be one of {', '.join(CANNOT_VERIFY_DISPLAY)}, "
                    f"not {value!r}"
                )
            return str(value).strip().lower()
        if name == "cap_budget_s":
            if isinstance(value, str) and value.strip().lower() in ("", "none", "unlimited"):
                return None
            if float(value) <= 0:
                raise ConfigError(f"cap_budget_s must be positive, not {value!r}")
            return float(value)
        if name == "token_hosts":
            items = value.split(",") if isinstance(value, str) else list(value)
            return frozenset(str(s).strip().lower() for s in items if str(s).strip())
        if name == "courtlistener_budget_s":
            if isinstance(value, str) and value.strip().lower() in ("", "none", "wait", "unlimited"):
                return None
            budget = float(value)
            if budget <= 0:
                raise ConfigError(f"courtlistener_budget_s must be positive, not {value!r}")
            return budget
        if name in ("courtlistener_rates", "courtlistener_citation_rate"):
            from citecheck.sources.pacing import parse_rates

            parse_rates(str(value))  # a typo is a config error now, not a surprise at the first lookup
            return str(value)
        if name == "languages":
            items = value.split(",") if isinstance(value, str) else list(value)
            return tuple(s.strip() for s in items if s.strip())
        if name == "enabled_checks":
            if value is None:
                return None
            items = value.split(",") if isinstance(value, str) else list(value)
            unknown = [s for s in items if s.strip() and s.strip() not in {k.value for k in Kind}]
            if unknown:
                raise ConfigError(f"unknown check(s) in enabled_checks: {', '.join(unknown)}")
            return frozenset(s.strip() for s in items if s.strip())
        if name == "severity_overrides":
            if isinstance(value, str):  # "misquote=warning,name-misspelled=error"
                value = dict(p.split("=", 1) for p in value.split(",") if "=" in p)
            out = {}
            for k, v in dict(value).items():
                if k not in {kk.value for kk in Kind}:
                    raise ConfigError(f"unknown finding kind in severity overrides: {k}")
                out[k] = Severity(str(v).lower())
            return out
        if name == "question":
            if value in (None, ""):
                return None
            if str(value).strip().lower() not in ("federal", "state"):
                raise ConfigError(f'question must be "federal" or "state", not {value!r}')
            return str(value).strip().lower()
        if name in ("courtlistener_token", "serve_token", "model_name", "model_api_key", "court"):
            return str(value) if value not in (None, "") else None
        return str(value)
    except ConfigError:
        raise
    except (ValueError, TypeError) as exc:
        raise ConfigError(f"bad value for {name}: {value!r} ({exc})") from exc


def settings_from_mapping(
    data: Mapping[str, Any], base: Settings | None = None, *, user_level: bool = False
) -> Settings:
    """Apply a mapping (TOML table, LSP options) on top of ``base``; unknown keys are ignored.

    Keys in ``USER_LEVEL_ONLY`` are ignored unless ``user_level`` (the environment, flags): a
    folder's ``citecheck.toml`` or a workspace setting cannot let the token go elsewhere.

    >>> s = settings_from_mapping({"corpusPath": "/tmp/c.sqlite", "capFetch": False})
    >>> (str(s.corpus_path), s.cap_fetch)
    ('/tmp/c.sqlite', False)
    """
    base = base or Settings()
    changes: dict[str, Any] = {}
    for raw_key, value in data.items():
        key = _key(raw_key)
        if key in _FIELDS and value is not None and (user_level or key not in USER_LEVEL_ONLY):
            changes[key] = _coerce(key, value)
    return replace(base, **changes)


def settings_from_env(environ: Mapping[str, str], base: Settings | None = None) -> Settings:
    """``CITECHECK_CORPUS_PATH`` → corpus_path, etc.; ``CITECHECK_COURTLISTENER_TOKEN`` too.

    >>> settings_from_env({"CITECHECK_OFFLINE": "1"}).offline
    True
    """
    data = {}
    for k, v in environ.items():
        if k.startswith("CITECHECK_"):
            name = k[len("CITECHECK_") :].lower()
            data[{"corpus": "corpus_path", "cache": "cache_path", "index": "index_path"}.get(name, name)] = v
    return settings_from_mapping(data, base, user_level=True)


#: The hosts the CourtListener token is for.
OFFICIAL_COURTLISTENER_HOSTS = frozenset({"www.courtlistener.com", "courtlistener.com"})
_LOOPBACK = frozenset({"127.0.0.1", "::1", "localhost"})


def token_refusal(url: str, allowed: frozenset[str] = frozenset()) -> str | None:
    """Why the CourtListener token must not be sent to ``url``, or None when it may.

    The token goes over https to the official host; another host only when the user allowed it
    (``CITECHECK_TOKEN_HOSTS``), and then over https too unless it is this machine (loopback).

    >>> token_refusal("https://www.courtlistener.com/api/rest/v4/") is None
    True
    >>> token_refusal("http://evil.example/api/") is not None
    True
    """
    from urllib.parse import urlsplit

    try:
        parts = urlsplit(url)
        host = (parts.hostname or "").lower()
        port = parts.port
    except ValueError:
        return f"CourtListener URL {url!r} is not a valid URL; the token was not sent"
    scheme = parts.scheme.lower()
    if host in OFFICIAL_COURTLISTENER_HOSTS and port in (None, 443):
        if scheme == "https":
            return None
        return f"CourtListener URL {url} is not https; the token is sent only over https"
    named = {host, f"{host}:{port}"} if port is not None else {host}
    if not named & allowed:
        return (
            f"CourtListener URL {url} is not the official host; the token is sent there only if you "
            f"allow it in your own environment: CITECHECK_TOKEN_HOSTS={host}"
        )
    if scheme != "https" and host not in _LOOPBACK:
        return f"CourtListener URL {url} is not https; the token is sent only over https"
    return None
