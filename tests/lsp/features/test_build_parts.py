"""The source check builds a long brief's citations a part at a time (``diagnostics._build_parts``), so a key
typed meanwhile waits for one part, not the whole build (issue 34 item 5)."""

from __future__ import annotations

from citecheck.extract import Document
from citecheck.lsp.features import diagnostics


def test_the_parts_cover_every_paragraph_in_order_and_build_every_citation(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setattr(diagnostics, "BUILD_PART", 5)
    para = "See Roe v. Wade, 410 U.S. 113, 116 (1973); Doe v. Bolton, 410 U.S. 179 (1973). Id. at 180."
    doc = Document("\n\n".join([para] * 12) + "\n")
    extraction = doc.extraction
    parts = diagnostics._build_parts(extraction)
    assert len(parts) > 2
    covered = [p for part in parts for p in part]  # type: ignore[union-attr]
    assert covered == list(range(len(extraction.run.plans)))  # type: ignore[attr-defined]
    for part in parts:
        diagnostics._build(extraction, part)
    assert len(extraction.citations) == 36 and extraction.citations == Document(doc.text).extraction.citations


def test_a_plain_extraction_is_one_part() -> None:
    from citecheck.extract import extract_citations

    extraction = extract_citations("See Roe v. Wade, 410 U.S. 113 (1973).")
    assert diagnostics._build_parts(extraction) == [None]
    assert diagnostics._build(extraction, None) >= 0
