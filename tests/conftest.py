"""Shared fixtures: where the real corpus lives, and a skip when it is absent."""

from __future__ import annotations

from pathlib import Path

import pytest

from citecheck_testing import shared_corpus_path


@pytest.fixture
def shared_corpus() -> Path:
    return shared_corpus_path()
