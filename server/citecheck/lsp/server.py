"""The citecheck language server object: per-process state (settings, the authority source, the
ignore list, per-document state) and the protocol class that installs LSP-correct text storage.

Handlers live in ``wiring.py`` (one short function per LSP method) and the behaviour in
``features/``; this module only holds things and resolves, once per client, what the
client can do (``capabilities.ClientCaps``: push or pull, never both).
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
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from lsprotocol import types
from pygls.exceptions import FeatureRequestError
from pygls.lsp.server import LanguageServer
from pygls.protocol import LanguageServerProtocol, lsp_method

from citecheck import __version__
from citecheck.config import Layer, Settings, key_warnings, settings_from_env, settings_from_mapping
from citecheck.config.files import load_user_settings
from citecheck.errors import CitecheckError
from citecheck.ignores.file import IgnoreStore
from citecheck.lsp import guards
from citecheck.lsp.capabilities import ClientCaps
from citecheck.lsp.features.diagnostics import Diagnostics
from citecheck.lsp.features.docstate import DocState
from citecheck.lsp.features.visible_ranges import VisibleRanges
from citecheck.lsp.sources import Sources
from citecheck.lsp.text import LspTextDocument, LspWorkspace
from citecheck.privacy import redact

log = logging.getLogger(__name__)


class CiteProtocol(LanguageServerProtocol):
    """Swaps in the LSP-correct workspace, advertises pull diagnostics only to pull clients, and
    answers requests after ``shutdown`` or outside the document with an error (``guards``)."""

    def handle_message(self, message: Any) -> None:
        method, msg_id = getattr(message, "method", None), getattr(message, "id", None)
        if self._shutdown and method is not None and msg_id is not None and method != types.EXIT:
            self._handle_request(msg_id, method, getattr(message, "params", None))
            return
        super().handle_message(message)

    def _handle_request(self, msg_id: Any, method_name: str, params: Any) -> None:
        if (refused := guards.refusal(self, method_name, params)) is not None:
            code, message = refused
            self._send_response(msg_id, None, types.ResponseError(code=code, message=message))
            return
        super()._handle_request(msg_id, method_name, params)

    @lsp_method(types.INITIALIZE)
    def lsp_initialize(self, params: types.InitializeParams):
        result = yield from super().lsp_initialize(params)
        self._workspace = LspWorkspace.replacing(self.workspace)
        server = self._server
        if isinstance(server, CiteServer):
            server.caps = ClientCaps.of(params.capabilities)
            server.diagnostics.configure_client(server.caps)
            if not server.caps.pull:
                result.capabilities.diagnostic_provider = None
        return result


def _user_settings() -> Settings:
    """The user's settings file and environment; a broken settings file is logged, not fatal."""
    try:
        return load_user_settings(os.environ)
    except CitecheckError as exc:
        log.error("%s; using the environment alone", exc)
        return settings_from_env(os.environ)


