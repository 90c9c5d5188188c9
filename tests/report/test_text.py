"""Terminal output: compiler-style plain lines off a TTY, severity-grouped rich tables on one."""

from __future__ import annotations

import re

from citecheck.report.text import render_text


def test_plain_output_is_one_parsable_line_per_finding_without_colour(sample_batch):
    out = render_text(sample_batch, tty=False)
    assert "\x1b[" not in out and "┃" not in out
    heads = [line for line in out.splitlines() if re.match(r"^\S.*:\d+:\d+: (error|warning|info) ", line)]
    assert heads == [
        "briefs/sample brief.md:2:63: error pincite-out-of-range: Pin cite 836 is outside Berry v. Keith, "
        "which runs from page 831 to 833.",
        "briefs/sample brief.md:3:45: error impossible-citation: No reporter “A.4th” exists; a citation to it "
        "cannot be real.",
    ]
    assert "    fix: Change the pin cite to 833" in out
    assert "bad.docx: error: malformed .docx" in out
    assert (
        "4 citations (1 of them a short form such as Id.): 2 with problems, 2 verified. 2 findings: 2 errors."
        in out
    )


def test_tty_output_groups_findings_by_severity_in_tables(sample_batch):
    out = render_text(sample_batch, tty=True, width=100, color=True)
    assert "\x1b[" in out  # coloured
    assert "error (2)" in out and "warning (" not in out
    assert "pincite-out-of-range" in out and "Berry v. Keith" in out
    plain = render_text(sample_batch, tty=True, width=100, color=False)
    assert "\x1b[" not in plain and "error (2)" in plain
