"""Code actions: apply a finding's fix, ignore the finding, ignore the citation in the workspace.

The fix comes from the diagnostic's ``data`` when the client echoed it for the current version;
otherwise (Emacs has no ``dataSupport``, or the text moved on) it is recomputed from the findings
the server holds for the current version.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from lsprotocol import types

from citecheck.lsp.convert import SOURCE, fix_actions, fixes_json, ignore_actions
from citecheck.lsp.ignore import IgnoreKey
from citecheck.lsp.positions import span_to_range

if TYPE_CHECKING:
    from citecheck.lsp.server import CiteServer


def code_actions(server: CiteServer, params: types.CodeActionParams) -> list[types.CodeAction]:
    uri = params.text_document.uri
    state = server.docs.get(uri)
    doc = server.open_document(uri)
    if state is None or doc is None:
        return []
    out: list[types.CodeAction] = []
    for d in params.context.diagnostics:
        if d.source != SOURCE:
            continue
        fixes, key = _from_data(d.data, state.version)
        if fixes is None or key is None:
            fixes, key = _recompute(server, state, doc, d)
        if key is None:
            continue
        out.extend(fix_actions(uri, d, fixes or []))
        out.extend(ignore_actions(uri, d, key))
    return out


def _from_data(data: Any, version: int) -> tuple[list[dict[str, Any]] | None, IgnoreKey | None]:
    if not isinstance(data, dict) or data.get("version") != version:
        return None, None
    fixes = data.get("fixes")
    key = IgnoreKey.from_json(data.get("key"))
    return (fixes if isinstance(fixes, list) else None), key


def _recompute(server: CiteServer, state: Any, doc: Any, d: types.Diagnostic) -> tuple[list[dict[str, Any]], IgnoreKey | None]:
    if state.shown_version != state.version:
        return [], None
    index = doc.line_index()
    for f, key in state.shown:
        if str(f.kind) == str(d.code) and span_to_range(index, f.span, doc.encoding) == d.range:
            return fixes_json(f.fixes, index, doc.encoding), key
    return [], None
