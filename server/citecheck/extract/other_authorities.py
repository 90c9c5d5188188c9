"""What a paragraph cites besides cases and codes' sections written with ``§`` (issue 41): constitutions
(``constitutions.py``), state codes by name and with "Section", whole chapters, session laws and named
acts (``state_statutes.py``); all as ``StatuteMatch`` for ``paragraph._statutes``, which merges them with
``statutes.find_statutes``' readings."""

from __future__ import annotations

import re

from citecheck.extract.agency import MASS_REGULATION
from citecheck.extract.constitutions import find_constitutions
from citecheck.extract.models import Statute, StatuteForm
from citecheck.extract.state_statutes import find_state_statutes, keep_codes
from citecheck.extract.statutes import StatuteMatch


class Others:
    """A paragraph's other authorities, and the bare sections that count only if they keep a code."""

    __slots__ = ("found", "maybe")

    def __init__(self, found: list[StatuteMatch], maybe: list[StatuteMatch]) -> None:
        self.found, self.maybe = found, maybe

    def __bool__(self) -> bool:
        return bool(self.found)


#: The Code of Massachusetts Regulations as ``StatuteKey.code`` names it (Bluebook: "Mass. Code Regs.")
MASS_REGULATIONS = "Mass. Code Regs."
_SUB = re.compile(r"\([^()]{1,6}\)")


def _mass_regulations(norm: str) -> list[StatuteMatch]:
    """``209 CMR 18.14(3)``: title 209 (the Division of Banks), section 18.14, subsection (3)."""
    if "CMR" not in norm:
        return []
    return [
        StatuteMatch(
            m.start(),
            m.end(),
            m.end(),
            Statute(
                form=StatuteForm.FULL,
                code=MASS_REGULATIONS,
                code_text="CMR",
                jurisdiction="Massachusetts",
                regulation=True,
                title=m["title"],
                section=m["section"],
                subsections=tuple(_SUB.findall(m["subs"])),
            ),
        )
        for m in MASS_REGULATION.finditer(norm)
    ]


def find_other_authorities(norm: str, text: str) -> Others:
    """Constitutional provisions, then the state-statute forms, none overlapping, in order."""
    found = [StatuteMatch(c.start, c.end, c.end, c.statute) for c in find_constitutions(norm)]
    found += _mass_regulations(norm)
    state, maybe = find_state_statutes(norm, text)
    for m in state:
        if not any(f.start < m.end and m.start < f.end for f in found):
            found.append(m)
    found.sort(key=lambda m: m.start)
    return Others(found, [m for m in maybe if not any(f.start < m.end and m.start < f.end for f in found)])


def merge_authorities(statutes: list[StatuteMatch], others: Others) -> list[StatuteMatch]:
    """Both readings of a paragraph, an overlap keeping the longer (a constitution's ``art. I, § 8`` over
    nothing; ``Tex. Fam. Code Section 153.004(a)`` over ``§``-less nothing), then a bare section given
    the code it follows (``state_statutes.keep_codes``)."""
    if not others.found and not others.maybe:
        return keep_codes(statutes) if statutes else statutes
    maybe = [m for m in others.maybe if not any(s.start < m.end and m.start < s.end for s in statutes)]
    merged = sorted([*statutes, *others.found, *maybe], key=lambda m: (m.start, -(m.end - m.start)))
    out: list[StatuteMatch] = []
    for m in merged:
        if out and m.start < out[-1].end:
            if m.end - m.start > out[-1].end - out[-1].start:
                out[-1] = m
            continue
        out.append(m)
    return keep_codes(out, frozenset(m.start for m in maybe))
