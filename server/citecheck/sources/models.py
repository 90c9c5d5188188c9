"""Records that sources return: cases, their citations, opinion text with page maps, lookup results.

The local corpus, the cache, CourtListener and the corpus server all speak these types, so checks
never know which source answered. Pure values; no I/O here.
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass, field
from enum import StrEnum

#: what a treatment link answers (``citecheck.treatment.models``), re-exported beside the other records
from citecheck.treatment.models import Treatment as Treatment


@dataclass(frozen=True, slots=True, order=True)
class CiteKey:
    """A normalised ``volume reporter page`` triple (reporter normalised through reporters-db)."""

    volume: str
    reporter: str
    page: str

    def __str__(self) -> str:
        return f"{self.volume} {self.reporter} {self.page}"


@dataclass(frozen=True, slots=True, kw_only=True)
class CaseCite:
    """One of a case's citations. ``last_page`` is None when no source told us."""

    volume: str
    reporter: str
    page: str
    last_page: str | None = None
    type: str | None = None  # "official", "parallel", CourtListener type code, ...

    @property
    def key(self) -> CiteKey:
        return CiteKey(self.volume, self.reporter, self.page)

    def __str__(self) -> str:
        return f"{self.volume} {self.reporter} {self.page}"


@dataclass(frozen=True, slots=True, kw_only=True)
class CaseRecord:
    id: str  # "cap:8118004", "cl:910000001"
    source: str  # "cap", "courtlistener"
    name: str  # the standard (abbreviated) name: "Peyton v. District of Columbia"
    name_short: str | None = None
    name_full: str | None = None
    name_abbreviation: str | None = None
    court_id: str | None = None  # courts-db / CourtListener court id
    court_name: str | None = None
    jurisdiction: str | None = None
    decision_date: str | None = None  # ISO date
    citations: tuple[CaseCite, ...] = ()
    url: str | None = None
    docket_number: str | None = None
    status: str | None = (
        None  # precedential status as CourtListener says it ("Published", "Unpublished", ...)
    )

    def cite_for(self, reporter: str, volume: str | None = None) -> CaseCite | None:
        for c in self.citations:
            if c.reporter == reporter and (volume is None or c.volume == volume):
                return c
        return None

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(n for n in (self.name, self.name_abbreviation, self.name_short, self.name_full) if n)


@dataclass(frozen=True, slots=True, kw_only=True)
class PageMap:
    """Where each page of one reporter begins in an opinion's clean text.

    ``starts`` is sorted by offset; ``(offset, label)``. Text before the first start is on
    ``first_page``.

    >>> pm = PageMap(reporter="A.2d", volume="100", first_page="36", starts=((120, "37"), (900, "38")))
    >>> pm.page_at(5), pm.page_at(120), pm.page_at(2000)
    ('36', '37', '38')
    >>> pm.pages_between(100, 130)
    ('36', '37')
    """

    reporter: str
    volume: str
    first_page: str
    starts: tuple[tuple[int, str], ...]

    def page_at(self, offset: int) -> str:
        i = bisect.bisect_right([o for o, _ in self.starts], offset)
        return self.first_page if i == 0 else self.starts[i - 1][1]

    def pages_between(self, start: int, end: int) -> tuple[str, ...]:
        """Pages a passage ``[start, end)`` touches, in order (a passage may run over a page break)."""
        pages = [self.page_at(start)]
        for off, label in self.starts:
            if start < off < end and label not in pages:
                pages.append(label)
        return tuple(pages)


@dataclass(frozen=True, slots=True, kw_only=True)
class OpinionText:
    """Clean text of all of a case's opinions (head matter first), and page maps per reporter."""

    case_id: str
    text: str
    page_maps: tuple[PageMap, ...] = ()

    def page_map(self, reporter: str, volume: str | None = None) -> PageMap | None:
        for pm in self.page_maps:
            if pm.reporter == reporter and (volume is None or pm.volume == volume):
                return pm
        return None


class LookupStatus(StrEnum):
    FOUND = "found"  # exactly one case begins at this cite
    AMBIGUOUS = "ambiguous"  # several cases share it
    NOT_FOUND = "not-found"  # a source that COVERS this volume has no case here: may lead to "fabricated"
    CANNOT_VERIFY = "cannot-verify"  # nothing we have covers it (WL/Lexis, uncovered volume, network down)


@dataclass(frozen=True, slots=True, kw_only=True)
class LookupResult:
    key: CiteKey
    status: LookupStatus
    records: tuple[CaseRecord, ...] = ()
    source: str | None = None  # which source answered ("corpus", "courtlistener", "cache")
    reason: str = ""  # human readable: why cannot-verify / which source covered the volume
    containing: CaseRecord | None = None  # NOT_FOUND but the page lies inside this case's range
    volume_complete: bool = False  # the source holds the whole volume
    volume_last_page: str | None = None  # last page of a complete volume, if known
    pending_until: float | None = None  # not asked yet: the service's allowance returns then (epoch s)
    #: NOT_FOUND in a volume held in full: the cases that begin just before and just after the page
    neighbours: tuple[CaseRecord, ...] = ()
    #: FOUND, but the page may hold other decisions the source does not list (the case found ends on it
    #: or the next page, as memorandum decisions and table dispositions do): another name there is not
    #: proof of a wrong citation
    page_shared: bool = False

    @property
    def record(self) -> CaseRecord | None:
        return self.records[0] if len(self.records) == 1 else None


@dataclass(frozen=True, slots=True, kw_only=True)
class PassageHit:
    """A passage found in some case of the corpus (for "this quote is really from X, page N")."""

    case: CaseRecord
    offset: int
    passage: str
    page: str | None = None
    reporter: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class NameHit:
    """A case found by its name: the record and how well its names fit the name asked for (0–1)."""

    record: CaseRecord
    score: float
    source: str  # "corpus", "index", "courtlistener", ...


@dataclass(frozen=True, slots=True, kw_only=True)
class NameSearch:
    """What a name search answered: the hits (best first), who was asked, and — only when a source that
    holds every published case of that court and those years was asked — that source, so "no case of
    that name" can be said as information (never as proof: unpublished decisions exist elsewhere)."""

    hits: tuple[NameHit, ...] = ()
    asked: tuple[str, ...] = ()  # the sources searched ("the local corpus", "CourtListener", ...)
    covering: str | None = None  # e.g. "the national citation index (every published case of dc, 1953)"
    failed: str | None = None  # why a source that should have been asked could not be


@dataclass(frozen=True, slots=True, kw_only=True)
class Coverage:
    """What a source holds for one reporter volume (for ``corpus stats`` and honest coverage)."""

    reporter: str
    volume: str
    cases: int
    complete: bool
    ranges: tuple[tuple[int, int], ...] = field(default=())
