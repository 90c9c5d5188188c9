"""``textDocument/didOpen``: start tracking the document and check it."""

from __future__ import annotations

from typing import TYPE_CHECKING

from lsprotocol import types

if TYPE_CHECKING:
    from citecheck.lsp.server import CiteServer

METHOD = types.TEXT_DOCUMENT_DID_OPEN
OPTIONS = None


def handle(ls: CiteServer, params: types.DidOpenTextDocumentParams) -> None:
    td = params.text_document
    ls.guarded("open", ls.diagnostics.opened)(td.uri, td.language_id, td.version, td.text)
