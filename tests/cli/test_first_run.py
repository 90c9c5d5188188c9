"""Issue 32 item 6: on a fresh install most citations cannot be verified; the report says so first and
plainly, with the one command that changes it and what it costs (sources/index/cost.py)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from citecheck.sources.index.cost import SYNC_COST
from citecheck_testing import REPO_ROOT

BRIEF = REPO_ROOT / "examples" / "brief.md"
DUMP = REPO_ROOT / "tests" / "sources" / "index" / "dumps" / "backslash"

REAL = (
    "The right is settled. Roe v. Wade, 410 U.S. 113 (1973); Doe v. Bolton, 410 U.S. 179 (1973); Peyton v. "
    "District of Columbia, 100 A.2d 36 (D.C. 1953); Savage v. Parks, 100 A.2d 450 (D.C. 1953). See also "
    "Smith v. Jones, 999 F.4th 1 (4th Cir. 2030).\n"
)


def test_a_fresh_install_says_first_that_the_check_proved_nothing(run_cli, cli_home: Path) -> None:
    done = run_cli("check", str(BRIEF), "--offline")
    first = done.out.splitlines()[0]
    assert first.startswith("note: Most citations could not be checked: 14 of 16 case citations.")
    assert "proves nothing about them" in first and "`citecheck corpus sync`" in first
    assert SYNC_COST.describe() in first
    assert done.out.count("Most citations could not be checked") == 1  # not said twice
    report = json.loads(run_cli("check", str(BRIEF), "--offline", "--format", "json").out)
    assert report["notes"][0] == first.removeprefix("note: ")


def test_with_the_index_most_citations_are_checked_and_nothing_is_said_first(
    run_cli, cli_home: Path, tmp_path: Path
) -> None:
    shutil.copytree(DUMP, tmp_path / "dump")
    assert run_cli("corpus", "sync", "--from", str(tmp_path / "dump"), "--offline").rc == 0
    brief = tmp_path / "brief.md"
    brief.write_text(REAL, encoding="utf-8")
    done = run_cli("check", str(brief), "--offline")
    assert "Most citations could not be checked" not in done.out
    # Roe v. Wade is found and also overruled (Dobbs; the shipped Congress.gov table, issue 37): a problem
    assert "3 verified" in done.out and "overruled by Dobbs" in done.out
