"""Select a space, press Enter: the text after it keeps its offsets but moves down a line. The real
server must publish the diagnostic on the new line at once (it kept the old line before)."""

from __future__ import annotations

TEXT = "Intro words here.\nSee Smith v. Jones, 33 Cal. Rptr. 4th 422.\n"


def test_same_length_line_break_moves_the_diagnostic(raw_server, tmp_path) -> None:
    server = raw_server(
        env={
            "CITECHECK_OFFLINE": "1",
            "CITECHECK_CACHE_PATH": str(tmp_path / "c.sqlite"),
            "CITECHECK_CORPUS_PATH": str(tmp_path / "corpus.sqlite"),
        },
        log_level="WARNING",
    )
    server.initialize(capabilities={"textDocument": {"publishDiagnostics": {"versionSupport": True}}})
    uri = "file:///brief.txt"
    server.notify(
        "textDocument/didOpen",
        {"textDocument": {"uri": uri, "languageId": "plaintext", "version": 1, "text": TEXT}},
    )

    def published(version: int):
        return lambda m: (
            m.get("method") == "textDocument/publishDiagnostics"
            and m["params"].get("version") == version
            and m["params"]["diagnostics"]
        )

    first = server.wait_for(published(1))["params"]["diagnostics"]
    assert {d["range"]["start"]["line"] for d in first} == {1}
    server.notify(
        "textDocument/didChange",
        {
            "textDocument": {"uri": uri, "version": 2},
            "contentChanges": [
                {
                    "range": {"start": {"line": 0, "character": 5}, "end": {"line": 0, "character": 6}},
                    "text": "\n",
                }
            ],
        },
    )
    moved = server.wait_for(published(2))["params"]["diagnostics"]
    assert {d["range"]["start"]["line"] for d in moved} == {2}
    server.response(server.request("shutdown"))
    server.notify("exit")
    assert server.close()[0] == 0
