"""Warm the server up while the editor is still starting: the tokenizer, the extraction and check
modules and the sources are ready before the first document is opened.

VS Code starts the server when its window has loaded (``onStartupFinished``), seconds before a lawyer
opens a brief; until the first ``didOpen`` the server sat idle, and then paid for everything at once:
reading the tokenizer's table, the first compile of the regexes a paragraph runs, importing the
checks and courts-db, opening the corpus and cache. Here the checks run once on a made-up paragraph,
in the one executor, as soon as the server's modules are imported and before it reads its first
message (``__main__``; a ``didOpen`` that arrives meanwhile queues behind it and finds the work done),
so it overlaps whatever the editor does before ``initialize`` — VS Code's extension waits for the
CourtListener token's read where the profile has a token (issue 40, the first squiggle). The sources
are opened after ``initialized``, once the settings are known. Nothing
of it touches the network: the warm-up paragraph is extracted and judged with no evidence, and the
sources are only opened.
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import TYPE_CHECKING

from citecheck.config import Settings

if TYPE_CHECKING:
    from citecheck.lsp.server import CiteServer

log = logging.getLogger(__name__)

#: A paragraph with what the local checks and the judge look at: a full cite with a pin and a court
#: parenthetical, a quote, a short form, ``Id.``, a statute.
WARM_UP_TEXT = (
    "In Peyton v. District of Columbia, 100 A.2d 36, 38 (D.C. 1953), the court held that “notice must "
    "be given.” Peyton, 100 A.2d at 39. Id. at 40. See also 42 U.S.C. § 1983; Roe v. Wade, 410 U.S. 113 "
    "(1973).\n"
)


def warm_checks(settings: Settings) -> float:
    """Runs in the executor: extract and judge the warm-up paragraph (no sources); its CPU seconds."""
    from citecheck.extract import Document
    from citecheck.extract.incremental.memo import LocalMemo, paragraph_findings
    from citecheck.judge import SourceEvidence, check_locally, judge

    started = time.process_time()
    extraction = Document(WARM_UP_TEXT).extraction
    paragraph_findings(extraction, LocalMemo(), check_locally)
    judge(extraction, SourceEvidence(), settings)
    return time.process_time() - started


def start_warming(server: CiteServer) -> None:
    """The checks' first run, queued in the executor at once (``__main__``, before serving: with the
    settings of the environment and the user's files, not yet the client's, which a made-up paragraph
    judged with no evidence does not need)."""

    def run() -> None:
        try:
            log.debug("warm-up: extraction and checks ready (%.2f s CPU)", warm_checks(server.settings))
        except Exception:  # a warm-up that fails costs only the time it was meant to save
            log.debug("warm-up failed", exc_info=True)

    server.executor.submit(run)


async def open_sources(server: CiteServer) -> None:
    """From ``initialized``, once the workspace's settings are read: the sources opened (``Sources.get``)."""
    try:
        await server.sources.get(server.settings)
    except asyncio.CancelledError:
        raise
    except Exception:  # the first check opens them again and says what is wrong
        log.debug("warm-up: opening the sources failed", exc_info=True)
