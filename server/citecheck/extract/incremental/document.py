"""``extract_citations`` and the incremental ``Document``.

Both go through the same path: split into paragraphs, extract each paragraph (cached by its text),
assemble. A ``Document`` differs only in keeping its paragraph cache between edits, so after any
sequence of edits its extraction is, by construction, the extraction of its current text.
"""

from __future__ import annotations

import gc
from bisect import bisect_left, bisect_right
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from citecheck.errors import InputError
from citecheck.extract.incremental.assembly import Run, assemble, assemble_incremental
from citecheck.extract.incremental.thresholds import active
from citecheck.extract.incremental.view import DocumentExtraction
from citecheck.extract.models import Extraction
from citecheck.extract.paragraph import ParagraphResult, extract_paragraph
from citecheck.extract.paragraphs import _BLANK, furniture_only, split_paragraphs


@dataclass(frozen=True, slots=True, kw_only=True)
class Edit:
    """Replace ``[start, end)`` (code points into the CURRENT text) with ``new_text``."""

    start: int
    end: int
    new_text: str


def _check_text(text: object) -> str:
    if not isinstance(text, str):
        raise InputError(f"document text must be a string, not {type(text).__name__}")
    return text


def extract_citations(text: str) -> Extraction:
    """Every citation in ``text``, spans as code-point offsets into ``text``."""
    text = _check_text(text)
    with _collector_paused():
        return _extract(text)


def _extract(text: str) -> Extraction:
    """``extract_citations``' work, in a frame of its own: the paragraphs' results (each citation's unmoved
    copy) are freed when it returns, before the collector is turned back on — whose first collection
    walks every object still alive that the extraction made (~30 % more when they were still held)."""
    paragraphs = split_paragraphs(text)
    results = [extract_paragraph(text[s:e]) for s, e in paragraphs]
    return assemble(text, paragraphs, results)


@contextmanager
def _collector_paused() -> Iterator[None]:
    """The cyclic garbage collector off while a document is extracted, as it was before after.

    Extraction makes no reference cycles (a 100,000-word brief extracted with the collector off leaves
    nothing for ``gc.collect()`` to free), so a collection in the middle only walks the citations made so
    far: ~7 % of the CPU of a 100,000-word brief at Python's default thresholds (the CLI raises them,
    ``cli/app.py``; the pool's workers turn it off, ``parallel.py``). Process-wide, as ``gc`` is: another
    thread's cyclic garbage waits until the extraction ends."""
    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


