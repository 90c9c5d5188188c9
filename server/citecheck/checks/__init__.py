"""Verification checks: one per module, registered in ``ALL_CHECKS``; all pure (no I/O, no awaits).

Adding a check means adding a module with a class that has ``id``, ``local`` and
``run(ctx) -> Iterable[Finding]`` (see ``base.Check``) and one line here. ``local`` checks need no
lookup and run on every keystroke; the others run once the pipeline has the source's answers.
"""

from __future__ import annotations

from citecheck.checks.base import Check, CheckContext, QuoteMatch
from citecheck.checks.case_name import CaseNameCheck
from citecheck.checks.constitutions import ConstitutionCheck
from citecheck.checks.existence import ExistenceCheck
from citecheck.checks.holding import HoldingCheck
from citecheck.checks.impossible import ImpossibleCitationCheck
from citecheck.checks.malformed_pincite import MalformedPinciteCheck
from citecheck.checks.non_binding import NonBindingAuthorityCheck
from citecheck.checks.opinion_text import OpinionUnavailableCheck
from citecheck.checks.parenthetical import ParentheticalCheck
from citecheck.checks.pin_cite import PinciteCheck
from citecheck.checks.quotes import QuoteCheck
from citecheck.checks.series_year import SeriesYearCheck
from citecheck.checks.short_form import UnresolvedShortFormCheck
from citecheck.checks.statute_sections import StatuteSectionCheck
from citecheck.checks.statutes import StatuteNotCheckedCheck, StatuteTitleCheck
from citecheck.checks.treatment import TreatmentCheck

ALL_CHECKS: tuple[Check, ...] = (
    ImpossibleCitationCheck(),
    SeriesYearCheck(),
    UnresolvedShortFormCheck(),
    StatuteTitleCheck(),
    ConstitutionCheck(),
    MalformedPinciteCheck(),
    ExistenceCheck(),
    CaseNameCheck(),
    QuoteCheck(),
    PinciteCheck(),
    ParentheticalCheck(),
    OpinionUnavailableCheck(),
    NonBindingAuthorityCheck(),
    HoldingCheck(),
    StatuteSectionCheck(),
    StatuteNotCheckedCheck(),
    TreatmentCheck(),
)

LOCAL_CHECKS: tuple[Check, ...] = tuple(c for c in ALL_CHECKS if c.local)
SOURCE_CHECKS: tuple[Check, ...] = tuple(c for c in ALL_CHECKS if not c.local)

__all__ = ["ALL_CHECKS", "LOCAL_CHECKS", "SOURCE_CHECKS", "Check", "CheckContext", "QuoteMatch"]
