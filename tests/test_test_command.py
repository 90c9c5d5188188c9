"""The test command a newcomer runs (``python -m pytest -q``) says why each skipped test skipped: ``-rs``
is in the configured options and every skip in tests/ carries a reason (issue 26, item 9)."""

from __future__ import annotations

import ast
import shlex
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_skip_reasons_are_printed_by_default() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    options = shlex.split(config["tool"]["pytest"]["ini_options"]["addopts"])
    assert any(o.startswith("-r") and "s" in o[2:] for o in options), options


def _skips_without_reason(tree: ast.AST) -> list[int]:
    """Lines of ``pytest.skip()`` with no message and ``skipif``/``skip`` marks with no ``reason``."""
    bad = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        name = ast.unparse(node.func)
        if (
            name.endswith("pytest.skip")
            and not node.args
            and not any(k.arg == "reason" for k in node.keywords)
        ):
            bad.append(node.lineno)
        if name.endswith(("mark.skipif", "mark.skip")) and not any(k.arg == "reason" for k in node.keywords):
            bad.append(node.lineno)
    return bad


def test_every_skip_says_why() -> None:
    missing = {
        str(path.relative_to(ROOT)): lines
        for path in sorted((ROOT / "tests").rglob("*.py"))
        if (lines := _skips_without_reason(ast.parse(path.read_text(encoding="utf-8"))))
    }
    assert not missing, missing


def test_the_reason_check_can_fail() -> None:
    code = "import pytest\npytest.skip()\n@pytest.mark.skipif(True)\ndef test_x(): pass\n"
    assert _skips_without_reason(ast.parse(code)) == [2, 3]


def test_every_loopback_http_server_of_the_tests_is_quiet() -> None:
    """A plain ``ThreadingHTTPServer`` prints "Exception occurred during processing of request" and a
    traceback among the dots when a client resets; tests, bench and the fakes use ``QuietHTTPServer``."""
    loud = [
        f"{path.relative_to(ROOT)}:{node.lineno}"
        for folder in ("tests", "bench", "server")
        for path in sorted((ROOT / folder).rglob("*.py"))
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.Call)
        and ast.unparse(node.func).endswith(("ThreadingHTTPServer", ".HTTPServer"))
    ]
    assert not loud, loud
