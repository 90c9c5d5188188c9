"""The Check protocol and the context every check receives; pure values, no I/O.

A check turns one citation (plus, for source-backed checks, its lookup result, matched record and
opinion text) into findings. The pipeline gathers everything a check needs first, so no check awaits.
"""

from __future__ import annotations

import bisect
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol, runtime_checkable

from citecheck.extract.models import Citation, Extraction, StatuteKey
from citecheck.findings import Evidence, Finding
from citecheck.jurisdiction.weight import Forum
from citecheck.sources.models import CaseCite, CaseRecord, LookupResult, OpinionText, PassageHit
from citecheck.sources.statutes.records import StatuteAnswer
from citecheck.treatment.models import Treatment

if TYPE_CHECKING:  # the holdings package imports the checks' quote matcher
    from citecheck.holdings.models import HoldingResult


@dataclass(frozen=True, slots=True, kw_only=True)
class QuoteMatch:
    """Where one quoted passage of the draft was located in the opinion text.

    ``exact`` is True when the quote was found (after normalisation); otherwise ``start``/``end``
    delimit the closest real passage and ``diff`` says how the draft differs.
    """

    quote_index: int
    exact: bool
    start: int
    end: int
    passage: str
    diff: str | None = None
    swallowed_negation: str | None = None  # an ellipsis would have had to omit this word
    score: float = 1.0
    others: tuple[tuple[int, int], ...] = ()  # further occurrences of an exact quote (start, end)


@dataclass(frozen=True, slots=True, kw_only=True)
class CheckContext:
    """Everything known about one citation when the checks run.

    ``full`` is the full citation this one stands for (itself for a full cite, the antecedent for a
    short form). ``lookup``/``record`` belong to ``full``. ``quote_matches`` has one entry per quote
    of ``citation`` (``None`` when the quote was too short to check or there was no opinion text).
    ``elsewhere`` maps a quote index to passages found in other cases of the source.
    ``proposition_match`` (``quote_index`` -1) locates the sentence the citation supports when it
    copies the opinion nearly word for word; pin cites fall back on it when no quote was found.
    """

    extraction: Extraction
    citation: Citation
    full: Citation | None = None
    lookup: LookupResult | None = None
    record: CaseRecord | None = None
    opinion: OpinionText | None = None
    quote_matches: tuple[QuoteMatch | None, ...] = ()
    elsewhere: Mapping[int, tuple[PassageHit, ...]] = field(default_factory=dict)
    proposition_match: QuoteMatch | None = None  # where the (unquoted) proposition was found, if anywhere
    source_name: str | None = None  # None: no source was given at all
    holding: HoldingResult | None = (
        None  # the holding judge's result for this citation's claim, if it owns one
    )
    opinion_unavailable: str | None = None  # why the record's opinion text could not be fetched
    forum: Forum | None = None  # the court the document is filed in, when known
    #: statute and regulation citations: the statute index's answer for each section the citation
    #: names (its own and, for a short form, with the antecedent's code and title), in ``keys`` order
    statutes: tuple[tuple[StatuteKey, StatuteAnswer], ...] = ()
    statute_text: str | None = None  # the first section's text, when the citation quotes it
    #: a statute index covers this statute citation's code and title (its checks speak for it; set by
    #: ``judge`` from ``SourceEvidence.statute_titles``)
    statute_covered: bool = False
    #: what later courts did to the cited case (the treatment sources' answers for its citation, its parallel
    #: citations and the matched record's citations): ``checks/treatment.py``
    treatments: tuple[Treatment, ...] = ()
    #: the cases the other full citations of this cite's parallel group resolved to (``judge``): a
    #: parallel citation that is the named case vouches for one the source lacks (existence)
    parallels: tuple[CaseRecord, ...] = ()

    @property
    def text(self) -> str:
        return self.extraction.text

    @property
    def reporter(self) -> str | None:
        """The reporter the citation's pages refer to (a short form's own, else its antecedent's)."""
        if self.citation.reporter:
            return self.citation.reporter
        return self.full.reporter if self.full else None

    @property
    def volume(self) -> str | None:
        if self.citation.volume:
            return self.citation.volume
        return self.full.volume if self.full else None

    def case_cite(self) -> CaseCite | None:
        """The record's citation in the reporter this citation uses."""
        if self.record is None or self.reporter is None:
            return None
        return self.record.cite_for(self.reporter, self.volume) or self.record.cite_for(self.reporter)


@runtime_checkable
class Check(Protocol):
    """One verification rule. ``id`` is its module name; ``local`` checks need no lookup."""

    id: str
    local: bool

    def run(self, ctx: CheckContext) -> Iterable[Finding]: ...


def record_evidence(
    ctx: CheckContext,
    *,
    page: str | None = None,
    passage: str | None = None,
    draft: str | None = None,
    diff: str | None = None,
    note: str | None = None,
) -> Evidence:
    """Evidence naming the matched record (id, name, citation, court, date, url) plus what was compared."""
    rec = ctx.record
    cite = ctx.case_cite()
    if rec is not None and cite is None and rec.citations:
        cite = rec.citations[0]
    return Evidence(
        source=(ctx.lookup.source if ctx.lookup and ctx.lookup.source else ctx.source_name),
        record_id=rec.id if rec else None,
        case_name=rec.name if rec else None,
        citation=str(cite) if cite else (str(ctx.lookup.key) if ctx.lookup else None),
        court=(rec.court_name or rec.court_id) if rec else None,
        date=rec.decision_date if rec else None,
        url=rec.url if rec else None,
        page=page,
        passage=passage,
        draft=draft,
        diff=diff,
        note=note,
    )


def describe_record(record: CaseRecord, cite: CaseCite | None = None) -> str:
    """``Peyton v. District of Columbia, 100 A.2d 36 (1953)`` for messages."""
    cite = cite or (record.citations[0] if record.citations else None)
    year = f" ({record.decision_date[:4]})" if record.decision_date else ""
    return f"{record.name}, {cite}{year}" if cite else f"{record.name}{year}"


def where_in(text: str, places: Sequence[tuple[int, str]], offset: int) -> str:
    """Where a reader finds ``offset``, for a message that points at another place of the document: "on
    page 3" of a PDF, "in paragraph 13" / "in footnote 2" of a .docx (``places``: where each begins, sorted),
    else "on line 21". Never a line of text extracted from a PDF, which no reader can find (issue 36).

    >>> where_in("a\\nb\\nc", (), 4), where_in("a\\nb", ((0, "page 1"), (2, "page 2")), 2)
    ('on line 3', 'on page 2')
    >>> where_in("a\\nb", ((0, "paragraph 1"), (2, "footnote 2")), 3)
    'in footnote 2'
    """
    if places:
        i = bisect.bisect_right([o for o, _ in places], offset)
        label = places[max(i - 1, 0)][1]
        return f"{'on' if label.startswith(('page', 'line')) else 'in'} {label}"
    return f"on line {text.count(chr(10), 0, offset) + 1}"
