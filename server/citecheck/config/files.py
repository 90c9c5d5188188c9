"""Where settings come from on disk and in the environment, layered into one ``Settings``.

The pure parsers live in ``citecheck.config``; this module is the edge that reads
``citecheck.toml`` / ``[tool.citecheck]`` in ``pyproject.toml`` and ``CITECHECK_*`` variables, so
the CLI and the language server resolve settings the same way:

    defaults → config file → environment → flags (or LSP options)
"""

from __future__ import annotations

import logging
import os
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from citecheck.config import Settings, settings_from_env, settings_from_mapping, unknown_env, unknown_keys
from citecheck.errors import ConfigError

log = logging.getLogger(__name__)

CONFIG_NAME = "citecheck.toml"
_PATH_KEYS = ("corpus", "corpus_path", "corpusPath", "cache", "cache_path", "cachePath")
#: Secrets a settings file may not carry (it may sit in the folder being checked): environment only.
_SECRET_KEYS = ("model_api_key", "modelApiKey", "model-api-key")


def find_config_file(start: Path) -> Path | None:
    """The nearest ``citecheck.toml``, or ``pyproject.toml`` with a ``[tool.citecheck]`` table.

    Walks from ``start`` up to the filesystem root; ``citecheck.toml`` wins over a
    ``pyproject.toml`` in the same folder.
    """
    start = start.resolve()
    for folder in (start, *start.parents):
        candidate = folder / CONFIG_NAME
        if candidate.is_file():
            return candidate
        pyproject = folder / "pyproject.toml"
        if pyproject.is_file() and _has_tool_table(pyproject):
            return pyproject
    return None


def _has_tool_table(pyproject: Path) -> bool:
    try:
        data = tomllib.loads(pyproject.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return False  # someone else's broken pyproject is not our config
    return isinstance(data.get("tool", {}).get("citecheck"), dict)


def read_config_file(path: Path) -> dict[str, Any]:
    """The citecheck table of a config file, with relative paths resolved against its folder.

    ``citecheck.toml`` may hold the keys at top level or under ``[citecheck]``; ``pyproject.toml``
    holds them under ``[tool.citecheck]``.
    """
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError as exc:
        raise ConfigError(f"config file not found: {path}") from exc
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"cannot read config file {path}: {exc}") from exc
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path} is not valid TOML: {exc}") from exc
    if path.name == "pyproject.toml":
        table = data.get("tool", {}).get("citecheck", {})
    elif isinstance(data.get("citecheck"), dict):
        table = data["citecheck"]
    else:
        table = data
    if not isinstance(table, dict):
        raise ConfigError(f"{path}: the citecheck settings must be a table")
    table = {k: v for k, v in table.items() if k not in _SECRET_KEYS}
    for key in _PATH_KEYS:
        value = table.get(key)
        if isinstance(value, str) and value:
            p = Path(value).expanduser()
            table[key] = str(p if p.is_absolute() else (path.parent / p).resolve())
    return table


def load_settings(
    *,
    config_file: Path | None = None,
    cwd: Path | None = None,
    environ: Mapping[str, str] | None = None,
    overrides: Mapping[str, Any] | None = None,
) -> tuple[Settings, Path | None]:
    """Settings from every layer, and the config file used (None when there was none).

    Args:
        config_file: an explicit file (``--config``); otherwise one is searched from ``cwd`` up.
        cwd: where the search starts (the current directory by default).
        environ: the environment (``os.environ`` by default); ``CITECHECK_CONFIG`` names a file too.
        overrides: flags, keyed like the TOML keys (``{"offline": True, "corpus": "x.sqlite"}``).
    """
    environ = os.environ if environ is None else environ
    if config_file is None and environ.get("CITECHECK_CONFIG"):
        config_file = Path(environ["CITECHECK_CONFIG"])
    if config_file is None:
        config_file = find_config_file(cwd or Path.cwd())
    settings = Settings()
    if config_file is not None:
        table = read_config_file(config_file)
        for warning in unknown_keys(table, str(config_file)):
            log.warning("%s", warning)
        settings = settings_from_mapping(table, settings)
    for warning in unknown_env(environ):
        log.warning("%s", warning)
    env = {k: v for k, v in environ.items() if k != "CITECHECK_CONFIG"}
    settings = settings_from_env(env, settings)
    if overrides:
        settings = settings_from_mapping(
            {k: v for k, v in overrides.items() if v is not None}, settings, user_level=True
        )
    return settings, config_file
