"""Ray: start a local instance (or join a cluster), one worker actor per CPU, documents handed out one at
a time, timeouts and crashes turned into error rows, and the holding judge's endpoint pool.

The only module of the batch that imports Ray. A local instance binds 127.0.0.1, runs no dashboard,
sends no usage statistics, keeps its files in a private temporary folder and is stopped at the end,
whatever happens. On a cluster (``--ray-address``) only this job's actors are made and ended.
"""

from __future__ import annotations

import contextlib
import logging
import os
import shutil
import tempfile
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

from citecheck import __version__
from citecheck.batch.rows import DocOutcome, failed
from citecheck.batch.worker import Worker
from citecheck.config import Settings
from citecheck.errors import CitecheckError, ConfigError
from citecheck.ignores import IgnoreList

log = logging.getLogger(__name__)
_T = TypeVar("_T")
_R = TypeVar("_R")

INSTALL_HINT = 'citecheck batch needs Ray and pyarrow: pip install "citecheck-legal[scale]"'
#: How often the driver looks at its workers (timeouts, progress) when none has finished.
TICK_S = 0.25
#: Documents handed to a worker at once: the one it checks and the next (no wait for the driver between).
DEPTH = 2
#: How long workers may take to start and open their sources (a large index on a network disk is slow).
READY_TIMEOUT_S = 300.0
#: A local instance's shared-memory object store: rows are small, the documents are read by the workers.
LOCAL_OBJECT_STORE_BYTES = 256 * 1024 * 1024


class ScaleUnavailable(ConfigError):
    """Ray or pyarrow is not installed (the ``[scale]`` extra)."""


def require_scale() -> None:
    """Raise ``ScaleUnavailable`` with the one line that says how to install what is missing."""
    try:
        import pyarrow  # noqa: F401
        import ray  # noqa: F401
    except ImportError:
        raise ScaleUnavailable(INSTALL_HINT) from None


@dataclass(frozen=True, slots=True, kw_only=True)
class EngineOptions:
    workers: int | None = None  # None: every CPU (local) or every CPU of the cluster
    address: str | None = None  # None: a local instance
    timeout_s: float = 300.0  # one document, from the moment a worker takes it
    judge_urls: tuple[str, ...] = ()  # holding checks on these endpoints (empty: none)
    keep_ray_files: bool = False  # --debug: leave the local instance's logs


@dataclass
class RunStats:
    workers: int = 0
    started: float = 0.0  # monotonic: the first document handed out (Ray started, workers ready)
    finished: float = 0.0
    setup_s: float = 0.0  # starting or joining Ray and opening every worker's sources
    worker_peak_rss: list[int] = field(default_factory=list)  # bytes, one per live worker at the end
    restarts: int = 0  # workers replaced after a timeout or a crash
    judge: Any = None  # the endpoint pool's PoolStats, when holding checks ran


class _RayWorker(Worker):
    """``Worker`` as a Ray actor: its log lines go through the redacting formatter, at warning level."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        _worker_logging()
        super().__init__(*args, **kwargs)

    def version(self) -> str:
        return __version__

    def peak_rss(self) -> int:
        return peak_rss()


class _PoolActor:
    """``judges.EndpointPool`` as a Ray actor (async: every request of every worker on one loop)."""

    def __init__(self, settings: Settings, urls: Sequence[str]) -> None:
        from citecheck.batch.judges import EndpointPool

        _worker_logging()
        self.pool = EndpointPool.from_settings(settings, urls)

    async def call(self, method: str, messages: Any, seconds: float, remaining: float, *args: Any) -> Any:
        return await self.pool.call(method, messages, seconds, remaining, *args)

    def cache_get(self, key: Any) -> Any:
        return self.pool.cache_get(key)

    def cache_put(self, key: Any, judgment: Any) -> None:
        self.pool.cache_put(key, judgment)

    def report(self) -> Any:
        return self.pool.report()

    async def close(self) -> None:
        await self.pool.close()


def peak_rss() -> int:
    """This process's peak resident memory in bytes (Linux: VmHWM; elsewhere getrusage)."""
    try:
        with open("/proc/self/status", encoding="ascii") as fh:
            for line in fh:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    import resource

    return int(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss) * 1024


