"""citecheck: catch fabricated and misused case citations in legal drafts while they are written."""

from typing import TYPE_CHECKING, Any

from citecheck.findings import Finding, Kind, Severity
from citecheck.spans import Span

if TYPE_CHECKING:
    from citecheck.pipeline import Report, check_document

__version__ = "0.1.0"

__all__ = ["Finding", "Kind", "Report", "Severity", "Span", "__version__", "check_document"]


def __getattr__(name: str) -> Any:
    """``check_document`` and ``Report`` load the pipeline (and eyecite) only when first used."""
    if name in ("check_document", "Report"):
        from citecheck import pipeline

        return getattr(pipeline, name)
    raise AttributeError(f"module 'citecheck' has no attribute {name!r}")
