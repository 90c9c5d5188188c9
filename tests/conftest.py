"""Shared fixtures: where the real corpus lives, and a skip when it is absent."""

from __future__ import annotations

from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parents[1]
SHARED_CORPUS = (REPO_ROOT / ".." / "shared" / "corpus").resolve()


def shared_corpus_path(*parts: str) -> Path:
    """Path inside ../shared/corpus; the test is skipped with a clear reason when it is absent."""
    path = SHARED_CORPUS.joinpath(*parts)
    if not path.exists():
        pytest.skip(f"real corpus not available at {path} (expected ../shared/corpus beside the checkout)")
    return path


@pytest.fixture
def shared_corpus() -> Path:
    return shared_corpus_path()
