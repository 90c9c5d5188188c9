"""One large file from a URL to a local path: streamed, resumable, checked; shared by every sync.

A bulk file is gigabytes (CourtListener's dockets dump is 4.5 GB) and a laptop's connection drops.
So the bytes go straight to ``<dest>.part`` as they arrive (never whole in memory), a sidecar
``<dest>.part.json`` remembers which object (URL, size, ETag) the part belongs to, and the next try
asks only for the rest (HTTP ``Range`` with ``If-Range``: if the object changed meanwhile, the
server sends it whole and the part is started again). The finished file must have the size the
listing gave and, where the ETag is a plain MD5 (a single-part upload), that MD5; otherwise it is
deleted and the error says so. Only then is it renamed to ``dest`` (with ``<dest>.json`` beside it,
so a later sync knows the file is complete and which object it was), which is atomic: a reader
never sees half a file under the final name.

Before it starts it checks the disk has room for what is left, and says how much is needed.
Progress (bytes, rate, ETA) goes to a callback; the caller draws it. This module chooses no URL
or path itself: callers pass URLs they checked and paths they built (``safe_names``).
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import httpx

from citecheck.errors import DiskSpaceError, DownloadError, SourceUnavailable

__all__ = [
    "DownloadProgress",
    "DownloadResult",
    "RemoteFile",
    "check_free_space",
    "download",
    "files_of",
    "format_bytes",
    "is_complete",
    "remove_download",
]

CHUNK = 1 << 20
#: Room kept free beyond what a download needs (file systems misbehave when full).
SPARE_BYTES = 256 << 20
_MD5 = re.compile(r'^"?([0-9a-f]{32})"?$')


@dataclass(frozen=True, slots=True, kw_only=True)
class RemoteFile:
    """What a listing says of one object: where it is, how big, which version (ETag)."""

    url: str
    size: int | None = None
    etag: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class DownloadProgress:
    """One progress report: ``done`` of ``total`` bytes, the rate of this session and the time left."""

    name: str
    done: int
    total: int | None
    rate: float  # bytes per second since this run started
    eta_s: float | None


@dataclass(frozen=True, slots=True, kw_only=True)
class DownloadResult:
    path: Path
    size: int
    fetched: int  # bytes transferred by this call (0: it was complete already)
    resumed_from: int  # bytes already there from an earlier, interrupted try


ProgressCallback = Callable[[DownloadProgress], None]


def format_bytes(n: float) -> str:
    """``1536`` → ``'1.5 KB'``.

    >>> format_bytes(0), format_bytes(1536), format_bytes(4.5 * 1024**3)
    ('0 B', '1.5 KB', '4.5 GB')
    """
    for unit in ("B", "KB", "MB", "GB", "TB"):
        if abs(n) < 1024 or unit == "TB":
            return f"{n:.0f} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1024
    raise AssertionError("unreachable")


def check_free_space(folder: Path, needed: int, what: str) -> None:
    """DiskSpaceError unless ``folder``'s file system has ``needed`` bytes (plus a spare) free."""
    folder.mkdir(parents=True, exist_ok=True)
    free = shutil.disk_usage(folder).free
    if free < needed + SPARE_BYTES:
        raise DiskSpaceError(
            f"{what} needs {format_bytes(needed + SPARE_BYTES)} free in {folder}, "
            f"but only {format_bytes(free)} is free; free some space (or choose another folder) and try again"
        )


def _part(dest: Path) -> Path:
    return dest.with_name(dest.name + ".part")


def _sidecar(path: Path) -> Path:
    return path.with_name(path.name + ".json")


