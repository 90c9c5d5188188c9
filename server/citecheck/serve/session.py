"""One open Word document on the server: its paragraph layout and the incremental ``Document``.

The pane sends every paragraph on every check (a 100-page brief is a few hundred kilobytes over
loopback); the session turns the difference from the previous check into one edit, so only the
paragraphs that changed are extracted again (``extract.Document`` keeps the rest).
"""

from __future__ import annotations

import asyncio
import re
from collections import OrderedDict
from collections.abc import Sequence
from typing import Any

from citecheck.errors import InputError
from citecheck.extract.incremental.document import Document
from citecheck.extract.models import Extraction
from citecheck.serve.paragraphs import Layout

_DOC_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")


def check_document_id(value: object) -> str:
    """The pane's id for its document: a short token, never used to build a path."""
    if not isinstance(value, str) or not _DOC_ID.fullmatch(value):
        raise InputError("'document' must be 1 to 64 letters, digits, '-' or '_'")
    return value


class Session:
    """Layout + incremental extraction of one document; ``lock`` serialises its checks."""

    __slots__ = ("document", "last", "layout", "lock")

    def __init__(self) -> None:
        self.layout = Layout(())
        self.document = Document("")
        self.lock = asyncio.Lock()
        self.last: Any = None  # the last (layout, report, checked findings) answered, for the export

    def update(self, paragraphs: Sequence[str]) -> tuple[Layout, Extraction, int]:
        """Bring the extraction up to ``paragraphs``; returns the layout, the extraction and how
        many characters of new text the edit carried (0 when nothing changed)."""
        new = Layout(paragraphs)
        edit = self.layout.edit_to(new)
        if edit is not None:
            self.document.apply_edits([edit])
        self.layout = new
        return new, self.document.extraction, 0 if edit is None else max(len(edit.new_text), 1)


class Sessions:
    """The few documents open in Word at once, least recently used dropped first."""

    def __init__(self, limit: int = 8) -> None:
        self.limit = limit
        self._open: OrderedDict[str, Session] = OrderedDict()

    def get(self, doc_id: str) -> Session:
        session = self._open.pop(doc_id, None) or Session()
        self._open[doc_id] = session
        while len(self._open) > self.limit:
            self._open.popitem(last=False)
        return session

    def find(self, doc_id: str) -> Session | None:
        return self._open.get(doc_id)
