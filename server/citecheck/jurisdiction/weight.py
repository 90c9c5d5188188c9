"""Is a cited court's decision binding where the brief is filed? Pure: courts in, an assessment out.

The rules (docs/jurisdiction.md says them in prose, with their limits):

- The Supreme Court of the United States binds every court.
- Federal forum, federal question: the forum's own circuit binds it (a circuit binds itself through
  the prior-panel rule); other circuits, every district and bankruptcy court (even the same
  district), specialised federal courts and every state court are persuasive. The Federal Circuit
  binds district courts on patent law only, so there it is ``unknown``.
- Federal forum, state-law question: the high court of the state whose law applies (the forum's
  state unless told otherwise) binds; the forum's circuit's reading of that law binds until the
  state's high court speaks; the state's intermediate courts are persuasive (evidence of state law).
- State forum: the state's high court binds every court of the state (and itself, which may
  overrule); its intermediate courts bind its trial courts as the state's own rule says
  (``_STATE_RULES``; statewide by default); panels of an intermediate court do not bind each other
  unless the state says so; trial courts bind no one; other states and lower federal courts are
  persuasive, even on federal law. D.C. exception: D.C. Circuit decisions before February 1, 1971
  bind the D.C. courts (M.A.P. v. Ryan, 285 A.2d 310, 312 (D.C. 1971)).

None of this looks at subsequent history: a case from a binding court may since have been
overruled, reversed or superseded, and is still called ``binding`` here.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from citecheck.jurisdiction.hierarchy import CourtNode, Tier, court_node


class Weight(StrEnum):
    """How much a cited decision counts in the forum."""

    BINDING = "binding"  # the forum must follow it
    PERSUASIVE = "persuasive"  # same system but not above the forum, another circuit, another state
    UNKNOWN = "unknown"  # the cited court or the forum is not known, or the answer depends on facts we lack


class Question(StrEnum):
    """Whose law the point of the brief turns on; decides which courts bind a federal forum."""

    FEDERAL = "federal"
    STATE = "state"


@dataclass(frozen=True, slots=True, kw_only=True)
class Forum:
    """The court the brief is filed in, the kind of question, and where we learnt it.

    ``law_state`` is the state whose law governs a state-law question (the forum's state if None).
    """

    court: CourtNode
    question: Question
    origin: str  # "config", "front matter", "document property", "caption"
    law_state: str | None = None
    #: how the question was learnt when no one declared it: "the text: diversity jurisdiction (28 U.S.C.
    #: § 1332)" (``matter.diversity``); None when declared or the forum's default
    question_origin: str | None = None

    @property
    def name(self) -> str:
        return self.court.name


@dataclass(frozen=True, slots=True, kw_only=True)
class Assessment:
    """A citation's weight in the forum and the rule that gave it, in words a lawyer reads."""

    weight: Weight
    reason: str
    court_id: str | None = None  # the cited court (courts-db id) the assessment is about
    court_name: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class StateRule:
    """How a state treats its intermediate appellate decisions.

    ``trial``: whether they bind the state's trial courts (``binding`` statewide, ``unknown`` when it
    depends on the trial court's district). ``panels``: whether one panel binds a later one.
    """

    trial: Weight = Weight.BINDING
    panels: Weight = Weight.PERSUASIVE
    note: str = ""


#: States whose treatment differs from, or has been decided clearly enough to cite for, the default.
_STATE_RULES: dict[str, StateRule] = {
    "California": StateRule(
        note="Auto Equity Sales, Inc. v. Superior Court, 57 Cal. 2d 450, 455 (1962): "
        "Court of Appeal decisions bind every superior court; they do not bind each other"
    ),
    "New York": StateRule(
        note="Mountain View Coach Lines v. Storms, 102 A.D.2d 663 (2d Dep't 1984): an Appellate "
        "Division decision binds trial courts statewide unless their own Department has held otherwise"
    ),
    "Florida": StateRule(
        note="Pardo v. State, 596 So. 2d 665, 666 (Fla. 1992): a district court of appeal binds "
        "all trial courts absent a conflicting decision of another district"
    ),
    "Illinois": StateRule(
        note="State Farm Fire & Cas. Co. v. Yapejian, 152 Ill. 2d 533, 539-40 (1992): appellate "
        "decisions bind all circuit courts"
    ),
    "Michigan": StateRule(
        panels=Weight.BINDING,
        note="MCR 7.215(C)(2), (J)(1): published Court of Appeals opinions "
        "bind trial courts and later panels (unpublished ones do not)",
    ),
    "Texas": StateRule(
        trial=Weight.UNKNOWN,
        note="a Texas trial court follows the court of appeals for its own "
        "district; which district decided the cited case is not known here",
    ),
}

_DC = "District of Columbia"
_MAP_V_RYAN_YEAR = 1971  # D.C. Circuit decisions before Feb. 1, 1971 bind the D.C. courts


def _place(state: str | None) -> str:
    """``"the District of Columbia"`` but ``"Minnesota"``, for sentences."""
    return f"the {state}" if state and state.startswith("District") else (state or "an unknown place")


def _a(weight: Weight, reason: str, node: CourtNode | None) -> Assessment:
    return Assessment(
        weight=weight,
        reason=reason,
        court_id=node.id if node else None,
        court_name=node.name if node else None,
    )


def weigh(cited_court: str | None, forum: Forum | None, *, year: int | None = None) -> Assessment:
    """The weight in ``forum`` of a decision of ``cited_court`` (a courts-db id), decided in ``year``.

    >>> from citecheck.jurisdiction.hierarchy import court_node
    >>> nysd = Forum(court=court_node("nysd"), question=Question.FEDERAL, origin="config")
    >>> weigh("ca2", nysd).weight, weigh("ca9", nysd).weight, weigh("scotus", nysd).weight
    (<Weight.BINDING: 'binding'>, <Weight.PERSUASIVE: 'persuasive'>, <Weight.BINDING: 'binding'>)
    >>> weigh(None, nysd).weight
    <Weight.UNKNOWN: 'unknown'>
    """
    node = court_node(cited_court)
    if forum is None:
        return _a(
            Weight.UNKNOWN,
            "the court this document is filed in is not known (set `court`, or put the court in the caption)",
            node,
        )
    if node is None:
        return _a(Weight.UNKNOWN, "the court that decided the cited case could not be determined", None)
    if node.tier is Tier.SUPREME:
        return _a(Weight.BINDING, "the Supreme Court of the United States binds every court", node)
    if forum.court.federal:
        return _in_federal(node, forum)
    return _in_state(node, forum.court, year)


def _in_federal(node: CourtNode, forum: Forum) -> Assessment:
    f = forum.court
    if f.tier is Tier.SUPREME:
        return _a(Weight.PERSUASIVE, "only the Supreme Court's own decisions bind it", node)
    circuit = f.circuit
    if forum.question is Question.STATE:
        return _on_state_law(node, forum, circuit)
    if node.tier is Tier.CIRCUIT:
        if node.id == circuit or node.id == f.id:
            return _a(
                Weight.BINDING,
                f"{f.name} sits within the {node.name}"
                if node.id != f.id
                else "a circuit is bound by its own earlier panel decisions (until en banc or Supreme Court "
                "review)",
                node,
            )
        if node.id == "cafc" and f.tier is Tier.DISTRICT:
            return _a(Weight.UNKNOWN, "the Federal Circuit binds district courts on patent law only", node)
        if f.tier is Tier.CIRCUIT:  # "the Eighth Circuit is not within the First Circuit" read backwards
            return _a(
                Weight.PERSUASIVE,
                f"the {node.name} does not bind the {f.name}: one circuit binds no other",
                node,
            )
        return _a(Weight.PERSUASIVE, f"{f.name} is not within the {node.name}", node)
    if node.tier in (Tier.DISTRICT, Tier.BANKRUPTCY):
        return _a(
            Weight.PERSUASIVE,
            "a federal district or bankruptcy court's decision binds no other court, "
            "not even another judge of the same district",
            node,
        )
    if node.federal:
        return _a(Weight.PERSUASIVE, f"the {node.name} is not above {f.name}", node)
    return _a(
        Weight.PERSUASIVE,
        "state courts do not bind federal courts on federal law (set `question = "
        '"state"` for a state-law question)',
        node,
    )


def _on_state_law(node: CourtNode, forum: Forum, circuit: str | None) -> Assessment:
    """A federal forum on a state-law question (declared, or a diversity case by its text): the high court of
    the state whose law governs binds, the forum's circuit binds on it until that court speaks, the state's
    intermediate courts are evidence of its law."""
    f = forum.court
    state = forum.law_state or f.state
    if not node.federal and node.tier is Tier.HIGH and (node.state == state or state is None):
        if state is None:  # a court of appeals, whose diversity cases apply the law of any state it covers
            return _a(
                Weight.BINDING,
                f"on a question of {node.state} law a federal court sitting in diversity follows {node.state}'s "
                "highest court",
                node,
            )
        return _a(
            Weight.BINDING,
            f"on a question of {state} law a federal court follows {state}'s highest court",
            node,
        )
    law = f"{state} law" if state else "the governing state's law"
    high = f"{state}'s highest court" if state else "that state's highest court"
    if node.tier is Tier.CIRCUIT and node.id == f.id:
        return _a(
            Weight.BINDING,
            f"a circuit is bound by its own earlier panels' reading of {law} until {high} decides otherwise",
            node,
        )
    if node.tier is Tier.CIRCUIT and node.id == circuit:
        return _a(
            Weight.BINDING,
            f"the {node.name} binds {f.name} on {law} until {high} decides otherwise",
            node,
        )
    if not node.federal and state is not None and node.state == state and node.tier is Tier.INTERMEDIATE:
        return _a(
            Weight.PERSUASIVE,
            f"a federal court treats {state}'s intermediate courts as evidence of {law}, not as binding",
            node,
        )
    if not node.federal and state is None and node.tier is Tier.INTERMEDIATE:
        return _a(
            Weight.PERSUASIVE,
            f"a federal court treats {node.state}'s intermediate courts as evidence of {node.state} law, "
            "not as binding",
            node,
        )
    return _a(
        Weight.PERSUASIVE,
        f"on a question of {law} only {high} (and the forum's own circuit) bind a federal court",
        node,
    )


def _in_state(node: CourtNode, f: CourtNode, year: int | None) -> Assessment:
    state = f.state
    if node.federal:
        if node.id == "cadc" and state == _DC:
            if year is not None and year < _MAP_V_RYAN_YEAR:
                return _a(
                    Weight.BINDING,
                    "D.C. Circuit decisions from before February 1, 1971 bind the D.C. "
                    "courts (M.A.P. v. Ryan, 285 A.2d 310, 312 (D.C. 1971))",
                    node,
                )
            if year is None or year == _MAP_V_RYAN_YEAR:
                return _a(
                    Weight.UNKNOWN,
                    "D.C. Circuit decisions bind the D.C. courts only if decided before "
                    "February 1, 1971; the date is not known",
                    node,
                )
        return _a(
            Weight.PERSUASIVE, "lower federal courts do not bind state courts, even on federal law", node
        )
    if node.state != state:
        return _a(
            Weight.PERSUASIVE,
            f"a court of {_place(node.state)} does not bind the courts of {_place(state)}",
            node,
        )
    rule = _STATE_RULES.get(state or "", StateRule())
    note = f" ({rule.note})" if rule.note else ""
    if node.tier is Tier.HIGH:
        if f.tier is Tier.HIGH and node.id != f.id:
            return _a(
                Weight.PERSUASIVE,
                f"{node.name} and {f.name} are each the highest court in their own field (civil or criminal)",
                node,
            )
        if node.id == f.id:
            return _a(
                Weight.BINDING, f"{f.name} is bound by its own precedent (though it may overrule it)", node
            )
        return _a(Weight.BINDING, f"{node.name} is {state}'s highest court", node)
    if node.tier is Tier.INTERMEDIATE:
        if f.tier is Tier.HIGH:
            return _a(Weight.PERSUASIVE, f"{node.name} is below {f.name}", node)
        if f.tier is Tier.INTERMEDIATE:
            if node.id == f.id or _same_court(node, f):
                panels = (
                    "one panel binds later panels"
                    if rule.panels is Weight.BINDING
                    else "one panel of an intermediate court does not bind another"
                )
                return _a(rule.panels, f"in {_place(state)}, {panels}{note}", node)
            return _a(Weight.PERSUASIVE, f"{node.name} is not above {f.name}", node)
        verb = {Weight.BINDING: "binds", Weight.UNKNOWN: "may bind"}.get(rule.trial, "does not bind")
        return _a(rule.trial, f"in {state}, {node.name} {verb} the trial courts{note}", node)
    return _a(
        Weight.PERSUASIVE,
        f"the {node.name} is a trial-level court or agency; its decisions bind no other court",
        node,
    )


def _same_court(a: CourtNode, b: CourtNode) -> bool:
    """Districts of one intermediate court (``calctapp2d`` and ``calctapp``) count as the same court."""
    return a.id.startswith(b.id) or b.id.startswith(a.id)
