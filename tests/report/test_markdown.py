"""Markdown for pasting into a review: the table survives odd characters in names."""

from __future__ import annotations

from citecheck.report.markdown import render_markdown


def test_markdown_has_summary_table_of_authorities_and_findings(sample_batch):
    out = render_markdown(sample_batch)
    assert out.startswith("# Citation check\n")
    # one message per cell, places as a reader finds them (issue 36)
    assert (
        "| *Berry v. Keith* | 100 A.2d 831 | problem |  | line 2 (×2) | Pin cite outside the pages of the case |"
        in out
    )
    assert "#### Weight not determined" in out and "Court: not determined" in out
    assert "- **error** This citation cannot exist (`impossible-citation`) at line 3" in out
    assert (
        "4 citations (1 of them a short form such as Id.): 2 with problems, 2 verified. 2 findings: 2 errors."
        in out
    )
    assert "  - What this means: The pin cite is outside the pages the case occupies." in out
    assert "github.com" not in out
    assert "  - Suggested fix: Change the pin cite to 833" in out
    assert "- `bad.docx`: malformed .docx" in out


def test_markdown_table_cells_escape_pipes():
    from citecheck.report.markdown import _cell

    assert _cell("A | B\nC") == "A \\| B C"
