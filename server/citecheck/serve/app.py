"""The Starlette application of ``citecheck serve``: the pane's files and ``/api/v1/*``.

Routes (all behind ``security.Guard``):

- ``GET /taskpane.html``: the pane, with this install's token in a ``<meta>`` tag (only a page of this
  origin can read it); ``GET /manifest.xml``: the add-in manifest for this port; other static files.
- ``GET /api/v1/health``: version and sources, for the pane's "is the backend running" check.
- ``POST /api/v1/check``: ``{"document", "paragraphs": [{"text", "part"}]}`` → the JSON report with
  Word positions (``wire.check_answer``).
- ``POST /api/v1/ignore``: ``{"key": {kind, citation, quoteHash}, "scope": "finding"|"citation"}``,
  the same ignore store (``.citecheck/ignore.json`` under ``--root``) as the language server.
- ``POST /api/v1/report``: ``{"document"}`` → the HTML report of that document's last check.
"""

from __future__ import annotations

import contextlib
import json
import logging
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from citecheck import __version__
from citecheck.config import Settings
from citecheck.errors import CitecheckError, InputError
from citecheck.ignores import IgnoreKey
from citecheck.ignores.file import IgnoreStore
from citecheck.serve.security import Guard, Policy
from citecheck.serve.session import Sessions, check_document_id

log = logging.getLogger(__name__)

STATIC_DIR = Path(__file__).parent / "static"
TOKEN_PLACEHOLDER = "__CITECHECK_TOKEN__"
MANIFEST_BASE = "https://localhost:8765"


@dataclass(kw_only=True)
class ServeConfig:
    settings: Settings
    policy: Policy
    root: Path | None = None  # the folder whose .citecheck/ignore.json is shared with the editors
    static_dir: Path = STATIC_DIR
    sources: str = ""
    use_source: bool = True  # False: every lookup is cannot-verify (tests, --no-sources)
    state: dict[str, Any] = field(default_factory=dict)


def manifest_xml(static_dir: Path, port: int) -> str:
    """The add-in manifest with this server's address (the committed one says port 8765)."""
    return (
        (static_dir / "manifest.xml")
        .read_text(encoding="utf-8")
        .replace(MANIFEST_BASE, f"https://localhost:{port}")
    )


