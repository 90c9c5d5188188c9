"""``citecheck batch --ray-address`` on a real two-node Ray cluster started on this machine, loopback only.

``ray start --head`` and a second ``ray start --address`` (one CPU each, so the two workers run one on
each node); the citation index sits in one folder both nodes read. The cluster is stopped, by its own
process groups, whatever the test does.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time

import pytest

pq = pytest.importorskip(
    "pyarrow.parquet", reason="pyarrow is the [scale] extra (in [dev]); not installed here"
)
pytest.importorskip("ray", reason="Ray is the [scale] extra (in [dev]); not installed here")

from citecheck_testing.batch import differences, findings_of_batch, findings_of_check  # noqa: E402
from citecheck_testing.bulk_dump import closed_volume_cases, write_dump  # noqa: E402
from citecheck_testing.ray_cluster import LoopbackCluster, is_loopback  # noqa: E402

BRIEF = """Roe v. Wade, 410 U.S. 113, 150 (1973), and Doe v. Bolton, 410 U.S. 179 (1973), decided the same day.
The court relied on Smith v. State, 100 A.2d 7 (Md. 1953),
and on Peyton v. District of Columbia, 100 A.2d 36 (D.C. 1953).
Counsel also cited Harbor Realty Co. v. Baltimore County, 100 A.2d 3 (Md. 1953), a page on which no case begins,
and Nguyen v. Holder, 12 F.4th 130 (4th Cir. 2021).
"""


def test_batch_joins_a_two_node_cluster_and_finds_what_check_finds(run_cli, cli_home, tmp_path) -> None:
    data = tmp_path / "shared-data"  # the folder every node reads: the citation index (and the lookup cache)
    data.mkdir()
    write_dump(tmp_path / "dump", closed_volume_cases())
    index = data / "index.sqlite"
    built = run_cli("corpus", "sync", "--from", str(tmp_path / "dump"), "--index", str(index), "--offline")
    assert built.rc == 0, built.err
    docs = tmp_path / "filings"
    docs.mkdir()
    for i in range(6):
        (docs / f"brief-{i}.md").write_text(BRIEF + f"\n(Filing {i}.)\n")
    env_settings = {
        "CITECHECK_INDEX_PATH": str(index),
        "CITECHECK_CACHE_PATH": str(data / "cache.sqlite"),
        "CITECHECK_CORPUS_PATH": str(data / "corpus.sqlite"),
        "CITECHECK_CAP_FETCH": "false",
    }
    out = tmp_path / "x.parquet"
    with LoopbackCluster(cpus_per_node=1) as cluster:
        env = {**cluster.driver_env(), **env_settings}
        env.pop("CITECHECK_CONFIG", None)
        env["CITECHECK_CONFIG"] = str(cli_home / "citecheck.toml")
        batch = subprocess.Popen(
            [sys.executable, "-m", "citecheck", "batch", str(docs), "--out", str(out), "--workers", "2",
             "--ray-address", cluster.address],
            env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=tmp_path,
        )  # fmt: skip
        heard: set[str] = set()
        deadline = time.monotonic() + 300
        while batch.poll() is None and time.monotonic() < deadline:
            heard.update(cluster.listening())
            time.sleep(0.3)
        if batch.poll() is None:
            batch.kill()
        _, stderr = batch.communicate(timeout=30)
        assert batch.returncode == 0, stderr + cluster.logs()
        assert heard and all(is_loopback(a) for a in heard), sorted(heard)
    assert "on 2 workers" in stderr
    assert not cluster.procs  # stopped

    for key, value in env_settings.items():
        os.environ[key] = value  # run_cli's monkeypatched environment is restored after the test
    report = json.loads(
        run_cli("check", "--format", "json", "--fail-on", "never", *map(str, sorted(docs.iterdir()))).out
    )
    check = findings_of_check(report)
    batch_rows = findings_of_batch(out)
    assert differences(check, batch_rows) == []
    kinds = {r[0] for rows in batch_rows.values() for r in rows}
    assert "wrong-first-page" in kinds, kinds  # the index's evidence (Harbor Realty begins at 100 A.2d 1)
