"""``DocumentExtraction``: an ``Extraction`` whose citations are built per paragraph when first asked for."""

from __future__ import annotations

from typing import TYPE_CHECKING

from citecheck.extract.incremental.lookups import mapped

if TYPE_CHECKING:
    from citecheck.extract.incremental.assembly import Run

from bisect import bisect_right
from collections.abc import Iterable

from citecheck.extract.models import (
    Citation,
    CiteForm,
    Extraction,
)

_ext_citations = Extraction.__dict__["citations"]


class DocumentExtraction(Extraction):
    """An ``Extraction`` whose citations are built when first asked for.

    A keystroke moves every citation after it; building them all again costs time proportional to the
    document, and the keystroke path (local findings, the hold, ignore keys) needs only the paragraphs
    the edit touched. ``citations`` is the full tuple, equal to ``extract_citations(text).citations``;
    ``paragraph_citations``, ``citation``, ``resolved``, ``at`` and ``touching`` build only the
    paragraphs they look at. Building is pure, so two threads asking at once get equal tuples.
    """

    __slots__ = ("run",)
    run: Run

    def __init__(self, run: Run) -> None:
        Extraction.__dict__["text"].__set__(self, run.text)
        object.__setattr__(self, "run", run)

    @property  # type: ignore[override]
    def citations(self) -> tuple[Citation, ...]:
        try:
            return _ext_citations.__get__(self)  # type: ignore[no-any-return]
        except AttributeError:
            run = self.run
            out: list[Citation] = []
            for para in range(len(run.plans)):
                out.extend(run.paragraph(para))
            got = tuple(out)
            _ext_citations.__set__(self, got)
            return got

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Extraction):
            return NotImplemented
        return self.text == other.text and self.citations == other.citations

    __hash__ = Extraction.__hash__

    def __repr__(self) -> str:
        return f"DocumentExtraction({len(self.text)} chars, {self.run.after.citations} citations)"

    def paragraph_citations(self, para: int) -> tuple[Citation, ...]:
        return self.run.paragraph(para)

    def paragraph_of(self, index: int) -> int:
        """The paragraph holding citation ``index`` (the last one whose first citation is at or before it)."""
        return max(0, bisect_right(self.run.citations_before, index) - 1)

    @property
    def citation_count(self) -> int:
        return self.run.after.citations

    def citation(self, index: int) -> Citation:
        """``citations[index]``, building only its paragraph."""
        if not 0 <= index < self.run.after.citations:
            raise IndexError(index)
        para = self.paragraph_of(index)
        return self.run.paragraph(para)[index - self.run.first_of(para)]

    def resolved(self, citation: Citation) -> Citation | None:
        if citation.form is CiteForm.FULL:
            return citation
        if citation.antecedent is None:
            return None
        return self.citation(citation.antecedent)

    def touching(self, start: int, end: int) -> list[Citation]:
        """Citations whose full span touches ``[start, end]`` (a citation's full span lies in its
        paragraph, save for a borrowed block quote or sentence of the paragraph before)."""
        run = self.run
        first = (
            bisect_right(run.paragraphs, (start, len(self.text) + 1)) - 1
        )  # the last starting at or before
        out: list[Citation] = []
        for para in range(max(0, first - 1), len(run.plans)):
            if run.paragraphs[para][0] > end:
                break
            out.extend(
                c for c in run.paragraph(para) if c.full_span.start <= end and start <= c.full_span.end
            )
        return out

    def earlier_full_cites(self, index: int, volume: str | None, reporter: str | None) -> list[str]:
        """``"volume reporter page"`` of each FULL citation before ``index`` from that volume, from the
        resolution records (no citation built)."""
        run = self.run
        pool: Iterable[int] = range(len(run.fulls))
        if run.index is not None:
            pool = mapped(run.index, run.segs, run.patches, "by_cite", (volume, reporter))
        out = []
        for p in pool:
            f = run.fulls[p]
            if (
                f.full_form
                and f.volume == volume
                and f.reporter == reporter
                and run.first_of(run.para_of(p)) + f.pos < index
            ):
                out.append(f"{f.volume} {f.reporter} {f.page_text}")
        return out

    def at(self, offset: int) -> Citation | None:
        best: Citation | None = None
        for c in self.touching(offset, offset):
            if best is None or len(c.full_span) < len(best.full_span):
                best = c
        return best
