"""``$/progress`` for slow source work, shown only when a check takes more than a moment."""

from __future__ import annotations

import contextlib
import logging
import time
import uuid
from typing import TYPE_CHECKING

from lsprotocol import types

if TYPE_CHECKING:
    from citecheck.lsp.server import CiteServer

log = logging.getLogger(__name__)


class Progress:
    """``$/progress`` for slow source work (only shown when it takes more than a moment)."""

    def __init__(self, server: CiteServer) -> None:
        self.server = server
        self.token: str | None = None
        self.started = 0.0

    async def begin(self, title: str) -> None:
        token = f"citecheck-{uuid.uuid4().hex[:12]}"
        try:
            await self.server.work_done_progress.create_async(token)
        except Exception as exc:  # the client refused; progress is a courtesy
            log.debug("progress create failed: %s", exc)
            return
        self.token, self.started = token, time.monotonic()
        self.server.work_done_progress.begin(
            token, types.WorkDoneProgressBegin(title="citecheck", message=title, cancellable=False)
        )

    def report(self, message: str, percentage: int | None = None) -> None:
        if self.token is None:
            return
        with contextlib.suppress(Exception):
            self.server.work_done_progress.report(
                self.token, types.WorkDoneProgressReport(message=message, percentage=percentage)
            )

    def end(self) -> None:
        if self.token is None:
            return
        with contextlib.suppress(Exception):
            self.server.work_done_progress.end(
                self.token,
                types.WorkDoneProgressEnd(message=f"done in {time.monotonic() - self.started:.1f}s"),
            )
        self.server.work_done_progress.tokens.pop(self.token, None)
        self.token = None
