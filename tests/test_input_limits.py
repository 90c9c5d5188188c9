"""Inputs without a size: /dev/zero, /dev/urandom and an endless pipe are read with a limit and refused
in one line; a UTF-16 file with one bad surrogate is read as UTF-16, not as cp1252."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from citecheck.errors import InputError
from citecheck.inputs import read_input


class Endless:
    """A pipe that never ends (``yes "See 410 U.S. 113." | citecheck check -``)."""

    def __init__(self, chunk: bytes) -> None:
        self.chunk = chunk
        self.read_bytes = 0

    def read(self, n: int = -1) -> bytes:
        assert n is not None and n >= 0, "an unbounded read of an endless pipe never returns"
        n = min(n, 1 << 20)
        out = (self.chunk * (n // len(self.chunk) + 1))[:n]
        self.read_bytes += len(out)
        return out


def test_an_endless_pipe_is_read_up_to_the_limit() -> None:
    pipe = Endless(b"See 410 U.S. 113. ")
    with pytest.raises(InputError, match="limit"):
        read_input("-", stdin=pipe, max_chars=100_000)
    assert pipe.read_bytes <= 100_000 * 4 + (1 << 20)  # bounded by the character limit, not 200 MB


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="no /dev/zero on this system")
@pytest.mark.parametrize("device", ["/dev/zero", "/dev/urandom"])
def test_devices_are_refused_quickly(device: str) -> None:
    import resource

    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    with pytest.raises(InputError) as err:
        read_input(device)
    assert device in str(err.value)
    grown_mb = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before) / 1024
    assert grown_mb < 50, grown_mb


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="no /dev/zero on this system")
def test_cli_on_dev_zero_is_one_line_exit_2() -> None:
    env = {**os.environ, "CITECHECK_OFFLINE": "1"}
    proc = subprocess.run(
        [sys.executable, "-m", "citecheck", "check", "/dev/zero"], capture_output=True, timeout=120, env=env
    )
    assert proc.returncode == 2
    assert len([ln for ln in proc.stderr.decode().splitlines() if ln.strip()]) <= 2, proc.stderr


def test_utf16_with_one_bad_surrogate_is_read_as_utf16(tmp_path: Path) -> None:
    text = "See Roe v. Wade, 410 U.S. 113 (1973). And 😀 more.\n"
    raw = "\ufeff".encode("utf-16-le") + text.encode("utf-16-le")
    bad = raw.replace("😀".encode("utf-16-le"), "😀".encode("utf-16-le")[:2] + "x".encode("utf-16-le"))
    path = tmp_path / "brief.txt"
    path.write_bytes(bad)
    doc = read_input(str(path))
    assert "410 U.S. 113" in doc.text and "\x00" not in doc.text
