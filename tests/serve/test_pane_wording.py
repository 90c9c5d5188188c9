"""The pane heads each finding with the server's plain-English title (findings.KIND_TITLE, sent as each
finding's ``title``): one table for the pane, the HTML report and the hover, so a kind added to the
engine cannot reach the pane untitled, and the pane keeps no copy that could drift."""

from __future__ import annotations

from pathlib import Path

from citecheck.findings import KIND_TITLE, Kind, make_finding
from citecheck.report.json import finding_json
from citecheck.report.model import FileResult
from citecheck.spans import Span

VIEW = Path(__file__).resolve().parents[2] / "clients" / "word-addin" / "src" / "view.ts"


def test_every_finding_the_pane_receives_carries_its_title() -> None:
    file = FileResult(name="x", kind="word", text="See 1 U.S. 1.", citations=(), findings=(), statuses=())
    for kind in Kind:
        sent = finding_json(file, make_finding(kind, Span(4, 12), "message"))
        assert sent["title"] == KIND_TITLE[kind] and sent["title"] != kind.value


def test_the_pane_keeps_no_table_of_its_own() -> None:
    source = VIEW.read_text(encoding="utf-8")
    assert "KIND_TITLE" not in source and "f.title" in source
