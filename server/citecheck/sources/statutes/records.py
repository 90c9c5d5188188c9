"""What the statute index holds and answers: section records, their status, and section numbers.

Pure values. A section number is compared in one normal form (``normalise_section``) and ordered by
``section_order`` (``1395b-1`` before ``1395b-10``), so the index can name a title's neighbouring
sections and find a section inside a range that was repealed as one (``§§ 2401 to 2408``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from enum import StrEnum

__all__ = [
    "CODES",
    "LookupOutcome",
    "ParsedSection",
    "ParsedTitle",
    "SectionRecord",
    "SectionStatus",
    "StatuteAnswer",
    "normalise_section",
    "normalise_title",
    "section_order",
]

#: The codes this index can hold, by the key's ``code``.
CODES = {"usc": "U.S.C.", "cfr": "C.F.R."}


class SectionStatus(StrEnum):
    """What the source says of a section (USLM's ``@status`` values we act on, or its heading)."""

    CURRENT = "current"
    REPEALED = "repealed"
    TRANSFERRED = "transferred"
    RENUMBERED = "renumbered"
    OMITTED = "omitted"
    RESERVED = "reserved"
    EXPIRED = "expired"
    REMOVED = "removed"  # a C.F.R. section the versioner lists as removed

    @property
    def live(self) -> bool:
        return self is SectionStatus.CURRENT


@dataclass(frozen=True, slots=True, kw_only=True)
class SectionRecord:
    """One section of a title, as one edition of its source has it.

    ``moved_to`` names where a transferred or renumbered section went, as the source says it
    (``"8 U.S.C. § 1101"``), when it says. ``edition`` is the release point (``"118-200"``) or the
    eCFR date it came from; ``amended`` the date of the section's latest version, when known.
    ``first_of``/``last_of``: the section stands for a whole range (``§§ 2401 to 2408``).
    """

    code: str
    title: str
    section: str  # as the source numbers it ("2000e-2", "240.10b-5"), normalised
    heading: str
    status: SectionStatus = SectionStatus.CURRENT
    moved_to: str | None = None
    edition: str = ""
    amended: str | None = None
    url: str | None = None
    range_last: str | None = None

    @property
    def citation(self) -> str:
        """``42 U.S.C. § 1983`` / ``17 C.F.R. § 240.10b-5``."""
        last = f"–{self.range_last}" if self.range_last else ""
        sign = "§§" if last else "§"
        return f"{self.title} {CODES.get(self.code, self.code)} {sign} {self.section}{last}"

    def __repr__(self) -> str:
        return f"SectionRecord({self.citation!r}, {self.status.value}, {self.heading!r})"


@dataclass(frozen=True, slots=True, kw_only=True)
class ParsedSection:
    """One section as a parser read it (USLM or eCFR), before it is stored."""

    section: str
    heading: str
    status: SectionStatus
    text: str
    moved_to: str | None = None
    range_last: str | None = None
    also: tuple[str, ...] = ()  # further sections one element stands for ("§§ 101, 102")


@dataclass(slots=True, kw_only=True)
class ParsedTitle:
    """Filled in by a parser while the sections are read: the title's number, heading and edition."""

    code: str
    title: str = ""
    heading: str = ""
    edition: str = ""
    sections: int = 0
    extra: dict[str, str] = field(default_factory=dict)


class LookupOutcome(StrEnum):
    FOUND = "found"  # the section is in the index (whatever its status)
    NOT_FOUND = "not-found"  # the index holds the whole title and not this section
    NOT_COVERED = "not-covered"  # the index does not hold this title (or this code)


@dataclass(frozen=True, slots=True, kw_only=True)
class StatuteAnswer:
    """The index's answer for one key: the record, or why there is none, and the neighbours."""

    outcome: LookupOutcome
    record: SectionRecord | None = None
    neighbours: tuple[SectionRecord, ...] = ()  # NOT_FOUND: the sections either side in the title
    similar: tuple[SectionRecord, ...] = ()  # NOT_FOUND: sections "<number>(…)…" (the number may be misread)
    edition: str = ""  # the edition of the title that answered
    reason: str = ""


_DASHES = re.compile(r"[\u2010-\u2015\u2212]")
_SPACE = re.compile(r"\s+")


def normalise_section(section: str) -> str:
    """One form for a section number: dashes as ``-``, no spaces or ``§``, no trailing dot, lower case.

    >>> normalise_section("§ 2000e–2.")
    '2000e-2'
    >>> normalise_section("240.10B-5")
    '240.10b-5'
    """
    s = _DASHES.sub("-", section)
    s = _SPACE.sub("", s).replace("§", "").lower()
    return s.strip(".[]")


def normalise_title(title: str) -> str:
    """``"42"``, ``"05"`` → ``"5"``; appendix titles keep their letter (``"5a"``).

    >>> normalise_title("05"), normalise_title("50A"), normalise_title(" 42 ")
    ('5', '50a', '42')
    """
    t = title.strip().lower()
    m = re.fullmatch(r"0*(\d+)([a-z]?)", t)
    return f"{int(m.group(1))}{m.group(2)}" if m else t


_PART = re.compile(r"\d+|[a-z]+|[^\da-z]+")


def section_order(section: str) -> str:
    """A string that sorts section numbers the way the Code orders them (numbers by value).

    >>> sorted(["1395b-10", "1395b-1", "1395", "1395a", "99"], key=section_order)
    ['99', '1395', '1395a', '1395b-1', '1395b-10']
    >>> section_order("240.10b-5") < section_order("240.11")
    True
    """
    out = []
    for part in _PART.findall(normalise_section(section)):
        if part.isdigit():
            out.append(f"0{len(part):02d}{part}")  # 0 < letters: "1395" before "1395a"
        elif part.isalpha():
            out.append(f"1{part}")
        else:
            out.append(" ")  # a separator sorts before anything else at the same place
    return "".join(out)
