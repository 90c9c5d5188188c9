"""INPUT → documents: folders recursively, globs, files and @lists, each once, absolute, in a stable order."""

from __future__ import annotations

import os

import pytest

from citecheck.batch.documents import expand_inputs
from citecheck.errors import InputError


@pytest.fixture
def tree(tmp_path):
    (tmp_path / "a" / "b").mkdir(parents=True)
    (tmp_path / ".git").mkdir()
    for name in (
        "a/one.md",
        "a/b/two.docx",
        "a/b/three.PDF",
        "a/notes.csv",
        "a/.hidden.md",
        ".git/x.txt",
        "four.txt",
    ):
        (tmp_path / name).write_bytes(b"x")
    return tmp_path


def test_a_folder_is_walked_recursively_in_sorted_order_skipping_other_and_hidden_files(tree) -> None:
    got = expand_inputs([str(tree)])
    assert got == [str(tree / p) for p in ("four.txt", "a/one.md", "a/b/three.PDF", "a/b/two.docx")]


def test_globs_files_and_lists_each_document_once(tree, monkeypatch) -> None:
    listing = tree / "list.txt"
    listing.write_text(f"# the filings\n\na/one.md\n{tree / 'four.txt'}\nmissing.md\n")
    monkeypatch.chdir(tree)
    got = expand_inputs(["a/*.md", "four.txt", f"@{listing}", "a/one.md"])
    assert got == [str(tree / "a/one.md"), str(tree / "four.txt"), str(tree / "missing.md")]
    assert all(os.path.isabs(p) for p in got)


def test_a_named_file_is_taken_whatever_its_suffix(tree) -> None:
    assert expand_inputs([str(tree / "a/notes.csv")]) == [str(tree / "a/notes.csv")]


@pytest.mark.parametrize("item", ["nowhere/", "*.nothing", "@absent-list.txt"])
def test_an_input_naming_nothing_is_one_clear_error(tmp_path, monkeypatch, item) -> None:
    monkeypatch.chdir(tmp_path)
    with pytest.raises(InputError) as err:
        expand_inputs([item])
    assert item.lstrip("@").rstrip("/") in str(err.value)
