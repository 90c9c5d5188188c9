"""The treatment build's scan on Ray (a real local instance of 2 CPUs) writes the single-machine build's table."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from tests.sources.treatment.test_build import write_inputs

from citecheck.sources.treatment.build import build_treatment

pytest.importorskip("ray", reason="Ray is the [scale] extra (in [dev]); not installed here")


def table_contents(path: Path) -> dict[str, list[tuple[object, ...]]]:
    """Every table's rows in their stored order (the treatments' ids are their order of writing); of the
    metadata, all but the time of the build."""
    db = sqlite3.connect(path)
    try:
        names = [
            r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
        ]
        out = {n: [tuple(r) for r in db.execute(f'SELECT * FROM "{n}"')] for n in names if n != "meta"}
        out["meta"] = [tuple(r) for r in db.execute("SELECT * FROM meta WHERE key != 'built' ORDER BY key")]
    finally:
        db.close()
    return out


def test_the_build_on_ray_writes_the_table_the_build_here_writes(tmp_path: Path) -> None:
    import ray

    from citecheck.batch.treatment import build_on_ray

    rows = write_inputs(tmp_path, copies=40)  # so that many shards go to both workers

    here = build_treatment(tmp_path / "bulk", index_path=tmp_path / "index.sqlite", out=tmp_path / "here.sqlite",
                           workers=0)  # fmt: skip
    said: list[str] = []
    on_ray = build_on_ray(tmp_path / "bulk", index_path=tmp_path / "index.sqlite", out=tmp_path / "ray.sqlite",
                          workers=2, stage=said.append)  # fmt: skip

    assert not ray.is_initialized()  # the local instance is stopped
    assert "scanning on Ray: 2 workers" in said
    assert on_ray.scan.opinions == here.scan.opinions == rows
    assert here.treatments >= 3  # the history phrase, the court's own words, the parenthetical
    assert (on_ray.candidates, on_ray.kept, on_ray.treatments, on_ray.refused, on_ray.scan.refused) == (
        here.candidates, here.kept, here.treatments, here.refused, here.scan.refused)  # fmt: skip
    assert table_contents(tmp_path / "ray.sqlite") == table_contents(tmp_path / "here.sqlite")
    assert on_ray.cpu_seconds > 0


def test_treatment_build_joins_a_two_node_cluster_and_writes_the_same_table(tmp_path: Path) -> None:
    """``citecheck treatment build --ray-address`` from a driver process on a real two-node cluster started on
    this machine (one CPU each, loopback only, stopped after): the workers need citecheck and nothing else; the
    bulk files and the index are read by the driver."""
    import json
    import subprocess
    import sys

    from citecheck_testing.ray_cluster import LoopbackCluster, is_loopback

    rows = write_inputs(tmp_path, copies=40)
    build_treatment(tmp_path / "bulk", index_path=tmp_path / "index.sqlite", out=tmp_path / "here.sqlite",
                    workers=0)  # fmt: skip
    (tmp_path / "citecheck.toml").write_text("", encoding="utf-8")
    argv = [sys.executable, "-m", "citecheck", "treatment", "build", str(tmp_path / "bulk"), "--offline",
            "--json", "--index", str(tmp_path / "index.sqlite"), "--out", str(tmp_path / "cluster.sqlite")]  # fmt: skip
    with LoopbackCluster(cpus_per_node=1) as cluster:
        env = {**cluster.driver_env(), "CITECHECK_CONFIG": str(tmp_path / "citecheck.toml")}
        done = subprocess.run([*argv, "--ray-address", cluster.address, "--workers", "2"], env=env, cwd=tmp_path,
                              capture_output=True, text=True, timeout=600)  # fmt: skip
        heard = cluster.listening()
        assert done.returncode == 0, done.stderr + cluster.logs()
        assert heard and all(is_loopback(a) for a in heard), sorted(heard)
    assert not cluster.procs  # stopped
    assert "scanning on Ray: 2 workers" in done.stderr and "Traceback" not in done.stderr
    figures = json.loads(done.stdout)
    assert figures["opinions"] == rows and figures["treatments"] >= 3
    assert table_contents(tmp_path / "cluster.sqlite") == table_contents(tmp_path / "here.sqlite")
