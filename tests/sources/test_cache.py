"""The aiosqlite lookup cache: TTLs, opinions + passage search, concurrency, corruption recovery."""

import asyncio
import logging
from pathlib import Path

from citecheck.sources.cache import NEGATIVE_TTL_S, POSITIVE_TTL_S, Cache
from citecheck.sources.models import (
    CaseCite,
    CaseRecord,
    CiteKey,
    LookupResult,
    LookupStatus,
    OpinionText,
    PageMap,
)

REC = CaseRecord(
    id="cl:1",
    source="courtlistener",
    name="Smith v. Jones",
    decision_date="2001-02-03",
    citations=(CaseCite(volume="5", reporter="F.3d", page="10", last_page="12"),),
)
FOUND = LookupResult(
    key=CiteKey("5", "F.3d", "10"), status=LookupStatus.FOUND, records=(REC,), source="courtlistener"
)
MISSING = LookupResult(
    key=CiteKey("5", "F.2d", "99"),
    status=LookupStatus.NOT_FOUND,
    source="courtlistener",
    reason="no case there",
)


async def test_lookups_round_trip_and_expire(tmp_path: Path):
    cache = await Cache.open(tmp_path / "cache.sqlite")
    try:
        await cache.put_lookups([FOUND, MISSING], now=1000.0)
        got = await cache.get_lookups([FOUND.key, MISSING.key, CiteKey("1", "U.S.", "1")], now=1001.0)
        assert set(got) == {FOUND.key, MISSING.key}
        assert got[FOUND.key].record == REC and got[FOUND.key].source == "cache"
        assert "no case there" in got[MISSING.key].reason
        # negative answers expire first
        later = await cache.get_lookups([FOUND.key, MISSING.key], now=1000.0 + NEGATIVE_TTL_S + 1)
        assert set(later) == {FOUND.key}
        assert await cache.get_lookups([FOUND.key], now=1000.0 + POSITIVE_TTL_S + 1) == {}
    finally:
        await cache.close()


async def test_opinion_round_trip_and_passage_search(tmp_path: Path):
    cache = await Cache.open(tmp_path / "cache.sqlite")
    text = "Head matter.\nThe court held that the statute of frauds applies to oral leases."
    op = OpinionText(
        case_id="cl:1",
        text=text,
        page_maps=(PageMap(reporter="F.3d", volume="5", first_page="10", starts=((13, "11"),)),),
    )
    try:
        await cache.put_opinion(REC, op)
        await cache.put_opinion(REC, op)  # replacing keeps one FTS row
        assert await cache.get_opinion("cl:1") == op
        hits = await cache.find_passage("the \u201cstatute of frauds\u201d applies")
        assert len(hits) == 1 and hits[0].page == "11" and hits[0].case == REC
        assert await cache.find_passage("nothing like this at all") == []
        await cache.clear()
        assert await cache.get_opinion("cl:1") is None and await cache.find_passage("statute of frauds") == []
    finally:
        await cache.close()


async def test_two_connections_at_once(tmp_path: Path):
    """The language server and the CLI share the file (WAL)."""
    a = await Cache.open(tmp_path / "cache.sqlite")
    b = await Cache.open(tmp_path / "cache.sqlite")
    try:
        keys = [CiteKey(str(i), "F.3d", "1") for i in range(50)]
        results = [LookupResult(key=k, status=LookupStatus.FOUND, records=(REC,), source="x") for k in keys]
        await asyncio.gather(a.put_lookups(results[:25]), b.put_lookups(results[25:]), a.get_lookups(keys))
        assert len(await b.get_lookups(keys)) == 50
    finally:
        await a.close()
        await b.close()


async def test_corrupt_file_is_moved_aside_and_rebuilt(tmp_path: Path, caplog):
    path = tmp_path / "cache.sqlite"
    path.write_bytes(b"this is not a database, just junk " * 100)
    with caplog.at_level(logging.WARNING):
        cache = await Cache.open(path)
    try:
        assert any("corrupt" in r.message for r in caplog.records)
        assert list(tmp_path.glob("cache.sqlite.corrupt-*"))
        await cache.put_lookups([FOUND])
        assert FOUND.key in await cache.get_lookups([FOUND.key])
    finally:
        await cache.close()


async def test_missing_volume_memo(tmp_path: Path):
    cache = await Cache.open(tmp_path / "cache.sqlite")
    try:
        assert await cache.volume_missing("A.2d", "9") is None
        await cache.put_volume_missing("A.2d", "9", "CAP has no volume 9 A.2d")
        assert await cache.volume_missing("A.2d", "9") == "CAP has no volume 9 A.2d"
    finally:
        await cache.close()


def test_busy_is_not_corrupt():
    import sqlite3

    from citecheck.sources.cache import _corrupt, _in_use

    locked = sqlite3.OperationalError("database is locked")
    assert _in_use(locked) and not _corrupt(locked)  # never moved aside while another process holds it
    assert _corrupt(sqlite3.DatabaseError("file is not a database"))
    assert _corrupt(sqlite3.DatabaseError("database disk image is malformed"))
