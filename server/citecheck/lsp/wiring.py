"""Every LSP registration of citecheck-lsp, and nothing else: one short handler per method, and the
``workspace/executeCommand`` commands.

A handler unpacks the params, calls a feature (``features/``) through ``ls.guarded`` — a failure is logged
and the other features go on — and returns what the feature returned.
"""

from __future__ import annotations

import asyncio
import inspect
import logging
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

from lsprotocol import types
from pygls.uris import to_fs_path

from citecheck.errors import ConfigError
from citecheck.ignores.file import IgnoreStore
from citecheck.lsp.features import code_actions, commands, warmup
from citecheck.lsp.features import hover as hovers
from citecheck.lsp.features.configuration import apply_workspace_configuration, section_of
from citecheck.lsp.features.visible_ranges import VISIBLE_RANGES_NOTIFICATION, BadParams
from citecheck.lsp.server import CiteServer

log = logging.getLogger(__name__)


def initialize(ls: CiteServer, params: types.InitializeParams) -> None:
    """Settings from initializationOptions, the workspace's ignore list, the trace level (the warm-up
    began before the server read anything: ``__main__``, ``features/warmup.py``).

    pygls keeps the trace level ``$/setTrace`` sets (``protocol.trace``) but not the one ``initialize`` asks
    for; it is taken here (``$/logTrace`` says which versions were checked and which publishes were skipped,
    see ``features/diagnostics.py``)."""
    ls.protocol.trace = params.trace or types.TraceValue.Off
    ls.init_options = section_of(params.initialization_options)
    try:
        ls.settings = ls.compute_settings(None)
    except ConfigError as exc:
        ls.report_problem("configuration", exc)
    root = params.root_path
    if params.workspace_folders:
        root = to_fs_path(params.workspace_folders[0].uri) or root
    elif params.root_uri:
        root = to_fs_path(params.root_uri) or root
    ls.ignores = IgnoreStore.for_root(root)


async def initialized(ls: CiteServer, params: types.InitializedParams) -> None:
    """Register for configuration changes when the client allows it, then read them; then open the
    sources (``features/warmup.py``: ready before the first document's check needs them)."""
    if ls.caps.dynamic_configuration:
        registration = types.Registration(
            id="citecheck-config", method=types.WORKSPACE_DID_CHANGE_CONFIGURATION
        )
        try:
            await ls.client_register_capability_async(types.RegistrationParams(registrations=[registration]))
        except Exception as exc:
            log.warning("could not register for configuration changes: %s", exc)
    await ls.guarded("configuration", apply_workspace_configuration)(ls)
    ls.spawn(warmup.open_sources(ls), what="opening the sources")


async def did_change_configuration(ls: CiteServer, params: types.DidChangeConfigurationParams) -> None:
    """New settings; the open documents are checked again when they differ."""
    settings = params.settings
    section = section_of(settings) if isinstance(settings, Mapping) and settings else None
    await ls.guarded("configuration", apply_workspace_configuration)(ls, section)


def did_open(ls: CiteServer, params: types.DidOpenTextDocumentParams) -> None:
    td = params.text_document
    ls.guarded("open", ls.diagnostics.opened)(td.uri, td.language_id, td.version, td.text)


def did_change(ls: CiteServer, params: types.DidChangeTextDocumentParams) -> None:
    """The edits pygls applied (``lsp/text.py``), handed to diagnostics."""
    doc = ls.open_document(params.text_document.uri)
    if doc is None:
        return
    edits = doc.take_edits()
    ls.guarded("change", ls.diagnostics.changed)(doc.uri, params.text_document.version, doc.source, edits)


def did_close(ls: CiteServer, params: types.DidCloseTextDocumentParams) -> None:
    """Stop checking the document and clear its diagnostics."""
    ls.guarded("close", ls.diagnostics.closed)(params.text_document.uri)


