"""What citecheck knows about a case's later treatment: plain frozen values, no I/O.

A ``Treatment`` says that one case (``cited``) was overruled, abrogated, superseded, disapproved or
receded from by another (``treating``), where we read it (``basis``: the Congress.gov table, the
treating court's own words, another court's report of it, a CourtListener parenthetical, a search)
and the words that say so (``quote``). The checks turn it into an ``overruled`` or
``negatively-treated`` finding; the sources (``sources/treatment/``) build and read the tables.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class TreatmentKind(StrEnum):
    """The negative treatment a sentence or a table states, in the words courts use for it."""

    OVERRULED = "overruled"
    ABROGATED = "abrogated"
    SUPERSEDED = "superseded"  # by statute or rule ("superseded by statute as stated in …")
    DISAPPROVED = "disapproved"
    RECEDED = "receded from"  # Florida's word for overruling its own precedent
    NOT_GOOD_LAW = "no longer good law"

    @property
    def verb(self) -> str:
        """How a message says it: "was overruled", "was receded from", "is no longer good law"."""
        return "is no longer good law" if self is TreatmentKind.NOT_GOOD_LAW else f"was {self.value}"


class Basis(StrEnum):
    """Where a treatment was read, strongest first (``STRENGTH``)."""

    TABLE = (
        "congress-table"  # the Constitution Annotated's table of decisions overruled (Library of Congress)
    )
    OWN_WORDS = "overruling-opinion"  # the treating court's own opinion says it overrules the case
    REPORTED = "citing-opinion"  # a later opinion reports it ("Smith, 1 F.3d 2, overruled by Doe, …")
    PARENTHETICAL = "parenthetical"  # a court's parenthetical (CourtListener's parentheticals file)
    SEARCH = "courtlistener-search"  # found online in a citing opinion's words (a token, paced)


#: Only these bases are certain enough for an error (docs/findings.md, "overruled"): a table compiled by
#: the Library of Congress, and the overruling court's own opinion. A report, a parenthetical or a search
#: snippet read by a rule can misfire: a warning at most.
CERTAIN_BASES = frozenset({Basis.TABLE, Basis.OWN_WORDS})
STRENGTH = {b: i for i, b in enumerate(Basis)}


@dataclass(frozen=True, slots=True, kw_only=True)
class CaseRef:
    """A case as a treatment names it: what a message needs to name and link it."""

    name: str
    citation: str | None = None  # "539 U.S. 558", or the docket number of a slip opinion ("No. 22-451")
    year: int | None = None
    court: str | None = None  # courts-db id ("scotus", "ca5"); None when unknown
    court_name: str | None = None
    url: str | None = None
    record_id: str | None = None  # "cl:<cluster id>" when the citation index resolved it

    def describe(self) -> str:
        """``Lawrence v. Texas, 539 U.S. 558 (2003)``: the case as a brief would cite it.

        >>> CaseRef(name="Lawrence v. Texas", citation="539 U.S. 558", year=2003).describe()
        'Lawrence v. Texas, 539 U.S. 558 (2003)'
        >>> CaseRef(name="Loper Bright Enterprises v. Raimondo", citation="No. 22-451 (U.S. June 28, 2024)").describe()
        'Loper Bright Enterprises v. Raimondo, No. 22-451 (U.S. June 28, 2024)'
        """
        out = self.name
        if self.citation:
            out += f", {self.citation}"
        if self.year is not None and (not self.citation or "(" not in self.citation):
            out += f" ({self.year})"
        return out


@dataclass(frozen=True, slots=True, kw_only=True)
class Treatment:
    """``cited`` was treated negatively by ``treating`` (None: the words do not say by which case).

    ``whole`` is False for an overruling in part, on other grounds, "to the extent", or of a separate
    opinion only. ``quote`` is the sentence, parenthetical or table row that says so; ``quoted_from`` the
    opinion it comes from (the treating case itself for ``OWN_WORDS``); ``source`` names the data set in
    words ("the Constitution Annotated table (Congress.gov)", "treatment table built 2026-06-30 from …");
    ``url`` links the statement."""

    cited: CaseRef
    treating: CaseRef | None
    kind: TreatmentKind
    whole: bool = True
    basis: Basis
    quote: str | None = None
    quoted_from: CaseRef | None = None
    source: str = ""
    url: str | None = None
    note: str | None = None  # "in part", "Powell, J., concurring": what the source adds about its scope

    @property
    def overruled(self) -> bool:
        """An overruling of the whole case: the ``overruled`` finding; every other one is ``negatively-treated``."""
        return self.kind is TreatmentKind.OVERRULED and self.whole

    def phrase(self) -> str:
        """The subsequent-history phrase a brief adds for it (Bluebook rule 10.7.1): ``overruled by``,
        ``overruled in part by``, ``abrogated by``, ``superseded by statute as stated in``, ``disapproved of by``.

        >>> t = Treatment(cited=CaseRef(name="A"), treating=CaseRef(name="B"), kind=TreatmentKind.OVERRULED,
        ...               whole=False, basis=Basis.TABLE)
        >>> t.phrase()
        'overruled in part by'
        """
        k = self.kind
        if k is TreatmentKind.SUPERSEDED:
            return "superseded by statute as stated in"
        if k is TreatmentKind.DISAPPROVED:
            return "disapproved of by"
        if k is TreatmentKind.NOT_GOOD_LAW:
            return "abrogated by"
        if k is TreatmentKind.OVERRULED and not self.whole:
            return "overruled in part by"
        return f"{k.value} by"


__all__ = ["CERTAIN_BASES", "STRENGTH", "Basis", "CaseRef", "Treatment", "TreatmentKind"]
