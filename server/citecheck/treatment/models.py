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


@dataclass(frozen=True, slots=True, kw_only=True)
class TreatmentNote:
    """What every edge says of one case citation's later history, finding or not.

    ``found``: the treatments the data hold (the finding reports the strongest); ``acknowledged``: the words
    with which the draft gives the history itself (then there is no finding); ``sources``: the data asked —
    so "none found" always says *in what*: silence is never "good law"."""

    found: tuple[Treatment, ...] = ()
    acknowledged: str | None = None
    sources: tuple[str, ...] = ()

    @property
    def status(self) -> str:
        """``overruled`` | ``negatively-treated`` | ``acknowledged`` | ``none-found`` | ``not-asked``."""
        if self.found and self.acknowledged:
            return "acknowledged"
        if any(t.overruled for t in self.found):
            return "overruled"
        if self.found:
            return "negatively-treated"
        return "none-found" if self.sources else "not-asked"

    def describe(self) -> str:
        """One line for a hover or a report.

        >>> TreatmentNote(sources=("the treatment table",)).describe()  # doctest: +ELLIPSIS
        'subsequent treatment: none found in the treatment data we have (the treatment table) — not proof ...'
        """
        if self.found:
            t = min(self.found, key=lambda x: (not x.overruled, STRENGTH[x.basis]))
            by = f" by {t.treating.describe()}" if t.treating is not None else ""
            head = f"subsequent treatment: {t.kind.value}{'' if t.whole else ' in part'}{by}"
            return head + (f" — the draft says so (“{self.acknowledged}”)" if self.acknowledged else "")
        if not self.sources:
            return "subsequent treatment: not checked (no treatment data was asked)"
        return (f"subsequent treatment: none found in the treatment data we have ({'; '.join(self.sources)}) — "
                "not proof it is still good law")  # fmt: skip


__all__ = ["CERTAIN_BASES", "STRENGTH", "Basis", "CaseRef", "Treatment", "TreatmentKind", "TreatmentNote"]
