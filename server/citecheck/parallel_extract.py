"""Extraction of a very long document on more than one CPU (the CLI's batch path).

Paragraph extraction is pure and depends on nothing but the paragraph (``extract/paragraph.py``),
so a document of millions of characters is cut into contiguous runs of paragraphs: this process
extracts the first run while worker processes extract the others, and the results are assembled
here in document order, exactly as ``extract_citations`` assembles its own (the same values, so
the same ``Extraction``; tests/test_parallel_extract.py compares them). Workers are forked from
this process after eyecite's tokenizer is built, so they start with it and with the text; what
comes back is pickled.

Only above ``PARALLEL_FROM`` characters (below it the processes cost more than they save) and when
the machine has an idle CPU this process may use. Any failure of the pool (a worker killed, no ``fork`` on
this platform, a worker that does not answer within its deadline) falls back to extracting here,
so the result never depends on the pool. Not used by the language server (a long-lived process
with threads: forking it is not safe) nor by the core, which stays free of processes.
"""

from __future__ import annotations

import logging
import multiprocessing
import os
import time

from citecheck.extract.assemble import assemble
from citecheck.extract.document import extract_citations
from citecheck.extract.models import Extraction
from citecheck.extract.paragraph import ParagraphResult, extract_paragraph
from citecheck.extract.paragraphs import split_paragraphs

log = logging.getLogger(__name__)

#: Documents shorter than this are extracted in this process.
PARALLEL_FROM = 1_000_000
#: Seconds a worker may take per million characters of its share before the pool is given up
#: (its share is then extracted here); generous, since a loaded machine may be five times slower.
_DEADLINE_PER_MILLION = 60.0

_TEXT = ""  # the document, set before the workers are forked (they inherit it instead of a copy)


def available_cpus() -> int:
    """CPUs this process may run on (its affinity mask where the platform has one)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def idle_cpus() -> int:
    """How many processes are worth running: this one, plus one per available CPU the machine's load
    leaves idle (on a saturated machine more processes only add the pickling; measured on a 2-core
    machine shared by several people, where the 1-minute load average was 5 to 10)."""
    cpus = available_cpus()
    try:
        load = os.getloadavg()[0]
    except (AttributeError, OSError):  # no load average on this platform: trust the CPU count
        return cpus
    return max(1, min(cpus, 1 + int(cpus - load)))


def _extract_run(spans: list[tuple[int, int]]) -> list[ParagraphResult]:
    """In a worker: the results of one run of paragraphs of ``_TEXT``."""
    return [extract_paragraph.__wrapped__(_TEXT[s:e]) for s, e in spans]


def _runs(paragraphs: list[tuple[int, int]], count: int) -> list[list[tuple[int, int]]]:
    """``paragraphs`` cut into ``count`` contiguous runs of about the same number of characters."""
    total = sum(e - s for s, e in paragraphs) or 1
    runs: list[list[tuple[int, int]]] = [[] for _ in range(count)]
    done = 0
    for s, e in paragraphs:
        runs[min(count - 1, done * count // total)].append((s, e))
        done += e - s
    return [r for r in runs if r]


def extract_document(text: str, *, workers: int | None = None) -> Extraction:
    """``extract_citations(text)``, on up to ``workers`` processes (default: ``idle_cpus()``)."""
    global _TEXT
    count = workers if workers is not None else idle_cpus()
    if (
        not isinstance(text, str)
        or len(text) < PARALLEL_FROM
        or count < 2
        or "fork" not in multiprocessing.get_all_start_methods()
    ):
        return extract_citations(text)
    paragraphs = split_paragraphs(text)
    runs = _runs(paragraphs, count)
    if len(runs) < 2:
        return extract_citations(text)
    from citecheck.extract.eyecite_adapter import scan

    scan("Roe v. Wade, 410 U.S. 113 (1973).")  # build the tokenizer here, once, before forking
    _TEXT = text
    pool = None
    try:
        pool = multiprocessing.get_context("fork").Pool(len(runs) - 1)
        pending = [pool.apply_async(_extract_run, (run,)) for run in runs[1:]]
        results = _extract_run(runs[0])
        for run, job in zip(runs[1:], pending, strict=True):
            chars = sum(e - s for s, e in run)
            started = time.monotonic()
            results.extend(job.get(timeout=max(30.0, _DEADLINE_PER_MILLION * chars / 1e6)))
            log.debug("worker run of %d characters received after %.1f s", chars, time.monotonic() - started)
    except Exception as exc:  # a pool failure never loses the document: extract it here instead
        log.warning("extracting on %d processes failed (%s: %s); extracting in one", len(runs), type(exc).__name__, exc)
        return extract_citations(text)
    finally:
        _TEXT = ""
        if pool is not None:
            pool.terminate()
            pool.join()
    return assemble(text, paragraphs, results)
