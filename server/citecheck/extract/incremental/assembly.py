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

    records: int  # full-citation records before it (``Run.fc``)
    authority: RelRef | None  # what an ``Id.`` there means (``Run.la``)
    citations: int  # citations before it (``Run.nout``)


@dataclass(slots=True)
class Run:
    """What one run over a document leaves for the next run over the same (edited) document, and
    everything needed to build its citations later (``DocumentExtraction``).

    Plans number a paragraph's citations from its own first one and name an antecedent as a
    ``RelRef`` (paragraphs back, place there), records (``Record``) likewise: a citation added or
    removed leaves every other paragraph's plan and records as they were, and only the per-paragraph
    counts ``fc``/``nout`` move. Document-wide numbers are made when citations are built."""

    text: str
    paragraphs: list[tuple[int, int]]
    results: list[ParagraphResult]  # per paragraph (the same object while its text is the same)
    fc: list[int]  # per paragraph: full-citation records before it
    la: list[RelRef | None]  # per paragraph: the authority an ``Id.`` at its start means
    nout: list[int]  # per paragraph: citations before it (the index of its first)
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

    def paragraph(self, pno: int) -> tuple[Citation, ...]:
        """Paragraph ``pno``'s citations with absolute spans and numbers (built once, on demand)."""
        got = self.built[pno]
        if got is None:
            got = self.built[pno] = build_paragraph(self, pno)
        return got

    def first_of(self, pno: int) -> int:
        """The index of paragraph ``pno``'s first citation."""
        return self.nout[pno] if pno < len(self.nout) else self.after.citations

    def fc_at(self, pno: int) -> int:
        return self.fc[pno] if pno < len(self.fc) else self.after.records

    def la_at(self, pno: int) -> RelRef | None:
        return self.la[pno] if pno < len(self.la) else self.after.authority

    def index_of(self, ref: RelRef | None, pno: int) -> int | None:
        """The document-wide index a plan entry of paragraph ``pno`` refers to."""
        if ref is None:
            return None
        t, which = pno - ref[0], ref[1]
        if isinstance(which, int):
            return self.first_of(t) + which
        key, nth = which
        fulls = self.fulls
        for i in range(self.fc[t], self.fc_at(t + 1)):
            if fulls[i].key == key:
                if not nth:
                    return self.first_of(t) + fulls[i].pos
                nth -= 1
        raise LookupError(f"paragraph {t} has no record {which!r}")  # a broken invariant: the caller re-syncs

    def para_of(self, pos: int) -> int:
        return para_of(self.fc, pos)


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
    n = len(results)
    q = _same_prefix(prior, paragraphs, results, edited) if prior is not None else 0
    # paragraph numbers move by this much when paragraphs were inserted or removed
    pno_delta = n - len(prior.results) if prior is not None else 0
    fc: list[int] = []
    la: list[RelRef | None] = []
    nout: list[int] = []
    plans: list[Plan] = []
    reach: list[int] = []
    built_all: list[tuple[Citation, ...] | None] = []
    st = LookupState(fc=fc)
    n_out = 0
    zone: Zone | None = None
    queries: Queries | None = None
    if prior is not None:
        st.restored, st.base = True, prior.index
        if q > 0:
            n_f = prior.fc_at(q)
            st.fulls = prior.fulls[:n_f]
            st.segs = segs_upto(prior.segs, n_f)
            st.patches = prior.patches[: bisect_left(prior.patches, n_f)]
            st.last_authority = absolute(prior.la_at(q), q)
            n_out = prior.first_of(q)
            fc.extend(prior.fc[:q])
            la.extend(prior.la[:q])
            nout.extend(prior.nout[:q])
            plans.extend(prior.plans[:q])
            reach.extend(prior.reach[:q])
            built_all.extend(prior.built[:q])
        have = prior.queries
        most = st.limits.queries_per_paragraph * n + st.limits.queries_slack
        queries = have if have is not None and len(have.of) <= most else Queries()
        zone = Zone(prior, st, queries, q, pno_delta)
    stretch: int | None = (
        None  # (previous run's numbering) where the present run of taken-over paragraphs began
    )
    pno = q
    kept_from = q if prior is not None else n
    while pno < n:
        off, res = paragraphs[pno][0], results[pno]
        prev = results[pno - 1] if pno else None
        la_here = relative(st.last_authority, pno)
        fc.append(len(st.fulls))
        la.append(la_here)
        nout.append(n_out)
        old = pno - pno_delta
        in_prior = prior is not None and 0 <= old < len(prior.results)  # the previous run's paragraph ``old``
        synced = (
            zone is not None
            and prior is not None
            and pno > q
            and in_prior
            and prior.results[old] is res
            and prior.la[old] == la_here
            and _prev_sig(prior.results, old) == _prev_sig(results, pno)
            # a paragraph inserted or removed moves what lies before it: a looked-up antecedent must lie
            # in this run of taken-over paragraphs (an ``Id.``'s is checked by the state above)
            and (pno_delta == 0 or prior.reach[old] <= old - (old if stretch is None else stretch))
            and zone.unaffected(res, text, off, old)
        )
        if synced:
            assert prior is not None and zone is not None
            plan, r = prior.plans[old], prior.reach[old]
            if stretch is None:
                stretch = old
            zone.taken(old)
            st.take(prior, prior.fc[old], prior.fc_at(old + 1))
            st.last_authority = absolute(prior.la_at(old + 1), pno + 1)
        else:
            stretch = None
            start_f = len(st.fulls)
            plan, r = make_plan(text, off, res, prev, st, pno)
            kept_from = pno + 1
            if res.barrier_at_end:
                st.last_authority = None
            if zone is not None and prior is not None:
                zone.planned(pno, start_f)
                if in_prior:
                    st.rebase(prior, prior.fc[old], prior.fc_at(old + 1), start_f)
                    was = prior.plans[old]
                    if prior.results[old] is res and plan.alike(was) and not names_earlier_cites(plan, res):
                        # planned alike (a paragraph inserted before it moved what it reached back to):
                        # the same object, so its local findings are taken over (judge.paragraph_findings)
                        plan = was
        plans.append(plan)
        reach.append(r)
        built_all.append(None)
        n_out += len(plan)
        pno += 1
        if synced and pno < n:
            assert prior is not None and zone is not None and stretch is not None
            old += 1
            if not _same_tail(prior, old, results, pno):
                continue
            # every later paragraph is the previous run's: take them over at once, up to the first one
            # whose lookups could see what changed (or whose antecedents a moved paragraph displaced)
            end = zone.affected_from(results, paragraphs, text, pno, old)
            if pno_delta:
                for i in range(old, end - pno_delta):
                    if prior.reach[i] > i - stretch:
                        end = i + pno_delta
                        break
            if end <= pno:
                continue
            o1 = end - pno_delta
            dfc, dn = len(st.fulls) - prior.fc[old], n_out - prior.nout[old]
            fc.extend(prior.fc[old:o1] if not dfc else [x + dfc for x in prior.fc[old:o1]])
            nout.extend(prior.nout[old:o1] if not dn else [x + dn for x in prior.nout[old:o1]])
            la.extend(prior.la[old:o1])
            plans.extend(prior.plans[old:o1])
            reach.extend(prior.reach[old:o1])
            built_all.extend([None] * (end - pno))  # moved: built again when asked for
            zone.taken_range(old, o1)
            st.take(prior, prior.fc[old], prior.fc_at(o1))
            st.last_authority = absolute(prior.la_at(o1), end)
            n_out += prior.first_of(o1) - prior.nout[old]
            pno = end
    run = Run(
        text=text,
        paragraphs=paragraphs,
        results=list(results),
        fc=fc,
        la=la,
        nout=nout,
        after=Tally(len(st.fulls), relative(st.last_authority, n), n_out),
        plans=plans,
        reach=reach,
        built=built_all,
        fulls=st.fulls,
        serial=next(_serials),
        prior_serial=prior.serial if prior is not None else None,
        edited=edited if prior is not None else None,
        index=st.base
        if st.restored
        else SharedIndex(st.fulls, st.by_word, st.by_cite, st.by_short, st.indexed),
        segs=st.segs if st.restored else [Seg(0, 0, len(st.fulls))],
        patches=st.patches if st.restored else [],
        queries=queries,
        kept_from=kept_from,
    )
    return DocumentExtraction(run), run


