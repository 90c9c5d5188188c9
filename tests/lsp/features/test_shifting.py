"""Findings follow the text: moving with edits, dropped when touched, the hold; and the size finding."""

from __future__ import annotations

from citecheck.extract.models import Citation, CiteForm, Extraction
from citecheck.findings import Fix, Kind, TextEdit, make_finding
from citecheck.ignores import IgnoreKey
from citecheck.lsp.convert import Shown
from citecheck.lsp.features.shifting import held_back, shift_findings, shift_shown, stable_offset
from citecheck.lsp.text import AppliedEdit
from citecheck.spans import Span
from citecheck.visible import too_large_finding

EDIT = AppliedEdit(start=5, end=5, new_text="abc")  # three characters typed at offset 5


def test_findings_before_after_and_touching_an_edit() -> None:
    before = make_finding(Kind.CANNOT_VERIFY, Span(0, 3), "b")
    touching = make_finding(Kind.CANNOT_VERIFY, Span(2, 5), "t")  # ends where the caret is
    after = make_finding(
        Kind.YEAR_MISMATCH, Span(10, 14), "a", fixes=(Fix(title="f", edits=(TextEdit(span=Span(10, 14), new_text="1953"),)),)
    )
    out = shift_findings([before, touching, after], [EDIT])
    assert out[0] is before
    assert [f.span for f in out] == [Span(0, 3), Span(13, 17)]
    assert out[1].fixes[0].edits[0].span == Span(13, 17)


def test_shift_shown_keeps_rendered_json_only_where_positions_hold() -> None:
    key = IgnoreKey(kind="x", citation="y")
    same_line = Shown(make_finding(Kind.CANNOT_VERIFY, Span(10, 12), "s"), key, json="{}", rendered_for=1)
    next_line = Shown(make_finding(Kind.CANNOT_VERIFY, Span(30, 32), "n"), key, json="{}", rendered_for=1)
    text = "01234abc56789xyz\n" + "z" * 30  # after the edit, the first line break is at 16
    out = shift_shown([same_line, next_line], [EDIT], 2, stable_offset(text, [EDIT], 2, 2))
    assert [s.rendered_for for s in out] == [None, 2]
    assert stable_offset(text, [AppliedEdit(start=5, end=5, new_text="\n")], 2, 3) is None


def test_hold_covers_the_citation_being_typed() -> None:
    cite = Citation(index=0, form=CiteForm.UNRECOGNISED, span=Span(4, 18), full_span=Span(4, 18), text="33 Umbrella 42")
    ex = Extraction(text="See 33 Umbrella 42", citations=(cite,))
    assert held_back(ex, Span(18, 19)) == [Span(4, 18)]  # typing right after it
    assert held_back(ex, Span(0, 1)) == []


def test_too_large_is_one_visible_warning() -> None:
    f = too_large_finding("x" * 50 + "\nmore", 10)
    assert f.kind is Kind.DOCUMENT_TOO_LARGE and f.span == Span(0, 50)
    assert "10" in f.message


def test_a_same_length_edit_that_breaks_a_line_moves_later_findings() -> None:
    """Select a space, press Enter: offsets after it are unchanged, but their lines are not."""
    key = IgnoreKey(kind="x", citation="y")
    before = Shown(make_finding(Kind.CANNOT_VERIFY, Span(0, 3), "b"), key, json="{}", rendered_for=1)
    after = Shown(make_finding(Kind.CANNOT_VERIFY, Span(20, 24), "a"), key, json="{}", rendered_for=1)
    enter = AppliedEdit(start=10, end=11, new_text="\n")  # " " → "\n"
    out = shift_shown([before, after], [enter], 2, None)
    assert [s.finding.span for s in out] == [Span(0, 3), Span(20, 24)]
    assert out[0].rendered_for == 2  # before the edit: same position, rendered JSON still good
    assert out[1].rendered_for is None  # same offset, new line: must be rendered again


def test_moved_diagnostics_on_other_lines_are_not_rendered_again(monkeypatch) -> None:
    """A keystroke republishes every diagnostic; those whose position it did not change go out as the
    JSON rendered before (the display mode travels with them: losing it re-rendered all of them)."""
    from pygls.protocol import default_converter

    from citecheck.lsp import convert
    from citecheck.lsp.positions import LineIndex

    text = "See 33 Umbrella 42 here.\nAnd 44 Umbrella 7 there."
    key = IgnoreKey(kind="cannot-verify", citation="33 umbrella 42")
    findings = [make_finding(Kind.CANNOT_VERIFY, Span(4, 18), "a"), make_finding(Kind.CANNOT_VERIFY, Span(29, 42), "b")]
    renderer = convert.Renderer(default_converter(), convert.ClientFeatures())
    shown = renderer.render([Shown(f, key) for f in findings], uri="file:///x", index=LineIndex(text), encoding="utf-16",
                            version=1)
    edit = AppliedEdit(start=20, end=20, new_text="z")  # typed on the first line, after the first citation
    new = text[:20] + "z" + text[20:]
    moved = shift_shown(shown, [edit], 2, stable_offset(new, [edit], 2, 2), 1)

    def no_render(*_a, **_k):
        raise AssertionError("rendered again")

    monkeypatch.setattr(convert, "to_diagnostic", no_render)
    again = renderer.render(moved, uri="file:///x", index=LineIndex(new), encoding="utf-16", version=2)
    assert [s.json for s in again] == [s.json for s in shown] and again[1].finding.span == Span(30, 43)
