"""The name search finds what lawyers type: a name with one slip of the keyboard (a letter dropped,
changed or two swapped) and a case named by one party ("Miranda", "Chevron"), among hundreds of cases
that share the word — the index asks for the most cited first and ranks ties by how often courts cite
them. Bulk files in CourtListener's real format, written here; the names are real captions."""

from __future__ import annotations

import pytest

from citecheck.sources.index.build import build_from_folder
from citecheck.sources.index.lookup import CitationIndex
from citecheck_testing.bulk_dump import Case, write_dump

FILLER = ("State", "People", "United States", "Commonwealth")


def _cases() -> list[Case]:
    """Hundreds of little-cited cases sharing the famous cases' words (lower ids, so an index that
    took the first matches by id would never reach the famous ones), then the famous cases."""
    cases: list[Case] = []
    n = 0

    def add(name: str, cited: int) -> None:
        nonlocal n
        n += 1
        cases.append(
            Case(
                id=920_000_000 + n,
                name=name,
                cites=[(str(1 + n // 150), "P.3d", str(1 + n))],
                date="2004-05-06",
                court="md",
                cited=cited,
            )
        )

    for i in range(260):
        add(f"{FILLER[i % 4]} v. Miranda", i % 7)
        add(f"Miranda v. {('Clark County', 'Garcia', 'Holder', 'Lopez')[i % 4]}", i % 5)
        add(f"Chevron Oil Co. v. Parcel {i}" if i % 2 else f"Doe v. Chevron Corp. {i}", i % 6)
        add(f"Alvarez v. {('Arizona', 'Ohio')[i % 2]}", i % 9)
    add("Miranda v. Arizona", 38_000)
    add("Chevron U.S.A. Inc. v. Natural Resources Defense Council, Inc.", 21_000)
    add("Chevron Corp. v. Donziger", 400)
    add("Plyler v. Doe", 9_000)
    add("Stinnie v. Holcomb", 12)
    return cases


@pytest.fixture(scope="module")
def index(tmp_path_factory) -> CitationIndex:
    root = tmp_path_factory.mktemp("names")
    write_dump(root / "dump", _cases())
    build_from_folder(root / "index.sqlite", root / "dump", full_dump=True)
    ix = CitationIndex(root / "index.sqlite")
    yield ix
    ix.close()


def names(ix: CitationIndex, query: str, limit: int = 10) -> list[str]:
    return [h.record.name for h in ix.search_names(query, limit=limit)]


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("Miranda", "Miranda v. Arizona"),
        ("Chevron", "Chevron U.S.A. Inc. v. Natural Resources Defense Council, Inc."),
        ("Plyler", "Plyler v. Doe"),
    ],
)
def test_one_party_finds_the_case_courts_cite_first(index: CitationIndex, query: str, expected: str) -> None:
    assert names(index, query)[:1] == [expected]


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("Mirnda v. Arizona", "Miranda v. Arizona"),  # a letter dropped
        ("Mirranda v. Arizona", "Miranda v. Arizona"),  # a letter added
        ("Miranda v. Arixona", "Miranda v. Arizona"),  # a letter changed
        ("Mirnada v. Arizona", "Miranda v. Arizona"),  # two letters swapped
        ("Plyer v. Doe", "Plyler v. Doe"),
        ("Stinnie v. Holcmob", "Stinnie v. Holcomb"),
        ("Chevorn", "Chevron U.S.A. Inc. v. Natural Resources Defense Council, Inc."),  # one party, a slip
        ("Mirnda", "Miranda v. Arizona"),
    ],
)
def test_one_slip_of_the_keyboard_still_finds_the_case(
    index: CitationIndex, query: str, expected: str
) -> None:
    hits = index.search_names(query, limit=10)
    assert hits and hits[0].record.name == expected, [(h.record.name, h.score) for h in hits]
    assert hits[0].score < 1.0  # a near match is said as one (the corrections propose, never assert)


def test_an_exact_name_outranks_its_slips_and_the_word_it_shares(index: CitationIndex) -> None:
    top = index.search_names("Chevron Corp. v. Donziger", limit=3)
    assert top[0].record.name == "Chevron Corp. v. Donziger" and top[0].score == 1.0


def test_a_slip_that_makes_another_real_word_still_finds_the_case(index: CitationIndex) -> None:
    # "Alvarez" exists (hundreds of cases), "Arizona" too: "Mirenda" exists nowhere, "Miranda" does
    assert names(index, "Mirenda v. Arizona")[:1] == ["Miranda v. Arizona"]
    # a real word for another: "Holder" is one slip from "Holden", which no case has; the other party leads
    assert "Miranda v. Holder" in names(index, "Miranda v. Holden")


@pytest.mark.parametrize("ranked_whole", [10, 400, 10_000])
def test_the_most_cited_come_first_however_many_match(
    index: CitationIndex, monkeypatch: pytest.MonkeyPatch, ranked_whole: int
) -> None:
    """Up to ``_SEARCH_RANKED_WHOLE`` matches are ranked whole by citation count; of more, the top
    citation-count tiers are asked for apart: either way the famous case is among the candidates."""
    from citecheck.sources.index import lookup

    monkeypatch.setattr(lookup, "_SEARCH_RANKED_WHOLE", ranked_whole)
    index.forget()
    for query, expected in (
        ("Miranda", "Miranda v. Arizona"),
        ("Plyler", "Plyler v. Doe"),
        ("Alvarez", None),
    ):
        got = names(index, query)
        assert (got[:1] == [expected]) if expected else len(got) == 10, (query, got)


def test_the_remembered_top_tiers_give_the_candidates_the_fts_query_gives(
    index: CitationIndex, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Of a way matching more than ``_SEARCH_RANKED_WHOLE`` cases, the top tiers' cases are the words'
    remembered sets intersected (issue 40: ``united`` read once per reader, not once per search): the
    very rows, in the same order, as the one FTS query over the tiers, with and without court and years."""
    from citecheck.sources.index import lookup

    monkeypatch.setattr(lookup, "_SEARCH_RANKED_WHOLE", 0)  # every way through the tiers
    queries = ("Miranda", "State v. Miranda", "Mirnada v. Arizona", "Chevron Corp.", "People v. Miranda")
    queries += ("Doe v. Chevron Corp.", "Chevron v. Natural Res. Def. Council", "Miranda v. Doe")
    filters = [index._name_filters(None, None), index._name_filters("md", (2000, 2010))]
    filters.append(index._name_filters(None, (1990, 1999)))
    compared = 0
    for query in queries:
        for plan in index._plans(query, lookup.name_tokens(query)):
            for where in filters:
                assert where is not None
                index.forget()
                with monkeypatch.context() as m:  # the one FTS query over the tiers
                    m.setattr(index, "_top_tier_ids", lambda *_: None)
                    want = index._candidates(plan, *where)
                assert not index._tiers
                got = index._candidates(plan, *where)
                again = index._candidates(plan, *where)  # from the remembered sets
                allowed, index._max_params = index._max_params, 12  # an SQLite allowing few parameters
                few = index._candidates(plan, *where)
                index._max_params = allowed
                assert got == want == again == few, (query, plan, where)
                compared += bool(want)
    assert compared > 10
    assert index._tiers  # it remembered the words' top tiers
    index.forget()
    assert not index._tiers
