"""A fix echoed back in ``data`` is used only if the text under it is still what it was made for."""

from __future__ import annotations

from pygls.workspace import PositionCodec

from citecheck.lsp.features.code_actions import _from_data
from citecheck.lsp.text import LspTextDocument


def _doc(text: str) -> LspTextDocument:
    return LspTextDocument("file:///a.txt", source=text, version=3, position_codec=PositionCodec("utf-16"))


def _data(old: str) -> dict:
    rng = {"start": {"line": 0, "character": 4}, "end": {"line": 0, "character": 18}}
    return {
        "kind": "name-mismatch",
        "key": {"kind": "name-mismatch", "citation": "100 a.2d 38", "quoteHash": ""},
        "fixes": [{"title": "t", "edits": [{"range": rng, "newText": "Branson v. Harris", "oldText": old}]}],
    }


def test_fix_from_data_still_applies() -> None:
    fixes, key = _from_data(_doc("See Smith v. Jones, 100 A.2d 38."), _data("Smith v. Jones"))
    assert len(fixes) == 1 and key is not None and key.citation == "100 a.2d 38"


def test_stale_fix_from_data_is_dropped_but_ignore_stays() -> None:
    fixes, key = _from_data(_doc("See Smyth v. Jones, 100 A.2d 38."), _data("Smith v. Jones"))
    assert fixes == [] and key is not None


def test_garbage_data_is_ignored() -> None:
    assert _from_data(_doc("x"), {"fixes": "nope", "key": 3}) == ([], None)
    assert _from_data(_doc("x"), None) == ([], None)
