"""Code actions: apply a finding's fix, ignore the finding, ignore the citation in the workspace.

The server's own findings for the current version are the truth: a diagnostic the client sends
back is matched to them by kind and range, and its fixes are recomputed from them. Only when it no
longer matches (the client moved it, or the server moved on) is the client's echoed ``data`` used,
and then each fix edit only if the text under it is still the ``oldText`` it was made for. Clients
without ``dataSupport`` (Emacs) are therefore served exactly like the others.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from lsprotocol import types

from citecheck.ignores import IgnoreKey
from citecheck.lsp.convert import SOURCE, fix_actions, fixes_json, ignore_actions, range_from_json

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
        fixes, key = _recompute(state, doc, d)
        if key is None:
            fixes, key = _from_data(doc, d.data)
        if key is None:
            continue
        out.extend(fix_actions(uri, d, fixes))
        out.extend(ignore_actions(uri, d, key))
    return out


def _recompute(state: Any, doc: Any, d: types.Diagnostic) -> tuple[list[dict[str, Any]], IgnoreKey | None]:
    if state.shown_version != state.version or doc.version != state.version:
        return [], None
    for s in state.shown:
        if str(s.finding.kind) == str(d.code) and s.range == d.range:
            return fixes_json(s.finding.fixes, doc.line_index(), doc.encoding), s.key
    return [], None


def _from_data(doc: Any, data: Any) -> tuple[list[dict[str, Any]], IgnoreKey | None]:
    if not isinstance(data, dict):
        return [], None
    key = IgnoreKey.from_json(data.get("key"))
    fixes = []
    for fix in data.get("fixes") or []:
        edits = fix.get("edits") if isinstance(fix, dict) else None
        if edits and all(_still_applies(doc, e) for e in edits):
            fixes.append(fix)
    return fixes, key


def _still_applies(doc: Any, edit: Any) -> bool:
    if not isinstance(edit, dict) or not isinstance(edit.get("oldText"), str):
        return False
    rng = range_from_json(edit.get("range"))
    if rng is None:
        return False
    index = doc.line_index()
    start, end = index.offset_at(rng.start, doc.encoding), index.offset_at(rng.end, doc.encoding)
    return doc.source[start:end] == edit["oldText"]
