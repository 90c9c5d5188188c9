"""The ``citecheck-lsp`` command line."""

from __future__ import annotations

import subprocess
import sys

import pytest

from citecheck.lsp.__main__ import build_parser


def test_defaults_to_stdio() -> None:
    args = build_parser().parse_args([])
    assert not args.tcp and args.host == "127.0.0.1" and args.port == 2087 and args.log_level == "WARNING"


def test_stdio_and_tcp_are_exclusive() -> None:
    with pytest.raises(SystemExit):
        build_parser().parse_args(["--stdio", "--tcp"])


def test_stdio_flag_accepted_and_stdout_stays_clean() -> None:
    # EOF on stdin: the server must exit without writing anything but protocol to stdout
    proc = subprocess.run(
        [sys.executable, "-m", "citecheck.lsp", "--stdio", "--log-level", "debug"],
        input=b"", capture_output=True, timeout=60,
    )
    assert proc.stdout == b""
