"""The ``citecheck-lsp`` command line."""

from __future__ import annotations

import subprocess
import sys

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
