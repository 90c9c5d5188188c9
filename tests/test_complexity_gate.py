"""The complexity gate of .ci/run (``.ci/complexity.py``) counts boolean operators, which ruff's C90 does not,
and holds the package to its limits."""

from __future__ import annotations

import importlib.util
from pathlib import Path

from citecheck_testing import REPO_ROOT


def _gate():  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location("complexity_gate", REPO_ROOT / ".ci" / "complexity.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_boolean_operators_count(tmp_path: Path) -> None:
    (tmp_path / "m.py").write_text(
        "def plain(a, b):\n    if a:\n        return b\n    return a\n\n"
        "def chained(a, b, c):\n    if a and b or c:\n        return b\n    return a\n"
    )
    found = dict((name.split(":")[1], cc) for cc, name in _gate().functions(tmp_path))
    assert found == {"plain": 2, "chained": 4}


def test_the_package_is_within_the_limits() -> None:
    assert _gate().main([]) == 0
