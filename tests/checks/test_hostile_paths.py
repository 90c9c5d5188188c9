"""Hostile text that used to take quadratic time: 400 adjacent pin cites made every citation compare
the whole 14 KB run before it with the opinion (17 s). Counted, not timed: no comparison of a
'proposition' longer than any sentence is attempted."""

from __future__ import annotations

import asyncio
from pathlib import Path

from citecheck.checks import quotes
from citecheck.config import Settings
from citecheck_testing import shared_corpus_path


def test_adjacent_pin_cites_do_not_compare_the_run_with_the_opinion(tmp_path: Path, monkeypatch) -> None:
    from citecheck.pipeline import check_document
    from citecheck.sources.chain import open_source
    from citecheck.sources.corpus import Corpus
    from citecheck.sources.importing import import_path

    corpus = Corpus(tmp_path / "corpus.sqlite")
    import_path(corpus, shared_corpus_path("cap-static"))
    corpus.close()
    text = (
        "The purchaser may rescind and demand the deposit. "
        + "; ".join(f"Savage v. Parks, 100 A.2d 450, {450 + i % 3}" for i in range(120))
        + ".\n"
    )
    compared: list[int] = []
    real = quotes.closest_passage

    def counting(quote: str, index, **kw):
        compared.append(len(quote))
        return real(quote, index, **kw)

    monkeypatch.setattr(quotes, "closest_passage", counting)
    settings = Settings(
        corpus_path=tmp_path / "corpus.sqlite", cache_path=tmp_path / "c.sqlite", offline=True
    )

    async def run():
        async with open_source(settings) as source:
            return await check_document(text, source, settings)

    report = asyncio.run(run())
    assert len(report.extraction.citations) >= 100
    assert all(n <= quotes.MAX_PROPOSITION_CHARS for n in compared), max(compared)
