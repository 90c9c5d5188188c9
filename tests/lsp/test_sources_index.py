"""The language server's sources include the citation index: the full chain and the first, local-only
stage both answer from it (no network), and the local stage does not report missing text early."""

from __future__ import annotations

from pathlib import Path

from citecheck.config import Settings
from citecheck.lsp.sources import Sources
from citecheck.sources.index.build import build_from_folder
from citecheck.sources.index.source import IndexSource
from citecheck.sources.models import CiteKey, LookupStatus
from citecheck_testing.bulk_dump import closed_volume_cases, write_dump


async def test_both_stages_answer_from_the_index(tmp_path: Path) -> None:
    write_dump(tmp_path / "dump", closed_volume_cases())
    build_from_folder(tmp_path / "index.sqlite", tmp_path / "dump", full_dump=True)
    settings = Settings(
        index_path=tmp_path / "index.sqlite",
        corpus_path=tmp_path / "corpus.sqlite",
        cache_path=tmp_path / "cache.sqlite",
        offline=True,
    )
    sources = Sources()
    try:
        chain = await sources.get(settings)
        local = await sources.local(settings)
        index = chain.find(IndexSource)
        assert index is not None and local.find(IndexSource) is index
        real, invented = CiteKey("100", "A.2d", "36"), CiteKey("100", "A.2d", "52")
        answers = await local.lookup([real, invented])
        assert answers[real].status is LookupStatus.FOUND and answers[real].source == "index"
        assert answers[invented].status is LookupStatus.NOT_FOUND
        record = answers[real].record
        assert record is not None
        assert await local.opinion(record) is None  # the full stage says why; the first stage waits for it
        assert "citation index" in chain.describe()
    finally:
        await sources.close()
