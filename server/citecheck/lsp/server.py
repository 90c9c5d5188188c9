"""The citecheck language server object: per-process state (settings, the authority source, the
ignore list, per-document state) and the protocol class that installs LSP-correct text storage.

Handlers live in ``wiring.py`` and the behaviour in ``features/``; this module only holds things
and decides, once per client, how diagnostics are delivered (push or pull, never both).
"""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import json
import logging
import os
import traceback
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import fields
from typing import Any

from lsprotocol import types
from pygls.exceptions import FeatureRequestError
from pygls.lsp.server import LanguageServer
from pygls.protocol import LanguageServerProtocol, lsp_method

from citecheck import __version__
from citecheck.config import Settings, settings_from_env, settings_from_mapping, unknown_env
from citecheck.errors import CitecheckError
from citecheck.ignore_file import IgnoreStore
from citecheck.lsp.text import LspTextDocument, LspWorkspace

log = logging.getLogger(__name__)

#: Settings that change which source answers; a change re-opens the source.
_SOURCE_FIELDS = (
    "corpus_path",
    "cache_path",
    "courtlistener_token",
    "courtlistener_url",
    "cap_fetch",
    "cap_url",
    "offline",
    "http_timeout_s",
    "model_url",
    "model_name",
)


def capability(caps: Any, path: str, default: Any = None) -> Any:
    """``capability(client_caps, "text_document.diagnostic")`` without AttributeError chains."""
    node = caps
    for part in path.split("."):
        node = getattr(node, part, None)
        if node is None:
            return default
    return node


def client_wants_pull(caps: types.ClientCapabilities) -> bool:
    """Pull only when the client can pull AND can be told to re-pull.

    Source-backed findings arrive seconds after the edit; a pull client without
    ``workspace/diagnostic/refresh`` would not see them until the next keystroke, so such a
    client (Neovim 0.10/0.11) gets push instead.
    """
    return capability(caps, "text_document.diagnostic") is not None and bool(
        capability(caps, "workspace.diagnostics.refresh_support", False)
    )


class CiteProtocol(LanguageServerProtocol):
    """Swaps in the LSP-correct workspace and advertises pull diagnostics only to pull clients."""

    @lsp_method(types.INITIALIZE)
    def lsp_initialize(self, params: types.InitializeParams):
        result = yield from super().lsp_initialize(params)
        self._workspace = LspWorkspace.replacing(self.workspace)
        server = self._server
        if isinstance(server, CiteServer):
            server.pull = client_wants_pull(params.capabilities)
            if not server.pull:
                result.capabilities.diagnostic_provider = None
        return result


