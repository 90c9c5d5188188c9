"""The corpus's name search on the real sample: party by party, abbreviations either way, kept current."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from citecheck.sources.corpus import Corpus
from citecheck.sources.corpus_names import NameIndex
from citecheck.sources.models import CaseCite, CaseRecord


@pytest.mark.parametrize(
    ("draft", "found"),
    [
        ("Savage v. Parks", "Savage v. Parks"),
        ("Parks v. Savage", "Savage v. Parks"),  # party order
        ("Savge v. Parks", "Savage v. Parks"),  # a slip of the keyboard (scored lower)
        ("Department of Human Resources v. Johnson", "Department of Human Resources v. Johnson"),
        ("Dep't of Human Res. v. Johnson", "Department of Human Resources v. Johnson"),  # abbreviated draft
        ("Attorney Grievance Commission of Maryland v. Zhang", "Attorney Grievance Comm'n of Md. v. Zhang"),
        ("In re J.W.", "In re J.W."),
        ("In re KNC", "IN RE KNC"),
        ("People v. A.V.", "People v. A.V. (In re A.V.)"),
        ("Fox v. State", "Fox v. State"),  # a short party beside "State"
        ("Cook v. Public Storage", "Cook v. Public Storage, Inc."),  # the corporate suffix left out
    ],
)
def test_finds_the_case_by_its_name(real_corpus: Corpus, draft: str, found: str) -> None:
    hits = real_corpus.find_by_name(draft)
    assert hits and hits[0].record.name == found, [h.record.name for h in hits]
    assert hits[0].score == (0.9 if draft.startswith("Savge") else 1.0)


@pytest.mark.parametrize(
    "draft",
    [
        "Harmon v. Capital Transit Co.",  # the README's invented case: no such name held
        "Ancient Energy v. Philip G. Ferguson and John M. Cutright",  # an initial is not "Mosteller"
        "Savage v. Jones",  # one party right, the other not
    ],
)
def test_no_case_of_another_name(real_corpus: Corpus, draft: str) -> None:
    assert real_corpus.find_by_name(draft) == []


def test_the_years_order_cases_of_one_name(tmp_path: Path) -> None:
    corpus = Corpus(tmp_path / "c.sqlite")
    for i, year in enumerate((1990, 2015, 2003)):
        corpus.upsert_case(
            CaseRecord(
                id=f"cl:{i}",
                source="courtlistener",
                name="Smith v. Jones",
                decision_date=f"{year}-01-01",
                citations=(CaseCite(volume=str(100 + i), reporter="F.3d", page="5"),),
            )
        )
    hits = corpus.find_by_name("Smith v. Jones", years=(2013, 2017))
    assert [(h.record.decision_date or "")[:4] for h in hits] == ["2015", "2003", "1990"]


def test_an_import_in_this_or_another_process_is_found(tmp_path: Path) -> None:
    path = tmp_path / "c.sqlite"
    corpus = Corpus(path)
    assert corpus.find_by_name("Alpha v. Beta") == []

    def add(c: Corpus, n: int) -> None:
        c.upsert_case(
            CaseRecord(
                id=f"cl:{n}",
                source="courtlistener",
                name="Alpha v. Beta" if n == 1 else "Gamma v. Delta",
                citations=(CaseCite(volume="1", reporter="F.3d", page=str(n)),),
            )
        )

    add(corpus, 1)  # this connection
    assert [h.record.id for h in corpus.find_by_name("Alpha v. Beta")] == ["cl:1"]
    other = Corpus(path)  # another connection (as another process would be)
    add(other, 2)
    other.close()
    assert [h.record.id for h in corpus.find_by_name("Gamma v. Delta")] == ["cl:2"]
    corpus.close()


def test_a_read_only_corpus_searches_too(real_corpus_file: Path) -> None:
    corpus = Corpus(real_corpus_file, readonly=True)
    try:
        assert corpus.find_by_name("Berry v. Keith")[0].record.id.startswith("cap:")
        with pytest.raises(sqlite3.OperationalError):
            corpus.connection.execute("DELETE FROM cases")
    finally:
        corpus.close()


def test_candidates_sharing_both_parties_come_first() -> None:
    rows = [(i, "2000-01-01", (f"Smith v. Other{i}",)) for i in range(200)] + [
        (999, "2000-01-01", ("Smith v. Jones",))
    ]
    index = NameIndex(rows)
    assert index.candidates("Smith v. Jones")[0] == 999


def test_a_government_party_weighs_little_and_the_name_check_decides(real_corpus: Corpus) -> None:
    # "State v. Brown" scores 0.9 against Commonwealth v. Brown (short name "Brown"): the search returns it,
    # ranked by that score; corrections never treat it as named (compare_names: another case)
    from citecheck.checks.name_match import NameVerdict, compare_names

    [hit] = real_corpus.find_by_name("State v. Brown")
    assert hit.record.name == "Commonwealth v. Brown" and hit.score < 1.0
    assert compare_names("State v. Brown", hit.record.names).verdict is NameVerdict.MISMATCH
