"""Extraction on several processes must be the very extraction of one: real opinions, every paragraph."""

from __future__ import annotations

import csv
import html
import os
import re
import sys

import pytest

from citecheck.extract import extract_citations
from citecheck.extract import parallel as parallel_extract
from citecheck.extract.parallel import _runs, extract_document
from citecheck_testing import shared_corpus_path

_TAG = re.compile(r"<[^>]+>")
_BLOCK_END = re.compile(r"</(?:p|blockquote|h\d|li|div|article|section)>|<br\s*/?>", re.I)


@pytest.fixture(scope="module")
def opinions_text() -> str:
    """Every opinion of the CourtListener bulk sample in ../shared/corpus, one after another."""
    path = shared_corpus_path("courtlistener-bulk", "opinions.csv")
    csv.field_size_limit(sys.maxsize)
    with path.open(newline="", encoding="utf-8") as f:
        rows = csv.DictReader(f, quotechar='"', escapechar="\\", doublequote=False)
        texts = [
            html.unescape(_TAG.sub("", _BLOCK_END.sub("\n\n", r["html_with_citations"])))
            for r in rows
            if r["html_with_citations"]
        ]
    return "\n\n".join(texts)


def test_runs_are_contiguous_and_cover_every_paragraph() -> None:
    paragraphs = [(i * 10, i * 10 + 5 + i % 3) for i in range(100)]
    runs = _runs(paragraphs, 3)
    assert len(runs) == 3
    assert [p for run in runs for p in run] == paragraphs
    sizes = [sum(e - s for s, e in run) for run in runs]
    assert max(sizes) - min(sizes) < 20


def test_extraction_on_two_processes_equals_one(monkeypatch, opinions_text, caplog) -> None:
    monkeypatch.setattr(parallel_extract, "PARALLEL_FROM", 10_000)
    assert len(opinions_text) > 100_000
    one = extract_citations(opinions_text)
    with caplog.at_level("WARNING", logger="citecheck.extract.parallel"):
        many = extract_document(opinions_text, workers=3)
    assert len(one.citations) > 1_000
    assert many == one
    # the pool itself worked: a failure would also give the same extraction, from this process alone
    assert "failed" not in caplog.text


def test_results_a_worker_sends_are_received() -> None:
    """What a worker sends arrives in ``done`` (a ``NameError`` here once made every pool fall back to
    one process, silently but for a warning, with the same extraction)."""
    import multiprocessing
    import pickle

    receive, send = multiprocessing.Pipe(duplex=False)
    send.send_bytes(pickle.dumps((1, ["results of chunk 1"])))
    send.close()
    done: list = [None, None]
    conns = [receive]
    assert parallel_extract._receive(conns, done, timeout=5)
    assert done == [None, ["results of chunk 1"]]
    parallel_extract._receive(conns, done, timeout=5)  # the end of the pipe: the worker is dropped
    assert conns == []


def test_a_failing_worker_falls_back_to_this_process(monkeypatch, opinions_text, caplog) -> None:
    monkeypatch.setattr(parallel_extract, "PARALLEL_FROM", 10_000)
    real = parallel_extract._extract_run
    parent = os.getpid()

    def worker_dies(spans):
        if os.getpid() != parent:  # only in a forked worker
            raise RuntimeError("worker failed")
        return real(spans)

    monkeypatch.setattr(parallel_extract, "_extract_run", worker_dies)
    text = opinions_text[:300_000]
    with caplog.at_level("WARNING", logger="citecheck.extract.parallel"):
        got = extract_document(text, workers=2)
    assert got == extract_citations(text)
    assert "failed" in caplog.text


def test_short_documents_and_one_cpu_stay_in_this_process(monkeypatch) -> None:
    def no_pool(*a, **k):
        raise AssertionError("no pool for this document")

    import multiprocessing  # imported by extract/parallel.py only when a document is long enough

    monkeypatch.setattr(multiprocessing, "get_context", no_pool)
    text = "See Roe v. Wade, 410 U.S. 113 (1973).\n\nId. at 116."
    assert extract_document(text, workers=4) == extract_citations(text)
    monkeypatch.setattr(parallel_extract, "PARALLEL_FROM", 10)
    assert extract_document(text, workers=1) == extract_citations(text)


def test_idle_cpus_leaves_a_saturated_machine_to_one_process(monkeypatch) -> None:
    monkeypatch.setattr(parallel_extract, "available_cpus", lambda: 4)
    monkeypatch.setattr(parallel_extract.os, "getloadavg", lambda: (9.0, 9.0, 9.0))
    assert parallel_extract.idle_cpus() == 1
    monkeypatch.setattr(parallel_extract.os, "getloadavg", lambda: (1.0, 1.0, 1.0))
    assert parallel_extract.idle_cpus() == 4
    monkeypatch.setattr(parallel_extract.os, "getloadavg", lambda: (0.0, 0.0, 0.0))
    assert parallel_extract.idle_cpus() == 4
    monkeypatch.setattr(parallel_extract, "available_cpus", lambda: 2)
    monkeypatch.setattr(parallel_extract.os, "getloadavg", lambda: (1.5, 1.0, 1.0))  # one busy neighbour
    assert parallel_extract.idle_cpus() == 2
    monkeypatch.setattr(parallel_extract.os, "getloadavg", lambda: (3.2, 1.0, 1.0))
    assert parallel_extract.idle_cpus() == 1


