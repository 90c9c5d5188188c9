"""Reporter names: normalisation through reporters-db, CAP URL slugs, and which series are closed.

Every source stores and compares reporters in one canonical spelling (reporters-db's edition key,
``"A.2d"``, ``"F. Supp. 2d"``), so a cite typed ``A. 2d`` or ``F.Supp.2d`` finds the same rows.
"""

from __future__ import annotations

import re
from datetime import datetime
from functools import lru_cache

import reporters_db

#: Electronic databases: real cites we can never verify from public reporters.
DATABASE_REPORTERS = frozenset({"WL", "LEXIS", "U.S. Dist. LEXIS", "U.S. App. LEXIS", "U.S. LEXIS"})

#: CourtListener took in the whole Caselaw Access Project (complete through mid-2018), so a
#: series that ENDED before 2018 is complete there. U.S. Reports is complete through this volume.
_CAP_CUTOFF_YEAR = 2017
_US_COMPLETE_THROUGH = 570


def _squash(s: str) -> str:
    return re.sub(r"\s+", "", s).lower()


@lru_cache(maxsize=1)
def _tables() -> tuple[dict[str, str], dict[str, str]]:
    """(squashed spelling → canonical edition) for editions first, then unambiguous variations."""
    editions: dict[str, str] = {}
    for ed in reporters_db.EDITIONS:
        editions.setdefault(_squash(ed), ed)
    variations: dict[str, str] = {}
    for var, eds in reporters_db.VARIATIONS_ONLY.items():
        if len(eds) == 1:
            variations.setdefault(_squash(var), eds[0])
    return editions, variations


def normalise_reporter(reporter: str) -> str:
    """Canonical reporters-db edition for ``reporter``; unknown or ambiguous spellings come back trimmed.

    >>> normalise_reporter("A. 2d"), normalise_reporter("F.Supp.2d"), normalise_reporter("Va.App.")
    ('A.2d', 'F. Supp. 2d', 'Va. App.')
    >>> normalise_reporter("Umbrella")
    'Umbrella'
    """
    r = " ".join(reporter.split())
    if r in reporters_db.EDITIONS:
        return r
    editions, variations = _tables()
    key = _squash(r)
    return editions.get(key) or variations.get(key) or r


def is_known_reporter(reporter: str) -> bool:
    return normalise_reporter(reporter) in reporters_db.EDITIONS


def is_database(reporter: str) -> bool:
    return reporter in DATABASE_REPORTERS or "LEXIS" in reporter or reporter == "WL"


@lru_cache(maxsize=4096)
def _edition_end(reporter: str) -> datetime | bool | None:
    """End date of the edition, None if still running, False if unknown."""
    root = reporters_db.EDITIONS.get(reporter)
    if root is None:
        return False
    for rep in reporters_db.REPORTERS.get(root, ()):
        ed = rep.get("editions", {}).get(reporter)
        if ed is not None:
            return ed.get("end")
    return False


def courtlistener_covers(reporter: str, volume: str) -> bool:
    """Whether CourtListener holds EVERY case of this reporter volume (so its 404 means "no such case").

    Conservative on purpose: only closed series (ended before the CAP cutoff) and old U.S. Reports.
    """
    if reporter == "U.S.":
        return volume.isdigit() and int(volume) <= _US_COMPLETE_THROUGH
    end = _edition_end(reporter)
    return isinstance(end, datetime) and end.year <= _CAP_CUTOFF_YEAR


def cap_slug(reporter: str) -> str:
    """case.law static-site slug: ``A.2d`` → ``a2d``, ``Ala. App.`` → ``ala-app``, ``F. Supp. 2d`` → ``f-supp-2d``.

    >>> cap_slug("A.2d"), cap_slug("Ala. App."), cap_slug("F. Supp. 2d"), cap_slug("U.S.")
    ('a2d', 'ala-app', 'f-supp-2d', 'us')
    """
    s = reporter.lower().replace("'", "").replace(".", "")
    s = re.sub(r"[^a-z0-9]+", "-", s).strip("-")
    return s
