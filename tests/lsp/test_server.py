"""Per-client decisions of the server object: pull vs push, settings precedence."""

from __future__ import annotations

from lsprotocol import types
from pytest_lsp import client_capabilities

from citecheck.config import Settings
from citecheck.lsp.capabilities import ClientCaps
from citecheck.lsp.server import CiteServer
from citecheck.lsp.sources import settings_differ, source_settings_changed


def test_pull_only_with_refresh_support() -> None:
    assert not ClientCaps.of(client_capabilities("visual-studio-code")).pull
    assert not ClientCaps.of(client_capabilities("emacs")).pull
    nvim = client_capabilities("neovim@v0.11.0")
    assert not ClientCaps.of(nvim).pull  # can pull, cannot be told to re-pull
    nvim.workspace.diagnostics = types.DiagnosticWorkspaceClientCapabilities(refresh_support=True)
    caps = ClientCaps.of(nvim)
    assert caps.pull and caps.refresh and caps.related_information


def test_capabilities_resolved_once_with_defaults_for_missing_parts() -> None:
    assert ClientCaps.of(types.ClientCapabilities()) == ClientCaps()
    assert ClientCaps.of(None) == ClientCaps()
    vscode = ClientCaps.of(client_capabilities("visual-studio-code"))
    assert vscode.related_information and vscode.data and vscode.configuration and vscode.progress
    assert not ClientCaps.of(client_capabilities("emacs")).data  # Emacs does not echo Diagnostic.data


def test_settings_precedence_and_source_change_detection() -> None:
    server = CiteServer()
    server.base_settings = Settings(debounce_ms=150, offline=False)
    server.init_options = {"debounceMs": 40, "offline": True}
    s = server.compute_settings({"debounceMs": 80})
    assert s.debounce_ms == 80 and s.offline  # workspace configuration wins over initializationOptions
    assert source_settings_changed(s, Settings(offline=False))
    assert not source_settings_changed(
        s, Settings(debounce_ms=10, offline=True, corpus_path=s.corpus_path, cache_path=s.cache_path)
    )
    assert settings_differ(s, server.compute_settings(None))


def test_stop_tasks_waits_until_cancelled_tasks_have_unwound() -> None:
    """Shutdown closes the cache right after ``stop_tasks``: a task still cleaning up (awaiting in its
    ``finally``) must have finished by then."""
    import asyncio

    server = CiteServer()
    events: list[str] = []

    async def check() -> None:
        try:
            await asyncio.sleep(60)
        finally:
            await asyncio.sleep(0.05)  # e.g. a lookup that must complete before the cache can close
            events.append("unwound")

    async def run() -> None:
        task = server.spawn(check(), what="test check")
        await asyncio.sleep(0)
        await server.stop_tasks(timeout=5)
        events.append("stopped")
        assert task.cancelled()

    asyncio.run(run())
    assert events == ["unwound", "stopped"]


def test_a_client_says_it_moves_its_diagnostics_in_experimental() -> None:
    """``experimental.citecheck.movesDiagnostics: true`` (the VS Code extension sends it); anything else
    there, or nothing, is a client that does not."""
    from lsprotocol import types

    def caps(experimental: object) -> ClientCaps:
        return ClientCaps.of(types.ClientCapabilities(experimental=experimental))

    assert caps({"citecheck": {"movesDiagnostics": True}}).moves_diagnostics
    for other in (
        None,
        {},
        {"citecheck": True},
        {"citecheck": {"movesDiagnostics": "yes"}},
        ["citecheck"],
        {"other": {"movesDiagnostics": True}},
    ):
        assert not caps(other).moves_diagnostics, other
    assert not ClientCaps.of(
        client_capabilities("visual-studio-code")
    ).moves_diagnostics  # not before it says so
