"""The docstring examples of the checks, the pipeline and the evaluation run (house style: no dead examples)."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = [
    "citecheck.reporters",
    "citecheck.checks.names",
    "citecheck.checks.quote_match",
    "citecheck.checks.quotes",
    "citecheck.checks.parenthetical",
    "citecheck.evaluation.scoring",
    "citecheck_testing",
    "citecheck.checks.statute_sections",
    "citecheck.sources.statutes.records",
    "citecheck.lsp.features.hover",
    "citecheck.sources.index.coverage",
    "citecheck.sources.cap_ranges",
    "citecheck.sources.name_keys",
]


@pytest.mark.parametrize("name", MODULES)
def test_doctests(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
    assert result.attempted > 0