def _worker_logging() -> None:
    from citecheck.privacy import redact

    handler = logging.StreamHandler()
    handler.setFormatter(redact.RedactingFormatter("citecheck worker: %(levelname)s: %(message)s"))
    logging.basicConfig(level=logging.WARNING, handlers=[handler], force=True)
    redact.register_secrets_from_env(os.environ)
    redact.install()


def run(
    paths: Sequence[str],
    settings: Settings,
    ignores: IgnoreList | None,
    options: EngineOptions,
    on_outcome: Callable[[DocOutcome], None],
    on_tick: Callable[[RunStats], None] = lambda stats: None,
) -> RunStats:
    """Check ``paths`` on Ray; every one of them reaches ``on_outcome`` once (checked or failed), unless
    the run is interrupted (KeyboardInterrupt propagates after Ray is stopped)."""
    began = time.monotonic()
    with ray_session(options.address, options.workers, keep_files=options.keep_ray_files) as ray:
        return _run(ray, began, paths, settings, ignores, options, on_outcome, on_tick)


@contextlib.contextmanager
def ray_session(address: str | None, cpus: int | None, *, keep_files: bool = False) -> Iterator[Any]:
    """Ray, joined at ``address`` or started here with ``cpus`` CPUs (loopback only), and stopped (or left)
    afterwards whatever happens; yields the ``ray`` module."""
    require_scale()
    import ray

    with _kept_to_loopback(ray, on_loopback(address)):
        temp = _start(ray, address, cpus)
        try:
            yield ray
        finally:
            ray.shutdown()
            if temp is not None and not keep_files:
                shutil.rmtree(temp, ignore_errors=True)


def cluster_cpus(ray: Any, wanted: int | None) -> int:
    """How many one-CPU workers to start: ``wanted``, or every CPU the cluster has for this job."""
    cpus = int(ray.cluster_resources().get("CPU", 0))
    workers = wanted or max(1, cpus)
    if workers > cpus:  # a worker that cannot be placed would wait for a CPU forever
        raise ConfigError(f"--workers {workers}: the Ray cluster has {cpus} CPU(s) for this job")
    return workers


def map_ordered(ray: Any, fn: Callable[[_T], _R], items: Iterable[_T], workers: int) -> Iterator[_R]:
    """``map(fn, items)`` as Ray tasks of one CPU each, results in the items' order, at most two tasks a
    worker in flight (the items are read as results are taken: a bulk file's shards are never all in
    memory). ``fn`` must be a module-level function (workers import it by name)."""
    task = ray.remote(num_cpus=1, max_retries=0)(fn)
    pending: deque[Any] = deque()
    for item in items:
        pending.append(task.remote(item))
        while len(pending) >= 2 * workers:
            yield ray.get(pending.popleft())
    while pending:
        yield ray.get(pending.popleft())


def _run(
    ray: Any,
    began: float,
    paths: Sequence[str],
    settings: Settings,
    ignores: IgnoreList | None,
    options: EngineOptions,
    on_outcome: Callable[[DocOutcome], None],
    on_tick: Callable[[RunStats], None],
) -> RunStats:
    stats = RunStats()
    actors: list[Any] = []
    pool: Any = None
    try:
        workers = cluster_cpus(ray, options.workers)
        stats.workers = workers
        worker_settings = settings
        key = ""
        if options.judge_urls:
            from ray.util.scheduling_strategies import NodeAffinitySchedulingStrategy

            from citecheck.batch.judges import pool_id

            here = ray.get_runtime_context().get_node_id()
            pool = (
                ray.remote(num_cpus=0, max_concurrency=1000)(_PoolActor)
                .options(scheduling_strategy=NodeAffinitySchedulingStrategy(node_id=here, soft=False))
                .remote(settings, list(options.judge_urls))
            )
            key = pool_id(options.judge_urls)
            # the API key stays in the pool, on this node; the workers never see it
            from dataclasses import replace

            worker_settings = replace(settings, model_api_key=None)
        actor_class = ray.remote(num_cpus=1, max_restarts=0, max_task_retries=0)(_RayWorker)

        def start_worker() -> Any:
            return actor_class.remote(worker_settings, ignores, pool, key)

        actors = [start_worker() for _ in range(workers)]
        _await_ready(ray, actors)
        stats.setup_s = time.monotonic() - began
        stats.started = time.monotonic()
        on_tick(stats)  # the progress line's rate counts from here, not from Ray's start
        _dispatch(ray, paths, actors, start_worker, options, stats, on_outcome, on_tick)
        stats.finished = time.monotonic()
        stats.worker_peak_rss = [r for r in _gather_quietly(ray, [a.peak_rss.remote() for a in actors]) if r]
        if pool is not None:
            stats.judge = _gather_quietly(ray, [pool.report.remote()])[0]
        return stats
    finally:
        for a in actors:
            _kill(ray, a)
        if pool is not None:
            _gather_quietly(ray, [pool.close.remote()])
            _kill(ray, pool)


