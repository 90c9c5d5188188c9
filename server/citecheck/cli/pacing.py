"""What the CLI says about CourtListener's pacing: the "N of M verified; K waiting" line and ``--wait``'s bar.

Why: a run that stops at its deadline leaves citations waiting for the service's allowance; the
user must see how many, for about how long, and what to do ("run again or use --wait") — never a
silent cannot-verify. ``--wait`` keeps going and shows progress on stderr (a bar on a terminal, a
line per long wait otherwise). A rejected token is said once, in one line. Only stderr is used.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any, TextIO

from citecheck.config import Settings
from citecheck.sources.pacing import about

VERIFIED = "verified"


def summary_line(verified: int, total: int, waiting: int, eta_s: float) -> str:
    """The line the CLI prints after a run.

    >>> print(summary_line(742, 1000, 258, 250))
    742 of 1,000 citations verified; 258 waiting for CourtListener's rate limit (about 4 min) — run again or use --wait
    >>> summary_line(1000, 1000, 0, 0)
    '1,000 of 1,000 citations verified'
    """
    line = f"{verified:,} of {total:,} citations verified"
    if waiting:
        line += (
            f"; {waiting:,} waiting for CourtListener's rate limit ({about(eta_s)}) — run again or use --wait"
        )
    return line


class PacingDisplay:
    """Hooks the CourtListener client (if any) for progress; prints the summary at the end."""

    def __init__(self, remote: Any, stream: TextIO, settings: Settings) -> None:
        self.remote = remote if hasattr(remote, "pacer") else None
        self.stream = stream
        self.wait_mode = settings.courtlistener_budget_s is None
        self._bar: Any = None
        self._task: Any = None
        self._last_line = 0.0

    def __enter__(self) -> PacingDisplay:
        if self.remote is None or not self.wait_mode:
            return self
        if self._isatty():
            from rich.console import Console
            from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

            self._bar = Progress(TextColumn("CourtListener {task.description}"), BarColumn(), MofNCompleteColumn(),
                                 TimeRemainingColumn(), console=Console(file=self.stream), transient=True)  # fmt: skip
            self._bar.start()
            self._task = self._bar.add_task("looking up", total=None)
        self.remote.on_progress = self._progress
        self.remote.pacer.on_wait = self._waiting
        return self

    def __exit__(self, *exc: object) -> None:
        if self._bar is not None:
            self._bar.stop()
            self._bar = None
        if self.remote is not None:
            self.remote.on_progress = None
            self.remote.pacer.on_wait = None

    def _isatty(self) -> bool:
        try:
            return self.stream.isatty()
        except (AttributeError, ValueError):
            return False

    def _progress(self, done: int, total: int, _why: str) -> None:
        self._done, self._total = done, total
        if self._bar is not None:
            self._bar.update(self._task, completed=done, total=total, description="looking up")

    def _waiting(self, seconds: float, why: str) -> None:
        if self._bar is not None:
            self._bar.update(self._task, description=f"waiting {about(seconds)} for {why}")
            return
        now = time.monotonic()
        if seconds >= 1.0 and now - self._last_line >= 1.0:  # a line per real wait, not per wake-up
            self._last_line = now
            done = getattr(self, "_done", 0)
            total = getattr(self, "_total", 0)
            where = f" ({done:,} of {total:,} citations looked up)" if total else ""
            self._print(f"waiting {about(seconds)} for {why}{where}")

    def _print(self, line: str) -> None:
        try:
            self.stream.write(f"citecheck: {line}\n")
            self.stream.flush()
        except (OSError, ValueError):
            pass

    def summary(self, reports: Sequence[Any]) -> None:
        """One line about CourtListener after the run: a rejected token, or how much is still waiting."""
        if self.remote is None:
            return
        if getattr(self.remote, "auth_error", None):
            self._print(self.remote.auth_error)
        results = [r for rep in reports for r in getattr(rep, "results", ())]
        total = len(results)
        pending = [r.pending_until for r in results if getattr(r, "pending_until", None) is not None]
        # a case found whose quotes still wait for its text counts as waiting, not as verified
        verified = sum(
            1 for r in results if r.status == VERIFIED and getattr(r, "pending_until", None) is None
        )
        if not pending and not (self.wait_mode and self.remote.pacer.sent):
            return
        eta = 0.0
        if pending:
            eta = max(0.0, min(pending) - time.time())
            rate = self.remote.pacer.citation_rate
            if rate is not None:
                eta += len(pending) / rate.count * rate.window_s
        self._print(summary_line(verified, total, len(pending), eta))
