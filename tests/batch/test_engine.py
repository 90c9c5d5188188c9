"""The Ray engine's pieces that stand alone: where a cluster is, an ordered map of shards, a session that ends."""

from __future__ import annotations

import json

import pytest

from citecheck.batch.engine import on_loopback


@pytest.mark.parametrize(
    ("address", "local"),
    [(None, True), ("127.0.0.1:6379", True), ("localhost:6379", True), ("[::1]:6379", True),
     ("10.0.0.5:6379", False), ("head.cluster.internal:6379", False), ("auto", False)],
)  # fmt: skip
def test_a_cluster_is_on_this_machine_only_at_a_loopback_address(address, local) -> None:
    assert on_loopback(address) is local


def test_map_ordered_gives_each_result_in_the_items_order_and_the_session_ends() -> None:
    pytest.importorskip("ray", reason="Ray is the [scale] extra (in [dev]); not installed here")
    from citecheck.batch.engine import map_ordered, ray_session

    items = [{"shard": i, "rows": list(range(i))} for i in range(25)]
    with ray_session(None, 2) as ray:
        assert ray.is_initialized()
        assert list(map_ordered(ray, json.dumps, iter(items), 2)) == [json.dumps(x) for x in items]
    assert not ray.is_initialized()
