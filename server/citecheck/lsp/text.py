"""LSP-correct document storage: a pygls ``TextDocument``/``Workspace`` that splits lines only at
``\\n``, ``\\r\\n`` and ``\\r`` and records every applied edit as code-point offsets.

pygls 2.1 splits lines with ``str.splitlines``, which also breaks on ``\\v`` (Word's manual line
break), ``\\f``, ``\\u2028``…; incremental edits after such a character then land on the wrong
line and the server's copy of the draft silently diverges from the editor's.  This module must
not know about citations: it only keeps the text right and tells the caller what changed, so the
extraction ``Document`` can be updated incrementally with the very same offsets.
"""

from __future__ import annotations

import itertools
import logging
from dataclasses import dataclass
from urllib.parse import unquote

from lsprotocol import types
from pygls.workspace import TextDocument, Workspace

from citecheck.lsp.positions import _EOL, LineIndex, client_units, range_to_span

log = logging.getLogger(__name__)

#: More edits than this in one didChange are recorded as the single edit they amount to.
COALESCE_AFTER = 64


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
        self._pending: list[types.TextDocumentContentChangePartial] = []

    @property  # type: ignore[override]
    def source(self) -> str:
        """The text with every received change applied (a batch is applied in one pass)."""
        if self._pending:
            self._flush()
        return super().source

    @source.setter
    def source(self, value: str) -> None:
        self._pending.clear()
        self._source = value

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
        # Kept until the text is next read: a Replace All sends 20,000 changes in one didChange,
        # and applying them one by one rebuilds the text and its line index 20,000 times.
        self._pending.append(change)

    def _apply_one(self, change: types.TextDocumentContentChangePartial) -> None:
        span = range_to_span(self.line_index(), change.range, self.encoding)
        source = self.source
        self._source = source[: span.start] + change.text + source[span.end :]
        self._edits.append(AppliedEdit(start=span.start, end=span.end, new_text=change.text))

    def _flush(self) -> None:
        changes, self._pending = self._pending, []
        base = self._source or ""
        index = self._index if self._index is not None and self._index.text is base else LineIndex(base)
        batch = batch_edits(index, changes, self.encoding)
        if batch is None:  # an order or a CR/LF junction the one-pass path does not handle
            for change in changes:
                self._apply_one(change)
            return
        applied, in_original = batch
        parts: list[str] = []
        at = 0
        for start, end, text in in_original:  # in text order, ties already in the order they apply
            parts += (base[at:start], text)
            at = end
        parts.append(base[at:])
        self._source = new = "".join(parts)
        if len(in_original) == 1:  # a keystroke: move the line starts instead of scanning the text again
            start, end, text = in_original[0]
            self._index = LineIndex.after_edit(index, start, end, text, new)
        if len(applied) <= COALESCE_AFTER:
            self._edits.extend(applied)
            return
        # Downstream (moving findings, re-extracting paragraphs) is linear in the edit count per
        # finding: thousands of edits become the one edit they amount to, over the region they span.
        a = min(e[0] for e in in_original)
        b = max(e[1] for e in in_original)
        grown = sum(len(t) - (end - start) for start, end, t in in_original)
        self._edits.append(AppliedEdit(start=a, end=b, new_text=new[a : b + grown]))

    def _apply_full_change(self, change: types.TextDocumentContentChangeEvent) -> None:
        old_len = len(self.source)
        self._source = change.text
        self._edits.append(AppliedEdit(start=0, end=old_len, new_text=change.text))

    def take_edits(self) -> list[AppliedEdit]:
        """The edits applied since the last call, in order; clears the record."""
        if self._pending:
            self._flush()
        edits, self._edits = self._edits, []
        return edits

    # Route pygls' own conversions through the LSP-correct index as well.
    def offset_at_position(self, client_position: types.Position) -> int:
        return self.line_index().offset_at(client_position, self.encoding)

    def client_position_at_offset(self, offset: int) -> types.Position:
        return self.line_index().position_at(offset, self.encoding)


def _end_after(start: types.Position, text: str, encoding: str) -> tuple[int, int]:
    """Where ``text`` inserted at ``start`` ends, as (line, character in client units)."""
    if "\n" not in text and "\r" not in text:  # the common case (a word replaced): no regex
        return start.line, start.character + client_units(text, encoding)
    breaks = list(_EOL.finditer(text))
    if not breaks:
        return start.line, start.character + client_units(text, encoding)
    return start.line + len(breaks), client_units(text[breaks[-1].end() :], encoding)


def _to_original(
    p: tuple[int, int], end_cur: tuple[int, int], end_orig: tuple[int, int], line_delta: int
) -> tuple[int, int]:
    """A position after the previous change (current text) → the same place in the original text."""
    if p[0] == end_cur[0]:
        return end_orig[0], end_orig[1] + (p[1] - end_cur[1])
    return p[0] - line_delta, p[1]


def _exact(index: LineIndex, pos: tuple[int, int], offset: int, encoding: str) -> bool:
    """Whether ``offset`` is exactly ``pos`` (not clamped to its line's end, not rounded down)."""
    if not 0 <= pos[0] < index.line_count:
        return False
    line_start = index.starts[pos[0]]
    if offset - line_start == pos[1]:  # ASCII, UTF-32, or no wide character before it: the usual case
        return True
    return client_units(index.text[line_start:offset], encoding) == pos[1]


