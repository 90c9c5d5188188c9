"""Corpus (SQLite + FTS5): lookups, passage search, coverage, bad files."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from citecheck.errors import CorpusError
from citecheck.sources.corpus import Corpus, CorpusSource, tiles_volume
from citecheck.sources.importing import import_path
from citecheck.sources.models import CaseCite, CaseRecord, CiteKey, LookupStatus


def test_reporter_spelling_is_normalised_on_lookup(real_corpus: Corpus):
    assert real_corpus.lookup_one(CiteKey("100", "A. 2d", "36")).status is LookupStatus.FOUND
    assert real_corpus.lookup_one(CiteKey("590", "S.E. 2d", "53")).record.name == "Fowlkes v. Fowlkes"


def test_database_cites_are_cannot_verify(real_corpus: Corpus):
    r = real_corpus.lookup_one(CiteKey("2019", "WL", "1234567"))
    assert r.status is LookupStatus.CANNOT_VERIFY and "Westlaw/Lexis" in r.reason


def test_two_cases_at_one_cite_are_ambiguous(tmp_path: Path):
    corpus = Corpus(tmp_path / "c.sqlite")
    for i in (1, 2):
        corpus.upsert_case(
            CaseRecord(
                id=f"cl:{i}",
                source="courtlistener",
                name=f"Case {i}",
                citations=(CaseCite(volume="1", reporter="F.3d", page="5"),),
            )
        )
    r = corpus.lookup_one(CiteKey("1", "F.3d", "5"))
    assert r.status is LookupStatus.AMBIGUOUS and {x.name for x in r.records} == {"Case 1", "Case 2"}
    assert r.record is None


@pytest.mark.parametrize(
    "quote",
    [
        "indecent exposure in a public place",
        "INDECENT   exposure in a\npublic place",
        "making an obscene . . . exposure in a public place",  # longest fragment between ellipses
        'exposure "in" a public place AND OR NEAR(',  # FTS syntax in a draft is inert
    ],
)
def test_find_passage_variants(real_corpus: Corpus, quote: str):
    hits = real_corpus.find_passage(quote)
    if "NEAR(" in quote:
        assert hits == []
        return
    assert [h.case.name for h in hits] == ["Peyton v. District of Columbia"]
    op = real_corpus.opinion(hits[0].case.id)
    assert op is not None and op.text[hits[0].offset :].lower().startswith(hits[0].passage.lower()[:10])


def test_find_passage_reports_the_page(real_corpus: Corpus):
    [hit] = real_corpus.find_passage(
        "the order of continued commitment to the Psychiatric Security Review Board"
    )
    assert hit.case.name == "State v. Dyous" and hit.reporter == "A.3d" and hit.page == "1006"


def test_coverage_and_stats(real_corpus: Corpus):
    cov = {(c.reporter, c.volume): c for c in real_corpus.coverage()}
    assert cov[("A.2d", "100")].ranges == ((36, 42), (450, 459), (831, 834))
    assert cov[("A.3d", "100")].cases == 5 and not cov[("A.3d", "100")].complete
    assert real_corpus.stats()["complete_volumes"] == []


def test_tiling_rule():
    assert tiles_volume([(1, 1), (2, 5), (5, 9)])
    assert not tiles_volume([(1, 4), (6, 9)])  # page 5 missing
    assert not tiles_volume([(9, 12)])  # does not start at the volume's first pages


def test_corrupt_or_missing_file_is_a_clear_error(tmp_path: Path):
    bad = tmp_path / "bad.sqlite"
    bad.write_bytes(b"not a database " * 200)
    with pytest.raises(CorpusError, match="cannot open corpus"):
        Corpus(bad)
    with pytest.raises(CorpusError, match="no corpus at"):
        Corpus(tmp_path / "missing.sqlite", readonly=True)
    blocker = tmp_path / "file"
    blocker.write_text("x")
    with pytest.raises(CorpusError, match="cannot create"):
        Corpus(blocker / "sub" / "c.sqlite")


async def test_lookups_keep_answering_while_a_volume_imports(
    tmp_path: Path, cap_volume: Path, bulk_dir: Path
):
    corpus = Corpus(tmp_path / "c.sqlite")
    import_path(corpus, cap_volume)
    source = CorpusSource(corpus)
    importing = asyncio.create_task(asyncio.to_thread(import_path, corpus, bulk_dir))
    answers = await asyncio.gather(*(source.lookup([CiteKey("100", "A.2d", "36")]) for _ in range(20)))
    await importing
    assert all(a[CiteKey("100", "A.2d", "36")].status is LookupStatus.FOUND for a in answers)
    assert (await source.lookup([CiteKey("279", "Neb.", "94")]))[
        CiteKey("279", "Neb.", "94")
    ].record is not None
    await source.close()


def test_find_passage_with_an_alteration_bracket(real_corpus: Corpus):
    hits = real_corpus.find_passage("[D]efendant was convicted by the court of making an obscene")
    assert [h.case.name for h in hits] == ["Peyton v. District of Columbia"]
