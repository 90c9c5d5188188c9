"""``citecheck corpus sync|status`` and ``corpus import --full-dump`` through the real entry point, and the
check's summary saying how many citations the index answered."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from citecheck_testing.bulk_bucket import FakeBucket
from citecheck_testing.bulk_dump import STAMP, closed_volume_cases, schema1_index, write_dump

BRIEF = (
    'A hearing "must precede the taking." *Peyton v. District of Columbia*, 100 A.2d 36, 37 (D.C. 1953). '
    "See *Peyton v. District of Columbia*, 100 A.2d 36 (D.C. 1953); *Whitcomb v. Anne Arundel County*, "
    "100 A.2d 52 (Md. 1953); *Carter v. Fleming*, 12 F.4th 120 (4th Cir. 2021).\n"
)


def test_sync_from_a_folder_then_status_then_check(run_cli, cli_home: Path, tmp_path: Path) -> None:
    write_dump(tmp_path / "dump", closed_volume_cases(), unreferenced_dockets=25,
               extra_citations=[{"id": "x", "volume": "1", "reporter": "A.2d", "page": "1", "cluster_id": 1,
                                 "date_modified": STAMP}])  # fmt: skip
    built = run_cli("corpus", "sync", "--from", str(tmp_path / "dump"), "--offline")
    assert built.rc == 0, built.err
    assert "citation index built from a full dump of 2026-06-30" in built.out
    assert "13 cases, 16 citations, 6 volumes (2 complete)" in built.out
    assert "refused 1 rows" in built.out and "an id that is not a number" in built.out

    status = run_cli("corpus", "status")
    assert status.rc == 0 and "CourtListener dump of 2026-06-30 (full dump)" in status.out
    assert "13 cases, 16 citations" in status.out and "2 complete" in status.out
    data = json.loads(run_cli("corpus", "status", "--json").out)
    assert data["index"]["complete_volumes"] == 2 and data["index"]["size"] > 0

    brief = tmp_path / "brief.md"
    brief.write_text(BRIEF, encoding="utf-8")
    checked = run_cli("check", str(brief), "--offline")
    # absence from CourtListener's data is a warning (issue 32), so the default --fail-on error passes
    assert checked.rc == 0, checked.err
    assert "warning fabricated-case" in checked.out and "100 A.2d 52" in checked.out
    assert run_cli("check", str(brief), "--offline", "--fail-on", "warning").rc == 1
    assert "the citation index answered 3 of 4 full citations" in checked.out
    # the quote of a case only the index knows is not checked, and the report says why; no log noise
    assert "opinion-unavailable" in checked.out and "holds no opinion text" in checked.out
    assert "opinion text for" not in checked.err


def test_import_full_dump_builds_the_same_index(run_cli, cli_home: Path, tmp_path: Path) -> None:
    write_dump(tmp_path / "dump", closed_volume_cases())
    other = tmp_path / "other.sqlite"
    done = run_cli("corpus", "import", str(tmp_path / "dump"), "--full-dump", "--index", str(other))
    assert done.rc == 0 and "(2 complete)" in done.out and other.exists()
    again = run_cli("corpus", "import", str(tmp_path / "dump"), "--full-dump", "--index", str(other))
    assert "up to date" in again.out


def test_a_partial_folder_is_marked_so(run_cli, tmp_path: Path) -> None:
    write_dump(tmp_path / "dump", closed_volume_cases())
    done = run_cli("corpus", "sync", "--from", str(tmp_path / "dump"), "--partial")
    assert (
        done.rc == 0 and "partial import (no volume is complete)" in done.out and "(0 complete)" in done.out
    )


def test_sync_from_the_bucket_shows_what_it_fetched(run_cli, tmp_path: Path, monkeypatch) -> None:
    with FakeBucket() as bucket:
        write_dump(tmp_path / "pub", closed_volume_cases(), compress=True)
        bucket.put_folder(tmp_path / "pub")
        monkeypatch.setenv("CITECHECK_BULK_URL", bucket.base_url)
        done = run_cli("corpus", "sync")
    assert done.rc == 0, done.err
    assert "downloaded" in done.out and "of the 2026-06-30 dump" in done.out and "(2 complete)" in done.out
    assert "citecheck: " in done.err  # progress lines on stderr (not a terminal here)


def test_sync_errors_are_one_line_with_what_to_do(run_cli, tmp_path: Path) -> None:
    offline = run_cli("corpus", "sync", "--offline")
    assert offline.rc == 2 and "use --from DIR" in offline.err
    partial = run_cli("corpus", "sync", "--partial")
    assert partial.rc == 2 and "--partial describes files given with --from DIR" in partial.err
    missing = run_cli("corpus", "sync", "--from", str(tmp_path / "nothing"))
    assert missing.rc == 2 and "no such folder" in missing.err
    assert "Traceback" not in missing.err


def test_status_without_an_index_says_how_to_build_one(run_cli) -> None:
    shown = run_cli("corpus", "status")
    assert shown.rc == 0 and "no citation index" in shown.out and "citecheck corpus sync" in shown.out


def test_status_says_an_older_layout_needs_a_sync(run_cli, tmp_path: Path) -> None:
    path = schema1_index(tmp_path / "index.sqlite")
    shown = run_cli("corpus", "status", "--index", str(path))
    assert shown.rc == 0, shown.err
    assert "older layout" in shown.out and "citecheck corpus sync" in shown.out
    write_dump(tmp_path / "dump", closed_volume_cases())
    built = run_cli("corpus", "sync", "--from", str(tmp_path / "dump"), "--index", str(path))
    assert built.rc == 0, built.err
    assert "built again from nothing: it has an older layout" in built.out
    assert "building it again" in built.err  # said before the build starts


@pytest.mark.parametrize("where", ["before", "after the command", "after the action"])
def test_settings_file_read_wherever_it_is_given(run_cli, tmp_path: Path, where: str) -> None:
    cfg = tmp_path / "settings" / "citecheck.toml"
    cfg.parent.mkdir()
    cfg.write_text('statutes_path = "elsewhere.sqlite"\n')  # relative to the settings file
    argv = {
        "before": ("--config", str(cfg), "corpus", "status"),
        "after the command": ("corpus", "--config", str(cfg), "status"),
        "after the action": ("corpus", "status", "--config", str(cfg), "--debug"),
    }[where]
    shown = run_cli(*argv)
    assert shown.rc == 0, shown.err
    assert str(cfg.parent / "elsewhere.sqlite") in shown.out + shown.err


@pytest.mark.parametrize("where", ["after", "before"])
def test_full_dump_with_corpus_is_a_usage_error_naming_index(
    run_cli, cli_home: Path, tmp_path: Path, where
) -> None:
    """Issue 32 item 5: ``--corpus FILE`` with ``--full-dump`` used to build the index at the default path."""
    write_dump(tmp_path / "dump", closed_volume_cases())
    target = tmp_path / "mine.sqlite"
    args = ["corpus", "import", str(tmp_path / "dump"), "--full-dump"]
    args = [*args, "--corpus", str(target)] if where == "after" else ["--corpus", str(target), *args]
    done = run_cli(*args)
    assert done.rc == 2, done.out + done.err
    assert "--index" in done.err and "--corpus" in done.err
    assert not target.exists()
    assert not any(cli_home.rglob("index.sqlite"))  # nothing built at the default path either
