"""Jurisdiction: the court hierarchy (``hierarchy``), a citation's weight in the forum (``weight``),
and where the forum comes from (``matter``, ``caption``). Pure; see docs/jurisdiction.md."""

from __future__ import annotations

from citecheck.jurisdiction.hierarchy import CourtNode, Tier, court_node
from citecheck.jurisdiction.matter import Declared, matter_forum, resolve_court
from citecheck.jurisdiction.weight import Assessment, Forum, Question, Weight, weigh

__all__ = [
    "Assessment",
    "CourtNode",
    "Declared",
    "Forum",
    "Question",
    "Tier",
    "Weight",
    "court_node",
    "matter_forum",
    "resolve_court",
    "weigh",
]
