"""``context.matching_paren`` reads from one closing parenthesis to the next (``str.find``/``str.count``):
it must close where reading every character, as it did, closes."""

from __future__ import annotations

import random

from citecheck.extract.context import matching_paren, parentheticals_after


def _char_by_char(text: str, open_at: int, limit: int) -> int | None:
    depth = 0
    for i in range(open_at, limit):
        ch = text[i]
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
            if depth == 0:
                return i + 1
    return None


def test_the_closing_parenthesis_is_the_one_reading_each_character_finds() -> None:
    rng = random.Random(1)
    closed = 0
    for _ in range(50_000):
        text = "".join(rng.choice("(()) ab") for _ in range(rng.randrange(0, 24)))
        open_at = rng.randrange(len(text) + 1)
        limit = rng.randrange(open_at, len(text) + 1)
        got = matching_paren(text, open_at, limit)
        assert got == _char_by_char(text, open_at, limit), (text, open_at, limit)
        closed += got is not None
    assert closed > 5_000


def test_parentheticals_after_a_citation() -> None:
    text = "410 U.S. 113 (1973) (holding (in part) so) (quoting Smith (2d Cir.)) and more (x"
    spans = parentheticals_after(text, 12, len(text))
    assert [text[s.start : s.end] for s in spans] == [
        "(1973)",
        "(holding (in part) so)",
        "(quoting Smith (2d Cir.))",
    ]
