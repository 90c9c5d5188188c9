"""Issue 11: the real server sends a push publish only when it changes what the client shows, and
still publishes every version the user pauses at (the source check after the debounce); a pull client
re-pulling unchanged content gets ``unchanged``; with tracing on, ``$/logTrace`` says which versions were
checked and which publishes were skipped (never the text)."""

from __future__ import annotations

import contextlib
import queue
from typing import Any

PARAGRAPHS = [
    "Prose only on this first line, nothing to check here.",
    "See Smith v. Jones, 33 Cal. Rptr. 4th 422.",
    "More prose here at the end, also nothing to check.",
]
TEXT = "\n\n".join(PARAGRAPHS) + "\n"  # the finding sits on line 2, alone in its paragraph
URI = "file:///publish.txt"
ENV_KEYS = ("CITECHECK_OFFLINE", "CITECHECK_CACHE_PATH", "CITECHECK_CORPUS_PATH")
# stage 1 runs a third of the debounce after the last key; the source check would come after the
# full debounce, which no test here waits for
OPTIONS = {"debounceMs": 3000, "cannotVerifyDiagnostics": "none"}
PUSH = {"textDocument": {"publishDiagnostics": {"versionSupport": True}}}


def _start(
    raw_server, tmp_path, capabilities: dict[str, Any], trace: str | None = "messages", **options: Any
):
    server = raw_server(
        env=dict(
            zip(ENV_KEYS, ("1", str(tmp_path / "c.sqlite"), str(tmp_path / "corpus.sqlite")), strict=True)
        ),
        log_level="WARNING",
    )
    rid = server.request(
        "initialize",
        {
            "processId": None,
            "rootUri": None,
            "capabilities": capabilities,
            "initializationOptions": {**OPTIONS, **options},
            "trace": trace,
        },
    )
    server.response(rid)
    server.notify("initialized", {})
    server.notify(
        "textDocument/didOpen",
        {"textDocument": {"uri": URI, "languageId": "plaintext", "version": 1, "text": TEXT}},
    )
    return server


def _type(server, version: int, line: int, character: int, text: str = "x") -> None:
    at = {"line": line, "character": character}
    server.notify(
        "textDocument/didChange",
        {
            "textDocument": {"uri": URI, "version": version},
            "contentChanges": [{"range": {"start": at, "end": at}, "text": text}],
        },
    )


def _stage1_checked(version: int):
    prefix = f"stage 1: {URI} v{version} checked ("
    return lambda m: m.get("method") == "$/logTrace" and m["params"]["message"].startswith(prefix)


def _published(version: int):
    return lambda m: (
        m.get("method") == "textDocument/publishDiagnostics" and m["params"]["version"] == version
    )


def _until(server, predicate, seen: list[dict[str, Any]], timeout: float = 30.0) -> dict[str, Any]:
    """Wait for ``predicate``; every notification read on the way is appended to ``seen``."""

    def record(m: dict[str, Any]) -> bool:
        if "method" in m and "id" not in m:
            seen.append(m)
        return predicate(m)

    return server.wait_for(record, timeout)


def _publishes(seen: list[dict[str, Any]], version: int) -> list[int]:
    return [
        i
        for i, m in enumerate(seen)
        if m.get("method") == "textDocument/publishDiagnostics" and m["params"]["version"] == version
    ]


def _traces(seen: list[dict[str, Any]], version: int) -> list[str]:
    """The traces about ``version`` (the one about the version before may still come after its publish)."""
    return [
        m["params"]["message"]
        for m in seen
        if m.get("method") == "$/logTrace" and f" v{version} " in m["params"]["message"]
    ]


def _stop(server) -> None:
    server.response(server.request("shutdown"))
    server.notify("exit")
    assert server.close()[0] == 0


