"""The core (extract, checks, findings, spans, results, visible, ignores, judge) does no I/O and knows
no protocol: a module there that imports a database, a network client, asyncio or the language
server fails this test. The edges (sources, lsp, cli, inputs, ignores/file.py, gather, pipeline) may.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

import citecheck

PACKAGE = Path(citecheck.__file__).parent
CORE = [
    "extract",
    "checks",
    "findings.py",
    "spans.py",
    "results.py",
    "visible.py",
    "ignores/__init__.py",
    "judge.py",
    "treatment",
]

#: Modules the core may not import, directly or inside a function.
FORBIDDEN = (
    "sqlite3",
    "aiosqlite",
    "httpx",
    "socket",
    "asyncio",
    "subprocess",
    "urllib.request",
    "http",
    "pygls",
    "lsprotocol",
    "citecheck.lsp",
    "citecheck.cli",
    "citecheck.inputs",
    "citecheck.ignores.file",
    "citecheck.gather",
    "citecheck.pipeline",
    "citecheck.config.files",
    "citecheck.privacy.offline",
    "citecheck.report",
    "citecheck.sources.corpus",
    "citecheck.sources.cache",
    "citecheck.sources.chain",
    "citecheck.sources.courtlistener",
    "citecheck.sources.cap_fetch",
    "citecheck.sources.corpus_server",
)


def _core_files() -> list[Path]:
    out: list[Path] = []
    for part in CORE:
        path = PACKAGE / part
        out.extend(sorted(path.rglob("*.py")) if path.is_dir() else [path])
    return out


def _imports(path: Path) -> list[str]:
    names: list[str] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.extend(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.append(node.module)
    return names


def _forbidden(name: str) -> bool:
    return any(name == f or name.startswith(f + ".") for f in FORBIDDEN)


@pytest.mark.parametrize("path", _core_files(), ids=lambda p: str(p.relative_to(PACKAGE)))
def test_core_module_imports_no_io_or_protocol(path: Path) -> None:
    bad = [n for n in _imports(path) if _forbidden(n)]
    assert not bad, f"{path.relative_to(PACKAGE)} imports {bad}: the core must stay pure"


def test_the_rule_catches_an_offender() -> None:
    assert _forbidden("sqlite3") and _forbidden("citecheck.lsp.server") and _forbidden("http.client")
    assert not _forbidden("citecheck.sources.models") and not _forbidden("json") and not _forbidden("httpxy")


def test_importing_the_core_loads_no_io_module() -> None:
    code = (
        "import sys\n"
        "import citecheck.judge, citecheck.visible, citecheck.results, citecheck.ignores\n"
        "import citecheck.checks, citecheck.extract, citecheck.findings, citecheck.spans\n"
        f"bad = [m for m in {FORBIDDEN!r} if m in sys.modules]\n"
        "print(bad)\n"
        "sys.exit(1 if bad else 0)\n"
    )
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, f"the core pulled in {r.stdout.strip()} {r.stderr[-500:]}"
