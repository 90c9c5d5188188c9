"""The local-findings memo of one open document: a version takes over the last version's local
findings wherever they cannot differ, paragraph by paragraph.

A local check reads only its citation, the text up to ``_BEFORE`` characters before and ``_AFTER``
after it, the paragraph before, and the full citations before it. The assembly takes a paragraph's
plan over (the very same ``Plan``, so the same ``key``) only when its citations resolve to the same
records as before, so the same plan, result and surroundings give the same findings, moved and
renumbered when they are placed. The checks themselves are the caller's (``check``: judge's
``check_locally``), so this package stays below the checks.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import NamedTuple

from citecheck.extract.incremental.assembly import Run
from citecheck.extract.incremental.plan import Plan, uses_prev
from citecheck.extract.incremental.thresholds import active
from citecheck.extract.incremental.view import DocumentExtraction
from citecheck.extract.models import Citation, Extraction
from citecheck.extract.paragraph import ParagraphResult
from citecheck.findings import Finding, moved_finding

#: one citation's local findings (``judge.check_locally``)
Check = Callable[[Extraction, Citation], Iterable[Finding]]

_AFTER = 200  # characters after a citation a local check may read (a "supra note 3" following it)
_BEFORE = 40  # characters before a citation a local check may read (a parallel pin before it)


class Change(NamedTuple):
    """A paragraph whose local findings are not the last version's moved with it (re-checked, renumbered,
    or left without citations): its span now and its findings."""

    start: int
    end: int
    findings: tuple[Finding, ...]


Changes = list[Change]


class BulkRange(NamedTuple):
    """Only paragraphs ``lo..hi-1`` can have other local findings than the memo's last version: those before
    are its ``lo`` first, those after are its paragraphs from ``old_hi`` on, moved."""

    lo: int
    hi: int
    old_hi: int


@dataclass(slots=True, eq=False)
class MemoEntry:
    """One paragraph's local findings as computed, and what they were computed from."""

    plan: Plan
    result: ParagraphResult
    prev: ParagraphResult | None  # the paragraph before, where the plan reads it
    start: int  # the paragraph's offset then
    window: tuple[str, str]  # the text a check reads just before and after the paragraph
    findings: tuple[Finding, ...]
    first: int  # the index of its first citation then
    reads_prev: bool


class LocalMemo:
    """Per open document: what the last version's local checks found, per paragraph plan (by the
    plan's ``key``), and that version's plans, paragraphs, results and entries in order (what lets
    the next version take the paragraphs far from its edit over in one slice)."""

    __slots__ = ("by_plan", "empty", "entries", "paragraphs", "plans", "results", "serial")

    def __init__(self) -> None:
        self.serial: int | None = None  # the run the entries are of
        self.plans: list[Plan] = []
        self.paragraphs: list[tuple[int, int]] = []
        self.results: list[ParagraphResult] = []
        self.entries: list[MemoEntry | None] = []  # per paragraph (None: no citations)
        self.by_plan: dict[int, MemoEntry] = {}
        self.empty: set[int] = set()  # keys of plans without citations

    def __len__(self) -> int:
        return len(self.by_plan) + len(self.empty)


@dataclass(frozen=True, slots=True)
class ParagraphFindings:
    """One version's local findings, per paragraph, placed when asked for.

    ``entries[para]`` holds the findings as they were computed (at the paragraph's offset then and its
    first citation's index then) — a keystroke moves every paragraph after it, and a citation added
    or removed renumbers every citation after it; moving and renumbering all their findings is work
    the editor does not need: it shows them already moved. ``changes``: the paragraphs whose findings
    are not the last version's moved with them (re-checked, or left without citations)."""

    paragraphs: list[tuple[int, int]]
    entries: list[MemoEntry | None]
    changes: Changes
    firsts: list[int]  # per paragraph: the index of its first citation in this version

    def findings(self) -> list[Finding]:
        out: list[Finding] = []
        for (start, _end), entry, first in zip(self.paragraphs, self.entries, self.firsts, strict=True):
            if entry is not None and entry.findings:
                out.extend(_moved(entry.findings, start - entry.start, first - entry.first))
        return out

    def within(self, regions: list[tuple[int, int]]) -> list[Finding]:
        """The findings starting in one of ``regions`` (sorted, disjoint ``[a, b]``), placed; only the
        paragraphs that meet a region are looked at."""
        out: list[Finding] = []
        paras = self.paragraphs
        for a, b in regions:
            para = max(0, bisect_left(paras, a, key=_para_end))
            while para < len(paras) and paras[para][0] <= b:
                entry = self.entries[para]
                if entry is not None and entry.findings:
                    d = paras[para][0] - entry.start
                    moved = _moved(entry.findings, d, self.firsts[para] - entry.first)
                    out.extend(f for f in moved if a <= f.span.start <= b)
                para += 1
        return out


def _bulk_range(run: Run, memo: LocalMemo) -> BulkRange | None:
    """The paragraphs that can have other findings than the memo's last version, or None when the memo
    cannot tell (not the run this one continued, edits unknown)."""
    if run.edited is None or run.prior_serial is None or memo.serial != run.prior_serial:
        return None
    plans, paras = run.plans, run.paragraphs
    n, m = len(plans), len(memo.plans)
    ea, eb = run.edited
    lo = _same_head(run, memo)
    # the tail: the paragraphs the assembly took over from that run, the very same plans and results
    # (an equal plan made afresh may stand for other earlier cites), moved by one constant offset
    hi = max(lo + max(0, n - m), run.kept_from)
    if hi < n:
        d = paras[hi][0] - memo.paragraphs[hi - n + m][0]
        if paras[n - 1][0] - memo.paragraphs[m - 1][0] != d or paras[hi][0] <= eb:
            hi = n  # not one uniform move after the edit: look at all of them
    j = hi - n + m
    # what a local check reads around its paragraph: its window, and the paragraph before it
    while lo > 0 and paras[lo - 1][1] + _AFTER >= ea:
        lo -= 1
    while hi < n and paras[hi][0] - _BEFORE <= eb:
        hi, j = hi + 1, j + 1
    if hi < n and hi > lo and uses_prev(plans[hi]):
        hi, j = hi + 1, j + 1
    return BulkRange(lo, hi, j)


