"""The ``citecheck-lsp`` command line."""

from __future__ import annotations

import subprocess
import sys
import threading

import pytest

from citecheck.lsp.__main__ import build_parser


def test_defaults_to_stdio() -> None:
    args = build_parser().parse_args([])
    assert not args.tcp and args.log_level == "WARNING"


@pytest.mark.parametrize(
    "argv", [["--tcp"], ["--tcp", "--host", "0.0.0.0", "--port", "2087"], ["--port", "1"]]
)
def test_tcp_is_refused_with_one_line(argv: list[str]) -> None:
    # a TCP port would let any local process (or a web page, via DNS rebinding) send settings
    proc = subprocess.run([sys.executable, "-m", "citecheck.lsp", *argv], capture_output=True, timeout=60)
    assert proc.returncode == 2
    assert proc.stdout == b"" and b"--stdio" in proc.stderr and len(proc.stderr.splitlines()) == 1


def test_stdio_flag_accepted_and_stdout_stays_clean() -> None:
    # EOF on stdin: the server must exit without writing anything but protocol to stdout
    proc = subprocess.run(
        [sys.executable, "-m", "citecheck.lsp", "--stdio", "--log-level", "debug"],
        input=b"",
        capture_output=True,
        timeout=60,
    )
    assert proc.stdout == b""


def test_the_warm_up_runs_before_the_first_message() -> None:
    """The checks' first run starts as soon as the modules are imported, before ``initialize`` (which VS
    Code's extension may send only after reading the CourtListener token): nothing is sent to the server
    here, and the warm-up still finishes."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "citecheck.lsp", "--stdio", "--log-level", "debug"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert proc.stdin is not None and proc.stderr is not None
    guard = threading.Timer(120, proc.kill)  # without a warm-up it would wait for a message forever
    guard.start()
    try:
        lines = []
        for raw in proc.stderr:  # ends when the server exits
            lines.append(raw.decode(errors="replace"))
            if "warm-up: extraction and checks ready" in lines[-1]:
                break
        else:
            pytest.fail("the server exited without warming up:\n" + "".join(lines))
        proc.stdin.close()  # EOF without shutdown: the server exits (status 1), having sent nothing
        assert proc.wait(timeout=60) == 1
        assert proc.stdout is not None and proc.stdout.read() == b""
    finally:
        guard.cancel()
        if proc.poll() is None:
            proc.kill()
            proc.wait()
