"""``extract_citations`` and the incremental ``Document``.

Both go through the same path: split into paragraphs, extract each paragraph (cached by its text),
assemble. A ``Document`` differs only in keeping its paragraph cache between edits, so after any
sequence of edits its extraction is, by construction, the extraction of its current text.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from citecheck.errors import InputError
from citecheck.extract.assemble import Run, assemble, assemble_incremental
from citecheck.extract.models import Extraction
from citecheck.extract.paragraph import ParagraphResult, extract_paragraph
from citecheck.extract.paragraphs import split_paragraphs


@dataclass(frozen=True, slots=True, kw_only=True)
class Edit:
    """Replace ``[start, end)`` (code points into the CURRENT text) with ``new_text``."""

    start: int
    end: int
    new_text: str


@contextmanager
def _gc_paused() -> Iterator[None]:
    """Hold off the cyclic collector while one extraction runs.

    A keystroke allocates some ten thousand small objects (spans, citations) that all survive into the
    result; with the collector on, they trigger several young-generation passes and, every few
    keystrokes, a full pass over everything alive: most of a keystroke's time. Nothing we build here
    forms reference cycles, so pausing loses nothing; the collector resumes right after, and the
    deferred young pass costs about one millisecond.
    """
    enabled = gc.isenabled()
    if enabled:
        gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def _check_text(text: object) -> str:
    if not isinstance(text, str):
        raise InputError(f"document text must be a string, not {type(text).__name__}")
    return text


def extract_citations(text: str) -> Extraction:
    """Every citation in ``text``, spans as code-point offsets into ``text``."""
    text = _check_text(text)
    with _gc_paused():
        paragraphs = split_paragraphs(text)
        results = [extract_paragraph(text[s:e]) for s, e in paragraphs]
        return assemble(text, paragraphs, results)


class Document:
    """A document being edited: keeps per-paragraph results and re-extracts only changed paragraphs."""

    __slots__ = ("_cache", "_extraction", "_run_state", "_text")

    def __init__(self, text: str = "") -> None:
        self._text = _check_text(text)
        self._cache: dict[str, ParagraphResult] = {}
        self._run_state: Run | None = None
        self._extraction = self._run()

    @property
    def text(self) -> str:
        return self._text

    @property
    def extraction(self) -> Extraction:
        return self._extraction

    def set_text(self, text: str) -> Extraction:
        """Replace the whole text (LSP full sync); unchanged paragraphs are still reused."""
        self._text = _check_text(text)
        self._extraction = self._run()
        return self._extraction

    def apply_edits(self, edits: list[Edit] | tuple[Edit, ...]) -> Extraction:
        """Apply ``edits`` in order (each against the text left by the previous one), then re-extract."""
        text = self._text
        for e in edits:
            if not isinstance(e, Edit):
                raise InputError(f"expected an Edit, got {type(e).__name__}")
            if not (0 <= e.start <= e.end <= len(text)):
                raise InputError(
                    f"edit range {e.start}..{e.end} is outside the document (length {len(text)})"
                )
            text = text[: e.start] + _check_text(e.new_text) + text[e.end :]
        self._text = text
        self._extraction = self._run()
        return self._extraction

    def _run(self) -> Extraction:
        with _gc_paused():
            return self._run_paused()

    def _run_paused(self) -> Extraction:
        text = self._text
        paragraphs = split_paragraphs(text)
        old = self._cache
        new: dict[str, ParagraphResult] = {}
        results = []
        for s, e in paragraphs:
            key = text[s:e]
            res = new.get(key) or old.get(key)
            if res is None:
                # not the process-wide LRU: a keystroke's intermediate paragraph versions would only
                # crowd it (and the collector's long-lived generation); this document keeps its own
                res = extract_paragraph.__wrapped__(key)
            new[key] = res
            results.append(res)
        self._cache = new
        prior, self._run_state = self._run_state, None  # consumed; dropped if assembling fails
        extraction, self._run_state = assemble_incremental(text, paragraphs, results, prior)
        return extraction
