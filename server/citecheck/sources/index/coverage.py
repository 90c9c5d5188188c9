"""When the index may say "no case begins here": the coverage rule, in one pure function.

A reporter volume is *complete* in the index only when all of these hold:

1. the index was built from a **full dump** (``corpus sync``, ``sync --from DIR`` or ``corpus import
   DIR --full-dump``); a partial import (a sample, a firm's subset) never completes anything;
2. CourtListener holds the **series in full**: ``reporters.courtlistener_covers`` — series that ended
   before its Caselaw Access Project intake (CAP is complete through mid-2018) and U.S. Reports
   through volume 570; the same rule the CourtListener client applies to a 404;
3. the data agrees: no case of the volume was decided after the CAP cutoff (a later case means the
   series ran on past what reporters-db says) and the volume holds at least ``MIN_CASES`` cases (a
   volume CourtListener holds one or two cases of did not come from CAP whole).

Running series (F.4th, A.3d, …) are never complete: an absent page there stays *cannot verify*. Nor is a
commercial series CAP never scanned, which CourtListener knows only from other cases' parallel citations
(``PARALLEL_ONLY``: Lawyers' Edition): a case whose parallel citation it lacks would look invented.
"""

from __future__ import annotations

from citecheck.reporters import courtlistener_covers

#: Series CourtListener holds only as parallel citations of other reporters' cases (not scanned by CAP).
PARALLEL_ONLY = frozenset({"L. Ed.", "L. Ed. 2d"})
#: CAP's collection, which CourtListener took in whole, runs to mid-2018.
CAP_CUTOFF = 20180630
MIN_CASES = 3


def volume_complete(
    reporter: str, volume: str, *, full_dump: bool, cases: int, last_date: int | None
) -> bool:
    """Whether the index holds every case of ``volume`` of ``reporter`` (see the module docstring).

    >>> volume_complete("A.2d", "100", full_dump=True, cases=180, last_date=19531201)
    True
    >>> volume_complete("A.2d", "100", full_dump=False, cases=180, last_date=19531201)
    False
    >>> volume_complete("F.4th", "12", full_dump=True, cases=150, last_date=20210901)
    False
    >>> volume_complete("A.2d", "100", full_dump=True, cases=2, last_date=19531201)
    False
    >>> volume_complete("L. Ed.", "35", full_dump=True, cases=150, last_date=19150101)
    False
    """
    if not full_dump or cases < MIN_CASES or reporter in PARALLEL_ONLY:
        return False
    if last_date is not None and last_date > CAP_CUTOFF:
        return False
    return courtlistener_covers(reporter, volume)


def incomplete_reason(
    reporter: str, volume: str, *, full_dump: bool, cases: int, last_date: int | None
) -> str:
    """Why a volume is not complete, for the cannot-verify message."""
    label = f"{volume} {reporter}"
    if not full_dump:
        return f"the index was built from a partial import, so it does not hold all of {label}"
    if reporter in PARALLEL_ONLY:
        return f"CourtListener holds {reporter} only as parallel citations of other reporters' cases"
    if not courtlistener_covers(reporter, volume):
        return (
            f"CourtListener does not hold every case of {reporter} (a running series or one it holds in part)"
        )
    if last_date is not None and last_date > CAP_CUTOFF:
        return f"{label} has cases decided after CourtListener's CAP intake, so it may hold only part of it"
    return f"the index holds only {cases} case(s) of {label}"
