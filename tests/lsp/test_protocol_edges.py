"""Protocol abuse over stdio: a broken header block, out-of-range positions, requests after
``shutdown`` and ``exit`` without ``shutdown``. Each must get the answer the spec asks for, and the
server must keep serving (or exit with the right status)."""

from __future__ import annotations

import pytest

OPEN = {
    "textDocument": {
        "uri": "file:///b.txt",
        "languageId": "plaintext",
        "version": 1,
        "text": "See 33 Umbrella 422.\n",
    }
}


@pytest.fixture
def server(raw_server, tmp_path):
    s = raw_server(
        env={
            "CITECHECK_OFFLINE": "1",
            "CITECHECK_CACHE_PATH": str(tmp_path / "c.sqlite"),
            "CITECHECK_CORPUS_PATH": str(tmp_path / "corpus.sqlite"),
        },
        log_level="WARNING",
    )
    s.initialize()
    return s


def _hover(server, line: int, character: int) -> int:
    return server.request(
        "textDocument/hover",
        {"textDocument": {"uri": "file:///b.txt"}, "position": {"line": line, "character": character}},
    )


@pytest.mark.parametrize(
    "bad_header",
    [
        b'Content-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n{"jsonrpc":"2.0","method":"x"}',
        b'Content-Length: abc\r\n\r\n{"jsonrpc":"2.0","method":"x"}',
        b"Content-Length: -5\r\n\r\n",
        b"garbage without any header\r\n\r\n",
        b"Content-Length: 3\r\n\r\n{{{",  # a body that is not JSON: a parse error, and the server goes on
    ],
)
def test_a_bad_header_block_does_not_wedge_the_server(server, bad_header: bytes) -> None:
    server.notify("textDocument/didOpen", OPEN)
    server.send_bytes(bad_header)
    rid = _hover(server, 0, 5)
    answer = server.response(rid, timeout=20)
    assert "error" not in answer
    rid = server.request("shutdown")
    server.response(rid)
    server.notify("exit")
    rc, _log = server.close()
    assert rc == 0


def test_out_of_range_positions_are_answered(server) -> None:
    server.notify("textDocument/didOpen", OPEN)
    for line, character in ((99, 0), (2, 0), (-1, 0)):
        answer = server.response(_hover(server, line, character), timeout=20)
        assert "error" in answer and answer["error"]["code"] == -32602, answer  # InvalidParams
    # a position past the end of the line is clamped by the spec ("defaults back to the line length")
    answer = server.response(_hover(server, 0, 10_000), timeout=20)
    assert "error" not in answer


def test_requests_after_shutdown_get_an_error_and_exit_is_clean(server) -> None:
    server.response(server.request("shutdown"))
    answer = server.response(_hover(server, 0, 0), timeout=20)
    assert answer["error"]["code"] == -32600  # InvalidRequest
    server.notify("exit")
    rc, _ = server.close()
    assert rc == 0


def test_exit_without_shutdown_exits_1(server) -> None:
    server.notify("exit")
    rc, _ = server.close()
    assert rc == 1


@pytest.mark.parametrize("delay", [0.6, 1.0, 1.4])
def test_shutdown_during_a_check_lets_it_finish_with_the_cache_before_closing_it(
    raw_server, tmp_path, delay
) -> None:
    """A check still looking citations up when ``shutdown`` arrives must not go on to use the cache
    that shutdown closes ("Cannot operate on a closed database" in the log, a lookup reported as failed).
    A race, so this catches it only when a delay lands in the window; test_server's stop_tasks test is
    the deterministic half."""
    import time
    from pathlib import Path

    brief = (Path(__file__).resolve().parents[2] / "examples" / "brief.md").read_text(encoding="utf-8")
    # not offline (no token, so CourtListener is off anyway): the cache is read and written
    s = raw_server(
        env={
            "CITECHECK_CACHE_PATH": str(tmp_path / "c.sqlite"),
            "CITECHECK_CORPUS_PATH": str(tmp_path / "corpus.sqlite"),
        },
        log_level="DEBUG",
    )
    s.initialize()
    s.notify(
        "textDocument/didOpen",
        {"textDocument": {"uri": "file:///brief.md", "languageId": "markdown", "version": 1, "text": brief}},
    )
    time.sleep(delay)
    s.response(s.request("shutdown"), timeout=60)
    s.notify("exit")
    rc, log = s.close()
    assert rc == 0
    assert "closed database" not in log
    assert "cache unavailable" not in log


@pytest.mark.parametrize(
    "body", [b"[1, 2]", b"[]", b"42", b'"text"', b"null", b"true", b"{}", b'{"jsonrpc": "2.0"}']
)
def test_a_body_that_is_no_json_rpc_object_is_one_log_line(raw_server, tmp_path, body: bytes) -> None:
    """JSON that is not a JSON-RPC message object (an array, a number, an empty object) gets one warning
    line and, where the spec asks for one, an error answer; never a traceback in the log."""
    server = raw_server(
        env={"CITECHECK_OFFLINE": "1", "CITECHECK_CACHE_PATH": str(tmp_path / "c.sqlite")}, log_level="INFO"
    )
    server.initialize()
    server.notify("textDocument/didOpen", OPEN)
    server.send_bytes(b"Content-Length: %d\r\n\r\n" % len(body) + body)
    rid = _hover(server, 0, 5)
    assert "error" not in server.response(rid, timeout=20)  # still serving
    rid = server.request("shutdown")
    server.response(rid)
    server.notify("exit")
    rc, log = server.close()
    assert rc == 0
    assert "Traceback" not in log and "Unable to handle message" not in log, log
