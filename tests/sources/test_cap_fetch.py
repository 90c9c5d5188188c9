"""CAP volume download over loopback: a static server laid out like case.law, serving the shared sample."""

from __future__ import annotations

import functools
import socket
import threading
from http.server import SimpleHTTPRequestHandler
from pathlib import Path

import pytest

from citecheck.config import Settings
from citecheck.sources.cache import Cache
from citecheck.sources.cap_fetch import CapFetcher
from citecheck.sources.cap_volumes import CapVolumes
from citecheck.sources.chain import SourceChain, open_source
from citecheck.sources.corpus import Corpus, CorpusSource
from citecheck.sources.corpus_server import QuietHTTPServer
from citecheck.sources.models import CiteKey, LookupStatus
from citecheck_testing import shared_corpus_path


@pytest.fixture
def static_cap():
    root = shared_corpus_path("cap-static")
    paths: list[str] = []

    class Handler(SimpleHTTPRequestHandler):
        def do_GET(self):
            paths.append(self.path)
            super().do_GET()

        def log_message(self, *args):
            pass

    httpd = QuietHTTPServer(("127.0.0.1", 0), functools.partial(Handler, directory=str(root)))
    httpd.daemon_threads = True
    thread = threading.Thread(target=httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}/", paths
    httpd.shutdown()
    httpd.server_close()


async def test_fetch_imports_the_volume_and_sends_only_volume_paths(static_cap, tmp_path: Path):
    url, paths = static_cap
    corpus = Corpus(tmp_path / "c.sqlite")
    fetcher = CapFetcher(url)
    try:
        out = await fetcher.fetch_and_import([("A.2d", "100")], corpus)
    finally:
        await fetcher.close()
    assert out.imported == {("A.2d", "100")} and out.failures == {}
    assert out.stats[0].cases == 9 and out.stats[0].complete_volumes == ()
    assert all(p.startswith("/a2d/100/") for p in paths)
    assert len(paths) == 1 + 9 * 2  # CasesMetadata + cases/*.json + html/*.html
    rec = corpus.lookup_one(CiteKey("100", "A.2d", "450")).record
    assert rec is not None and rec.name == "Savage v. Parks"
    assert rec.url == f"{url}a2d/100/cases/0450-01.json"
    op = corpus.opinion(rec.id)
    assert op is not None and op.page_map("A.2d") is not None


async def test_missing_volume_is_remembered_in_the_cache(static_cap, tmp_path: Path):
    url, paths = static_cap
    corpus = Corpus(tmp_path / "c.sqlite")
    cache = await Cache.open(tmp_path / "cache.sqlite")
    fetcher = CapFetcher(url, cache=cache)
    try:
        out = await fetcher.fetch_and_import([("A.2d", "101"), ("F.4th", "1"), ("Umbrella", "3")], corpus)
        assert out.imported == set()
        assert out.failures[("A.2d", "101")] == "CAP has no volume 101 A.2d"
        assert "CAP ends in 2018" in out.failures[("F.4th", "1")]
        assert "not a reporter" in out.failures[("Umbrella", "3")]
        again = await fetcher.fetch_and_import([("A.2d", "101")], corpus)
        assert again.failures[("A.2d", "101")] == "CAP has no volume 101 A.2d"
        assert paths == ["/a2d/101/CasesMetadata.json"]  # asked once; F.4th and Umbrella never asked
        fresh = CapFetcher(url, cache=cache)  # a new process: the cache remembers
        try:
            assert (await fresh.fetch_and_import([("A.2d", "101")], corpus)).failures
        finally:
            await fresh.close()
        assert len(paths) == 1
        no_cache = CapFetcher(url)  # without a cache, the fetcher itself asks only once
        try:
            await no_cache.fetch_and_import([("A.2d", "103")], corpus)
            await no_cache.fetch_and_import([("A.2d", "103")], corpus)
        finally:
            await no_cache.close()
        assert paths.count("/a2d/103/CasesMetadata.json") == 1
    finally:
        await fetcher.close()
        await cache.close()


async def test_chain_downloads_cited_volumes_not_yet_local(static_cap, tmp_path: Path):
    url, paths = static_cap
    corpus = CorpusSource(Corpus(tmp_path / "c.sqlite"))
    async with SourceChain([corpus, CapVolumes(CapFetcher(url))]) as chain:
        keys = [CiteKey("100", "A.2d", "831"), CiteKey("100", "A.2d", "600")]
        res = await chain.lookup(keys)
        assert res[keys[0]].status is LookupStatus.FOUND and res[keys[0]].record.name == "Berry v. Keith"
        # downloaded, but the (trimmed) volume has gaps: a real case elsewhere is never "not found"
        assert res[keys[1]].status is LookupStatus.CANNOT_VERIFY
        n = len(paths)
        await chain.lookup([CiteKey("100", "A.2d", "36")])
        assert len(paths) == n  # the volume is local now: nothing more is downloaded


async def test_network_down_is_fast_cannot_verify(tmp_path: Path):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    settings = Settings(
        corpus_path=tmp_path / "c.sqlite",
        cache_path=tmp_path / "cache.sqlite",
        cap_url=f"http://127.0.0.1:{port}/",
        courtlistener_url=f"http://127.0.0.1:{port}/api/rest/v4/",
        courtlistener_token="t",
        token_hosts=frozenset({"127.0.0.1"}),
    )
    async with open_source(settings) as source:
        k = CiteKey("100", "A.2d", "36")
        r = (await source.lookup([k]))[k]
        assert r.status is LookupStatus.CANNOT_VERIFY
        assert "CAP download of 100 A.2d failed" in r.reason and "courtlistener unavailable" in r.reason
        assert "CourtListener" in source.describe()


async def test_unreachable_site_is_tried_once_not_per_volume(tmp_path: Path):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    fetcher = CapFetcher(f"http://127.0.0.1:{port}/")
    try:
        out = await fetcher.fetch_and_import([("A.2d", "1"), ("A.2d", "2")], Corpus(tmp_path / "c.sqlite"))
    finally:
        await fetcher.close()
    assert "cannot reach" in out.failures[("A.2d", "1")]
    assert out.failures[("A.2d", "2")].startswith("CAP site unreachable")


async def test_concurrent_checks_download_a_volume_once(static_cap, tmp_path: Path):
    import asyncio

    url, paths = static_cap
    corpus = Corpus(tmp_path / "c.sqlite")
    fetcher = CapFetcher(url)
    try:
        a, b = await asyncio.gather(
            fetcher.fetch_and_import([("A.2d", "100")], corpus),
            fetcher.fetch_and_import([("A.2d", "100")], corpus),
        )
        assert a.imported == b.imported == {("A.2d", "100")}
        assert paths.count("/a2d/100/CasesMetadata.json") == 1
        again = await fetcher.fetch_and_import([("A.2d", "100")], corpus, refresh=True)
        assert again.stats[0].cases == 9 and paths.count("/a2d/100/CasesMetadata.json") == 2
    finally:
        await fetcher.close()


async def test_neutral_citations_are_not_fetched(tmp_path: Path):
    fetcher = CapFetcher("http://127.0.0.1:9/")  # never contacted
    try:
        out = await fetcher.fetch_and_import([("IL App (1st)", "2018")], Corpus(tmp_path / "c.sqlite"))
    finally:
        await fetcher.close()
    assert "neutral" in out.failures[("IL App (1st)", "2018")]
