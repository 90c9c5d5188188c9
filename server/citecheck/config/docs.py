"""The table of ``docs/settings.md``, rendered from the settings table (``citecheck.config.SPECS``).

``tests/test_settings_docs.py`` keeps the file's table equal to ``settings_table()``; after adding or
changing a setting, rewrite it with ``CITECHECK_REGEN_GOLDEN=1 python -m pytest -q tests/test_settings_docs.py``.
"""

from __future__ import annotations

from dataclasses import MISSING, fields
from enum import Enum
from pathlib import Path
from typing import Any

from citecheck.config import SPECS, Settings, Who, env_names

BEGIN = "<!-- settings table: generated from citecheck/config/__init__.py; do not edit by hand -->"
END = "<!-- end of settings table -->"

_WHO = {
    Who.FOLDER: "anyone (a folder's citecheck.toml too)",
    Who.USER: "**you only**: your settings file, `--config`, environment, flags, editor user settings",
    Who.SECRET: "**you only, never a file**: environment, flags, editor secret store",
    Who.STRICTER: "anyone, but a folder's citecheck.toml or workspace settings may only {}",
}


def _shown(value: Any) -> str:
    if value is None:
        return "none"
    if isinstance(value, bool):
        return f"`{str(value).lower()}`"
    if isinstance(value, Enum):
        return f"`{value.value}`"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if isinstance(value, str | Path):
        return f"`{value}`"
    return str(value)


def _default(name: str) -> str:
    spec = SPECS[name]
    if spec.shown_default is not None:
        return spec.shown_default
    f = next(f for f in fields(Settings) if f.name == name)
    return _shown(f.default if f.default is not MISSING else None)


def settings_table() -> str:
    """The markdown table: one row per setting, in the order of the table."""
    rows = [
        "| config key | environment variable | editor key (`citecheck.…`) | who may set it | meaning | default |",
        "|---|---|---|---|---|---|",
    ]
    for name, spec in SPECS.items():
        snake = [a for a in spec.aliases if a.islower() or "_" in a]
        key = f"`{name}`" + (f" (also {', '.join(f'`{a}`' for a in snake)})" if snake else "")
        env = list(env_names(name))
        var = f"`{env[0]}`" + (f" (also {', '.join(f'`{v}`' for v in env[1:])})" if env[1:] else "")
        editor = f"`{spec.editor}`" if spec.editor else "—"
        who = _WHO[spec.who].format(spec.stricter_doc)
        rows.append(f"| {key} | {var} | {editor} | {who} | {spec.doc} | {_default(name)} |")
    return "\n".join(rows) + "\n"


def with_table(doc: str) -> str:
    """``doc`` with the text between the markers replaced by the current table."""
    head, _, rest = doc.partition(BEGIN)
    _, _, tail = rest.partition(END)
    return f"{head}{BEGIN}\n{settings_table()}{END}{tail}"
