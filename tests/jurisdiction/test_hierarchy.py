"""The hierarchy built from courts-db: tiers, states and circuits of real courts."""

from __future__ import annotations

import pytest

from citecheck.jurisdiction.hierarchy import Tier, all_nodes, court_node, high_courts, reporter_court


@pytest.mark.parametrize(
    ("court_id", "tier", "state", "circuit"),
    [
        ("scotus", Tier.SUPREME, None, None),
        ("ca2", Tier.CIRCUIT, None, "ca2"),
        ("cadc", Tier.CIRCUIT, None, "cadc"),
        ("nysd", Tier.DISTRICT, "New York", "ca2"),  # circuit from the state table (28 U.S.C. § 41)
        ("cacd", Tier.DISTRICT, "California", "ca9"),
        ("ctd", Tier.DISTRICT, "Connecticut", "ca2"),  # circuit from courts-db's own appeal_to
        ("dcd", Tier.DISTRICT, "District of Columbia", "cadc"),  # courts-db calls it "appellate"
        ("nysb", Tier.BANKRUPTCY, "New York", "ca2"),
        ("bap9", Tier.BANKRUPTCY, "California", "ca9"),
        ("cal", Tier.HIGH, "California", None),
        ("calctapp", Tier.INTERMEDIATE, "California", None),
        ("calctapp2d", Tier.INTERMEDIATE, "California", None),
        ("calsuperct", Tier.TRIAL, "California", None),
        ("minn", Tier.HIGH, "Minnesota", None),  # not marked colr in courts-db: found by its name
        ("minnctapp", Tier.INTERMEDIATE, "Minnesota", None),
        ("md", Tier.HIGH, "Maryland", None),  # "Court of Appeals of Maryland": the exceptions table
        ("mdctspecapp", Tier.INTERMEDIATE, "Maryland", None),
        ("dc", Tier.HIGH, "District of Columbia", None),  # courts-db says iac; D.C. has no intermediate court
        ("supctdc", Tier.TRIAL, "District of Columbia", None),
        ("ny", Tier.HIGH, "New York", None),
        ("nysupct", Tier.TRIAL, "New York", None),  # New York's "Supreme Court" is a trial court
        ("nyappdiv", Tier.INTERMEDIATE, "New York", None),
        ("pasuperct", Tier.INTERMEDIATE, "Pennsylvania", None),
        ("uscfc", Tier.FEDERAL_OTHER, None, "cafc"),  # reviewed by the Federal Circuit (28 U.S.C. § 1295)
    ],
)
def test_real_courts_are_placed(court_id, tier, state, circuit) -> None:
    node = court_node(court_id)
    assert node is not None
    assert (node.tier, node.state, node.circuit) == (tier, state, circuit)


def test_every_state_has_exactly_its_high_courts() -> None:
    states = [
        "Alabama",
        "Alaska",
        "Arizona",
        "Arkansas",
        "California",
        "Colorado",
        "Connecticut",
        "Delaware",
        "District of Columbia",
        "Florida",
        "Georgia",
        "Hawaii",
        "Idaho",
        "Illinois",
        "Indiana",
        "Iowa",
        "Kansas",
        "Kentucky",
        "Louisiana",
        "Maine",
        "Maryland",
        "Massachusetts",
        "Michigan",
        "Minnesota",
        "Mississippi",
        "Missouri",
        "Montana",
        "Nebraska",
        "Nevada",
        "New Hampshire",
        "New Jersey",
        "New Mexico",
        "New York",
        "North Carolina",
        "North Dakota",
        "Ohio",
        "Oklahoma",
        "Oregon",
        "Pennsylvania",
        "Rhode Island",
        "South Carolina",
        "South Dakota",
        "Tennessee",
        "Texas",
        "Utah",
        "Vermont",
        "Virginia",
        "Washington",
        "West Virginia",
        "Wisconsin",
        "Wyoming",
    ]
    for state in states:
        ids = {n.id for n in high_courts(state)}
        expected = 2 if state in ("Texas", "Oklahoma") else 1  # civil and criminal courts of last resort
        assert len(ids) == expected, (state, ids)


def test_every_federal_trial_court_has_a_circuit() -> None:
    missing = [n for n in all_nodes() if n.tier in (Tier.DISTRICT, Tier.BANKRUPTCY) and n.circuit is None]
    assert missing == []


def test_unknown_ids_have_no_node() -> None:
    assert court_node("21806") is None and court_node(None) is None and court_node("") is None


@pytest.mark.parametrize(
    ("reporter", "court"),
    [
        ("Md.", "md"),
        ("Cal. App. 4th", "calctapp"),
        ("Cal. 4th", "cal"),
        ("N.Y.3d", "ny"),
        ("Ill. App. 3d", "illappct"),
        ("Minn.", "minn"),
        ("F.3d", None),
        ("A.2d", None),
        ("N.W.2d", None),
        (None, None),
    ],
)
def test_official_reporters_imply_their_court(reporter, court) -> None:
    assert reporter_court(reporter) == court


def test_the_courts_read_from_courts_db_file_are_its_courts() -> None:
    """The hierarchy reads courts-db's courts.json as shipped (its ``courts`` renders every court's name
    regexes first, a tenth of a second of a check's start): every court classifies as from ``courts``,
    one at a time (``court_node``) as all together."""
    import courts_db

    from citecheck.jurisdiction import hierarchy

    expected = {}
    for court in courts_db.courts:
        node = hierarchy._classify(court)
        if node is not None:
            expected[node.id] = node
    assert hierarchy._nodes() == expected
    assert len(expected) > 2_000
    assert all(court_node(cid) == node for cid, node in expected.items())
