"""``citecheck treatment build --ray [--ray-address ADDR]``: the treatment build's scan on Ray (issue 38 item 4).

The driver reads each bulk file once (one reader: a bz2 stream is read from its start) and cuts it into
shards, as the single-machine build does; the shards are scanned by one-CPU Ray tasks on every node
(``engine.map_ordered``: results in order, at most two a worker in flight, so the file is never all in
memory), and the results are resolved through the index and written here, as one table: the table the
single-machine build writes from the same files (tests/batch/test_treatment.py). The scan is a pure function
of its shard, so a worker needs citecheck installed and nothing else: no index, corpus or settings.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from pathlib import Path

from citecheck import __version__
from citecheck.batch.engine import cluster_cpus, map_ordered, ray_session
from citecheck.config import Settings
from citecheck.errors import ConfigError
from citecheck.sources.treatment.build import BuildStats, build_treatment
from citecheck.sources.treatment.scan import ScanResult

Shard = list[tuple[str, ...]]
ScanFn = Callable[[Shard], ScanResult]


def scan_shard(job: tuple[ScanFn, Shard]) -> tuple[ScanResult, float, str]:
    """One Ray task: a shard scanned, the CPU seconds it took on its worker (the driver's clock does not see
    a worker's time, and the build's opinions per CPU-second must count it) and the worker's citecheck version
    (another version may read the words otherwise: the table would not be the one a build here writes)."""
    fn, shard = job
    began = time.process_time()
    result = fn(shard)
    return result, time.process_time() - began, __version__


def build_on_ray(
    path: Path,
    *,
    index_path: Path,
    out: Path,
    address: str | None = None,
    workers: int | None = None,
    stage: Callable[[str], None] | None = None,
    confirm_with: Settings | None = None,
) -> BuildStats:
    """``build_treatment`` with its scan spread over the Ray cluster at ``address``, or a local instance of
    ``workers`` CPUs (None: every CPU here); Ray is stopped (or left, on a cluster) afterwards."""
    remote_cpu = 0.0
    with ray_session(address, workers) as ray:
        n = cluster_cpus(ray, workers)
        if stage is not None:
            stage(f"scanning on Ray: {n} workers")

        def scan(shards: Iterable[Shard], fn: ScanFn) -> ScanResult:
            nonlocal remote_cpu
            result = ScanResult()
            for part, cpu, version in map_ordered(ray, scan_shard, ((fn, shard) for shard in shards), n):
                if version != __version__:
                    raise ConfigError(
                        f"a worker of the Ray cluster runs citecheck {version}, this machine {__version__}: "
                        "install the same version on every node"
                    )
                result.candidates.extend(part.candidates)
                result.stats.add(part.stats)
                remote_cpu += cpu
            return result

        stats = build_treatment(
            path, index_path=index_path, out=out, stage=stage, confirm_with=confirm_with, scanner=scan
        )
    stats.cpu_seconds += remote_cpu
    stats.worker_cpu_seconds = remote_cpu
    return stats


__all__ = ["build_on_ray", "scan_shard"]