def _same_tail(prior: Run, old: int, results: list[ParagraphResult], pno: int) -> bool:
    """Whether ``results[pno:]`` are (in practice: the very objects of) ``prior.results[old:]``."""
    n = len(results) - pno
    if n != len(prior.results) - old:
        return False
    # identical objects compare equal without looking inside (and equal results plan alike anyway)
    return results[pno:] == prior.results[old:]


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


class Assembler:
    """``assemble`` fed one paragraph at a time, in document order: the batch path's parallel
    extraction (``extract/parallel.py``) numbers, resolves and builds the paragraphs that have
    arrived while the rest are still being extracted, instead of all of them afterwards. The same
    steps as ``assemble_incremental`` without a previous run (plan each paragraph, then build its
    citations), so ``finish()`` equals ``assemble`` (tests/extract/test_parallel.py compares them)."""

    __slots__ = ("built", "n_out", "run", "st")

    def __init__(self, text: str) -> None:
        self.st = LookupState(fc=[])
        self.n_out = 0
        self.run = Run(
            text=text,
            paragraphs=[],
            results=[],
            fc=self.st.fc,
            la=[],
            nout=[],
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
        pno = len(run.plans)
        run.fc.append(len(st.fulls))
        run.la.append(relative(st.last_authority, pno))
        run.nout.append(self.n_out)
        plan, reach = make_plan(run.text, span[0], res, run.results[-1] if pno else None, st, pno)
        if res.barrier_at_end:
            st.last_authority = None
        run.paragraphs.append(span)
        run.results.append(res)
        run.plans.append(plan)
        run.reach.append(reach)
        run.built.append(None)
        self.n_out += len(plan)
        run.after = Tally(
            len(st.fulls), relative(st.last_authority, pno + 1), self.n_out
        )  # building reads it
        self.built.extend(run.paragraph(pno))

    def finish(self) -> Extraction:
        n = len(self.run.plans)
        self.run.after = Tally(len(self.st.fulls), relative(self.st.last_authority, n), self.n_out)
        return Extraction(text=self.run.text, citations=tuple(self.built))