def test_a_prose_keystroke_is_published_once_after_the_pause(raw_server, tmp_path) -> None:
    """A character typed in prose, on a line without findings (after the finding's line, then before
    it): the array would be byte for byte the same, so neither the immediate publish nor stage 1's is
    sent (both traced); the source check after the debounce publishes that version once, with the
    same diagnostics."""
    server = _start(raw_server, tmp_path, PUSH, debounceMs=900)
    seen: list[dict[str, Any]] = []
    shown = _until(server, _published(1), seen)["params"]["diagnostics"]  # stage 1's, on opening
    assert [d["range"]["start"]["line"] for d in shown] == [2], shown
    for version, line in ((2, 4), (3, 0)):
        seen.clear()
        _type(server, version, line, 5)
        _until(server, _stage1_checked(version), seen)
        assert not _publishes(seen, version), [m.get("method") for m in seen]  # nothing sent while typing
        assert _traces(seen, version) == [
            f"didChange: {URI} v{version} unchanged on screen (not published)",
            f"stage 1: {URI} v{version} checked (unchanged, not republished)",
        ]
        published = _until(server, _published(version), seen)  # the source check's, after the pause
        assert published["params"]["diagnostics"] == shown
        assert len(_publishes(seen, version)) == 1
        assert all(m["params"].get("verbose") is None for m in seen if m.get("method") == "$/logTrace")
    # $/setTrace off: no traces at all (the default); verbose: the counts come too, never the text
    server.notify("$/setTrace", {"value": "off"})
    seen.clear()
    _type(server, 4, 4, 5)
    _until(server, _published(4), seen)
    server.notify("$/setTrace", {"value": "verbose"})
    _type(server, 5, 4, 5)
    _until(server, _stage1_checked(5), seen)
    assert not _traces(seen, 4)
    traces = [
        m["params"] for m in seen if m.get("method") == "$/logTrace" and " v5 " in m["params"]["message"]
    ]
    assert [t["message"] for t in traces] == [
        f"didChange: {URI} v5 unchanged on screen (not published)",
        f"stage 1: {URI} v5 checked (unchanged, not republished)",
    ], traces
    assert traces[1]["verbose"].startswith("diagnostics array: ")
    assert not any(
        word in t["message"] + (t.get("verbose") or "")
        for t in traces
        for word in ("Smith", "Prose", "prose")
    )
    _stop(server)


def test_a_keystroke_before_a_finding_on_its_line_is_published_at_once(raw_server, tmp_path) -> None:
    """A character typed before a finding on the finding's line moves its range: published at once,
    before stage 1 has looked at that version; stage 1 then finds the same and does not publish again."""
    server = _start(raw_server, tmp_path, PUSH)
    seen: list[dict[str, Any]] = []
    before = _until(server, _published(1), seen)["params"]["diagnostics"]
    seen.clear()
    _type(server, 2, 2, 0)
    _until(server, _stage1_checked(2), seen)
    publishes = _publishes(seen, 2)
    assert publishes, [m.get("method") for m in seen]
    assert not _traces(seen[: publishes[0]], 2)  # before stage 1
    moved = seen[publishes[0]]["params"]["diagnostics"]
    assert [(d["range"]["start"]["line"], d["range"]["start"]["character"]) for d in moved] == [
        (d["range"]["start"]["line"], d["range"]["start"]["character"] + 1) for d in before
    ]
    assert len(publishes) == 1  # stage 1 re-found the same: not sent again
    assert _traces(seen, 2) == [f"stage 1: {URI} v2 checked (unchanged, not republished)"]
    _stop(server)


