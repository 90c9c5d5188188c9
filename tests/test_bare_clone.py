"""The README's test command works on a clone with nothing beside it (issue 36, item 1).

``python -m pytest -q`` exited 2 with zero tests there: one module read ../shared/corpus in a ``parametrize``
and its skip at collection time ended the whole run. Here the suite is collected as such a clone sees it
(``CITECHECK_SHARED_CORPUS`` pointed at nothing): every module must collect, and the README must not send a
new user to files a clone does not have.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys

from citecheck_testing import REPO_ROOT


def test_the_suite_collects_without_the_shared_corpus(tmp_path) -> None:
    env = {**os.environ, "CITECHECK_SHARED_CORPUS": str(tmp_path / "nothing-here")}
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider", "tests"],
        cwd=REPO_ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    out = done.stdout + done.stderr
    summary = out.strip().splitlines()[-1]
    assert done.returncode == 0 and not re.search(r"\berrors?\b", summary), out[-3000:]
    collected = re.search(r"(\d+) tests? collected", summary)
    assert collected and int(collected.group(1)) > 1000, summary


def test_a_skip_at_collection_is_caught(tmp_path) -> None:
    """The check above can fail: a module that reads the corpus while being collected stops the run."""
    bad = tmp_path / "test_reads_at_collection.py"
    bad.write_text(
        "import pytest\nfrom citecheck_testing import shared_corpus_path\n\n"
        "@pytest.mark.parametrize('p', [shared_corpus_path('cap-static')])\ndef test_x(p):\n    assert p\n",
        encoding="utf-8",
    )
    env = {**os.environ, "CITECHECK_SHARED_CORPUS": str(tmp_path / "nothing-here")}
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider", str(bad)],
        cwd=REPO_ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode != 0 and "skip" in (done.stdout + done.stderr).lower()


def test_the_readme_sends_no_one_to_files_a_clone_lacks() -> None:
    readme = (REPO_ROOT / "README.md").read_text(encoding="utf-8")
    assert "../shared" not in readme
    for path in re.findall(r"`((?:examples|docs|tests)/[\w./-]+)`", readme):
        assert (REPO_ROOT / path).exists(), path
