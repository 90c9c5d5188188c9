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
    "APPENDIX_ACTS",
    "CODES",
    "KNOWN_USC_RELEASE",
    "LookupOutcome",
    "ParsedSection",
    "ParsedTitle",
    "SectionRecord",
    "SectionStatus",
    "StatuteAnswer",
    "appendix_label",
    "normalise_section",
    "normalise_title",
    "release_order",
    "section_order",
]

#: The codes this index can hold, by the key's ``code``.
CODES = {"usc": "U.S.C.", "cfr": "C.F.R."}

#: The newest U.S. Code release point this version of citecheck knows of (the OLRC's release of
#: 2025-09, ``usarscotus/united-states-code``): an index built from an older release never calls a
#: section missing from it fabricated — the section may have been enacted since (``StatuteIndex.lookup``).
KNOWN_USC_RELEASE = "119-36"

#: The numbers briefs give the acts of a U.S. Code appendix (``5 U.S.C. App. 3 § 4``), by title and
#: number → the act's key (``uslm.py``: ``pl/<congress>/<law>`` from the release's identifiers and table
#: of contents). The release files do not print these numbers; only these are trusted, and a number not
#: here is read as no number (the section is looked up in every act of the appendix).
APPENDIX_ACTS: dict[tuple[str, str], str] = {
    ("5a", "2"): "pl/92/463",  # Federal Advisory Committee Act
    ("5a", "3"): "pl/95/452",  # Inspector General Act of 1978
    ("5a", "4"): "pl/95/521",  # Ethics in Government Act of 1978
    ("18a", "2"): "pl/91/538",  # Interstate Agreement on Detainers
    ("18a", "3"): "pl/96/456",  # Classified Information Procedures Act
}


def appendix_label(title: str) -> tuple[str, bool]:
    """``("5", True)`` for an appendix title ``"5a"``; ``("42", False)`` for a title."""
    if title[-1:] == "a" and title[:-1].isdigit():
        return title[:-1], True
    return title, False


def release_order(release: str) -> tuple[int, int, str]:
    """A U.S. Code release point as something that sorts: ``"118-200"`` < ``"119-36"`` < ``"119-102not101"``.

    >>> release_order("113-31") < release_order("119-36") < release_order("119-102not101")
    True
    >>> release_order("Online")
    (0, 0, 'Online')
    """
    m = re.fullmatch(r"(\d+)-(\d+)(.*)", release.strip())
    return (int(m.group(1)), int(m.group(2)), m.group(3)) if m else (0, 0, release)


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
    ``range_last``: the section stands for a whole range (``§§ 2401 to 2408``). ``act`` / ``act_name`` /
    ``act_number``: the act of a U.S. Code appendix the section belongs to (``pl/96/456``, "Classified
    Information Procedures Act", ``3``). ``alternatives``: the number is borne by several sections
    (two acts of one appendix, or the Code's own duplicates, two 14 U.S.C. § 548): this record stands for
    all of them, with no heading, text or status of its own unless they all share it.
    ``moved_state``: ``moved_to`` followed in the index (through every later move): ``current`` (in force:
    only then is it a fix), ``repealed`` / ``omitted`` / … (never offered), ``missing`` (not in the title
    the index holds), ``unchecked`` (a note, or a title the index does not hold).
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
    act: str = ""
    act_name: str = ""
    act_number: str = ""
    dup: int = 0
    alternatives: tuple[SectionRecord, ...] = ()
    moved_state: str = ""  # what the index says of moved_to: "current", "repealed", "missing", "unchecked"
    unit: str = ""  # a C.F.R. "part", "subpart" or "appendix" (``section`` is "200", "404:p", "200:ii")

    @property
    def ambiguous(self) -> bool:
        return bool(self.alternatives)

    @property
    def moved_checked(self) -> bool:
        """``moved_to`` is a section the index shows in force: a fix may cite it."""
        return self.moved_to is not None and self.moved_state == "current"

    @property
    def citation(self) -> str:
        """``42 U.S.C. § 1983`` / ``17 C.F.R. § 240.10b-5`` / ``18 U.S.C. App. 3 § 4``."""
        last = f"–{self.range_last}" if self.range_last else ""
        sign = "§§" if last else "§"
        title, appendix = appendix_label(self.title) if self.code == "usc" else (self.title, False)
        name = CODES.get(self.code, self.code)
        if self.unit:
            part, _, rest = self.section.partition(":")
            word = "subpt." if self.unit == "subpart" else "app."
            return f"{title} {name} pt. {part}" + (f", {word} {rest.upper()}" if rest else "")
        if appendix:
            name += " App." + (f" {self.act_number}" if self.act_number else "")
        return f"{title} {name} {sign} {self.section}{last}"

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
    #: further sections or ranges one element stands for ("§§ 101, 102", "451 to 460, 471 to 483")
    also: tuple[tuple[str, str | None], ...] = ()
    act: str = ""  # a U.S. Code appendix's act ("pl/96/456"), "" for a title's own sections
    moves: tuple[tuple[str, str], ...] = ()  # where each section of a range went (section, "8 U.S.C. § 1101")


@dataclass(frozen=True, slots=True, kw_only=True)
class ParsedAct:
    """One act (or other division) of a U.S. Code appendix: its key, the number briefs cite it by, its name."""

    key: str
    number: str
    name: str


@dataclass(frozen=True, slots=True, kw_only=True)
class ParsedUnit:
    """A C.F.R. part, subpart or appendix (``kind``), keyed as ``StatuteKey.section`` is for one:
    ``"200"``, ``"404:p"``, ``"200:ii"``."""

    kind: str
    number: str
    heading: str
    reserved: bool = False
    last: str | None = None  # a range of parts ("PARTS 2-24 [RESERVED]")


@dataclass(slots=True, kw_only=True)
class ParsedTitle:
    """Filled in by a parser while the sections are read: the title's number, heading and edition."""

    code: str
    title: str = ""
    heading: str = ""
    edition: str = ""
    sections: int = 0
    extra: dict[str, str] = field(default_factory=dict)
    acts: dict[str, ParsedAct] = field(default_factory=dict)  # an appendix's acts, by key
    units: list[ParsedUnit] = field(default_factory=list)  # a C.F.R. title's parts, subparts, appendices
    appendix: bool = False  # a U.S. Code title appendix ("5a")
    eliminated: str = (
        ""  # what the release says of an eliminated title ("Title 50, Appendix, … has been eliminated")
    )


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
    newer: str = ""  # NOT_FOUND from an older edition than one known to exist (a newer release point or date)


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
