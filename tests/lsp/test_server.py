"""Per-client decisions of the server object: pull vs push, settings precedence."""

from __future__ import annotations

from lsprotocol import types
from pytest_lsp import client_capabilities

from citecheck.config import Settings
from citecheck.lsp.server import CiteServer, capability, client_wants_pull


def test_pull_only_with_refresh_support() -> None:
    assert not client_wants_pull(client_capabilities("visual-studio-code"))
    assert not client_wants_pull(client_capabilities("emacs"))
    nvim = client_capabilities("neovim@v0.11.0")
    assert not client_wants_pull(nvim)  # can pull, cannot be told to re-pull
    nvim.workspace.diagnostics = types.DiagnosticWorkspaceClientCapabilities(refresh_support=True)
    assert client_wants_pull(nvim)


def test_capability_walks_missing_parts() -> None:
    caps = types.ClientCapabilities()
    assert capability(caps, "text_document.publish_diagnostics.data_support", "dflt") == "dflt"
    assert capability(client_capabilities("emacs"), "general.position_encodings")[0] == "utf-32"


def test_settings_precedence_and_source_change_detection() -> None:
    server = CiteServer()
    server.base_settings = Settings(debounce_ms=150, offline=False)
    server.init_options = {"debounceMs": 40, "offline": True}
    s = server.compute_settings({"debounceMs": 80})
    assert s.debounce_ms == 80 and s.offline  # workspace configuration wins over initializationOptions
    assert server.source_settings_changed(s, Settings(offline=False))
    assert not server.source_settings_changed(s, Settings(debounce_ms=10, offline=True, corpus_path=s.corpus_path,
                                                          cache_path=s.cache_path))
    assert server.settings_differ(s, server.compute_settings(None))
