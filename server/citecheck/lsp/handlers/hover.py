"""``textDocument/hover``: a citation's status, matched case, page used and compared passage."""

from __future__ import annotations

from typing import TYPE_CHECKING

from lsprotocol import types

from citecheck.lsp.features import hover as feature

if TYPE_CHECKING:
    from citecheck.lsp.server import CiteServer

METHOD = types.TEXT_DOCUMENT_HOVER
OPTIONS = None


def handle(ls: CiteServer, params: types.HoverParams) -> types.Hover | None:
    result: types.Hover | None = ls.guarded("hover", feature.hover)(
        ls, params.text_document.uri, params.position
    )
    return result
