"""One writer per file: ``<file>.lock``, an OS lock released when the process ends (even by kill -9).

A second ``corpus sync`` of the same citation index, or of the same statute index, is told who holds
it (``SyncBusy``) instead of racing the first: both used to download into the same ``.part`` and end
in "FileNotFoundError … part" (issue 35). The holder's pid is written into the lock file for that
message, best effort: on a full disk the lock still holds and the free-space check that follows says
what is wrong (writing it used to fail first, as "OSError 28").
"""

from __future__ import annotations

import contextlib
import os
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from citecheck.errors import SyncBusy

__all__ = ["SyncLock", "lock_path"]


def lock_path(target: Path) -> Path:
    return target.with_name(target.name + ".lock")


class SyncLock:
    """``<target>.lock`` held by one writer of ``target``; a second gets SyncBusy naming the holder."""

    def __init__(self, target: Path, *, doing: str = "building") -> None:
        self.target = target
        self.path = lock_path(target)
        self.doing = doing
        self._fh: Any = None

    def __enter__(self) -> SyncLock:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fh = self.path.open("a+", encoding="utf-8")
        try:
            _try_lock(fh)
        except OSError:
            fh.seek(0)
            holder = fh.read().strip() or "another process"
            fh.close()
            raise SyncBusy(
                f"another citecheck sync is {self.doing} {self.target} ({holder}); "
                "wait for it to finish, then run this again if you still need to"
            ) from None
        with contextlib.suppress(OSError):  # only for the message above; a full disk must not stop here
            fh.seek(0)
            fh.truncate()
            fh.write(f"pid {os.getpid()}, since {datetime.now(UTC).strftime('%Y-%m-%d %H:%M:%S UTC')}")
            fh.flush()
        self._fh = fh
        return self

    def __exit__(self, *exc: object) -> None:
        if self._fh is not None:
            with contextlib.suppress(OSError):
                self._fh.seek(0)
                self._fh.truncate()
            with contextlib.suppress(OSError):
                self._fh.close()  # closing releases the lock
            self._fh = None


def _try_lock(fh: Any) -> None:
    try:
        import fcntl
    except ImportError:  # Windows
        import msvcrt

        fh.seek(0)
        msvcrt.locking(fh.fileno(), msvcrt.LK_NBLCK, 1)  # type: ignore[attr-defined,unused-ignore]
        return
    fcntl.flock(fh.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
