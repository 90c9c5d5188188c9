"""Inputs without a size: /dev/zero, /dev/urandom and an endless pipe are read with a limit and refused
in one line; a UTF-16 file with one bad surrogate is read as UTF-16, not as cp1252."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import threading
import time
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


def _fifo(tmp_path: Path, name: str) -> Path:
    if not hasattr(os, "mkfifo"):
        pytest.skip("no named pipes (os.mkfifo) on this system")
    path = tmp_path / name
    os.mkfifo(path)
    return path


def _feed(path: Path, head: bytes, *, endless: bool) -> threading.Thread:
    """A writer on the FIFO: ``head``, then (``endless``) zeros until the reader goes away."""

    def write() -> None:
        try:
            with path.open("wb") as out:  # blocks until the reader opens the FIFO
                out.write(head)
                zeros = b"\0" * (1 << 20)
                while endless:
                    out.write(zeros)
        except (BrokenPipeError, ConnectionResetError):
            pass

    t = threading.Thread(target=write, daemon=True)
    t.start()
    return t


_PEAK_THEN_CLI = """
import atexit, re, sys
def peak():
    status = open("/proc/self/status").read()
    sys.stderr.write("peak-kb %s\\n" % re.search(r"VmHWM:\\s+(\\d+)", status).group(1))
atexit.register(peak)
from citecheck.cli import main
sys.exit(main(sys.argv[1:]))
"""


def test_a_fifo_nothing_writes_to_is_exit_2_in_one_line_at_once(tmp_path: Path) -> None:
    fifo = _fifo(tmp_path, "brief.md")
    env = {**os.environ, "CITECHECK_OFFLINE": "1"}
    # before: open() waited for a writer forever (the timeout below is the failure)
    proc = subprocess.run(
        [sys.executable, "-m", "citecheck", "check", str(fifo)], capture_output=True, timeout=60, env=env
    )
    assert proc.returncode == 2
    lines = [ln for ln in proc.stderr.decode().splitlines() if ln.strip()]
    assert len(lines) == 1 and "nothing is writing to" in lines[0] and str(fifo) in lines[0], lines


def test_a_fifo_with_a_writer_is_read(tmp_path: Path) -> None:
    fifo = _fifo(tmp_path, "brief.md")
    writer = _feed(fifo, b"See Roe v. Wade, 410 U.S. 113 (1973).\n", endless=False)
    doc = read_input(str(fifo))
    writer.join(5)
    assert "410 U.S. 113" in doc.text


@pytest.mark.parametrize(
    ("name", "head"), [("brief.docx", b"PK\x03\x04\x14\x00\x00\x00"), ("brief.pdf", b"%PDF-1.7\n%\xe2\xe3\n")]
)
def test_an_endless_docx_or_pdf_source_is_refused_under_200_mb(
    tmp_path: Path, name: str, head: bytes
) -> None:
    """A FIFO (or device) that starts like a .docx or a .pdf and never ends: refused at the 200 MB limit
    with the bytes spooled to disk, so the process peaks well under 200 MB (it peaked at ~450 MB)."""
    if not Path("/proc/self/status").exists():
        pytest.skip("no /proc/self/status to read the process's own peak memory (VmHWM) from")
    fifo = _fifo(tmp_path, name)
    writer = _feed(fifo, head, endless=True)
    env = {**os.environ, "CITECHECK_OFFLINE": "1", "TMPDIR": str(tmp_path)}
    # the child's own high-water mark (VmHWM): its rusage would count the test process it was forked from
    proc = subprocess.run(
        [sys.executable, "-c", _PEAK_THEN_CLI, "check", str(fifo)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        env=env,
        timeout=300,
        text=True,
    )
    writer.join(10)
    assert proc.returncode == 2, proc.stderr
    assert "larger than 200 MB" in proc.stderr
    peak_mb = int(re.search(r"peak-kb (\d+)", proc.stderr).group(1)) / 1024  # type: ignore[union-attr]
    assert peak_mb <= 200, f"peak {peak_mb:.0f} MB"
    assert not list(tmp_path.glob("citecheck-input-*")), "the spooled bytes were left behind"


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="no /dev/zero on this system")
@pytest.mark.parametrize(("name", "expected"), [("z.docx", "not a valid .docx"), ("z.pdf", "not a PDF")])
def test_a_device_named_like_a_document_is_refused_from_its_first_bytes(
    tmp_path: Path, name: str, expected: str
) -> None:
    link = tmp_path / name
    link.symlink_to("/dev/zero")
    started = time.monotonic()
    with pytest.raises(InputError, match=expected):
        read_input(str(link))
    assert time.monotonic() - started < 30  # not 200 MB of zeros first
