"""``textDocument/codeAction``: apply a finding's fix, or ignore the finding or its citation."""

from __future__ import annotations

from typing import TYPE_CHECKING

from lsprotocol import types

from citecheck.lsp.features import code_actions as feature

if TYPE_CHECKING:
    from citecheck.lsp.server import CiteServer

METHOD = types.TEXT_DOCUMENT_CODE_ACTION
OPTIONS = types.CodeActionOptions(code_action_kinds=[types.CodeActionKind.QuickFix])


def handle(ls: CiteServer, params: types.CodeActionParams) -> list[types.CodeAction]:
    result: list[types.CodeAction] = ls.guarded("code actions", feature.code_actions, [])(ls, params)
    return result
