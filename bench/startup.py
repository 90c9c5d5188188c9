"""A one-sentence ``citecheck check --offline``: how long a lawyer waits for a one-line paste (issue 40).

Each run is a fresh process (``python -m citecheck check --offline``) on a one-sentence document, with
bytecode cached (this environment may set PYTHONDONTWRITEBYTECODE: it is unset here, as on a user's
machine) and the tokenizer's table cached (the first run writes it; runs start after one warm-up).
Prints the wall and CPU seconds (median, min, max) and ``python -X importtime``'s figure for importing
the command line. ``--base DIR`` runs another checkout's code (its ``server/`` first on the path)
interleaved with this one's, A B A B, and prints the ratio of the medians.

    python bench/startup.py [--runs 10] [--base /path/to/other/checkout]
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SENTENCE = "See Roe v. Wade, 410 U.S. 113, 120 (1973).\n"


def _load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def _env(server: Path, home: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("CITECHECK_")}
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env["PYTHONPATH"] = str(server)
    for xdg in ("XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME"):
        env[xdg] = str(home / xdg.lower())
    return env


def one_run(server: Path, doc: Path, home: Path) -> tuple[float, float]:
    """(wall, CPU) seconds of one ``citecheck check --offline`` process."""
    cmd = [sys.executable, "-m", "citecheck", "check", "--offline", "--fail-on", "never", str(doc)]
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, env=_env(server, home), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    assert proc.stderr is not None
    err = proc.stderr.read().decode(errors="replace")
    proc.stderr.close()
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"citecheck failed: {err[-2000:]}")
    return wall, usage.ru_utime + usage.ru_stime


def import_ms(server: Path, home: Path) -> float:
    """``python -X importtime``'s cumulative microseconds for ``citecheck.cli``, as milliseconds."""
    out = subprocess.run(
        [sys.executable, "-X", "importtime", "-c", "import citecheck.cli"],
        env=_env(server, home),
        capture_output=True,
        text=True,
        check=True,
    ).stderr
    found = re.findall(r"\|\s*(\d+)\s*\|\s*citecheck\.cli$", out, re.M)
    return int(found[-1]) / 1000 if found else float("nan")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=10)
    ap.add_argument("--base", type=Path, default=None, help="another checkout, run interleaved (B)")
    args = ap.parse_args(argv)
    trees = {"A (this checkout)": ROOT / "server"}
    if args.base:
        trees[f"B ({args.base})"] = args.base / "server"
    print(
        f"one-sentence check, python {sys.version.split()[0]}, {os.cpu_count()} CPUs; load average {_load()} at start"
    )
    with tempfile.TemporaryDirectory(prefix="citecheck-startup-") as tmp:
        home = Path(tmp)
        doc = home / "one.txt"
        doc.write_text(SENTENCE, encoding="utf-8")
        for server in trees.values():  # bytecode written, the tokenizer's table built: not counted
            subprocess.run(
                [sys.executable, "-m", "compileall", "-q", str(server)], env=_env(server, home), check=False
            )
            one_run(server, doc, home)
        runs: dict[str, list[tuple[float, float]]] = {k: [] for k in trees}
        for _ in range(args.runs):
            for name, server in trees.items():
                runs[name].append(one_run(server, doc, home))
        medians = {}
        for name, got in runs.items():
            walls, cpus = [w for w, _ in got], [c for _, c in got]
            medians[name] = statistics.median(walls)
            imports = statistics.median(import_ms(trees[name], home) for _ in range(3))
            print(
                f"{name}: wall median {statistics.median(walls):.3f} s (min {min(walls):.3f}, max {max(walls):.3f}); "
                f"CPU median {statistics.median(cpus):.3f} s; import citecheck.cli {imports:.0f} ms; {len(got)} runs"
            )
    if len(medians) == 2:
        a, b = medians.values()
        print(f"A/B wall: {a / b:.2f}")
    print(f"load average at the end {_load()}  (target: <= 0.4 s wall on a quiet machine)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