async def diagnostic(
    ls: CiteServer, params: types.DocumentDiagnosticParams
) -> types.DocumentDiagnosticReport:
    """Pull diagnostics, answered from the store push uses."""
    empty = types.RelatedFullDocumentDiagnosticReport(items=[])
    run = ls.guarded("diagnostics", ls.diagnostics.pull, empty)
    result: types.DocumentDiagnosticReport = await run(params.text_document.uri, params.previous_result_id)
    return result


def hover(ls: CiteServer, params: types.HoverParams) -> types.Hover | None:
    """A citation's status, matched case, page used and compared passage."""
    result: types.Hover | None = ls.guarded("hover", hovers.hover)(
        ls, params.text_document.uri, params.position
    )
    return result


def code_action(ls: CiteServer, params: types.CodeActionParams) -> list[types.CodeAction]:
    """Apply a finding's fix, or ignore the finding or its citation."""
    result: list[types.CodeAction] = ls.guarded("code actions", code_actions.code_actions, [])(ls, params)
    return result


async def shutdown(ls: CiteServer, params: Any) -> None:
    """Stop the background checks, close the case-law source and stop the executor."""
    for state in list(ls.docs.values()):
        ls.diagnostics.closed(state.uri, clear=False)
    await ls.stop_tasks()  # the checks let go of the cache before it closes
    await ls.sources.close()
    ls.executor.shutdown(wait=False, cancel_futures=True)


def visible_ranges(ls: CiteServer, params: Any) -> None:
    """``citecheck/visibleRanges`` (a notification of ours): the documents the client shows and their
    visible ranges, so CourtListener work for what is on screen goes first (``features/visible_ranges``)."""
    try:
        ls.visible.update(params)
    except BadParams as exc:  # a hint, not worth a popup: the work keeps document order
        log.warning("ignored a %s notification: %s", VISIBLE_RANGES_NOTIFICATION, exc)


#: (method, its options, the handler), in the order a session meets them.
HANDLERS: tuple[tuple[str, Any, Callable[..., Any]], ...] = (
    (types.INITIALIZE, None, initialize),
    (types.INITIALIZED, None, initialized),
    (types.WORKSPACE_DID_CHANGE_CONFIGURATION, None, did_change_configuration),
    (types.TEXT_DOCUMENT_DID_OPEN, None, did_open),
    (types.TEXT_DOCUMENT_DID_CHANGE, None, did_change),
    (types.TEXT_DOCUMENT_DID_CLOSE, None, did_close),
    (
        types.TEXT_DOCUMENT_DIAGNOSTIC,
        types.DiagnosticOptions(
            identifier="citecheck", inter_file_dependencies=False, workspace_diagnostics=False
        ),
        diagnostic,
    ),
    (types.TEXT_DOCUMENT_HOVER, None, hover),
    (
        types.TEXT_DOCUMENT_CODE_ACTION,
        types.CodeActionOptions(code_action_kinds=[types.CodeActionKind.QuickFix]),
        code_action,
    ),
    (types.SHUTDOWN, None, shutdown),
    (VISIBLE_RANGES_NOTIFICATION, None, visible_ranges),
)


def create_server() -> CiteServer:
    server = CiteServer()
    for method, options, handler in HANDLERS:
        server.feature(method, options)(handler)
    for name, fn in commands.COMMANDS.items():
        server.command(name)(_command(server, name, fn))
    return server


def _command(server: CiteServer, name: str, fn: Callable[..., Any]) -> Callable[..., Awaitable[Any]]:
    # exactly ``(*args)``: pygls structures command arguments from the handler's signature
    async def run(*args: Any) -> Any:
        try:
            result = fn(server, *args)
            return await result if inspect.isawaitable(result) else result
        except commands.CommandError as exc:
            server.log_to_client(f"citecheck: {name}: {exc}", types.MessageType.Warning)
            return {"error": str(exc)}
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            server.report_problem(name, exc)
            return {"error": f"{name} failed; see the citecheck log"}

    return run
