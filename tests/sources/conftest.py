"""Fixtures for source tests: a corpus imported from the real shared samples (built once per session)."""

from __future__ import annotations

from pathlib import Path

import pytest

from citecheck.sources.corpus import Corpus
from citecheck.sources.importing import import_path
from citecheck.testing import shared_corpus_path


@pytest.fixture(scope="session")
def cap_volume() -> Path:
    return shared_corpus_path("cap-static", "a2d", "100")


@pytest.fixture(scope="session")
def bulk_dir() -> Path:
    return shared_corpus_path("courtlistener-bulk")


@pytest.fixture(scope="session")
def real_corpus_file(tmp_path_factory: pytest.TempPathFactory, cap_volume: Path, bulk_dir: Path) -> Path:
    """A corpus file with the CAP sample volume and the CourtListener bulk sample (read-only use!)."""
    path = tmp_path_factory.mktemp("corpus") / "corpus.sqlite"
    corpus = Corpus(path)
    import_path(corpus, cap_volume)
    import_path(corpus, bulk_dir)
    corpus.close()
    return path


@pytest.fixture
def real_corpus(real_corpus_file: Path):
    corpus = Corpus(real_corpus_file)
    yield corpus
    corpus.close()
