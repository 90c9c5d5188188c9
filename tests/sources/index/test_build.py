"""Building the index from bulk files in CourtListener's real format: what is kept, what is refused, what a
broken input does (a clear error, the old index untouched), updates, and the two ways to build alike."""

from __future__ import annotations

import bz2
import sqlite3
from pathlib import Path

import pytest

from citecheck.errors import CorpusError, DiskSpaceError, ImportFormatError, SyncBusy
from citecheck.sources.index import build as build_mod
from citecheck.sources.index.build import BuildLock, build_from_folder
from citecheck.sources.models import LookupStatus
from citecheck_testing.bulk_dump import (
    HEADERS,
    STAMP,
    Case,
    closed_volume_cases,
    copy_line,
    index_status,
    write_dump,
)


def tables(path: Path) -> dict[str, list[tuple]]:
    """Every row the index holds (order-free), to compare two builds."""
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        out = {
            t: sorted(db.execute(f"SELECT * FROM {t}").fetchall(), key=repr)
            for t in ("cites", "volumes", "reporters", "near")
        }
        # court numbers depend on which lane's rows came first: compare the courts' ids
        out["cases"] = sorted(
            db.execute(
                "SELECT k.id, k.docket, k.date_filed, k.status, k.cited, c.id, k.number, k.name, k.short, k.full,"
                " k.cites FROM cases k LEFT JOIN courts c ON c.idx = k.court"
            ).fetchall(),
            key=repr,
        )
        out["courts"] = sorted(db.execute("SELECT id, name FROM courts").fetchall())
        out["names"] = sorted(
            db.execute("SELECT rowid FROM names WHERE names MATCH 'johnson OR peyton'").fetchall()
        )
        return out
    finally:
        db.close()


def test_bz2_and_plain_files_build_the_same_index(tmp_path: Path) -> None:
    write_dump(tmp_path / "plain", closed_volume_cases(), unreferenced_dockets=30)
    write_dump(tmp_path / "bz2", closed_volume_cases(), unreferenced_dockets=30, compress=True)
    a = build_from_folder(tmp_path / "a.sqlite", tmp_path / "plain", full_dump=True)
    b = build_from_folder(tmp_path / "b.sqlite", tmp_path / "bz2", full_dump=True)
    assert (
        (a.cases, a.citations, a.complete_volumes)
        == (b.cases, b.citations, b.complete_volumes)
        == (13, 16, 2)
    )
    assert tables(tmp_path / "a.sqlite") == tables(tmp_path / "b.sqlite")


def test_worker_processes_build_what_one_process_builds(tmp_path: Path) -> None:
    write_dump(tmp_path / "d", closed_volume_cases(), unreferenced_dockets=30, compress=True)
    build_from_folder(tmp_path / "serial.sqlite", tmp_path / "d", full_dump=True, parallel=False)
    build_from_folder(tmp_path / "parallel.sqlite", tmp_path / "d", full_dump=True, parallel=True)
    assert tables(tmp_path / "serial.sqlite") == tables(tmp_path / "parallel.sqlite")


def test_long_text_columns_are_read_and_dropped(tmp_path: Path) -> None:
    head = (
        '<section class="head-matter">\n<p>' + ('Counsel \\ for "appellant", ' * 20000) + "</p>\n</section>"
    )
    write_dump(tmp_path / "d", closed_volume_cases(), headmatter=head)
    stats = build_from_folder(tmp_path / "ix.sqlite", tmp_path / "d", full_dump=True)
    assert stats.cases == 13 and not stats.refused
    assert (tmp_path / "ix.sqlite").stat().st_size < 200_000  # 13 × 500 kB of head matter kept nowhere


