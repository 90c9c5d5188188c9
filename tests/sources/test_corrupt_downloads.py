"""Issue 35 item 3: a download damaged on the way is deleted and fetched again by the next sync.

With a multipart ETag only the size used to be checked: a file damaged in transit failed the build, and
every later sync reused it (0 requests) with no way out named. A real loopback bucket changes one byte
of one answer (``damage_once``); the stored object and the listing stay right.
"""

from __future__ import annotations

import os
from pathlib import Path

import httpx
import pytest

from citecheck.errors import DownloadError, ImportFormatError
from citecheck.sources.download import MIB, RemoteFile, _Checksum, download, part_sizes, verified
from citecheck.sources.index.sync import bulk_folder, sync
from citecheck.sources.models import LookupStatus
from citecheck_testing.bulk_bucket import FakeBucket, multipart_etag
from citecheck_testing.bulk_dump import closed_volume_cases, index_status, write_dump

KEY = "bulk-data/dockets-2026-06-30.csv.bz2"


def _publish(bucket: FakeBucket, folder: Path, etag) -> None:  # type: ignore[no-untyped-def]
    write_dump(folder, closed_volume_cases(), compress=True, unreferenced_dockets=200)
    for p in sorted(folder.iterdir()):
        data = p.read_bytes()
        bucket.put(f"bulk-data/{p.name}", data, etag=etag(data))


def _object_requests(bucket: FakeBucket) -> list[str]:
    return [path for path, _ in bucket.requests if path.endswith(KEY)]


def test_a_multipart_etag_is_checked_part_by_part() -> None:
    data = os.urandom(3 * MIB + 12345)
    etag = multipart_etag(data, MIB)  # 4 parts of 1 MiB: aws-style
    assert [p // MIB for p in part_sizes(len(data), 4)] == [1]
    good = _Checksum(etag, len(data))
    for i in range(0, len(data), 300_000):  # blocks that straddle the parts
        good.update(data[i : i + 300_000])
    assert good.verdict() == ("multipart md5 (1 MiB parts)", None)
    bad = _Checksum(etag, len(data))
    bad.update(data[:100] + b"X" + data[101:])
    assert bad.verdict() == (None, None)  # not provably damaged (another part size?), but not verified
    one = _Checksum(multipart_etag(data, 8 * MIB), len(data))  # one part: the ETag says it all
    one.update(data[:-1] + b"X")
    how, problem = one.verdict()
    assert how is None and problem is not None and "MD5" in problem, problem


async def test_damaged_on_the_way_with_a_one_part_etag_is_refused_at_download(tmp_path: Path) -> None:
    with FakeBucket() as bucket:
        _publish(bucket, tmp_path / "pub", lambda d: multipart_etag(d, 8 * MIB))
        bucket.damage_once[KEY] = 200
        index = tmp_path / "index.sqlite"
        with pytest.raises(
            DownloadError, match=r"not the listed file .*it was deleted: run the same command again"
        ):
            await sync(index, bulk_url=bucket.base_url)
        assert not list(bulk_folder(index).glob("dockets-*"))  # neither the file nor its part
        result = await sync(index, bulk_url=bucket.base_url)  # the next sync fetches it again
    assert result.build.mode == "full" and index_status(index, "100 A.2d 36") is LookupStatus.FOUND


async def test_an_unverifiable_download_that_fails_to_read_is_deleted_and_fetched_again(
    tmp_path: Path,
) -> None:
    """A multipart ETag whose part size is not a whole MiB cannot be checked: the download is taken on its
    size. When the build then finds it damaged, it is deleted and the error says to run the sync again; the
    next sync downloads it (it used to reuse it with 0 requests and fail the same way forever)."""
    with FakeBucket() as bucket:
        _publish(bucket, tmp_path / "pub", lambda d: multipart_etag(d, 1000))  # parts of 1,000 bytes
        bucket.damage_once[KEY] = len(bucket.objects[KEY].data) // 2
        index = tmp_path / "index.sqlite"
        with pytest.raises(ImportFormatError) as failed:
            await sync(index, bulk_url=bucket.base_url)
        message = str(failed.value)
        assert "dockets-2026-06-30.csv.bz2" in message and "deleted" in message
        assert "run citecheck corpus sync again to fetch it afresh" in message
        assert not (bulk_folder(index) / "dockets-2026-06-30.csv.bz2").exists()
        assert not index.exists()  # no half index
        asked = len(_object_requests(bucket))
        result = await sync(index, bulk_url=bucket.base_url)
        assert len(_object_requests(bucket)) == asked + 1  # fetched afresh, once
    assert result.build.mode == "full" and index_status(index, "100 A.2d 36") is LookupStatus.FOUND


async def test_a_checked_download_of_a_damaged_published_file_is_kept_and_said_so(tmp_path: Path) -> None:
    """The bucket's own file is damaged (its MD5 ETag matches what arrived): fetching it again would give
    the same bytes, so it is kept, and the message says whose file is damaged and what to do."""
    with FakeBucket() as bucket:
        _publish(bucket, tmp_path / "pub", lambda d: None)  # single-part: the ETag is the MD5
        data = bucket.objects[KEY].data
        bucket.put(KEY, data[: len(data) // 2])
        index = tmp_path / "index.sqlite"
        with pytest.raises(ImportFormatError, match="the published dump is damaged"):
            await sync(index, bulk_url=bucket.base_url)
        kept = bulk_folder(index) / "dockets-2026-06-30.csv.bz2"
        assert kept.exists() and verified(kept) == "md5"


async def test_a_download_of_unknown_size_stops_at_its_bound_and_leaves_no_part(tmp_path: Path) -> None:
    """Item 5: an answer without a listed size (every eCFR title) used to be written until the disk was
    full, and its ``.part`` kept. Now it may not pass ``max_bytes``; the part is deleted."""
    with FakeBucket() as bucket:
        bucket.put("big.xml", b"<x>" + b"a" * (3 * MIB) + b"</x>")
        dest = tmp_path / "big.xml"
        async with httpx.AsyncClient() as client:
            with pytest.raises(DownloadError, match=r"more than 1\.0 MB"):
                await download(
                    RemoteFile(url=f"{bucket.base_url}big.xml"), dest, client=client, max_bytes=MIB
                )
    assert not dest.exists() and not list(tmp_path.glob("big.xml.part*"))


async def test_a_download_of_unknown_size_never_fills_the_disk(tmp_path: Path) -> None:
    """Every eCFR title comes without a size: it was written until the disk was full and its ``.part``
    kept (the disk stayed full). Now the download keeps ``SPARE_BYTES`` free and leaves no part."""
    from citecheck.errors import DiskSpaceError
    from citecheck_testing.disk import small_disk

    with small_disk(tmp_path / "disk", 64 << 20) as disk, FakeBucket() as bucket:
        bucket.put("title-40.xml", b"<DIV1>" + b"x" * (100 * MIB) + b"</DIV1>")
        dest = disk / "title-40.xml"
        async with httpx.AsyncClient() as client:
            with pytest.raises(DiskSpaceError, match="free"):
                await download(RemoteFile(url=f"{bucket.base_url}title-40.xml"), dest, client=client)
        assert sorted(p.name for p in disk.iterdir()) == []
