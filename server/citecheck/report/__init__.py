"""Report renderers: a batch of checked files → text | json | sarif | html | markdown (strings, no I/O).

Each renderer is imported when it is first asked for (``FORMATS[name]``, ``render_html``, …): a check
writes one format, and importing the others cost a one-line check a tenth of its time.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterator, Mapping
from typing import TYPE_CHECKING, Any

from citecheck.report.model import BatchResult, FileError, FileResult, file_result

if TYPE_CHECKING:
    from citecheck.report.html import render_html
    from citecheck.report.json import render_json
    from citecheck.report.markdown import render_markdown
    from citecheck.report.sarif import render_sarif
    from citecheck.report.text import render_text

#: format → (module, renderer)
_RENDERERS = {
    "text": ("citecheck.report.text", "render_text"),
    "json": ("citecheck.report.json", "render_json"),
    "sarif": ("citecheck.report.sarif", "render_sarif"),
    "html": ("citecheck.report.html", "render_html"),
    "markdown": ("citecheck.report.markdown", "render_markdown"),
}


class _Formats(Mapping[str, Callable[[BatchResult], str]]):
    """format name → its renderer, imported on first use."""

    def __getitem__(self, name: str) -> Callable[[BatchResult], str]:
        module, function = _RENDERERS[name]
        renderer: Callable[[BatchResult], str] = getattr(importlib.import_module(module), function)
        return renderer

    def __iter__(self) -> Iterator[str]:
        return iter(_RENDERERS)

    def __len__(self) -> int:
        return len(_RENDERERS)


FORMATS: Mapping[str, Callable[[BatchResult], str]] = _Formats()


def __getattr__(name: str) -> Any:
    for fmt, (_, function) in _RENDERERS.items():
        if function == name:
            return FORMATS[fmt]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


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
