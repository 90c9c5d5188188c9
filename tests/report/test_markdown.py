"""Markdown for pasting into a review: the table survives odd characters in names."""

from __future__ import annotations

from citecheck.report.markdown import render_markdown


def test_markdown_has_summary_table_of_authorities_and_findings(sample_batch):
    out = render_markdown(sample_batch)
    assert out.startswith("# Citation check\n")
    assert "| *Berry v. Keith* | 100 A.2d 831 | problem |  | 2:49, 2:80 | pincite-out-of-range |" in out
    assert "#### Weight not determined" in out and "Court: not determined" in out
    assert "- **error** `impossible-citation` at 3:45" in out
    assert "  - Suggested fix: Change the pin cite to 833" in out
    assert "- `bad.docx`: malformed .docx" in out


def test_markdown_table_cells_escape_pipes():
    from citecheck.report.markdown import _cell

    assert _cell("A | B\nC") == "A \\| B C"
