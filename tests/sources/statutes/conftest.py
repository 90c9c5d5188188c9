"""Small U.S. Code and C.F.R. titles in the real formats (written here), and an index built from them."""

from __future__ import annotations

from pathlib import Path

import pytest

from citecheck_testing.statutes import (  # noqa: F401  (the tests import the samples from here)
    S1983,
    TITLE_17_CFR,
    TITLE_42,
    VERSIONS_17,
    build_sample_index,
    ecfr_title,
    uslm_title,
)


@pytest.fixture()
def usc42() -> bytes:
    return uslm_title("42", TITLE_42, chapter_size=3)


@pytest.fixture()
def cfr17() -> bytes:
    return ecfr_title("17", TITLE_17_CFR)


@pytest.fixture()
def index_file(tmp_path: Path) -> Path:
    return build_sample_index(tmp_path)
