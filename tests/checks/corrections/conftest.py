"""Both shared samples (CAP 100 A.2d and the CourtListener bulk rows) imported into one real SQLite corpus."""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path

import pytest

from citecheck.config import Settings
from citecheck.findings import Finding, Fix, Kind
from citecheck.results import Report
from citecheck_testing import shared_corpus_path


@pytest.fixture(scope="session")
def samples_corpus(tmp_path_factory) -> Path:  # type: ignore[no-untyped-def]
    from citecheck.sources.corpus import Corpus
    from citecheck.sources.importing import import_path

    path = tmp_path_factory.mktemp("corrections") / "corpus.sqlite"
    corpus = Corpus(path)
    try:
        import_path(corpus, shared_corpus_path("cap-static"))
        import_path(corpus, shared_corpus_path("courtlistener-bulk"))
    finally:
        corpus.close()
    return path


@pytest.fixture
async def check(samples_corpus: Path) -> AsyncIterator[Callable[[str], Awaitable[Report]]]:
    """``await check(text)``: the whole pipeline over the corpus alone, as ``citecheck check --offline``."""
    from citecheck.pipeline import check_document
    from citecheck.sources.chain import SourceChain
    from citecheck.sources.corpus import Corpus, CorpusSource

    chain = SourceChain([CorpusSource(Corpus(samples_corpus, readonly=True))])

    async def run(text: str) -> Report:
        return await check_document(text, chain, Settings(offline=True))

    yield run
    await chain.close()


def apply(text: str, fix: Fix) -> str:
    out = text
    for e in sorted(fix.edits, key=lambda e: e.span.start, reverse=True):
        out = out[: e.span.start] + e.new_text + out[e.span.end :]
    return out


def primary(report: Report, *kinds: Kind) -> Finding:
    [f] = [f for f in report.findings if f.kind in kinds]
    return f
