"""Downloads against a real loopback server: streamed, resumed after a drop, checked, and refused when the
disk is too small, the object changed or the bytes are not the listed ones."""

from __future__ import annotations

import hashlib
import itertools
import os
import shutil
from collections import namedtuple
from pathlib import Path

import httpx
import pytest

from citecheck.errors import DiskSpaceError, DownloadError, SourceUnavailable
from citecheck.sources.download import DownloadProgress, RemoteFile, download, format_bytes
from citecheck_testing.bulk_bucket import FakeBucket

DATA = os.urandom(3 << 20) + b"tail"
KEY = "bulk-data/citations-2026-06-30.csv.bz2"


@pytest.fixture
def bucket():
    with FakeBucket() as b:
        b.put(KEY, DATA)
        yield b


def remote(bucket: FakeBucket, **over) -> RemoteFile:
    obj = bucket.objects[KEY]
    fields = {"url": bucket.base_url + KEY, "size": len(obj.data), "etag": obj.etag, **over}
    return RemoteFile(**fields)


async def fetch(bucket: FakeBucket, dest: Path, **kw):
    async with httpx.AsyncClient(timeout=10) as client:
        return await download(kw.pop("remote", None) or remote(bucket), dest, client=client, **kw)


async def test_a_whole_download_reports_progress_and_lands_atomically(
    bucket: FakeBucket, tmp_path: Path
) -> None:
    seen: list[DownloadProgress] = []
    dest = tmp_path / "citations-2026-06-30.csv.bz2"
    result = await fetch(bucket, dest, progress=seen.append)
    assert dest.read_bytes() == DATA and result.fetched == len(DATA) and result.resumed_from == 0
    assert not dest.with_name(dest.name + ".part").exists()
    assert seen and seen[-1].done == len(DATA) == seen[-1].total and seen[-1].eta_s == 0
    assert all(a.done <= b.done for a, b in itertools.pairwise(seen))


async def test_a_dropped_download_resumes_where_it_stopped(bucket: FakeBucket, tmp_path: Path) -> None:
    dest = tmp_path / "c.bz2"
    bucket.drop_after[KEY] = 1_000_000
    with pytest.raises(SourceUnavailable, match="run the same command again to resume"):
        await fetch(bucket, dest)
    part = dest.with_name("c.bz2.part")
    assert part.exists() and 0 < part.stat().st_size <= 1_000_000 and not dest.exists()
    had = part.stat().st_size
    result = await fetch(bucket, dest)
    assert dest.read_bytes() == DATA
    assert result.resumed_from == had and result.fetched == len(DATA) - had
    assert bucket.requests[-1] == ("/" + KEY, f"bytes={had}-")


async def test_a_part_of_another_version_is_not_resumed(bucket: FakeBucket, tmp_path: Path) -> None:
    dest = tmp_path / "c.bz2"
    bucket.drop_after[KEY] = 500_000
    with pytest.raises(SourceUnavailable):
        await fetch(bucket, dest)
    new = DATA[::-1]
    bucket.put(KEY, new)  # the next quarter's file under the same name
    result = await fetch(bucket, dest)
    assert dest.read_bytes() == new and result.resumed_from == 0
    assert bucket.requests[-1][1] is None  # asked for the whole file


async def test_a_server_that_ignores_ranges_sends_it_whole_again(bucket: FakeBucket, tmp_path: Path) -> None:
    dest = tmp_path / "c.bz2"
    bucket.drop_after[KEY] = 700_000
    with pytest.raises(SourceUnavailable):
        await fetch(bucket, dest)
    bucket.ignore_range = True
    result = await fetch(bucket, dest)
    assert dest.read_bytes() == DATA and result.resumed_from == 0


async def test_a_size_other_than_listed_is_refused_and_deleted(bucket: FakeBucket, tmp_path: Path) -> None:
    dest = tmp_path / "c.bz2"
    with pytest.raises(DownloadError, match="not the listed file"):
        await fetch(bucket, dest, remote=remote(bucket, size=len(DATA) + 10))
    assert not dest.exists() and not dest.with_name("c.bz2.part").exists()


async def test_bytes_that_do_not_match_the_etag_are_refused(bucket: FakeBucket, tmp_path: Path) -> None:
    wrong = '"' + hashlib.md5(b"something else").hexdigest() + '"'
    bucket.put(KEY, DATA, etag=wrong)
    with pytest.raises(DownloadError, match="MD5"):
        await fetch(bucket, tmp_path / "c.bz2")


async def test_a_multipart_etag_is_checked_by_size_only(bucket: FakeBucket, tmp_path: Path) -> None:
    bucket.put(KEY, DATA, etag='"0123456789abcdef0123456789abcdef-3"')
    await fetch(bucket, tmp_path / "c.bz2")
    assert (tmp_path / "c.bz2").read_bytes() == DATA


async def test_a_complete_file_is_not_fetched_again(bucket: FakeBucket, tmp_path: Path) -> None:
    await fetch(bucket, tmp_path / "c.bz2")
    asked = len(bucket.requests)
    result = await fetch(bucket, tmp_path / "c.bz2")
    assert result.fetched == 0 and len(bucket.requests) == asked


async def test_no_room_on_disk_is_said_before_any_byte_moves(
    bucket: FakeBucket, tmp_path: Path, monkeypatch
) -> None:
    usage = namedtuple("usage", "total used free")
    monkeypatch.setattr(shutil, "disk_usage", lambda p: usage(10**12, 10**12 - 5 * 2**20, 5 * 2**20))
    with pytest.raises(DiskSpaceError, match=r"needs 259\.0 MB free .* only 5\.0 MB is free"):
        await fetch(bucket, tmp_path / "c.bz2")
    assert bucket.requests == []


async def test_an_unreachable_server_is_a_clear_error(tmp_path: Path) -> None:
    with FakeBucket() as b:
        url = b.base_url + KEY  # a port nothing listens on once it stops
    with pytest.raises(SourceUnavailable, match="stopped at 0 B"):
        async with httpx.AsyncClient(timeout=2) as client:
            await download(RemoteFile(url=url, size=10), tmp_path / "c.bz2", client=client)


def test_byte_counts_read_like_a_person_writes_them() -> None:
    assert [format_bytes(n) for n in (512, 2048, 5 * 2**30)] == ["512 B", "2.0 KB", "5.0 GB"]
