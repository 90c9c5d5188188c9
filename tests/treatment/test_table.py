"""The Constitution Annotated's table of decisions overruled: the shipped copy, its parser, its refresh."""

from __future__ import annotations

import asyncio
import threading
from http.server import BaseHTTPRequestHandler
from pathlib import Path

import pytest

from citecheck.errors import SourceUnavailable
from citecheck.sources.corpus_server import QuietHTTPServer
from citecheck.sources.models import CiteKey
from citecheck.sources.treatment.congress import load_table, parse_page, refresh, shipped_text
from citecheck.treatment.models import Basis, TreatmentKind
from citecheck.treatment.table import parse_csv, parse_decision, records_from_html, to_csv


def test_the_shipped_copy_reads_whole() -> None:
    table = parse_csv(shipped_text())
    assert len(table.rows) == 236 and table.pairs == 292 and table.skipped == ()
    # every overruled decision has a U.S. Reports citation, so a brief's citation of it finds it
    assert all(d.keys and d.keys[0].reporter == "U.S." for r in table.rows for d in r.overruled)


def test_overruled_decisions_are_found_by_their_citations() -> None:
    found = load_table().by_key
    bowers = found[CiteKey("478", "U.S.", "186")]
    assert [t.treating.name for t in bowers if t.treating] == ["Lawrence v. Texas"]
    t = bowers[0]
    assert t.kind is TreatmentKind.OVERRULED and t.whole and t.basis is Basis.TABLE and t.overruled
    assert t.treating is not None and t.treating.citation == "539 U.S. 558" and t.treating.year == 2003
    assert "Lawrence v. Texas" in (t.quote or "") and "Bowers v. Hardwick" in (t.quote or "")
    roe = found[CiteKey("410", "U.S.", "113")]
    assert roe[0].treating is not None and roe[0].treating.name.startswith("Dobbs v. Jackson")
    assert (
        roe[0].treating.citation == "No. 19-1391 (U.S. June 24, 2022)"
    )  # as the table writes a slip opinion
    assert CiteKey("347", "U.S.", "483") not in found  # Brown v. Board of Education: never overruled
    assert CiteKey("5", "U.S.", "137") not in found  # Marbury v. Madison


def test_early_reports_are_found_by_their_nominative_citation_too() -> None:
    found = load_table().by_key
    # "Allen v. Newberry, 62 U.S. (21 How.) 244 (1858) (in part)"
    assert CiteKey("62", "U.S.", "244") in found and CiteKey("21", "How.", "244") in found
    allen = found[CiteKey("21", "How.", "244")][0]
    assert not allen.whole and not allen.overruled and allen.note == "in part"
    # "Rose v. Himely, 8 U.S. (4 Cr.) 241 (1808)": the table's "Cr." is Cranch
    assert CiteKey("4", "Cranch", "241") in found


def test_partial_overrulings_are_never_whole() -> None:
    d = parse_decision("Johnson v. Louisiana,406 U.S. 366 (1972) (Powell, J., concurring)")
    assert d is not None and not d.whole  # only a concurrence was overruled
    d = parse_decision("Apodaca v. Oregon,406 U.S. 404 (1972) (plurality opinion)")
    assert d is not None and d.whole
    d = parse_decision("Orchard v. Hughes, 68 U.S. (1 Wall.) 73, 77 (1864)")  # a pin cite before the year
    assert d is not None and d.year == 1864 and d.notes == () and str(d.keys[1]) == "1 Wall. 73"


