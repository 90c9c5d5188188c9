"""citecheck: catch fabricated and misused case citations in legal drafts while they are written."""

from citecheck.findings import Finding, Kind, Severity
from citecheck.spans import Span

__version__ = "0.1.0"

__all__ = ["Finding", "Kind", "Severity", "Span", "__version__"]
