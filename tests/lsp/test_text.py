"""Incremental sync with LSP line rules: edits after \\v, \\f, \\u2028, CRLF and emoji land where the
client meant them, and each applied edit is reported in code points."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from lsprotocol import types
from pygls.workspace import PositionCodec, TextDocument

from citecheck.lsp.positions import LineIndex
from citecheck.lsp.text import AppliedEdit, LspTextDocument, LspWorkspace


def _doc(text: str, encoding: str = "utf-16") -> LspTextDocument:
    return LspTextDocument("file:///d.txt", source=text, version=1, position_codec=PositionCodec(encoding))


def _change(sl: int, sc: int, el: int, ec: int, text: str) -> types.TextDocumentContentChangePartial:
    return types.TextDocumentContentChangePartial(
        range=types.Range(start=types.Position(line=sl, character=sc), end=types.Position(line=el, character=ec)),
        text=text,
    )


def test_insert_after_vertical_tab_lands_on_the_right_line() -> None:
    doc = _doc("A,\vB\nC\n")
    doc.apply_change(_change(1, 0, 1, 0, "X"))
    assert doc.source == "A,\vB\nXC\n"
    assert doc.take_edits() == [AppliedEdit(start=5, end=5, new_text="X")]
    assert doc.take_edits() == []


def test_pygls_own_document_gets_this_wrong() -> None:
    # documents the upstream bug this module exists for; if pygls fixes it, this test tells us
    doc = TextDocument("file:///d.txt", source="A,\vB\nC\n", version=1)
    doc.apply_change(_change(1, 0, 1, 0, "X"))
    assert doc.source == "A,\vXB\nC\n"


@pytest.mark.parametrize("encoding", ["utf-8", "utf-16", "utf-32"])
def test_replace_across_crlf_and_emoji(encoding: str) -> None:
    text = "😀 See\r\n410 U.S. 113\u2028x"
    doc = _doc(text, encoding)
    idx = LineIndex(text)
    start = idx.position_at(text.index("See"), encoding)
    end = idx.position_at(text.index("U.S."), encoding)
    doc.apply_change(
        types.TextDocumentContentChangePartial(range=types.Range(start=start, end=end), text="Cf. 411 ")
    )
    assert doc.source == "😀 Cf. 411 U.S. 113\u2028x"


def test_full_change_is_recorded_as_whole_text_edit() -> None:
    doc = _doc("old text")
    doc.apply_change(types.TextDocumentContentChangeWholeDocument(text="new"))
    assert doc.source == "new"
    assert doc.take_edits() == [AppliedEdit(start=0, end=8, new_text="new")]


def test_workspace_ignores_changes_for_unopened_documents() -> None:
    ws = LspWorkspace(None, position_encoding="utf-8")
    ws.update_text_document(types.VersionedTextDocumentIdentifier(uri="file:///nope", version=2), _change(0, 0, 0, 0, "x"))
    assert ws.open_document("file:///nope") is None
    ws.put_text_document(types.TextDocumentItem(uri="file:///a.txt", language_id="plaintext", version=1, text="é\vb"))
    doc = ws.open_document("file:///a.txt")
    assert isinstance(doc, LspTextDocument) and doc.encoding == "utf-8"


_ALPHABET = list("ab \n\r\v\f😀§\u2028")


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=st.sampled_from(_ALPHABET), max_size=30), st.data())
def test_incremental_edits_match_direct_splicing(text: str, data: st.DataObject) -> None:
    for encoding in ("utf-8", "utf-16", "utf-32"):
        doc = _doc(text, encoding)
        expected = text
        for _ in range(3):
            a = data.draw(st.integers(0, len(expected)))
            b = data.draw(st.integers(a, len(expected)))
            # keep both ends off the inside of a CRLF (not an LSP position)
            if expected[a - 1 : a + 1] == "\r\n":
                a -= 1
            if expected[b - 1 : b + 1] == "\r\n":
                b -= 1
            b = max(a, b)
            new = data.draw(st.text(alphabet=st.sampled_from(_ALPHABET), max_size=4))
            idx = LineIndex(expected)
            rng = types.Range(start=idx.position_at(a, encoding), end=idx.position_at(b, encoding))
            doc.apply_change(types.TextDocumentContentChangePartial(range=rng, text=new))
            expected = expected[:a] + new + expected[b:]
            assert doc.source == expected
            assert doc.take_edits() == [AppliedEdit(start=a, end=b, new_text=new)]
