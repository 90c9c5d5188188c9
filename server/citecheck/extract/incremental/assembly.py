"""The document pass: paragraph results → one ``Extraction`` with absolute spans and resolved short forms.

It is deliberately cheap (no scanning, only arithmetic over the cached paragraph results), because it
runs on every keystroke over the whole document:

- shift each paragraph's spans by the paragraph's offset and number the citations in document order;
- accept ``Name at 116`` reference candidates whose name is a party to an earlier full citation
  (one pass per document, replacing eyecite's per-citation re-scan of the rest of the text);
- resolve short forms: ``Id.`` → the previous authority (WL star pins included; a statute or record
  cite in between breaks the chain; citations inside another's parenthetical are skipped), short
  cites → the earlier full cite with the same volume and reporter (the name breaks ties), ``supra`` and
  references → the latest full cite whose party names contain the short name;
- bring in what lives in the neighbouring paragraph: the block quote a citation follows, and the
  sentence before a paragraph that is only a citation.
"""

from __future__ import annotations

import itertools
from bisect import bisect_left
from dataclasses import dataclass, field
from typing import NamedTuple

from citecheck.extract.incremental.lookups import (
    LookupState,
    Record,
    RelRef,
    Seg,
    SharedIndex,
    absolute,
    para_of,
    relative,
    segs_upto,
)
from citecheck.extract.incremental.placing import build_paragraph
from citecheck.extract.incremental.plan import Plan, make_plan, names_earlier_cites
from citecheck.extract.incremental.view import DocumentExtraction
from citecheck.extract.incremental.zone import Queries, Zone
from citecheck.extract.models import (
    Citation,
    Extraction,
)
from citecheck.extract.paragraph import ParagraphResult


class Tally(NamedTuple):
    """What a run's per-paragraph lists say before a paragraph, after the last one."""

    records: int  # full-citation records before it (``Run.records_before``)
    authority: RelRef | None  # what an ``Id.`` there means (``Run.authorities``)
    citations: int  # citations before it (``Run.citations_before``)


@dataclass(slots=True)
class Run:
    """What one run over a document leaves for the next run over the same (edited) document, and
    everything needed to build its citations later (``DocumentExtraction``).

    Plans number a paragraph's citations from its own first one and name an antecedent as a
    ``RelRef`` (paragraphs back, place there), records (``Record``) likewise: a citation added or
    removed leaves every other paragraph's plan and records as they were, and only the per-paragraph
    counts ``records_before``/``citations_before`` move. Document-wide numbers are made when citations
    are built."""

    text: str
    paragraphs: list[tuple[int, int]]
    results: list[ParagraphResult]  # per paragraph (the same object while its text is the same)
    records_before: list[int]  # per paragraph: full-citation records before it
    authorities: list[RelRef | None]  # per paragraph: the authority an ``Id.`` at its start means
    citations_before: list[int]  # per paragraph: citations before it (the index of its first)
    after: Tally  # the same after the last paragraph
    plans: list[Plan]
    reach: list[int]  # per paragraph: how many paragraphs back its plan's looked-up antecedents lie
    built: list[tuple[Citation, ...] | None]  # per paragraph; None until something asks for it
    fulls: list[Record]
    #: this run's number, the number of the run it continued (None: none), and where the text differs
    #: from that run's (``[start, end]`` of this text; None: unknown) — what lets a per-paragraph memo
    #: take the paragraphs far from the edit over in bulk
    serial: int = 0
    prior_serial: int | None = None
    edited: tuple[int, int] | None = None
    index: SharedIndex | None = (
        None  # the lookup indexes; ``fulls`` sits in them as ``segs`` say, except ``patches``
    )
    segs: list[Seg] = field(default_factory=list)
    patches: list[int] = field(default_factory=list)
    queries: Queries | None = None  # see ``Queries``
    #: paragraphs from here on are the previous run's (the very same plans and results), taken over
    kept_from: int = 0

    def paragraph(self, para: int) -> tuple[Citation, ...]:
        """Paragraph ``para``'s citations with absolute spans and numbers (built once, on demand)."""
        got = self.built[para]
        if got is None:
            got = self.built[para] = build_paragraph(self, para)
        return got

    def first_of(self, para: int) -> int:
        """The index of paragraph ``para``'s first citation."""
        return self.citations_before[para] if para < len(self.citations_before) else self.after.citations

    def records_at(self, para: int) -> int:
        return self.records_before[para] if para < len(self.records_before) else self.after.records

    def authority_at(self, para: int) -> RelRef | None:
        return self.authorities[para] if para < len(self.authorities) else self.after.authority

    def index_of(self, ref: RelRef | None, para: int) -> int | None:
        """The document-wide index a plan entry of paragraph ``para`` refers to."""
        if ref is None:
            return None
        t, which = para - ref.back, ref.which
        if isinstance(which, int):
            return self.first_of(t) + which
        key, nth = which
        fulls = self.fulls
        for i in range(self.records_before[t], self.records_at(t + 1)):
            if fulls[i].key == key:
                if not nth:
                    return self.first_of(t) + fulls[i].pos
                nth -= 1
        raise LookupError(f"paragraph {t} has no record {which!r}")  # a broken invariant: the caller re-syncs

    def para_of(self, pos: int) -> int:
        return para_of(self.records_before, pos)


