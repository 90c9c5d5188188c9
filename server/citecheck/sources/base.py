"""The interfaces of case-law sources: ``AuthoritySource`` (what the pipeline asks) and ``Link`` with its
capabilities (what one source of the chain may answer).

The pipeline sees only ``AuthoritySource`` — the source chain, or a test double — never SQLite or httpx.
The chain (``sources/chain.py``) is a list of links: the local corpus, the citation index, the cache, CAP
volumes on demand, CourtListener, the statute index. A link has a ``name`` and ``close()``, and any of the
capabilities below; for each question the chain asks the links that have that capability, in the list's
order (``sources/links.py`` opens them from the settings). How to add one: docs/architecture.md, "Add a
source".

A link may also set these attributes (the chain reads them with a default):

- ``label`` (default: ``name``): how reasons name it ("local corpus: …", "courtlistener unavailable: …").
- ``local`` (default False): it answers from files on this machine and sends nothing anywhere. A local-only
  view of the chain (the language server's first wave, near-miss lookups) keeps only these; passage search,
  which sends a draft's words, asks only these.
- ``description`` (default: ``label``): its part of ``SourceChain.describe()``; "" leaves it out.
- ``holds(record) -> bool`` (default: ``record.source == name``): the records this link is the origin of.
  A link that is not local has the last word on the text of a record it holds (text, None, or an error).
- ``metadata_only`` (default False): it resolves cases but holds no text; when no link gives the text of a
  record it holds, the chain says so (``TextNotHere``) instead of passing the quote and pin checks in silence.
- ``joined(chain)``: called once with the chain it is put in (a link that asks other links, like the CAP
  download, which imports into the corpus and asks it again).

Capabilities that are not questions: ``LookupStep`` (takes part in the lookup walk itself), ``LookupReview``
(adds evidence to the walk's answers), ``AnswerStore`` (keeps what services answered), ``PacedLink`` (spends
a service's allowance in an order of value), ``PendingLink`` (not there yet).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Protocol, runtime_checkable

from citecheck.sources.models import (
    CaseRecord,
    CiteKey,
    LookupResult,
    LookupStatus,
    NameSearch,
    OpinionText,
    PassageHit,
    Treatment,
)

if TYPE_CHECKING:
    from citecheck.sources.chain import LookupWalk
    from citecheck.sources.pacing import WorkOrder
    from citecheck.sources.statutes.index import StatuteKeyLike
    from citecheck.sources.statutes.records import SectionRecord, StatuteAnswer


@runtime_checkable
class AuthoritySource(Protocol):
    """What ``gather`` asks of its source (the chain implements it; a test may pass a double)."""

    name: str

    async def lookup(self, keys: Sequence[CiteKey]) -> dict[CiteKey, LookupResult]:
        """Answer every key: FOUND / AMBIGUOUS / NOT_FOUND (only when covered) / CANNOT_VERIFY.

        Must never raise for a single citation's trouble; a whole-source failure raises a
        ``SourceError`` which the chain turns into CANNOT_VERIFY.
        """
        ...

    async def opinion(self, record: CaseRecord) -> OpinionText | None:
        """Opinion text with page maps, or None when this source has no text for the case.

        Raises a ``SourceError`` when the text may exist but could not be fetched (``Deferred`` while
        waiting for the service's allowance), so the checks that needed it can say they did not run.
        """
        ...

    async def find_passage(self, passage: str, *, limit: int = 5) -> list[PassageHit]:
        """Cases whose text contains ``passage`` (normalised); empty if unsupported."""
        ...

    async def close(self) -> None: ...


@runtime_checkable
class Link(Protocol):
    """One source of the chain. Everything else it offers is a capability (below)."""

    name: str

    async def close(self) -> None: ...


# ---------------------------------------------------------------------------------------- capabilities
@runtime_checkable
class CaseLookup(Protocol):
    """Answers citation keys. FOUND / AMBIGUOUS / NOT_FOUND (only in a volume it covers) end the walk for a
    key; CANNOT_VERIFY adds its reason and lets the next link try. Raise a ``CitecheckError`` when the whole
    link fails (the chain notes "<label> unavailable: …" on every key it was asked)."""

    async def lookup(self, keys: Sequence[CiteKey]) -> dict[CiteKey, LookupResult]: ...


@runtime_checkable
class LookupStep(Protocol):
    """A link that takes part in the lookup walk itself instead of through ``lookup`` (the CAP download
    imports volumes into the corpus and asks it again). ``walk`` holds the answers so far and the keys left."""

    async def step(self, walk: LookupWalk) -> None: ...


@runtime_checkable
class LookupReview(Protocol):
    """A link that looks at a lookup's answers once the walk is over and may add evidence to them (CAP's
    page ranges, ``sources/cap_ranges.py``: the case a page lies in, the cases that begin on it). It sees
    every answer, settled or not, and replaces those it has something to add to; it must not raise for one
    key (a failure is logged and the answers stay as they were)."""

    async def review(self, results: dict[CiteKey, LookupResult]) -> None: ...


@runtime_checkable
class OpinionTexts(Protocol):
    """The text of a case (None: not here). A local link's ``CitecheckError`` is logged and the next link
    asked; the error of a link that is not local reaches the checks (they say the text could not be had)."""

    async def opinion(self, record: CaseRecord) -> OpinionText | None: ...


@runtime_checkable
class PassageSearch(Protocol):
    """Cases whose text holds a passage. Only local links are asked: the passage is the draft's words."""

    async def find_passage(self, passage: str, *, limit: int = 5) -> list[PassageHit]: ...


