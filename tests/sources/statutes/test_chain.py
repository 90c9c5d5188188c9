"""The statute index in the source chain: opened from the settings, answering statute keys, never raising."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import NamedTuple

from citecheck.config import Settings
from citecheck.sources.chain import SourceChain, open_source
from citecheck.sources.statutes.index import StatuteIndex
from citecheck.sources.statutes.link import StatuteLink
from citecheck.sources.statutes.records import LookupOutcome


class Key(NamedTuple):
    code: str
    title: str
    section: str


def _settings(tmp_path: Path, statutes: Path) -> Settings:
    return Settings(
        corpus_path=tmp_path / "corpus.sqlite",
        cache_path=tmp_path / "cache.sqlite",
        statutes_path=statutes,
        offline=True,
    )


async def test_open_source_opens_the_index_read_only(tmp_path: Path, index_file: Path) -> None:
    async with open_source(_settings(tmp_path, index_file)) as chain:
        assert "statute index" in chain.describe()
        answers = await chain.lookup_statutes(
            [Key("usc", "42", "1983"), Key("usc", "42", "1983b"), Key("usc", "5", "552")]
        )
        assert [a.outcome for a in answers.values()] == [
            LookupOutcome.FOUND,
            LookupOutcome.NOT_FOUND,
            LookupOutcome.NOT_COVERED,
        ]
        rec = answers[Key("usc", "42", "1983")].record
        assert rec is not None and (await chain.statute_text(rec) or "").startswith("Every person who")


async def test_no_index_means_not_covered_with_how_to_get_one(tmp_path: Path) -> None:
    async with open_source(_settings(tmp_path, tmp_path / "none.sqlite")) as chain:
        (answer,) = (await chain.lookup_statutes([Key("usc", "42", "1983")])).values()
        assert answer.outcome is LookupOutcome.NOT_COVERED and "corpus sync --statutes" in answer.reason
    assert not (tmp_path / "none.sqlite").exists()


async def test_a_broken_index_is_not_covered_never_not_found(tmp_path: Path, index_file: Path) -> None:
    chain = SourceChain([StatuteLink(StatuteIndex(index_file, readonly=True))])
    with sqlite3.connect(index_file) as db:
        db.execute("DROP TABLE sections")
    (answer,) = (await chain.lookup_statutes([Key("usc", "42", "1983")])).values()
    assert answer.outcome is LookupOutcome.NOT_COVERED and "unavailable" in answer.reason
    await chain.close()


async def test_a_corrupt_index_file_leaves_statutes_unchecked(tmp_path: Path) -> None:
    bad = tmp_path / "statutes.sqlite"
    bad.write_bytes(b"garbage" * 500)
    async with open_source(_settings(tmp_path, bad)) as chain:
        (answer,) = (await chain.lookup_statutes([Key("usc", "42", "1983")])).values()
        assert answer.outcome is LookupOutcome.NOT_COVERED
