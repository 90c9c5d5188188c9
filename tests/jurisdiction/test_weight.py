"""Weight of a cited court in a forum, on real court pairs."""

from __future__ import annotations

import pytest

from citecheck.jurisdiction import Forum, Question, Tier, Weight, court_node, weigh
from citecheck.jurisdiction.hierarchy import all_nodes

B, P, U = Weight.BINDING, Weight.PERSUASIVE, Weight.UNKNOWN


def forum(court_id: str, question: Question | None = None, law_state: str | None = None) -> Forum:
    node = court_node(court_id)
    assert node is not None
    default = Question.FEDERAL if node.federal else Question.STATE
    return Forum(court=node, question=question or default, origin="config", law_state=law_state)


@pytest.mark.parametrize(
    ("cited", "filed_in", "expected"),
    [
        ("ca2", "nysd", B),  # a 2d Cir. case in S.D.N.Y.
        ("ca9", "nysd", P),  # a 9th Cir. case in S.D.N.Y.
        ("nysd", "nysd", P),  # district decisions bind no one, not even the same district
        ("nyed", "nysd", P),
        ("ca2", "nysb", B),  # the circuit binds its bankruptcy courts
        ("ca2", "ca2", B),  # prior-panel rule
        ("ca9", "ca2", P),
        ("cafc", "nysd", U),  # patent law only
        ("cafc", "uscfc", B),  # courts-db: the Court of Federal Claims appeals to the Federal Circuit
        ("ny", "nysd", P),  # a state court on a federal question
        ("calctapp", "calsuperct", B),  # Cal. Ct. App. in a Cal. superior court (Auto Equity Sales)
        ("calctapp2d", "calsuperct", B),  # any district of it, statewide
        ("calctapp", "calctapp", P),  # Courts of Appeal do not bind each other
        ("calctapp", "cal", P),  # below the Supreme Court of California
        ("cal", "calsuperct", B),
        ("cal", "calctapp", B),
        ("calsuperct", "calsuperct", P),  # trial decisions bind no one
        ("md", "dc", P),  # a D.C. Court of Appeals brief citing a Maryland case
        ("mdctspecapp", "dc", P),
        ("minnctapp", "dc", P),
        ("dc", "dc", B),  # the court's own precedent
        ("dc", "supctdc", B),
        ("cadc", "dc", P),  # D.C. Circuit after 1971 (year given below for the pre-1971 case)
        ("ca9", "calsuperct", P),  # lower federal courts do not bind state courts
        ("nyappdiv", "nysupct", B),
        ("texapp", "tex", P),
        ("michctapp", "michctapp", B),  # Michigan: published panels bind later panels
    ],
)
def test_court_pairs(cited, filed_in, expected) -> None:
    got = weigh(cited, forum(filed_in), year=2010)
    assert got.weight is expected, got.reason
    assert got.reason


@pytest.mark.parametrize(
    "filed_in", ["nysd", "ca9", "calsuperct", "dc", "md", "uscfc", "minnctapp", "scotus"]
)
def test_supreme_court_binds_everywhere(filed_in) -> None:
    assert weigh("scotus", forum(filed_in)).weight is B


def test_texas_trial_courts_depend_on_their_district() -> None:
    trial = next(n.id for n in all_nodes() if n.state == "Texas" and n.tier is Tier.TRIAL)
    assert weigh("texapp", forum(trial)).weight is U


def test_dc_circuit_before_1971_binds_the_dc_courts() -> None:
    assert weigh("cadc", forum("dc"), year=1965).weight is B  # M.A.P. v. Ryan
    assert weigh("cadc", forum("dc"), year=1985).weight is P
    assert weigh("cadc", forum("dc"), year=None).weight is U


def test_state_law_question_in_federal_court() -> None:
    f = forum("nysd", Question.STATE)
    assert weigh("ny", f).weight is B  # New York's highest court on New York law
    assert weigh("nyappdiv", f).weight is P  # evidence of state law only
    assert weigh("ca2", f).weight is B  # the circuit's reading binds until the state court speaks
    assert weigh("cal", f).weight is P
    assert weigh("cal", forum("nysd", Question.STATE, law_state="California")).weight is B
    assert weigh("ny", forum("nysd")).weight is P  # the same case on a federal question


def test_unknown_court_or_forum() -> None:
    assert weigh(None, forum("nysd")).weight is U
    assert weigh("21806", forum("nysd")).weight is U
    assert weigh("ca2", None).weight is U


def test_another_circuit_is_said_the_right_way_round() -> None:
    """Issue 36's round (a 28(j) letter in the Eighth Circuit citing the First): the reason read "Court of
    Appeals for the Eighth Circuit is not within the Court of Appeals for the First Circuit"."""
    first, eighth = court_node("ca1"), court_node("ca8")
    assert first is not None and eighth is not None
    a = weigh("ca1", forum("ca8"))
    assert a.weight is P
    assert a.reason == f"the {first.name} does not bind the {eighth.name}: one circuit binds no other"
    district = weigh("ca1", forum("mnd"))  # a district court outside the circuit: as before
    assert district.weight is P and "is not within the" in district.reason
