"""Every benchmark of issue 40's table runs, on a tiny input, and prints its figure's row: a benchmark
nobody runs rots (a renamed function, a changed output). Not timed: each run asserts only that the
command worked and said what it measures. docs/performance.md gives each one's full command."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from citecheck_testing import shared_corpus_path

ROOT = Path(__file__).resolve().parents[2]


def _bench(tmp_path: Path, *args: str, timeout: int = 600) -> str:
    env = {k: v for k, v in os.environ.items() if not k.startswith("CITECHECK_")}
    for xdg in ("XDG_CONFIG_HOME", "XDG_DATA_HOME"):
        env[xdg] = str(tmp_path / xdg.lower())
    out = subprocess.run(
        [sys.executable, str(ROOT / "bench" / args[0]), *args[1:]],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    assert out.returncode == 0, out.stdout[-3000:] + out.stderr[-3000:]
    return out.stdout


def test_startup(tmp_path) -> None:
    out = _bench(tmp_path, "startup.py", "--runs", "1")
    assert "wall median" in out and "CPU median" in out and "load average" in out


def test_lsp_open(tmp_path) -> None:
    out = _bench(tmp_path, "lsp_open.py", "--runs", "1")
    assert "start → first error published" in out
    out = _bench(tmp_path, "lsp_open.py", "--runs", "1", "--open-after", "0.5")
    assert "didOpen → first error" in out


def test_cli_huge_document_rows(tmp_path) -> None:
    shared_corpus_path("courtlistener-bulk", "opinions.csv")
    shared_corpus_path("citations", "legalcitebench-cases-A.jsonl")
    out = _bench(tmp_path, "cli.py", "--chars", "20000", "--runs", "0", "--formats", "json,text,html")
    for fmt in ("json", "text", "html"):
        assert f"--format {fmt}, cold cache: wall" in out, out
    assert "peak RSS" in out


def test_extraction_against_eyecite(tmp_path) -> None:
    shared_corpus_path("courtlistener-bulk", "opinions.csv")
    shared_corpus_path("citations", "legalcitebench-cases-A.jsonl")
    out = _bench(tmp_path, "extract_vs_eyecite.py", "--words", "600", "--rounds", "1")
    assert "citecheck" in out and "eyecite" in out and "x; citations found" in out


def test_index(tmp_path) -> None:
    names = tmp_path / "names.json"
    out = _bench(
        tmp_path,
        "index.py",
        "--scale",
        "0.0002",
        "--no-bz2",
        "--dir",
        str(tmp_path / "index"),
        "--names-to",
        str(names),
        timeout=900,
    )
    for row in (
        "lookup found",
        "lookup not found, complete volume",
        "name search: wall p50",
        "50-citation brief",
    ):
        assert row in out, row
    # the name search's answers written and compared (an A/B's equality check; here one version twice)
    index = str(tmp_path / "index" / "index.sqlite")
    hits = tmp_path / "hits.json"
    out = _bench(tmp_path, "name_hits.py", "--index", index, "--names-from", str(names), "--to", str(hits))
    assert "searches written" in out
    out = _bench(
        tmp_path, "name_hits.py", "--index", index, "--names-from", str(names), "--compare", str(hits)
    )
    assert ": 0 differ" in out, out
    answers = json.loads(hits.read_text())
    assert sum(bool(a["hits"]) for a in answers) > len(answers) // 2  # the searches found cases
