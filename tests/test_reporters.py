"""The one reporter module: audited series years, impossible volumes/pages, invented series, names."""

from __future__ import annotations

import pytest

from citecheck import reporters as rl


@pytest.mark.parametrize(
    ("reporter", "year", "impossible"),
    [
        ("S.W.3d", 1986, True),  # the example: S.W.3d began in 1999
        ("F.4th", 1999, True),  # F.4th began in 2021
        ("F.2d", 2005, True),  # F.2d ended in 1993
        ("S.W.3d", 1998, False),  # within the one-year margin
        ("F.3d", 2022, False),  # F.3d's last volume (999) is 2021; one year of overlap allowed
        ("F.3d", 2025, True),
        ("F. Supp.", 1997, False),  # reporters-db says it ended in 1988; it ran to 1998 (issue 17)
        ("F.R.D.", 1971, False),  # reporters-db: began 2001; vol. 1 is 1940
        ("Ohio St. 3d", 1984, False),  # reporters-db: began 1991; vol. 1 is 1982
        ("Ky.", 1808, False),  # retroactively numbered nominative volumes: not audited, never judged
        ("Op. O.L.C.", 2007, False),  # not a case reporter we audited
        ("F. Supp.", 2005, True),
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
    # databases and slip opinions number documents (real cites from a Lexis printout's running heads)
    assert rl.page_problem("Fla. App. LEXIS", "17683") is None
    assert rl.page_problem("Tex. App. LEXIS", "10452") is None
    assert rl.page_problem("NY Slip Op", "24083") is None
    assert rl.page_problem("NY Slip Op", "51234") is None


def test_known_reporters_include_journals_and_variations() -> None:
    assert rl.is_known_reporter("F. Supp. 2d")
    assert rl.is_known_reporter("A. 2d")  # a variation
    assert rl.is_known_reporter("Harv. L. Rev.")
    assert not rl.is_known_reporter("Umbrella")


@pytest.mark.parametrize(
    ("reporter", "real"),
    [
        ("Cal. Rptr. 4th", "Cal. Rptr."),
        ("P. 4th", "P."),
        ("A.4th", "A."),
        ("S.W.3d. 7th", "S.W.3d"),
        ("Ark. 7th", "Ark."),
        ("F.6th", "F."),
        ("Cal. Rptr. 3d", None),  # real
        ("Burr.", None),  # unknown, but not an invented series of a real reporter
        ("SCC", None),
        ("Umbrella", None),
    ],
)
def test_invented_series(reporter: str, real: str | None) -> None:
    assert rl.invented_series(reporter) == real


def test_every_audited_series_is_a_reporters_db_edition_with_a_source() -> None:
    for name, years in rl.SERIES_YEARS.items():
        assert rl.is_case_reporter(name), name
        assert years.source and (years.last is None or years.last >= years.first), name


def test_case_reporter_is_narrower_than_known_reporter() -> None:
    assert rl.is_known_reporter("Harv. L. Rev.") and not rl.is_case_reporter("Harv. L. Rev.")
    assert rl.is_case_reporter("F.Supp.2d") and rl.is_known_reporter("F.Supp.2d")
