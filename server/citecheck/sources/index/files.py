"""Which file is the index: swapping a finished build in while readers have the old one open.

A build writes ``<index>.new`` and renames it over ``<index>`` (``os.replace``: atomic, and on POSIX
a reader that has the old file open keeps reading it until it reopens). **Windows** refuses to
replace a file another process has open — SQLite opens it without ``FILE_SHARE_DELETE`` and maps
it — so while a language server or the Word backend reads the index, the rename fails with a
``PermissionError``. The fallback: the finished build is renamed to ``<index>.next`` instead (a file
nobody has open), and every reader opens the newer of the two (``current``); a reader that finds a
``.next`` first tries to rename it over the index itself, which works once no process holds the old
file. So the new index is used at once by every process that opens or refreshes the index (the
language server within ``source.REFRESH_EVERY_S``), the old file stays until its last reader lets
go, and the next build or reader puts the new one in place. On POSIX a ``.next`` never appears.
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path

#: What replaces a file; a test stands a Windows-like refusal in for it.
replace = os.replace


def pending_path(index: Path) -> Path:
    """Where a finished build waits when the index could not be replaced (Windows)."""
    return index.with_name(index.name + ".next")


def _mtime(path: Path) -> int | None:
    try:
        return path.stat().st_mtime_ns
    except OSError:
        return None


def current(index: Path, *, promote: bool = True) -> Path:
    """The file to read: ``<index>``, or a newer finished build waiting at ``<index>.next``.

    With ``promote`` a waiting build is first renamed over the index (which fails, harmlessly, while
    another process holds the old file open on Windows: then the ``.next`` file is read directly)."""
    nxt = pending_path(index)
    t_next = _mtime(nxt)
    if t_next is None:
        return index
    t_index = _mtime(index)
    if t_index is not None and t_index > t_next:
        if promote:  # a stale build a later one superseded; delete it when nobody holds it
            with contextlib.suppress(OSError):
                nxt.unlink()
        return index
    if promote:
        try:
            replace(nxt, index)
            return index
        except OSError:
            pass
    return nxt


def swap_in(new: Path, index: Path) -> bool:
    """Rename the finished build ``new`` over ``index``; True if it is in place, False if it waits as
    ``<index>.next`` because a reader holds the index open (Windows; see the module docstring)."""
    try:
        replace(new, index)
    except PermissionError:
        nxt = pending_path(index)
        try:
            replace(new, nxt)
        except PermissionError as exc:  # an older waiting build that a reader holds, too
            raise PermissionError(
                f"{index} and {nxt} are both open in another program (a citecheck language server or "
                "Word backend?); close it and run the sync again"
            ) from exc
        return False
    with contextlib.suppress(OSError):
        pending_path(index).unlink()  # a build that waited before this one
    return True


def side_files(index: Path) -> list[Path]:
    """Every file a build or a sync writes or deletes beside ``index``."""
    new = index.with_name(index.name + ".new")
    stage = new.with_name(new.name + "-stage")
    return [
        index.with_name(index.name + ".lock"),
        pending_path(index),
        *(
            p.with_name(p.name + s)
            for p in (index, new, stage)
            for s in ("", "-journal", "-wal", "-shm")
            if p != index
        ),
        *(index.with_name(index.name + s) for s in ("-journal", "-wal", "-shm")),
    ]


def check_writable(index: Path, *, flag: str = "--index", command: str = "corpus sync") -> Path:
    """``index`` (links followed) when a build may write there — nothing yet, or a citation index — and
    nothing beside it is a link, a folder or a device; ConfigError saying what is there otherwise
    (``sources/targets.py``: a corpus, the cache, a .docx, /dev/null were replaced before)."""
    from citecheck.sources.targets import check_side_files, check_target

    target = check_target(index, flag=flag, kind="citation index", command=command)
    check_side_files(side_files(target), flag=flag)
    return target
