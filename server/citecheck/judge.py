"""``judge(extraction, evidence, settings) -> Report``: every check over what the sources said; pure, fast.

The second half of a check (``gather.py`` is the first): no awaits, no I/O, so the language server
runs it on partial evidence for its local first wave and again when the network has answered, and
the CLI runs it once. ``SourceEvidence`` is everything gathered; a later stage adds its answers as
a field here and a check reading them (see docs/contributing.md, "Adding a stage or an edge").
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import TypeVar, cast

from citecheck.checks import LOCAL_CHECKS, SOURCE_CHECKS, Check, CheckContext, QuoteMatch
from citecheck.checks.case_name import best_record
from citecheck.checks.corrections import NameQuery, correct, leads_for, looks_wrong
from citecheck.checks.corrections.leads import CORRECTED_FORMS
from citecheck.checks.existence import impossible_reason
from citecheck.checks.non_binding import assess, without_weight
from citecheck.checks.pin_before_first_page import redundant_pins_dropped
from citecheck.checks.quote_location import locate_passages, not_in_cited_case
from citecheck.checks.quote_match import OpinionIndex, opinion_index
from citecheck.checks.quotes import page_of
from citecheck.checks.short_form_near_miss import near_miss_short_forms
from citecheck.checks.two_names import two_names
from citecheck.config import Settings
from citecheck.extract.models import Citation, CiteForm, Extraction, StatuteKey
from citecheck.extract.tables import table_twins
from citecheck.findings import Finding
from citecheck.holdings.models import HoldingResult
from citecheck.jurisdiction import Declared, Forum, matter_forum
from citecheck.results import CitationResult, Report, basis_for, status_for
from citecheck.sources.models import (
    CaseRecord,
    CiteKey,
    LookupResult,
    LookupStatus,
    NameSearch,
    OpinionText,
    PassageHit,
)
from citecheck.sources.statutes.records import CODES, LookupOutcome, StatuteAnswer
from citecheck.treatment.models import Treatment, TreatmentNote
from citecheck.visible import visible

log = logging.getLogger(__name__)

_V = TypeVar("_V")


@dataclass(frozen=True, slots=True, kw_only=True)
class SourceEvidence:
    """What the sources answered for one extraction (``gather`` builds it; empty = no source).

    Keyed by content, not by position, so evidence gathered for one version of a document still
    applies after edits elsewhere: lookups by citation key, opinions by record id, passages found
    in other cases by the quote's words.
    """

    source_name: str | None = None  # None: no source was given at all
    lookups: Mapping[CiteKey, LookupResult] = field(default_factory=dict)
    opinions: Mapping[str, OpinionText] = field(default_factory=dict)
    elsewhere: Mapping[str, tuple[PassageHit, ...]] = field(default_factory=dict)
    #: the holding judge's results, by (record id, claim text) — see ``citecheck.holdings.stage``
    holdings: Mapping[tuple[str, str], HoldingResult] = field(default_factory=dict)
    # record id → why its opinion text could not be fetched, and (when it only waits for the service's
    # allowance) until when: the checks that needed it say so instead of passing
    unavailable: Mapping[str, tuple[str, float | None]] = field(default_factory=dict)
    #: what the corrections of wrong citations found (``checks.corrections``): cases by the draft's
    #: name (by query), and cases at the near misses of its citations (by the near-miss key)
    names: Mapping[NameQuery, NameSearch] = field(default_factory=dict)
    near: Mapping[CiteKey, LookupResult] = field(default_factory=dict)
    complete: bool = True  # False: a partial wave (answers from the network still to come)
    #: the statute index's answers, by section key, and the texts of quoted sections
    statutes: Mapping[StatuteKey, StatuteAnswer] = field(default_factory=dict)
    statute_texts: Mapping[StatuteKey, str] = field(default_factory=dict)
    #: ``(code, title)`` of each title a statute index covers (``title`` None: the whole code): statute
    #: citations there are the index's to check, not "statute-not-checked"
    statute_titles: frozenset[tuple[str, str | None]] = frozenset()
    #: what the treatment links say later courts did to the cited cases, by citation key (the key cited and
    #: every citation of the case found for it); ``treatment_sources``: the data they asked, in words
    treatments: Mapping[CiteKey, tuple[Treatment, ...]] = field(default_factory=dict)
    treatment_sources: tuple[str, ...] = ()

    @classmethod
    def failed(cls, keys: Sequence[CiteKey], source_name: str, reason: str) -> SourceEvidence:
        """The whole source failed: every key cannot-verify, with the reason (never an accusation)."""
        lookups = {k: LookupResult(key=k, status=LookupStatus.CANNOT_VERIFY, reason=reason) for k in keys}
        return cls(source_name=source_name, lookups=lookups)


def cite_key(c: Citation) -> CiteKey | None:
    """The key a full citation is looked up by (None: nothing a source could answer)."""
    if (
        c.form is not CiteForm.FULL
        or c.database is not None
        or c.agency
        or c.key is None
        or impossible_reason(c)
    ):
        return None
    return CiteKey(*c.key)


def lookup_keys(extraction: Extraction) -> list[CiteKey]:
    """Every distinct key of the extraction, in file order (what ``gather`` sends, and all it sends).

    File order is the order of value: when CourtListener's allowance is short, what the writer reads
    first is asked first (docs/sources.md, pacing)."""
    return list(dict.fromkeys(k for c in extraction.citations if (k := cite_key(c)) is not None))


def statute_keys(extraction: Extraction) -> list[StatuteKey]:
    """Every U.S.C. and C.F.R. section the extraction cites (short forms with their antecedent's title),
    in file order: what ``gather`` asks the statute index."""
    keys: list[StatuteKey] = []
    for c in extraction.citations:
        if c.form is CiteForm.STATUTE and (st := extraction.statute_of(c)) is not None and st.code in CODES:
            keys.extend(st.keys())
    return list(dict.fromkeys(keys))


def statute_answers(
    extraction: Extraction, c: Citation, answers: Mapping[StatuteKey, StatuteAnswer]
) -> tuple[tuple[StatuteKey, StatuteAnswer], ...]:
    """The index's answers for the sections ``c`` names (empty for anything but a checked statute cite)."""
    if c.form is not CiteForm.STATUTE or not answers:
        return ()
    st = extraction.statute_of(c)
    if st is None:
        return ()
    return tuple((k, a) for k in st.keys() if (a := answers.get(k)) is not None)


def full_of(extraction: Extraction, c: Citation) -> Citation | None:
    full = extraction.resolved(c)
    return full if full is not None and full.form is CiteForm.FULL else None


def choose_record(c: Citation, res: LookupResult | None) -> CaseRecord | None:
    """The case a full citation stands for (of several at one cite, the one the draft names)."""
    if res is None or res.status not in (LookupStatus.FOUND, LookupStatus.AMBIGUOUS):
        return None
    name = c.case_name.text if c.case_name else None
    rec = res.record if res.status is LookupStatus.FOUND else best_record(name, res.records)
    if rec is None and res.status is LookupStatus.FOUND and res.records:
        rec = res.records[0]
    return rec


class _Records:
    """Per extraction: each full citation's key and chosen record (computed once per citation)."""

    def __init__(self, extraction: Extraction, lookups: Mapping[CiteKey, LookupResult]) -> None:
        self.extraction = extraction
        self.keys: dict[int, CiteKey] = {}
        self.chosen: dict[int, CaseRecord] = {}
        #: each parallel group's full citations, in document order (``parallels`` was a scan of every
        #: citation per citation: 12 of 16 s of judging 10,000 citations, quadratic)
        self.groups: dict[int, list[int]] = {}
        for c in extraction.citations:
            if c.form is CiteForm.FULL and c.group is not None:
                self.groups.setdefault(c.group, []).append(c.index)
            if (k := cite_key(c)) is None:
                continue
            self.keys[c.index] = k
            if (rec := choose_record(c, lookups.get(k))) is not None:
                self.chosen[c.index] = rec

    def record_for(self, c: Citation) -> CaseRecord | None:
        full = full_of(self.extraction, c)
        return self.chosen.get(full.index) if full is not None else None

    def parallels(self, c: Citation) -> tuple[CaseRecord, ...]:
        """The cases the other full citations of ``c``'s parallel group resolved to."""
        if c.form is not CiteForm.FULL or c.group is None:
            return ()
        return tuple(
            rec
            for other in self.groups.get(c.group, ())
            if other != c.index and (rec := self.chosen.get(other)) is not None
        )


def run_checks(checks: Sequence[Check], ctx: CheckContext) -> list[Finding]:
    out: list[Finding] = []
    for check in checks:
        try:
            out.extend(check.run(ctx))
        except Exception:  # one broken check must not hide the others' findings
            log.exception("check %s failed on %r", check.id, ctx.citation)
    return out


def check_locally(extraction: Extraction, c: Citation) -> list[Finding]:
    """The local checks of one citation (what stage 1 runs per paragraph planned again)."""
    return run_checks(
        LOCAL_CHECKS, CheckContext(extraction=extraction, citation=c, full=full_of(extraction, c))
    )


def local_findings(extraction: Extraction, settings: Settings, *, filtered: bool = True) -> list[Finding]:
    """No evidence at all: impossible citations, malformed pincites, unresolved short forms.
    Keystroke-fast (no I/O). An editor keeps a ``LocalMemo`` per document and asks
    ``paragraph_findings(document.extraction, memo, check_locally)`` instead, which takes over the
    last version's findings where they cannot differ. ``filtered=False`` returns the findings
    before ``visible`` (the caller filters what it shows)."""
    found: list[Finding] = []
    twins = table_twins(extraction.citations)
    for c in extraction.citations:
        if c.index not in twins:  # a table entry whose authority the body cites speaks through its use
            found.extend(check_locally(extraction, c))
    return visible(found, settings) if filtered else found


def forum_of(text: str, settings: Settings, declared: tuple[Declared, ...] = ()) -> Forum | None:
    """The matter's court: ``declared`` (an edge's), the front matter, ``settings.court``, the caption."""
    return matter_forum(
        text, declared=(*declared, Declared(court=settings.court, question=settings.question))
    )


def judge(
    extraction: Extraction,
    evidence: SourceEvidence,
    settings: Settings,
    *,
    declared: tuple[Declared, ...] = (),
    places: tuple[tuple[int, str], ...] = (),
) -> Report:
    """Every check on every citation, given what the sources said; statuses by ``results.status_for``.

    ``places`` (where each PDF page or .docx paragraph begins, sorted: ``(offset, "page 3")``) are how a
    finding that points at another place of the document names it (``checks.base.where_in``).

    With ``evidence.complete`` False the report is a partial wave: its findings stand, its
    per-citation results are left empty (edges show them as pending).
    """
    cites = extraction.citations
    forum = forum_of(extraction.text, settings, declared)
    records = _Records(extraction, evidence.lookups)
    indexes = {rid: opinion_index(t.text) for rid, t in evidence.opinions.items()}
    matches, propositions = locate_passages(cites, records.record_for, indexes)
    found: list[Finding] = []
    contexts: list[CheckContext] = []
    claimed: set[tuple[str, str]] = set()
    for c in cites:
        full = full_of(extraction, c)
        rec = records.record_for(c)
        holding = _holding_for(c, rec, evidence.holdings, claimed)
        key = records.keys.get(full.index) if full is not None else None
        quote_matches = matches.get(c.index, ())
        statutes = statute_answers(extraction, c, evidence.statutes)
        ctx = CheckContext(
            extraction=extraction,
            citation=c,
            full=full,
            lookup=evidence.lookups.get(key) if key is not None else None,
            record=rec,
            opinion=evidence.opinions.get(rec.id) if rec is not None else None,
            quote_matches=quote_matches,
            elsewhere=_elsewhere(c, quote_matches, evidence.elsewhere),
            proposition_match=propositions.get(c.index),
            source_name=evidence.source_name,
            holding=holding,
            opinion_unavailable=evidence.unavailable[rec.id][0]
            if rec is not None and rec.id in evidence.unavailable
            else None,
            forum=forum,
            statutes=statutes,
            statute_text=evidence.statute_texts.get(statutes[0][0]) if statutes and c.quotes else None,
            statute_covered=_statute_covered(extraction, c, evidence.statute_titles),
            treatments=treatments_of(extraction, c, rec, evidence.treatments),
            parallels=records.parallels(c),
        )
        contexts.append(ctx)
        mine = run_checks(LOCAL_CHECKS, ctx) + run_checks(SOURCE_CHECKS, ctx)
        found.extend(_corrected(ctx, mine, evidence, indexes))
    found = _across_citations(extraction, found, places)
    found, no_case = without_weight(found, contexts)
    twins = table_twins(cites)
    if twins:  # a table-of-authorities entry whose authority the body cites: reported once, at its use
        found = [f for f in found if f.citation_index not in twins]
    findings = visible(found, settings)
    if not evidence.complete:
        return Report(
            text=extraction.text,
            extraction=extraction,
            findings=tuple(findings),
            results=(),
            complete=False,
            forum=forum,
        )
    per: dict[int, list[Finding]] = {}
    for f in findings:
        if f.citation_index is not None:
            per.setdefault(f.citation_index, []).append(f)
    results = _results(contexts, per, evidence, no_case)
    if twins:  # the entry's status is its use's
        results = tuple(
            replace(results[twins[r.citation_index]], citation_index=r.citation_index)
            if r.citation_index in twins
            else r
            for r in results
        )
    return Report(
        text=extraction.text, extraction=extraction, findings=tuple(findings), results=results, forum=forum
    )


def _results(
    contexts: list[CheckContext],
    per: Mapping[int, list[Finding]],
    evidence: SourceEvidence,
    no_case: frozenset[int],
) -> tuple[CitationResult, ...]:
    """Each citation's result, its context let go of once it is made (the contexts and the results held
    at once were ~25 MB of a 100,000-citation brief's peak, issue 40). Equal weights and treatment notes
    are one object: most citations of a document share a handful of them."""
    shared: dict[object, object] = {}
    out = []
    for i, ctx in enumerate(contexts):
        index = ctx.citation.index
        out.append(_result(ctx, per.get(index, ()), evidence, no_case=index in no_case, shared=shared))
        contexts[i] = None  # type: ignore[call-overload]
    return tuple(out)


def _one(shared: dict[object, object], value: _V) -> _V:
    """``value``, or the equal object made before it (``shared`` holds the first of each)."""
    if value is None:
        return value
    return cast(_V, shared.setdefault(value, value))


def _across_citations(
    extraction: Extraction, found: list[Finding], places: tuple[tuple[int, str], ...] = ()
) -> list[Finding]:
    """What only the whole document shows: a short form one slip from a full citation of it
    (``checks/short_form_near_miss.py``), one citation given two names (``checks/two_names.py``); and a pin
    before the first page left unsaid where the citation itself is shown wrong."""
    try:
        found = near_miss_short_forms(extraction, found, places)
        return redundant_pins_dropped(found + two_names(extraction, found, places))
    except Exception:  # a broken document-wide check must not hide the citations' own findings
        log.exception("document-wide checks failed")
        return found


def _corrected(
    ctx: CheckContext, findings: list[Finding], evidence: SourceEvidence, indexes: Mapping[str, OpinionIndex]
) -> list[Finding]:
    """The citation's findings with the corrections of a wrong citation attached (``checks.corrections``)."""
    if not findings or ctx.citation.form not in CORRECTED_FORMS:
        return findings
    why = looks_wrong(ctx.citation, ctx.lookup, ctx.record)
    if why is None:
        return findings
    try:
        leads = leads_for(ctx.citation, why, evidence.names, evidence.near, evidence.elsewhere)
        return correct(ctx, findings, leads, evidence.opinions, indexes)
    except Exception:  # a broken correction must not hide the finding itself
        log.exception("corrections failed on %r", ctx.citation)
        return findings


def treatments_of(
    extraction: Extraction,
    c: Citation,
    rec: CaseRecord | None,
    found: Mapping[CiteKey, tuple[Treatment, ...]],
) -> tuple[Treatment, ...]:
    """What the treatment sources said of ``c``'s case: by its key, its parallel citations' and its record's."""
    if not found or c.form is not CiteForm.FULL:
        return ()
    keys: dict[CiteKey, None] = {}
    g = c.group if c.group is not None else c.index
    # the group's members follow its first citation (index ``g``) in its paragraph: read from there,
    # not every citation of the document per citation (quadratic in a long brief; issue 40)
    cites = extraction.citations
    for at in range(max(g, 0), len(cites)):
        o = cites[at]
        if o.paragraph > c.paragraph:
            break
        if (
            o.form is CiteForm.FULL
            and (o.group if o.group is not None else o.index) == g
            and o.key is not None
        ):
            keys[CiteKey(*o.key)] = None
    if rec is not None:
        keys.update(dict.fromkeys(cc.key for cc in rec.citations))
    out: dict[tuple[str, str | None, str, bool], Treatment] = {}
    for k in keys:
        for t in found.get(k, ()):
            out.setdefault((t.basis.value, t.treating.name if t.treating else None, t.kind.value, t.whole), t)
    return tuple(out.values())


def _statute_covered(extraction: Extraction, c: Citation, titles: frozenset[tuple[str, str | None]]) -> bool:
    if not titles or c.form is not CiteForm.STATUTE:
        return False
    s = extraction.statute_of(c)
    return s is not None and s.code is not None and ((s.code, s.title) in titles or (s.code, None) in titles)


def _holding_for(
    c: Citation,
    rec: CaseRecord | None,
    holdings: Mapping[tuple[str, str], HoldingResult],
    claimed: set[tuple[str, str]],
) -> HoldingResult | None:
    """The holding result of the claim ``c`` owns (the first citation citing that case for that proposition)."""
    if not holdings or rec is None:
        return None
    from citecheck.holdings.claims import claim_text

    text = claim_text(c)
    if text is None or (rec.id, text) in claimed:
        return None
    claimed.add((rec.id, text))
    return holdings.get((rec.id, text))


#: ``_elsewhere`` of a citation when no passage was found in another case (almost every one): one
#: read-only mapping, not an empty dict per citation
_NO_PASSAGES: Mapping[int, tuple[PassageHit, ...]] = MappingProxyType({})


def _elsewhere(
    c: Citation, matches: tuple[QuoteMatch | None, ...], found: Mapping[str, tuple[PassageHit, ...]]
) -> Mapping[int, tuple[PassageHit, ...]]:
    if not found:
        return _NO_PASSAGES
    out = {}
    for m in matches:
        if not_in_cited_case(m):
            assert m is not None
            hits = found.get(c.quotes[m.quote_index].text)
            if hits:
                out[m.quote_index] = hits
    return out


def _result(
    ctx: CheckContext,
    findings: Sequence[Finding],
    evidence: SourceEvidence,
    *,
    no_case: bool = False,
    shared: dict[object, object] | None = None,
) -> CitationResult:
    page, passage = _passage_used(ctx)
    h = ctx.holding
    section = next(
        (a.record for _k, a in ctx.statutes if a.outcome is LookupOutcome.FOUND and a.record is not None),
        None,
    )
    basis = basis_for(ctx.citation, ctx.full, ctx.record, section)
    pending = ctx.lookup.pending_until if ctx.lookup is not None else None
    once = shared if shared is not None else {}
    needs_text = bool(ctx.citation.quotes) or ctx.citation.pincite is not None
    if pending is None and ctx.record is not None and needs_text and ctx.record.id in evidence.unavailable:
        pending = evidence.unavailable[ctx.record.id][1]
    return CitationResult(
        citation_index=ctx.citation.index,
        status=status_for(basis, findings),
        basis=basis,
        record=ctx.record,
        lookup=ctx.lookup,
        page_used=page,
        passage=passage,
        holding=h,
        pending_until=pending,
        # no case, no weight (not "persuasive", not "binding"); an agency's decision is weighed by no court
        weight=None if no_case or (ctx.full is not None and ctx.full.agency) else _one(once, assess(ctx)),
        statute=section,
        treatment=None if no_case else _one(once, _treatment_note(ctx, evidence)),
    )


def _passage_used(ctx: CheckContext) -> tuple[str | None, str | None]:
    """The page and the opinion's words the citation was compared with: a quote's or the proposition's match,
    or failing those the words where the holding judge's quote was found."""
    for m in (*ctx.quote_matches, ctx.proposition_match):
        if m is not None and m.passage:
            return page_of(ctx.opinion, ctx.reporter, ctx.volume, m.start, m.end), m.passage
    h = ctx.holding
    if h is not None and h.verified and h.quote_text:
        return h.quote_page, h.quote_text
    return None, None


def _treatment_note(ctx: CheckContext, evidence: SourceEvidence) -> TreatmentNote | None:
    """The citation's subsequent treatment as every edge shows it (a short form: its full citation's)."""
    full = ctx.full
    if full is None or full.key is None:
        return None
    found = (
        ctx.treatments
        if ctx.citation.form is CiteForm.FULL
        else treatments_of(ctx.extraction, full, ctx.record, evidence.treatments)
    )
    said = None
    if found:  # imported here: a document that cites no treated case need not compile its regexes
        from citecheck.treatment.acknowledge import acknowledged

        said = acknowledged(ctx.extraction, full)
    return TreatmentNote(found=found, acknowledged=said, sources=evidence.treatment_sources)


__all__ = ["SourceEvidence", "check_locally", "cite_key", "judge", "local_findings", "lookup_keys"]
