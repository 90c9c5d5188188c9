"""LSP-correct document storage: a pygls ``TextDocument``/``Workspace`` that splits lines only at
``\\n``, ``\\r\\n`` and ``\\r`` and records every applied edit as code-point offsets.

pygls 2.1 splits lines with ``str.splitlines``, which also breaks on ``\\v`` (Word's manual line
break), ``\\f``, ``\\u2028``…; incremental edits after such a character then land on the wrong
line and the server's copy of the draft silently diverges from the editor's.  This module must
not know about citations: it only keeps the text right and tells the caller what changed, so the
extraction ``Document`` can be updated incrementally with the very same offsets.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from urllib.parse import unquote

from lsprotocol import types
from pygls.workspace import TextDocument, Workspace

from citecheck.lsp.positions import LineIndex, range_to_span

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True, kw_only=True)
class AppliedEdit:
    """``text[start:end]`` (code points, in the text as it was before this edit) became ``new_text``."""

    start: int
    end: int
    new_text: str


class LspTextDocument(TextDocument):
    """A ``TextDocument`` whose line model is LSP's, with a cached line index per version."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self._index: LineIndex | None = None
        self._edits: list[AppliedEdit] = []

    @property
    def encoding(self) -> str:
        return str(self.position_codec.encoding or "utf-16")

    def line_index(self) -> LineIndex:
        source = self.source
        if self._index is None or self._index.text is not source:
            self._index = LineIndex(source)
        return self._index

    @property
    def lines(self) -> tuple[str, ...]:
        return self.line_index().lines()

    def _apply_incremental_change(self, change: types.TextDocumentContentChangePartial) -> None:
        span = range_to_span(self.line_index(), change.range, self.encoding)
        source = self.source
        self._source = source[: span.start] + change.text + source[span.end :]
        self._edits.append(AppliedEdit(start=span.start, end=span.end, new_text=change.text))

    def _apply_full_change(self, change: types.TextDocumentContentChangeEvent) -> None:
        old_len = len(self.source)
        self._source = change.text
        self._edits.append(AppliedEdit(start=0, end=old_len, new_text=change.text))

    def take_edits(self) -> list[AppliedEdit]:
        """The edits applied since the last call, in order; clears the record."""
        edits, self._edits = self._edits, []
        return edits

    # Route pygls' own conversions through the LSP-correct index as well.
    def offset_at_position(self, client_position: types.Position) -> int:
        return self.line_index().offset_at(client_position, self.encoding)

    def client_position_at_offset(self, offset: int) -> types.Position:
        return self.line_index().position_at(offset, self.encoding)


class LspWorkspace(Workspace):
    """Creates ``LspTextDocument``s and tolerates changes for documents that were never opened."""

    @classmethod
    def replacing(cls, workspace: Workspace) -> LspWorkspace:
        """A copy of pygls' freshly built workspace (root, folders, negotiated encoding)."""
        return cls(
            workspace.root_uri,
            workspace._sync_kind,  # pygls <3 has no public accessor; pinned in pyproject
            list(workspace.folders.values()),
            workspace.position_encoding,
        )

    def _create_text_document(
        self,
        doc_uri: str,
        source: str | None = None,
        version: int | None = None,
        language_id: str | None = None,
    ) -> LspTextDocument:
        return LspTextDocument(
            doc_uri,
            source=source,
            version=version,
            language_id=language_id,
            sync_kind=self._sync_kind,
            position_codec=self.position_codec,
        )

    def update_text_document(
        self,
        text_doc: types.VersionedTextDocumentIdentifier,
        change: types.TextDocumentContentChangeEvent,
    ) -> None:
        if unquote(text_doc.uri) not in self.text_documents:
            log.warning("didChange for a document that is not open: %s (ignored)", text_doc.uri)
            return
        super().update_text_document(text_doc, change)

    def open_document(self, uri: str) -> LspTextDocument | None:
        """The open document for ``uri``, or None (never a disk-backed stand-in)."""
        doc = self.text_documents.get(unquote(uri))
        return doc if isinstance(doc, LspTextDocument) else None