class Document:
    """A document being edited: keeps per-paragraph results and re-extracts only changed paragraphs."""

    __slots__ = ("_extraction", "_paragraphs", "_results", "_run_state", "_text")

    def __init__(self, text: str = "") -> None:
        self._text = _check_text(text)
        self._paragraphs: list[tuple[int, int]] = []
        self._results: list[ParagraphResult] = []
        self._run_state: Run | None = None
        self._extraction = self._run(self._text, [])

    @property
    def text(self) -> str:
        return self._text

    @property
    def extraction(self) -> DocumentExtraction:
        return self._extraction

    def apply_edits(
        self, edits: list[Edit] | tuple[Edit, ...], text: str | None = None
    ) -> DocumentExtraction:
        """Apply ``edits`` in order (each against the text left by the previous one), then re-extract.

        ``text``: the text the edits make, when the caller has it already (the language server keeps
        the editor's). For one edit it is used instead of building the same text again — on a long
        brief a copy of megabytes per keystroke — once its length and the text at the edit, around it
        and at both ends agree; otherwise the edits are applied here as usual."""
        if (
            text is not None
            and len(edits) == 1
            and isinstance(text, str)
            and _made_by(self._text, edits[0], text)
        ):
            self._extraction = self._run(text, list(edits))
            return self._extraction
        text = self._text
        for e in edits:
            if not isinstance(e, Edit):
                raise InputError(f"expected an Edit, got {type(e).__name__}")
            if not (0 <= e.start <= e.end <= len(text)):
                raise InputError(
                    f"edit range {e.start}..{e.end} is outside the document (length {len(text)})"
                )
            text = text[: e.start] + _check_text(e.new_text) + text[e.end :]
        self._extraction = self._run(text, list(edits))
        return self._extraction

    def _run(self, text: str, edits: list[Edit]) -> DocumentExtraction:
        """Re-split around each edit in turn (the keystrokes that arrived while the last run was busy),
        or the whole text when one cannot be done locally, then assemble."""
        prior, self._run_state = self._run_state, None  # consumed; dropped if anything fails
        before = self._text
        edited = _edited(edits) if edits else (0, 0) if text == before else None
        if not edits or len(edits) > active().local_edits:  # each local re-split copies the text
            self._text = text
            self._resplit_all(before)
        else:
            for e in edits:
                self._text = text if len(edits) == 1 else before[: e.start] + e.new_text + before[e.end :]
                if not self._resplit_around(before, e):
                    self._text = text
                    self._resplit_all(before)
                    break
                before = self._text
        extraction, self._run_state = assemble_incremental(
            self._text, self._paragraphs, self._results, prior, edited
        )
        return extraction

    def _resplit_all(self, old_text: str) -> None:
        """Split the current text afresh, reusing the results of paragraphs of ``old_text`` (the text
        ``self._paragraphs`` index) whose text is unchanged."""
        text = self._text
        old = {old_text[s:e]: r for (s, e), r in zip(self._paragraphs, self._results, strict=True)}
        self._paragraphs = split_paragraphs(text)
        self._results = [_result(text[s:e], old) for s, e in self._paragraphs]

    def _resplit_around(self, old_text: str, edit: Edit) -> bool:
        """Re-split only the paragraphs around one edit; ``False`` when that is not provably the same
        as splitting the whole text (then the caller does that)."""
        paras, results = self._paragraphs, self._results
        n = len(paras)
        if n == 0:
            return False
        a, b = edit.start, edit.end
        d = len(edit.new_text) - (b - a)
        i = bisect_left(paras, a - 4, key=_end)  # first paragraph ending near or after the edit
        j = bisect_right(paras, b + 4, key=_start) - 1  # last paragraph starting near or before it
        lo = max(min(i, n - 1) - 1, 0)
        hi = min(max(j, i) + 1, n - 1)
        # a blank line's reading looks past page furniture to the first real line either side: a margin
        # paragraph that is nothing but furniture (a page's number) is no margin, take the next one too
        for _ in range(_FURNITURE_MARGIN):
            if lo > 0 and furniture_only(old_text, *paras[lo]):
                lo -= 1
            elif hi < n - 1 and furniture_only(old_text, *paras[hi]):
                hi += 1
            else:
                break
        else:
            return False
        r0 = paras[lo][0] if lo > 0 else 0
        r1 = paras[hi][1] if hi < n - 1 else len(old_text)
        if not (r0 <= a and b <= r1):
            return False
        # the region must start and end at blank-line separators (not inside a long paragraph's pieces)
        if lo > 0 and not _BLANK.fullmatch(old_text, paras[lo - 1][1], r0):
            return False
        if hi < n - 1 and not _BLANK.fullmatch(old_text, r1, paras[hi + 1][0]):
            return False
        text = self._text
        old = {old_text[s:e]: r for (s, e), r in zip(paras[lo : hi + 1], results[lo : hi + 1], strict=True)}
        region = split_paragraphs(text, r0, r1 + d)
        self._paragraphs = paras[:lo] + region + [(s + d, e + d) for s, e in paras[hi + 1 :]]
        self._results = results[:lo] + [_result(text[s:e], old) for s, e in region] + results[hi + 1 :]
        return True


_NEAR = 64
_FURNITURE_MARGIN = 8


def _made_by(old: str, e: object, new: str) -> bool:
    """Whether ``new`` is ``old`` with edit ``e`` applied, as far as its length and the text at the
    edit, around it and at both ends tell (the caller made it from the same edit)."""
    if not isinstance(e, Edit) or not isinstance(e.new_text, str) or not (0 <= e.start <= e.end <= len(old)):
        return False
    a, b, n = e.start, e.end, len(e.new_text)
    if len(new) != len(old) - (b - a) + n:
        return False
    lo = max(0, a - _NEAR)
    if (
        new[a : a + n] != e.new_text
        or new[lo:a] != old[lo:a]
        or new[a + n : a + n + _NEAR] != old[b : b + _NEAR]
    ):
        return False
    if a >= _NEAR and new[:_NEAR] != old[:_NEAR]:
        return False
    return b + _NEAR > len(old) or new[-_NEAR:] == old[-_NEAR:]


def _edited(edits: list[Edit]) -> tuple[int, int]:
    """``[start, end]`` of the final text that covers every edit (each against the text the one before
    left): what differs from the text before them."""
    a, b = edits[0].start, edits[0].start + len(edits[0].new_text)
    for e in edits[1:]:
        d = len(e.new_text) - (e.end - e.start)
        if e.end < a:
            a, b = a + d, b + d
        elif e.start <= b:
            b = max(b + d, e.start + len(e.new_text))
        a, b = min(a, e.start), max(b, e.start + len(e.new_text))
    return a, max(a, b)


def _start(p: tuple[int, int]) -> int:
    return p[0]


def _end(p: tuple[int, int]) -> int:
    return p[1]


def _result(key: str, known: dict[str, ParagraphResult]) -> ParagraphResult:
    """The result for a paragraph's text: one already known (a paragraph whose text did not change, or
    one met earlier in this re-split), else extracted. A paragraph repeated many times over (a heading,
    a signature block, a line a Replace All made alike everywhere) is extracted once."""
    res = known.get(key)
    if res is None:
        # not the process-wide LRU: a keystroke's intermediate paragraph versions would only crowd it
        # (and the collector's long-lived generation); the document keeps its own results
        res = known[key] = extract_paragraph.__wrapped__(key)
    return res
