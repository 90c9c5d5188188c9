"""CourtListener v4 client: against our corpus server, the documented v4 JSON, and scripted failures.

Every test talks HTTP to a real server on 127.0.0.1 (started here, stopped after).
"""

from __future__ import annotations

import json
import socket
import time
from pathlib import Path
from urllib.parse import parse_qs

import httpx
import pytest

from citecheck.errors import AuthenticationError, RateLimited, SourceUnavailable
from citecheck.sources.cap_import import import_cap_volume
from citecheck.sources.corpus import Corpus
from citecheck.sources.corpus_server import CorpusServer
from citecheck.sources.courtlistener import (
    MAX_CITES_PER_REQUEST,
    MAX_TEXT_CHARS,
    CourtListenerClient,
    batches,
)
from citecheck.sources.models import CaseRecord, CiteKey, LookupStatus
from citecheck_testing import shared_corpus_path


class Sleeps:
    """A fake sleep with its own clock (starting at the real time): sleeping advances the clock."""

    def __init__(self) -> None:
        self.calls: list[float] = []
        self.now = time.time()

    async def __call__(self, seconds: float) -> None:
        self.calls.append(seconds)
        self.now += seconds

    def clock(self) -> float:
        return self.now


def client(url: str, **kw) -> CourtListenerClient:
    sleeps = kw.setdefault("sleep", Sleeps())
    kw.setdefault("clock", sleeps.clock)
    return CourtListenerClient(url, "secret-token", **kw)


# ---------------------------------------------------------------- against `citecheck corpus serve`
@pytest.fixture
def served(real_corpus_file: Path):
    srv = CorpusServer(real_corpus_file).start()
    yield srv
    srv.stop()


async def test_lookup_and_opinion_round_trip_through_corpus_server(served: CorpusServer, real_corpus: Corpus):
    cl = client(served.base_url)
    try:
        keys = [
            CiteKey("153", "Conn. App.", "266"),
            CiteKey("100", "A.2d", "36"),
            CiteKey("100", "A.2d", "500"),
        ]
        res = await cl.lookup(keys)
        dyous = res[keys[0]].record
        assert dyous is not None and dyous.id == "cl:910000001" and dyous.name == "State v. Dyous"
        assert (
            res[keys[1]].record is not None and res[keys[1]].record.name == "Peyton v. District of Columbia"
        )
        # a self-hosted server has no rate limit: courts come from the dockets route
        assert dyous.court_id == "connappct" and res[keys[1]].record.court_id == "dc"
        # the served corpus holds only part of 100 A.2d: not found there is NOT an accusation
        assert res[keys[2]].status is LookupStatus.CANNOT_VERIFY
        op = await cl.opinion(dyous)
        local = real_corpus.opinion("cl:910000001")
        assert op is not None and local is not None
        assert op.text == local.text and op.page_maps == local.page_maps
        assert await cl.find_passage("anything") == []
    finally:
        await cl.close()


async def test_not_found_only_for_a_volume_the_server_holds_in_full(tmp_path: Path):
    vol = tmp_path / "a2d" / "7"
    (vol / "cases").mkdir(parents=True)
    meta = [
        {"id": 1, "name": "A v. B", "name_abbreviation": "A v. B", "first_page": "1", "last_page": "4",
         "citations": [{"type": "official", "cite": "7 A.2d 1"}]},
        {"id": 2, "name": "C v. D", "name_abbreviation": "C v. D", "first_page": "4", "last_page": "9",
         "citations": [{"type": "official", "cite": "7 A.2d 4"}]},
    ]  # fmt: skip
    (vol / "CasesMetadata.json").write_text(json.dumps(meta))
    corpus = Corpus(tmp_path / "c.sqlite")
    assert import_cap_volume(corpus, vol).complete_volumes == ("7 A.2d",)
    corpus.close()
    with CorpusServer(tmp_path / "c.sqlite") as srv:
        cl = client(srv.base_url)
        try:
            nf = (await cl.lookup([CiteKey("7", "A.2d", "6")]))[CiteKey("7", "A.2d", "6")]
            assert nf.status is LookupStatus.NOT_FOUND and nf.volume_complete and nf.volume_last_page == "9"
            assert "corpus server" in nf.reason
        finally:
            await cl.close()


# ---------------------------------------------------------------- the documented v4 JSON fixtures
@pytest.fixture
def fixture_server(loopback):
    api = shared_corpus_path("courtlistener-api")
    body = (api / "citation-lookup.response.constructed.json").read_bytes()
    loopback.routes[("POST", "/api/rest/v4/citation-lookup/")] = (
        200,
        {"Content-Type": "application/json"},
        body,
    )
    for p in (api / "clusters").glob("*.json"):
        cid = p.name.split(".")[0]
        loopback.routes[("GET", f"/api/rest/v4/clusters/{cid}/")] = (200, {}, p.read_bytes())
    for p in (api / "opinions").glob("*.json"):
        oid = p.name.split(".")[0]
        loopback.routes[("GET", f"/api/rest/v4/opinions/{oid}/")] = (200, {}, p.read_bytes())
    return loopback


