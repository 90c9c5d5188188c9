"""Helpers shared by tests/ and bench/: where the real corpus lives (never shipped, never copied)."""

from __future__ import annotations

from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[2]
SHARED_CORPUS = (REPO_ROOT / ".." / "shared" / "corpus").resolve()


def shared_corpus_path(*parts: str) -> Path:
    """Path inside ../shared/corpus; skips the calling test with a clear reason when absent."""
    path = SHARED_CORPUS.joinpath(*parts)
    if not path.exists():
        import pytest

        pytest.skip(f"real corpus not available at {path} (expected ../shared/corpus beside the checkout)")
    return path
