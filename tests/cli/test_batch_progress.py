"""``citecheck batch``'s progress line: done of total, failures, documents per second from the first document
handed out (not from Ray's start), and the time left."""

from __future__ import annotations

import io
import re
import time
from types import SimpleNamespace

from citecheck.cli import batch as batch_cli


class _Tty(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_the_line_counts_failures_and_says_rate_and_eta(monkeypatch) -> None:
    monkeypatch.setattr(batch_cli, "PROGRESS_EVERY_S", 0.0)
    out = io.StringIO()
    progress = batch_cli._Progress(10, out)
    progress.tick(SimpleNamespace(started=time.monotonic() - 2.0))  # work began 2 s ago (Ray started before)
    for failed in (False, True, False, False):
        progress.advance(SimpleNamespace(failed=failed))
    last = out.getvalue().splitlines()[-1]
    m = re.fullmatch(r"citecheck batch: 4/10 documents \(1 failed\), ([\d.]+) documents/s, ETA (\d+) s", last)
    assert m, last
    assert 1.5 <= float(m.group(1)) <= 2.1  # 4 documents in ~2 s of work
    assert 2 <= int(m.group(2)) <= 4  # 6 left at ~2 a second


def test_without_a_terminal_a_line_at_most_every_ten_seconds_and_on_one_redrawn_in_place() -> None:
    quiet = io.StringIO()
    progress = batch_cli._Progress(3, quiet)
    progress.tick(SimpleNamespace(started=time.monotonic()))
    progress.advance(SimpleNamespace(failed=False))
    assert quiet.getvalue() == ""  # the first line only after PROGRESS_EVERY_S
    tty = _Tty()
    live = batch_cli._Progress(3, tty)
    live.last = 0.0
    live.tick(SimpleNamespace(started=time.monotonic() - 1))
    live.advance(SimpleNamespace(failed=False))
    live.close()
    assert tty.getvalue().startswith("\r\x1b[2Kcitecheck batch: ")
    assert tty.getvalue().endswith("\r\x1b[2K")  # the line is cleared before the summary


def test_durations_read_as_a_person_says_them() -> None:
    assert [batch_cli._duration(s) for s in (44.4, 106, 7260)] == ["44 s", "1 min 46 s", "2 h 01 min"]