async def test_parses_documented_v4_lookup_clusters_and_opinions(fixture_server, real_corpus: Corpus):
    cl = client(fixture_server.url + "api/rest/v4/")
    keys = [
        CiteKey("153", "Conn. App.", "266"),
        CiteKey("100", "A.3d", "1004"),
        CiteKey("100", "A.3d", "1076"),
        CiteKey("279", "Neb.", "94"),
        CiteKey("777", "N.W.2d", "266"),
    ]
    try:
        res = await cl.lookup(keys)
        assert [res[k].status for k in keys] == [LookupStatus.FOUND] * 5
        west = res[keys[2]].record
        assert west is not None and west.id == "cl:910000002" and west.name == "West v. United States"
        assert (
            west.decision_date == "2014-09-18"
            and west.url is not None
            and west.url.endswith("/opinion/910000002/west-v-united-states/")
        )
        vela = res[keys[3]].record
        assert vela is not None and [str(c) for c in vela.citations] == ["777 N.W.2d 266", "279 Neb. 94"]
        # opinion: head matter + lead + dissent, page maps per citation index — same as the bulk import
        op = await cl.opinion(vela)
        local = real_corpus.opinion("cl:910000021")
        assert op is not None and local is not None
        assert op.text == local.text and op.page_maps == local.page_maps
        # what was sent: only the citation strings, with the token
        method, path, headers, body = fixture_server.requests[0]
        assert (method, path) == ("POST", "/api/rest/v4/citation-lookup/")
        assert headers["Authorization"] == "Token secret-token"
        assert parse_qs(body.decode())["text"] == [
            "153 Conn. App. 266; 100 A.3d 1004; 100 A.3d 1076; 279 Neb. 94; 777 N.W.2d 266"
        ]
    finally:
        await cl.close()


# ---------------------------------------------------------------- batching and per-citation statuses
def test_batches_respect_both_limits():
    keys = [CiteKey(str(i), "F. Supp. 2d", str(100000 + i)) for i in range(600)]
    out = batches(keys)
    assert sum(len(s) for _, s in out) == 600
    for text, starts in out:
        assert len(starts) <= MAX_CITES_PER_REQUEST and len(text) <= MAX_TEXT_CHARS
        for offset, key in starts.items():
            assert text[offset : offset + len(str(key))] == str(key)
    long_keys = [CiteKey("1" * 300, "U.S.", str(i)) for i in range(400)]
    for text, starts in batches(long_keys):
        assert len(text) <= MAX_TEXT_CHARS and len(starts) < MAX_CITES_PER_REQUEST


def _entry(text: str, key: str, status: int, clusters=()) -> dict:
    start = text.index(key)
    return {
        "citation": key, "normalized_citations": [key], "start_index": start, "end_index": start + len(key),
        "status": status, "error_message": "", "clusters": list(clusters),
    }  # fmt: skip


CLUSTER = {
    "id": 42,
    "absolute_url": "/opinion/42/a-v-b/",
    "case_name": "A v. B",
    "citations": [{"volume": 5, "reporter": "A.2d", "page": "10", "type": 3}],
    "date_filed": "1950-01-01",
    "sub_opinions": [],
}


async def test_statuses_are_mapped_honestly(loopback):
    def answer(path, body):
        text = parse_qs(body.decode())["text"][0]
        return (200, {"Content-Type": "application/json"}, json.dumps([
            _entry(text, "5 A.2d 10", 200, [CLUSTER]),
            _entry(text, "5 A.2d 12", 200, [CLUSTER]),  # pincite fallback: page inside A v. B
            _entry(text, "5 A.2d 99", 404),
            _entry(text, "5 A.3d 99", 404),
            _entry(text, "1 H. 150", 300, [CLUSTER, {**CLUSTER, "id": 43}]),
        ]).encode())  # fmt: skip

    loopback.routes[("POST", "/citation-lookup/")] = answer
    keys = [CiteKey("5", "A.2d", "10"), CiteKey("5", "A.2d", "12"), CiteKey("5", "A.2d", "99"),
            CiteKey("5", "A.3d", "99"), CiteKey("1", "H.", "150"), CiteKey("33", "Umbrella", "422")]  # fmt: skip
    # as if this were the real CourtListener (whose coverage table we trust)
    cl = client(loopback.url, assume_courtlistener_coverage=True)
    try:
        res = await cl.lookup(keys)
    finally:
        await cl.close()
    assert res[keys[0]].status is LookupStatus.FOUND and res[keys[0]].record.id == "cl:42"
    assert res[keys[0]].record.court_id is None  # CourtListener's quota is not spent on dockets
    assert all(method == "POST" for method, *_ in loopback.requests)
    assert res[keys[1]].status is LookupStatus.NOT_FOUND and res[keys[1]].containing.id == "cl:42"
    assert res[keys[2]].status is LookupStatus.NOT_FOUND  # A.2d is a closed series: CourtListener has it all
    assert res[keys[3]].status is LookupStatus.CANNOT_VERIFY  # A.3d still running: 404 is no proof
    assert res[keys[4]].status is LookupStatus.CANNOT_VERIFY  # 300, but no cluster has "1 H. 150" exactly
    assert res[keys[5]].status is LookupStatus.CANNOT_VERIFY and "did not recognise" in res[keys[5]].reason


