"""Where settings come from on disk and in the environment, layered into one ``Settings``.

The pure parsers live in ``citecheck.config``; this module is the edge that reads
``citecheck.toml`` / ``[tool.citecheck]`` in ``pyproject.toml`` and ``CITECHECK_*`` variables, so
the CLI and the language server resolve settings the same way:

    defaults → the user's settings file → the folder's config file (or --config) → environment → flags

Each file is read as the layer it is (``citecheck.config.Layer``): the folder's own ``citecheck.toml``
cannot set what names a host, a key or a file (it is warned about and ignored), nor loosen what decides
whether something leaves the machine (``offline``, ``holdings``, ``cap_fetch``, … — ``Who.STRICTER``);
the user's settings file and a file the user names (``--config``, ``CITECHECK_CONFIG``) can; no file can
hold a secret.
"""

from __future__ import annotations

import logging
import os
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from citecheck.config import (
    SPECS,
    Layer,
    Settings,
    env_settings,
    key_warnings,
    setting_name,
    settings_from_mapping,
    unknown_env,
    user_config_path,
)
from citecheck.config import parsers as p
from citecheck.errors import ConfigError

log = logging.getLogger(__name__)

CONFIG_NAME = "citecheck.toml"
#: settings that name a file (corpus, cache, citation index, statute index: every ``parse=p.path`` row)
_PATH_SETTINGS = frozenset(name for name, spec in SPECS.items() if spec.parse is p.path)


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
    table = dict(table)
    for key, value in table.items():
        if setting_name(key) in _PATH_SETTINGS and isinstance(value, str) and value:
            given = Path(value).expanduser()
            table[key] = str(given if given.is_absolute() else (path.parent / given).resolve())
    return table


def _apply_file(settings: Settings, path: Path, layer: Layer) -> Settings:
    table = read_config_file(path)
    for warning in key_warnings(table, str(path), layer, base=settings):
        log.warning("%s", warning)
    return settings_from_mapping(table, settings, layer=layer)


def _environment_layer(settings: Settings, environ: Mapping[str, str]) -> Settings:
    for warning in unknown_env(environ):
        log.warning("%s", warning)
    return settings_from_mapping(env_settings(environ), settings, layer=Layer.USER)


def load_user_settings(
    environ: Mapping[str, str] | None = None, *, user_file: Path | None = None
) -> Settings:
    """The user's own layers, for the language server: the user settings file, then the environment.

    A missing user settings file is no error (most users have none); a broken one is.
    """
    environ = os.environ if environ is None else environ
    settings = Settings()
    user_file = user_config_path() if user_file is None else user_file
    if user_file.is_file():
        settings = _apply_file(settings, user_file, Layer.USER_FILE)
    return _environment_layer(settings, environ)


def load_settings(
    *,
    config_file: Path | None = None,
    cwd: Path | None = None,
    environ: Mapping[str, str] | None = None,
    overrides: Mapping[str, Any] | None = None,
    user_file: Path | None = None,
) -> tuple[Settings, Path | None]:
    """Settings from every layer, and the config file used (None when there was none).

    Args:
        config_file: an explicit file (``--config``), read as the user's; otherwise one is searched from
            ``cwd`` up, and read as the folder's (it cannot choose hosts, keys or files).
        cwd: where the search starts (the current directory by default).
        environ: the environment (``os.environ`` by default); ``CITECHECK_CONFIG`` names a file too.
        overrides: flags, keyed like the TOML keys (``{"offline": True, "corpus": "x.sqlite"}``).
        user_file: the user's settings file (default: ``config.user_config_path()``).
    """
    environ = os.environ if environ is None else environ
    layer = Layer.USER_FILE
    if config_file is None and environ.get("CITECHECK_CONFIG"):
        config_file = Path(environ["CITECHECK_CONFIG"])
    user_file = user_config_path() if user_file is None else user_file
    if config_file is None:
        config_file = find_config_file(cwd or Path.cwd())
        layer = Layer.FOLDER
    settings = Settings()
    if user_file.is_file():
        if config_file is not None and config_file.resolve() == user_file.resolve():
            layer = Layer.USER_FILE  # the search found the user's own file: read it once, as theirs
        else:
            settings = _apply_file(settings, user_file, Layer.USER_FILE)
    if config_file is not None:
        settings = _apply_file(settings, config_file, layer)
    settings = _environment_layer(settings, environ)
    if overrides:
        settings = settings_from_mapping(
            {k: v for k, v in overrides.items() if v is not None}, settings, layer=Layer.USER
        )
    return settings, config_file
