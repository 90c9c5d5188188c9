"""Text on demand: a case the index resolved has its opinion fetched from CourtListener, that one cluster,
when a quote needs it (paced, cached), so quote checks run; its citation is never looked up remotely."""

from __future__ import annotations

from pathlib import Path

from citecheck.config import Settings
from citecheck.findings import Kind
from citecheck.pipeline import check_document
from citecheck.sources.base import Unavailable
from citecheck.sources.cache import Cache
from citecheck.sources.chain import SourceChain
from citecheck.sources.courtlistener import CourtListenerClient
from citecheck.sources.index.build import build_from_folder
from citecheck.sources.index.source import IndexSource
from citecheck_testing.bulk_dump import closed_volume_cases, write_dump
from citecheck_testing.courtlistener import FakeCourtListener

BRIEF = (
    'The rule is settled: "the rule applies to every case." *Roe v. Wade*, 410 U.S. 113, 113 (1973).\n\n'
    'Not so: "the rule applies to no case." *Roe v. Wade*, 410 U.S. 113, 113 (1973).\n'
)


async def _check(tmp_path: Path, fake: FakeCourtListener):
    chain = SourceChain(
        [
            IndexSource.open(tmp_path / "index.sqlite"),
            await Cache.open(tmp_path / "cache.sqlite"),
            CourtListenerClient(fake.base_url, "t", request_rates="100/min", citation_rate="60/min"),
        ]
    )
    async with chain:
        return await check_document(BRIEF, chain, Settings(cache_path=tmp_path / "cache.sqlite"))


async def test_an_index_case_gets_its_text_from_courtlistener_once(tmp_path: Path) -> None:
    write_dump(tmp_path / "dump", closed_volume_cases())
    build_from_folder(tmp_path / "index.sqlite", tmp_path / "dump", full_dump=True)
    with FakeCourtListener(request_rates="100/min") as fake:
        fake.add_cluster(910000301, "410 U.S. 113", "Roe v. Wade")
        report = await _check(tmp_path, fake)
        kinds = [(report.extraction.citations[f.citation_index].span.start, f.kind) for f in report.findings]
        assert [k for _, k in kinds] == [Kind.MISQUOTE], kinds  # the second quote only; the first verified
        assert fake.counts.lookups == 0  # the index answered the citation: nothing looked up remotely
        assert fake.counts.by_route.get("clusters") == 1 and fake.counts.by_route.get("opinions") == 1
        asked = fake.counts.requests
        again = await _check(tmp_path, fake)  # a second run: the text comes from the cache
        assert [f.kind for f in again.findings] == [Kind.MISQUOTE]
        assert fake.counts.requests == asked


async def test_an_index_case_in_a_cap_volume_gets_its_text_from_the_volume(tmp_path: Path) -> None:
    """The CAP static site (loopback, serving the real 100 A.2d sample): the volume of the case the index
    found is fetched and imported when a quote needs the text; only the volume's path is requested."""
    import functools
    import threading
    from http.server import SimpleHTTPRequestHandler

    from citecheck.sources.cap_fetch import CapFetcher
    from citecheck.sources.cap_volumes import CapVolumes
    from citecheck.sources.corpus import Corpus, CorpusSource
    from citecheck.sources.corpus_server import QuietHTTPServer
    from citecheck_testing import shared_corpus_path

    root = shared_corpus_path("cap-static")
    paths: list[str] = []

    class Handler(SimpleHTTPRequestHandler):
        def do_GET(self) -> None:
            paths.append(self.path)
            super().do_GET()

        def log_message(self, *args: object) -> None:
            pass

    httpd = QuietHTTPServer(("127.0.0.1", 0), functools.partial(Handler, directory=str(root)))
    threading.Thread(target=httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True).start()
    write_dump(tmp_path / "dump", closed_volume_cases())
    build_from_folder(tmp_path / "index.sqlite", tmp_path / "dump", full_dump=True)
    brief = (
        'A conviction needs intent: "a criminal intent must be shown in a prosecution under this statute." '
        '*Peyton v. District of Columbia*, 100 A.2d 36, 37 (D.C. 1953). But "no intent need ever be shown." '
        "*Peyton v. District of Columbia*, 100 A.2d 36, 37 (D.C. 1953).\n"
    )
    try:
        chain = SourceChain(
            [
                CorpusSource(Corpus(tmp_path / "corpus.sqlite")),
                IndexSource.open(tmp_path / "index.sqlite"),
                CapVolumes(CapFetcher(f"http://127.0.0.1:{httpd.server_address[1]}/")),
                Unavailable("no CourtListener token"),
            ]
        )
        async with chain:
            report = await check_document(brief, chain, Settings(cache_path=tmp_path / "cache.sqlite"))
    finally:
        httpd.shutdown()
        httpd.server_close()
    assert [f.kind for f in report.findings] == [Kind.MISQUOTE], report.findings
    assert report.results[0].status == "verified" and report.results[0].passage
    assert paths and all(p.startswith("/a2d/100/") for p in paths)
