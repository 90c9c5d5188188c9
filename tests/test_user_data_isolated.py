"""The tests never read the data folder of whoever runs them (README: ``python -m pytest -q`` on a
machine where ``citecheck corpus sync`` already built an index must behave as on a fresh one)."""

from __future__ import annotations

from pathlib import Path

from citecheck.config import default_corpus_path, default_index_path, default_statutes_path


def test_default_data_files_are_not_the_users(tmp_path_factory) -> None:
    base = Path(tmp_path_factory.getbasetemp())
    for path in (default_corpus_path(), default_index_path(), default_statutes_path()):
        assert base in path.parents, path
