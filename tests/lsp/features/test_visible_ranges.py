"""``citecheck/visibleRanges``: the client's view, converted to code points at the edge, as ranks."""

from __future__ import annotations

import math

import pytest

from citecheck.extract import extract_citations
from citecheck.judge import cite_key
from citecheck.lsp.features.visible_ranges import BadParams, parse_params, ranks_for, screens_away, to_spans
from citecheck.lsp.positions import LineIndex
from citecheck.sources.models import CiteKey


def _rng(l1: int, c1: int, l2: int, c2: int) -> dict:
    return {"start": {"line": l1, "character": c1}, "end": {"line": l2, "character": c2}}


def test_params_are_read_and_bad_ones_refused():
    view = parse_params({"documents": [{"uri": "file:///a.md", "ranges": [_rng(0, 0, 9, 0), _rng(20, 0, 29, 4)]},
                                       {"uri": "file:///b.md", "ranges": []}]})  # fmt: skip
    assert view == {"file:///a.md": ((0, 0, 9, 0), (20, 0, 29, 4)), "file:///b.md": ()}
    for bad in (None, {}, {"documents": "x"}, {"documents": [{"uri": 3, "ranges": []}]},
                {"documents": [{"uri": "u", "ranges": [_rng(-1, 0, 2, 0)]}]},
                {"documents": [{"uri": "u",
                                "ranges": [{"start": {"line": True, "character": 0}, "end": {}}]}]}):  # fmt: skip
        with pytest.raises(BadParams):
            parse_params(bad)


def test_positions_become_code_points_in_the_negotiated_encoding():
    text = "§ 1 — 😀 Roe\nsecond line\nthird"
    index = LineIndex(text)
    # line 0 up to just after the emoji: 7 code points, 8 UTF-16 units, 13 UTF-8 bytes
    assert to_spans(index, [(0, 8, 1, 3)], "utf-16") == ((7, 15),)
    assert to_spans(index, [(0, 13, 1, 3)], "utf-8") == ((7, 15),)
    assert to_spans(index, [(0, 7, 1, 3)], "utf-32") == ((7, 15),)
    assert to_spans(index, [(2, 0, 99, 0), (1, 0, 0, 0)], "utf-16") == ((0, 12), (24, 29))  # clamped, sorted


def test_screens_away_counts_the_gap_in_screens_of_text():
    assert screens_away(5, 8, [(0, 10)], 10) == 0
    assert screens_away(11, 12, [(0, 10)], 10) == 1
    assert screens_away(45, 50, [(0, 10), (60, 70)], 20) == 1  # nearer to the second range
    assert screens_away(100, 110, [], 10) == math.inf


def test_ranks_follow_the_view_and_a_short_form_on_screen_ranks_its_case():
    text = ("Roe v. Wade, 410 U.S. 113 (1973).\n\n" + "Filler text. " * 40 + "\n\n"
            "Miranda v. Arizona, 384 U.S. 436 (1966).\n\n" + "More filler. " * 40 + "\n\n"
            "See Roe, 410 U.S. at 120.")  # fmt: skip
    ex = extract_citations(text)
    roe, miranda = CiteKey("410", "U.S.", "113"), CiteKey("384", "U.S.", "436")
    assert {cite_key(c) for c in ex.citations} >= {roe, miranda}
    end = len(text)
    ranks = ranks_for(ex, [(end - 30, end)])  # the user sees only the last line: "See Roe, 410 U.S. at 120."
    assert ranks[roe] == 0  # its short form is on screen: the case is needed for the pin cite
    assert ranks[miranda] > 0
    top = ranks_for(ex, [(0, 40)])
    assert top[roe] == 0 and top[miranda] > 0
    assert ranks_for(ex, []) == {}
