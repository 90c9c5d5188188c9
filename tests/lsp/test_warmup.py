"""The server warms up while the editor starts: the checks run once on a made-up paragraph in the
executor from ``initialize``, and the sources open after ``initialized`` (issue 40)."""

from __future__ import annotations

from citecheck.config import Settings
from citecheck.lsp.features import warmup


def test_the_warm_up_paragraph_exercises_extraction_and_the_checks() -> None:
    from citecheck.extract import extract_citations
    from citecheck.extract.eyecite_adapter import _tokenizer

    assert warmup.warm_checks(Settings()) >= 0
    extraction = extract_citations(warmup.WARM_UP_TEXT)
    forms = {c.form.value for c in extraction.citations}
    assert {"full", "short", "id"} <= forms, forms  # the paths a brief takes: full, short form, Id.
    assert _tokenizer.cache_info().currsize == 1  # built: the first document does not pay for it
