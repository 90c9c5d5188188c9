"""A language server started before the first ``corpus sync`` takes up the citation index once a sync
builds it — without a restart — and checks its open documents against it: the real server over stdio,
the index built by the same build ``corpus sync --from`` runs, from bulk files in the real format."""

from __future__ import annotations

import queue
import time
from pathlib import Path
from typing import Any

from citecheck.sources.index.build import build_from_folder
from citecheck_testing.bulk_dump import closed_volume_cases, write_dump

URI = "file:///brief.txt"
# 100 A.2d holds cases at pages 1, 7, 15, 36, 45 and 60 (closed series): nothing begins at 52
TEXT = (
    "Peyton v. District of Columbia, 100 A.2d 36 (D.C. 1953), controls.\n\n"
    "Invented v. Nobody, 100 A.2d 52 (Md. 1953), does not exist.\n"
)


def _diagnostics(server: Any, deadline: float) -> list[dict[str, Any]] | None:
    """The next diagnostics published for the brief before ``deadline`` (None: none came)."""
    try:
        msg = server.wait_for(
            lambda m: m.get("method") == "textDocument/publishDiagnostics" and m["params"]["uri"] == URI,
            timeout=max(0.1, deadline - time.monotonic()),
        )
    except (TimeoutError, queue.Empty):
        return None
    return msg["params"]["diagnostics"]


def _codes(diagnostics: list[dict[str, Any]]) -> set[str]:
    return {str(d.get("code")) for d in diagnostics}


def test_a_server_started_before_the_sync_uses_the_index_once_built(raw_server, tmp_path: Path) -> None:
    index = tmp_path / "data" / "index.sqlite"
    server = raw_server(
        env={
            "CITECHECK_OFFLINE": "1",
            "CITECHECK_CACHE_PATH": str(tmp_path / "c.sqlite"),
            "CITECHECK_CORPUS_PATH": str(tmp_path / "corpus.sqlite"),
            "CITECHECK_INDEX_PATH": str(index),
        },
        log_level="INFO",
    )
    server.initialize({"debounceMs": 50})
    server.notify(
        "textDocument/didOpen",
        {"textDocument": {"uri": URI, "languageId": "plaintext", "version": 1, "text": TEXT}},
    )
    # no index yet: the invented case cannot be told from a real one
    first = _diagnostics(server, time.monotonic() + 30)
    assert first is not None and "fabricated-case" not in _codes(first)
    while (more := _diagnostics(server, time.monotonic() + 2)) is not None:  # the rest of the check
        assert "fabricated-case" not in _codes(more)
    write_dump(tmp_path / "dump", closed_volume_cases())
    build_from_folder(index, tmp_path / "dump", full_dump=True)  # what `corpus sync --from` does
    deadline = time.monotonic() + 30
    codes: set[str] = set()
    while "fabricated-case" not in codes:
        diags = _diagnostics(server, deadline)
        assert diags is not None, f"the server never checked the brief against the new index (last: {codes})"
        codes = _codes(diags)
    fabricated = [d for d in diags if d.get("code") == "fabricated-case"]
    assert [d["range"]["start"]["line"] for d in fabricated] == [2]  # the invented citation only
    server.response(server.request("shutdown"))
    server.notify("exit")
    rc, log = server.close()
    assert rc == 0
    assert "citation index found" in log
