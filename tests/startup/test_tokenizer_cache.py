"""The tokenizer's table in its cache file: read when it is this eyecite's, rebuilt silently when it is
missing, corrupt, another version's or cannot be written; a process that finds it never imports eyecite."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from citecheck.extract import tokenizer as tok
from citecheck.startup import tokenizer_cache


@pytest.fixture(scope="module")
def table() -> tok.TokenTable:
    return tok.build_table(tokenizer_cache.installed_key())


def test_the_table_reads_back_as_written(table) -> None:
    again = tok.TokenTable.from_bytes(table.to_bytes())
    assert again == table
    assert len(again) == len(table) > 6_000
    assert again.extractor(0).regex == table.regexes[0]


def test_a_cached_table_is_read_not_built(tmp_path, table, monkeypatch) -> None:
    path = tmp_path / "t.table"
    path.write_bytes(table.to_bytes())

    def no_build(key: str = "") -> tok.TokenTable:
        raise AssertionError("built although the file holds this eyecite's table")

    monkeypatch.setattr(tokenizer_cache, "build_table", no_build)
    assert tokenizer_cache.load_or_build(path) == table


@pytest.mark.parametrize(
    "spoil",
    [
        lambda data: b"",  # empty
        lambda data: data[: len(data) // 2],  # cut short (a full disk, a killed writer)
        lambda data: data.replace(
            b"(?P<volume>", b"(?P<volumX>", 1
        ),  # a regex altered: the digest no longer matches
        lambda data: b"\x00\xff" * 100,  # not text
        lambda data: data.replace(b"citecheck-tokenizer %d" % tok.FORMAT, b"citecheck-tokenizer 999", 1),
        lambda data: b"citecheck-tokenizer %d " % tok.FORMAT + b"0" * 32 + b"\n{}",  # right header, no table
    ],
    ids=["empty", "truncated", "altered", "binary", "other-format", "no-table"],
)
def test_a_corrupt_cache_is_rebuilt_silently(tmp_path, table, spoil, caplog) -> None:
    path = tmp_path / "t.table"
    spoiled = spoil(table.to_bytes())
    assert spoiled != table.to_bytes()
    path.write_bytes(spoiled)
    with caplog.at_level("WARNING"):
        got = tokenizer_cache.load_or_build(path)
    assert got == table
    assert tok.TokenTable.from_bytes(path.read_bytes()) == table  # written again, whole
    assert not caplog.records  # silently: derived data


def test_a_table_of_another_eyecite_is_rebuilt(tmp_path, table) -> None:
    path = tmp_path / "t.table"
    stale = tok.TokenTable(**{**table.__dict__, "key": "another eyecite"})
    path.write_bytes(stale.to_bytes())
    assert tokenizer_cache.load_or_build(path).key == tokenizer_cache.installed_key()
    assert tok.TokenTable.from_bytes(path.read_bytes()).key == tokenizer_cache.installed_key()


def test_a_folder_that_cannot_be_written_only_costs_the_build(tmp_path, table) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    assert tokenizer_cache.load_or_build(blocker / "t.table") == table


def test_the_key_changes_when_eyecite_changes(tmp_path, monkeypatch) -> None:
    """An upgrade rewrites the package's files: their sizes and times are the key."""
    fake = tmp_path / "fake_eyecite_for_key"
    (fake / "data").mkdir(parents=True)
    (fake / "__init__.py").write_text("")
    (fake / "tokenizers.py").write_text("# one\n")
    (fake / "data" / "reporters.json").write_text("{}")
    monkeypatch.syspath_prepend(str(tmp_path))
    packages = ("fake_eyecite_for_key",)
    before = tokenizer_cache.installed_key(packages)
    assert tokenizer_cache.installed_key(packages) == before
    (fake / "tokenizers.py").write_text("# another version\n")
    assert tokenizer_cache.installed_key(packages) != before
    again = tokenizer_cache.installed_key(packages)
    (fake / "data" / "reporters.json").write_text('{"x": 1}')
    assert tokenizer_cache.installed_key(packages) != again
    assert tokenizer_cache.installed_key(("no_such_package_here",)) != before


def test_a_check_with_the_table_cached_never_imports_eyecite(tmp_path) -> None:
    """The point of the cache: the second process tokenizes from the file (the first one builds it)."""
    doc = tmp_path / "one.txt"
    doc.write_text("See Roe v. Wade, 410 U.S. 113, 120 (1973).\n", encoding="utf-8")
    env = {
        **os.environ,
        "XDG_CACHE_HOME": str(tmp_path / "cache"),
        "XDG_DATA_HOME": str(tmp_path / "data"),
        "XDG_CONFIG_HOME": str(tmp_path / "config"),
    }
    probe = (
        "import sys, json\n"
        "from citecheck.cli import main\n"
        "code = main(['check', '--offline', '--format', 'json', sys.argv[1]])\n"
        "print(json.dumps({'eyecite': 'eyecite' in sys.modules, 'code': code}), file=sys.stderr)\n"
    )
    runs = []
    for _ in range(2):
        out = subprocess.run(
            [sys.executable, "-c", probe, str(doc)], env=env, capture_output=True, text=True, timeout=300
        )
        runs.append((json.loads(out.stderr.strip().splitlines()[-1]), json.loads(out.stdout)))
    (first, report1), (second, report2) = runs
    assert first == {"eyecite": True, "code": 0}  # built from eyecite, and written
    assert second == {"eyecite": False, "code": 0}  # read from the file
    assert report1 == report2
    assert report1["summary"]["citations"] == 1
    assert list((tmp_path / "cache" / "citecheck").glob("tokenizer-*.table"))
    assert Path(tokenizer_cache.default_path()).name.startswith("tokenizer-")
