"""One batch worker without Ray: its rows are the JSON report's, a bad file is one error row, offline holds."""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import replace

from citecheck.batch.rows import FINDING_COLUMNS
from citecheck.batch.worker import Worker, batch_settings
from citecheck.config import Settings
from citecheck_testing import REPO_ROOT


def _settings(tmp_path) -> Settings:
    return replace(
        batch_settings(Settings()),
        corpus_path=tmp_path / "corpus.sqlite",
        cache_path=tmp_path / "cache.sqlite",
        index_path=tmp_path / "index.sqlite",
        statutes_path=tmp_path / "statutes.sqlite",
    )


def test_a_worker_checks_documents_one_after_another_with_sources_opened_once(tmp_path) -> None:
    worker = Worker(_settings(tmp_path))
    try:
        assert worker.ready() is None
        source = worker.source
        brief = str(REPO_ROOT / "examples" / "brief.md")
        first = worker.check(brief)
        missing = worker.check(str(tmp_path / "nowhere.md"))
        second = worker.check(brief)
        assert worker.source is source
    finally:
        worker.close()
    assert first.error is None and first.findings == second.findings
    assert first.counts["error"] >= 1 and first.citations > 5
    assert all(tuple(row) == FINDING_COLUMNS for row in first.findings)
    assert {r["kind"] for r in first.findings} >= {"impossible-citation"}
    assert (missing.error, missing.error_kind, missing.findings) == ("no such file", "input", ())


def test_batch_settings_read_only_what_is_on_the_machine() -> None:
    s = batch_settings(replace(Settings(), cap_fetch=True, courtlistener_token="t0k3n-abc"))
    assert (s.cap_fetch, s.courtlistener_token) == (False, None)


def test_an_offline_worker_refuses_the_network_in_its_own_process(tmp_path) -> None:
    code = f"""
import socket, sys
from dataclasses import replace
sys.path.insert(0, {str(REPO_ROOT / "server")!r})
from citecheck.batch.worker import Worker
from tests_settings import settings
w = Worker(replace(settings, offline=True))
try:
    socket.create_connection(("127.0.0.1", 9), timeout=1)
except OSError as exc:
    print(type(exc).__name__)
finally:
    w.close()
"""
    (tmp_path / "tests_settings.py").write_text(
        "from dataclasses import replace\nfrom pathlib import Path\nfrom citecheck.config import Settings\n"
        f"settings = replace(Settings(), corpus_path=Path({str(tmp_path / 'c.sqlite')!r}), "
        f"cache_path=Path({str(tmp_path / 'k.sqlite')!r}), index_path=Path({str(tmp_path / 'i.sqlite')!r}))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, timeout=120
    )
    assert done.stdout.strip() == "NetworkBlocked", done.stderr[-2000:]
    assert json.dumps(done.returncode) == "0"
