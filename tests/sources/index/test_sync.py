"""``corpus sync`` against a loopback copy of CourtListener's bucket: the newest complete dump, resumed
downloads, updates, and every fault ending in a clear error with the old index still working."""

from __future__ import annotations

from pathlib import Path

import pytest

from citecheck.errors import BadResponse, ConfigError, ImportFormatError, SourceUnavailable, SyncBusy
from citecheck.sources.index.build import BuildLock, read_meta
from citecheck.sources.index.sync import check_bulk_url, sync
from citecheck.sources.models import LookupStatus
from citecheck_testing.bulk_bucket import FakeBucket
from citecheck_testing.bulk_dump import closed_volume_cases, index_status, write_dump


def publish(bucket: FakeBucket, folder: Path, date: str, cases=None, **kw) -> None:
    write_dump(folder / date, cases or closed_volume_cases(), date=date, compress=True, **kw)
    bucket.put_folder(folder / date)


@pytest.fixture
def bucket(tmp_path: Path):
    with FakeBucket(max_keys=3) as b:  # small pages: the listing is read across continuation tokens
        publish(b, tmp_path / "pub", "2026-03-31", closed_volume_cases()[:6], unreferenced_dockets=10)
        publish(b, tmp_path / "pub", "2026-06-30", unreferenced_dockets=10)
        # a newer dump still being uploaded (no citations yet) is not used
        write_dump(tmp_path / "pub" / "2026-09-30", closed_volume_cases(), date="2026-09-30", compress=True)
        b.put_folder(tmp_path / "pub" / "2026-09-30")
        del b.objects["bulk-data/citations-2026-09-30.csv.bz2"]
        b.put("bulk-data/schema-2026-06-30.sql", b"CREATE TABLE ...")
        b.put("bulk-data/../../etc/passwd-2026-12-31.csv.bz2", b"x")  # never a path
        yield b


async def test_sync_builds_the_newest_complete_dump(bucket: FakeBucket, tmp_path: Path) -> None:
    index = tmp_path / "data" / "index.sqlite"
    result = await sync(index, bulk_url=bucket.base_url)
    assert result.date == "2026-06-30" and result.build.mode == "full" and result.build.full_dump
    assert index_status(index, "100 A.2d 40") is LookupStatus.NOT_FOUND
    assert index_status(index, "12 F.4th 120") is LookupStatus.CANNOT_VERIFY
    assert not list((tmp_path / "data" / "index-bulk").glob("*.bz2"))  # the downloads went after the build
    meta = read_meta(index)
    assert meta["dump_date"] == "2026-06-30" and "etags" in meta["source"]
    listing = [r for r in bucket.requests if r[0] == "/"]
    assert len(listing) >= 3  # read page by page
    assert not any("passwd" in path for path, _ in bucket.requests)


async def test_a_second_sync_of_the_same_dump_downloads_nothing(bucket: FakeBucket, tmp_path: Path) -> None:
    index = tmp_path / "index.sqlite"
    await sync(index, bulk_url=bucket.base_url)
    asked = len(bucket.requests)
    again = await sync(index, bulk_url=bucket.base_url)
    assert again.build.mode == "unchanged" and again.downloaded == 0
    assert all(path == "/" for path, _ in bucket.requests[asked:])  # only the listing


async def test_an_interrupted_sync_resumes_its_download(bucket: FakeBucket, tmp_path: Path) -> None:
    index = tmp_path / "index.sqlite"
    key = "bulk-data/dockets-2026-06-30.csv.bz2"
    bucket.drop_after[key] = 300
    with pytest.raises(SourceUnavailable, match="resume"):
        await sync(index, bulk_url=bucket.base_url)
    assert not index.exists()
    result = await sync(index, bulk_url=bucket.base_url)
    assert result.resumed > 0 and result.build.mode == "full"
    assert any(path == "/" + key and rng and rng.startswith("bytes=") for path, rng in bucket.requests)


