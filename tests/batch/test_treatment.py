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
