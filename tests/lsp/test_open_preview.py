"""A long document just opened shows the findings of its opening paragraphs first, then all of them
(issue 40: the first extraction of a few hundred thousand characters takes seconds); the preview holds
only findings the full check has too, at the same places."""

from __future__ import annotations

from typing import Any

from citecheck.lsp.features import diagnostics

URI = "file:///long.txt"
ERROR_FIRST = "See Smith v. Jones, 33 Cal. Rptr. 4th 422."  # an invented series: an error, local
ERROR_LAST = "See also Brown v. Green, 12 F.5th 99 (2020)."  # F.5th does not exist yet: an error, local
PROSE = "The parties dispute whether notice was given before the hearing, and the record is thin. " * 4


def long_text() -> str:
    paragraphs = (
        [ERROR_FIRST] + [PROSE.strip()] * (2 * diagnostics._PREVIEW_FROM // len(PROSE)) + [ERROR_LAST]
    )
    return "\n\n".join(paragraphs) + "\n"


def _errors(message: dict[str, Any]) -> list[int]:
    return sorted(d["range"]["start"]["line"] for d in message["params"]["diagnostics"] if d["severity"] == 1)


def test_a_long_document_opened_shows_its_opening_findings_first(raw_server, tmp_path) -> None:
    text = long_text()
    assert len(text) > diagnostics._PREVIEW_FROM
    server = raw_server(
        env={
            "CITECHECK_OFFLINE": "1",
            "CITECHECK_CACHE_PATH": str(tmp_path / "c.sqlite"),
            "CITECHECK_CORPUS_PATH": str(tmp_path / "corpus.sqlite"),
        },
        log_level="WARNING",
    )
    rid = server.request(
        "initialize",
        {
            "processId": None,
            "rootUri": None,
            "capabilities": {"textDocument": {"publishDiagnostics": {"versionSupport": True}}},
            "initializationOptions": {"debounceMs": 3000, "cannotVerifyDiagnostics": "none"},
            "trace": "messages",
        },
    )
    server.response(rid)
    server.notify("initialized", {})
    server.notify(
        "textDocument/didOpen",
        {"textDocument": {"uri": URI, "languageId": "plaintext", "version": 1, "text": text}},
    )
    seen: list[dict[str, Any]] = []

    def record(m: dict[str, Any]) -> bool:
        if "method" in m and "id" not in m:
            seen.append(m)
        return m.get("method") == "$/logTrace" and m["params"]["message"].startswith(
            f"stage 1: {URI} v1 checked"
        )

    server.wait_for(record, 120)
    publishes = [m for m in seen if m.get("method") == "textDocument/publishDiagnostics"]
    traces = [m["params"]["message"] for m in seen if m.get("method") == "$/logTrace"]
    assert any("preview of its first" in t and "(published)" in t for t in traces), traces
    last_line = text.count("\n") - 1
    assert _errors(publishes[0]) == [0]  # the opening paragraph's error, before the whole document's
    assert _errors(publishes[-1]) == [0, last_line]  # then every finding
    first, full = publishes[0]["params"]["diagnostics"], publishes[-1]["params"]["diagnostics"]
    assert all(d in full for d in first)  # the preview shows nothing the full check does not
