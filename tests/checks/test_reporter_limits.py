"""reporters-db based impossibility rules: flag the impossible, stay silent when in doubt."""

from __future__ import annotations

import pytest

from citecheck.checks import reporter_limits as rl


@pytest.mark.parametrize(
    ("reporter", "year", "impossible"),
    [
        ("S.W.3d", 1986, True),  # the example: S.W.3d began in 1999
        ("F.4th", 1999, True),  # F.4th began in 2021
        ("F.2d", 2005, True),  # F.2d ended in 1993
        ("S.W.3d", 1998, False),  # within the one-year margin
        ("F.3d", 2024, False),  # end: null means ongoing or unknown: never flag
        ("U.S.", 1803, False),  # nominative era: 5 U.S. (1 Cranch) 137 (1803)
        ("A.2d", 1953, False),
        ("Umbrella", 1990, False),  # unknown reporters are judged elsewhere
    ],
)
def test_series_year(reporter: str, year: int, impossible: bool) -> None:
    assert (rl.series_year_problem(reporter, year) is not None) is impossible


@pytest.mark.parametrize(
    ("reporter", "volume", "impossible"),
    [
        ("F.3d", "1204", True),
        ("A.2d", "1000", True),
        ("A.3d", "100", False),
        ("Cal. App. 5th", "9999", False),  # no bound known for it: say nothing
        ("F.3d", "0", True),
    ],
)
def test_volume(reporter: str, volume: str, impossible: bool) -> None:
    assert (rl.volume_problem(reporter, volume) is not None) is impossible


def test_page_bounds_only_for_paged_reporters() -> None:
    assert rl.page_problem("A.3d", "48213")
    assert rl.page_problem("A.3d", "1004") is None
    assert rl.page_problem("IL App (1st)", "152522") is None  # neutral cites number paragraphs


def test_known_reporters_include_journals_and_variations() -> None:
    assert rl.is_known_reporter("F. Supp. 2d")
    assert rl.is_known_reporter("A. 2d")  # a variation
    assert rl.is_known_reporter("Harv. L. Rev.")
    assert not rl.is_known_reporter("Umbrella")