class CiteServer(LanguageServer):
    def __init__(self) -> None:
        super().__init__(
            "citecheck-lsp",
            __version__,
            text_document_sync_kind=types.TextDocumentSyncKind.Incremental,
            protocol_cls=CiteProtocol,
        )
        self.base_settings: Settings = settings_from_env(os.environ)
        for warning in unknown_env(os.environ):
            log.warning("%s", warning)
        self.settings: Settings = self.base_settings
        self.init_options: Mapping[str, Any] = {}
        self.pull = False
        self.ignores = IgnoreStore(None)
        self.docs: dict[str, Any] = {}  # uri -> features.diagnostics.DocState
        self.sources: Any = None  # source_holder.SourceHolder, set by wiring
        self.local_sources: Any = None  # the same, for the local-only first wave of stage 2
        self.diagnostics: Any = None  # features.diagnostics.Diagnostics, set by wiring
        self._tasks: set[asyncio.Task[Any]] = set()
        self._shown_errors: set[str] = set()

    # ---- documents -------------------------------------------------------------------------
    def open_document(self, uri: str) -> LspTextDocument | None:
        ws = self.workspace
        return ws.open_document(uri) if isinstance(ws, LspWorkspace) else None

    # ---- settings --------------------------------------------------------------------------
    def compute_settings(self, workspace_section: Mapping[str, Any] | None) -> Settings:
        """defaults → CITECHECK_* env → initializationOptions → workspace/configuration."""
        settings = settings_from_mapping(self.init_options, self.base_settings)
        if workspace_section:
            settings = settings_from_mapping(workspace_section, settings)
        return settings

    @staticmethod
    def source_settings_changed(old: Settings, new: Settings) -> bool:
        return any(getattr(old, f) != getattr(new, f) for f in _SOURCE_FIELDS)

    @staticmethod
    def settings_differ(old: Settings, new: Settings) -> bool:
        return any(getattr(old, f.name) != getattr(new, f.name) for f in fields(Settings))

    # ---- tasks and errors ------------------------------------------------------------------
    def spawn(self, coro: Awaitable[Any], *, what: str) -> asyncio.Task[Any]:
        """Run ``coro`` in the background, keeping a strong reference and logging failures."""
        task = asyncio.ensure_future(coro)
        self._tasks.add(task)

        def _done(t: asyncio.Task[Any]) -> None:
            self._tasks.discard(t)
            if not t.cancelled() and (exc := t.exception()) is not None:
                self.report_problem(what, exc)

        task.add_done_callback(_done)
        return task

    def report_problem(self, what: str, exc: BaseException) -> None:
        """Full details to stderr and the client's log; at most one popup per kind of failure."""
        detail = "".join(traceback.format_exception(exc))
        log.error("%s failed: %s", what, detail)
        summary = f"citecheck: {what} failed: {exc}" if isinstance(exc, CitecheckError) else (
            f"citecheck: {what} failed ({type(exc).__name__}: {exc})"
        )
        self.log_to_client(summary + "\n" + detail, types.MessageType.Error)
        cause = f"{what}:{type(exc).__name__}"
        if cause not in self._shown_errors:
            self._shown_errors.add(cause)
            with contextlib.suppress(Exception):
                self.window_show_message(
                    types.ShowMessageParams(
                        type=types.MessageType.Error,
                        message=f"{summary} — details in the citecheck output/log.",
                    )
                )

    def send_notification_json(self, method: str, params_json: str) -> None:
        """Send a notification whose params are already JSON (see ``convert.Renderer``).

        pygls would unstructure and re-serialise every diagnostic of a brief on each keystroke;
        this writes the same JSON-RPC frame pygls writes, from pre-rendered parts.
        """
        protocol = self.protocol
        if protocol.writer is None:
            return
        body = f'{{"jsonrpc":"2.0","method":{json.dumps(method)},"params":{params_json}}}'.encode()
        header = b""
        if protocol._include_headers:  # pygls <3: set by set_writer for stdio/TCP, not WebSocket
            header = (
                f"Content-Length: {len(body)}\r\nContent-Type: {protocol.CONTENT_TYPE}; "
                f"charset={protocol.CHARSET}\r\n\r\n"
            ).encode()
        result = protocol.writer.write(header + body)
        if inspect.isawaitable(result):
            self.spawn(result, what="writing to the client")

    def log_to_client(self, message: str, kind: types.MessageType = types.MessageType.Info) -> None:
        with contextlib.suppress(Exception):
            self.window_log_message(types.LogMessageParams(type=kind, message=message))

    def report_server_error(self, error: Exception, source: Any) -> None:
        # A failed request is already answered with an error; only log it. pygls would pop up
        # every notification-handler error; those go through the once-per-cause throttle.
        if isinstance(source, type) and issubclass(source, FeatureRequestError):
            log.error("request failed: %s", error)
            return
        self.report_problem("notification", error)

    def guarded(self, what: str, fn: Callable[..., Any], default: Any = None) -> Callable[..., Any]:
        """Wrap a feature so one failing feature never takes the server (or other features) down."""
        if asyncio.iscoroutinefunction(fn):

            async def run_async(*args: Any, **kwargs: Any) -> Any:
                try:
                    return await fn(*args, **kwargs)
                except asyncio.CancelledError:
                    raise
                except Exception as exc:
                    self.report_problem(what, exc)
                    return default

            return run_async

        def run(*args: Any, **kwargs: Any) -> Any:
            try:
                return fn(*args, **kwargs)
            except Exception as exc:
                self.report_problem(what, exc)
                return default

        return run