def batch_edits(
    index: LineIndex, changes: list[types.TextDocumentContentChangePartial], encoding: str
) -> tuple[list[AppliedEdit], list[tuple[int, int, str]]] | None:
    """The changes as offsets into the ORIGINAL text, in text order (for a one-pass rebuild; changes at
    the same place in the order their texts end up), and as the sequential ``AppliedEdit`` record, or
    None when they cannot be mapped without re-indexing.

    Handled: every change before the previous one (VS Code's Replace All, last to first), or every
    change after the previous one's end (first to last). Not handled (None → one by one): other
    orders, ranges outside the text, and changes that could join a ``\r`` and a ``\n`` into one
    line break (the line count would no longer be the sum of the parts).
    """
    batch = _Batch(index, encoding)
    for ch in changes:
        if not batch.add(ch):
            return None
    if _joins_touching(index.text, batch.original):
        return None
    if batch.order == "desc":
        # text order for the one-pass rebuild: two insertions at one place were made last-first
        batch.original.reverse()
    return batch.applied, batch.original


class _Batch:
    """``batch_edits`` one change at a time: the changes so far in original offsets and as applied, the order
    they come in, and where the last one left the coordinates."""

    __slots__ = (
        "applied",
        "char_delta",
        "encoding",
        "index",
        "line_delta",
        "order",
        "original",
        "prev_end_cur",
        "prev_end_orig",
        "prev_start",
    )

    def __init__(self, index: LineIndex, encoding: str) -> None:
        self.index, self.encoding = index, encoding
        self.original: list[tuple[int, int, str]] = []
        self.applied: list[AppliedEdit] = []
        self.order: str | None = None  # "desc" (each change before the last) or "asc" (after its end)
        self.prev_start: tuple[int, int] | None = None  # previous change's start, current coordinates
        self.prev_end_cur: tuple[int, int] | None = None  # end of its inserted text, current coordinates
        self.prev_end_orig: tuple[int, int] | None = None  # end of its range, original coordinates
        self.line_delta = self.char_delta = 0

    def add(self, ch: types.TextDocumentContentChangePartial) -> bool:
        """Take the next change; False when the batch cannot be mapped without re-indexing."""
        s, e = ch.range.start, ch.range.end
        start, end = (s.line, s.character), (e.line, e.character)
        if start > end or s.line < 0 or s.character < 0:
            return False
        placed = self._in_original(start, end)
        if placed is None:
            return False
        o_start, o_end = placed
        offsets = self._offsets(o_start, o_end)
        if offsets is None or self._out_of_order(*offsets) or _joins_crlf(self.index.text, *offsets, ch.text):
            return False
        a, b = offsets
        self.original.append((a, b, ch.text))
        shift = self.char_delta if self.order == "asc" else 0
        self.applied.append(AppliedEdit(start=a + shift, end=b + shift, new_text=ch.text))
        self.char_delta += len(ch.text) - (b - a)
        new_end = _end_after(s, ch.text, self.encoding)
        self.line_delta += (new_end[0] - s.line) - (o_end[0] - o_start[0])
        self.prev_start, self.prev_end_cur, self.prev_end_orig = start, new_end, o_end
        return True

    def _in_original(
        self, start: tuple[int, int], end: tuple[int, int]
    ) -> tuple[tuple[int, int], tuple[int, int]] | None:
        """The change's range in the original text's coordinates, when it comes in an order we map: before
        the previous change (as they were), or after its end (moved back through the changes so far)."""
        if self.prev_start is None or (self.order in (None, "desc") and end <= self.prev_start):
            self.order = self.order or ("desc" if self.prev_start is not None else None)
            return start, end
        if self.order in (None, "asc") and self.prev_end_cur is not None and start >= self.prev_end_cur:
            self.order = "asc"
            assert self.prev_end_orig is not None
            back = (self.prev_end_cur, self.prev_end_orig, self.line_delta)
            return _to_original(start, *back), _to_original(end, *back)
        return None

    def _offsets(self, o_start: tuple[int, int], o_end: tuple[int, int]) -> tuple[int, int] | None:
        """Code-point offsets of the range, when both ends are exact: not clamped past a line's end nor
        inside a character (the next change's coordinates could not be mapped through this one)."""
        index, encoding = self.index, self.encoding
        if o_end[0] >= index.line_count:
            return None
        a = index.offset_of(o_start[0], o_start[1], encoding)
        b = index.offset_of(o_end[0], o_end[1], encoding)
        if not (_exact(index, o_start, a, encoding) and _exact(index, o_end, b, encoding)):
            return None
        return a, b

    def _out_of_order(self, a: int, b: int) -> bool:
        """The offsets break the order the coordinates came in (overlapping an earlier change)."""
        if not self.original:
            return False
        if self.order == "asc":
            return a < self.original[-1][1]
        return self.order == "desc" and b > self.original[-1][0]


def _joins_crlf(text: str, a: int, b: int, new: str) -> bool:
    r"""Replacing ``text[a:b]`` with ``new`` would put a ``\r`` and a ``\n`` side by side (one line break).

    >>> _joins_crlf("x\r\ny", 2, 2, "z"), _joins_crlf("x\ry", 1, 1, "\n"), _joins_crlf("x\r", 2, 2, "\n")
    (False, False, True)
    """
    before = text[a - 1] if a > 0 else ""
    after = text[b] if b < len(text) else ""
    first = new[:1] or after
    last = new[-1:] or before
    return (before == "\r" and first == "\n") or (last == "\r" and after == "\n")


def _joins_touching(text: str, original: list[tuple[int, int, str]]) -> bool:
    r"""Two touching changes could join a ``\r`` and a ``\n`` between them (or are two empty ones at a place)."""
    for (a1, b1, t1), (a2, b2, t2) in itertools.pairwise(sorted(original)):
        if b1 == a2:
            left = t1[-1:] or (text[a1 - 1] if a1 > 0 else "")
            right = t2[:1] or (text[b2] if b2 < len(text) else "")
            if (left == "\r" and right == "\n") or (not t1 and not t2):
                return True
    return False


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
