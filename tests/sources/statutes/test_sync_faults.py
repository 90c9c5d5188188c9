"""Issue 35 items 3 and 5 for ``sync --statutes``: an eCFR title or a U.S. Code zip damaged on the way is
deleted and fetched again by the next sync (it was reused forever with 0 requests: neither has a checksum
in its listing), and what the services answer is read with a bound. Real loopback server, real files."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest

from citecheck.errors import ImportFormatError
from citecheck.sources.statutes.build import BuildStats
from citecheck.sources.statutes.index import StatuteIndex
from citecheck.sources.statutes.sync import SyncRequest, sync_statutes
from citecheck_testing.statutes import (
    TITLE_17_CFR,
    TITLE_42,
    VERSIONS_17,
    StatuteFiles,
    StatuteServer,
    ecfr_title,
    titles_json,
    uslm_title,
    versions_json,
)


def _files() -> StatuteFiles:
    return StatuteFiles(
        usc={"usc42.xml": uslm_title("42", TITLE_42, chapter_size=3)},
        ecfr={"17": ecfr_title("17", TITLE_17_CFR)},
        ecfr_versions={"17": versions_json("17", VERSIONS_17)},
        ecfr_titles=titles_json({"17": ("Commodity and Securities Exchanges", "2024-01-03")}),
    )


async def _sync(server: StatuteServer, index: StatuteIndex, work: Path, **kw: bool) -> BuildStats:
    request = SyncRequest(uscode_url=server.uscode_url, ecfr_url=server.ecfr_url, work=work, **kw)
    async with httpx.AsyncClient(timeout=10) as client:
        return await sync_statutes(index, request, client=client)


def _asked(files: StatuteFiles, end: str) -> int:
    return sum(1 for path, _ in files.requests if path.endswith(end))


async def test_an_ecfr_title_damaged_on_the_way_is_fetched_again(tmp_path: Path) -> None:
    files = _files()
    good = files.ecfr["17"]
    files.ecfr["17"] = good[: len(good) // 2]  # this once: the connection gave half the title
    with StatuteServer(files) as server, StatuteIndex(tmp_path / "statutes.sqlite") as index:
        stats = await _sync(server, index, tmp_path / "dl", usc=False)
        assert stats.refused and "broken XML" in stats.refused[0]  # refused, not stored
        assert not list((tmp_path / "dl").rglob("title-17.xml*"))  # and not kept to be reused
        files.ecfr["17"] = good
        before = _asked(files, "title-17.xml")
        await _sync(server, index, tmp_path / "dl", usc=False)
        assert _asked(files, "title-17.xml") == before + 1  # fetched afresh, not the damaged copy again
        assert [t.title for t in index.titles("cfr")] == ["17"]


async def test_a_us_code_zip_damaged_on_the_way_is_fetched_again(tmp_path: Path) -> None:
    files = _files()
    good = files.zip_bytes()
    files._zip = good[:200] + bytes(len(good) - 200)  # same size, zeroes after the first bytes
    with StatuteServer(files) as server, StatuteIndex(tmp_path / "statutes.sqlite") as index:
        with pytest.raises(ImportFormatError, match="fetch it afresh"):
            await _sync(server, index, tmp_path / "dl", cfr=False)
        files._zip = good
        before = _asked(files, ".zip")
        await _sync(server, index, tmp_path / "dl", cfr=False)
        assert _asked(files, ".zip") > before
        assert [t.title for t in index.titles("usc")] == ["42"]