def test_a_pull_client_gets_unchanged_for_the_same_content(raw_server, tmp_path) -> None:
    """A pull client re-pulling after a keystroke that changed nothing on screen gets ``unchanged``
    (the same result id); after one that did, a full report under a new result id."""
    caps = {"textDocument": {"diagnostic": {}}, "workspace": {"diagnostics": {"refreshSupport": True}}}
    server = _start(raw_server, tmp_path, caps)
    seen: list[dict[str, Any]] = []
    doc = {"uri": URI}

    def pull(previous: str | None = None) -> dict[str, Any]:
        return server.response(
            server.request("textDocument/diagnostic", {"textDocument": doc, "previousResultId": previous})
        )["result"]

    full = pull()  # (answered once stage 1 has published the opened version)
    assert full["kind"] == "full" and full["items"] and full["resultId"]
    _type(server, 2, 0, 5)
    with contextlib.suppress(TimeoutError, queue.Empty):  # (a server without traces: pull all the same)
        _until(server, _stage1_checked(2), seen, timeout=10)
    assert pull(full["resultId"]) == {"kind": "unchanged", "resultId": full["resultId"]}
    _type(server, 3, 2, 24)  # inside "Cal.": its finding goes until stage 1 has looked again
    again = pull(full["resultId"])
    assert again["kind"] == "full" and again["resultId"] != full["resultId"]
    assert not any(m.get("method") == "textDocument/publishDiagnostics" for m in seen)  # never both
    _stop(server)


def test_a_client_that_moves_its_diagnostics_is_sent_no_publish_for_a_move(raw_server, tmp_path) -> None:
    """VS Code moves the squiggles it shows through the user's edits (``experimental.citecheck.
    movesDiagnostics``): a key before a finding on its line moves it there already, so nothing is
    sent, neither at once nor by stage 1; a key inside a finding (the client stretched it) is
    published by stage 1."""
    caps = {**PUSH, "experimental": {"citecheck": {"movesDiagnostics": True}}}
    server = _start(raw_server, tmp_path, caps)
    seen: list[dict[str, Any]] = []
    _until(server, _published(1), seen)
    seen.clear()
    _type(server, 2, 2, 0)  # before the finding, on its line: a plain client would need the moved range
    _until(server, _stage1_checked(2), seen)
    assert not _publishes(seen, 2), [m.get("method") for m in seen]
    assert _traces(seen, 2) == [
        f"didChange: {URI} v2 unchanged on screen (the client moves its diagnostics; not published)",
        f"stage 1: {URI} v2 checked (unchanged, not republished)",
    ]
    seen.clear()
    _type(server, 3, 2, 25)  # inside "Cal. Rptr.": the client stretched that finding; stage 1 says what holds
    _until(server, _stage1_checked(3), seen)
    assert len(_publishes(seen, 3)) == 1, [m.get("method") for m in seen]
    assert _traces(seen, 3)[-1] == f"stage 1: {URI} v3 checked (published)"
    _stop(server)


def test_a_pull_waiting_for_the_first_publish_gets_it_without_a_refresh(raw_server, tmp_path) -> None:
    """As a document opens, VS Code pulls at once and the pull waits for stage 1: that publish answers it,
    so no ``workspace/diagnostic/refresh`` goes with it (VS Code would cancel the pull and send another: a
    round trip more before the first squiggle). A publish no pull waits for still asks for a re-pull
    (``tests/e2e/test_sessions.py``, ``test_pull_mode_when_client_can_pull_and_refresh``)."""
    caps = {"textDocument": {"diagnostic": {}}, "workspace": {"diagnostics": {"refreshSupport": True}}}
    server = _start(raw_server, tmp_path, caps)
    seen: list[dict[str, Any]] = []

    def record(predicate):
        def check(m: dict[str, Any]) -> bool:
            seen.append(m)
            return predicate(m)

        return check

    rid = server.request("textDocument/diagnostic", {"textDocument": {"uri": URI}})
    answer = server.wait_for(record(lambda m: m.get("id") == rid and "method" not in m))
    assert answer["result"]["kind"] == "full" and answer["result"]["items"]
    if not _traces(seen, 1):  # (the trace comes right after the publish, usually before the answer)
        server.wait_for(record(_stage1_checked(1)))
    assert _traces(seen, 1) == [f"stage 1: {URI} v1 checked (published)"]
    assert not [m for m in seen if m.get("method") == "workspace/diagnostic/refresh"]

    _stop(server)