def _read_sidecar(path: Path) -> dict[str, object]:
    try:
        data = json.loads(_sidecar(path).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def _write_sidecar(path: Path, remote: RemoteFile) -> None:
    _sidecar(path).write_text(json.dumps({"url": remote.url, "size": remote.size, "etag": remote.etag}))


def is_complete(dest: Path, remote: RemoteFile) -> bool:
    """``dest`` is this object, whole (downloaded before, checked then)."""
    if not dest.is_file():
        return False
    meta = _read_sidecar(dest)
    if remote.etag is not None and meta.get("etag") != remote.etag:
        return False
    if remote.size is not None and dest.stat().st_size != remote.size:
        return False
    return meta.get("url") == remote.url or remote.etag is not None


def _plain_md5(etag: str | None) -> str | None:
    """The MD5 an S3 ETag stands for; None for a multipart upload's ETag (``"…-12"``)."""
    m = _MD5.match(etag or "")
    return m.group(1) if m else None


class _Meter:
    def __init__(self, name: str, total: int | None, start: int, callback: ProgressCallback | None) -> None:
        self.name, self.total, self.done, self.callback = name, total, start, callback
        self._t0 = time.monotonic()
        self._start = start
        self._last = 0.0

    def add(self, n: int, *, final: bool = False) -> None:
        self.done += n
        now = time.monotonic()
        if self.callback is None or (not final and now - self._last < 0.2):
            return
        self._last = now
        elapsed = max(now - self._t0, 1e-6)
        rate = (self.done - self._start) / elapsed
        eta = (self.total - self.done) / rate if self.total is not None and rate > 0 else None
        self.callback(
            DownloadProgress(name=self.name, done=self.done, total=self.total, rate=rate, eta_s=eta)
        )


async def download(
    remote: RemoteFile,
    dest: Path,
    *,
    client: httpx.AsyncClient,
    progress: ProgressCallback | None = None,
) -> DownloadResult:
    """Fetch ``remote`` to ``dest``, resuming a ``.part`` left by an interrupted try.

    Raises DiskSpaceError before starting when the rest would not fit, SourceUnavailable when the
    connection fails (the part is kept: run again to resume), DownloadError when the server's answer
    or the finished file is not the object the listing described (the part is deleted).
    """
    from citecheck.sources.targets import check_side_files

    dest.parent.mkdir(parents=True, exist_ok=True)
    check_side_files(files_of(dest), flag=f"downloading {dest.name}")  # never written through a link
    if is_complete(dest, remote):
        return DownloadResult(path=dest, size=dest.stat().st_size, fetched=0, resumed_from=0)
    part = _part(dest)
    have = part.stat().st_size if part.is_file() else 0
    meta = _read_sidecar(part)
    same_object = meta.get("url") == remote.url and meta.get("etag") == remote.etag
    if have and (not same_object or (remote.size is not None and have > remote.size)):
        have = 0  # a part of another version of the file is worth nothing
    if remote.size is not None:
        check_free_space(dest.parent, remote.size - have, f"downloading {dest.name}")
    md5 = hashlib.md5(usedforsecurity=False) if _plain_md5(remote.etag) else None
    if have and md5 is not None:
        with part.open("rb") as fh:
            while block := fh.read(CHUNK):
                md5.update(block)
    headers = {"Accept-Encoding": "identity"}
    if have:
        headers["Range"] = f"bytes={have}-"
        if remote.etag:
            headers["If-Range"] = remote.etag
    resumed_from = have
    meter = _Meter(dest.name, remote.size, have, progress)
    try:
        async with client.stream("GET", remote.url, headers=headers) as response:
            if response.status_code == 416 and have and have == remote.size:
                pass  # the part is already whole (the last try died before renaming it)
            elif response.status_code == 206 and have:
                _check_range(response, have, remote)
            elif response.status_code == 200:
                if have:  # the server ignored the range or the object changed: start again
                    have = resumed_from = 0
                    meter = _Meter(dest.name, remote.size, 0, progress)
                    md5 = hashlib.md5(usedforsecurity=False) if md5 is not None else None
            else:
                raise DownloadError(f"{remote.url}: the server answered {response.status_code}")
            if response.status_code != 416:
                _write_sidecar(part, remote)
                with part.open("r+b" if have else "wb") as fh:
                    fh.seek(have)
                    fh.truncate()
                    async for block in response.aiter_bytes():  # as it arrives: a drop loses nothing
                        fh.write(block)
                        if md5 is not None:
                            md5.update(block)
                        meter.add(len(block))
                        if remote.size is not None and meter.done > remote.size:
                            raise DownloadError(
                                f"{remote.url}: the server sent more than the {remote.size} bytes listed"
                            )
    except httpx.HTTPError as exc:
        raise SourceUnavailable(
            f"downloading {dest.name} stopped at {format_bytes(meter.done)} ({exc.__class__.__name__}); "
            "run the same command again to resume"
        ) from exc
    except OSError as exc:
        if getattr(exc, "errno", None) == 28:  # ENOSPC
            raise DiskSpaceError(
                f"the disk filled up while downloading {dest.name}; free space and resume"
            ) from exc
        raise
    meter.add(0, final=True)
    size = part.stat().st_size
    _verify(part, remote, size, md5)
    os.replace(part, dest)
    _write_sidecar(dest, remote)
    _sidecar(part).unlink(missing_ok=True)
    return DownloadResult(path=dest, size=size, fetched=size - resumed_from, resumed_from=resumed_from)


def _check_range(response: httpx.Response, have: int, remote: RemoteFile) -> None:
    content_range = response.headers.get("Content-Range", "")
    m = re.match(r"bytes (\d+)-(\d+)/(\d+|\*)", content_range)
    if m is None or int(m.group(1)) != have:
        raise DownloadError(
            f"{remote.url}: asked for bytes from {have}, the server sent {content_range or 'no range'}"
        )
    if remote.size is not None and m.group(3).isdigit() and int(m.group(3)) != remote.size:
        raise DownloadError(
            f"{remote.url}: the server's file has {m.group(3)} bytes, the listing said {remote.size}"
        )


def _verify(part: Path, remote: RemoteFile, size: int, md5: hashlib._Hash | None) -> None:
    problem = None
    if remote.size is not None and size != remote.size:
        problem = f"it has {size} bytes, the listing said {remote.size}"
    elif md5 is not None and md5.hexdigest() != _plain_md5(remote.etag):
        problem = f"its MD5 {md5.hexdigest()} is not the ETag {remote.etag}"
    if problem is not None:
        part.unlink(missing_ok=True)
        _sidecar(part).unlink(missing_ok=True)
        raise DownloadError(
            f"the download of {remote.url} is not the listed file ({problem}); it was deleted"
        )


def files_of(dest: Path) -> tuple[Path, ...]:
    """Every file a download of ``dest`` writes: the file, its part and their sidecars."""
    return (dest, _sidecar(dest), _part(dest), _sidecar(_part(dest)))


def remove_download(dest: Path) -> None:
    """Forget a downloaded file and its part (after a build that used it, or to force a fresh one)."""
    for p in files_of(dest):
        p.unlink(missing_ok=True)
