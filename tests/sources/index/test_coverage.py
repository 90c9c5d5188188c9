"""The coverage rule on the shapes CourtListener's real data has (issue 32 item 2): shared abbreviations,
neutral volumes, running series before CAP's cutoff, roman pages, table dispositions, the volume's end."""

from __future__ import annotations

from pathlib import Path

import pytest

from citecheck.sources.index.build import build_from_folder
from citecheck.sources.index.lookup import CitationIndex
from citecheck.sources.models import CiteKey, LookupResult, LookupStatus
from citecheck_testing.bulk_dump import Case, write_dump


def _volume(first_id: int, vol: str, rep: str, pages: list[str], date: str, *, court: str = "ark",
            kind: int = 3, status: str = "Published") -> list[Case]:  # fmt: skip
    out = []
    for i, p in enumerate(pages):
        name = f"Party {first_id + i} v. Other {i}"
        out.append(Case(id=first_id + i, name=name, cites=[(vol, rep, p)], date=date, court=court, types=[kind],
                        status=status))  # fmt: skip
    return out


@pytest.fixture(scope="module")
def index(tmp_path_factory: pytest.TempPathFactory):
    tmp = tmp_path_factory.mktemp("coverage")
    cases = [
        *_volume(930_100_000, "288", "Ark.", ["1", "10", "20", "30"], "1986-03-03"),
        *_volume(930_200_000, "2015", "Ohio", ["1500", "1502", "1510"], "2015-04-20", court="ohio", kind=8),
        *_volume(930_300_000, "2010", "Pa. Super.", ["90", "98", "120"], "2010-05-20", court="pa", kind=8),
        *_volume(930_400_000, "400", "F.3d", ["1", "20", "40", "60"], "2005-03-01", court="ca4"),
        *_volume(930_500_000, "890", "F.3d", ["1", "20", "40"], "2018-07-20", court="ca4"),
        *_volume(930_600_000, "131", "U.S.", ["1", "20", "40"], "1889-05-01", court="scotus"),
        # a table: three decisions printed on page 1065; an unpublished disposition at 1100
        *_volume(
            930_700_000, "995", "F.2d", ["1000", "1065", "1065", "1065", "1066"], "1993-06-01", court="ca4"
        ),
        *_volume(930_700_100, "995", "F.2d", ["1100"], "1993-06-01", court="ca4", status="Unpublished"),
        *_volume(930_700_200, "995", "F.2d", ["1150"], "1993-06-01", court="ca4"),
        *_volume(930_800_000, "100", "A.2d", ["1", "7", "15", "36"], "1953-10-01", court="md"),
        *_volume(930_900_000, "40", "Conn. Super. Ct.", ["1", "10", "20"], "1990-01-01", court="connsuperct"),
    ]
    write_dump(tmp / "dump", cases)
    build_from_folder(tmp / "ix.sqlite", tmp / "dump", full_dump=True)
    ix = CitationIndex(tmp / "ix.sqlite")
    yield ix
    ix.close()


def one(ix: CitationIndex, vol: str, rep: str, page: str) -> LookupResult:
    key = CiteKey(vol, rep, page)
    return ix.lookup([key])[key]


@pytest.mark.parametrize(
    ("cite", "status", "words"),
    [
        # Arkansas Reports closed in 2008; "Ark." is also the running neutral citation (2009-): by volume
        (("288", "Ark.", "5"), LookupStatus.NOT_FOUND, "none begins at page 5"),
        # a neutral year: CourtListener lacks whole years of them (#3992, #5768)
        (("2015", "Ohio", "1501"), LookupStatus.CANNOT_VERIFY, "neutral citation"),
        (("2010", "Pa. Super.", "99"), LookupStatus.CANNOT_VERIFY, "neutral citation"),
        # two series share the abbreviation and one runs on
        (("40", "Conn. Super. Ct.", "5"), LookupStatus.CANNOT_VERIFY, "does not hold every case"),
        # a running series whose cases all predate CAP's cutoff, and one that does not
        (("400", "F.3d", "10"), LookupStatus.NOT_FOUND, "holds 4 cases of 400 F.3d"),
        (("890", "F.3d", "10"), LookupStatus.CANNOT_VERIFY, "after CourtListener's CAP intake"),
        # the appendix of 131 U.S. is paged in roman numerals (CAP #802)
        (("131", "U.S.", "lxxxi"), LookupStatus.CANNOT_VERIFY, "roman-numeral pages"),
        # among table dispositions (#339)
        (("995", "F.2d", "1064"), LookupStatus.CANNOT_VERIFY, "several to a page"),
        (("995", "F.2d", "1090"), LookupStatus.CANNOT_VERIFY, "unpublished dispositions"),
        # past the last case CourtListener lists: the volume may hold more
        (("100", "A.2d", "900"), LookupStatus.CANNOT_VERIFY, "after the last case"),
        (("100", "A.2d", "20"), LookupStatus.NOT_FOUND, "none begins at page 20"),
    ],
)
def test_what_the_index_may_call_absent(index: CitationIndex, cite, status, words) -> None:
    r = one(index, *cite)
    assert r.status is status, r.reason
    assert words in r.reason
    assert r.containing is None  # the index never guesses the case a page falls in


def test_a_case_on_a_page_it_may_share_is_marked(index: CitationIndex) -> None:
    assert one(index, "995", "F.2d", "1065").page_shared  # several there
    assert not one(index, "995", "F.2d", "1066").page_shared  # the next case begins at 1100
    assert not one(index, "288", "Ark.", "10").page_shared


def test_an_old_index_flag_yields_to_this_rule(tmp_path: Path) -> None:
    """An index built before issue 32 marked ``2015 Ohio`` complete; the reader applies today's rule."""
    import sqlite3

    write_dump(tmp_path / "d", _volume(931_000_000, "2015", "Ohio", ["1500", "1502", "1510"], "2015-04-20"))
    build_from_folder(tmp_path / "ix.sqlite", tmp_path / "d", full_dump=True)
    db = sqlite3.connect(tmp_path / "ix.sqlite")
    db.execute("UPDATE volumes SET complete = 1")
    db.commit()
    db.close()
    ix = CitationIndex(tmp_path / "ix.sqlite")
    try:
        assert one(ix, "2015", "Ohio", "1501").status is LookupStatus.CANNOT_VERIFY
    finally:
        ix.close()
