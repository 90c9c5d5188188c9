"""Every dump CourtListener has published, and no broken one (issue 32 item 3).

The files of ``dumps/`` were written by a real PostgreSQL ``COPY`` with the options of
``scripts/make_bulk_data.sh`` in each of its eras (``dumps/make_dumps.py``; rows from
``citecheck_testing.dump_dialects``): the default CSV, doubled quotes, backtick quotes, backslash escapes
(with and without the citation dates), one cut mid-row and one with an empty courts file.
"""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

import pytest

from citecheck.errors import ImportFormatError
from citecheck.sources.index.build import build_from_folder
from citecheck.sources.index.lookup import CitationIndex
from citecheck.sources.index.rows import TruncatedFile, sniff
from citecheck.sources.models import CiteKey
from citecheck_testing.dump_dialects import DIALECTS, GAP_CASES, REAL_CASES, fixture_tables, write_dump

DUMPS = Path(__file__).parent / "dumps"
#: the reader each era's files are read with
READ_AS = {"default": "default", "doubled": "doubled", "backtick": "backtick", "backslash-nodates": "backslash",
           "backslash": "backslash"}  # fmt: skip


def _copy(name: str, tmp: Path) -> Path:
    dest = tmp / name
    shutil.copytree(DUMPS / name, dest)
    return dest


def _every_citation(ix: CitationIndex) -> dict[str, str | None]:
    """Each fixture citation → the name the index gives it (None: not found)."""
    keys = {CiteKey(v, r, p): case.name for case in REAL_CASES + GAP_CASES for v, r, p, _ in case.cites}
    found = ix.lookup(list(keys))
    out: dict[str, str | None] = {}
    for key, name in keys.items():
        res = found[key]
        names = [rec.name for rec in res.records]
        out[str(key)] = name if name in names else None
    return out


@pytest.mark.parametrize("dialect", list(DIALECTS))
def test_every_dialect_imports_every_case(dialect: str, tmp_path: Path) -> None:
    folder = _copy(dialect, tmp_path)
    stats = build_from_folder(tmp_path / "ix.sqlite", folder, full_dump=True)
    assert stats.dialect == READ_AS[dialect]
    assert stats.refused == {}
    assert stats.cases == len(REAL_CASES + GAP_CASES)
    assert stats.citations == sum(len(c.cites) for c in REAL_CASES + GAP_CASES)
    ix = CitationIndex(tmp_path / "ix.sqlite")
    try:
        missing = {k: v for k, v in _every_citation(ix).items() if v is None}
        assert missing == {}
        # the values with a quote, a backslash and a backtick came through whole
        (agent,) = ix.lookup([CiteKey("818", "F.2d", "145")]).values()
        assert (
            agent.record is not None
            and agent.record.name == 'In re "Agent Orange" Product Liability Litigation'
        )
        assert agent.record.court_id == "ca2" and agent.record.docket_number == "Nos. 84-6273"
        (asay,) = ix.lookup([CiteKey("210", "So. 3d", "1")]).values()
        assert asay.record is not None and asay.record.name.startswith("Mark James ASAY, Appellant, v. STATE")
    finally:
        ix.close()


@pytest.mark.parametrize("dialect", list(DIALECTS))
def test_the_python_writer_writes_what_postgresql_wrote(dialect: str, tmp_path: Path) -> None:
    """So tests can write the shared corpus's real rows in every dialect without a PostgreSQL."""
    paths = write_dump(tmp_path, fixture_tables(), DIALECTS[dialect])
    for path in paths.values():
        assert path.read_bytes() == (DUMPS / dialect / path.name).read_bytes(), path.name


@pytest.mark.parametrize("dialect", list(DIALECTS))
def test_each_file_says_its_dialect(dialect: str) -> None:
    clusters = next((DUMPS / dialect).glob("opinion-clusters-*"))
    name, decisive = sniff(clusters)
    assert decisive and name == READ_AS[dialect]
    citations = next((DUMPS / dialect).glob("citations-*"))
    # no quote inside any citation value: the citations file alone cannot tell doubled from backslash
    assert sniff(citations)[0] in (READ_AS[dialect], "backslash", "doubled")


def test_read_in_the_wrong_dialect_the_values_are_garbled(tmp_path: Path) -> None:
    """What the issue found: a doubled-quote dump read as backslash-escaped 'succeeds' while its values
    (and, where a quoted newline follows, its rows) come apart. The dialect is now the file's; forcing the
    wrong one shows what that prevents."""
    from citecheck.sources.index.rows import BulkReader

    path = next((DUMPS / "doubled").glob("opinion-clusters-*"))
    agent = 'In re "Agent Orange" Product Liability Litigation'
    names = {}
    for dialect in ("backslash", "doubled"):
        with BulkReader(path, "opinion-clusters", dialect=dialect) as reader:
            names[dialect] = {row[2] for row in reader.rows()}
    assert agent in names["doubled"] and agent not in names["backslash"]
    assert len(names["doubled"]) == len(REAL_CASES + GAP_CASES)


