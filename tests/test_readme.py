"""The README's promises are what the program does (issue 25 item 8: it said an unreachable site is not
tried again "for the rest of the run"; the program waits 60 s, which in the editors is not the same)."""

from __future__ import annotations

import re

from citecheck.config import Settings
from citecheck.sources import cap_fetch
from citecheck_testing import REPO_ROOT

README = (REPO_ROOT / "README.md").read_text(encoding="utf-8")


def _said(pattern: str) -> float:
    found = re.search(pattern, " ".join(README.split()))
    assert found, pattern
    return float(found.group(1))


def test_the_retry_wait_after_an_unreachable_site_is_the_programs() -> None:
    assert _said(r"is not tried again for (\d+) s") == cap_fetch.RETRY_AFTER_FAILURE_S
    assert _said(r"try again after the (\d+) s") == cap_fetch.RETRY_AFTER_FAILURE_S
    assert "for the rest of the run" not in README


def test_the_download_budget_and_connect_time_are_the_programs() -> None:
    assert _said(r"at most (\d+) s \(`cap_budget_s`\)") == Settings().cap_budget_s
    assert _said(r"cannot be reached \((\d+) s to connect\)") == cap_fetch.CONNECT_TIMEOUT_S
    # a CLI run cannot outlast the wait: the budget is shorter than the retry interval
    assert (Settings().cap_budget_s or 0) < cap_fetch.RETRY_AFTER_FAILURE_S


def test_the_index_section_gives_the_figures_the_first_run_note_gives() -> None:
    """Issue 32 item 6: one set of figures (sources/index/cost.py) in the README and in the report."""
    from citecheck.sources.index.cost import SYNC_COST

    text = " ".join(README.split())
    assert "## Get the index" in README
    assert f"downloads about {SYNC_COST.download_gb:g} GB" in text
    lo, hi = SYNC_COST.build_minutes
    assert f"builds in about {lo}–{hi} minutes on two cores" in text
    assert f"needs about {SYNC_COST.disk_during_gb:g} GB of free disk while it builds" in text
    assert f"and {SYNC_COST.disk_after_gb:g} GB afterwards" in text
