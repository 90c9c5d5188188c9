"""Values of the holding check: a claim the draft makes, the passages shown to the judge, its judgment.

Pure frozen values; nothing here talks to a model or a database.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from enum import StrEnum

from citecheck.spans import Span


class Support(StrEnum):
    """How far the opinion supports the proposition, in the judge's reading."""

    SUPPORTED = "supported"
    PARTLY = "partly"
    NOT_SUPPORTED = "not-supported"
    CONTRADICTED = "contradicted"


class Misuse(StrEnum):
    """What kind of misuse the judge saw (``none`` when the case is used fairly)."""

    NONE = "none"
    OVERSTATED = "overstated-holding"
    DICTUM = "dictum-as-holding"
    DIFFERENT_ISSUE = "different-issue"
    REVERSED = "reversed-meaning"
    WRONG_PARTY = "wrong-party-or-facts"


#: How a lawyer reads each misuse, for messages.
MISUSE_WORDS: dict[Misuse, str] = {
    Misuse.NONE: "",
    Misuse.OVERSTATED: "the draft overstates what the court held",
    Misuse.DICTUM: "the draft cites dictum as if it were the holding",
    Misuse.DIFFERENT_ISSUE: "the opinion decides a different issue",
    Misuse.REVERSED: "the draft reverses the court's meaning",
    Misuse.WRONG_PARTY: "the draft attributes the point to the wrong party or facts",
}


def text_hash(text: str) -> str:
    """A short stable digest (what the judgment cache keys on).

    >>> text_hash("abc")
    'ba7816bf8f01cfea'
    """
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


@dataclass(frozen=True, slots=True, kw_only=True)
class Claim:
    """What one citation is cited for: the proposition (plus explanatory parentheticals) and the case.

    ``span`` is where a finding goes (the citation); offsets are code points into the draft.
    """

    citation_index: int
    span: Span
    proposition: str
    case_id: str
    case_name: str
    cite: str  # "100 A.2d 36" as the record gives it
    reporter: str | None = None  # the reporter the draft's pages refer to (for page labels)
    volume: str | None = None
    pin_pages: tuple[str, ...] = ()

    def __repr__(self) -> str:
        return f"Claim({self.citation_index}, {self.cite!r}, {self.proposition[:40]!r})"


@dataclass(frozen=True, slots=True, kw_only=True)
class Passage:
    """A stretch of the opinion shown to the judge: offsets into the opinion text, and its page(s)."""

    start: int
    end: int
    text: str
    page: str | None = None  # "37" or "37–38" from the reporter's page map; None without one

    @property
    def digest(self) -> str:
        return text_hash(self.text)

    def label(self) -> str:
        return f"p. {self.page}" if self.page else f"at offset {self.start}"


@dataclass(frozen=True, slots=True, kw_only=True)
class Judgment:
    """The judge's answer after it validated against the schema (not yet checked against the opinion)."""

    support: Support
    misuse: Misuse
    supporting_quote: str
    rationale: str


class Outcome(StrEnum):
    """What became of one claim."""

    JUDGED = "judged"  # a judgment whose quote was found in the opinion
    UNVERIFIED = "unverified"  # the judgment's quote is not in the opinion: discarded
    FAILED = "failed"  # the endpoint failed, timed out or answered nothing valid
    NO_PASSAGES = "no-passages"  # nothing in the opinion resembles the proposition: not asked
    UNDECIDED = (
        "undecided"  # yes-no protocol: the court's words moved the answer too little to claim anything
    )


@dataclass(frozen=True, slots=True, kw_only=True)
class HoldingResult:
    """One claim's result: the judgment (only when verified), where its quote is, and what was shown."""

    claim: Claim
    outcome: Outcome
    model: str
    prompt_version: str
    passages: tuple[Passage, ...] = ()
    judgment: Judgment | None = None  # set for JUDGED and UNVERIFIED (the latter is never shown as evidence)
    quote_start: int | None = None  # where the verified supporting quote is in the opinion
    quote_end: int | None = None
    quote_page: str | None = None
    quote_text: str | None = None  # the opinion's own words at the verified quote (never the model's string)
    reason: str = ""  # FAILED / UNVERIFIED / NO_PASSAGES / UNDECIDED: why, in words
    cached: bool = False

    @property
    def verified(self) -> bool:
        return self.outcome is Outcome.JUDGED and self.judgment is not None
