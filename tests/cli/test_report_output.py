"""``--output`` writes a report whole or not at all: a disk that fills half-way through leaves the earlier
report as it was (or no file) and no temporary file, and says so in one line (exit 2)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from citecheck_testing import REPO_ROOT

#: Runs the CLI with the file-size limit lowered while the report is written: the kernel then fails the
#: write half-way (EFBIG, "File too large"), as a full disk fails it with ENOSPC. Python ignores SIGXFSZ.
LIMITED = """
import resource, sys
import citecheck.cli.app as app
real = app._write
def limited(emit, path, stdout):
    soft, hard = resource.getrlimit(resource.RLIMIT_FSIZE)
    resource.setrlimit(resource.RLIMIT_FSIZE, (4096, hard))
    try:
        real(emit, path, stdout)
    finally:
        resource.setrlimit(resource.RLIMIT_FSIZE, (soft, hard))
app._write = limited
sys.exit(app.main(sys.argv[1:]))
"""


def _run(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("CITECHECK_")}
    env |= {
        "PYTHONPATH": str(REPO_ROOT / "server"),
        "CITECHECK_CORPUS_PATH": str(tmp_path / "corpus.sqlite"),
        "CITECHECK_CACHE_PATH": str(tmp_path / "cache.sqlite"),
    }
    return subprocess.run(
        [
            sys.executable,
            "-c",
            LIMITED,
            "check",
            "--offline",
            str(REPO_ROOT / "examples" / "brief.md"),
            *args,
        ],
        capture_output=True,
        text=True,
        timeout=300,
        env=env,
    )


@pytest.mark.skipif(
    not hasattr(os, "fork") or sys.platform == "darwin", reason="needs Linux RLIMIT_FSIZE semantics"
)
@pytest.mark.parametrize("fmt", ["html", "json", "text"])
def test_a_report_cut_short_by_the_disk_leaves_the_old_one_and_no_truncated_file(
    tmp_path: Path, fmt: str
) -> None:
    out = tmp_path / "reports" / f"brief.{fmt}"
    out.parent.mkdir()
    out.write_text("the report of yesterday\n", encoding="utf-8")
    proc = _run(tmp_path, "--format", fmt, "--output", str(out))
    assert proc.returncode == 2, proc.stderr
    lines = [ln for ln in proc.stderr.splitlines() if ln.strip()]
    assert len(lines) == 1 and "cannot write the report" in lines[0] and "Traceback" not in proc.stderr, lines
    assert out.read_text(encoding="utf-8") == "the report of yesterday\n"  # before: 4,096 bytes of a report
    assert sorted(p.name for p in out.parent.iterdir()) == [out.name]  # no temporary file left


@pytest.mark.skipif(
    not hasattr(os, "fork") or sys.platform == "darwin", reason="needs Linux RLIMIT_FSIZE semantics"
)
def test_a_report_cut_short_leaves_no_file_where_there_was_none(tmp_path: Path) -> None:
    out = tmp_path / "brief.html"
    proc = _run(tmp_path, "--format", "html", "--output", str(out))
    assert proc.returncode == 2, proc.stderr
    assert not out.exists() and not [p for p in tmp_path.iterdir() if p.name.startswith(".brief.html")]


def test_a_report_that_fits_replaces_the_old_one_with_its_permissions(tmp_path: Path) -> None:
    from citecheck.cli.app import write_atomically

    out = tmp_path / "r.txt"
    out.write_text("old")
    out.chmod(0o640)
    write_atomically(out, lambda s: s.write("new report"))
    assert out.read_text() == "new report" and (out.stat().st_mode & 0o777) == 0o640
    assert [p.name for p in tmp_path.iterdir()] == ["r.txt"]
    link = tmp_path / "latest.txt"
    link.symlink_to(out)
    write_atomically(link, lambda s: s.write("newer"))
    assert link.is_symlink() and out.read_text() == "newer"