async def test_entry_429_citations_are_resubmitted(loopback):
    seen: list[str] = []

    def answer(path, body):
        text = parse_qs(body.decode())["text"][0]
        seen.append(text)
        cites = text.split("; ")
        entries = [_entry(text, c, 404 if i < 2 else 429) for i, c in enumerate(cites)]
        return (200, {"Content-Type": "application/json"}, json.dumps(entries).encode())

    loopback.routes[("POST", "/citation-lookup/")] = answer
    keys = [CiteKey(str(i), "A.2d", "1") for i in range(1, 6)]
    sleeps = Sleeps()
    cl = client(loopback.url, sleep=sleeps, clock=sleeps.clock)
    try:
        res = await cl.lookup(keys)
    finally:
        await cl.close()
    # the rest is resent in requests the size the service accepted, and never at once: after a back-off
    assert seen == [
        "1 A.2d 1; 2 A.2d 1; 3 A.2d 1; 4 A.2d 1; 5 A.2d 1",
        "3 A.2d 1; 4 A.2d 1",
        "5 A.2d 1",
    ]
    assert len(sleeps.calls) == 1 and sleeps.calls[0] >= 0.5
    assert all(r.status is LookupStatus.CANNOT_VERIFY for r in res.values())  # not a CourtListener host


# ---------------------------------------------------------------- throttling, retries, auth, network down
async def test_throttle_wait_until_is_honoured(loopback):
    until = time.strftime("%Y-%m-%dT%H:%M:%S+00:00", time.gmtime(time.time() + 30))
    loopback.json(
        "POST",
        "/citation-lookup/",
        (429, {"error_message": "Too many requests", "wait_until": until}),
        (200, []),
    )
    sleeps = Sleeps()
    cl = client(loopback.url, sleep=sleeps)
    try:
        res = await cl.lookup([CiteKey("1", "U.S.", "1")])
    finally:
        await cl.close()
    assert len(sleeps.calls) == 1 and 25 < sleeps.calls[0] <= 31
    assert res[CiteKey("1", "U.S.", "1")].status is LookupStatus.CANNOT_VERIFY
    assert len(loopback.requests) == 2


async def test_long_throttle_raises_rate_limited(loopback):
    loopback.json("POST", "/citation-lookup/", (429, {"detail": "throttled"}, {"Retry-After": "3600"}))
    cl = client(loopback.url)
    try:
        with pytest.raises(RateLimited) as info:
            await cl.lookup([CiteKey("1", "U.S.", "1")])
        assert info.value.retry_after == 3600
    finally:
        await cl.close()


async def test_5xx_is_retried_with_backoff(loopback):
    loopback.json("POST", "/citation-lookup/", (502, {}), (503, {}), (200, []))
    sleeps = Sleeps()
    cl = client(loopback.url, sleep=sleeps)
    try:
        await cl.lookup([CiteKey("1", "U.S.", "1")])
    finally:
        await cl.close()
    assert sleeps.calls == [0.5, 1.0]
    loopback.json("POST", "/citation-lookup/", (500, {}))
    cl = client(loopback.url, retries=2)
    try:
        with pytest.raises(SourceUnavailable, match="HTTP 500"):
            await cl.lookup([CiteKey("1", "U.S.", "1")])
    finally:
        await cl.close()


@pytest.mark.parametrize("status", [401, 403])
async def test_bad_token_is_authentication_error(loopback, status):
    loopback.json("POST", "/citation-lookup/", (status, {"detail": "Invalid token."}))
    cl = client(loopback.url)
    try:
        with pytest.raises(AuthenticationError, match="token"):
            await cl.lookup([CiteKey("1", "U.S.", "1")])
    finally:
        await cl.close()


