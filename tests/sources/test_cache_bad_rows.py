"""One bad cache row (valid SQLite, bad JSON or the wrong shape) is a miss, is logged and is repaired;
it never takes the other rows — or the run — down with it."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from citecheck.sources.cache import Cache
from citecheck.sources.models import CaseRecord, CiteKey, LookupResult, LookupStatus, OpinionText

GOOD = [CiteKey("410", "U.S.", str(100 + i)) for i in range(10)]


def _found(key: CiteKey) -> LookupResult:
    rec = CaseRecord(id=f"cl:{key.page}", source="courtlistener", name="Roe v. Wade")
    return LookupResult(key=key, status=LookupStatus.FOUND, records=(rec,), source="courtlistener")


BAD_ROWS = [
    "{not json",
    "[]",
    "null",
    json.dumps({"key": ["410", "U.S.", "101"], "status": "no-such-status"}),
    json.dumps({"key": ["410", "U.S.", "101"], "status": "found", "records": [{"id": "cl:1"}]}),
    json.dumps(
        {"key": ["410", "U.S.", "101"], "status": "found", "records": [{"id": 5, "source": "x", "name": 7}]}
    ),
    json.dumps({"key": 5, "status": "found"}),
]


@pytest.mark.parametrize("bad", BAD_ROWS)
async def test_a_bad_lookup_row_is_a_miss_and_is_repaired(tmp_path: Path, bad: str) -> None:
    path = tmp_path / "cache.sqlite"
    cache = await Cache.open(path)
    await cache.put_lookups([_found(k) for k in GOOD])
    await cache.close()
    with sqlite3.connect(path) as db:
        n = db.execute("UPDATE lookups SET result = ? WHERE key LIKE '%101%'", (bad,)).rowcount
        assert n == 1
    cache = await Cache.open(path)
    try:
        got = await cache.get_lookups(GOOD)
        assert set(got) == set(GOOD) - {GOOD[1]}  # 9 of 10 answered from the cache, the bad one a miss
        again = await cache.get_lookups(GOOD)
        assert set(again) == set(got)
    finally:
        await cache.close()
    with sqlite3.connect(path) as db:  # repaired: the bad row is gone, so the next lookup refills it
        assert db.execute("SELECT COUNT(*) FROM lookups").fetchone()[0] == 9


async def test_bad_record_and_opinion_rows_are_misses(tmp_path: Path) -> None:
    path = tmp_path / "cache.sqlite"
    cache = await Cache.open(path)
    rec = CaseRecord(id="cl:1", source="courtlistener", name="Roe v. Wade")
    await cache.put_opinion(rec, OpinionText(case_id="cl:1", text="The right of privacy.", page_maps=()))
    await cache.close()
    with sqlite3.connect(path) as db:
        db.execute("UPDATE records SET record = '{oops'")
        db.execute("UPDATE opinions SET opinion = '[1,2]'")
    cache = await Cache.open(path)
    try:
        assert await cache.get_opinion("cl:1") is None
        assert await cache.find_passage("The right of privacy.") == []
    finally:
        await cache.close()