@runtime_checkable
class NameLookup(Protocol):
    """Cases by name, to propose the citation a wrong one meant. Only a case name and, to narrow, a court
    and years are given; a link that is not local is asked only when the caller allows it (``remote``)."""

    async def find_by_name(
        self, name: str, *, limit: int = 5, court: str | None = None, years: tuple[int, int] | None = None
    ) -> NameSearch: ...


@runtime_checkable
class StatuteLookup(Protocol):
    """U.S. Code and C.F.R. sections. Never raises: a failure is NOT_COVERED with the reason."""

    async def lookup_statutes(
        self, keys: Sequence[StatuteKeyLike], *, as_of: str | None = None
    ) -> dict[StatuteKeyLike, StatuteAnswer]: ...

    async def statute_text(self, record: SectionRecord) -> str | None: ...


@runtime_checkable
class TreatmentLookup(Protocol):
    """What later courts did to cases (overruled, …), by any of their citation keys; keys it knows nothing
    of are left out. Raise a ``CitecheckError`` when the whole link fails (it is then skipped). Optional
    attribute ``sources``: the data it asks, in words (a report says in what nothing was found)."""

    async def treatment(self, keys: Sequence[CiteKey]) -> Mapping[CiteKey, Sequence[Treatment]]: ...


@runtime_checkable
class AnswerStore(Protocol):
    """Keeps what links that are not local answered (the cache). Its lookup answers, whatever their status,
    end the walk for their keys (a remembered "not covered" spares a request); its failures lose nothing,
    so they are logged, never a reason on a citation."""

    async def remember_lookups(self, results: Sequence[LookupResult]) -> None: ...

    async def remember_opinion(self, record: CaseRecord, text: OpinionText) -> None: ...

    async def clear(self) -> None: ...


@runtime_checkable
class PacedLink(Protocol):
    """A link that spends a service's allowance (CourtListener): ``work_order`` is the order of value it
    spends it in (``sources/pacing.WorkOrder``), which ``gather`` follows when it fetches texts."""

    @property
    def work_order(self) -> WorkOrder | None: ...


@runtime_checkable
class PendingLink(Protocol):
    """A link that is not there yet (the citation index before its first sync, in a long-running
    process): ``poll()`` returns the link once it is, and the chain puts it in this one's place."""

    async def poll(self) -> Link | None: ...


class Unavailable:
    """A source that is switched off, and why ("offline mode: CourtListener not consulted"): every key that
    reaches it gets the reason. It stands where the source would; it is not local (a local-only view drops
    it and says why it has only what this machine holds)."""

    local = False

    def __init__(self, reason: str, *, name: str = "courtlistener", what: str = "CourtListener") -> None:
        self.name = name
        self.reason = reason
        self.description = f"{what} off: {reason}"

    async def lookup(self, keys: Sequence[CiteKey]) -> dict[CiteKey, LookupResult]:
        return {k: LookupResult(key=k, status=LookupStatus.CANNOT_VERIFY, reason=self.reason) for k in keys}

    def holds(self, record: CaseRecord) -> bool:
        return False

    async def close(self) -> None:
        return None


__all__ = [
    "AnswerStore",
    "AuthoritySource",
    "CaseLookup",
    "Link",
    "LookupReview",
    "LookupStep",
    "NameLookup",
    "OpinionTexts",
    "PacedLink",
    "PassageSearch",
    "PendingLink",
    "StatuteLookup",
    "TreatmentLookup",
    "Unavailable",
]
