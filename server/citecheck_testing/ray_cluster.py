"""A real two-node Ray cluster on this machine, loopback only, for the ``--ray-address`` test (never shipped).

The head is ``ray start --head``; the second node is ``ray start --address`` (a second raylet with its own
object store and workers, as on another machine). Both bind and advertise 127.0.0.1 only:

- Ray replaces 127.0.0.1 by the machine's network address unless clusters are "off"
  (``RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER=0``), which the head and the drivers use; ``ray start --address``
  refuses to start with that variable, so the second node is ``ray start`` with Ray's one localhost-to-
  network-address replacement (``services.resolve_ip_for_localhost``) turned into the identity;
- token authentication with a token of this cluster's own (``RAY_AUTH_TOKEN``), no dashboard, no usage
  statistics, its files in a private temporary folder.

Each node runs in a process group of its own (``ray start --block``), so ``stop`` ends exactly the
processes this cluster started, by their group ids, whatever happened, and never another Ray on the machine.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

_SECOND_NODE = (
    "import ray._private.services as s\n"
    "s.resolve_ip_for_localhost = lambda host: host  # stay on 127.0.0.1 (see citecheck_testing.ray_cluster)\n"
    "from ray.scripts.scripts import main\n"
    "main()\n"
)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class LoopbackCluster:
    """``with LoopbackCluster() as c: … c.address … c.env …``; stopped on exit whatever happens."""

    def __init__(self, cpus_per_node: int = 1, start_timeout_s: float = 120.0) -> None:
        self.cpus = cpus_per_node
        self.timeout = start_timeout_s
        self.port = free_port()
        self.address = f"127.0.0.1:{self.port}"
        self.temp = Path(tempfile.mkdtemp(prefix="cc-raycl-", dir="/tmp" if os.path.isdir("/tmp") else None))
        self.env = {
            **os.environ,
            "RAY_USAGE_STATS_ENABLED": "0",
            "RAY_AUTH_MODE": "token",
            "RAY_AUTH_TOKEN": secrets.token_hex(16),
        }
        self.procs: list[subprocess.Popen[bytes]] = []

    def __enter__(self) -> LoopbackCluster:
        try:
            self._start()
        except BaseException:
            self.stop()
            raise
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def _ray(self) -> list[str]:
        return [sys.executable, "-c", "from ray.scripts.scripts import main; main()"]

    def _spawn(self, argv: list[str], env: dict[str, str], log: str) -> None:
        with open(self.temp / log, "wb") as out:
            self.procs.append(
                subprocess.Popen(
                    argv,
                    env=env,
                    stdout=out,
                    stderr=subprocess.STDOUT,
                    stdin=subprocess.DEVNULL,
                    start_new_session=True,
                )
            )

    def _start(self) -> None:
        common = [
            "--block",
            "--node-ip-address=127.0.0.1",
            f"--num-cpus={self.cpus}",
            "--disable-usage-stats",
        ]
        self._spawn(
            [*self._ray(), "start", "--head", f"--port={self.port}", "--include-dashboard=false",
             f"--temp-dir={self.temp}",
             f"--dashboard-agent-listen-port={free_port()}", *common],
            {**self.env, "RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER": "0"},
            "head.log",
        )  # fmt: skip
        self.wait_for_nodes(1)
        self._spawn(
            [sys.executable, "-c", _SECOND_NODE, "start", f"--address={self.address}",
             f"--dashboard-agent-listen-port={free_port()}", *common],
            {**self.env, "RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER": "1"},  # whatever the caller's environment says
            "node2.log",
        )  # fmt: skip
        self.wait_for_nodes(2)

    def driver_env(self) -> dict[str, str]:
        """The environment of a process that joins this cluster (``citecheck batch --ray-address``)."""
        return {**self.env, "RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER": "0"}

    def wait_for_nodes(self, n: int) -> None:
        """Until ``n`` nodes are alive (asked by a short-lived driver), or the start timeout."""
        probe = (
            "import ray, sys\n"
            f"ray.init(address={self.address!r}, log_to_driver=False, logging_level='ERROR')\n"
            "print(sum(1 for x in ray.nodes() if x['Alive']))\n"
        )
        deadline = time.monotonic() + self.timeout
        last = ""
        while time.monotonic() < deadline:
            for p in self.procs:
                if p.poll() is not None:
                    raise RuntimeError(f"a Ray node exited ({p.returncode}): {self.logs()}")
            try:
                done = subprocess.run(
                    [sys.executable, "-c", probe],
                    env=self.driver_env(),
                    capture_output=True,
                    text=True,
                    timeout=60,
                )
                last = done.stdout.strip() or done.stderr.strip()[-500:]
                if done.returncode == 0 and int(done.stdout.strip().splitlines()[-1]) >= n:
                    return
            except (subprocess.TimeoutExpired, ValueError, IndexError):
                pass
            time.sleep(1.0)
        raise RuntimeError(
            f"the cluster did not reach {n} nodes in {self.timeout:g} s ({last}): {self.logs()}"
        )

    def pids(self) -> set[int]:
        """Every live process of this cluster's process groups."""
        groups = {p.pid for p in self.procs}
        out = set()
        for entry in Path("/proc").iterdir():
            if entry.name.isdigit():
                with contextlib.suppress(OSError, ValueError):
                    if os.getpgid(int(entry.name)) in groups:
                        out.add(int(entry.name))
        return out

    def listening(self) -> list[str]:
        """``host:port`` of every TCP socket a process of this cluster listens on (Linux /proc)."""
        inodes: set[str] = set()
        for pid in self.pids():
            with contextlib.suppress(OSError):
                for fd in Path(f"/proc/{pid}/fd").iterdir():
                    with contextlib.suppress(OSError):
                        target = os.readlink(fd)
                        if target.startswith("socket:["):
                            inodes.add(target[8:-1])
        out = []
        for table, v6 in (("/proc/net/tcp", False), ("/proc/net/tcp6", True)):
            with contextlib.suppress(OSError), open(table, encoding="ascii") as fh:
                for line in list(fh)[1:]:
                    cols = line.split()
                    if cols[3] == "0A" and cols[9] in inodes:  # LISTEN
                        out.append(_address(cols[1], v6))
        return out

    def logs(self) -> str:
        return " | ".join(
            f"{p.name}: {p.read_text(errors='replace')[-1500:]}" for p in sorted(self.temp.glob("*.log"))
        )

    def stop(self) -> None:
        """SIGTERM each node's process group (``ray start --block`` stops its node), SIGKILL what is left."""
        for p in self.procs:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(p.pid, signal.SIGTERM)
        deadline = time.monotonic() + 20
        for p in self.procs:
            with contextlib.suppress(subprocess.TimeoutExpired):
                p.wait(timeout=max(0.1, deadline - time.monotonic()))
        for p in self.procs:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(p.pid, signal.SIGKILL)
            with contextlib.suppress(subprocess.TimeoutExpired):
                p.wait(timeout=5)
        self.procs.clear()
        shutil.rmtree(self.temp, ignore_errors=True)


def is_loopback(address: str) -> bool:
    """``127.0.0.1:80``, ``[::1]:80`` and ``[::ffff:127.0.0.1]:80`` are; ``0.0.0.0:80`` and ``[::]:80`` are not."""
    import ipaddress

    host = address.rsplit(":", 1)[0].strip("[]")
    ip = ipaddress.ip_address(host)
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    return ip.is_loopback


def _address(hexaddr: str, v6: bool) -> str:
    import ipaddress

    host, port = hexaddr.split(":")
    raw = bytes.fromhex(host)
    if v6:
        ip = ipaddress.IPv6Address(b"".join(raw[i : i + 4][::-1] for i in range(0, 16, 4)))
        return f"[{ip}]:{int(port, 16)}"
    return f"{ipaddress.IPv4Address(raw[::-1])}:{int(port, 16)}"
