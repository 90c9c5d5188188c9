"""``textDocument/diagnostic``: pull diagnostics, answered from the same store push uses."""

from __future__ import annotations

from typing import TYPE_CHECKING

from lsprotocol import types

if TYPE_CHECKING:
    from citecheck.lsp.server import CiteServer

METHOD = types.TEXT_DOCUMENT_DIAGNOSTIC
OPTIONS = types.DiagnosticOptions(
    identifier="citecheck", inter_file_dependencies=False, workspace_diagnostics=False
)


async def handle(ls: CiteServer, params: types.DocumentDiagnosticParams) -> types.DocumentDiagnosticReport:
    empty = types.RelatedFullDocumentDiagnosticReport(items=[])
    run = ls.guarded("diagnostics", ls.diagnostics.pull, empty)
    result: types.DocumentDiagnosticReport = await run(params.text_document.uri, params.previous_result_id)
    return result
