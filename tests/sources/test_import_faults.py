"""Storage faults during an import: a full disk and a second import at the same time each say what
happened and what to do, and leave the corpus as it was before the failed import."""

from __future__ import annotations

import shutil
import sqlite3
from contextlib import closing
from pathlib import Path

import pytest

from citecheck.errors import CorpusError
from citecheck.sources.corpus import Corpus
from citecheck.sources.importing import import_path
from citecheck_testing import shared_corpus_path


def _count(path: Path) -> int:
    with closing(sqlite3.connect(path)) as db:  # closed: an open connection keeps the -wal file
        return db.execute("SELECT COUNT(*) FROM cases").fetchone()[0]


@pytest.mark.parametrize("fmt", ["cap-static", "courtlistener-bulk"])
def test_a_full_disk_is_reported_as_such_and_nothing_half_written(tmp_path: Path, fmt: str) -> None:
    source = shared_corpus_path(fmt)
    path = tmp_path / "corpus.sqlite"
    corpus = Corpus(path)
    before = _count(path)
    pages = corpus.connection.execute("PRAGMA page_count").fetchone()[0]
    corpus.connection.execute(f"PRAGMA max_page_count = {pages + 3}")  # SQLite's own 'disk full'
    with pytest.raises(CorpusError) as err:
        import_path(corpus, source)
    corpus.close()
    message = str(err.value)
    assert "full" in message and "no transaction" not in message
    assert "free" in message.lower()  # what to do
    assert _count(path) == before  # rolled back: no half-imported volume


def test_a_second_import_at_once_says_another_is_running(tmp_path: Path) -> None:
    source = shared_corpus_path("cap-static")
    path = tmp_path / "corpus.sqlite"
    Corpus(path).close()
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")  # another process is mid-import
    try:
        with pytest.raises(CorpusError) as err:  # at opening (schema check) or at the first write
            corpus = Corpus(path, busy_timeout_s=0.3)
            try:
                import_path(corpus, source)
            finally:
                corpus.close()
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    message = str(err.value)
    assert "another" in message and "again" in message and "database is locked" not in message


@pytest.mark.parametrize("fmt", ["cap-static", "courtlistener-bulk"])
def test_an_import_the_disk_cannot_merge_is_rolled_back_and_leaves_no_wal_file(
    tmp_path: Path, fmt: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A disk with room for SQLite's log but not for merging it into the corpus: the import used to
    commit into ``corpus.sqlite-wal``, which then stayed beside the corpus for good. Now it is refused
    before it commits, rolled back, and closing the corpus removes the log. (The full disk is
    simulated: ``shutil.disk_usage`` reports 1 MB free.)"""
    source = shared_corpus_path(fmt)
    path = tmp_path / "corpus.sqlite"
    corpus = Corpus(path)
    before = _count(path)
    real = shutil.disk_usage
    monkeypatch.setattr(shutil, "disk_usage", lambda p: real(p)._replace(free=1024 * 1024))
    with pytest.raises(CorpusError) as err:
        import_path(corpus, source)
    corpus.close()
    assert "full" in str(err.value) and "free" in str(err.value).lower()
    assert _count(path) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["corpus.sqlite"]  # no -wal, no -shm


def test_closing_after_an_import_leaves_only_the_corpus_file(tmp_path: Path) -> None:
    path = tmp_path / "corpus.sqlite"
    corpus = Corpus(path)
    import_path(corpus, shared_corpus_path("cap-static"))
    corpus.close()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["corpus.sqlite"] and _count(path) > 0