def on_loopback(address: str | None) -> bool:
    """Is the cluster on this machine (a local instance, or an address on 127.0.0.0/8 / ::1)?

    >>> on_loopback(None), on_loopback("127.0.0.1:6379"), on_loopback("ray://10.0.0.5:10001")
    (True, True, False)
    """
    if not address:
        return True
    import ipaddress
    from urllib.parse import urlsplit

    host = urlsplit(address if "://" in address else f"ray://{address}").hostname or ""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


_CLUSTERS = "RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER"


@contextlib.contextmanager
def _kept_to_loopback(ray: Any, loopback: bool) -> Iterator[None]:
    """Ray replaces 127.0.0.1 by the machine's network address unless it is told clusters are off
    (``RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER=0``, read when Ray is imported; the processes it starts read
    the variable); with it, a local instance and a driver joining a cluster on this machine bind and
    advertise loopback only (docs/scale.md). Both are put back afterwards (a caller in the same process)."""
    constants: Any = getattr(getattr(ray, "_private", None), "ray_constants", None)
    before_env, before_flag = os.environ.get(_CLUSTERS), getattr(constants, "ENABLE_RAY_CLUSTER", None)
    if loopback:
        os.environ[_CLUSTERS] = "0"
        if before_flag is not None:
            constants.ENABLE_RAY_CLUSTER = False  # Ray was imported before the variable was set
    try:
        yield
    finally:
        if loopback:
            if before_env is None:
                os.environ.pop(_CLUSTERS, None)
            else:
                os.environ[_CLUSTERS] = before_env
            if before_flag is not None:
                constants.ENABLE_RAY_CLUSTER = before_flag


def _start(ray: Any, address: str | None, cpus: int | None) -> str | None:
    """Join the cluster at ``address``, or start a private local instance; returns its folder."""
    os.environ["RAY_USAGE_STATS_ENABLED"] = "0"  # before Ray reads it; the cluster's own setting otherwise
    # Ray's token authentication is on (good); its warning saying so on every run is not for a user
    logging.getLogger("ray._private.authentication.authentication_token_setup").setLevel(logging.ERROR)
    quiet = {"log_to_driver": False, "configure_logging": True, "logging_level": logging.WARNING}
    if address:
        try:
            ray.init(address=address, **quiet)
        except Exception as exc:
            raise ConfigError(f"cannot join the Ray cluster at {address}: {_first_line(exc)}") from exc
        return None
    temp = tempfile.mkdtemp(prefix="citecheck-ray-", dir="/tmp" if os.path.isdir("/tmp") else None)
    try:
        ray.init(
            address="local",
            num_cpus=cpus or os.cpu_count() or 1,
            include_dashboard=False,
            object_store_memory=LOCAL_OBJECT_STORE_BYTES,
            _node_ip_address="127.0.0.1",
            _temp_dir=temp,
            **quiet,
        )
    except Exception as exc:
        shutil.rmtree(temp, ignore_errors=True)
        raise ConfigError(f"cannot start a local Ray instance: {_first_line(exc)}") from exc
    return temp


def _await_ready(ray: Any, actors: Sequence[Any]) -> None:
    """Every worker has opened its sources; a worker that cannot stops the run with its reason."""
    from ray.exceptions import GetTimeoutError, RayActorError

    try:
        problems = ray.get([a.ready.remote() for a in actors], timeout=READY_TIMEOUT_S)
    except GetTimeoutError:
        raise ConfigError(
            f"the workers did not start within {READY_TIMEOUT_S:g} s (is citecheck installed on every node?)"
        ) from None
    except RayActorError as exc:
        raise ConfigError(f"a worker could not start: {_first_line(exc)}") from None
    for problem in problems:
        if problem:
            raise CitecheckError(problem)
    versions = set(ray.get([a.version.remote() for a in actors]))
    if versions != {__version__}:
        raise ConfigError(
            f"the cluster's workers run citecheck {', '.join(sorted(versions))}, this machine {__version__}: "
            "install the same version on every node"
        )


