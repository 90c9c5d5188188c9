"""A small file system of its own for tests of a full disk (never shipped): a tmpfs mounted on a folder
the test created, unmounted when the test ends. Mounting needs root (CAP_SYS_ADMIN); elsewhere the test
is skipped with the reason, inside the test."""

from __future__ import annotations

import contextlib
import errno
import os
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

__all__ = ["fill", "small_disk"]


@contextlib.contextmanager
def small_disk(folder: Path, size: int) -> Iterator[Path]:
    """``folder`` as a tmpfs of ``size`` bytes for the duration; pytest.skip when it cannot be mounted."""
    import pytest

    folder.mkdir(parents=True, exist_ok=True)
    if os.name != "posix" or os.geteuid() != 0 or shutil.which("mount") is None:
        pytest.skip("a full-disk test needs root to mount a small tmpfs of its own")
    done = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", f"size={size},mode=0700", "tmpfs", str(folder)],
        capture_output=True,
        text=True,
        timeout=10,
    )
    if done.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here ({done.stderr.strip() or done.returncode})")
    try:
        yield folder
    finally:
        subprocess.run(["umount", "-l", str(folder)], capture_output=True, timeout=10)


def fill(folder: Path, leave: int = 0) -> None:
    """Write ``folder/filler`` until at most ``leave`` bytes are free."""
    chunk = b"\0" * (1 << 16)
    with (folder / "filler").open("wb") as fh:
        while shutil.disk_usage(folder).free > leave:
            try:
                fh.write(chunk if shutil.disk_usage(folder).free - leave >= len(chunk) else b"\0" * 4096)
                fh.flush()
            except OSError as exc:
                if exc.errno != errno.ENOSPC:
                    raise
                break
