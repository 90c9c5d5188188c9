"""Names from downloaded or imported data, checked before they become part of a path.

A CAP ``CasesMetadata.json`` (from a mirror named in a folder's ``citecheck.toml``, or any volume a
user imports) is untrusted: its ``file_name`` ``../../x`` joined into a save path would write outside
the cache. Every importer passes such names through :func:`safe_component` and every path it builds
through :func:`inside`, so a bad name is refused (and counted), never followed.
"""

from __future__ import annotations

import re
from pathlib import Path

from citecheck.errors import ImportFormatError

__all__ = ["inside", "safe_component"]

#: One path component: letters, digits, ``.``, ``_``, ``-``; no leading dot; short.
_COMPONENT = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,127}")


def safe_component(name: object, what: str = "file name") -> str:
    """``name`` when it is one harmless path component; ImportFormatError otherwise.

    >>> safe_component("0450-01")
    '0450-01'
    """
    text = name if isinstance(name, str) else str(name) if isinstance(name, int) else ""
    if not _COMPONENT.fullmatch(text) or ".." in text:
        raise ImportFormatError(f"refused {what} {text[:80]!r}: not a plain file name")
    return text


def inside(folder: Path, *parts: str) -> Path:
    """``folder/parts…``, refusing any result that resolves outside ``folder`` (links included)."""
    base = folder.resolve()
    target = base.joinpath(*parts).resolve()
    if target != base and base not in target.parents:
        raise ImportFormatError(f"refused path {'/'.join(parts)[:80]!r}: outside {folder}")
    return target
