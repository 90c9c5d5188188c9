"""Issue 35 item 7: one sync per index, and two indexes in one folder never share their downloads.

``sync --statutes`` had no lock, and two citation indexes in one folder downloaded into the same
``bulk/``: two syncs at once ended in "FileNotFoundError … part" (one renamed or deleted the other's
part). Real loopback servers (the bucket, the OLRC/eCFR stand-in), real files.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

from citecheck.sources.index.sync import bulk_folder, sync
from citecheck.sources.locks import SyncLock
from citecheck.sources.models import LookupStatus
from citecheck_testing.bulk_bucket import FakeBucket
from citecheck_testing.bulk_dump import closed_volume_cases, index_status, write_dump
from citecheck_testing.statutes import FakeSection, StatuteFiles, StatuteServer, uslm_title


async def test_two_indexes_in_one_folder_sync_at_once(tmp_path: Path) -> None:
    with FakeBucket() as bucket:
        write_dump(tmp_path / "pub", closed_volume_cases(), compress=True, unreferenced_dockets=3000)
        bucket.put_folder(tmp_path / "pub")
        data = tmp_path / "data"
        a, b = data / "index.sqlite", data / "firm-index.sqlite"
        results = await asyncio.wait_for(
            asyncio.gather(sync(a, bulk_url=bucket.base_url), sync(b, bulk_url=bucket.base_url)), 120
        )
    assert [r.build.mode for r in results] == ["full", "full"]
    for index in (a, b):
        assert index_status(index, "100 A.2d 36") is LookupStatus.FOUND
    assert bulk_folder(a) != bulk_folder(b) and bulk_folder(a).parent == data


def test_a_second_statute_sync_of_one_index_says_who_holds_it(run_cli, tmp_path: Path, monkeypatch) -> None:
    usc = {
        "usc42.xml": uslm_title("42", [FakeSection(number="1983", heading="Civil action", paragraphs=("x",))])
    }
    path = tmp_path / "statutes.sqlite"
    with StatuteServer(StatuteFiles(usc=usc)) as server:
        monkeypatch.setenv("CITECHECK_USCODE_URL", server.uscode_url)
        with SyncLock(path, doing="syncing"):
            busy = run_cli("corpus", "sync", "--statutes", "--usc-only", "--statutes-path", str(path))
            assert busy.rc == 2, (busy.out, busy.err)
            assert "another citecheck sync is syncing" in busy.err and "pid" in busy.err, busy.err
            assert server.files.requests == []  # nothing downloaded while the other one holds it
        done = run_cli("corpus", "sync", "--statutes", "--usc-only", "--statutes-path", str(path))
        assert done.rc == 0, done.err
    assert (tmp_path / "statutes-downloads").is_dir()  # its own downloads folder, beside it


def test_a_full_disk_is_said_in_one_line_not_oserror_28(run_cli, tmp_path: Path) -> None:
    """On a full disk the lock's pid could not be written and the sync ended in "internal error: OSError
    28"; the pid is only for the busy message, so the free-space check that follows says what is wrong."""
    from citecheck_testing.disk import fill, small_disk

    write_dump(tmp_path / "dump", closed_volume_cases())
    with small_disk(tmp_path / "disk", 1 << 20) as disk:
        fill(disk)
        r = run_cli("corpus", "sync", "--from", str(tmp_path / "dump"), "--index", str(disk / "index.sqlite"))
        assert r.rc == 2, (r.out, r.err)
        assert "free" in r.err and "internal error" not in r.err and "Errno 28" not in r.err, r.err
        assert len(r.err.strip().splitlines()) == 1, r.err
        assert not (disk / "index.sqlite").exists()
