"""The national citation index: every reported US case CourtListener holds, as metadata, in one SQLite file.

``build.py`` builds it from CourtListener's bulk files (``lanes.py`` reads them, ``rows.py`` parses
them), ``lookup.py`` reads it (``CitationIndex``: lookups with honest coverage, records, the name
search), ``source.py`` puts it in the source chain, ``coverage.py`` is the rule for "complete", and
``sync.py`` fetches the newest dump from CourtListener's bucket. docs/sources.md explains it all.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from citecheck.sources.index.lookup import CitationIndex, IndexStatus, NameHit


def __getattr__(name: str) -> Any:
    """The reader is imported when first named: ``files`` alone (is there an index?) must not load it."""
    if name in __all__:
        from citecheck.sources.index import lookup

        return getattr(lookup, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["CitationIndex", "IndexStatus", "NameHit"]
