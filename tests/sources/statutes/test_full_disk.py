"""Issue 35 item 8: a statute sync that fills the disk says so in one line and leaves no ``-wal`` behind.

It ended in "internal error: OperationalError: database or disk is full", or — with a little more room —
stored the titles in SQLite's log, which could not be merged into the index and stayed beside it for good.
A small tmpfs of its own (root only; skipped elsewhere), a real release zip in the USLM format.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from citecheck.errors import DiskSpaceError
from citecheck.sources.statutes.build import build_index
from citecheck.sources.statutes.index import StatuteIndex
from citecheck_testing.disk import fill, small_disk
from citecheck_testing.statutes import write_synthetic_usc


@pytest.fixture(scope="module")
def release(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("release") / "xml_uscAll@118-200.zip"
    write_synthetic_usc(path, ["1", "2", "3", "4", "5"], 400, words=150)  # ~1 MB zip, ~7 MB of index
    return path


@pytest.mark.parametrize("leave", [200_000, 1_400_000, 2_000_000])
def test_a_full_disk_is_one_error_and_no_wal_is_left(tmp_path: Path, release: Path, leave: int) -> None:
    with small_disk(tmp_path / "disk", 24 << 20) as disk:
        fill(disk, leave)
        path = disk / "statutes.sqlite"
        index = StatuteIndex(path)
        try:
            with pytest.raises(DiskSpaceError, match=r"is full; title \d+ was rolled back .*Free some space"):
                build_index(index, usc=release)
        finally:
            index.close()
        assert sorted(p.name for p in disk.iterdir() if p.name.startswith("statutes")) == ["statutes.sqlite"]
        (disk / "filler").unlink()  # room again: the next sync stores every title
        with StatuteIndex(path) as again:
            build_index(again, usc=release)
            assert len(again.titles("usc")) == 5
