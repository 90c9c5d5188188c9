"""The source chain: order, honest coverage, failures → cannot-verify, open_source from settings."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pytest

from citecheck.config import Settings
from citecheck.errors import SourceUnavailable
from citecheck.sources.base import AuthoritySource, Unavailable
from citecheck.sources.cache import Cache
from citecheck.sources.chain import SourceChain, open_source
from citecheck.sources.corpus import Corpus, CorpusSource
from citecheck.sources.models import (
    CaseCite,
    CaseRecord,
    CiteKey,
    LookupResult,
    LookupStatus,
    NameHit,
    NameSearch,
    OpinionText,
    PassageHit,
)


class RecordingRemote:
    """A real AuthoritySource implementation with canned answers that records what it was asked."""

    name = "courtlistener"

    def __init__(self, answers: dict[CiteKey, LookupResult] | None = None, fail: bool = False) -> None:
        self.answers = answers or {}
        self.fail = fail
        self.asked: list[CiteKey] = []

    async def lookup(self, keys: Sequence[CiteKey]) -> dict[CiteKey, LookupResult]:
        self.asked.extend(keys)
        if self.fail:
            raise SourceUnavailable("cannot connect")
        return {k: self.answers[k] for k in keys if k in self.answers}

    async def opinion(self, record: CaseRecord) -> OpinionText | None:
        if self.fail:
            raise SourceUnavailable("cannot connect")
        return OpinionText(case_id=record.id, text="remote text")

    async def find_passage(self, passage: str, *, limit: int = 5) -> list[PassageHit]:
        return []

    async def close(self) -> None:
        pass


REMOTE_REC = CaseRecord(
    id="cl:77",
    source="courtlistener",
    name="Far v. Away",
    citations=(CaseCite(volume="500", reporter="F.3d", page="1"),),
)


async def test_chain_is_an_authority_source(real_corpus_file: Path):
    chain = SourceChain([CorpusSource(Corpus(real_corpus_file))])
    assert isinstance(chain, AuthoritySource)
    await chain.close()


async def test_corpus_answers_first_remote_gets_only_the_rest(real_corpus_file: Path, tmp_path: Path):
    remote = RecordingRemote(
        {
            CiteKey("500", "F.3d", "1"): LookupResult(
                key=CiteKey("500", "F.3d", "1"),
                status=LookupStatus.FOUND,
                records=(REMOTE_REC,),
                source="courtlistener",
            )
        }
    )
    cache = await Cache.open(tmp_path / "cache.sqlite")
    async with SourceChain([CorpusSource(Corpus(real_corpus_file)), cache, remote]) as chain:
        keys = [CiteKey("100", "A.2d", "36"), CiteKey("500", "F.3d", "1"), CiteKey("100", "A.2d", "500")]
        res = await chain.lookup(keys)
        assert list(res) == keys
        assert res[keys[0]].status is LookupStatus.FOUND and res[keys[0]].source == "corpus"
        assert res[keys[1]].record == REMOTE_REC
        assert res[keys[2]].status is LookupStatus.CANNOT_VERIFY
        assert "only part of 100 A.2d" in res[keys[2]].reason
        assert remote.asked == [keys[1], keys[2]]  # the corpus hit never left the machine
        # second time: the remote answer comes from the cache, the remote is not asked again
        remote.asked.clear()
        again = await chain.lookup([keys[1]])
        assert again[keys[1]].source == "cache" and again[keys[1]].record == REMOTE_REC
        assert remote.asked == []


async def test_failing_remote_is_cannot_verify_never_not_found(real_corpus_file: Path):
    remote = RecordingRemote(fail=True)
    async with SourceChain([CorpusSource(Corpus(real_corpus_file)), remote]) as chain:
        k = CiteKey("999", "F.3d", "123")
        r = (await chain.lookup([k]))[k]
        assert r.status is LookupStatus.CANNOT_VERIFY
        assert "does not cover 999 F.3d" in r.reason and "unavailable" in r.reason
        # a failed fetch is said out loud (the pipeline turns it into opinion-unavailable), never a silent None
        with pytest.raises(SourceUnavailable):
            await chain.opinion(REMOTE_REC)


async def test_database_cites_never_leave_the_machine():
    remote = RecordingRemote()
    chain = SourceChain([remote])
    k = CiteKey("2019", "WL", "123456")
    r = (await chain.lookup([k]))[k]
    assert r.status is LookupStatus.CANNOT_VERIFY and "Westlaw/Lexis" in r.reason
    assert remote.asked == []


async def test_no_sources_at_all_is_cannot_verify():
    chain = SourceChain([Unavailable("offline mode")])
    k = CiteKey("1", "U.S.", "1")
    r = (await chain.lookup([k, k]))[k]
    assert r.status is LookupStatus.CANNOT_VERIFY and r.reason == "offline mode"
    assert "offline" in chain.describe()


async def test_opinion_and_passage_from_corpus(real_corpus_file: Path):
    async with SourceChain([CorpusSource(Corpus(real_corpus_file))]) as chain:
        rec = (await chain.lookup([CiteKey("100", "A.3d", "1076")]))[CiteKey("100", "A.3d", "1076")].record
        assert rec is not None and rec.name == "West v. United States"
        op = await chain.opinion(rec)
        assert op is not None and op.page_map("A.3d") is not None
        hits = await chain.find_passage("indecent exposure in a public place")
        assert [h.case.name for h in hits] == ["Peyton v. District of Columbia"]
        assert hits[0].page == "37" and hits[0].reporter == "A.2d"  # *37 sits in the head matter


async def test_open_source_offline_uses_corpus_and_cache(real_corpus_file: Path, tmp_path: Path):
    settings = Settings(
        corpus_path=real_corpus_file,
        cache_path=tmp_path / "c" / "cache.sqlite",
        offline=True,
        courtlistener_token="x",
    )
    async with open_source(settings) as source:
        assert isinstance(source, AuthoritySource)
        text = source.describe()
        assert "local corpus" in text and "offline" in text and "CAP volume download" not in text
        res = await source.lookup([CiteKey("100", "A.2d", "36"), CiteKey("5", "F.4th", "1")])
        assert res[CiteKey("100", "A.2d", "36")].status is LookupStatus.FOUND
        assert res[CiteKey("5", "F.4th", "1")].status is LookupStatus.CANNOT_VERIFY
        await source.clear_cache()


async def test_open_source_without_token_says_so(tmp_path: Path):
    settings = Settings(
        corpus_path=tmp_path / "new" / "corpus.sqlite", cache_path=tmp_path / "cache.sqlite", cap_fetch=False
    )
    async with open_source(settings) as source:
        k = CiteKey("410", "U.S.", "113")
        r = (await source.lookup([k]))[k]
        assert r.status is LookupStatus.CANNOT_VERIFY and "no CourtListener token" in r.reason


async def test_a_fresh_import_wins_over_a_cached_remote_answer(tmp_path: Path, cap_volume: Path):
    from citecheck.sources.importing import import_path

    key = CiteKey("100", "A.2d", "36")
    remote = RecordingRemote(
        {
            key: LookupResult(
                key=key,
                status=LookupStatus.CANNOT_VERIFY,
                source="courtlistener",
                reason="not in CourtListener",
            )
        }
    )
    corpus = Corpus(tmp_path / "c.sqlite")
    cache = await Cache.open(tmp_path / "cache.sqlite")
    async with SourceChain([CorpusSource(corpus), cache, remote]) as chain:
        first = (await chain.lookup([key]))[key]
        assert first.status is LookupStatus.CANNOT_VERIFY and "not in CourtListener" in first.reason
        cached = (await chain.lookup([key]))[key]
        assert cached.source == "cache" and remote.asked == [key]  # asked once, then cached
        import_path(corpus, cap_volume)
        after = (await chain.lookup([key]))[key]
        assert after.status is LookupStatus.FOUND and after.source == "corpus"


class NamingRemote(RecordingRemote):
    """A remote that can also find cases by name (as CourtListener's search does), or fails to."""

    def __init__(self, hits: tuple[CaseRecord, ...] = (), fail: bool = False) -> None:
        super().__init__(fail=fail)
        self.hits = hits
        self.names: list[str] = []

    async def find_by_name(self, name: str, **kw: object) -> NameSearch:
        self.names.append(name)
        if self.fail:
            raise SourceUnavailable("cannot connect")
        return NameSearch(hits=tuple(NameHit(record=r, score=1.0, source=self.name) for r in self.hits))


async def test_name_search_asks_the_corpus_then_the_remote_and_merges_one_case_once(real_corpus_file: Path):
    savage_there = CaseRecord(
        id="cl:900",
        source="courtlistener",
        name="Savage v. Parks",
        citations=(CaseCite(volume="100", reporter="A.2d", page="450"),),  # the corpus's Savage, as a cluster
    )
    remote = NamingRemote(hits=(savage_there, REMOTE_REC))
    chain = SourceChain([CorpusSource(Corpus(real_corpus_file)), remote])
    found = await chain.find_by_name("Savage v. Parks")
    assert [h.record.id for h in found.hits] == ["cap:8124566", "cl:77"]  # one Savage, the corpus's
    assert found.asked == ("the local corpus", "courtlistener") and found.failed is None
    local = await chain.find_by_name("Savage v. Parks", remote=False)
    assert [h.record.id for h in local.hits] == ["cap:8124566"] and remote.names == ["Savage v. Parks"]
    await chain.close()


async def test_a_failing_name_search_is_a_note_never_an_error(real_corpus_file: Path):
    chain = SourceChain([CorpusSource(Corpus(real_corpus_file)), NamingRemote(fail=True)])
    found = await chain.find_by_name("Berry v. Keith")
    assert [h.record.name for h in found.hits] == ["Berry v. Keith"]
    assert found.failed is not None and "courtlistener" in found.failed and "cannot connect" in found.failed
    assert (await chain.lookup_local([CiteKey("100", "A.2d", "831")]))[CiteKey("100", "A.2d", "831")].record
    await chain.close()
