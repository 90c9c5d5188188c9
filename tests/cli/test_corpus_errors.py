"""A corpus the user named that cannot be used is an input error (exit 2, one line), never a run that
quietly loses every corpus finding; a mistyped path never creates an empty corpus; checks open the
corpus read-only."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

EXAMPLE = "examples/brief.md"


def _one_error_line(err: str) -> str:
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1, err
    assert "Traceback" not in err
    return lines[0]


@pytest.mark.parametrize("offline", [True, False])
def test_a_mistyped_corpus_is_an_error_and_is_not_created(run_cli, tmp_path: Path, offline: bool) -> None:
    missing = tmp_path / "corpsu.sqlite"
    r = run_cli("check", *(["--offline"] if offline else []), "--corpus", str(missing), EXAMPLE)
    assert r.rc == 2
    assert str(missing) in _one_error_line(r.err)
    assert not missing.exists()


def test_a_corrupt_corpus_is_an_error(run_cli, tmp_path: Path) -> None:
    bad = tmp_path / "corpus.sqlite"
    bad.write_bytes(b"SQLite format 3\x00" + b"\xff" * 5000)
    r = run_cli("check", "--offline", "--corpus", str(bad), EXAMPLE)
    assert r.rc == 2
    assert "corpus" in _one_error_line(r.err)


def test_a_database_that_is_not_a_corpus_is_an_error_and_untouched(run_cli, tmp_path: Path) -> None:
    other = tmp_path / "cache.sqlite"
    with sqlite3.connect(other) as db:
        db.execute("CREATE TABLE lookups (key TEXT PRIMARY KEY, result TEXT)")
    for offline in ([], ["--offline"]):
        r = run_cli("check", *offline, "--corpus", str(other), EXAMPLE)
        assert r.rc == 2
        assert "not a citecheck corpus" in _one_error_line(r.err)
    with sqlite3.connect(other) as db:  # no tables of ours were added to someone else's database
        assert {t for (t,) in db.execute("SELECT name FROM sqlite_master WHERE type='table'")} == {"lookups"}


@pytest.mark.corpus
def test_checks_open_the_corpus_read_only(run_cli, imported_corpus: Path, monkeypatch) -> None:
    from citecheck.sources import corpus as corpus_module

    opened: list[bool] = []
    real_init = corpus_module.Corpus.__init__

    def spy(self, path, *, readonly: bool = False) -> None:
        opened.append(readonly)
        real_init(self, path, readonly=readonly)

    monkeypatch.setattr(corpus_module.Corpus, "__init__", spy)
    r = run_cli("check", "--offline", "--format", "json", EXAMPLE)
    assert r.rc in (0, 1) and '"verified"' in r.out  # the corpus was really used
    assert opened and all(opened)


def test_open_for_check_falls_back_to_read_only_without_write_access(tmp_path: Path) -> None:
    """A corpus in a folder we cannot write is used read-only (immutable when WAL cannot be shared)."""
    import os

    from citecheck.sources.corpus import Corpus, open_for_check

    path = tmp_path / "ro" / "corpus.sqlite"
    Corpus(path).close()
    os.chmod(path, 0o444)
    os.chmod(path.parent, 0o555)
    try:
        corpus, why = open_for_check(path, named=True, writable=False)
        assert corpus is not None and why is not None
        corpus.close()
        if os.geteuid() != 0:  # root ignores permissions: the fallback itself cannot be provoked
            corpus, why = open_for_check(path, named=True, writable=True)
            assert corpus is not None and why and "read-only" in why
            corpus.close()
    finally:
        os.chmod(path.parent, 0o755)
        os.chmod(path, 0o644)
