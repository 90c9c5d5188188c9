"""``parse_court_date`` is remembered by its text: what it remembers must be what it reads."""

from __future__ import annotations

import random

from citecheck.extract.context import parse_court_date


def test_remembered_answers_are_the_readings() -> None:
    rng = random.Random(2)
    parts = [
        "9th Cir.",
        "S.D.N.Y.",
        "Mar. 3,",
        "1973",
        "2001",
        "en banc",
        "holding",
        "La.App. 1 Cir.",
        "12/15/95",
    ]
    parts += [
        "Tex. App.—Houston [14th Dist.]",
        ", no writ",
        "filed",
        "quoting",
        "(",
        ")",
        "Cal.",
        "per curiam",
    ]
    texts = [" ".join(rng.choice(parts) for _ in range(rng.randrange(1, 5))) for _ in range(3_000)]
    parse_court_date.cache_clear()
    for t in texts + texts:
        assert parse_court_date(t) == parse_court_date.__wrapped__(t), t
    assert parse_court_date("9th Cir. 2001") is parse_court_date("9th Cir. 2001")
    got = parse_court_date("S.D.N.Y. Mar. 3, 2020")
    assert got is not None and (got.court_text, got.year, got.date) == ("S.D.N.Y.", 2020, "2020-03-03")
    assert parse_court_date("holding that it was") is None
