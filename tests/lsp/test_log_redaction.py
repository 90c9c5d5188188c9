"""No log line ever holds the CourtListener token: not InitializeParams (how Helix and Neovim pass
settings), not the workspace/configuration answer, not an error; the test greps every byte of stderr."""

from __future__ import annotations

import logging

from citecheck.privacy.redact import MASK, RedactingFormatter, redact, register_secret

TOKEN = "tok-4c1b9e77d2-SECRET"


def test_every_lsp_log_line_is_redacted(raw_server, tmp_path) -> None:
    server = raw_server(env={"CITECHECK_OFFLINE": "1", "CITECHECK_CACHE_PATH": str(tmp_path / "c.sqlite")})
    server.configuration = {"courtlistenerToken": TOKEN, "cachePath": str(tmp_path / "c.sqlite")}
    server.initialize({"courtlistenerToken": TOKEN, "citecheck": {"token": TOKEN, "offline": True}})
    server.notify(
        "textDocument/didOpen",
        {
            "textDocument": {
                "uri": "file:///b.txt",
                "languageId": "plaintext",
                "version": 1,
                "text": f"See 410 U.S. 113. {TOKEN}",
            }
        },
    )
    server.wait_for(lambda m: m.get("method") == "textDocument/publishDiagnostics")
    rid = server.request("shutdown")
    server.response(rid)
    server.notify("exit")
    _rc, log = server.close()
    assert "initializationOptions" in log or "initialization_options" in log  # INFO/DEBUG really logged them
    assert TOKEN not in log


def test_redact_masks_known_values_and_token_keys() -> None:
    register_secret("zz-registered-secret")
    assert "zz-registered-secret" not in redact("error talking to host with zz-registered-secret in it")
    assert redact("{'courtlistener_token': 'abc123'}") == f"{{'courtlistener_token': '{MASK}'}}"
    assert redact("Authorization: Token abcd1234") == f"Authorization: Token {MASK}"
    assert redact("plain words stay") == "plain words stay"


def test_formatter_redacts_arguments_and_tracebacks() -> None:
    fmt = RedactingFormatter("%(message)s")
    try:
        raise ValueError("token='leaky-value-123'")
    except ValueError:
        import sys

        record = logging.LogRecord(
            "x", logging.ERROR, __file__, 1, "settings %s", ({"token": "leaky-value-123"},), sys.exc_info()
        )
    assert "leaky-value-123" not in fmt.format(record)