def assemble(text: str, paragraphs: list[tuple[int, int]], results: list[ParagraphResult]) -> Extraction:
    """Number, shift and resolve the paragraph results of ``text``."""
    ex = assemble_incremental(text, paragraphs, results, None)[0]
    return Extraction(text=text, citations=ex.citations)


_serials = itertools.count(1)


def assemble_incremental(
    text: str,
    paragraphs: list[tuple[int, int]],
    results: list[ParagraphResult],
    prior: Run | None,
    edited: tuple[int, int] | None = None,
) -> tuple[DocumentExtraction, Run]:
    """``assemble`` reusing the previous run of the same document; citations are built lazily.

    Paragraphs before the first one whose result or offset changed are taken over as they were. From
    there on paragraphs are planned (numbered and resolved) again, until one is the previous run's
    paragraph after the same ``Id.`` state, and none of its lookups could see a record the paragraphs
    planned again changed (``Zone``): from then on the previous plans still hold — they number from
    their own paragraph, so a citation added or removed before them changes nothing in them — and
    they are taken over in one slice up to the next paragraph whose lookups could see the change.
    Citations are built when asked for; those of the paragraphs before the edit are the previous run's.
    (Taking over the built citations of unmoved paragraphs after the edit too measured no gain — an
    edit almost always moves them — and was removed: docs/performance.md.)
    The result does not depend on ``prior``.
    """
    if len(paragraphs) != len(results):
        raise ValueError("one result per paragraph")
    run = _Assembly(text, paragraphs, results, prior, edited)
    n, para = len(results), run.first
    while para < n:
        old = para - run.para_delta  # the previous run's number for this paragraph
        synced = run.can_take_over(para, old, run.begin(para))
        if synced:
            run.take_over(para, old)
        else:
            run.plan_again(para, old)
        para += 1
        if synced and para < n:
            para = run.take_over_slice(para, old + 1)
    return run.finish(edited)


