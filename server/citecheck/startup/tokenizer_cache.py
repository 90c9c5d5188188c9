"""The tokenizer's table (``extract/tokenizer.py``) kept in a file, so that a process tokenizes without
importing eyecite: about 0.5 s of a one-line ``citecheck check`` was eyecite's import and prefilter.

The file lives in the user's cache folder (``~/.cache/citecheck/tokenizer-N.table`` on Linux), named
for the table's format and keyed inside by the installed eyecite and reporters-db (their files' sizes
and times: an upgrade changes them). It is derived data, so anything wrong with it — missing,
unreadable, truncated, altered (its digest is checked), another version's, another format's — means
it is built again from eyecite and written again, silently; a folder that cannot be written only
costs each process the build. Reading it runs no code (JSON, not pickle).
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib.util
import logging
import os
import secrets
from pathlib import Path

import platformdirs

from citecheck.extract import eyecite_adapter
from citecheck.extract.tokenizer import FORMAT, TokenTable, build_table

log = logging.getLogger(__name__)

#: The packages the table is read out of: a change to any of their files makes another table.
_PACKAGES = ("eyecite", "reporters_db")


def default_path() -> Path:
    """Where the table is kept when nobody named a file."""
    return Path(platformdirs.user_cache_dir("citecheck", appauthor=False)) / f"tokenizer-{FORMAT}.table"


def installed_key(packages: tuple[str, ...] = _PACKAGES) -> str:
    """Which eyecite and reporters-db are installed, without importing them: the size and modification
    time of each of their source and data files."""
    h = hashlib.blake2b(digest_size=12)
    h.update(b"%d" % FORMAT)
    for name in packages:
        spec = importlib.util.find_spec(name)
        if spec is None or spec.origin is None:
            h.update(f"{name}:absent".encode())
            continue
        folder = Path(spec.origin).parent
        for sub in (folder, folder / "data"):
            with contextlib.suppress(OSError):
                for entry in sorted(os.scandir(sub), key=lambda e: e.name):
                    if entry.name.endswith((".py", ".json")) and entry.is_file():
                        st = entry.stat()
                        h.update(f"{name}/{entry.name}:{st.st_size}:{st.st_mtime_ns}\n".encode())
    return h.hexdigest()


def load_or_build(path: Path | None = None) -> TokenTable:
    """The table for the installed eyecite: from ``path`` when it holds that one, otherwise built (and
    written there for the next process)."""
    path = default_path() if path is None else path
    key = installed_key()
    try:
        table = TokenTable.from_bytes(path.read_bytes())
        if table.key == key:
            return table
        log.debug("tokenizer table %s is for another eyecite or reporters-db: rebuilt", path)
    except FileNotFoundError:
        pass
    except (OSError, ValueError) as exc:
        log.debug("tokenizer table %s unusable (%s): rebuilt", path, exc)
    table = build_table(key)
    try:
        _write(path, table.to_bytes())
    except OSError as exc:
        log.debug("tokenizer table not written to %s: %s", path, exc)
    return table


def _write(path: Path, data: bytes) -> None:
    """Write beside the file and rename over it: a reader never sees half a table."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{secrets.token_hex(4)}.tmp")
    try:
        with open(tmp, "xb") as f:
            f.write(data)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


class _Loader:
    """``load_or_build`` of one path, as the adapter's table loader (equal for the same path)."""

    def __init__(self, path: Path | None) -> None:
        self.path = path

    def __call__(self) -> TokenTable:
        return load_or_build(self.path)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Loader) and other.path == self.path

    def __hash__(self) -> int:
        return hash(self.path)


def install(path: Path | None = None) -> None:
    """Tokenize from the cached table in this process (and in the workers it forks). Installing the
    same file again keeps the tokenizer already built (a caller of ``citecheck.cli.main`` that goes on)."""
    loader = _Loader(path)
    if eyecite_adapter.table_loader() != loader:
        eyecite_adapter.use_table_loader(loader)
