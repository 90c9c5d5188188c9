"""A lone surrogate (legal in LSP text and in JSON, not in UTF-8) inside a misquote: every report
format renders, the ignore key hashes, and the misquote is kept, not lost to a crash."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from citecheck.config import Settings
from citecheck.ignores import key_for, quote_hash
from citecheck_testing import shared_corpus_path

BRIEF = (
    'The rule is settled: "Nothing can be clearer, we think, than the right of a purchaser in such a '
    'situation to rescind his agreement and demand return of his \ud800 money." '
    "Savage v. Parks, 100 A.2d 450, 451 (D.C. Mun. App. 1953).\n"
)


def test_quote_hash_of_a_lone_surrogate() -> None:
    h = quote_hash("return of his \ud800 money")
    assert len(h) == 16 and h != quote_hash("return of his money")


@pytest.fixture(scope="module")
def corpus(tmp_path_factory) -> Path:
    from citecheck.sources.corpus import Corpus
    from citecheck.sources.importing import import_path

    path = tmp_path_factory.mktemp("c") / "corpus.sqlite"
    corpus = Corpus(path)
    import_path(corpus, shared_corpus_path("cap-static"))
    corpus.close()
    return path


def test_every_format_renders_and_the_misquote_is_kept(corpus: Path, tmp_path: Path) -> None:
    from citecheck.pipeline import check_document
    from citecheck.report import FORMATS, BatchResult, file_result
    from citecheck.sources.chain import open_source

    settings = Settings(corpus_path=corpus, cache_path=tmp_path / "cache.sqlite", offline=True)

    async def run():
        async with open_source(settings) as source:
            return await check_document(BRIEF, source, settings)

    report = asyncio.run(run())
    misquotes = [f for f in report.findings if f.kind.value == "misquote"]
    assert misquotes, [f.kind.value for f in report.findings]
    for f in misquotes:
        assert key_for(f, report.extraction, BRIEF).quote_hash
    batch = BatchResult(files=(file_result("brief.md", "markdown", BRIEF, report),))
    for name, render in FORMATS.items():
        out = render(batch)
        out.encode("utf-8", "surrogatepass")  # a str, whatever it holds
        if name in ("json", "sarif"):
            json.loads(out)
