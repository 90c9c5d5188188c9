"""Paragraph layout: joining, UTF-16 locations, and the one edit between two versions."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from citecheck.extract.incremental.document import Document
from citecheck.serve.paragraphs import Layout, clean_paragraph, utf16_len
from citecheck.spans import Span


def test_locate_counts_utf16_units_inside_the_paragraph() -> None:
    layout = Layout(["intro", "😀𝒮 § 100 A.2d 450", "tail"])
    start = layout.text.index("100")
    at = layout.locate(Span(start, start + len("100 A.2d 450")))
    assert (at.paragraph, at.start, at.end) == (1, 7, 19)
    assert (
        "😀𝒮 § 100 A.2d 450".encode("utf-16-le")[at.start * 2 : at.end * 2].decode("utf-16-le")
        == "100 A.2d 450"
    )


def test_a_span_running_past_its_paragraph_is_clipped() -> None:
    layout = Layout(["abc", "def"])
    at = layout.locate(Span(1, 7))
    assert (at.paragraph, at.start, at.end) == (0, 1, 3)


def test_carriage_returns_inside_a_paragraph_do_not_move_offsets() -> None:
    assert clean_paragraph("a\rb\nc\u000bd") == "a b c\u000bd"
    assert utf16_len("a😀") == 3


paragraph = st.text(alphabet=st.sampled_from(list("ab 😀\n")), max_size=6)


@given(st.lists(paragraph, max_size=6), st.lists(paragraph, max_size=6))
def test_edit_to_turns_one_text_into_the_other(old: list[str], new: list[str]) -> None:
    a, b = Layout(old), Layout(new)
    edit = a.edit_to(b)
    if edit is None:
        assert a.text == b.text
        return
    assert a.text[: edit.start] + edit.new_text + a.text[edit.end :] == b.text


def test_the_incremental_extraction_equals_a_fresh_one() -> None:
    paras = [
        "See Savage v. Parks, 100 A.2d 450 (D.C. Mun. App. 1953).",
        "Id. at 451.",
        "Berry v. Keith, 100 A.2d 831.",
    ]
    a = Layout(paras)
    doc = Document(a.text)
    changed = [paras[0], "Savage, 100 A.2d at 452.", paras[2], "New: 410 U.S. 113 (1973)."]
    b = Layout(changed)
    edit = a.edit_to(b)
    assert edit is not None
    incremental = doc.apply_edits([edit])
    fresh = Document(b.text).extraction
    assert [c.text for c in incremental.citations] == [c.text for c in fresh.citations]
    assert [c.span for c in incremental.citations] == [c.span for c in fresh.citations]
