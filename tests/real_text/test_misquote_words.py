"""Misquotes by word substitution (issue 17): located even when several words differ, every word reported.

The opinion is the real Peyton v. District of Columbia, 100 A.2d 36 (D.C. Mun. App. 1953), read from
../shared/corpus/cap-static; the quotes alter its real sentence the way the issue's examples do
("before us" → "prior to us", "sentence" → "punishment", "statute clearly" → "law plainly").
"""

from __future__ import annotations

import asyncio

import pytest

from citecheck.config import Settings
from citecheck.findings import Kind
from citecheck.pipeline import check_document
from citecheck_testing import shared_corpus_path

REAL = "we may only set aside a judgment on a factual issue when it is plainly wrong or without evidence to support it"


@pytest.fixture(scope="module")
def source(tmp_path_factory):  # type: ignore[no-untyped-def]
    from citecheck.sources.corpus import Corpus, CorpusSource
    from citecheck.sources.importing import import_path

    corpus = Corpus(tmp_path_factory.mktemp("corpus") / "corpus.sqlite")
    import_path(corpus, shared_corpus_path("cap-static"))
    yield CorpusSource(corpus)
    corpus.close()


# (draft quote, [(opinion words, draft words)] every substitution the message must name)
SUBSTITUTIONS = [
    (REAL.replace("plainly", "clearly"), [("plainly", "clearly")]),
    (
        REAL.replace("set aside", "overturn").replace("issue", "question"),
        [("set aside", "overturn"), ("issue", "question")],
    ),
    (
        REAL.replace("judgment", "ruling")
        .replace("issue", "question")
        .replace("plainly wrong", "clearly erroneous"),
        [("judgment", "ruling"), ("issue", "question"), ("plainly wrong", "clearly erroneous")],
    ),
]


@pytest.mark.parametrize(("quote", "words"), SUBSTITUTIONS, ids=[str(len(w)) for _, w in SUBSTITUTIONS])
def test_every_substituted_word_is_reported(source, quote: str, words: list[tuple[str, str]]) -> None:  # type: ignore[no-untyped-def]
    text = f'The court held that "{quote}." Peyton v. District of Columbia, 100 A.2d 36, 38 (D.C. 1953).'
    report = asyncio.run(check_document(text, source, Settings()))
    [f] = [f for f in report.findings if f.kind is Kind.MISQUOTE]
    for said, wrote in words:
        assert f"the opinion says “{said}”, the draft says “{wrote}”" in f.message


def test_ellipsis_brackets_and_a_capital_at_the_start_are_still_fine(source) -> None:  # type: ignore[no-untyped-def]
    quote = "[W]e may only set aside a judgment . . . when it is plainly wrong"
    text = f'The court held that "{quote}." Peyton v. District of Columbia, 100 A.2d 36, 38 (D.C. 1953).'
    report = asyncio.run(check_document(text, source, Settings()))
    assert [f for f in report.findings if f.kind is Kind.MISQUOTE] == []
