"""Reporter names for the sources: re-exported from :mod:`citecheck.reporters`, the one reporter module.

Kept so the sources' imports stay short; add nothing here. ``is_known_reporter`` in this namespace is
:func:`citecheck.reporters.is_case_reporter` (a case reporter edition), as it always was for the sources;
:func:`citecheck.reporters.is_known_reporter` is the wider "anything reporters-db lists".
"""

from __future__ import annotations

from citecheck.reporters import (
    DATABASE_REPORTERS,
    cap_slug,
    courtlistener_covers,
    is_database,
    normalise_reporter,
)
from citecheck.reporters import is_case_reporter as is_known_reporter

__all__ = [
    "DATABASE_REPORTERS",
    "cap_slug",
    "courtlistener_covers",
    "is_database",
    "is_known_reporter",
    "normalise_reporter",
]
