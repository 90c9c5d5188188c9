"""When the index may say "no case begins here": the coverage rule, in one pure function.

What "complete" buys is limited on purpose (docs/findings.md, "The evidence rule"): a page on which no
case of a complete volume begins is a *warning* ("likely fabricated"), never an error by itself, because
CourtListener's data and CAP's have known holes even in the series they hold (regional citations of
states with official reporters, table dispositions, pagination errors). Outside a complete volume the
page is *cannot verify*.

A reporter volume is *complete* in the index only when all of these hold:

1. the index was built from a **full dump** (``corpus sync``, ``sync --from DIR`` or ``corpus import
   DIR --full-dump``); a partial import (a sample, a firm's subset) never completes anything;
2. it is not a **neutral** volume: not a neutral-only reporter, not a year-like volume of an
   abbreviation with a neutral edition (``2015 Ohio``), and no citation of the volume carries
   CourtListener's type 8 (neutral). CourtListener lacks neutral citations for whole years
   (#3992, #5768);
3. CourtListener holds the **series in full**: ``reporters.courtlistener_covers`` — series that ended
   before its Caselaw Access Project intake (CAP is complete through mid-2018; every reporters-db
   edition of the abbreviation must have ended) and U.S. Reports through volume 570 — or the series
   runs on but CAP scanned it and every case of the volume was decided before ``RUNNING_CUTOFF``
   (``CAP_SCANNED_RUNNING``: a volume of F.3d from 2005 came whole from CAP like a closed series);
4. the series is not one CourtListener knows only from other cases' parallel citations
   (``PARALLEL_ONLY``: Lawyers' Edition and the Supreme Court Reporter, which CAP never scanned);
5. the data agrees: no case of the volume was decided after the CAP cutoff (a later case means the
   series ran on past what the tables say) and the volume holds at least ``MIN_CASES`` cases (a volume
   CourtListener holds one or two cases of did not come from CAP whole).
"""

from __future__ import annotations

from citecheck.reporters import courtlistener_covers, neutral_volume

#: Series CourtListener holds only as parallel citations of other reporters' cases (not scanned by CAP).
PARALLEL_ONLY = frozenset({"L. Ed.", "L. Ed. 2d", "S. Ct."})
#: CAP's collection, which CourtListener took in whole, runs to mid-2018.
CAP_CUTOFF = 20180630
#: A volume of a running series is whole in CAP when its last case was decided this long before the
#: cutoff (a volume is printed within months of its cases; six months' margin).
RUNNING_CUTOFF = 20171231
#: Running series CAP scanned volume by volume (its reporter list; the federal and West regional series
#: and the largest official ones). Others (a state's official series CAP may hold only in part) stay
#: cannot verify.
CAP_SCANNED_RUNNING = frozenset(
    {
        "F.3d", "F. App'x", "F. Supp. 3d", "B.R.", "F.R.D.", "Fed. Cl.", "T.C.", "Vet. App.",
        "A.3d", "N.E.3d", "N.W.2d", "P.3d", "S.E.2d", "S.W.3d", "So. 3d", "Cal. Rptr. 3d", "N.Y.S.3d",
        "Cal. 4th", "Cal. App. 4th", "Ill. 2d", "Ill. App. 3d", "N.Y.3d", "A.D.3d", "Misc. 3d",
        "Ohio St. 3d", "Wash. 2d", "Wash. App.", "Mass.", "Mass. App. Ct.", "N.J.", "N.J. Super.",
    }
)  # fmt: skip
MIN_CASES = 3
#: CourtListener's citation type for a neutral citation.
NEUTRAL_TYPE = 8


def volume_complete(
    reporter: str,
    volume: str,
    *,
    full_dump: bool,
    cases: int,
    last_date: int | None,
    neutral: bool = False,
) -> bool:
    """Whether the index holds every case of ``volume`` of ``reporter`` (see the module docstring).

    ``neutral``: some citation of the volume has CourtListener's type 8.

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
    >>> volume_complete("F.3d", "400", full_dump=True, cases=300, last_date=20050301)
    True
    >>> volume_complete("F.3d", "890", full_dump=True, cases=300, last_date=20180615)
    False
    >>> volume_complete("Ohio", "2015", full_dump=True, cases=300, last_date=20151231)
    False
    >>> volume_complete("A.2d", "100", full_dump=True, cases=180, last_date=19531201, neutral=True)
    False
    """
    return (
        incomplete_reason(
            reporter, volume, full_dump=full_dump, cases=cases, last_date=last_date, neutral=neutral
        )
        is None
    )


def incomplete_reason(
    reporter: str,
    volume: str,
    *,
    full_dump: bool,
    cases: int,
    last_date: int | None,
    neutral: bool = False,
) -> str | None:
    """Why a volume is not complete, for the cannot-verify message; None when it is (the one rule)."""
    label = f"{volume} {reporter}"
    if not full_dump:
        return f"the index was built from a partial import, so it does not hold all of {label}"
    if neutral or neutral_volume(reporter, volume):
        return (
            f"{label} is a neutral citation's year, and CourtListener lacks neutral citations for whole "
            "years, so a missing one proves nothing"
        )
    if reporter in PARALLEL_ONLY:
        return f"CourtListener holds {reporter} only as parallel citations of other reporters' cases"
    if last_date is not None and last_date > CAP_CUTOFF:
        return f"{label} has cases decided after CourtListener's CAP intake, so it may hold only part of it"
    scanned_whole = reporter in CAP_SCANNED_RUNNING and last_date is not None and last_date <= RUNNING_CUTOFF
    if not courtlistener_covers(reporter, volume) and not scanned_whole:
        return (
            f"CourtListener does not hold every case of {reporter} (a running series or one it holds in part)"
        )
    if cases < MIN_CASES:
        return f"the index holds only {cases} case(s) of {label}"
    return None