async def test_a_later_dump_updates_the_index(bucket: FakeBucket, tmp_path: Path) -> None:
    index = tmp_path / "index.sqlite"
    del bucket.objects["bulk-data/citations-2026-06-30.csv.bz2"]  # only March is complete
    first = await sync(index, bulk_url=bucket.base_url)
    assert first.date == "2026-03-31" and index_status(index, "100 A.2d 60") is LookupStatus.FOUND
    publish(bucket, tmp_path / "pub2", "2026-06-30", closed_volume_cases()[1:], unreferenced_dockets=10)
    second = await sync(index, bulk_url=bucket.base_url)
    assert second.date == "2026-06-30" and second.build.mode == "update"
    assert index_status(index, "100 A.2d 1") is LookupStatus.NOT_FOUND  # gone from the newer dump
    assert index_status(index, "12 F.4th 115") is LookupStatus.FOUND


async def test_a_corrupt_file_in_the_bucket_leaves_the_old_index_working(
    bucket: FakeBucket, tmp_path: Path
) -> None:
    index = tmp_path / "index.sqlite"
    del bucket.objects["bulk-data/citations-2026-06-30.csv.bz2"]
    await sync(index, bulk_url=bucket.base_url)
    before = index.read_bytes()
    publish(bucket, tmp_path / "pub2", "2026-06-30", unreferenced_dockets=2000)
    key = "bulk-data/dockets-2026-06-30.csv.bz2"
    data = bucket.objects[key].data
    bucket.put(key, data[: len(data) // 2])  # listed and served whole, but the bz2 stream stops midway
    # the dump before the damaged one is the index's own: nothing to do, and the note says why
    result = await sync(index, bulk_url=bucket.base_url)
    assert result.date == "2026-03-31" and result.build.mode == "unchanged"
    assert any("2026-06-30 dump's dockets file is damaged" in n for n in result.notes)
    assert index.read_bytes() == before and index_status(index, "100 A.2d 36") is LookupStatus.FOUND
    assert (
        tmp_path / "index-bulk" / "dockets-2026-06-30.csv.bz2"
    ).exists()  # kept: no second download to retry


async def test_a_failing_listing_is_a_clear_error(bucket: FakeBucket, tmp_path: Path) -> None:
    bucket.listing_status = 503
    with pytest.raises(SourceUnavailable, match="answered 503"):
        await sync(tmp_path / "index.sqlite", bulk_url=bucket.base_url)


async def test_a_bucket_without_a_complete_dump_says_so(tmp_path: Path) -> None:
    with FakeBucket() as b:
        b.put("bulk-data/citations-2026-06-30.csv.bz2", b"x")
        with pytest.raises(BadResponse, match="no complete dump"):
            await sync(tmp_path / "index.sqlite", bulk_url=b.base_url)


async def test_two_syncs_at_once_the_second_says_so(bucket: FakeBucket, tmp_path: Path) -> None:
    index = tmp_path / "index.sqlite"
    with BuildLock(index), pytest.raises(SyncBusy, match="another citecheck sync"):
        await sync(index, bulk_url=bucket.base_url)
    assert bucket.requests == []


def test_the_bucket_must_be_https_unless_it_is_this_machine() -> None:
    assert check_bulk_url("https://com-courtlistener-storage.s3-us-west-2.amazonaws.com")
    assert check_bulk_url("http://127.0.0.1:8000/") == "http://127.0.0.1:8000/"
    with pytest.raises(ConfigError):
        check_bulk_url("http://example.com/")
    with pytest.raises(ConfigError):
        check_bulk_url("file:///etc/")


def _republish(bucket: FakeBucket, folder: Path, kind: str, edit) -> None:
    """Publish the 2026-06-30 dump again with one file changed by ``edit(bytes) -> bytes`` (decompressed)."""
    import bz2

    write_dump(folder, closed_volume_cases(), date="2026-06-30", compress=True, unreferenced_dockets=2000)
    path = folder / f"{kind}-2026-06-30.csv.bz2"
    path.write_bytes(bz2.compress(edit(bz2.decompress(path.read_bytes()))))
    bucket.put_folder(folder)


def _drop_column(data: bytes) -> bytes:
    lines = data.decode().split("\n")
    header = lines[0].split(",")
    i = header.index("reporter")
    out = [",".join(h for j, h in enumerate(header) if j != i)]
    for line in lines[1:]:
        if line:
            fields = line.split('","')
            out.append('","'.join(f for j, f in enumerate(fields) if j != i))
    return ("\n".join(out) + "\n").encode()


async def test_a_header_without_a_used_column_names_it_and_the_old_index_stays(
    bucket: FakeBucket, tmp_path: Path
) -> None:
    index = tmp_path / "index.sqlite"
    del bucket.objects["bulk-data/citations-2026-06-30.csv.bz2"]
    await sync(index, bulk_url=bucket.base_url)
    before = index.read_bytes()
    _republish(bucket, tmp_path / "pub2", "citations", _drop_column)
    with pytest.raises(ImportFormatError, match="'reporter' column"):
        await sync(index, bulk_url=bucket.base_url)
    assert index.read_bytes() == before


async def test_hostile_rows_in_the_bucket_are_refused_and_counted(bucket: FakeBucket, tmp_path: Path) -> None:
    hostile = (
        '"x1","100","A.2d","99","3","910000101","2024-03-28 13:25:40+00","2024-03-28 13:25:40+00"\n'
        '"77","100","A.2d","9\x009","3","910000101","2024-03-28 13:25:40+00","2024-03-28 13:25:40+00"\n'
        '"78","100","A.2d","' + "9" * 30_000 + '","3","910000101","x","x"\n'
    ).encode()
    _republish(bucket, tmp_path / "pub2", "citations", lambda data: data + hostile)
    result = await sync(tmp_path / "index.sqlite", bulk_url=bucket.base_url)
    refused = {k.split(": ", 1)[1]: n for k, n in result.build.refused.items()}
    assert refused == {
        "an id that is not a number": 1,
        "a NUL character": 1,
        "a field over 20000 characters": 1,
    }
    assert result.build.citations == 16


async def test_a_full_disk_during_the_build_rolls_back(
    bucket: FakeBucket, tmp_path: Path, monkeypatch
) -> None:
    import sqlite3

    from citecheck.errors import DiskSpaceError
    from citecheck.sources.index import build as build_mod

    index = tmp_path / "index.sqlite"
    del bucket.objects["bulk-data/citations-2026-06-30.csv.bz2"]
    await sync(index, bulk_url=bucket.base_url)
    before = index.read_bytes()
    publish(bucket, tmp_path / "pub2", "2026-06-30", unreferenced_dockets=10)
    opened = build_mod._open_for_build

    def tiny(path: Path, *, update: bool) -> sqlite3.Connection:
        db = opened(path, update=update)
        db.execute("PRAGMA max_page_count=8")  # SQLite then answers exactly as for a full disk
        return db

    monkeypatch.setattr(build_mod, "_open_for_build", tiny)
    with pytest.raises(DiskSpaceError, match="rolled back"):
        await sync(index, bulk_url=bucket.base_url, rebuild=True)
    assert index.read_bytes() == before and not list(tmp_path.glob("index.sqlite.new*"))


async def test_an_empty_file_in_the_newest_dump_falls_back_to_the_previous_dumps(tmp_path: Path) -> None:
    """Issue 32: the export runs without pipefail, so a failed table is published as an empty bz2 stream
    (the courts file of July 2023, #2863). An empty courts file is replaced by the last good one; a dump
    whose citations file is empty is passed over for the one before it."""
    import bz2

    with FakeBucket() as b:
        publish(b, tmp_path / "pub", "2026-03-31", unreferenced_dockets=3)
        publish(b, tmp_path / "pub", "2026-06-30", unreferenced_dockets=3)
        b.put("bulk-data/courts-2026-06-30.csv.bz2", bz2.compress(b""))
        index = tmp_path / "index.sqlite"
        result = await sync(index, bulk_url=b.base_url)
        assert result.date == "2026-06-30"
        assert any("courts file is empty" in n and "courts-2026-03-31.csv.bz2" in n for n in result.notes)
        assert any(path.endswith("courts-2026-03-31.csv.bz2") for path, _ in b.requests)
        assert read_meta(index)["courts"] == "5"  # the four named courts, and scotus from the dockets
        assert index_status(index, "100 A.2d 36") is LookupStatus.FOUND

        publish(b, tmp_path / "pub", "2026-09-30", unreferenced_dockets=3)
        b.put("bulk-data/citations-2026-09-30.csv.bz2", bz2.compress(b""))
        again = await sync(index, bulk_url=b.base_url)
        assert again.date == "2026-06-30" and again.build.mode == "unchanged"
        assert any("2026-09-30 dump's citations file is empty" in n for n in again.notes)


def _cut_short(bucket: FakeBucket, key: str) -> None:
    """Publish ``key`` cut in the middle of a row, in a whole bz2 stream: what the export writes when its
    psql dies under ``set -e`` without ``pipefail`` (bzip2 still closes the stream)."""
    import bz2

    text = bz2.decompress(bucket.objects[key].data)
    bucket.put(key, bz2.compress(text[: len(text) * 2 // 3].rstrip(b"\n")))


async def test_a_dump_cut_short_is_passed_over_for_the_one_before_it(tmp_path: Path) -> None:
    """Issue 32 item 3: a first sync whose newest dump has a citations file cut mid-row (the bucket's own
    bytes: its ETag matches) builds from the dump before it, says so, and never uses the partial file."""
    with FakeBucket() as b:
        publish(b, tmp_path / "pub", "2026-03-31", unreferenced_dockets=3)
        publish(b, tmp_path / "pub", "2026-06-30", unreferenced_dockets=3)
        _cut_short(b, "bulk-data/citations-2026-06-30.csv.bz2")
        index = tmp_path / "index.sqlite"
        result = await sync(index, bulk_url=b.base_url)
        assert result.date == "2026-03-31" and result.build.mode != "unchanged"
        assert any("2026-06-30 dump's citations file is damaged (cut short)" in n for n in result.notes)
        assert read_meta(index)["dump_date"] == "2026-03-31"
        assert index_status(index, "100 A.2d 36") is LookupStatus.FOUND
        # the damaged file stays (the bucket's own bytes: a new download would be the same), the used ones go
        assert (tmp_path / "index-bulk" / "citations-2026-06-30.csv.bz2").exists()
        assert not (tmp_path / "index-bulk" / "citations-2026-03-31.csv.bz2").exists()


async def test_a_courts_file_cut_short_takes_the_last_good_one(tmp_path: Path) -> None:
    with FakeBucket() as b:
        publish(b, tmp_path / "pub", "2026-03-31", unreferenced_dockets=3)
        publish(b, tmp_path / "pub", "2026-06-30", unreferenced_dockets=3)
        _cut_short(b, "bulk-data/courts-2026-06-30.csv.bz2")
        index = tmp_path / "index.sqlite"
        result = await sync(index, bulk_url=b.base_url)
        assert result.date == "2026-06-30"
        assert any("courts file is damaged" in n and "courts-2026-03-31.csv.bz2" in n for n in result.notes)
        assert index_status(index, "100 A.2d 36") is LookupStatus.FOUND


async def test_a_damaged_dump_never_replaces_a_newer_index_with_an_older_dump(tmp_path: Path) -> None:
    """The dump before the broken one is older than the index's: the error, and the index unchanged."""
    with FakeBucket() as b:
        publish(b, tmp_path / "pub", "2026-03-31", unreferenced_dockets=3)
        publish(b, tmp_path / "pub", "2026-06-30", unreferenced_dockets=3)
        index = tmp_path / "index.sqlite"
        await sync(index, bulk_url=b.base_url)
        before = index.read_bytes()
        for kind in ("courts", "dockets", "opinion-clusters", "citations"):
            del b.objects[f"bulk-data/{kind}-2026-06-30.csv.bz2"]
        publish(b, tmp_path / "pub", "2026-09-30", unreferenced_dockets=3)
        _cut_short(b, "bulk-data/citations-2026-09-30.csv.bz2")
        with pytest.raises(ImportFormatError, match=r"cut short.*the published dump is damaged"):
            await sync(index, bulk_url=b.base_url)
        assert index.read_bytes() == before and read_meta(index)["dump_date"] == "2026-06-30"
