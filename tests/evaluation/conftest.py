"""A tmp SQLite corpus imported from ../shared/corpus (both CAP static and CourtListener bulk)."""

from __future__ import annotations

from pathlib import Path

import pytest

from citecheck_testing import shared_corpus_path


@pytest.fixture(scope="session")
def imported_corpus(tmp_path_factory) -> Path:  # type: ignore[no-untyped-def]
    from citecheck.sources.corpus import Corpus
    from citecheck.sources.importing import import_path

    cap = shared_corpus_path("cap-static")
    bulk = shared_corpus_path("courtlistener-bulk")
    path = tmp_path_factory.mktemp("eval-corpus") / "corpus.sqlite"
    corpus = Corpus(path)
    try:
        import_path(corpus, cap)
        import_path(corpus, bulk)
    finally:
        corpus.close()
    return path
