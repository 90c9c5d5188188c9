"""`citecheck corpus serve`: the local corpus over CourtListener v4 routes, checked over loopback with httpx."""

from __future__ import annotations

import json
from pathlib import Path

import httpx
import pytest

from citecheck.sources.corpus_server import CAP_ID_OFFSET, CorpusServer, find_cites
from citecheck_testing import shared_corpus_path


@pytest.fixture
def server(real_corpus_file: Path):
    srv = CorpusServer(real_corpus_file).start()
    yield srv
    srv.stop()


def test_citation_lookup_matches_the_documented_v4_response(server: CorpusServer):
    api = shared_corpus_path("courtlistener-api")
    request = json.loads((api / "citation-lookup.request.constructed.json").read_text())
    expected = json.loads((api / "citation-lookup.response.constructed.json").read_text())
    resp = httpx.post(server.base_url + "citation-lookup/", data=request)
    assert resp.status_code == 200
    got = resp.json()
    keys = ("citation", "normalized_citations", "start_index", "end_index", "status", "error_message")
    assert [{k: e[k] for k in keys} for e in got] == [{k: e[k] for k in keys} for e in expected]
    for g, e in zip(got, expected, strict=True):
        [gc], [ec] = g["clusters"], e["clusters"]
        assert gc["id"] == int(ec["id"])  # CourtListener ids are kept for CourtListener cases
        for field in ("case_name", "case_name_short", "case_name_full", "date_filed", "absolute_url"):
            assert gc[field] == ec[field], field
        assert [(c["volume"], c["reporter"], c["page"], c["type"]) for c in gc["citations"]] == [
            (str(c["volume"]), c["reporter"], c["page"], c["type"]) for c in ec["citations"]
        ]


def test_json_body_triple_mode_and_statuses(server: CorpusServer):
    url = server.base_url + "citation-lookup/"
    found = httpx.post(url, json={"volume": "100", "reporter": "A. 2d", "page": "36"}).json()
    assert found[0]["status"] == 200 and found[0]["clusters"][0]["id"] == CAP_ID_OFFSET + 8118004
    assert found[0]["normalized_citations"] == ["100 A.2d 36"]
    missing = httpx.post(url, data={"volume": "100", "reporter": "A.2d", "page": "500"}).json()[0]
    assert missing["status"] == 404 and missing["error_message"] == "Citation not found: '100 A.2d 500'"
    assert missing["citecheck_volume_complete"] is False  # the sample volume is partial
    bad = httpx.post(url, data={"volume": "1", "reporter": "bad-reporter", "page": "1"}).json()[0]
    assert bad["status"] == 400 and bad["normalized_citations"] == []
    assert httpx.post(url, data={"text": "no citations here"}).json() == []


def test_pincite_fallback_like_courtlistener(server: CorpusServer):
    # 100 A.3d 1007 is inside State v. Dyous, whose text has a *1007 marker
    entry = httpx.post(server.base_url + "citation-lookup/", data={"text": "100 A.3d 1007"}).json()[0]
    assert entry["status"] == 200 and entry["clusters"][0]["case_name"] == "State v. Dyous"


def test_validation_errors(server: CorpusServer):
    url = server.base_url + "citation-lookup/"
    assert httpx.post(url, data={}).status_code == 400
    both = httpx.post(url, data={"text": "x", "reporter": "U.S."})
    assert both.status_code == 400 and "not both" in both.json()["non_field_errors"][0]
    big = httpx.post(url, data={"text": "test" * 17_000})
    assert big.status_code == 400 and "64000" in big.json()["text"][0]
    assert httpx.post(url, data={"reporter": "U.S."}).json() == {
        "volume": ["This field is required."],
        "page": ["This field is required."],
    }


def test_over_250_citations_get_status_429_entries(server: CorpusServer):
    text = "; ".join(f"{i} A.2d 1" for i in range(1, 260))
    got = httpx.post(server.base_url + "citation-lookup/", data={"text": text}).json()
    assert len(got) == 259
    assert {e["status"] for e in got[:250]} == {404} and {e["status"] for e in got[250:]} == {429}


def test_cluster_and_opinion_routes(server: CorpusServer):
    cluster = httpx.get(server.base_url + "clusters/910000021/").json()
    assert cluster["case_name"] == "State v. Vela" and cluster["sub_opinions"] == [
        server.base_url + "opinions/910000021/"
    ]
    op = httpx.get(
        server.base_url + "opinions/910000021/", params={"fields": "id,html_with_citations"}
    ).json()
    assert set(op) == {"id", "html_with_citations"}
    assert op["html_with_citations"].count('class="star-pagination"') == 48 + 77
    listing = httpx.get(server.base_url + "opinions/", params={"cluster": "910000021"}).json()
    assert listing["count"] == 1 and listing["results"][0]["cluster_id"] == 910000021
    assert httpx.get(server.base_url + "clusters/5/").status_code == 404
    assert httpx.get(server.base_url + "nothing/").status_code == 404
    assert httpx.get(server.base_url.replace("/api/rest/v4/", "/") + "clusters/910000021/").status_code == 404


def test_find_cites_scanner():
    text = "See 5 F. 3d 10, 12; 33 Umbrella 422; 1 U.S. 200."
    assert [(text[s:e], v, r, p) for s, e, v, r, p in find_cites(text)] == [
        ("5 F. 3d 10", "5", "F. 3d", "10"),
        ("1 U.S. 200", "1", "U.S.", "200"),
    ]


def test_bad_requests_get_answers_not_hangs(server: CorpusServer):
    import socket

    with socket.create_connection(("127.0.0.1", server.port), timeout=5) as s:
        s.sendall(
            b"POST /api/rest/v4/citation-lookup/ HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: -5\r\n\r\n"
        )
        assert b" 400 " in s.recv(1000)
    bad_json = httpx.post(
        server.base_url + "citation-lookup/", content=b"{nope", headers={"Content-Type": "application/json"}
    )
    assert bad_json.status_code == 400
