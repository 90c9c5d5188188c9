"""INPUT → the documents of a batch: folders (recursively), globs, files, and ``@FILE`` lists of paths.

Paths are made absolute (a worker on another node, a rerun from another folder: the same name for the
same document) but links are not resolved (the name a user gave is the name in the tables).
"""

from __future__ import annotations

import glob
import os
from collections.abc import Iterable, Iterator
from pathlib import Path

from citecheck.errors import InputError

#: What a folder or glob contributes: the formats ``read_input`` reads (a named file is taken whatever it is).
SUFFIXES = frozenset({".docx", ".pdf", ".md", ".markdown", ".txt", ".text"})
_GLOB_CHARS = frozenset("*?[")


def expand_inputs(inputs: Iterable[str]) -> list[str]:
    """Every document the inputs name, absolute, each once, in the order given (a folder's and a glob's
    in sorted order, so two runs list them alike).

    Raises:
        InputError: an input that names nothing (a missing path, a glob that matches no document, an
            unreadable list file).
    """
    seen: set[str] = set()
    out: list[str] = []
    for item in inputs:
        found = list(_expand_one(item))
        if not found:
            raise InputError(f"{item}: no .docx, .pdf, .md or .txt document there")
        for path in found:
            if path not in seen:
                seen.add(path)
                out.append(path)
    return out


def _expand_one(item: str) -> Iterator[str]:
    if item.startswith("@"):
        yield from _from_list(Path(item[1:]).expanduser())
        return
    path = Path(item).expanduser()
    if path.is_dir():
        yield from _walk(path)
    elif path.exists():
        yield os.path.abspath(path)
    elif _GLOB_CHARS & set(item):
        for match in sorted(glob.glob(str(path), recursive=True)):
            p = Path(match)
            if p.is_dir():
                yield from _walk(p)
            elif p.suffix.lower() in SUFFIXES and p.is_file():
                yield os.path.abspath(p)
    else:
        raise InputError(f"{item}: no such file or folder")


def _walk(folder: Path) -> Iterator[str]:
    """A folder's documents, recursively, sorted; hidden files and folders (``.git``, ``.citecheck``) skipped."""
    for root, dirs, files in os.walk(folder):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        for name in sorted(files):
            if not name.startswith(".") and Path(name).suffix.lower() in SUFFIXES:
                yield os.path.abspath(os.path.join(root, name))


def _from_list(listing: Path) -> Iterator[str]:
    """One path a line (blank lines and ``#`` comments skipped); relative paths are relative to the list."""
    try:
        lines = listing.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(f"@{listing}: cannot read the list of documents ({exc})") from exc
    for line in lines:
        entry = line.strip()
        if not entry or entry.startswith("#"):
            continue
        p = Path(entry).expanduser()
        if not p.is_absolute():
            p = listing.parent / p
        yield os.path.abspath(p)  # a listed file that is missing becomes that document's error row
