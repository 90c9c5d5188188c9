"""Findings follow the text: moving with edits, dropped when touched, the hold; and the size finding."""

from __future__ import annotations

from citecheck.extract.models import Citation, CiteForm, Extraction
from citecheck.findings import Fix, Kind, TextEdit, make_finding
from citecheck.lsp.features.shifting import held_back, line_end_after, shift_findings, stretch
from citecheck.lsp.text import AppliedEdit
from citecheck.spans import Span
from citecheck.visible import too_large_finding

EDIT = AppliedEdit(start=5, end=5, new_text="abc")  # three characters typed at offset 5


def test_findings_before_after_and_touching_an_edit() -> None:
    before = make_finding(Kind.CANNOT_VERIFY, Span(0, 3), "b")
    touching = make_finding(Kind.CANNOT_VERIFY, Span(2, 5), "t")  # ends where the caret is
    after = make_finding(
        Kind.YEAR_MISMATCH,
        Span(10, 14),
        "a",
        fixes=(Fix(title="f", edits=(TextEdit(span=Span(10, 14), new_text="1953"),)),),
    )
    out = shift_findings([before, touching, after], [EDIT])
    assert out[0] is before
    assert [f.span for f in out] == [Span(0, 3), Span(13, 17)]
    assert out[1].fixes[0].edits[0].span == Span(13, 17)


def test_hold_covers_the_citation_being_typed() -> None:
    cite = Citation(
        index=0, form=CiteForm.UNRECOGNISED, span=Span(4, 18), full_span=Span(4, 18), text="33 Umbrella 42"
    )
    ex = Extraction(text="See 33 Umbrella 42", citations=(cite,))
    assert held_back(ex, Span(18, 19)) == [Span(4, 18)]  # typing right after it
    assert held_back(ex, Span(0, 1)) == []


def test_too_large_is_one_visible_warning() -> None:
    f = too_large_finding("x" * 50 + "\nmore", 10)
    assert f.kind is Kind.DOCUMENT_TOO_LARGE and f.span == Span(0, 50)
    assert "10" in f.message


def test_line_end_after_and_stretch() -> None:
    text = "01234abc56789xyz\n" + "z" * 30  # after the edit, the first line break is at 16
    assert line_end_after(text, [EDIT]) == 16
    assert line_end_after(text, [EDIT, EDIT]) is None
    assert stretch(Span(3, 6), [EDIT]) == Span(3, 9)  # typing inside grows it
    assert stretch(Span(10, 12), [EDIT]) == Span(13, 15)  # after: moves
    assert stretch(Span(5, 6), [AppliedEdit(start=4, end=7, new_text="")]) is None  # deleted whole
