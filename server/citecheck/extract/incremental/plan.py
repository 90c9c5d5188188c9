"""A paragraph's plan: its citations in document order, numbered from its own first one and resolved
(``make_plan``); plans are what a keystroke's run takes over from the previous run."""

from __future__ import annotations

import itertools
from typing import NamedTuple

from citecheck.extract.incremental.lookups import (
    LookupState,
    Ref,
    RelRef,
    absolute,
    add_record,
    add_statute,
    relative,
    resolve_reference,
    resolve_short,
    resolve_statute,
    resolve_supra,
)
from citecheck.extract.models import Citation, CiteForm, StatuteForm
from citecheck.extract.paragraph import ParagraphResult


class CiteStep(NamedTuple):
    """A plan's step for one citation of the paragraph's result (numbers are the paragraph's own)."""

    k: int  # which citation of the result
    group: int | None  # the place in the plan of its parallel group's first citation (full cites)
    antecedent: RelRef | None  # what it resolves to (short forms)
    block: bool  # it follows a block quote in the paragraph before: that quote is one of its quotes
    prop_prev: bool  # its proposition is the paragraph before's (its block quote or last sentence)

    @property
    def reads_prev(self) -> bool:
        return self.block or self.prop_prev


class RefStep(NamedTuple):
    """A plan's step for a ``Name at N`` reference that resolved (unresolved ones are no citation)."""

    k: int  # which reference candidate of the result
    antecedent: RelRef
    start: int  # where the name starts, in the paragraph
    name: str  # the name as written


Step = CiteStep | RefStep


_plan_keys = itertools.count(1)
_tuple_new = tuple.__new__


class Plan:
    """One paragraph's citations in document order, numbered from the paragraph's first and resolved
    (``steps``); ``key`` names this plan for the memos of later runs (a paragraph taken over keeps its
    plan, and so its key): a plan made again gets a new key even when its steps are equal."""

    __slots__ = ("key", "steps")

    def __init__(self, steps: tuple[Step, ...]) -> None:
        self.steps = steps
        self.key = next(_plan_keys)

    def __len__(self) -> int:
        return len(self.steps)

    def alike(self, other: Plan) -> bool:
        return self.steps == other.steps

    def __repr__(self) -> str:
        return f"Plan({self.key}, {self.steps!r})"


def names_earlier_cites(plan: Plan, res: ParagraphResult) -> bool:
    """Whether a local finding of the paragraph names the earlier full cites of a volume (an
    unresolved reporter short form's does): a citation added before it changes that finding, not
    its plan."""
    cits = res.citations
    return any(
        type(e) is CiteStep
        and e.antecedent is None
        and cits[e.k].form is CiteForm.SHORT
        and bool(cits[e.k].reporter)
        for e in plan.steps
    )


def uses_prev(plan: Plan) -> bool:
    """Whether a paragraph's citations read the paragraph before it (a block quote, its last sentence)."""
    return any(type(e) is CiteStep and e.reads_prev for e in plan.steps)


def plan_statute(
    c: Citation, st: LookupState, i: int, para: int, nested: bool
) -> tuple[int | None, Ref | None]:
    """(group, antecedent) of a statute citation at place ``i`` of paragraph ``para``'s plan; a full one
    adds its records, and what a following ``Id.`` means is updated as for cases."""
    assert c.statute is not None
    form = c.statute.form
    if form is StatuteForm.FULL:
        first = add_statute(st, c, i)
        if not nested:
            st.last_authority = st.ref(first)
        return i, None
    if form is StatuteForm.ID:  # "Id. § 5": the authority cited just before, as "Id." means
        return None, st.last_authority
    at_ = resolve_statute(c, st)
    antecedent = None if at_ is None else st.ref(at_)
    if not nested:
        st.last_authority = antecedent
    return None, antecedent


def _order(res: ParagraphResult) -> list[tuple[int, int, int]]:
    """The paragraph's citations (kind 0) and ``Name at N`` references (kind 1) in text order, as
    ``(start, kind, number in the result)``."""
    order: list[tuple[int, int, int]] = [(c.span.start, 0, k) for k, c in enumerate(res.citations)]
    if res.refs:
        order.extend((r.words[0][0], 1, k) for k, r in enumerate(res.refs))
        order.sort(key=lambda t: (t[0], t[1]))
    return order


def _short_antecedent(
    c: Citation, st: LookupState, plan: list[Step], res: ParagraphResult, k: int, para: int
) -> tuple[Ref | None, bool]:
    """What a short form, ``supra`` or ``Id.`` refers to, and whether it was looked up among the records
    (what counts towards how far back the plan reaches): a short cite by its volume and name (else the
    partner of a parallel pin), ``supra`` by name, ``Id.`` the authority just cited."""
    if c.form is CiteForm.SHORT:
        at_ = resolve_short(c, st)
        if at_ is not None:
            return st.ref(at_), True
        if res.parallel_short and res.parallel_short[k] and plan and type(plan[-1]) is CiteStep:
            return absolute(plan[-1].antecedent, para), False  # the pin's parallel partner
        return None, False
    if c.form is CiteForm.SUPRA:
        at_ = resolve_supra(c, st)
        return (st.ref(at_), True) if at_ is not None else (None, False)
    if c.form is CiteForm.ID:
        return st.last_authority, False
    return None, False


def make_plan(
    text: str, off: int, res: ParagraphResult, prev: ParagraphResult | None, st: LookupState, para: int
) -> tuple[Plan, int]:
    """Document order, numbering (from the paragraph's first citation) and resolution for paragraph
    ``para`` (no objects built), and how far back its looked-up antecedents lie."""
    plan: list[Step] = []
    local: dict[int, int] = {}
    reach = 0
    for _pos, kind, k in _order(res):
        i = len(plan)
        if kind == 1:
            found = resolve_reference(res.refs[k], text, off, st)
            if found is None:
                continue
            at, s, name = found
            ante = st.ref(at)
            reach = max(reach, para - ante.paragraph)
            plan.append(RefStep(k, RelRef(para - ante.paragraph, ante.which), s, name))
            st.last_authority = ante
            continue
        c = res.citations[k]
        local[k] = i
        if res.barrier_before[k]:
            st.last_authority = None
        group: int | None = None
        antecedent: Ref | None = None
        if c.form in (CiteForm.FULL, CiteForm.UNRECOGNISED):
            group = local.get(c.group if c.group is not None else k, i)
            add_record(st, c, i, group)
            if not res.nested[k]:
                st.last_authority = st.leader(para, group)
        elif c.form is CiteForm.STATUTE and c.statute is not None:
            group, antecedent = plan_statute(c, st, i, para, res.nested[k])
            if antecedent is not None:
                reach = max(reach, para - antecedent.paragraph)
        else:
            antecedent, looked_up = _short_antecedent(c, st, plan, res, k, para)
            if looked_up and antecedent is not None:
                reach = max(reach, para - antecedent.paragraph)
            if not res.nested[k] and c.form is not CiteForm.ID:
                st.last_authority = antecedent
        block = bool(res.leading[k] and prev is not None and prev.block is not None)
        prop_prev = bool(res.needs_prev[k] and prev is not None)
        # (``CiteStep(...)`` as its own ``__new__`` makes it, without that Python frame: one per citation)
        plan.append(_tuple_new(CiteStep, (k, group, relative(antecedent, para), block, prop_prev)))
    return Plan(tuple(plan)), reach
