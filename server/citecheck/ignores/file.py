"""``.citecheck/ignore.json`` on disk: the file I/O half of the ignore list (``ignores.py`` is the rest).

The language server keeps one ``IgnoreStore`` per workspace and writes it when the user dismisses a
finding; ``citecheck check`` reads the nearest ``.citecheck/ignore.json`` above the current
directory (``--no-ignore`` shows everything). A file that cannot be read is a warning and an empty
list, never a failure: dismissals hide findings, they must not stop a check.
"""

from __future__ import annotations

import logging
import os
from pathlib import Path

from citecheck.errors import InputError
from citecheck.ignores import IgnoreKey, IgnoreList

log = logging.getLogger(__name__)

IGNORE_DIR = ".citecheck"
IGNORE_NAME = "ignore.json"


def ignore_path(root: str | os.PathLike[str]) -> Path:
    return Path(root) / IGNORE_DIR / IGNORE_NAME


def find_ignore_file(start: Path) -> Path | None:
    """The nearest ``.citecheck/ignore.json`` in ``start`` or a folder above it."""
    for folder in (start, *start.parents):
        candidate = ignore_path(folder)
        if candidate.is_file():
            return candidate
    return None


def read_ignore_list(path: Path | None) -> IgnoreList:
    """The keys in ``path``; empty (with a logged warning) when it is missing or unreadable."""
    if path is None or not path.exists():
        return IgnoreList()
    try:
        return IgnoreList.from_json_text(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        log.warning("cannot read %s (%s); starting with an empty ignore list", path, exc)
        return IgnoreList()


def write_ignore_list(path: Path, ignores: IgnoreList) -> None:
    """Replace ``path`` atomically (a crash never leaves half a file)."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(".json.tmp")
        tmp.write_text(ignores.to_json_text(), encoding="utf-8")
        os.replace(tmp, path)
    except OSError as exc:
        raise InputError(f"cannot write the ignore list {path}: {exc.strerror or exc}") from exc


class IgnoreStore:
    """The ignore list of one workspace; ``path=None`` keeps it in memory (no workspace folder)."""

    def __init__(self, path: Path | None) -> None:
        self.path = path
        self.keys = IgnoreList()
        self.load()

    @classmethod
    def for_root(cls, root: str | os.PathLike[str] | None) -> IgnoreStore:
        return cls(ignore_path(root) if root else None)

    def load(self) -> None:
        self.keys = read_ignore_list(self.path)

    def save(self) -> None:
        if self.path is not None:
            write_ignore_list(self.path, self.keys)

    def add(self, key: IgnoreKey) -> None:
        self.keys = self.keys.adding(key)
        self.save()

    def __len__(self) -> int:
        return len(self.keys)

    def __contains__(self, key: object) -> bool:
        return key in self.keys

    def ignores(self, key: IgnoreKey) -> bool:
        return self.keys.ignores(key)


__all__ = ["IgnoreStore", "find_ignore_file", "ignore_path", "read_ignore_list", "write_ignore_list"]
