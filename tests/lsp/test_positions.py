"""Span ↔ Range in every negotiated encoding, on text that breaks naive implementations."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from lsprotocol import types

from citecheck.lsp.positions import LineIndex, client_units, range_to_span, span_to_range
from citecheck.spans import Span

ENCODINGS = ["utf-8", "utf-16", "utf-32"]
# emoji (2 UTF-16 units, 4 UTF-8 bytes), §, curly quotes, en dash, Word's \v, \f, \u2028, CRLF, lone CR
TRICKY = "Intro 😀 § “q” – x\vSee 𝒮 410 U.S. 113\f(1973)\u2028next\r\nline two\rthree 😀\nend"


def _expected(text: str, offset: int, encoding: str) -> types.Position:
    # reference model: split with the LSP rule and count units with Python's codecs
    before = text[:offset]
    line = before.count("\n") + before.count("\r") - before.count("\r\n")
    last = max(before.rfind("\n"), before.rfind("\r"))
    col_text = before[last + 1 :]
    unit = {"utf-8": lambda s: len(s.encode()), "utf-16": lambda s: len(s.encode("utf-16-le")) // 2}
    return types.Position(line=line, character=unit.get(encoding, len)(col_text))


@pytest.mark.parametrize("encoding", ENCODINGS)
def test_every_offset_round_trips(encoding: str) -> None:
    idx = LineIndex(TRICKY)
    for offset in range(len(TRICKY) + 1):
        if TRICKY[offset - 1 : offset + 1] == "\r\n":
            continue  # between \r and \n is not a position
        pos = idx.position_at(offset, encoding)
        assert pos == _expected(TRICKY, offset, encoding), offset
        assert idx.offset_at(pos, encoding) == offset


def test_vertical_tab_and_form_feed_do_not_end_lines() -> None:
    # the pygls 2.1 bug: str.splitlines treats \v and \f as line ends
    idx = LineIndex("A,\vB\fC\u2028D\nE")
    assert idx.line_count == 2
    assert idx.position_at(9, "utf-16") == types.Position(line=1, character=0)


@pytest.mark.parametrize(("encoding", "character"), [("utf-16", 7), ("utf-8", 9), ("utf-32", 6)])
def test_column_after_emoji(encoding: str, character: int) -> None:
    text = "a 😀 b 410"
    assert LineIndex(text).position_at(text.index("410"), encoding).character == character


def test_position_past_line_end_clamps_to_line_end_not_into_crlf() -> None:
    idx = LineIndex("abc\r\ndef")
    assert idx.offset_at(types.Position(line=0, character=99), "utf-16") == 3
    assert idx.offset_at(types.Position(line=1, character=99), "utf-16") == 8  # last line: its end
    assert idx.offset_at(types.Position(line=7, character=0), "utf-16") == 8
    assert idx.position_at(4, "utf-16") == types.Position(line=0, character=3)  # offset between \r and \n


def test_position_inside_a_surrogate_pair_rounds_down() -> None:
    idx = LineIndex("x😀y")
    assert idx.offset_at(types.Position(line=0, character=2), "utf-16") == 1
    assert idx.offset_at(types.Position(line=0, character=3), "utf-16") == 2


@pytest.mark.parametrize("encoding", ENCODINGS)
def test_span_range_round_trip(encoding: str) -> None:
    idx = LineIndex(TRICKY)
    span = Span(TRICKY.index("410"), TRICKY.index("113") + 3)
    rng = span_to_range(idx, span, encoding)
    assert range_to_span(idx, rng, encoding) == span


def test_unknown_encoding_falls_back_to_utf16() -> None:
    assert client_units("😀", "utf-99") == 2


def test_lines_keep_endings_and_match_lsp_rules() -> None:
    assert LineIndex("a\vb\r\nc\rd\n").lines() == ("a\vb\r\n", "c\r", "d\n")
    assert LineIndex("").lines() == ()


@given(
    st.text(alphabet=st.sampled_from(list("ab \n\r\v\f😀§\u2028é")), max_size=40),
    st.data(),
)
def test_round_trip_property(text: str, data: st.DataObject) -> None:
    idx = LineIndex(text)
    offset = data.draw(st.integers(0, len(text)))
    if text[offset - 1 : offset + 1] == "\r\n":
        offset -= 1
    for encoding in ENCODINGS:
        pos = idx.position_at(offset, encoding)
        assert pos == _expected(text, offset, encoding)
        assert idx.offset_at(pos, encoding) == offset


@settings(max_examples=300, deadline=None)
@given(
    text=st.text(alphabet="ab\r\n\u2028\U0001f600", max_size=40),
    data=st.data(),
)
def test_index_after_an_edit_equals_a_fresh_index(text: str, data) -> None:
    """A keystroke moves the line starts of the previous version; the result must be the index of the new text."""
    a = data.draw(st.integers(0, len(text)), label="a")
    b = data.draw(st.integers(a, len(text)), label="b")
    new_text = data.draw(st.text(alphabet="ab\r\n", max_size=6), label="new")
    new = text[:a] + new_text + text[b:]
    moved = LineIndex.after_edit(LineIndex(text), a, b, new_text, new)
    assert moved.starts == LineIndex(new).starts and moved.text is new