def create_app(config: ServeConfig) -> Guard:
    sessions = Sessions()
    ignores = IgnoreStore.for_root(config.root)
    state: dict[str, Any] = {"source": None}
    settings = config.settings

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        async with contextlib.AsyncExitStack() as stack:
            if config.use_source:
                from citecheck.sources.chain import open_source

                # a long-lived server like the language server: no run deadline, a short wait per call
                state["source"] = await stack.enter_async_context(open_source(settings, interactive=True))
            yield

    async def taskpane(request: Request) -> Response:
        html = (config.static_dir / "taskpane.html").read_text(encoding="utf-8")
        return HTMLResponse(
            html.replace(TOKEN_PLACEHOLDER, config.policy.token), headers={"cache-control": "no-store"}
        )

    async def manifest(request: Request) -> Response:
        return Response(manifest_xml(config.static_dir, config.policy.port), media_type="application/xml")

    async def health(request: Request) -> Response:
        return JSONResponse(
            {
                "ok": True,
                "version": __version__,
                "sources": config.sources,
                "offline": settings.offline,
                "ignore_file": str(ignores.path) if ignores.path else None,
            }
        )

    async def check(request: Request) -> Response:
        from citecheck.pipeline import check_document
        from citecheck.serve.wire import check_answer, parse_paragraphs

        body = await _json_body(request)
        doc_id = check_document_id(body.get("document"))
        texts, parts = parse_paragraphs(body, settings.max_document_chars)
        session = sessions.get(doc_id)
        async with session.lock:
            started = time.perf_counter()
            layout, extraction, changed = session.update(texts)
            report = await check_document(layout.text, state["source"], settings, extraction=extraction)
            ignores.load()  # an editor may have added to it since
            answer = check_answer(
                doc_id=doc_id,
                layout=layout,
                parts=parts,
                report=report,
                settings=settings,
                ignores=ignores.keys,
                sources=config.sources,
                offline=settings.offline,
                elapsed_ms=(time.perf_counter() - started) * 1000,
                changed=changed,
            )
            session.last = (layout, parts, report)
        return JSONResponse(answer, headers={"cache-control": "no-store"})

    async def ignore(request: Request) -> Response:
        body = await _json_body(request)
        key = IgnoreKey.from_json(body.get("key"))
        scope = body.get("scope", "finding")
        if key is None or scope not in ("finding", "citation"):
            raise InputError(
                'ignore needs {"key": {kind, citation, quoteHash}, "scope": "finding" or "citation"}'
            )
        if (problem := key.request_problem()) is not None:
            raise InputError(f"ignore: {problem}")
        ignores.load()
        ignores.add(key if scope == "finding" else key.whole_citation)  # InputError when it cannot be written
        return JSONResponse(
            {"ignored": key.to_json(), "scope": scope, "file": str(ignores.path) if ignores.path else None}
        )

    async def report(request: Request) -> Response:
        from citecheck.report.html import render_html
        from citecheck.serve.wire import batch_of, visible_findings

        body = await _json_body(request)
        session = sessions.find(check_document_id(body.get("document")))
        if session is None or session.last is None:
            raise InputError("check the document first")
        layout, _parts, rep = session.last
        ignores.load()
        shown, _keys, _hidden = visible_findings(rep, layout, settings, ignores.keys)
        html = render_html(batch_of(layout, shown, config.sources, settings.offline))
        headers = {
            "cache-control": "no-store",
            "content-disposition": 'attachment; filename="citecheck-report.html"',
        }
        saved = _save_report(config.root, html)
        if saved is not None:
            headers["x-citecheck-saved"] = str(saved)
        return HTMLResponse(html, headers=headers)

    routes = [
        Route("/", lambda r: RedirectResponse("/taskpane.html")),
        Route("/taskpane.html", taskpane),
        Route("/manifest.xml", manifest),
        Route("/api/v1/health", _guarded(health), methods=["GET"]),
        Route("/api/v1/check", _guarded(check), methods=["POST"]),
        Route("/api/v1/ignore", _guarded(ignore), methods=["POST"]),
        Route("/api/v1/report", _guarded(report), methods=["POST"]),
        Mount("/", StaticFiles(directory=config.static_dir, check_dir=False)),
    ]
    app = Starlette(routes=routes, lifespan=lifespan)
    config.state = state
    return Guard(app, config.policy)


def _save_report(root: Path | None, html: str) -> Path | None:
    """Also keep the exported report under ``--root``: Word's desktop web views may block the pane's
    download, and the file is then still there. The name is ours (a timestamp), never the request's."""
    if root is None:
        return None
    folder = root / ".citecheck" / "reports"
    path = folder / time.strftime("word-report-%Y%m%d-%H%M%S.html")
    from citecheck.cli.app import write_atomically

    try:
        # before anything is made: a .citecheck or reports link out of --root is never followed
        if root.resolve() not in folder.resolve().parents:
            log.warning("did not save the report: %s leads outside %s (a link?)", folder, root)
            return None
        folder.mkdir(parents=True, exist_ok=True)
        write_atomically(path, lambda stream: stream.write(html))  # a full disk leaves no half report
    except OSError as exc:
        log.warning("could not save the report to %s: %s", path, exc)
        return None
    return path


def _guarded(handler: Any) -> Any:
    """Bad input → 400 with the message; anything unexpected → 500 with one line, logged (never a traceback)."""

    async def run(request: Request) -> Response:
        try:
            return await handler(request)
        except CitecheckError as exc:
            return JSONResponse({"error": str(exc)}, status_code=400)
        except Exception as exc:
            log.exception("%s failed", request.url.path)
            return JSONResponse({"error": f"internal error: {type(exc).__name__}: {exc}"}, status_code=500)

    return run


async def _json_body(request: Request) -> dict[str, Any]:
    try:
        body = json.loads(await request.body())
    except (ValueError, UnicodeDecodeError) as exc:
        raise InputError(f"the request is not valid JSON ({exc})") from exc
    except RecursionError as exc:  # [[[[…]]]] 50,000 deep: the parser's recursion limit, not our fault
        raise InputError("the request is not valid JSON (nested too deeply)") from exc
    if not isinstance(body, dict):
        raise InputError("the request must be a JSON object")
    return body
