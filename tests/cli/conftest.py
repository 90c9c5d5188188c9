"""Run ``citecheck.cli.main`` in-process against a private corpus/cache, from the repository root."""

from __future__ import annotations

import io
import os
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from citecheck_testing import REPO_ROOT, shared_corpus_path


@dataclass
class CliResult:
    rc: int
    out: str
    err: str


@pytest.fixture
def cli_home(tmp_path, monkeypatch) -> Path:
    """A fresh machine: no corpus, no cache, no token, no config beyond an empty file; cwd = repo root;
    no reachable network service."""
    for key in list(os.environ):
        if key.startswith("CITECHECK_"):
            monkeypatch.delenv(key)
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("CITECHECK_CORPUS_PATH", str(home / "corpus.sqlite"))
    monkeypatch.setenv("CITECHECK_CACHE_PATH", str(home / "cache.sqlite"))
    monkeypatch.setenv("CITECHECK_INDEX_PATH", str(home / "index.sqlite"))  # none unless a test builds one
    (home / "citecheck.toml").write_text("# empty: defaults\n")
    monkeypatch.setenv("CITECHECK_CONFIG", str(home / "citecheck.toml"))
    # runs without --offline must still never leave this machine: point every service at a closed port
    monkeypatch.setenv("CITECHECK_CAP_URL", "http://127.0.0.1:9/")
    monkeypatch.setenv("CITECHECK_COURTLISTENER_URL", "http://127.0.0.1:9/api/rest/v4/")
    monkeypatch.chdir(REPO_ROOT)
    return home


@pytest.fixture
def run_cli(cli_home, capsys, monkeypatch) -> Callable[..., CliResult]:
    from citecheck.cli import main

    def run(*argv: str, stdin: bytes | None = None) -> CliResult:
        if stdin is not None:
            monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(stdin)))
        capsys.readouterr()
        rc = main(list(argv))
        captured = capsys.readouterr()
        return CliResult(rc=rc, out=captured.out, err=captured.err)

    return run


@pytest.fixture
def imported_corpus(cli_home) -> Path:
    """The shared CAP fixture volume and CourtListener bulk sample, imported into this test's corpus."""
    from citecheck.sources.corpus import Corpus
    from citecheck.sources.importing import import_path

    cap = shared_corpus_path("cap-static")
    bulk = shared_corpus_path("courtlistener-bulk")
    corpus = Corpus(cli_home / "corpus.sqlite")
    try:
        import_path(corpus, cap)
        import_path(corpus, bulk)
    finally:
        close = getattr(corpus, "close", None)
        if close:
            close()
    return cli_home / "corpus.sqlite"
