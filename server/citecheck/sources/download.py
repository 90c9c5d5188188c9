"""One large file from a URL to a local path: streamed, resumable, checked; shared by every sync.

A bulk file is gigabytes (CourtListener's dockets dump is 4.5 GB) and a laptop's connection drops.
So the bytes go straight to ``<dest>.part`` as they arrive (never whole in memory), a sidecar
``<dest>.part.json`` remembers which object (URL, size, ETag) the part belongs to, and the next try
asks only for the rest (HTTP ``Range`` with ``If-Range``: if the object changed meanwhile, the
server sends it whole and the part is started again). The finished file must have the size the
listing gave and, where the ETag is a plain MD5 (a single-part upload), that MD5; otherwise it is
deleted and the error says so. A multipart upload's ETag (``"<md5 of the parts' md5s>-N"``) is checked
too when its part size is a whole number of MiB (``aws s3 cp``, which uploads CourtListener's dumps,
uses 8 MiB): every such size that gives N parts is tried as the bytes arrive. Only then is it renamed to
``dest`` (with ``<dest>.json`` beside it, so a later sync knows the file is complete, which object it
was and whether its bytes were checked — ``verified``), which is atomic: a reader never sees half a
file under the final name. A download that could not be checked and then fails to read is deleted by
the caller (``index/sync.py``), so the next sync fetches it again instead of reusing it forever.

Before it starts it checks the disk has room for what is left, and says how much is needed; while it
writes, it stops before the disk is full (``SPARE_BYTES``). A download of unknown size (every eCFR
title) may not pass ``max_bytes`` and its part is deleted when it stops (nothing to resume from).
Progress (bytes, rate, ETA) goes to a callback; the caller draws it. This module chooses no URL
or path itself: callers pass URLs they checked and paths they built (``safe_names``).
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import json
import os
import re
import shutil
import time
import zlib
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NamedTuple

import httpx

from citecheck.errors import DiskSpaceError, DownloadError, ImportFormatError, SourceUnavailable

__all__ = [
    "Answer",
    "DownloadProgress",
    "DownloadResult",
    "RemoteFile",
    "check_free_space",
    "download",
    "fetch_bounded",
    "files_of",
    "format_bytes",
    "is_complete",
    "reading",
    "remove_download",
    "verified",
]

CHUNK = 1 << 20
MIB = 1 << 20
#: Room kept free beyond what a download needs (file systems misbehave when full).
SPARE_BYTES = 256 << 20
#: A download whose size nobody said may not be larger than this (eCFR's largest title, 40, is ~1 GB).
MAX_UNKNOWN_BYTES = 8 << 30
#: How often (bytes written) a download looks at the free space again.
FREE_SPACE_EVERY = 64 << 20
#: Part sizes tried for one multipart ETag, at most.
MAX_PART_GUESSES = 6
#: Part sizes tools use (MiB), tried first when more whole-MiB sizes would give the ETag's part count.
_USUAL_PARTS = (8, 5, 16, 15, 64, 100, 32, 128, 256, 512, 1024)
_MD5 = re.compile(r'^"?([0-9a-f]{32})"?\Z')
_MULTIPART = re.compile(r'^"?([0-9a-f]{32})-([1-9][0-9]{0,4})"?\Z')


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


def _write_sidecar(path: Path, remote: RemoteFile, verified: str | None = None) -> None:
    meta = {"url": remote.url, "size": remote.size, "etag": remote.etag, "verified": verified}
    _sidecar(path).write_text(json.dumps(meta))


def verified(dest: Path) -> str | None:
    """How the bytes of a finished download were checked against the listing (``"md5"``, ``"multipart md5
    (8 MiB parts)"``), None when they could not be: only its size matched."""
    value = _read_sidecar(dest).get("verified")
    return value if isinstance(value, str) and value else None


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


def part_sizes(size: int, parts: int) -> list[int]:
    """Whole-MiB part sizes that split ``size`` bytes into ``parts`` parts (the usual ones first, at most
    ``MAX_PART_GUESSES``).

    >>> [p // MIB for p in part_sizes(100 * MIB, 13)], part_sizes(10, 1)
    ([8], [10])
    """
    if parts == 1:
        return [max(size, 1)]
    lo, hi = -(-size // parts), (size - 1) // (parts - 1)  # (parts - 1) * P < size <= parts * P
    first, last = -(-lo // MIB), hi // MIB
    if first > last:
        return []
    usual = [m * MIB for m in _USUAL_PARTS if first <= m <= last]
    rest = (m * MIB for m in range(first, last + 1) if m not in _USUAL_PARTS)
    out = usual[:MAX_PART_GUESSES]
    for p in rest:
        if len(out) >= MAX_PART_GUESSES:
            break
        out.append(p)
    return out


class _Checksum:
    """What the listing's ETag lets us check of the bytes as they arrive: a single-part upload's MD5, or a
    multipart upload's MD5 of its parts' MD5s for each part size it may have been uploaded in."""

    def __init__(self, etag: str | None, size: int | None) -> None:
        self.plain = _plain_md5(etag)
        self.whole = hashlib.md5(usedforsecurity=False) if self.plain else None
        m = _MULTIPART.match(etag or "")
        self.multi = m.group(1) if m else None
        self.parts = int(m.group(2)) if m else 0
        #: part size → [md5 of the current part, its bytes so far, digests of the finished parts]
        self.guesses: dict[int, list[Any]] = (
            {p: [hashlib.md5(usedforsecurity=False), 0, []] for p in part_sizes(size, self.parts)}
            if m and size is not None
            else {}
        )

    def update(self, block: bytes) -> None:
        if self.whole is not None:
            self.whole.update(block)
        for size, state in self.guesses.items():
            view = memoryview(block)
            while view:
                take = min(len(view), size - state[1])
                state[0].update(view[:take])
                state[1] += take
                view = view[take:]
                if state[1] == size:
                    state[2].append(state[0].digest())
                    state[0], state[1] = hashlib.md5(usedforsecurity=False), 0

    def verdict(self) -> tuple[str | None, str | None]:
        """(how the bytes were verified, None when they could not be; what is wrong, None when nothing is)."""
        if self.whole is not None:
            got = self.whole.hexdigest()
            return (
                ("md5", None)
                if got == self.plain
                else (None, f"its MD5 {got} is not the ETag's {self.plain}")
            )
        for size, (current, filled, digests) in self.guesses.items():
            done = [*digests, current.digest()] if filled else list(digests)
            joined = hashlib.md5(b"".join(done), usedforsecurity=False).hexdigest()
            if len(done) == self.parts and joined == self.multi:
                return f"multipart md5 ({size // MIB} MiB parts)" if self.parts > 1 else "multipart md5", None
            if self.parts == 1:  # one part, whatever its size: the ETag is the MD5 of its MD5
                return None, f"the MD5 of its MD5 {joined} is not the ETag's {self.multi}"
        return None, None  # another part size, or damaged: the build will tell


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
    max_bytes: int = MAX_UNKNOWN_BYTES,
) -> DownloadResult:
    """Fetch ``remote`` to ``dest``, resuming a ``.part`` left by an interrupted try.

    Raises DiskSpaceError before starting when the rest would not fit (and when the disk comes within
    ``SPARE_BYTES`` of full while writing), SourceUnavailable when the connection fails (the part is
    kept: run again to resume), DownloadError when the server's answer or the finished file is not the
    object the listing described, or a download of unknown size passes ``max_bytes`` (the part is
    deleted).
    """
    from citecheck.sources.targets import check_side_files

    dest.parent.mkdir(parents=True, exist_ok=True)
    check_side_files(files_of(dest), flag=f"downloading {dest.name}")  # never written through a link
    if is_complete(dest, remote):
        return DownloadResult(path=dest, size=dest.stat().st_size, fetched=0, resumed_from=0)
    part = _part(dest)
    have = _usable_part(part, remote)
    check_free_space(
        dest.parent, remote.size - have if remote.size is not None else 0, f"downloading {dest.name}"
    )
    checksum = _checksum_of_part(part, have, remote)
    resumed_from = have
    meter = _Meter(dest.name, remote.size, have, progress)
    limit = remote.size if remote.size is not None else max_bytes
    try:
        async with client.stream("GET", remote.url, headers=_range_headers(have, remote)) as response:
            if _starts_over(response, have, remote):  # the server ignored the range or the object changed
                have = resumed_from = 0
                meter = _Meter(dest.name, remote.size, 0, progress)
                checksum = _Checksum(remote.etag, remote.size)
            if response.status_code != 416:
                _write_sidecar(part, remote)
                await _receive(
                    response, part, have=have, limit=limit, remote=remote, meter=meter, checksum=checksum
                )
    except httpx.HTTPError as exc:
        if remote.size is None:
            _drop_part(part)
        again = "run the same command again" + (" to resume" if remote.size is not None else "")
        raise SourceUnavailable(
            f"downloading {dest.name} stopped at {format_bytes(meter.done)} ({exc.__class__.__name__}); {again}"
        ) from exc
    except DownloadError:
        _drop_part(part)
        raise
    except OSError as exc:
        if getattr(exc, "errno", None) == errno.ENOSPC:
            raise _disk_filled(dest, part, remote) from exc
        raise
    meter.add(0, final=True)
    size = part.stat().st_size
    how = _verify(part, remote, size, checksum)
    os.replace(part, dest)
    _write_sidecar(dest, remote, how)
    _sidecar(part).unlink(missing_ok=True)
    return DownloadResult(path=dest, size=size, fetched=size - resumed_from, resumed_from=resumed_from)


def _usable_part(part: Path, remote: RemoteFile) -> int:
    """How many bytes of a ``.part`` left by an earlier try may be kept: none of another version of the
    object, or of one whose size nobody said."""
    have = part.stat().st_size if part.is_file() else 0
    meta = _read_sidecar(part)
    same_object = meta.get("url") == remote.url and meta.get("etag") == remote.etag
    if have and (not same_object or remote.size is None or have > remote.size):
        return 0
    return have


def _checksum_of_part(part: Path, have: int, remote: RemoteFile) -> _Checksum:
    """The running checksum, fed the ``have`` bytes already in the part."""
    checksum = _Checksum(remote.etag, remote.size)
    if have:
        with part.open("rb") as fh:
            while block := fh.read(CHUNK):
                checksum.update(block)
    return checksum


def _range_headers(have: int, remote: RemoteFile) -> dict[str, str]:
    headers = {"Accept-Encoding": "identity"}
    if have:
        headers["Range"] = f"bytes={have}-"
        if remote.etag:
            headers["If-Range"] = remote.etag
    return headers


def _starts_over(response: httpx.Response, have: int, remote: RemoteFile) -> bool:
    """Whether the answer is the whole object from its first byte though ``have`` bytes were kept (200 to a
    range request). A 416 for a part already whole (the last try died before renaming it) and a 206 that
    continues the part are kept; any other status raises DownloadError."""
    status = response.status_code
    if status == 416 and have and have == remote.size:
        return False
    if status == 206 and have:
        _check_range(response, have, remote)
        return False
    if status == 200:
        return bool(have)
    raise DownloadError(f"{remote.url}: the server answered {status}")


def _disk_filled(dest: Path, part: Path, remote: RemoteFile) -> DiskSpaceError:
    """The disk filled while writing: a part of known size is kept to resume, else deleted."""
    if remote.size is None:
        _drop_part(part)
        return DiskSpaceError(
            f"the disk filled up while downloading {dest.name}; the part was deleted; free space and run it again"
        )
    return DiskSpaceError(
        f"the disk filled up while downloading {dest.name}; free space and run it again to resume"
    )


async def _receive(
    response: httpx.Response,
    part: Path,
    *,
    have: int,
    limit: int,
    remote: RemoteFile,
    meter: _Meter,
    checksum: _Checksum,
) -> None:
    """Append the body to ``part`` from byte ``have`` as it arrives (a drop loses nothing), up to ``limit``
    bytes in all, looking at the free space every ``FREE_SPACE_EVERY`` bytes."""
    with part.open("r+b" if have else "wb") as fh:
        fh.seek(have)
        fh.truncate()
        look_again = meter.done + FREE_SPACE_EVERY
        async for block in response.aiter_bytes():
            if meter.done + len(block) > limit:
                raise DownloadError(
                    f"{remote.url}: the server sent more than the {remote.size} bytes listed"
                    if remote.size is not None
                    else f"{remote.url}: the server sent more than {format_bytes(limit)} (a file of unknown "
                    "size may not be larger)"
                )
            fh.write(block)
            checksum.update(block)
            meter.add(len(block))
            if meter.done >= look_again:
                look_again = meter.done + FREE_SPACE_EVERY
                fh.flush()
                _room_left(part, part.with_suffix(""), resumable=remote.size is not None)


def _drop_part(part: Path) -> None:
    part.unlink(missing_ok=True)
    _sidecar(part).unlink(missing_ok=True)


def _room_left(part: Path, dest: Path, *, resumable: bool) -> None:
    """DiskSpaceError when the disk is within ``SPARE_BYTES`` of full (another program may be filling it)."""
    free = shutil.disk_usage(part.parent).free
    if free >= SPARE_BYTES:
        return
    if not resumable:
        _drop_part(part)
    raise DiskSpaceError(
        f"the disk holding {dest.parent} is nearly full ({format_bytes(free)} free) while downloading {dest.name}; "
        + (
            "free space and run it again to resume"
            if resumable
            else "the part was deleted; free space and run it again"
        )
    )


class Answer(NamedTuple):
    """What ``fetch_bounded`` read: the status, the body (unpacked, bounded) and the headers."""

    status: int
    body: bytes
    headers: httpx.Headers


async def fetch_bounded(
    client: httpx.AsyncClient,
    url: str,
    *,
    limit: int,
    what: str,
    params: Mapping[str, str] | None = None,
) -> Answer:
    """The status, headers and body of a small answer (a listing, a download page, a JSON list), read as it arrives
    and refused past ``limit`` bytes — unpacked bytes: a gzip-encoded answer is unpacked here, never more
    than ``limit`` at a time (httpx unpacks each network read whole: 64 KB of gzip is 64 MB). They were read
    whole before their size was looked at (3 GB in 8 s, issue 35). SourceUnavailable when the host cannot
    be reached, BadResponse when the answer is too large or in an encoding not asked for."""
    from citecheck.errors import BadResponse

    def too_large() -> BadResponse:
        return BadResponse(
            f"{what}: {url} is larger than the {format_bytes(limit)} it may be; not the answer expected from "
            "this service"
        )

    try:
        async with client.stream(
            "GET", url, params=params, headers={"Accept-Encoding": "gzip, deflate"}
        ) as r:
            encoding = r.headers.get("Content-Encoding", "identity").strip().lower()
            if encoding not in ("identity", "", "gzip", "x-gzip", "deflate"):
                raise BadResponse(
                    f"{what}: {url} answered in the {encoding!r} encoding, which was not asked for"
                )
            unpack = zlib.decompressobj(47) if encoding != "identity" and encoding else None  # gzip or zlib
            body = bytearray()
            async for block in r.aiter_raw():
                if unpack is None:
                    body += block
                else:
                    data = block
                    while data and len(body) <= limit:
                        body += unpack.decompress(data, limit + 1 - len(body))
                        data = unpack.unconsumed_tail
                if len(body) > limit:
                    raise too_large()
            if unpack is not None:
                body += unpack.flush(limit + 1 - len(body)) if len(body) <= limit else b""
                if len(body) > limit:
                    raise too_large()
            return Answer(r.status_code, bytes(body), r.headers)
    except zlib.error as exc:
        raise BadResponse(f"{what}: {url} sent a damaged {encoding} body ({exc})") from exc
    except httpx.HTTPError as exc:
        raise SourceUnavailable(f"{what}: {url} could not be reached ({exc.__class__.__name__})") from exc


def _check_range(response: httpx.Response, have: int, remote: RemoteFile) -> None:
    content_range = response.headers.get("Content-Range", "")
    m = re.fullmatch(r"bytes (\d+)-(\d+)/(\d+|\*)", content_range.strip())
    if m is None or int(m.group(1)) != have:
        raise DownloadError(
            f"{remote.url}: asked for bytes from {have}, the server sent {content_range or 'no range'}"
        )
    if remote.size is not None and m.group(3).isdigit() and int(m.group(3)) != remote.size:
        raise DownloadError(
            f"{remote.url}: the server's file has {m.group(3)} bytes, the listing said {remote.size}"
        )


def _verify(part: Path, remote: RemoteFile, size: int, checksum: _Checksum) -> str | None:
    """How the finished part was verified (None: only its size could be); DownloadError (the part deleted)
    when it is not the listed object."""
    problem = None
    how: str | None = None
    if remote.size is not None and size != remote.size:
        problem = f"it has {size} bytes, the listing said {remote.size}"
    else:
        how, problem = checksum.verdict()
    if problem is not None:
        _drop_part(part)
        raise DownloadError(
            f"the download of {remote.url} is not the listed file ({problem}); it was deleted: run the same "
            "command again to fetch it afresh"
        )
    return how


@contextlib.contextmanager
def reading(dest: Path, *, again: str = "run the same command again") -> Iterator[None]:
    """Around reading a finished download: if it fails to read (``ImportFormatError``) and its bytes could
    not be checked against the listing, it is deleted, so that the next sync fetches it afresh instead of
    reusing a copy damaged on the way forever; the error says so."""
    try:
        yield
    except ImportFormatError as exc:
        if dest.exists() and verified(dest) is None:
            remove_download(dest)
            raise type(exc)(
                f"{exc}; {dest.name} could not be checked against its listing, so it may have been damaged on "
                f"the way: it was deleted, {again} to fetch it afresh"
            ) from exc
        raise


def files_of(dest: Path) -> tuple[Path, ...]:
    """Every file a download of ``dest`` writes: the file, its part and their sidecars."""
    return (dest, _sidecar(dest), _part(dest), _sidecar(_part(dest)))


def remove_download(dest: Path) -> None:
    """Forget a downloaded file and its part (after a build that used it, or to force a fresh one)."""
    for p in files_of(dest):
        p.unlink(missing_ok=True)
