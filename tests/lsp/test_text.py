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
        range=types.Range(
            start=types.Position(line=sl, character=sc), end=types.Position(line=el, character=ec)
        ),
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
    ws.update_text_document(
        types.VersionedTextDocumentIdentifier(uri="file:///nope", version=2), _change(0, 0, 0, 0, "x")
    )
    assert ws.open_document("file:///nope") is None
    ws.put_text_document(
        types.TextDocumentItem(uri="file:///a.txt", language_id="plaintext", version=1, text="é\vb")
    )
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


# ---- many changes in one didChange (Replace All): applied in one pass, same result as one by one ----


def _reference(text: str, changes: list[types.TextDocumentContentChangePartial], encoding: str) -> str:
    from citecheck.lsp.positions import range_to_span

    for ch in changes:
        span = range_to_span(LineIndex(text), ch.range, encoding)
        text = text[: span.start] + ch.text + text[span.end :]
    return text


def _replace_all(text: str, needle: str, new: str, encoding: str, descending: bool) -> list:
    idx = LineIndex(text)
    spans = []
    pos = text.find(needle)
    while pos >= 0:
        spans.append((pos, pos + len(needle)))
        pos = text.find(needle, pos + len(needle))
    changes = []
    if descending:  # VS Code's order: every range is valid in the original text
        for s, e in reversed(spans):
            changes.append(
                types.TextDocumentContentChangePartial(
                    range=types.Range(start=idx.position_at(s, encoding), end=idx.position_at(e, encoding)),
                    text=new,
                )
            )
    else:  # first to last: each range is in the text after the changes before it
        delta = 0
        for s, e in spans:
            cur = text[:s].replace(needle, new)
            cidx = LineIndex(cur + text[s:])
            changes.append(
                types.TextDocumentContentChangePartial(
                    range=types.Range(
                        start=cidx.position_at(len(cur), encoding),
                        end=cidx.position_at(len(cur) + e - s, encoding),
                    ),
                    text=new,
                )
            )
            delta += len(new) - (e - s)
    return changes


@pytest.mark.parametrize("descending", [True, False])
@pytest.mark.parametrize("new", ["Id.", "", "x\ny", "\n", "😀é"])
def test_replace_all_in_one_pass_matches_one_by_one(descending: bool, new: str, monkeypatch) -> None:
    import citecheck.lsp.positions as positions_module

    text = "See 410 U.S. 113.\r\nId. at 120; id. at\u2028121.\n" * 300
    changes = _replace_all(text, "id.", new, "utf-16", descending)
    assert len(changes) == 300
    expected = _reference(text, changes, "utf-16")
    builds = []
    real = positions_module.LineIndex.__init__

    def counting(self, t: str) -> None:
        builds.append(len(t))
        real(self, t)

    doc = _doc(text)
    monkeypatch.setattr(positions_module.LineIndex, "__init__", counting)
    doc.apply_change(types.TextDocumentContentChangePartial(range=changes[0].range, text=changes[0].text))
    for ch in changes[1:]:
        doc.apply_change(ch)
    assert doc.source == expected
    assert len(builds) <= 3, len(builds)  # not one line index per change: that is quadratic
    replayed = text
    edits = doc.take_edits()
    assert len(edits) == 1  # 300 edits are handed on as the one edit they amount to
    for e in edits:
        replayed = replayed[: e.start] + e.new_text + replayed[e.end :]
    assert replayed == expected


_piece = st.text(alphabet="ab \r\n\v😀é", max_size=6)


@given(
    text=st.text(alphabet="ab \r\n\v😀é", max_size=60),
    raw=st.lists(
        st.tuples(st.integers(0, 9), st.integers(0, 9), st.integers(0, 9), st.integers(0, 9), _piece),
        max_size=8,
    ),
    encoding=st.sampled_from(["utf-8", "utf-16", "utf-32"]),
)
@settings(max_examples=300, deadline=None)
def test_any_batch_of_changes_matches_one_by_one(text: str, raw: list, encoding: str) -> None:
    changes = [_change(a, b, c, d, t) for a, b, c, d, t in raw]
    changes = [
        types.TextDocumentContentChangePartial(
            range=types.Range(
                start=min(ch.range.start, ch.range.end, key=lambda p: (p.line, p.character)),
                end=max(ch.range.start, ch.range.end, key=lambda p: (p.line, p.character)),
            ),
            text=ch.text,
        )
        for ch in changes
    ]
    doc = _doc(text, encoding)
    for ch in changes:
        doc.apply_change(ch)
    assert doc.source == _reference(text, changes, encoding)
    replayed = text
    for e in doc.take_edits():
        replayed = replayed[: e.start] + e.new_text + replayed[e.end :]
    assert replayed == doc.source


@pytest.mark.parametrize("encoding", ["utf-8", "utf-16", "utf-32"])
@pytest.mark.parametrize(
    ("text", "pieces", "expected"),
    [
        ("", [((0, 0), "a"), ((0, 0), " ")], " a"),  # found by hypothesis: the second insertion goes first
        ("xy", [((0, 1), "a"), ((0, 1), "b"), ((0, 1), "c")], "xcbay"),
        ("xy", [((0, 1), "a"), ((0, 2), "b")], "xaby"),  # after the first: text order is the order made
    ],
)
def test_insertions_at_one_place_in_one_batch_land_in_the_order_made(
    text, pieces, expected, encoding
) -> None:
    doc = _doc(text, encoding)
    changes = [_change(line, ch, line, ch, t) for (line, ch), t in pieces]
    for ch in changes:
        doc.apply_change(ch)
    assert doc.source == expected == _reference(text, changes, encoding)


@pytest.mark.parametrize("encoding", ["utf-8", "utf-16", "utf-32"])
@pytest.mark.parametrize(
    ("text", "changes"),
    [
        ("", [(0, 1, 0, 1, "a"), (0, 0, 0, 1, "")]),  # found by hypothesis: the first is clamped to 0:0
        ("ab\ncd", [(0, 9, 0, 9, "x"), (0, 2, 0, 3, "")]),
        ("é\n", [(0, 1, 0, 1, "x"), (0, 0, 0, 1, "y")]),  # inside a two-byte character in UTF-8
    ],
)
def test_a_clamped_change_in_a_batch_applies_as_one_by_one(text, changes, encoding) -> None:
    doc = _doc(text, encoding)
    parsed = [_change(*c) for c in changes]
    for ch in parsed:
        doc.apply_change(ch)
    assert doc.source == _reference(text, parsed, encoding)