PAGE = """<!DOCTYPE html><html><head><title>Table of Supreme Court Decisions Overruled by Subsequent Decisions
</title></head><body><nav><table><tr><td>Menu</td></tr></table></nav><main>
<table class="table"><thead><tr><th>No.</th><th>Overruling Decision</th><th>Year of Overruling Decision</th>
<th>Overruled Decision(s)</th><th>Year(s) of Overruled Decision(s)</th></tr></thead><tbody>
<tr><td>1</td><td><em>Loper Bright Enterprises v. Raimondo</em>, No. 22-451 (U.S. June 28, 2024)</td><td>2024</td>
<td><em>Chevron U.S.A., Inc. v. Natural Resources Defense Council, Inc.</em>, 467 U.S. 837 (1984)</td><td>1984</td></tr>
<tr><td>2</td><td>Dobbs v. Jackson Women&#8217;s Health Organization, 597 U.S. 215 (2022)</td><td>2022</td>
<td><p>Planned Parenthood of Southeastern Pennsylvania v. Casey, 505 U.S. 833 (1992)</p><p>Roe v. Wade, 410 U.S.
113 (1973)</p></td><td>1992<br>1973</td></tr>
</tbody></table></main></body></html>"""


def test_the_congress_gov_page_reads_as_the_same_table() -> None:
    """The page's table (its header names the overruling and overruled decisions; decisions of one cell in
    their own paragraphs). Written here in the page's shape: the live page could not be fetched from here."""
    records = records_from_html(PAGE)
    assert [r["Order"] for r in records] == ["1", "2"]
    table = parse_csv(to_csv(records))
    dobbs = table.rows[1]
    assert dobbs.overruling.citation == "597 U.S. 215"
    assert [d.name for d in dobbs.overruled] == [
        "Planned Parenthood of Southeastern Pennsylvania v. Casey",
        "Roe v. Wade",
    ]
    assert table.rows[0].overruling.citation == "No. 22-451 (U.S. June 28, 2024)"
    assert parse_page(PAGE.encode(), "text/html").pairs == 3
    assert parse_page(b"<html><body>Maintenance</body></html>").pairs == 0


class _Site:
    """A loopback web server answering one page (the test's Congress.gov)."""

    def __init__(self, body: bytes, *, status: int = 200, content_type: str = "text/html") -> None:
        site = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                self.send_response(site.status)
                self.send_header("Content-Type", site.content_type)
                self.send_header("Content-Length", str(len(site.body)))
                self.end_headers()
                self.wfile.write(site.body)

            def log_message(self, *args: object) -> None:
                pass

        self.body, self.status, self.content_type = body, status, content_type
        self.server = QuietHTTPServer(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def __enter__(self) -> str:
        self.thread.start()
        return f"http://127.0.0.1:{self.server.server_address[1]}/resources/decisions-overruled/"

    def __exit__(self, *exc: object) -> None:
        self.server.shutdown()
        self.server.server_close()


def test_a_refresh_keeps_a_complete_table_and_checks_prefer_it(tmp_path: Path) -> None:
    rows = parse_csv(shipped_text()).rows
    extra = '"237","Newer v. Case, 700 U.S. 1 (2030)","2030","Older v. Case, 600 U.S. 1 (2025)","2025"\n'
    body = (shipped_text().rstrip("\n") + "\n" + extra).encode()
    dest = tmp_path / "overruled-decisions.csv"
    with _Site(body, content_type="text/csv") as url:
        done = asyncio.run(refresh(url, dest))
    assert done.kept and done.pairs == 293 and dest.exists() and dest.with_suffix(".json").exists()
    table = load_table(dest)
    assert CiteKey("600", "U.S.", "1") in table.by_key and "refreshed" in table.description
    assert len(rows) == 236  # the shipped copy is untouched


def test_a_page_that_reads_short_never_replaces_the_table(tmp_path: Path) -> None:
    dest = tmp_path / "overruled-decisions.csv"
    with _Site(PAGE.encode()) as url:
        done = asyncio.run(refresh(url, dest))
    assert not done.kept and done.pairs == 3 and not dest.exists()
    assert load_table(dest).pairs == 292  # the shipped copy answers
    with _Site(b"gone", status=503) as url, pytest.raises(SourceUnavailable, match="503"):
        asyncio.run(refresh(url, dest))


def test_a_broken_refreshed_copy_falls_back_to_the_shipped_one(tmp_path: Path) -> None:
    dest = tmp_path / "overruled-decisions.csv"
    dest.write_bytes(b"\xff\xfe not a table")
    assert load_table(dest).pairs == 292