def test_hostile_rows_are_refused_and_counted(tmp_path: Path) -> None:
    bad_clusters = [
        {"id": "12x", "case_name": "Not A Number v. Id", "docket_id": 1, "date_modified": STAMP},
        {"id": 910009001, "case_name": "Nul\x00Byte v. Name", "docket_id": 1, "date_modified": STAMP},
        {"id": 910009002, "case_name": "Huge " * 10_000 + "v. Name", "docket_id": 1, "date_modified": STAMP},
        {"id": 910009003, "case_name": "", "docket_id": 1, "date_modified": STAMP},
    ]
    bad_cites = [
        {
            "id": "x",
            "volume": "100",
            "reporter": "A.2d",
            "page": "99",
            "cluster_id": 910000101,
            "date_modified": STAMP,
        },
        {
            "id": 1,
            "volume": "",
            "reporter": "A.2d",
            "page": "99",
            "cluster_id": 910000101,
            "date_modified": STAMP,
        },
        {
            "id": 2,
            "volume": "100",
            "reporter": "A.2d",
            "page": "99",
            "cluster_id": "-5",
            "date_modified": STAMP,
        },
        {  # a page that would break the case row's packed citations
            "id": 3,
            "volume": "100",
            "reporter": "A.2d",
            "page": "9\x1e9",
            "cluster_id": 910000101,
            "date_modified": STAMP,
        },
    ]
    write_dump(tmp_path / "d", closed_volume_cases(), extra_clusters=bad_clusters, extra_citations=bad_cites)
    stats = build_from_folder(tmp_path / "ix.sqlite", tmp_path / "d", full_dump=True)
    assert stats.cases == 13 and stats.citations == 16
    refused = {k.split(": ", 1)[1]: v for k, v in stats.refused.items() if k.startswith("opinion-clusters")}
    assert refused == {
        "an id that is not a number": 1,
        "a NUL character": 1,
        "a field over 20000 characters": 1,
        "no case name": 1,
    }
    cites = {k.split(": ", 1)[1]: v for k, v in stats.refused.items() if k.startswith("citations")}
    assert cites == {
        "an id that is not a number": 2,
        "a citation without a volume, reporter or page": 1,
        "a control character in a volume or page": 1,
    }


def test_a_row_with_another_field_count_is_refused(tmp_path: Path) -> None:
    write_dump(tmp_path / "d", closed_volume_cases())
    path = tmp_path / "d" / "citations-2026-06-30.csv"
    with path.open("a", encoding="utf-8") as out:
        out.write('"1","100","A.2d","99"\n')  # four fields of eight
    stats = build_from_folder(tmp_path / "ix.sqlite", tmp_path / "d", full_dump=True)
    assert stats.refused == {"citations-2026-06-30.csv: a field count other than the header's": 1}


def test_a_header_without_a_used_column_names_it(tmp_path: Path) -> None:
    write_dump(tmp_path / "d", closed_volume_cases())
    path = tmp_path / "d" / "citations-2026-06-30.csv"
    header = [c for c in HEADERS["citations"] if c != "reporter"]
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    path.write_text(",".join(header) + "\n" + "".join(lines[1:]).replace('"A.2d",', ""), encoding="utf-8")
    with pytest.raises(ImportFormatError, match="'reporter' column"):
        build_from_folder(tmp_path / "ix.sqlite", tmp_path / "d", full_dump=True)
    assert not (tmp_path / "ix.sqlite").exists() and not (tmp_path / "ix.sqlite.new").exists()


@pytest.mark.parametrize("dropped", ["headmatter", "citation_count"])
def test_columns_added_or_dropped_that_the_index_does_not_use_do_not_matter(
    tmp_path: Path, dropped: str
) -> None:
    """``citation_count`` only ranks the name search: a dump without it builds, every case uncited."""
    cases = closed_volume_cases()
    cases[0].cited = 500
    write_dump(tmp_path / "d", cases)
    path = tmp_path / "d" / "opinion-clusters-2026-06-30.csv"
    lines = path.read_text(encoding="utf-8").split("\n", 1)
    # a column CourtListener added at the front, and "headmatter" gone (neither is used)
    columns = lines[0].split(",")
    rows = path.read_text(encoding="utf-8")
    import csv
    import io

    reader = csv.reader(io.StringIO(rows), quotechar='"', escapechar="\\", doublequote=False)
    header = next(reader)
    keep = [i for i, c in enumerate(header) if c != dropped]
    out = io.StringIO()
    out.write(",".join(["new_column", *(columns[i] for i in keep)]) + "\n")
    for row in reader:
        out.write(copy_line(["added", *(row[i] if row[i] != "" else None for i in keep)]))
    path.write_text(out.getvalue(), encoding="utf-8")
    stats = build_from_folder(tmp_path / "ix.sqlite", tmp_path / "d", full_dump=True)
    assert stats.cases == 13 and not stats.refused
    db = sqlite3.connect(tmp_path / "ix.sqlite")
    cited = db.execute("SELECT cited FROM cases WHERE id = 910000101").fetchone()[0]
    db.close()
    assert cited == (None if dropped == "citation_count" else 500)


def _old_index(tmp_path: Path) -> Path:
    write_dump(tmp_path / "old", closed_volume_cases(), date="2026-03-31")
    build_from_folder(tmp_path / "ix.sqlite", tmp_path / "old", full_dump=True)
    return tmp_path / "ix.sqlite"


