"""An index written by an older citecheck (the first layout, which read a case's court, docket and
parallel citations from other tables per lookup) is never half-used: readers refuse it with what to
run, ``corpus status`` says so, and every sync — from the bucket or ``--from DIR``, even of the dump it
was built from — builds it again from nothing and says why. And when the index cannot be replaced
because another program has it open (Windows), the new build waits beside it and is read at once."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from citecheck.errors import CorpusError
from citecheck.sources.index import files
from citecheck.sources.index.build import build_from_folder
from citecheck.sources.index.lookup import CitationIndex
from citecheck.sources.index.sync import sync
from citecheck.sources.models import CiteKey, LookupStatus
from citecheck_testing.bulk_bucket import FakeBucket
from citecheck_testing.bulk_dump import closed_volume_cases, index_status, schema1_index, write_dump


def test_a_reader_refuses_an_older_layout_and_says_what_to_run(tmp_path: Path) -> None:
    path = schema1_index(tmp_path / "index.sqlite")
    with pytest.raises(CorpusError, match=r"older layout \(index layout 1.*citecheck corpus sync"):
        CitationIndex(path)


def test_a_build_of_the_same_dump_rebuilds_an_older_layout_and_says_so(tmp_path: Path) -> None:
    path = schema1_index(tmp_path / "index.sqlite")
    write_dump(tmp_path / "dump", closed_volume_cases())  # the very dump the old index was built from
    stats = build_from_folder(path, tmp_path / "dump", full_dump=True)
    assert stats.mode == "full" and stats.rebuilt is not None and "older layout" in stats.rebuilt
    assert index_status(path, "100 A.2d 40") is LookupStatus.NOT_FOUND  # the new layout answers
    again = build_from_folder(path, tmp_path / "dump", full_dump=True)
    assert again.mode == "unchanged" and again.rebuilt is None


async def test_a_sync_of_the_same_dump_rebuilds_an_older_layout(tmp_path: Path) -> None:
    path = schema1_index(tmp_path / "data" / "index.sqlite")
    with FakeBucket() as bucket:
        write_dump(tmp_path / "pub", closed_volume_cases(), compress=True)
        bucket.put_folder(tmp_path / "pub")
        result = await sync(path, bulk_url=bucket.base_url)
    assert result.build.mode == "full" and result.downloaded > 0
    assert result.build.rebuilt is not None and "older layout" in result.build.rebuilt
    assert index_status(path, "100 A.2d 36") is LookupStatus.FOUND


# --- Windows: the index cannot be replaced while another program has it open -------------------


@pytest.fixture
def held(monkeypatch) -> set[Path]:
    """Files "open in another program": replacing or renaming them fails as Windows makes it fail."""
    paths: set[Path] = set()

    def replace(src: os.PathLike[str], dst: os.PathLike[str]) -> None:
        if Path(dst) in paths or Path(src) in paths:
            raise PermissionError(13, "The process cannot access the file because it is being used")
        os.replace(src, dst)

    monkeypatch.setattr(files, "replace", replace)
    return paths


def _dump(folder: Path, date: str, n: int) -> Path:
    write_dump(folder, closed_volume_cases()[:n], date=date)
    return folder


def test_a_build_waits_beside_an_index_in_use_and_is_read_at_once(tmp_path: Path, held: set[Path]) -> None:
    index = tmp_path / "index.sqlite"
    build_from_folder(index, _dump(tmp_path / "d1", "2026-03-31", 2), full_dump=True)
    reader = CitationIndex(index)  # the language server, say
    try:
        held.add(index)
        stats = build_from_folder(
            index, _dump(tmp_path / "d2", "2026-06-30", 13), full_dump=True, rebuild=True
        )
        assert stats.waiting and files.pending_path(index).exists()
        fresh = CitationIndex(index)  # a process started now reads the new build
        try:
            assert fresh.dump_date == "2026-06-30"
            assert fresh.lookup([CiteKey("100", "A.2d", "40")])[CiteKey("100", "A.2d", "40")].status is (
                LookupStatus.NOT_FOUND
            )
        finally:
            fresh.close()
        assert reader.refresh() and reader.dump_date == "2026-06-30"  # the running one within seconds
        # nobody holds the old file any more: the next reader or build puts the new one in place
        held.clear()
        again = CitationIndex(index)
        again.close()
        assert not files.pending_path(index).exists() and CitationIndex(index).dump_date == "2026-06-30"
    finally:
        reader.close()


def test_a_later_build_replaces_a_waiting_one(tmp_path: Path, held: set[Path]) -> None:
    index = tmp_path / "index.sqlite"
    build_from_folder(index, _dump(tmp_path / "d1", "2026-03-31", 2), full_dump=True)
    held.add(index)
    build_from_folder(index, _dump(tmp_path / "d2", "2026-06-30", 4), full_dump=True, rebuild=True)
    held.clear()
    held.add(files.pending_path(index))  # readers moved to the waiting build and hold it now
    stats = build_from_folder(index, _dump(tmp_path / "d3", "2026-09-30", 13), full_dump=True, rebuild=True)
    assert not stats.waiting
    ix = CitationIndex(index)  # the newest, though the stale waiting file could not be deleted yet
    try:
        assert ix.dump_date == "2026-09-30"
    finally:
        ix.close()
    held.clear()
    assert files.current(index) == index and not files.pending_path(index).exists()