def _dispatch(
    ray: Any,
    paths: Sequence[str],
    actors: list[Any],
    start_worker: Callable[[], Any],
    options: EngineOptions,
    stats: RunStats,
    on_outcome: Callable[[DocOutcome], None],
    on_tick: Callable[[RunStats], None],
) -> None:
    """Each worker holds ``DEPTH`` documents: the one it checks and the next, so that it never waits for
    the driver between two. A worker checks one document at a time, so its first document began when
    the one before it ended: that is the time a timeout counts from. A worker that dies or times out
    takes only that document with it; the one queued behind is handed out again."""
    todo = deque(paths)
    queues: list[deque[tuple[Any, str]]] = [deque() for _ in actors]
    began: list[float] = [0.0] * len(actors)  # when the document at the head of each queue began
    while todo or any(queues):
        now = time.monotonic()
        for i, queue in enumerate(queues):
            while len(queue) < DEPTH and todo:
                path = todo.popleft()
                queue.append((actors[i].check.remote(path), path))
                if len(queue) == 1:
                    began[i] = now
        heads = {q[0][0]: i for i, q in enumerate(queues) if q}
        done, _ = ray.wait(list(heads), num_returns=1, timeout=TICK_S)
        if done:
            done, _ = ray.wait(list(heads), num_returns=len(heads), timeout=0)
        for ref in done:
            i = heads[ref]
            _, path = queues[i].popleft()
            outcome, lost = _outcome(ray, ref, path, time.monotonic() - began[i])
            on_outcome(outcome)
            if lost:
                _requeue(todo, queues[i])
                actors[i] = _replace(ray, actors[i], start_worker, stats)
            began[i] = time.monotonic()
        now = time.monotonic()
        for i, queue in enumerate(queues):
            if queue and now - began[i] > options.timeout_s:
                _, path = queue.popleft()
                why = f"not checked within {options.timeout_s:g} s (timeout)"
                on_outcome(failed(path, now - began[i], why, "timeout"))
                _requeue(todo, queue)
                actors[i] = _replace(ray, actors[i], start_worker, stats)
        on_tick(stats)


def _outcome(ray: Any, ref: Any, path: str, seconds: float) -> tuple[DocOutcome, bool]:
    """The document's outcome, and whether its worker was lost with it."""
    from ray.exceptions import GetTimeoutError, RayActorError, RayTaskError

    try:
        return ray.get(ref), False
    except RayActorError as exc:
        return failed(path, seconds, _died(exc), "crashed"), True
    except (RayTaskError, GetTimeoutError) as exc:
        return failed(path, seconds, f"internal error: {_first_line(exc)}", "internal"), False


def _requeue(todo: deque[str], queue: deque[tuple[Any, str]]) -> None:
    """Documents queued behind one that took its worker down go back to the front, in order."""
    todo.extendleft(path for _, path in reversed(queue))
    queue.clear()


def _replace(ray: Any, actor: Any, start_worker: Callable[[], Any], stats: RunStats) -> Any:
    """A fresh worker in place of one that timed out or died (its sources opened anew)."""
    _kill(ray, actor)
    stats.restarts += 1
    fresh = start_worker()
    _await_ready(ray, [fresh])
    return fresh


def _died(exc: BaseException) -> str:
    """Why a worker stopped, as far as Ray knows: its memory monitor says so when it killed it; a worker
    killed from outside (the kernel's OOM killer) or crashed in a library looks the same from here."""
    if "running low on memory" in str(exc) or type(exc).__name__ == "OutOfMemoryError":
        return "the worker checking it was stopped: the machine ran low on memory"
    return "the worker checking it stopped unexpectedly (killed, out of memory or crashed; the document may be hostile)"


def _kill(ray: Any, actor: Any) -> None:
    try:
        ray.kill(actor, no_restart=True)
    except Exception as exc:  # already gone
        log.debug("kill: %s", exc)


def _gather_quietly(ray: Any, refs: list[Any]) -> list[Any]:
    out = []
    for ref in refs:
        try:
            out.append(ray.get(ref, timeout=30))
        except Exception as exc:
            log.debug("ignored: %s", exc)
            out.append(None)
    return out


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return text[0] if text else type(exc).__name__