def test_a_truncated_bz2_is_an_error_and_the_old_index_stays(tmp_path: Path) -> None:
    index = _old_index(tmp_path)
    before = index.read_bytes()
    write_dump(tmp_path / "new", closed_volume_cases(), compress=True, unreferenced_dockets=2000)
    path = tmp_path / "new" / "dockets-2026-06-30.csv.bz2"
    path.write_bytes(path.read_bytes()[: path.stat().st_size // 2])
    with pytest.raises(ImportFormatError, match="truncated bz2"):
        build_from_folder(index, tmp_path / "new", full_dump=True)
    assert index.read_bytes() == before and not index.with_name("ix.sqlite.new").exists()
    assert index_status(index, "100 A.2d 36") is LookupStatus.FOUND


def test_a_corrupt_bz2_is_an_error_and_the_old_index_stays(tmp_path: Path) -> None:
    index = _old_index(tmp_path)
    before = index.read_bytes()
    write_dump(tmp_path / "new", closed_volume_cases(), compress=True, unreferenced_dockets=2000)
    path = tmp_path / "new" / "opinion-clusters-2026-06-30.csv.bz2"
    data = bytearray(path.read_bytes())
    for i in range(200, min(len(data), 400)):
        data[i] ^= 0x5A
    path.write_bytes(bytes(data))
    with pytest.raises(ImportFormatError, match=r"corrupt bz2|truncated bz2|opinion-clusters"):
        build_from_folder(index, tmp_path / "new", full_dump=True, parallel=True)
    assert index.read_bytes() == before


def test_not_bz2_at_all_is_an_error(tmp_path: Path) -> None:
    write_dump(tmp_path / "new", closed_volume_cases(), compress=True)
    (tmp_path / "new" / "citations-2026-06-30.csv.bz2").write_bytes(b"<html>503 Service Unavailable</html>")
    with pytest.raises(ImportFormatError, match=r"citations-2026-06-30\.csv\.bz2"):
        build_from_folder(tmp_path / "ix.sqlite", tmp_path / "new", full_dump=True)


def test_a_full_disk_rolls_back_and_says_so(tmp_path: Path, monkeypatch) -> None:
    index = _old_index(tmp_path)
    before = index.read_bytes()
    opened = build_mod._open_for_build

    def tiny(path: Path, *, update: bool) -> sqlite3.Connection:
        db = opened(path, update=update)
        db.execute("PRAGMA max_page_count=8")  # SQLite answers exactly as for a full disk
        return db

    monkeypatch.setattr(build_mod, "_open_for_build", tiny)
    write_dump(tmp_path / "new", closed_volume_cases(), unreferenced_dockets=10)
    with pytest.raises(DiskSpaceError, match="rolled back and the old index is unchanged"):
        build_from_folder(index, tmp_path / "new", full_dump=True, rebuild=True)
    assert index.read_bytes() == before and not index.with_name("ix.sqlite.new").exists()


def test_too_little_disk_is_refused_before_anything_is_written(tmp_path: Path, monkeypatch) -> None:
    import shutil
    from collections import namedtuple

    usage = namedtuple("usage", "total used free")
    monkeypatch.setattr(shutil, "disk_usage", lambda p: usage(10**9, 10**9 - 1000, 1000))
    write_dump(tmp_path / "d", closed_volume_cases())
    with pytest.raises(DiskSpaceError, match=r"needs .* free in .* but only 1000 B is free"):
        build_from_folder(tmp_path / "ix.sqlite", tmp_path / "d", full_dump=True)
    assert not (tmp_path / "ix.sqlite").exists()


def test_a_second_build_of_the_same_index_says_who_holds_it(tmp_path: Path) -> None:
    write_dump(tmp_path / "d", closed_volume_cases())
    with BuildLock(tmp_path / "ix.sqlite"):
        with pytest.raises(SyncBusy, match=r"another citecheck sync is building .*pid \d+"):
            build_from_folder(tmp_path / "ix.sqlite", tmp_path / "d", full_dump=True)
    build_from_folder(tmp_path / "ix.sqlite", tmp_path / "d", full_dump=True)  # released: it builds


def test_a_full_dump_needs_all_four_files_and_one_date(tmp_path: Path) -> None:
    paths = write_dump(tmp_path / "d", closed_volume_cases())
    paths["dockets"].unlink()
    with pytest.raises(ImportFormatError, match="dockets-YYYY-MM-DD"):
        build_from_folder(tmp_path / "ix.sqlite", tmp_path / "d", full_dump=True)
    build_from_folder(tmp_path / "ix.sqlite", tmp_path / "d", full_dump=False)  # a partial import may lack it
    write_dump(tmp_path / "e", closed_volume_cases())
    (tmp_path / "e" / "citations-2026-06-30.csv").rename(tmp_path / "e" / "citations-2026-03-31.csv")
    with pytest.raises(ImportFormatError, match="different dumps"):
        build_from_folder(tmp_path / "ix2.sqlite", tmp_path / "e", full_dump=True)


def test_the_same_dump_twice_builds_nothing(tmp_path: Path) -> None:
    write_dump(tmp_path / "d", closed_volume_cases())
    build_from_folder(tmp_path / "ix.sqlite", tmp_path / "d", full_dump=True)
    assert build_from_folder(tmp_path / "ix.sqlite", tmp_path / "d", full_dump=True).mode == "unchanged"
    assert (
        build_from_folder(tmp_path / "ix.sqlite", tmp_path / "d", full_dump=True, rebuild=True).mode == "full"
    )


def _newer(cases: list[Case]) -> list[Case]:
    """The next quarter's dump: one case renamed, one gone, one new, one citation corrected."""
    out = []
    for c in cases:
        if c.id == 910000106:
            continue  # deleted upstream
        if c.id == 910000102:
            c = Case(
                **{**c.__dict__, "name": "Smith v. State of Maryland", "modified": "2026-05-02 10:00:00+00"}
            )
        if c.id == 910000203:
            c = Case(
                **{**c.__dict__, "cites": [("12", "F.4th", "131")], "modified": "2026-05-03 09:00:00+00"}
            )
        out.append(c)
    out.append(Case(id=910000108, name="Baker v. Able", cites=[("100", "A.2d", "52")], court="pa",
                    docket_number="No. 88", modified="2026-06-01 12:00:00+00"))  # fmt: skip
    return out


def test_an_update_applies_what_changed_and_equals_a_fresh_build(tmp_path: Path) -> None:
    index = _old_index(tmp_path)
    write_dump(tmp_path / "new", _newer(closed_volume_cases()), date="2026-06-30", unreferenced_dockets=5)
    stats = build_from_folder(index, tmp_path / "new", full_dump=True)
    assert stats.mode == "update"
    # renamed (its citation row was touched too), corrected, new
    assert stats.changed == {"cases": 3, "citations": 3, "dockets": 3}
    assert stats.deleted == {
        "cases": 1,
        "citations": 2,
        "dockets": 1,
    }  # the gone case's, the old 12 F.4th 130
    build_from_folder(tmp_path / "fresh.sqlite", tmp_path / "new", full_dump=True)
    assert tables(index) == tables(tmp_path / "fresh.sqlite")
    # the gone case was the volume's last: its page is now past the last case the index holds (issue 32:
    # the volume may hold more than CourtListener lists, so that is cannot-verify, not not-found)
    assert index_status(index, "100 A.2d 60") is LookupStatus.CANNOT_VERIFY
    assert index_status(index, "100 A.2d 52") is LookupStatus.FOUND


def test_an_older_dump_or_another_kind_rebuilds_instead(tmp_path: Path) -> None:
    index = _old_index(tmp_path)
    write_dump(tmp_path / "partial", closed_volume_cases()[:4], date="2026-06-30")
    assert (
        build_from_folder(index, tmp_path / "partial", full_dump=False).mode == "full"
    )  # a partial: no update


def test_bz2_written_in_several_streams_is_read_whole(tmp_path: Path) -> None:
    write_dump(tmp_path / "d", closed_volume_cases())
    path = tmp_path / "d" / "citations-2026-06-30.csv"
    data = path.read_bytes()
    cut = data.index(b"\n", len(data) // 2) + 1
    (tmp_path / "d" / "citations-2026-06-30.csv.bz2").write_bytes(
        bz2.compress(data[:cut]) + bz2.compress(data[cut:])
    )
    path.unlink()
    stats = build_from_folder(tmp_path / "ix.sqlite", tmp_path / "d", full_dump=True)
    assert stats.citations == 16


def test_a_build_failing_midway_leaves_no_new_file(tmp_path: Path, monkeypatch) -> None:
    index = _old_index(tmp_path)
    before = index.read_bytes()

    def boom(*a, **k):
        raise CorpusError("simulated failure while merging")

    monkeypatch.setattr(build_mod, "_volumes", boom)
    write_dump(tmp_path / "new", closed_volume_cases(), date="2026-06-30")
    with pytest.raises(CorpusError, match="simulated"):
        build_from_folder(index, tmp_path / "new", full_dump=True)
    assert index.read_bytes() == before and not index.with_name("ix.sqlite.new").exists()
