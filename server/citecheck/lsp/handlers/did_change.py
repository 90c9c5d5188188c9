"""``textDocument/didChange``: the edits pygls applied (see ``lsp/text.py``), handed to diagnostics."""

from __future__ import annotations

from typing import TYPE_CHECKING

from lsprotocol import types

if TYPE_CHECKING:
    from citecheck.lsp.server import CiteServer

METHOD = types.TEXT_DOCUMENT_DID_CHANGE
OPTIONS = None


def handle(ls: CiteServer, params: types.DidChangeTextDocumentParams) -> None:
    doc = ls.open_document(params.text_document.uri)
    if doc is None:
        return
    edits = doc.take_edits()
    ls.guarded("change", ls.diagnostics.changed)(doc.uri, params.text_document.version, doc.source, edits)
