"""The files a sync writes, checked before the first byte: a file of the kind it writes, or nothing yet.

``corpus sync --index PATH`` renames a new index over ``PATH``; pointed at a corpus, the cache, a
``brief.docx`` or (as root) ``/dev/null``, it used to replace it (issue 35). So every path a sync or a
build writes is checked here first, the way ``--statutes-path`` and ``check --corpus`` refuse a file of
another kind:

- the file itself (``check_target``): absent, or a regular file that is already that kind of file
  (a citation index, a statute index); anything else — a corpus, the cache, another SQLite database, a
  document, an empty file, a folder, a device, a pipe — is refused in one line that says what it is;
- the files beside it (``check_side_files``: lock, ``.new``, ``.next``, downloads, ``.part``): absent or
  plain files, never a link, a folder or a device that a write or an unlink would go through;
- the folders downloads go to (``check_folder``): absent or a folder.

A link to the index itself is followed (an index kept on another disk); the build then happens beside
the real file. Nothing here writes.
"""

from __future__ import annotations

import os
import sqlite3
import stat
from collections.abc import Iterable
from pathlib import Path
from urllib.parse import quote

from citecheck.errors import ConfigError

__all__ = ["check_folder", "check_side_files", "check_target", "what_is"]

_SQLITE = b"SQLite format 3\x00"
#: tables that tell citecheck's own files apart (sources/index/schema.py, sources/corpus.py, sources/cache.py)
_KINDS = (
    ("citation index", {"meta", "cites", "reporters"}),
    ("citecheck corpus", {"meta", "cases", "citations"}),
    ("citecheck cache", {"lookups", "records"}),
)


def _tables(path: Path) -> tuple[set[str], dict[str, str]] | None:
    """The tables of a SQLite file and its ``meta`` (None: SQLite cannot read it)."""
    try:
        db = sqlite3.connect(f"file:{quote(str(path))}?mode=ro&immutable=1", uri=True)
    except sqlite3.Error:
        return None
    try:
        tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        meta: dict[str, str] = {}
        if "meta" in tables:
            try:
                meta = {str(k): str(v) for k, v in db.execute("SELECT key, value FROM meta").fetchall()}
            except sqlite3.Error:
                meta = {}
        return tables, meta
    except sqlite3.Error:
        return None
    finally:
        db.close()


def what_is(path: Path) -> str:
    """What a regular file is, in a few words: ``"citation index"``, ``"statute index"``, ``"citecheck
    corpus"``, ``"citecheck cache"``, ``"another SQLite database"``, ``"an empty file"``, ``"a zip file
    (a .docx?)"``, ``"a PDF"`` or ``"not a database"``."""
    try:
        with path.open("rb") as fh:
            head = fh.read(len(_SQLITE))
    except OSError as exc:
        return f"unreadable ({exc.strerror or exc})"
    if not head:
        return "an empty file"
    if head.startswith(b"PK\x03\x04"):
        return "a zip file (a .docx?)"
    if head.startswith(b"%PDF"):
        return "a PDF"
    if head != _SQLITE:
        return "not a database"
    found = _tables(path)
    if found is None:
        return "a damaged SQLite database"
    tables, meta = found
    if meta.get("kind") == "citecheck-statutes":
        return "statute index"
    for kind, needs in _KINDS:
        if needs <= tables:
            return kind
    return "another SQLite database" if tables else "an empty SQLite database"


def _odd(mode: int) -> str | None:
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISLNK(mode):
        return "a link"
    if stat.S_ISREG(mode):
        return None
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISFIFO(mode):
        return "a pipe"
    return "a socket or other special file"


def _os_error(flag: str, path: Path, exc: OSError) -> ConfigError:
    return ConfigError(f"{flag} {path}: {exc.strerror or exc}")


def check_target(path: Path, *, flag: str, kind: str, command: str) -> Path:
    """``path`` (links followed) when ``command`` may write a ``kind`` there: nothing is there yet, or it is
    one (then it is updated or replaced); ConfigError naming what it is otherwise.

    ``kind`` is one of ``what_is``'s words (``"citation index"``, ``"statute index"``)."""
    given = path.expanduser()
    try:
        st = given.stat()
    except FileNotFoundError:
        if given.is_symlink():
            raise ConfigError(
                f"{flag} {path} is a link to nothing, not a {kind}; {command} would write through it: choose a "
                "new path"
            ) from None
        return given.absolute()
    except OSError as exc:  # a name too long, a component that is a file, no permission
        raise _os_error(flag, path, exc) from exc
    odd = _odd(st.st_mode)
    what = what_is(given) if odd is None else odd
    if what == kind:
        return given.resolve()
    article = "" if what.startswith(("a ", "an ", "not ", "unreadable", "another")) else "a "
    raise ConfigError(
        f"{flag} {path} is {article}{what}, not a {kind}; {command} writes a {kind} there and would replace "
        f"it: choose a new path (or delete that file first if you mean to)"
    )


def check_side_files(paths: Iterable[Path], *, flag: str) -> None:
    """ConfigError when one of ``paths`` (written or deleted beside a target) is there and is not a plain
    file: a link, a folder, a device or a pipe that a write or an unlink would go through."""
    for p in paths:
        try:
            mode = os.lstat(p).st_mode
        except FileNotFoundError:
            continue
        except OSError as exc:
            raise _os_error(flag, p, exc) from exc
        if (odd := _odd(mode)) is not None:
            raise ConfigError(
                f"{flag}: {p} is {odd}, not a file citecheck wrote; move it away and run this again"
            )


def check_folder(folder: Path, *, flag: str) -> None:
    """ConfigError when ``folder`` (where downloads go) is there and is not a folder (a link to one is fine)."""
    try:
        mode = folder.stat().st_mode
    except FileNotFoundError:
        return
    except OSError as exc:
        raise _os_error(flag, folder, exc) from exc
    if not stat.S_ISDIR(mode):
        raise ConfigError(
            f"{flag}: {folder} is {_odd(mode) or 'a file'}, not a folder; move it away and run this again"
        )