def _same_head(run: Run, memo: LocalMemo) -> int:
    """How many first paragraphs are the memo's (the same plan, result and place): those wholly before the
    edit are (bisection), then the few after them are compared."""
    assert run.edited is not None
    plans, paras, results = run.plans, run.paragraphs, run.results
    limit = min(len(plans), len(memo.plans))

    def same(i: int) -> bool:
        return plans[i] is memo.plans[i] and results[i] is memo.results[i] and paras[i] == memo.paragraphs[i]

    lo = max(0, min(limit, bisect_left(paras, run.edited[0], hi=limit, key=_para_end)) - 1)
    if lo and not same(lo - 1):
        lo = 0
    while lo < limit and same(lo):
        lo += 1
    return lo


def _para_end(p: tuple[int, int]) -> int:
    return p[1]


def paragraph_findings(
    extraction: DocumentExtraction, memo: LocalMemo | None, check: Check
) -> ParagraphFindings:
    """Per paragraph: the last version's findings where they cannot differ; else the checks.

    A local check reads only its citation, the text up to ``_BEFORE`` characters before and
    ``_AFTER`` after it, the paragraph before, and the full citations before it. The assembly takes
    a paragraph's plan over (the very same ``Plan``, so the same ``key``) only when its citations
    resolve to the same records as before — plans number from their own paragraph, so a citation
    added or removed before it does not make a new plan: the same plan, result and surroundings give
    the same findings, renumbered when they are placed. When the memo saw the run this one
    continued, the paragraphs far from the edit (before the first paragraph planned again and after
    the last, beyond what a check reads around them) are taken over in one slice, not looked at.
    """
    run = extraction.run
    text = extraction.text
    changes: Changes = []
    old = memo if memo is not None else LocalMemo()
    n = len(run.plans)
    bulk = _bulk_range(run, old) if memo is not None else None
    lo, hi, old_hi = bulk if bulk is not None else (0, n, 0)
    middle: list[MemoEntry | None] = []
    fresh: dict[int, MemoEntry] = {}
    fresh_empty: list[int] = []
    for para in range(lo, hi):
        plan = run.plans[para]
        if not plan:
            if plan.key not in old.empty:  # a paragraph planned again without citations: its old findings go
                changes.append(Change(*run.paragraphs[para], ()))
            fresh_empty.append(plan.key)
            middle.append(None)
            continue
        start, end = run.paragraphs[para]
        res = run.results[para]
        hit = old.by_plan.get(plan.key)
        reads_prev = hit.reads_prev if hit is not None else uses_prev(plan)
        prev = run.results[para - 1] if para and reads_prev else None
        window = (text[max(0, start - _BEFORE) : start], text[end : end + _AFTER])
        if hit is not None and hit.result is res and hit.prev is prev and hit.window == window:
            entry = hit  # the very same entry: taken over as computed, placed when asked for
        else:
            mine = tuple(f for c in extraction.paragraph_citations(para) for f in check(extraction, c))
            changes.append(Change(start, end, mine))
            entry = MemoEntry(plan, res, prev, start, window, mine, run.first_of(para), reads_prev)
        fresh[plan.key] = entry
        middle.append(entry)
    entries = [*old.entries[:lo], *middle, *old.entries[old_hi:]] if bulk is not None else middle
    if memo is not None:
        _remember(memo, run, entries, fresh, fresh_empty, bulk is not None)
    return ParagraphFindings(run.paragraphs, entries, changes, run.citations_before)


def _remember(
    memo: LocalMemo,
    run: Run,
    entries: list[MemoEntry | None],
    fresh: dict[int, MemoEntry],
    fresh_empty: list[int],
    bulk: bool,
) -> None:
    """Keep this run's entries for the next: added to what the memo holds, or (no bulk take-over, or the memo
    grown past its limit) rebuilt from what is current, which drops the entries of plans gone."""
    limits = active()
    if not bulk or len(memo) > limits.memo_per_paragraph * len(run.plans) + limits.memo_slack:
        memo.by_plan, memo.empty = {}, set()
        for para, got in enumerate(entries):
            if got is None:
                memo.empty.add(run.plans[para].key)
            else:
                memo.by_plan[got.plan.key] = got
    else:
        memo.by_plan.update(fresh)
        memo.empty.update(fresh_empty)
    memo.serial, memo.plans, memo.paragraphs, memo.results = (
        run.serial,
        run.plans,
        run.paragraphs,
        run.results,
    )
    memo.entries = entries


def _moved(findings: tuple[Finding, ...], d: int, di: int = 0) -> tuple[Finding, ...]:
    """Findings (and their fixes) ``d`` code points further on and their citations ``di`` places
    further on; the same objects when both are 0."""
    if (not d and not di) or not findings:
        return findings
    return tuple(
        moved_finding(
            f,
            f.span.shift(d),
            tuple(x.moved(d) for x in f.fixes),  # keeps why, confidence and the case a fix names
            None if f.citation_index is None else f.citation_index + di,
        )
        for f in findings
    )