class CiteServer(LanguageServer):
    def __init__(self) -> None:
        super().__init__(
            "citecheck-lsp",
            __version__,
            text_document_sync_kind=types.TextDocumentSyncKind.Incremental,
            protocol_cls=CiteProtocol,
        )
        self.base_settings: Settings = _user_settings()
        self.settings: Settings = self.base_settings
        self.init_options: Mapping[str, Any] = {}
        self.caps = ClientCaps()
        self.ignores = IgnoreStore(None)
        self.docs: dict[str, DocState] = {}
        #: what the client shows (``citecheck/visibleRanges``): CourtListener work on screen goes first
        self.visible = VisibleRanges(self)
        # an index built (``corpus sync``) while the server runs: check the open documents against it
        self.sources = Sources(order=self.visible.order, on_index=lambda: self.diagnostics.refresh_all())
        #: the one executor for CPU work (extraction, locating quotes, judging); one worker, so a
        #: check never competes with a keystroke's extraction for the GIL from a second thread
        self.executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="citecheck-cpu")
        self.diagnostics = Diagnostics(self)
        self._tasks: set[asyncio.Task[Any]] = set()
        self._shown_errors: set[str] = set()
        self._warned: set[str] = set()  # settings warnings already logged (each once per server)

    # ---- documents -------------------------------------------------------------------------
    def open_document(self, uri: str) -> LspTextDocument | None:
        ws = self.workspace
        return ws.open_document(uri) if isinstance(ws, LspWorkspace) else None

    # ---- settings --------------------------------------------------------------------------
    def compute_settings(self, workspace_section: Mapping[str, Any] | None) -> Settings:
        """defaults → the user's settings file → CITECHECK_* env → initializationOptions → workspace/configuration.

        ``initializationOptions`` are the editor's launch options, the user's own (the VS Code extension
        fills them from user settings and its secret store); ``workspace/configuration`` may come from
        the folder (``.vscode/settings.json``), so it cannot choose a host, a key or a file to read, nor
        loosen what the user's own layers decided about sending (``offline``, ``holdings``, … —
        ``config.Who``): a key it may not set is ignored, with one warning in the log."""
        settings = settings_from_mapping(self.init_options, self.base_settings, layer=Layer.USER)
        if workspace_section:
            for warning in key_warnings(workspace_section, "workspace settings", Layer.FOLDER, base=settings):
                if "unknown setting" not in warning and warning not in self._warned:
                    self._warned.add(warning)
                    log.warning("%s", warning)
            settings = settings_from_mapping(workspace_section, settings, layer=Layer.FOLDER)
        redact.register_secret(settings.courtlistener_token)  # never in a log line from now on
        redact.register_secret(settings.model_api_key)
        return settings

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

    async def stop_tasks(self, timeout: float = 5.0) -> None:
        """Cancel every background task and wait (up to ``timeout``) until they have unwound, so
        nothing is still using the sources when shutdown closes them."""
        tasks = [t for t in self._tasks if not t.done()]
        for t in tasks:
            t.cancel()
        if tasks:
            await asyncio.wait(tasks, timeout=timeout)

    def report_problem(self, what: str, exc: BaseException) -> None:
        """Full details to stderr and the client's log; at most one popup per kind of failure."""
        detail = "".join(traceback.format_exception(exc))
        log.error("%s failed: %s", what, detail)
        summary = (
            f"citecheck: {what} failed: {exc}"
            if isinstance(exc, CitecheckError)
            else (f"citecheck: {what} failed ({type(exc).__name__}: {exc})")
        )
        self.log_to_client(summary + "\n" + detail, types.MessageType.Error)
        cause = f"{what}:{type(exc).__name__}"
        if cause not in self._shown_errors:
            self._shown_errors.add(cause)
            with contextlib.suppress(Exception):
                self.window_show_message(
                    types.ShowMessageParams(
                        type=types.MessageType.Error,
                        message=redact.redact(f"{summary} — details in the citecheck output/log."),
                    )
                )

    def send_notification_json(self, method: str, params_json: str | list[bytes]) -> None:
        """Send a notification whose params are already JSON (see ``convert.Renderer``).

        pygls would unstructure and re-serialise every diagnostic of a brief on each keystroke;
        this writes the same JSON-RPC frame pygls writes, from pre-rendered parts. ``params_json`` may
        come as encoded pieces (a long brief's diagnostics are megabytes): on stdio they are written
        one after another, not joined into one more copy.
        """
        protocol = self.protocol
        if protocol.writer is None:
            return
        pieces = [params_json.encode()] if isinstance(params_json, str) else params_json
        head = f'{{"jsonrpc":"2.0","method":{json.dumps(method)},"params":'.encode()
        length = len(head) + sum(len(p) for p in pieces) + 1
        header = b""
        if protocol._include_headers:  # pygls <3: set by set_writer for stdio/TCP, not WebSocket
            header = (
                f"Content-Length: {length}\r\nContent-Type: {protocol.CONTENT_TYPE}; "
                f"charset={protocol.CHARSET}\r\n\r\n"
            ).encode()
        writer = protocol.writer
        write_pieces = getattr(writer, "write_pieces", None)  # transport.StdioWriter
        if write_pieces is not None:
            write_pieces([header + head, *pieces, b"}"])
            return
        result = writer.write(b"".join([header, head, *pieces, b"}"]))
        if inspect.isawaitable(result):
            self.spawn(result, what="writing to the client")

    def log_to_client(self, message: str, kind: types.MessageType = types.MessageType.Info) -> None:
        with contextlib.suppress(Exception):
            self.window_log_message(types.LogMessageParams(type=kind, message=redact.redact(message)))

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
