"""Tests that need their own server process: restart persistence, pull mode, push-only clients,
request cancellation."""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path

import pytest
from lsprotocol import types
from pygls.exceptions import JsonRpcRequestCancelled
from pytest_lsp import client_capabilities

from citecheck.sources.corpus_server import QuietHTTPServer

TEXT = (
    "Wrong court: Berry v. Keith, 100 A.2d 831 (2d Cir. 1953).\n"
    "Wrong year: Branson v. Harris, 100 A.2d 38 (D.C. 1961).\n"
)


async def _session(h, corpus: Path, cache: Path, caps: types.ClientCapabilities, root: Path | None = None):
    client = await h.config.start()
    result = await h.start_session(client, caps, h.init_options(corpus, cache), root)
    return client, result


async def _close(client) -> None:
    await client.shutdown_session()
    await client.stop()


async def test_ignore_list_survives_a_restart(h, corpus_db: Path, tmp_path: Path) -> None:
    uri = (tmp_path / "brief.txt").as_uri()
    caps = client_capabilities("visual-studio-code")
    client, _ = await _session(h, corpus_db, tmp_path, caps, root=tmp_path)
    try:
        h.open_doc(client, uri, TEXT)
        diags = await h.wait_publish(
            client, uri, 1, lambda ds: {"court-mismatch", "year-mismatch"} <= {d.code for d in ds}
        )
        d = next(d for d in diags if d.code == "court-mismatch")
        args = [{"uri": uri, "scope": "citation", "key": d.data["key"]}]
        done = await client.workspace_execute_command_async(
            types.ExecuteCommandParams(command="citecheck.ignore", arguments=args)
        )
        assert done["scope"] == "citation"
    finally:
        await _close(client)
    stored = json.loads((tmp_path / ".citecheck" / "ignore.json").read_text(encoding="utf-8"))
    assert stored["ignored"] == [{"kind": "*", "citation": "100 a.2d 831", "quoteHash": "*"}]

    # a new server (another editor, say Neovim) honours it; the text moved, the key still matches
    client, _ = await _session(h, corpus_db, tmp_path, client_capabilities("neovim@v0.11.0"), root=tmp_path)
    try:
        h.open_doc(client, uri, "New first line.\n" + TEXT)
        diags = await h.wait_publish(client, uri, 1, lambda ds: "year-mismatch" in {d.code for d in ds})
        assert "court-mismatch" not in {d.code for d in diags}
    finally:
        await _close(client)


async def test_push_only_clients_are_not_offered_pull(h, corpus_db: Path, tmp_path: Path) -> None:
    # Neovim 0.11 can pull but cannot be told to re-pull: it gets push, and no diagnosticProvider,
    # so it never sees the same finding twice.
    client, result = await _session(h, corpus_db, tmp_path, client_capabilities("neovim@v0.11.0"))
    try:
        assert result.capabilities.diagnostic_provider is None
    finally:
        await _close(client)


async def test_pull_mode_when_client_can_pull_and_refresh(h, corpus_db: Path, tmp_path: Path) -> None:
    caps = client_capabilities("neovim@v0.11.0")
    caps.workspace.diagnostics = types.DiagnosticWorkspaceClientCapabilities(refresh_support=True)
    client, result = await _session(h, corpus_db, tmp_path, caps)
    uri = "file:///pull/doc.txt"
    try:
        assert result.capabilities.diagnostic_provider is not None
        h.open_doc(client, uri, TEXT)
        ident = types.TextDocumentIdentifier(uri=uri)
        report = None
        pulls = 0
        for _ in range(200):  # stage 1 first, then the refresh after stage 2 tells us to pull again
            report = await client.text_document_diagnostic_async(
                types.DocumentDiagnosticParams(text_document=ident)
            )
            pulls += 1
            if {"court-mismatch", "year-mismatch"} <= {d.code for d in report.items}:
                break
            await asyncio.sleep(0.05)
        assert {"court-mismatch", "year-mismatch"} <= {d.code for d in report.items}
        # A publish the first (waiting) pull carried owes no refresh; any later one does. Which of the two
        # happened depends on whether the sources answered before the first publish: not on the machine's load
        # being asserted, only the rule.
        assert client.diagnostic_refresh_count >= 1 or pulls == 1
        again = await client.text_document_diagnostic_async(
            types.DocumentDiagnosticParams(text_document=ident, previous_result_id=report.result_id)
        )
        assert again.kind == "unchanged"
        assert not client.published.get(uri)  # never both
    finally:
        await _close(client)


