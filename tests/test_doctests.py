"""Every docstring example in the package runs (house style: no dead examples): each module of ``citecheck``
and ``citecheck_testing``, found by walking the packages, so a new module's examples run without a list."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import citecheck
import citecheck_testing


def _modules() -> list[str]:
    names = ["citecheck", "citecheck_testing"]
    for package in (citecheck, citecheck_testing):
        for info in pkgutil.walk_packages(package.__path__, f"{package.__name__}."):
            if not info.name.endswith("__main__"):  # running it is its whole point
                names.append(info.name)
    return sorted(names)


MODULES = _modules()


@pytest.mark.parametrize("name", MODULES)
def test_doctests(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS, report=False)
    assert result.failed == 0, (
        f"{name}: {result.failed} of {result.attempted} examples failed (run it with -v)"
    )


def test_the_walk_finds_the_package() -> None:
    assert "citecheck.sources.index.schema" in MODULES and "citecheck.lsp.wiring" in MODULES
    examples = [
        n
        for n in MODULES
        if any(t.examples for t in doctest.DocTestFinder().find(importlib.import_module(n)))
    ]
    assert len(examples) >= 60, examples