def _old_index(tmp_path: Path) -> Path:
    index = tmp_path / "ix.sqlite"
    build_from_folder(index, _copy("backslash-nodates", tmp_path), full_dump=True)
    return index


def test_a_dump_cut_mid_row_is_refused_and_the_old_index_answers(tmp_path: Path) -> None:
    index = _old_index(tmp_path)
    before = index.stat().st_mtime_ns
    with pytest.raises(TruncatedFile, match="the dump was cut short"):
        build_from_folder(index, _copy("truncated", tmp_path), full_dump=True)
    assert index.stat().st_mtime_ns == before and not index.with_name("ix.sqlite.new").exists()
    ix = CitationIndex(index)
    try:
        assert ix.dump_date == "2025-06-30"
        assert all(v is not None for v in _every_citation(ix).values())
    finally:
        ix.close()
    # a fresh build from it is refused too (nothing half-read becomes an index)
    with pytest.raises(TruncatedFile):
        build_from_folder(tmp_path / "fresh.sqlite", tmp_path / "truncated", full_dump=True)
    assert not (tmp_path / "fresh.sqlite").exists()


@pytest.mark.parametrize("dialect", ["default", "backtick", "backslash"])
def test_a_file_cut_between_values_is_refused_too(dialect: str, tmp_path: Path) -> None:
    """Cut outside a quoted value (no final newline: PostgreSQL ends every row with one)."""
    folder = _copy(dialect, tmp_path)
    path = next(folder.glob("opinion-clusters-*"))
    data = path.read_bytes()
    path.write_bytes(data[: data.rindex(b",", 0, len(data) - 2)])
    with pytest.raises(TruncatedFile, match="ends in the middle of row"):
        build_from_folder(tmp_path / "ix.sqlite", folder, full_dump=True)
    assert not (tmp_path / "ix.sqlite").exists()


def test_a_dump_cut_at_a_row_boundary_is_refused_by_its_row_count(tmp_path: Path) -> None:
    index = _old_index(tmp_path)
    folder = _copy("backslash", tmp_path)
    path = next(folder.glob("citations-*"))
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    path.write_text("".join(lines[: len(lines) // 2]), encoding="utf-8")  # well-formed, half the rows
    with pytest.raises(ImportFormatError, match="looks cut short"):
        build_from_folder(index, folder, full_dump=True)
    assert CitationIndex(index).dump_date == "2025-06-30"
    stats = build_from_folder(index, folder, full_dump=True, rebuild=True)  # the user's word: it is smaller
    assert stats.citations == len(lines) // 2 - 1


def test_an_empty_courts_file_keeps_the_previous_indexs_courts(tmp_path: Path) -> None:
    index = _old_index(tmp_path)
    stats = build_from_folder(index, _copy("empty-courts", tmp_path), full_dump=True)
    assert any("is empty" in n and "kept the 9 courts" in n for n in stats.notes)
    db = sqlite3.connect(index)
    try:
        assert db.execute("SELECT name FROM courts WHERE id = 'ca2'").fetchone() == (
            "Court of Appeals for the Second Circuit",
        )
    finally:
        db.close()
    fresh = build_from_folder(tmp_path / "fresh.sqlite", tmp_path / "empty-courts", full_dump=True)
    assert any("no court names" in n for n in fresh.notes) and fresh.cases == len(REAL_CASES + GAP_CASES)


def test_an_empty_citations_file_is_refused(tmp_path: Path) -> None:
    index = _old_index(tmp_path)
    folder = _copy("backslash", tmp_path)
    path = next(folder.glob("citations-*"))
    path.write_text(path.read_text(encoding="utf-8").split("\n", 1)[0] + "\n", encoding="utf-8")
    with pytest.raises(ImportFormatError, match="no citations"):
        build_from_folder(index, folder, full_dump=True)
    assert CitationIndex(index).dump_date == "2025-06-30"


@pytest.mark.parametrize(("older", "newer"), [("default", "doubled"), ("backtick", "backslash-nodates"),
                                              ("backslash-nodates", "backslash")])  # fmt: skip
def test_an_update_across_dialects_equals_a_fresh_build(older: str, newer: str, tmp_path: Path) -> None:
    """Citations without dates (before 2025-11-20) count as changed: the update still equals a fresh build."""
    from tests.sources.index.test_build import tables

    index = tmp_path / "ix.sqlite"
    build_from_folder(index, _copy(older, tmp_path), full_dump=True)
    stats = build_from_folder(index, _copy(newer, tmp_path), full_dump=True)
    assert stats.mode == "update" and stats.dialect == READ_AS[newer]
    build_from_folder(tmp_path / "fresh.sqlite", tmp_path / newer, full_dump=True)
    assert tables(index) == tables(tmp_path / "fresh.sqlite")
