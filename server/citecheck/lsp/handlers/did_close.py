"""``textDocument/didClose``: stop checking the document and clear its diagnostics."""

from __future__ import annotations

from typing import TYPE_CHECKING

from lsprotocol import types

if TYPE_CHECKING:
    from citecheck.lsp.server import CiteServer

METHOD = types.TEXT_DOCUMENT_DID_CLOSE
OPTIONS = None


def handle(ls: CiteServer, params: types.DidCloseTextDocumentParams) -> None:
    ls.guarded("close", ls.diagnostics.closed)(params.text_document.uri)