class _Assembly:
    """One ``assemble_incremental``: the per-paragraph lists of the ``Run`` being made, the lookup state,
    and what of the previous run (``prior``) may still be taken over."""

    __slots__ = (
        "authorities",
        "built",
        "citations",
        "citations_before",
        "first",
        "kept_from",
        "para_delta",
        "paragraphs",
        "plans",
        "prior",
        "queries",
        "reach",
        "records_before",
        "results",
        "st",
        "stretch",
        "text",
        "zone",
    )

    def __init__(
        self,
        text: str,
        paragraphs: list[tuple[int, int]],
        results: list[ParagraphResult],
        prior: Run | None,
        edited: tuple[int, int] | None,
    ) -> None:
        self.text, self.paragraphs, self.results, self.prior = text, paragraphs, results, prior
        n = len(results)
        self.records_before: list[int] = []
        self.authorities: list[RelRef | None] = []
        self.citations_before: list[int] = []
        self.plans: list[Plan] = []
        self.reach: list[int] = []
        self.built: list[tuple[Citation, ...] | None] = []
        self.st = LookupState(records_before=self.records_before)
        self.citations = 0  # citations before the paragraph being assembled
        self.zone: Zone | None = None
        self.queries: Queries | None = None
        #: (previous run's numbering) where the present run of taken-over paragraphs began
        self.stretch: int | None = None
        #: paragraph numbers move by this much when paragraphs were inserted or removed
        self.para_delta = n - len(prior.results) if prior is not None else 0
        #: the first paragraph assembled: those before it are the previous run's, at the same offsets
        self.first = _same_prefix(prior, paragraphs, results, edited) if prior is not None else 0
        #: paragraphs from here on are the previous run's, taken over
        self.kept_from = self.first if prior is not None else n
        if prior is not None:
            self._restore(prior)

    def _restore(self, prior: Run) -> None:
        """Start from the previous run: its lookup index, the paragraphs before the first changed one, and
        its queries (``Zone`` compares what the paragraphs planned again change against them)."""
        st, q = self.st, self.first
        st.restored, st.base = True, prior.index
        if q > 0:
            n_f = prior.records_at(q)
            st.fulls = prior.fulls[:n_f]
            st.segs = segs_upto(prior.segs, n_f)
            st.patches = prior.patches[: bisect_left(prior.patches, n_f)]
            st.last_authority = absolute(prior.authority_at(q), q)
            self.citations = prior.first_of(q)
            self.records_before.extend(prior.records_before[:q])
            self.authorities.extend(prior.authorities[:q])
            self.citations_before.extend(prior.citations_before[:q])
            self.plans.extend(prior.plans[:q])
            self.reach.extend(prior.reach[:q])
            self.built.extend(prior.built[:q])
        have = prior.queries
        most = st.limits.queries_per_paragraph * len(self.results) + st.limits.queries_slack
        self.queries = have if have is not None and len(have.of) <= most else Queries()
        self.zone = Zone(prior, st, self.queries, q, self.para_delta)

    def begin(self, para: int) -> RelRef | None:
        """Paragraph ``para``'s counts before it; returns what an ``Id.`` at its start means."""
        authority = relative(self.st.last_authority, para)
        self.records_before.append(len(self.st.fulls))
        self.authorities.append(authority)
        self.citations_before.append(self.citations)
        return authority

    def _add(self, plan: Plan, reach: int) -> None:
        self.plans.append(plan)
        self.reach.append(reach)
        self.built.append(None)
        self.citations += len(plan)

    def can_take_over(self, para: int, old: int, authority: RelRef | None) -> bool:
        """Whether the previous run's paragraph ``old`` is paragraph ``para`` as it would be planned: the same
        result after the same ``Id.`` state, reading the same from the paragraph before, its looked-up
        antecedents not displaced by a paragraph inserted or removed, and none of its lookups able to see
        what the paragraphs planned again changed."""
        prior, zone, res = self.prior, self.zone, self.results[para]
        if zone is None or prior is None or para <= self.first or not 0 <= old < len(prior.results):
            return False
        return (
            prior.results[old] is res
            and prior.authorities[old] == authority
            and _prev_sig(prior.results, old) == _prev_sig(self.results, para)
            # a paragraph inserted or removed moves what lies before it: a looked-up antecedent must lie
            # in this run of taken-over paragraphs (an ``Id.``'s is checked by the state above)
            and (
                self.para_delta == 0
                or prior.reach[old] <= old - (old if self.stretch is None else self.stretch)
            )
            and zone.unaffected(res, self.text, self.paragraphs[para][0], old)
        )

    def take_over(self, para: int, old: int) -> None:
        """Paragraph ``para`` is the previous run's ``old``: its plan and records as they were."""
        prior, zone = self.prior, self.zone
        assert prior is not None and zone is not None
        if self.stretch is None:
            self.stretch = old
        zone.taken(old)
        self.st.take(prior, prior.records_before[old], prior.records_at(old + 1))
        self.st.last_authority = absolute(prior.authority_at(old + 1), para + 1)
        self._add(prior.plans[old], prior.reach[old])

    def plan_again(self, para: int, old: int) -> None:
        """Plan paragraph ``para`` (numbered and resolved); keep the previous run's plan object when it came
        out alike, so the paragraph's local findings are taken over (``memo.paragraph_findings``)."""
        self.stretch = None
        st, prior, zone, res = self.st, self.prior, self.zone, self.results[para]
        start_f = len(st.fulls)
        prev = self.results[para - 1] if para else None
        plan, reach = make_plan(self.text, self.paragraphs[para][0], res, prev, st, para)
        self.kept_from = para + 1
        if res.barrier_at_end:
            st.last_authority = None
        if zone is not None and prior is not None:
            zone.planned(para, start_f)
            if 0 <= old < len(prior.results):
                st.rebase(prior, prior.records_before[old], prior.records_at(old + 1), start_f)
                was = prior.plans[old]
                if prior.results[old] is res and plan.alike(was) and not names_earlier_cites(plan, res):
                    # planned alike (a paragraph inserted before it moved what it reached back to)
                    plan = was
        self._add(plan, reach)

    def take_over_slice(self, para: int, old: int) -> int:
        """After a paragraph taken over: when every later one is the previous run's, take them over at once,
        up to the first whose lookups could see what changed (or whose antecedents a moved paragraph
        displaced); returns the next paragraph to assemble."""
        prior, zone, stretch = self.prior, self.zone, self.stretch
        assert prior is not None and zone is not None and stretch is not None
        if not _same_tail(prior, old, self.results, para):
            return para
        end = zone.affected_from(self.results, self.paragraphs, self.text, para, old)
        if self.para_delta:
            for i in range(old, end - self.para_delta):
                if prior.reach[i] > i - stretch:
                    end = i + self.para_delta
                    break
        if end <= para:
            return para
        o1 = end - self.para_delta
        d_records, d_citations = (
            len(self.st.fulls) - prior.records_before[old],
            self.citations - prior.citations_before[old],
        )
        self.records_before.extend(_moved(prior.records_before[old:o1], d_records))
        self.citations_before.extend(_moved(prior.citations_before[old:o1], d_citations))
        self.authorities.extend(prior.authorities[old:o1])
        self.plans.extend(prior.plans[old:o1])
        self.reach.extend(prior.reach[old:o1])
        self.built.extend([None] * (end - para))  # moved: built again when asked for
        zone.taken_range(old, o1)
        self.st.take(prior, prior.records_before[old], prior.records_at(o1))
        self.st.last_authority = absolute(prior.authority_at(o1), end)
        self.citations += prior.first_of(o1) - prior.citations_before[old]
        return end

    def finish(self, edited: tuple[int, int] | None) -> tuple[DocumentExtraction, Run]:
        st, prior, n = self.st, self.prior, len(self.results)
        run = Run(
            text=self.text,
            paragraphs=self.paragraphs,
            results=list(self.results),
            records_before=self.records_before,
            authorities=self.authorities,
            citations_before=self.citations_before,
            after=Tally(len(st.fulls), relative(st.last_authority, n), self.citations),
            plans=self.plans,
            reach=self.reach,
            built=self.built,
            fulls=st.fulls,
            serial=next(_serials),
            prior_serial=prior.serial if prior is not None else None,
            edited=edited if prior is not None else None,
            index=st.base
            if st.restored
            else SharedIndex(st.fulls, st.by_word, st.by_cite, st.by_short, st.indexed),
            segs=st.segs if st.restored else [Seg(0, 0, len(st.fulls))],
            patches=st.patches if st.restored else [],
            queries=self.queries,
            kept_from=self.kept_from,
        )
        return DocumentExtraction(run), run


