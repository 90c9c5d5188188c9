"""``workspace/executeCommand``: check now, show the report, clear the cache, ignore (from actions)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import unquote, urlparse

from citecheck.ignores import IgnoreKey, key_for
from citecheck.report import FORMATS, BatchResult, file_result
from citecheck.visible import visible_keyed

if TYPE_CHECKING:
    from citecheck.lsp.server import CiteServer

CHECK_DOCUMENT = "citecheck.checkDocument"
SHOW_REPORT = "citecheck.showReport"
CLEAR_CACHE = "citecheck.clearCache"
IGNORE = "citecheck.ignore"


class CommandError(ValueError):
    """Bad command arguments; reported to the client as invalid params, never a crash."""


def _arg(args: tuple[Any, ...], name: str, default: Any = None) -> Any:
    """Arguments may be ``[{"uri": ...}]`` or positional ``["file:///x"]``."""
    if args and isinstance(args[0], dict):
        return args[0].get(name, default)
    if name == "uri" and args and isinstance(args[0], str):
        return args[0]
    if name == "format" and len(args) > 1 and isinstance(args[1], str):
        return args[1]
    return default


def _state(server: CiteServer, args: tuple[Any, ...]) -> Any:
    uri = _arg(args, "uri")
    if not isinstance(uri, str) or uri not in server.docs:
        raise CommandError(f'no open document {uri!r}; pass [{{"uri": "file:///…"}}]')
    return server.docs[uri]


async def check_document(server: CiteServer, *args: Any) -> dict[str, Any]:
    state = _state(server, args)
    report = await server.diagnostics.check_now(state)
    findings = [s.finding for s in state.shown]
    return {
        "uri": state.uri,
        "version": state.version,
        "checked": report is not None,
        "citations": len(state.extraction.citations) if state.extraction else 0,
        "findings": [
            {"kind": str(f.kind), "severity": str(f.severity), "message": f.message} for f in findings
        ],
    }


async def show_report(server: CiteServer, *args: Any) -> dict[str, Any]:
    """Returns ``{"format", "content"}``; markdown (default), html or json via citecheck.report."""
    state = _state(server, args)
    fmt = str(_arg(args, "format", "markdown")).lower()
    report = state.report if state.report_version == state.version else None
    if report is None or not report.complete:
        report = await server.diagnostics.check_now(state)
    if report is None:
        raise CommandError("the document changed while it was being checked; try again")
    if fmt not in FORMATS:
        raise CommandError(f"unknown report format {fmt!r}; one of {', '.join(sorted(FORMATS))}")
    # what the editor shows is what the report shows: the user's dismissals apply here too
    ex, text = report.extraction, report.text
    kept = visible_keyed(report.findings, server.settings, server.ignores, lambda f: key_for(f, ex, text))
    report = report.with_findings(f for f, _ in kept)
    name = Path(unquote(urlparse(state.uri).path)).name or state.uri
    batch = BatchResult(files=(file_result(name, "text", state.text, report),))
    return {"format": fmt, "content": FORMATS[fmt](batch)}


async def clear_cache(server: CiteServer, *args: Any) -> dict[str, Any]:
    chain = await server.sources.get(server.settings)
    cleared = await chain.clear_cache()
    if cleared:
        server.diagnostics.refresh_all()
    return {"cleared": cleared}


def ignore(server: CiteServer, *args: Any) -> dict[str, Any]:
    key = IgnoreKey.from_json(_arg(args, "key"))
    scope = _arg(args, "scope", "finding")
    if key is None or scope not in ("finding", "citation"):
        raise CommandError(
            'citecheck.ignore needs {"key": {kind, citation, quoteHash}, "scope": finding|citation}'
        )
    if (problem := key.request_problem()) is not None:
        raise CommandError(f"citecheck.ignore: {problem}")
    server.ignores.add(key if scope == "finding" else key.whole_citation)
    server.diagnostics.republish_all()
    return {
        "ignored": key.to_json(),
        "scope": scope,
        "file": str(server.ignores.path) if server.ignores.path else None,
    }


#: Every ``workspace/executeCommand`` command, registered by ``wiring.py``.
COMMANDS = {
    CHECK_DOCUMENT: check_document,
    SHOW_REPORT: show_report,
    CLEAR_CACHE: clear_cache,
    IGNORE: ignore,
}
