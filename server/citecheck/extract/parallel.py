"""Extraction of a very long document on more than one CPU (the CLI's batch path).

Paragraph extraction is pure and depends on nothing but the paragraph (``extract/paragraph.py``),
so a document of millions of characters is cut into chunks of contiguous paragraphs (about
``_CHUNK_CHARS`` each) that this process and forked worker processes take one at a time, in document
order, from a shared counter: whoever is free takes the next chunk, so a worker slowed down by the
rest of the machine does fewer chunks instead of holding this process up (the halves fixed in
advance did: the worker's half came back seconds after this process had finished its own). A worker
sends each chunk's results as soon as they are done and this process unpickles them between its own
chunks, so at the end only the last chunk in flight is waited for. The results are assembled here in
document order, exactly as ``extract_citations`` assembles its own (the same values, so the same
``Extraction``; tests/extract/test_parallel.py compares them). Workers are forked after eyecite's
tokenizer is built (which ``gc.freeze()``s what exists then), so they start with the tokenizer and
the text, and their collector does not walk (and so copy) the pages they share with this process.
Results travel as a pickle whose citations, spans and the rest are rebuilt through their slots
(``_Pickler``): half the cost of the dataclasses' own pickling, which runs ``__setstate__`` in
Python for each of ~30 objects per citation.

Only above ``PARALLEL_FROM`` characters (below it the processes cost more than they save) and when
there is more than one CPU. Any failure of a worker (killed, an exception, no answer within its
deadline, no ``fork`` on this platform) leaves its chunks to this process, so the result never
depends on the pool. Not used by the language server (a long-lived process with threads: forking
it is not safe) nor by the core, which stays free of processes.
"""

from __future__ import annotations

import dataclasses
import gc
import io
import logging
import os
import pickle
import time
from typing import TYPE_CHECKING, Any, cast

from citecheck.extract.incremental.assembly import Assembler
from citecheck.extract.incremental.document import extract_citations
from citecheck.extract.models import (
    CaseName,
    Citation,
    Extraction,
    Parenthetical,
    Pincite,
    PinPage,
    Quote,
)
from citecheck.extract.paragraph import ParagraphResult, RefCandidate, extract_paragraph
from citecheck.extract.paragraphs import split_paragraphs
from citecheck.spans import Span

if TYPE_CHECKING:  # multiprocessing is imported when a document is long enough to need it
    from multiprocessing.connection import Connection

log = logging.getLogger(__name__)

#: Documents shorter than this are extracted in this process.
PARALLEL_FROM = 1_000_000
#: Characters per chunk: ~0.2 s of extraction, so the last chunk in flight costs little waiting,
#: while the per-chunk overhead (a lock, one pickle) stays negligible.
_CHUNK_CHARS = 100_000
#: Seconds a worker may take per million characters of one chunk before it is given up (its chunks
#: are then extracted here); generous, since a loaded machine may be five times slower.
_DEADLINE_PER_MILLION = 60.0
_MIN_DEADLINE = 30.0

_TEXT = ""  # the document, set before the workers are forked (they inherit it instead of a copy)


def available_cpus() -> int:
    """CPUs this process may run on (its affinity mask where the platform has one)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def idle_cpus() -> int:
    """How many processes are worth running: this one, plus one per available CPU the machine's load
    leaves idle, plus one. A worker takes only chunks nobody has taken, so a worker the machine
    starves does less and never holds this process up; on a 2-core machine with one busy neighbour
    (load 2.0) two processes took 18.4 s for the 7,000,000-character document and one 18.7 s, and on
    an idle one 11-12 s against 15-16 s. Past that (a machine saturated by others) more processes
    only add the pickling."""
    cpus = available_cpus()
    try:
        load = os.getloadavg()[0]
    except (AttributeError, OSError):  # no load average on this platform: trust the CPU count
        return cpus
    return max(1, min(cpus, 2 + int(cpus - load)))


def _extract_run(spans: list[tuple[int, int]]) -> list[ParagraphResult]:
    """The results of one run of paragraphs of ``_TEXT`` (in this process or a worker)."""
    return [extract_paragraph(_TEXT[s:e]) for s, e in spans]


def _runs(paragraphs: list[tuple[int, int]], count: int) -> list[list[tuple[int, int]]]:
    """``paragraphs`` cut into ``count`` contiguous runs of about the same number of characters."""
    total = sum(e - s for s, e in paragraphs) or 1
    runs: list[list[tuple[int, int]]] = [[] for _ in range(count)]
    done = 0
    for s, e in paragraphs:
        runs[min(count - 1, done * count // total)].append((s, e))
        done += e - s
    return [r for r in runs if r]


def _claim(counter: Any, total: int) -> int | None:
    """The next chunk nobody has taken, or None when all are taken."""
    with counter.get_lock():
        k = counter.value
        if k >= total:
            return None
        counter.value = k + 1
    return int(k)


def _multiprocessing() -> Any:
    import multiprocessing

    return multiprocessing


def _worker(conn: Connection, counter: Any, chunks: list[list[tuple[int, int]]]) -> None:
    """In a forked worker: take chunks until none is left, sending ``(k, results)`` for each; an
    exception is sent as ``(-1, message)`` (this process logs it and extracts the rest itself) rather
    than printed as a traceback on the user's terminal."""
    gc.disable()  # a short-lived process whose objects have no cycles: the collector would only walk them
    try:
        while (k := _claim(counter, len(chunks))) is not None:
            buffer = io.BytesIO()
            _Pickler(buffer, protocol=pickle.HIGHEST_PROTOCOL).dump((k, _extract_run(chunks[k])))
            conn.send_bytes(buffer.getbuffer())
    except BaseException as exc:  # even KeyboardInterrupt: never a traceback from here
        try:
            conn.send_bytes(pickle.dumps((-1, f"{type(exc).__name__}: {exc}")))
        except Exception:
            pass
    finally:
        conn.close()


