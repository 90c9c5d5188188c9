"""One batch worker: the sources opened once, then one document after another, as ``citecheck check`` does.

A worker is a plain object (the tests use it directly); ``engine.py`` makes each Ray actor one. Its
event loop lives as long as it does, so the corpus, the citation index, the statute index and the lookup
cache are opened once per worker, not once per document. What a document does to a worker (an
exception, a hostile file) ends as that document's error row; what kills the worker (memory, a
timeout) is turned into one by the engine.
"""

from __future__ import annotations

import asyncio
import logging
import time
from dataclasses import replace
from typing import Any

from citecheck.batch.rows import DocOutcome, failed, outcome_of
from citecheck.config import Settings
from citecheck.errors import CitecheckError, InputError
from citecheck.ignores import IgnoreList

log = logging.getLogger(__name__)


def batch_settings(settings: Settings) -> Settings:
    """The settings every worker checks with: the user's, reading only what is on the machine.

    CAP volumes are not downloaded (they are written into the corpus every worker reads) and CourtListener
    is not asked (its allowance is per token: a pacer in each worker would spend it many times over);
    docs/scale.md says why and how to fill the corpus and index first. The model endpoint is asked
    through the batch's shared pool (``judges.py``), not by each worker on its own.
    """
    return replace(settings, cap_fetch=False, courtlistener_token=None)


WARM_UP = "See Peyton v. District of Columbia, 100 A.2d 36, 38 (D.C. 1953); 42 U.S.C. § 1983.\n"


class Worker:
    """Checks documents one at a time with sources it opened once."""

    def __init__(
        self,
        settings: Settings,
        ignores: IgnoreList | None = None,
        judges: Any = None,
        judges_key: str = "",
    ) -> None:
        """``judges``: the batch's ``EndpointPool`` actor (None: no holding checks); ``judges_key``: who
        judges, as the judgment cache names it (``judges.pool_id``)."""
        import gc

        self.settings = settings
        self.ignores = ignores
        self.loop = asyncio.new_event_loop()
        self.source: Any = None
        self.holdings: Any = None
        self.problem: str | None = None  # why this worker cannot check anything (the run stops)
        self._offline: Any = None
        if settings.offline:  # the guarantee of --offline, in this process too (the driver has its own)
            from citecheck.privacy.offline import no_network

            self._offline = no_network()  # held: a guard nobody refers to would be collected and lifted
            self._offline.__enter__()
        _, second, third = gc.get_threshold()
        gc.set_threshold(max(20_000, gc.get_threshold()[0]), second, third)  # as cli.app._batch_gc
        try:
            from citecheck.sources.chain import build_from_settings

            self.source = self.loop.run_until_complete(build_from_settings(settings))
        except CitecheckError as exc:
            self.problem = str(exc)
        except Exception as exc:  # the run stops with this line rather than fail every document alike
            log.exception("batch worker could not open its sources")
            self.problem = f"cannot open the sources: {type(exc).__name__}: {exc}"
        if self.problem is None:
            from citecheck.startup import tokenizer_cache

            tokenizer_cache.install()  # the tokenizer from its cache file, as the CLI's own process
            self._warm_up()
        if judges is not None and self.problem is None:
            from citecheck.batch.judges import pooled_stage

            self.holdings = pooled_stage(judges, judges_key, settings)

    def _warm_up(self) -> None:
        """Import and prime extraction (eyecite, reporters-db, the courts) before the first document, so
        that a document's seconds are its own and the workers' start is counted as the start."""
        from citecheck.pipeline import check_document

        try:
            self.loop.run_until_complete(check_document(WARM_UP, self.source, self.settings))
        except Exception:
            log.debug("warm-up check failed", exc_info=True)

    def ready(self) -> str | None:
        """None when this worker can check documents, else why not."""
        return self.problem

    def check(self, path: str) -> DocOutcome:
        """One document's rows; never raises for anything the document does."""
        from citecheck.inputs import read_input
        from citecheck.pipeline import check_input

        started = time.perf_counter()
        try:
            doc = read_input(path, max_chars=self.settings.max_document_chars)
            file, _, _ = self.loop.run_until_complete(
                check_input(doc, self.source, self.settings, ignores=self.ignores, holdings=self.holdings)
            )
        except InputError as exc:
            return failed(path, time.perf_counter() - started, str(exc).split(": ", 1)[-1], "input")
        except CitecheckError as exc:
            return failed(path, time.perf_counter() - started, str(exc), "internal")
        except (MemoryError, RecursionError) as exc:
            return failed(path, time.perf_counter() - started, _too_much(exc), "internal")
        except Exception as exc:
            log.exception("checking %s failed", path)
            return failed(
                path,
                time.perf_counter() - started,
                f"internal error: {type(exc).__name__}: {exc}",
                "internal",
            )
        return outcome_of(path, file, time.perf_counter() - started)

    def close(self) -> None:
        async def shut() -> None:
            if self.holdings is not None:
                await self.holdings.close()
            if self.source is not None:
                await self.source.close()

        try:
            self.loop.run_until_complete(shut())
        finally:
            self.loop.close()
            if self._offline is not None:
                self._offline.__exit__(None, None, None)
                self._offline = None


def _too_much(exc: BaseException) -> str:
    if isinstance(exc, MemoryError):
        return "the document needs more memory than this worker has"
    return "the document is nested too deeply to check"
