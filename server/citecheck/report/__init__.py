"""Report renderers: a batch of checked files → text | json | sarif | html | markdown (strings, no I/O)."""

from __future__ import annotations

from collections.abc import Callable

from citecheck.report.html import render_html
from citecheck.report.json import render_json
from citecheck.report.markdown import render_markdown
from citecheck.report.model import BatchResult, FileError, FileResult, file_result
from citecheck.report.sarif import render_sarif
from citecheck.report.text import render_text

FORMATS: dict[str, Callable[[BatchResult], str]] = {
    "text": render_text,
    "json": render_json,
    "sarif": render_sarif,
    "html": render_html,
    "markdown": render_markdown,
}

__all__ = [
    "FORMATS",
    "BatchResult",
    "FileError",
    "FileResult",
    "file_result",
    "render_html",
    "render_json",
    "render_markdown",
    "render_sarif",
    "render_text",
]
