"""Every LSP registration of citecheck-lsp, and nothing else: each handler unpacks the params,
calls a feature, and returns.  Each feature is guarded: a failure is logged (stderr + the client's
log) and the other features go on; the server never dies on bad input.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Mapping
from typing import Any

from lsprotocol import types

from citecheck.errors import ConfigError
from citecheck.ignore_file import IgnoreStore
from citecheck.lsp.convert import CMD_IGNORE
from citecheck.lsp.features import code_actions as actions_feature
from citecheck.lsp.features import commands
from citecheck.lsp.features import hover as hover_feature
from citecheck.lsp.features.diagnostics import Diagnostics
from citecheck.lsp.server import CiteServer, capability
from citecheck.lsp.source_holder import SourceHolder

log = logging.getLogger(__name__)

SECTION = "citecheck"


def _section(options: Any) -> Mapping[str, Any]:
    """initializationOptions / didChangeConfiguration settings: flat, or under "citecheck"."""
    if not isinstance(options, Mapping):
        return {}
    inner = options.get(SECTION)
    return inner if isinstance(inner, Mapping) else options


def create_server() -> CiteServer:
    server = CiteServer()
    server.sources = SourceHolder()
    server.local_sources = SourceHolder()
    server.diagnostics = Diagnostics(server)

    async def apply_workspace_configuration(section: Mapping[str, Any] | None = None) -> None:
        if section is None and capability(server.client_capabilities, "workspace.configuration", False):
            try:
                got = await server.workspace_configuration_async(
                    types.ConfigurationParams(items=[types.ConfigurationItem(section=SECTION)])
                )
                section = _section(got[0]) if got else {}
            except Exception as exc:
                log.warning("workspace/configuration failed: %s", exc)
        try:
            new = server.compute_settings(section)
        except ConfigError as exc:
            server.report_problem("configuration", exc)
            return
        old, server.settings = server.settings, new
        if server.settings_differ(old, new):
            log.info("settings changed; re-checking open documents")
            server.diagnostics.refresh_all()

    @server.feature(types.INITIALIZE)
    def initialize(params: types.InitializeParams) -> None:
        server.init_options = _section(params.initialization_options)
        try:
            server.settings = server.compute_settings(None)
        except ConfigError as exc:
            server.report_problem("configuration", exc)
        root = params.root_path
        if params.workspace_folders:
            from pygls.uris import to_fs_path

            root = to_fs_path(params.workspace_folders[0].uri) or root
        elif params.root_uri:
            from pygls.uris import to_fs_path

            root = to_fs_path(params.root_uri) or root
        server.ignores = IgnoreStore.for_root(root)

    @server.feature(types.INITIALIZED)
    async def initialized(params: types.InitializedParams) -> None:
        server.diagnostics.configure_client(server.client_capabilities)
        if capability(server.client_capabilities, "workspace.did_change_configuration.dynamic_registration", False):
            try:
                await server.client_register_capability_async(
                    types.RegistrationParams(
                        registrations=[
                            types.Registration(id="citecheck-config", method=types.WORKSPACE_DID_CHANGE_CONFIGURATION)
                        ]
                    )
                )
            except Exception as exc:
                log.warning("could not register for configuration changes: %s", exc)
        await apply_workspace_configuration()

    @server.feature(types.WORKSPACE_DID_CHANGE_CONFIGURATION)
    async def did_change_configuration(params: types.DidChangeConfigurationParams) -> None:
        settings = params.settings
        section = _section(settings) if isinstance(settings, Mapping) and settings else None
        await server.guarded("configuration", apply_workspace_configuration)(section)

    @server.feature(types.TEXT_DOCUMENT_DID_OPEN)
    def did_open(params: types.DidOpenTextDocumentParams) -> None:
        td = params.text_document
        server.guarded("open", server.diagnostics.opened)(td.uri, td.language_id, td.version, td.text)

    @server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(params: types.DidChangeTextDocumentParams) -> None:
        doc = server.open_document(params.text_document.uri)
        if doc is None:
            return
        edits = doc.take_edits()
        server.guarded("change", server.diagnostics.changed)(doc.uri, params.text_document.version, doc.source, edits)

    @server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(params: types.DidCloseTextDocumentParams) -> None:
        server.guarded("close", server.diagnostics.closed)(params.text_document.uri)

    @server.feature(
        types.TEXT_DOCUMENT_DIAGNOSTIC,
        types.DiagnosticOptions(identifier=SECTION, inter_file_dependencies=False, workspace_diagnostics=False),
    )
    async def pull_diagnostics(params: types.DocumentDiagnosticParams) -> types.DocumentDiagnosticReport:
        empty = types.RelatedFullDocumentDiagnosticReport(items=[])
        run = server.guarded("diagnostics", server.diagnostics.pull, empty)
        return await run(params.text_document.uri, params.previous_result_id)

    @server.feature(types.TEXT_DOCUMENT_HOVER)
    def hover(params: types.HoverParams) -> types.Hover | None:
        return server.guarded("hover", hover_feature.hover)(server, params.text_document.uri, params.position)

    @server.feature(
        types.TEXT_DOCUMENT_CODE_ACTION,
        types.CodeActionOptions(code_action_kinds=[types.CodeActionKind.QuickFix]),
    )
    def code_action(params: types.CodeActionParams) -> list[types.CodeAction]:
        return server.guarded("code actions", actions_feature.code_actions, [])(server, params)

    def command(name: str, fn: Any) -> None:
        # exactly ``(*args)``: pygls structures command arguments from the handler's signature
        async def run(*args: Any) -> Any:
            try:
                result = fn(server, *args)
                return await result if hasattr(result, "__await__") else result
            except commands.CommandError as exc:
                server.log_to_client(f"citecheck: {name}: {exc}", types.MessageType.Warning)
                return {"error": str(exc)}
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                server.report_problem(name, exc)
                return {"error": f"{name} failed; see the citecheck log"}

        server.command(name)(run)

    command(commands.CHECK_DOCUMENT, commands.check_document)
    command(commands.SHOW_REPORT, commands.show_report)
    command(commands.CLEAR_CACHE, commands.clear_cache)
    command(CMD_IGNORE, commands.ignore)

    @server.feature(types.SHUTDOWN)
    async def shutdown(params: Any) -> None:
        await server.sources.close()
        await server.local_sources.close()

    return server