async def test_cancel_request(h, corpus_db: Path, tmp_path: Path) -> None:
    caps = client_capabilities("neovim@v0.11.0")
    caps.workspace.diagnostics = types.DiagnosticWorkspaceClientCapabilities(refresh_support=True)
    client, _ = await _session(h, corpus_db, tmp_path, caps)
    try:
        # a pull for a document still being checked waits; cancelling it must answer -32800
        uri = "file:///pull/cancel.txt"
        h.open_doc(client, uri, TEXT * 400)
        fut = client.protocol.send_request(
            types.TEXT_DOCUMENT_DIAGNOSTIC,
            types.DocumentDiagnosticParams(text_document=types.TextDocumentIdentifier(uri=uri)),
            msg_id="cancel-me",
        )
        client.protocol.notify(types.CANCEL_REQUEST, types.CancelParams(id="cancel-me"))
        with pytest.raises((JsonRpcRequestCancelled, asyncio.CancelledError)):
            await asyncio.wait_for(asyncio.wrap_future(fut), timeout=10)
        # and the server is fine afterwards
        report = await client.text_document_diagnostic_async(
            types.DocumentDiagnosticParams(text_document=types.TextDocumentIdentifier(uri=uri))
        )
        assert report.kind == "full"
    finally:
        await _close(client)


class _SlowFailingCourtListener:
    """A real HTTP server on 127.0.0.1 that answers every request slowly with 401."""

    def __init__(self, delay_s: float) -> None:
        import http.server
        import threading

        self.requests: list[bytes] = []
        outer = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def _answer(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                outer.requests.append(self.path.encode() + b" " + self.rfile.read(length))
                time.sleep(delay_s)
                self.send_response(401)
                self.send_header("Content-Type", "application/json")
                self.end_headers()
                self.wfile.write(b'{"detail": "Invalid token."}')

            do_GET = do_POST = _answer

            def log_message(self, *args: object) -> None:
                pass

        self.httpd = QuietHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/api/rest/v4/"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


async def test_slow_failing_source_shows_progress_and_cannot_verify(
    h, corpus_db: Path, tmp_path: Path
) -> None:
    import os

    from pytest_lsp import ClientServerConfig

    remote = _SlowFailingCourtListener(delay_s=0.8)
    # the token may go to this loopback stand-in only because the user's environment says so
    env = {**os.environ, "CITECHECK_TOKEN_HOSTS": "127.0.0.1"}
    client = await ClientServerConfig(
        server_command=h.config.server_command, client_factory=h.config.client_factory, server_env=env
    ).start()
    try:
        options = h.init_options(
            corpus_db, tmp_path, offline=False, courtlistenerToken="test-token", courtlistenerUrl=remote.url
        )
        await h.start_session(client, client_capabilities("visual-studio-code"), options)
        uri = "file:///remote/brief.txt"
        h.open_doc(
            client,
            uri,
            "As held in Roe v. Wade, 410 U.S. 113 (1973), privacy matters.\n"
            "Wrong year: Branson v. Harris, 100 A.2d 38 (D.C. 1961).\n",
        )
        diags = await h.wait_publish(
            client, uri, 1, lambda ds: any(d.code == "cannot-verify" for d in ds), timeout=30
        )
        # published as they arrive: the local corpus's finding came before the slow network answer
        waves = [[d.code for d in p.diagnostics] for p in client.published[uri] if p.version == 1]
        assert any("year-mismatch" in w and "cannot-verify" not in w for w in waves), waves
        (d,) = [d for d in diags if d.code == "cannot-verify"]
        assert d.severity == types.DiagnosticSeverity.Hint  # never an accusation, and not a squiggle
        for _ in range(100):  # the failure is in the client's log, not only a squiggle
            if any("could not be verified" in m.message for m in client.log_messages):
                break
            await asyncio.sleep(0.02)
        logged = [m for m in client.log_messages if "could not be verified" in m.message]
        assert logged and logged[0].type == types.MessageType.Warning, [
            m.message for m in client.log_messages
        ]
        # and said once to the user, in words: one popup per editor run, not one per document or keystroke
        h.open_doc(client, "file:///remote/second.txt", "See Roe v. Wade, 410 U.S. 113 (1973).\n")
        await h.wait_publish(
            client,
            "file:///remote/second.txt",
            1,
            lambda ds: any(d.code == "cannot-verify" for d in ds),
            timeout=30,
        )
        popups = [m for m in client.messages if "could not reach" in m.message]
        assert len(popups) == 1 and popups[0].type == types.MessageType.Warning, [
            m.message for m in client.messages
        ]
        assert "never as fabricated" in popups[0].message
        assert remote.requests, "the source was consulted"
        assert all(b"privacy matters" not in r for r in remote.requests)  # only citation strings leave
        reports = [r for r in client.progress_reports.values() if r]
        assert reports and isinstance(reports[0][0], types.WorkDoneProgressBegin)
        assert isinstance(reports[0][-1], types.WorkDoneProgressEnd)
        await client.shutdown_session()
    finally:
        remote.close()
        await client.stop()
