"""The national citation index: every reported US case CourtListener holds, as metadata, in one SQLite file.

``build.py`` builds it from CourtListener's bulk files (``lanes.py`` reads them, ``rows.py`` parses
them), ``lookup.py`` reads it (``CitationIndex``: lookups with honest coverage, records, the name
search), ``source.py`` puts it in the source chain, ``coverage.py`` is the rule for "complete", and
``sync.py`` fetches the newest dump from CourtListener's bucket. docs/sources.md explains it all.
"""

from __future__ import annotations

from citecheck.sources.index.lookup import CitationIndex, IndexStatus, NameHit

__all__ = ["CitationIndex", "IndexStatus", "NameHit"]
