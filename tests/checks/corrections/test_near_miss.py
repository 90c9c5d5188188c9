"""Near misses: which citations are one slip away, and how a case's citation relates to the draft's."""

from __future__ import annotations

import pytest

from citecheck.checks.corrections.near_miss import MAX_VARIANTS, relation, variants
from citecheck.sources.models import CaseCite, CiteKey

SAVAGE = CaseCite(volume="100", reporter="A.2d", page="450", last_page="452")
DYOUS = (
    CaseCite(volume="100", reporter="A.3d", page="1004", last_page="1013"),
    CaseCite(volume="153", reporter="Conn. App.", page="266", last_page="281"),
)


@pytest.mark.parametrize(
    ("written", "cite", "parallels", "expected"),
    [
        # a digit off in the page
        (CiteKey("100", "A.2d", "457"), SAVAGE, (), "a digit off in the page (457 for 450)"),
        (CiteKey("100", "A.2d", "460"), SAVAGE, (), "a digit off in the page (460 for 450)"),
        (CiteKey("100", "A.2d", "405"), SAVAGE, (), "two digits transposed in the page (405 for 450)"),
        (CiteKey("100", "A.2d", "45"), SAVAGE, (), "a digit dropped in the page (45 for 450)"),
        (CiteKey("100", "A.2d", "4500"), SAVAGE, (), "a digit added in the page (4500 for 450)"),
        (CiteKey("101", "A.2d", "450"), SAVAGE, (), "a digit off in the volume (101 for 100)"),
        (CiteKey("300", "A.2d", "460"), SAVAGE, (), None),  # two slips are not one
        (CiteKey("100", "A.3d", "450"), SAVAGE, (), "the wrong series (A.3d for A.2d)"),
        (CiteKey("100", "A. 4th", "450"), SAVAGE, (), "a series that does not exist (A. 4th for A.2d)"),
        (
            CiteKey("100", "A.2d", "451"),
            SAVAGE,
            (),
            "the pin page 451 given as the first page (the case begins at 450)",
        ),
        (
            CiteKey("153", "Conn. App.", "1004"),
            DYOUS[1],
            DYOUS,
            "the page of the parallel citation 100 A.3d 1004 used with Conn. App.",
        ),
        (
            CiteKey("100", "Conn. App.", "1004"),
            DYOUS[1],
            DYOUS,
            "the volume and page of the parallel citation 100 A.3d 1004 used with Conn. App.",
        ),
        (CiteKey("100", "F.3d", "450"), SAVAGE, (), None),  # another reporter altogether
    ],
)
def test_relation(
    written: CiteKey, cite: CaseCite, parallels: tuple[CaseCite, ...], expected: str | None
) -> None:
    assert relation(written, cite, parallels) == expected


def test_variants_are_one_slip_away_and_bounded() -> None:
    key = CiteKey("100", "A.2d", "457")
    found = dict(variants(key))
    assert CiteKey("100", "A.3d", "457") in found and CiteKey("100", "A.2d", "456") in found
    assert CiteKey("100", "A.2d", "475") in found and CiteKey("10", "A.2d", "457") in found
    assert key not in found and len(found) <= MAX_VARIANTS
    # every variant relates back to the key it came from, the same way
    for v, why in variants(key):
        assert relation(key, CaseCite(volume=v.volume, reporter=v.reporter, page=v.page)) == why