def _moved(counts: list[int], d: int) -> list[int]:
    """Per-paragraph counts of the previous run, moved by ``d`` (the same list when nothing moved)."""
    return counts if not d else [x + d for x in counts]


def _same_tail(prior: Run, old: int, results: list[ParagraphResult], para: int) -> bool:
    """Whether ``results[para:]`` are (in practice: the very objects of) ``prior.results[old:]``."""
    n = len(results) - para
    if n != len(prior.results) - old:
        return False
    # identical objects compare equal without looking inside (and equal results plan alike anyway)
    return results[para:] == prior.results[old:]


def _same_prefix(
    prior: Run,
    paragraphs: list[tuple[int, int]],
    results: list[ParagraphResult],
    edited: tuple[int, int] | None,
) -> int:
    """How many first paragraphs are the previous run's, at the same offsets. Those wholly before the
    edited region are (the text there did not change, and an unchanged paragraph keeps its result
    object), so only the few after them are compared."""
    limit = min(len(results), len(prior.results))
    q = 0
    if edited is not None:  # the paragraphs ending before the edit, found by bisection
        q = min(limit, bisect_left(paragraphs, edited[0], hi=limit, key=_end) - 1)
        q = max(0, q)
        if q and not (
            results[q - 1] is prior.results[q - 1] and paragraphs[q - 1] == prior.paragraphs[q - 1]
        ):
            q = 0  # not what the edit promised: compare from the start
    while q < limit and results[q] is prior.results[q] and paragraphs[q] == prior.paragraphs[q]:
        q += 1
    return q