async def test_timeouts_are_retried_then_unavailable(loopback):
    def slow(path, body):
        time.sleep(0.3)
        return (200, {}, b"[]")

    loopback.routes[("POST", "/citation-lookup/")] = slow
    sleeps = Sleeps()
    cl = CourtListenerClient(loopback.url, "t", timeout_s=3, retries=1, sleep=sleeps)
    cl._client.timeout = httpx.Timeout(0.1, connect=3.0)  # short reads, patient connects (a loaded CI box)
    try:
        with pytest.raises(SourceUnavailable, match="timed out"):
            await cl.lookup([CiteKey("1", "U.S.", "1")])
    finally:
        await cl.close()
    assert sleeps.calls == [0.5]  # one retry, after the backoff
    deadline = time.monotonic() + 5  # the server thread may log the 2nd request after we gave up on it
    while len(loopback.requests) < 2 and time.monotonic() < deadline:
        time.sleep(0.05)
    assert len(loopback.requests) == 2


async def test_network_down_fails_fast_and_stays_quiet():
    with socket.socket() as s:  # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    cl = client(f"http://127.0.0.1:{port}/")
    try:
        t0 = time.monotonic()
        with pytest.raises(SourceUnavailable, match="cannot connect"):
            await cl.lookup([CiteKey("1", "U.S.", "1")])
        with pytest.raises(SourceUnavailable, match="not retrying"):
            await cl.opinion(CaseRecord(id="cl:1", source="courtlistener", name="x"))
        assert time.monotonic() - t0 < 2
    finally:
        await cl.close()


async def test_garbage_answers_are_bad_response(loopback):
    from citecheck.errors import BadResponse

    loopback.routes[("POST", "/citation-lookup/")] = (200, {}, b"<html>maintenance</html>")
    cl = client(loopback.url)
    try:
        with pytest.raises(BadResponse):
            await cl.lookup([CiteKey("1", "U.S.", "1")])
    finally:
        await cl.close()


async def test_opinion_text_falls_back_through_fields(loopback):
    cluster = {**CLUSTER, "sub_opinions": ["https://www.courtlistener.com/api/rest/v4/opinions/9/",
                                           "https://www.courtlistener.com/api/rest/v4/opinions/8/"],
               "headmatter": "<p>Head</p>"}  # fmt: skip
    loopback.json("GET", "/clusters/42/", (200, cluster))
    loopback.json("GET", "/opinions/8/", (200, {"id": 8, "html_with_citations": "", "xml_harvard": "",
                                                 "html": '<p>Lead opinion <span class="star-pagination">*11</span>'
                                                         'text of the court.</p>',
                                                 "plain_text": "ignored"}))  # fmt: skip
    loopback.json(
        "GET", "/opinions/9/", (200, {"id": 9, "html_with_citations": "  ", "plain_text": "Dissent."})
    )
    cl = client(loopback.url)
    try:
        rec = CaseRecord(id="cl:42", source="courtlistener", name="A v. B")
        op = await cl.opinion(rec)
    finally:
        await cl.close()
    assert (
        op is not None and op.text == "Head\nLead opinion text of the court.\nDissent."
    )  # opinions in id order, head matter first
    pm = op.page_map("A.2d", "5")
    assert pm is not None and pm.page_at(op.text.index("text")) == "11"
    paths = [p for _, p, _, _ in loopback.requests]
    assert "/opinions/8/?fields=" in paths[1] and "html_with_citations" in paths[1]


async def test_unusable_base_url_is_source_unavailable():
    cl = client("ftp://example.invalid/api/")
    try:
        with pytest.raises(SourceUnavailable, match="cannot use"):
            await cl.lookup([CiteKey("1", "U.S.", "1")])
    finally:
        await cl.close()


async def test_throttled_mid_lookup_keeps_earlier_answers(loopback):
    def first(path, body):
        text = parse_qs(body.decode())["text"][0]
        entries = [_entry(text, c, 404) for c in text.split("; ")]
        return (200, {"Content-Type": "application/json"}, json.dumps(entries).encode())

    throttled = (
        429,
        {"Content-Type": "application/json"},
        json.dumps({"wait_until": "2999-01-01T00:00:00Z"}).encode(),
    )
    loopback.routes[("POST", "/citation-lookup/")] = [first, throttled]
    keys = [CiteKey(str(i), "A.2d", "1") for i in range(1, 301)]  # two batches: 250 + 50
    cl = client(loopback.url)
    try:
        res = await cl.lookup(keys)
    finally:
        await cl.close()
    assert res[keys[0]].source == "courtlistener"  # answered by the first batch
    late = res[keys[-1]]
    assert late.status is LookupStatus.CANNOT_VERIFY and late.source is None and "throttling" in late.reason
