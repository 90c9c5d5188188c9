"""Name search on CourtListener's v4 search API, against the loopback CourtListener (127.0.0.1 only).

What must hold: only the case name (and a window of years) leaves the machine, the search is paced with
every other request, its answer in the documented v4 shape becomes records the corrections can propose,
and a bad answer or a failing service is a note, never a fix to something unrelated.
"""

from __future__ import annotations

from typing import Any

from citecheck.config import Settings
from citecheck.findings import Confidence, Kind
from citecheck.pipeline import check_document
from citecheck.sources.chain import SourceChain
from citecheck.sources.courtlistener import CourtListenerClient
from citecheck_testing.courtlistener import FakeCourtListener, Fault

SAVAGE = {  # one result of GET /api/rest/v4/search/?type=o, in the v4 shape (fields the client reads, and more)
    "absolute_url": "/opinion/1234567/savage-v-parks/",
    "attorney": "",
    "caseName": "Savage v. Parks",
    "caseNameFull": "SAVAGE et al. v. PARKS et al.",
    "citation": ["100 A.2d 450"],
    "citeCount": 3,
    "cluster_id": 1234567,
    "court": "District of Columbia Court of Appeals",
    "court_citation_string": "D.C.",
    "court_id": "dc",
    "dateFiled": "1953-11-18",
    "docketNumber": "No. 1401",
    "docket_id": 7654321,
    "neutralCite": None,
    "opinions": [{"id": 99, "snippet": "…", "type": "010combined"}],
    "status": "Published",
}
SAVAGE_ELSEWHERE = {
    **SAVAGE,
    "cluster_id": 7,
    "court_id": "md",
    "dateFiled": "1990-01-01",
    "citation": ["1 Md. 1"],
}
BRIEF = "A purchaser may rescind. Savage v. Parks, 100 A. 4th 450, 451 (D.C. 1953)."  # an invented series


def _client(fake: FakeCourtListener, **kw: Any) -> CourtListenerClient:
    return CourtListenerClient(fake.base_url, "t", request_rates="100/min", citation_rate="60/min", **kw)


async def test_an_impossible_citation_is_corrected_from_courtlistener_search(tmp_path) -> None:
    with FakeCourtListener(request_rates="100/min", named=(SAVAGE, SAVAGE_ELSEWHERE)) as fake:
        async with SourceChain([_client(fake)]) as chain:
            report = await check_document(BRIEF, chain, Settings(cache_path=tmp_path / "c.sqlite"))
    [f] = [x for x in report.findings if x.kind is Kind.IMPOSSIBLE_CITATION]
    [fix] = f.fixes  # the 1990 Maryland Savage is outside the years asked for
    assert fix.title == "Cite Savage v. Parks, 100 A.2d 450, 451 (1953)"
    assert fix.confidence is Confidence.HIGH and fix.preferred
    assert fix.evidence is not None and fix.evidence.record_id == "cl:1234567"
    url = fix.evidence.url or ""
    assert url.startswith("http://127.0.0.1:") and url.endswith("/opinion/1234567/savage-v-parks/")
    # what left the machine: the case name, the type, the order, a window of years — nothing else
    [q] = fake.searches
    assert q == {
        "type": ["o"],
        "case_name": ["Savage v. Parks"],
        "order_by": ["score desc"],
        "filed_after": ["1948-01-01"],
        "filed_before": ["1958-12-31"],
    }
    assert "rescind" not in str(q) and fake.counts.by_route.get("search") == 1


async def test_the_search_is_paced_with_every_other_request(tmp_path) -> None:
    # an allowance of two requests a (shortened) minute: the lookup and the search share it, in turn
    window = 0.4
    with FakeCourtListener(request_rates="2/min", time_scale=window / 60, named=(SAVAGE,)) as fake:
        cl = CourtListenerClient(
            fake.base_url, "t", request_rates="2/min", citation_rate="60/min", time_scale=window / 60
        )
        async with SourceChain([cl]) as chain:
            for _ in range(3):
                await chain.find_by_name("Savage v. Parks", years=(1952, 1954))
                await chain.find_by_name(f"Savage v. Parks {_}")  # another name: another request
    assert fake.counts.throttled == 0  # our pacer waited; the service never had to refuse
    assert fake.counts.by_route["search"] == 4  # the same name asked again comes from memory


async def test_a_bad_or_failing_search_is_a_note_never_a_fix(tmp_path) -> None:
    garbage = Fault(kind="status", status=200, body={"results": "not a list"})
    with FakeCourtListener(request_rates="100/min", named=(SAVAGE,)) as fake:
        fake.always = garbage
        async with SourceChain([_client(fake)]) as chain:
            found = await chain.find_by_name("Savage v. Parks")
            assert found.hits == () and found.failed and "courtlistener" in found.failed
        fake.always = Fault(
            kind="status", status=200, body={"results": [{"cluster_id": "x"}, 5, {"caseName": 1}]}
        )
        async with SourceChain([_client(fake)]) as chain:
            assert (
                await chain.find_by_name("Savage v. Parks")
            ).hits == ()  # nothing usable: nothing proposed


async def test_offline_or_without_a_token_no_name_leaves_the_machine(tmp_path) -> None:
    from citecheck.sources.chain import build_from_settings

    with FakeCourtListener(request_rates="100/min", named=(SAVAGE,)) as fake:
        for settings in (
            Settings(
                courtlistener_url=fake.base_url, courtlistener_token=None, cache_path=tmp_path / "a.sqlite"
            ),
            Settings(
                courtlistener_url=fake.base_url,
                courtlistener_token="t",
                offline=True,
                cache_path=tmp_path / "b.sqlite",
            ),
        ):
            chain = await build_from_settings(settings)
            try:
                await check_document(BRIEF, chain, settings)
            finally:
                await chain.close()
    assert fake.searches == [] and fake.counts.requests == 0


async def test_name_search_online_false_keeps_names_on_this_machine(tmp_path) -> None:
    from citecheck.sources.chain import build_from_settings

    with FakeCourtListener(request_rates="100/min", named=(SAVAGE,)) as fake:
        settings = Settings(
            courtlistener_url=fake.base_url,
            courtlistener_token="t",
            token_hosts=frozenset({"127.0.0.1"}),
            name_search_online=False,
            cache_path=tmp_path / "c.sqlite",
            cap_fetch=False,
        )
        chain = await build_from_settings(settings)
        try:
            report = await check_document(BRIEF, chain, settings)
        finally:
            await chain.close()
        # an impossible citation is never looked up
        assert fake.counts.by_route.get("citation-lookup", 0) == 0
        assert fake.searches == []  # and its name was not sent either
    assert all(f.fixes == () for f in report.findings if f.kind is Kind.IMPOSSIBLE_CITATION)
