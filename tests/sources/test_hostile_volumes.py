"""Hostile CAP data: names from downloaded (or imported) metadata never become paths outside the volume,
and records without ids are never merged into one."""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler
from pathlib import Path

import pytest

from citecheck.errors import ImportFormatError
from citecheck.sources.cap_fetch import CapFetcher
from citecheck.sources.cap_import import import_cap_volume
from citecheck.sources.corpus import Corpus
from citecheck.sources.corpus_server import QuietHTTPServer


def _case(i: int, file_name: str, case_id: object) -> dict:
    return {
        "id": case_id,
        "name_abbreviation": f"Party{i} v. Other{i}",
        "decision_date": "1953-01-01",
        "first_page": str(i),
        "last_page": str(i),
        "file_name": file_name,
        "citations": [{"cite": f"100 A.2d {i}", "type": "official"}],
        "court": {"name": "Supreme Court of New Jersey"},
    }


@pytest.fixture
def hostile_cap(tmp_path: Path):
    """A loopback 'case.law' whose CasesMetadata.json names files outside the volume."""
    cases = [_case(1, "../../../escaped", 1), _case(2, "/tmp/abs", 2), _case(3, "0003-01", 3)]
    served: list[str] = []

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self):
            served.append(self.path)
            if self.path.endswith("CasesMetadata.json"):
                body = json.dumps(cases).encode()
            else:
                body = b"{}" if self.path.endswith(".json") else b"<p>x</p>"
            self.send_response(200)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            pass

    httpd = QuietHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}/", served
    httpd.shutdown()
    httpd.server_close()


async def test_downloaded_file_names_cannot_escape_the_volume_folder(hostile_cap, tmp_path: Path) -> None:
    url, served = hostile_cap
    dest = tmp_path / "dl" / "a" / "b" / "c"
    dest.mkdir(parents=True)
    fetcher = CapFetcher(url)
    try:
        await fetcher.download_volume("A.2d", "100", dest)
    finally:
        await fetcher.close()
    written = {p.relative_to(tmp_path) for p in tmp_path.rglob("*") if p.is_file()}
    assert all(str(p).startswith("dl/a/b/c/a2d/100/") for p in written), written
    assert not (tmp_path / "dl" / "escaped.json").exists()
    assert not Path("/tmp/abs.json").exists()
    assert not any("escaped" in s or "abs" in s for s in served)  # never even asked for
    assert any(s.endswith("0003-01.json") for s in served)  # the good case still came


def test_hostile_volume_number_is_refused(tmp_path: Path) -> None:
    fetcher = CapFetcher("http://127.0.0.1:9/")
    with pytest.raises(Exception, match="volume"):
        import asyncio

        asyncio.run(fetcher.download_volume("A.2d", "../../etc", tmp_path))


def test_local_import_never_reads_outside_the_volume(tmp_path: Path) -> None:
    secret = tmp_path / "secret.html"
    secret.write_text("<p>SECRET TEXT</p>")
    folder = tmp_path / "vol" / "a2d" / "100"
    (folder / "html").mkdir(parents=True)
    (folder / "CasesMetadata.json").write_text(json.dumps([_case(1, "../../../../secret", 1)]))
    corpus = Corpus(tmp_path / "c.sqlite")
    stats = import_cap_volume(corpus, folder)
    assert stats.cases == 0 and stats.refused == 1
    assert corpus.opinion("cap:1") is None


def test_null_ids_are_not_merged(tmp_path: Path) -> None:
    folder = tmp_path / "a2d" / "100"
    folder.mkdir(parents=True)
    (folder / "CasesMetadata.json").write_text(
        json.dumps([_case(i, f"{i:04d}-01", None) for i in range(1, 6)])
    )
    corpus = Corpus(tmp_path / "c.sqlite")
    stats = import_cap_volume(corpus, folder)
    assert stats.cases == 5
    n = corpus.connection.execute("SELECT COUNT(*) FROM cases").fetchone()[0]
    assert n == 5
    again = import_cap_volume(corpus, folder)  # derived ids are stable: re-import replaces, never doubles
    assert again.cases == 5
    assert corpus.connection.execute("SELECT COUNT(*) FROM cases").fetchone()[0] == 5


def test_a_case_with_neither_id_nor_citation_is_refused_and_counted(tmp_path: Path) -> None:
    folder = tmp_path / "a2d" / "100"
    folder.mkdir(parents=True)
    bad = _case(2, "0002-01", None)
    bad["citations"] = []
    (folder / "CasesMetadata.json").write_text(json.dumps([_case(1, "0001-01", 1), bad]))
    stats = import_cap_volume(Corpus(tmp_path / "c.sqlite"), folder)
    assert stats.cases == 1 and stats.refused == 1


def test_safe_name_rules() -> None:
    from citecheck.sources.safe_names import safe_component

    assert safe_component("0450-01") == "0450-01"
    for bad in ("../x", "/abs", "a/b", "a\\b", "..", ".", "", "x\x00y", "C:x", "a" * 300):
        with pytest.raises(ImportFormatError):
            safe_component(bad)