def test_a_worker_killed_midway_leaves_its_chunks_to_this_process(monkeypatch, opinions_text) -> None:
    """A worker that vanishes (killed by the OOM killer, say) after claiming a chunk: that chunk and any
    it did not take are extracted here, with nothing printed as a traceback."""
    monkeypatch.setattr(parallel_extract, "PARALLEL_FROM", 10_000)
    monkeypatch.setattr(parallel_extract, "_CHUNK_CHARS", 20_000)
    real = parallel_extract._extract_run
    parent = os.getpid()
    calls = []

    def worker_vanishes(spans):
        if os.getpid() != parent:
            calls.append(1)
            if len(calls) == 2:  # one chunk sent, the second claimed, then gone
                os._exit(9)
        return real(spans)

    monkeypatch.setattr(parallel_extract, "_extract_run", worker_vanishes)
    text = opinions_text[:300_000]
    assert extract_document(text, workers=2) == extract_citations(text)


def test_the_compact_pickle_rebuilds_equal_values(opinions_text) -> None:
    """What a worker sends is rebuilt through the slots: equal results, shared objects still shared."""
    import io
    import pickle

    from citecheck.extract.paragraph import extract_paragraph
    from citecheck.extract.paragraphs import split_paragraphs

    text = opinions_text[:200_000]
    results = [extract_paragraph.__wrapped__(text[s:e]) for s, e in split_paragraphs(text)]
    assert sum(len(r.citations) for r in results) > 50
    buffer = io.BytesIO()
    parallel_extract._Pickler(buffer, protocol=pickle.HIGHEST_PROTOCOL).dump(results)
    back = pickle.loads(buffer.getvalue())
    assert back == results
    assert len(buffer.getvalue()) < len(pickle.dumps(results, protocol=pickle.HIGHEST_PROTOCOL))
    shared = [
        (i, k)
        for i, r in enumerate(results)
        for k in range(1, len(r.citations))
        if r.citations[k].case_name is not None and r.citations[k].case_name is r.citations[k - 1].case_name
    ]
    assert shared  # parallel cites share their case name
    assert all(back[i].citations[k].case_name is back[i].citations[k - 1].case_name for i, k in shared)


def test_the_assembler_fed_one_paragraph_at_a_time_equals_assemble(opinions_text) -> None:
    """What the parallel path assembles while chunks still arrive is ``assemble``'s extraction: the same
    numbers, spans, resolved short forms, borrowed block quotes and propositions."""
    from citecheck.extract.incremental.assembly import Assembler, assemble
    from citecheck.extract.paragraph import extract_paragraph
    from citecheck.extract.paragraphs import split_paragraphs

    text = opinions_text[:400_000]
    paragraphs = split_paragraphs(text)
    results = [extract_paragraph(text[s:e]) for s, e in paragraphs]
    assembler = Assembler(text)
    for span, res in zip(paragraphs, results, strict=True):
        assembler.add(span, res)
    got = assembler.finish()
    want = assemble(text, paragraphs, results)
    assert len(want.citations) > 500 and any(c.antecedent is not None for c in want.citations)
    assert got == want
    # it keeps only what the next paragraph reads: the last result (issue 40: a 20 MB document's
    # results and plans held beside its citations doubled extraction's memory)
    run = assembler.run
    assert all(not r.citations for r in run.results[:-1]) and run.results[-1] is results[-1]
    assert not any(len(p) for p in run.plans) and not any(run.built)


def test_a_long_document_in_one_process_is_assembled_as_it_is_extracted(monkeypatch, opinions_text) -> None:
    """One CPU (or a saturated machine): each paragraph assembled as soon as it is extracted, the
    same extraction as ``extract_citations``, and no pool."""
    monkeypatch.setattr(parallel_extract, "PARALLEL_FROM", 10_000)
    text = opinions_text[:300_000]
    added = []
    real_add = parallel_extract.Assembler.add

    def add(self, span, res):
        added.append(span)
        real_add(self, span, res)

    monkeypatch.setattr(parallel_extract.Assembler, "add", add)
    assert extract_document(text, workers=1) == extract_citations(text)
    assert len(added) > 100


def test_a_pool_failure_after_chunks_were_assembled_extracts_them_again(monkeypatch, opinions_text) -> None:
    """The assembler lets go of each chunk's results once it has built them; a failure of the pool after
    that starts the assembly again, so those chunks are extracted once more, not lost."""
    monkeypatch.setattr(parallel_extract, "PARALLEL_FROM", 10_000)
    monkeypatch.setattr(parallel_extract, "_CHUNK_CHARS", 20_000)
    real = parallel_extract._receive
    calls = []

    def fails_late(conns, done, *, timeout):
        calls.append(1)
        if any(d is parallel_extract._ASSEMBLED for d in done):
            raise OSError("the pipe broke")
        return real(conns, done, timeout=timeout)

    monkeypatch.setattr(parallel_extract, "_receive", fails_late)
    text = opinions_text[:300_000]
    assert extract_document(text, workers=2) == extract_citations(text)
    assert calls