def _in_one_process(text: str, count: int) -> bool:
    """A short text, one CPU free, or no fork on this system: extracted in this process."""
    return (
        not isinstance(text, str)
        or len(text) < PARALLEL_FROM
        or count < 2
        or "fork" not in _multiprocessing().get_all_start_methods()
    )


def _wait_for_workers(
    conns: list[Connection], chunks: list[list[tuple[int, int]]], done: list[list[ParagraphResult] | None]
) -> None:
    """The workers' chunks, as long as they answer within a deadline set by the longest chunk (what is still
    missing after is extracted here)."""
    longest = max(sum(e - s for s, e in c) for c in chunks)
    deadline = max(_MIN_DEADLINE, _DEADLINE_PER_MILLION * longest / 1e6)
    while conns and any(d is None for d in done):
        if not _receive(conns, done, timeout=deadline):
            log.warning(
                "a worker extracting the document did not answer within %.0f s; extracting its part here",
                deadline,
            )
            return


def _stop(conns: list[Connection], procs: list[Any]) -> None:
    for conn in conns:
        conn.close()
    for proc in procs:
        if proc.is_alive():
            proc.kill()
        proc.join()


def extract_document(text: str, *, workers: int | None = None) -> Extraction:
    """``extract_citations(text)``, on up to ``workers`` processes (default: ``idle_cpus()``)."""
    global _TEXT
    count = workers if workers is not None else idle_cpus()
    if not isinstance(text, str) or len(text) < PARALLEL_FROM:
        return extract_citations(text)
    if _in_one_process(text, count):
        return _extract_streamed(text)
    paragraphs = split_paragraphs(text)
    chunks = _runs(paragraphs, max(count * 4, -(-len(text) // _CHUNK_CHARS)))
    if len(chunks) < 2:
        return _extract_streamed(text)
    from citecheck.extract.eyecite_adapter import scan

    scan("Roe v. Wade, 410 U.S. 113 (1973).")  # build the tokenizer here, once, before forking
    _TEXT = text
    done: list[list[ParagraphResult] | None] = [None] * len(chunks)
    assembler, assembled = Assembler(text), 0  # chunks [0, assembled) are numbered and resolved
    procs: list[Any] = []
    conns: list[Connection] = []
    try:
        ctx = _multiprocessing().get_context("fork")
        counter = ctx.Value("i", 0)
        for _ in range(count - 1):
            receive, send = ctx.Pipe(duplex=False)
            proc = ctx.Process(target=_worker, args=(send, counter, chunks), daemon=True)
            proc.start()
            send.close()
            procs.append(proc)
            conns.append(receive)
        started, mine = time.perf_counter(), 0
        while (k := _claim(counter, len(chunks))) is not None:
            done[k] = _extract_run(chunks[k])
            mine += 1
            _receive(conns, done, timeout=0)
            assembled = _assemble_ready(assembler, chunks, done, assembled)
        log.debug(
            "extracted %d of %d chunks here in %.2f s", mine, len(chunks), time.perf_counter() - started
        )
        _wait_for_workers(conns, chunks, done)
    except Exception as exc:  # a pool failure never loses the document: what is missing is extracted here
        log.warning(
            "extracting on %d processes failed (%s: %s); extracting in one", count, type(exc).__name__, exc
        )
        assembler, assembled = Assembler(text), 0  # it may have stopped inside a chunk: start it again
    finally:
        _stop(conns, procs)
    try:
        for k in range(assembled, len(chunks)):
            if done[k] is None or done[k] is _ASSEMBLED:  # (assembled before a failure: extracted again)
                done[k] = _extract_run(chunks[k])
        _assemble_ready(assembler, chunks, done, assembled)
    finally:
        _TEXT = ""
    _let_go_of_name_caches()
    return assembler.finish()


def _extract_streamed(text: str) -> Extraction:
    """``extract_citations(text)`` in this process, each paragraph assembled as soon as it is extracted
    (the ``Assembler`` lets go of its result once the next paragraph is built): all the paragraphs'
    results held at once beside the citations built from them took ~410 MB at 100,000 citations."""
    assembler = Assembler(text)
    for s, e in split_paragraphs(text):
        assembler.add((s, e), extract_paragraph(text[s:e]))
    _let_go_of_name_caches()
    return assembler.finish()


def _let_go_of_name_caches() -> None:
    """The short-form resolution's name caches hold up to 65,536 paragraph-local case names and their
    normalised forms each: of no use once the document is assembled, and tens of megabytes at the end
    of a 100,000-citation document (issue 40). The batch path asks for nothing more of them."""
    from citecheck.extract.incremental.lookups import clear_name_caches

    clear_name_caches()


def _assemble_ready(
    assembler: Assembler,
    chunks: list[list[tuple[int, int]]],
    done: list[list[ParagraphResult] | None],
    start: int,
) -> int:
    """Feed ``assembler`` the chunks from ``start`` on whose results have all arrived, in order; returns
    where it stopped. Assembling here while workers still extract takes it off the end of the run."""
    k = start
    while k < len(chunks) and (results := done[k]) is not None:
        for span, res in zip(chunks[k], results, strict=True):
            assembler.add(span, res)
        done[k] = _ASSEMBLED  # its citations are built: the results would only double the memory
        k += 1
    return k


#: In ``done`` for a chunk whose results the assembler has taken (not None: it is no longer awaited).
_ASSEMBLED: list[ParagraphResult] = []


def _receive(conns: list[Connection], done: list[list[ParagraphResult] | None], *, timeout: float) -> bool:
    """Take in what the workers have sent (waiting up to ``timeout`` for something); a worker that has
    finished or failed is dropped from ``conns``. False when nothing came within ``timeout``."""
    from multiprocessing.connection import wait

    ready = wait(conns, timeout)
    for ready_one in ready:
        conn = cast("Connection", ready_one)  # ``wait`` answers with the connections it was given
        try:
            k, payload = pickle.loads(conn.recv_bytes())
        except (EOFError, OSError):  # the worker is done (or died): its unsent chunks are extracted here
            conns.remove(conn)
            continue
        if k < 0:
            log.warning(
                "extracting on more than one process failed (%s); extracting its part in one", payload
            )
            conns.remove(conn)
            continue
        done[k] = payload
    return bool(ready)


def _slot_maker(cls: type) -> tuple[Any, tuple[str, ...]]:
    """``make_<Class>(*field values)``: the object built through its slot descriptors, with no
    ``__init__`` or ``__post_init__`` (the values come from an object that passed them), defined in
    this module so that pickle names it."""
    names = tuple(f.name for f in dataclasses.fields(cls))
    ns: dict[str, Any] = {"_new": object.__new__, "_cls": cls}
    args = ", ".join(f"a{i}" for i in range(len(names)))
    body = "".join(f"    _s{i}(o, a{i})\n" for i in range(len(names)))
    for i, name in enumerate(names):
        ns[f"_s{i}"] = cls.__dict__[name].__set__
    exec(f"def make({args}):\n    o = _new(_cls)\n{body}    return o\n", ns)
    make = ns["make"]
    make.__name__ = make.__qualname__ = f"_make_{cls.__name__}"
    make.__module__ = __name__
    globals()[make.__name__] = make
    return make, names


_REBUILD = {
    cls: _slot_maker(cls)
    for cls in (
        Span,
        Citation,
        CaseName,
        Pincite,
        PinPage,
        Quote,
        Parenthetical,
        ParagraphResult,
        RefCandidate,
    )
}


class _Pickler(pickle.Pickler):
    """Pickles the extraction's value classes as ``(_make_<Class>, field values)``."""

    def reducer_override(self, obj: Any) -> Any:
        rebuild = _REBUILD.get(type(obj))
        if rebuild is None:
            return NotImplemented
        make, names = rebuild
        return make, tuple([getattr(obj, name) for name in names])