def _end(p: tuple[int, int]) -> int:
    return p[1]


def _prev_sig(results: list[ParagraphResult], i: int) -> bool | None:
    """What a paragraph's plan reads from the paragraph before it."""
    return None if i == 0 else results[i - 1].block is not None


#: What the batch ``Assembler`` leaves in place of a plan and a result it no longer needs.
_USED_PLAN = Plan(())
_USED_RESULT = ParagraphResult(
    citations=(),
    nested=(),
    leading=(),
    needs_prev=(),
    barrier_before=(),
    barrier_at_end=False,
    block=None,
    last_sentence=None,
)


class Assembler:
    """``assemble`` fed one paragraph at a time, in document order: the batch path's parallel
    extraction (``extract/parallel.py``) numbers, resolves and builds the paragraphs that have
    arrived while the rest are still being extracted, instead of all of them afterwards. The same
    steps as ``assemble_incremental`` without a previous run (plan each paragraph, then build its
    citations), so ``finish()`` equals ``assemble`` (tests/extract/test_parallel.py compares them)."""

    __slots__ = ("built", "n_out", "run", "st")

    def __init__(self, text: str) -> None:
        self.st = LookupState(records_before=[])
        self.n_out = 0
        self.run = Run(
            text=text,
            paragraphs=[],
            results=[],
            records_before=self.st.records_before,
            authorities=[],
            citations_before=[],
            after=Tally(0, None, 0),
            plans=[],
            reach=[],
            built=[],
            fulls=self.st.fulls,
        )
        self.built: list[Citation] = []

    def add(self, span: tuple[int, int], res: ParagraphResult) -> None:
        """The next paragraph (``span`` in the text) and its result."""
        run, st = self.run, self.st
        para = len(run.plans)
        run.records_before.append(len(st.fulls))
        run.authorities.append(relative(st.last_authority, para))
        run.citations_before.append(self.n_out)
        plan, reach = make_plan(run.text, span[0], res, run.results[-1] if para else None, st, para)
        if res.barrier_at_end:
            st.last_authority = None
        run.paragraphs.append(span)
        run.results.append(res)
        run.plans.append(plan)
        run.reach.append(reach)
        run.built.append(None)
        self.n_out += len(plan)
        run.after = Tally(
            len(st.fulls), relative(st.last_authority, para + 1), self.n_out
        )  # building reads it
        self.built.extend(run.paragraph(para))
        # Nothing looks back further: a result is read by its own paragraph's plan and build and by
        # the next paragraph's, a plan by its own build. Let go of them once used, so that extracting a
        # 20 MB document holds its citations once, not also every paragraph's unshifted copy and plan
        # (~2 KB a citation: issue 40).
        run.plans[para] = _USED_PLAN
        run.built[para] = None
        if para:
            run.results[para - 1] = _USED_RESULT

    def finish(self) -> Extraction:
        n = len(self.run.plans)
        self.run.after = Tally(len(self.st.fulls), relative(self.st.last_authority, n), self.n_out)
        return Extraction(text=self.run.text, citations=tuple(self.built))
