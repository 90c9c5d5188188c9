"""The court hierarchy, built once from courts-db data: which tier each court is and what it sits under.

Nothing here lists courts by hand. Each courts-db court is classified from its own fields
(``system``, ``type``, ``level``, ``location``, ``parent``, ``appeal_to``/``federal_circuit``, name);
the only tables are the ones courts-db does not carry: which circuit each state's federal courts
sit in (28 U.S.C. § 41) and the few highest courts whose courts-db record does not say so.
Pure: reads the courts-db package data on first use, no other I/O.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum
from functools import cache
from typing import Any


class Tier(StrEnum):
    """Where a court sits; the weight rules are written in these terms."""

    SUPREME = "supreme"  # the Supreme Court of the United States
    CIRCUIT = "circuit"  # a federal court of appeals (1st-11th, D.C., Federal)
    DISTRICT = "district"  # a federal district court
    BANKRUPTCY = "bankruptcy"  # a federal bankruptcy court or bankruptcy appellate panel
    FEDERAL_OTHER = "federal-other"  # specialised federal courts and tribunals, old U.S. circuit courts
    HIGH = "high"  # a state's court of last resort
    INTERMEDIATE = "intermediate"  # a state intermediate appellate court
    TRIAL = "trial"  # a state trial court
    STATE_OTHER = "state-other"  # state agencies, commissions and special courts


@dataclass(frozen=True, slots=True, kw_only=True)
class CourtNode:
    """One court in the hierarchy.

    ``state`` is the place whose law the court belongs to (a state, D.C., a territory); for federal
    district and bankruptcy courts, the state they sit in. ``circuit`` is the courts-db id of the
    federal court of appeals above a federal court (``"ca2"``), ``None`` when there is none.
    """

    id: str
    name: str
    tier: Tier
    state: str | None = None
    circuit: str | None = None

    @property
    def federal(self) -> bool:
        return self.tier in (Tier.SUPREME, Tier.CIRCUIT, Tier.DISTRICT, Tier.BANKRUPTCY, Tier.FEDERAL_OTHER)

    def __repr__(self) -> str:
        return f"CourtNode({self.id!r}, {self.tier.value}, {self.state!r}, {self.circuit!r})"


_ORDINALS = {
    "First": 1,
    "Second": 2,
    "Third": 3,
    "Fourth": 4,
    "Fifth": 5,
    "Sixth": 6,
    "Seventh": 7,
    "Eighth": 8,
    "Ninth": 9,
    "Tenth": 10,
    "Eleventh": 11,
}

#: The circuit of each state's federal courts (28 U.S.C. § 41); courts-db records it for a few districts only.
_CIRCUIT_OF_STATE: dict[str, str] = {
    **dict.fromkeys(("Maine", "Massachusetts", "New Hampshire", "Rhode Island", "Puerto Rico"), "ca1"),
    **dict.fromkeys(("Connecticut", "New York", "Vermont"), "ca2"),
    **dict.fromkeys(("Delaware", "New Jersey", "Pennsylvania", "Virgin Islands"), "ca3"),
    **dict.fromkeys(("Maryland", "North Carolina", "South Carolina", "Virginia", "West Virginia"), "ca4"),
    **dict.fromkeys(("Louisiana", "Mississippi", "Texas", "Panama"), "ca5"),
    **dict.fromkeys(("Kentucky", "Michigan", "Ohio", "Tennessee"), "ca6"),
    **dict.fromkeys(("Illinois", "Indiana", "Wisconsin"), "ca7"),
    **dict.fromkeys(
        ("Arkansas", "Iowa", "Minnesota", "Missouri", "Nebraska", "North Dakota", "South Dakota"), "ca8"
    ),
    **dict.fromkeys(
        (
            "Alaska",
            "Arizona",
            "California",
            "Guam",
            "Hawaii",
            "Idaho",
            "Montana",
            "Nevada",
            "Northern Mariana Islands",
            "Oregon",
            "Washington",
        ),
        "ca9",
    ),
    **dict.fromkeys(("Colorado", "Kansas", "New Mexico", "Oklahoma", "Utah", "Wyoming"), "ca10"),
    **dict.fromkeys(("Alabama", "Florida", "Georgia"), "ca11"),
    "District of Columbia": "cadc",
}

#: Highest courts whose courts-db record does not mark them ``colr`` or name them "Supreme Court":
#: the D.C. Court of Appeals (D.C. has no intermediate court), the Court of Appeals of Maryland (renamed
#: the Supreme Court of Maryland in 2022), and the criminal high courts of Texas and Oklahoma.
_HIGH_COURTS_EXTRA = frozenset({"dc", "md", "texcrimapp", "oklacrimapp"})
#: Courts courts-db marks ``colr`` that are not a state's ordinary court of last resort.
_NOT_HIGH = frozenset({"nyimpct", "nycterr", "nyctassizes", "texcommnapp", "lacterrapp", "ctappindterr"})

#: Federal courts and boards whose decisions the Federal Circuit reviews (28 U.S.C. § 1295); courts-db has no link.
_REVIEWED_BY_CAFC = frozenset({"uscfc", "cc", "cit", "cusc", "ccpa", "cavc", "ttab", "ptab", "bpai"})

_CIRCUIT_ID = re.compile(r"^ca(\d{1,2}|dc|fc)$")
_APPEAL_WORDS = re.compile(r"\bappeal|\bappellate\b", re.I)
_AGENCY_WORDS = re.compile(
    r"commission|board|tax|compensation|panel|judiciary|discipline|ethics|claim|office", re.I
)
#: Intermediate courts named neither "appeal" nor "appellate" in courts-db.
_INTERMEDIATE_EXTRA = frozenset({"pacommwct", "pasuperct"})
_PLACE_ALIASES = {
    "Washington D.C.": "District of Columbia",
    "DC": "District of Columbia",
    "D.C.": "District of Columbia",
    "Washignton D.C.": "District of Columbia",
}


def _place(court: dict[str, Any]) -> str | None:
    loc = court.get("location") or None
    return _PLACE_ALIASES.get(loc, loc) if isinstance(loc, str) else None


def _active(court: dict[str, Any]) -> bool:
    return any(not d.get("end") for d in court.get("dates") or [{}])


def _circuit_of(court: dict[str, Any], place: str | None) -> str | None:
    to = court.get("appeal_to")
    if isinstance(to, str) and _CIRCUIT_ID.match(to):
        return to
    num = court.get("federal_circuit")
    if isinstance(num, int):
        return f"ca{num}"
    m = re.search(r"of The (\w+) Circuit", court.get("name", ""), re.I)  # bankruptcy appellate panels
    if m and m.group(1).title() in _ORDINALS:
        return f"ca{_ORDINALS[m.group(1).title()]}"
    return _CIRCUIT_OF_STATE.get(place or "")


def _classify(court: dict[str, Any]) -> CourtNode | None:
    cid, name = str(court["id"]), str(court.get("name", ""))
    system, ctype, level = court.get("system"), court.get("type") or "", court.get("level") or ""
    place = _place(court)
    if cid == "scotus":
        return CourtNode(id=cid, name=name, tier=Tier.SUPREME)
    if system == "federal":
        return _federal_node(court, cid, name, ctype, place)
    if system != "state" or place is None:
        return None
    return _state_node(court, cid, name, ctype, level, place)


def _federal_node(court: dict[str, Any], cid: str, name: str, ctype: str, place: str | None) -> CourtNode:
    """A federal court: a circuit, a bankruptcy court, a district court of a state, or another (the
    Federal Circuit reviews some of those)."""
    if _CIRCUIT_ID.match(cid):
        return CourtNode(id=cid, name=name, tier=Tier.CIRCUIT, circuit=cid)
    if ctype == "bankruptcy":
        return CourtNode(
            id=cid, name=name, tier=Tier.BANKRUPTCY, state=place, circuit=_circuit_of(court, place)
        )
    district = "District Court" in name and court.get("parent") in (None, "usdistct") and cid != "usdistct"
    if district and ctype in ("trial", "appellate") and place not in (None, "United States"):
        return CourtNode(
            id=cid, name=name, tier=Tier.DISTRICT, state=place, circuit=_circuit_of(court, place)
        )
    return CourtNode(
        id=cid,
        name=name,
        tier=Tier.FEDERAL_OTHER,
        state=None,
        circuit="cafc" if court.get("appeal_to") == "cafc" or cid in _REVIEWED_BY_CAFC else None,
    )


def _state_node(court: dict[str, Any], cid: str, name: str, ctype: str, level: str, place: str) -> CourtNode:
    """A state court: its court of last resort, an intermediate appellate court, a trial court, or another."""
    if _high_court(court, cid, name, ctype, level):
        return CourtNode(id=cid, name=name, tier=Tier.HIGH, state=place)
    if ctype == "appellate" or (level == "iac" and _APPEAL_WORDS.search(name)):
        intermediate = (level == "iac" or _APPEAL_WORDS.search(name)) and not _AGENCY_WORDS.search(name)
        if intermediate or cid in _INTERMEDIATE_EXTRA:
            return CourtNode(id=cid, name=name, tier=Tier.INTERMEDIATE, state=place)
        return CourtNode(id=cid, name=name, tier=Tier.STATE_OTHER, state=place)
    if ctype == "trial":
        return CourtNode(id=cid, name=name, tier=Tier.TRIAL, state=place)
    return CourtNode(id=cid, name=name, tier=Tier.STATE_OTHER, state=place)


def _high_court(court: dict[str, Any], cid: str, name: str, ctype: str, level: str) -> bool:
    """A state's court of last resort: courts-db's "colr" level, or an active appellate court named Supreme
    that is no agency or appeals court (and the listed exceptions either way)."""
    if cid in _HIGH_COURTS_EXTRA:
        return True
    if cid in _NOT_HIGH or ctype != "appellate" or not _active(court):
        return False
    return level == "colr" or bool(
        re.search(r"\bSupreme\b", name) and not _AGENCY_WORDS.search(name) and not _APPEAL_WORDS.search(name)
    )


@cache
def _courts() -> dict[str, dict[str, Any]]:
    """courts-db's courts by id (ids are unique there).

    Read from courts-db's own ``courts.json`` as it ships: ``courts_db.courts`` is the same list with
    each court's name regexes rendered from templates (71 passes of ``str.replace`` over the whole
    file), a tenth of a second of every check's start, and the hierarchy reads no regex. Where that file
    is not there or not a list of courts (another courts-db), its ``courts`` as before."""
    import json
    from pathlib import Path

    import courts_db

    try:
        with open(Path(courts_db.__file__).parent / "data" / "courts.json", encoding="utf-8") as f:
            raw = json.load(f)
        courts = {str(court["id"]): court for court in raw}
        if not courts or not all(isinstance(c, dict) and "name" in c for c in courts.values()):
            raise ValueError("not a list of courts")
        return courts
    except (OSError, ValueError, TypeError, KeyError):
        return {str(court["id"]): court for court in courts_db.courts}


@cache
def _nodes() -> dict[str, CourtNode]:
    out: dict[str, CourtNode] = {}
    for court in _courts().values():
        node = _node(str(court["id"]))
        if node is not None:
            out[node.id] = node
    return out


@cache
def _node(court_id: str) -> CourtNode | None:
    """One court classified: a check that weighs a few citations classifies their courts, not all 2,809."""
    court = _courts().get(court_id)
    return _classify(court) if court is not None else None


def court_node(court_id: str | None) -> CourtNode | None:
    """The hierarchy node of a courts-db id, or None for an unknown id.

    >>> court_node("nysd")
    CourtNode('nysd', district, 'New York', 'ca2')
    >>> court_node("calctapp").tier, court_node("minn").tier, court_node("dc").tier
    (<Tier.INTERMEDIATE: 'intermediate'>, <Tier.HIGH: 'high'>, <Tier.HIGH: 'high'>)
    """
    if not court_id:
        return None
    return _node(court_id)


def high_courts(state: str) -> tuple[CourtNode, ...]:
    """The court(s) of last resort of a state (two in Texas and Oklahoma: civil and criminal)."""
    return tuple(n for n in _nodes().values() if n.tier is Tier.HIGH and n.state == state)


def all_nodes() -> tuple[CourtNode, ...]:
    return tuple(_nodes().values())


_SERIES = re.compile(r"\s?(?:\d+(?:d|nd|rd|th))$")
# public-domain citations: "2019 WI 12" (high court), "2008 WI App 155", "2015 IL App (1st) 123456"
_NEUTRAL = re.compile(r"^([A-Z]{2})(\s+(?:Ct\.?\s*)?App\.?)?(?:\s*\(\w+\))?$")


@cache
def _postal_codes() -> dict[str, str]:
    """Two-letter codes → state names, from courts-db's own states table."""
    import json
    from importlib import resources

    try:
        data = json.loads(
            resources.files("courts_db").joinpath("data", "states.json").read_text(encoding="utf-8")
        )
    except (OSError, ValueError):  # pragma: no cover - the table ships with courts-db
        return {}
    return {k: _PLACE_ALIASES.get(v, v.replace(" Of ", " of ")) for k, v in data.items() if len(k) == 2}


def _neutral_court(reporter: str) -> str | None:
    m = _NEUTRAL.match(reporter.strip())
    if not m:
        return None
    state = _postal_codes().get(m.group(1))
    if state is None:
        return None
    if m.group(2):
        return sole_intermediate(state)
    tops = high_courts(state)
    return tops[0].id if len(tops) == 1 else None


@cache
def sole_intermediate(state: str | None) -> str | None:
    """The id of a state's intermediate appellate court when it has one (its districts not counted)."""
    courts = [n for n in _nodes().values() if n.tier is Tier.INTERMEDIATE and n.state == state]
    tops = [n for n in courts if not any(n.id != o.id and n.id.startswith(o.id) for o in courts)]
    return tops[0].id if len(tops) == 1 else None


@cache
def reporter_court(reporter: str | None) -> str | None:
    """The court an official state reporter implies when the parenthetical names none (Bluebook R. 10.4).

    ``Md.`` is the Court of Appeals of Maryland, ``Cal. App. 4th`` the California Courts of Appeal: a
    state reporter named like a state court's citation string (series dropped, "App." read as
    "Ct. App.") stands for that court. A public-domain citation (``2019 WI 12``, ``2008 WI App 155``)
    stands for the state's highest court, or with "App" for its one intermediate court. Regional and
    federal reporters imply no single court.

    >>> reporter_court("Md."), reporter_court("Cal. App. 4th"), reporter_court("N.Y.2d"), reporter_court("F.3d")
    ('md', 'calctapp', 'ny', None)
    >>> reporter_court("WI"), reporter_court("WI App"), reporter_court("IL App (1st)")
    ('wis', 'wisctapp', 'illappct')
    """
    if not reporter:
        return None
    neutral = _neutral_court(reporter)
    if neutral is not None:
        return neutral
    from citecheck.extract.courts import court_id

    base = _SERIES.sub("", reporter.strip())
    for form in (base, base.replace(" App.", " Ct. App."), f"{base} Ct."):
        found = court_id(form, exact=True)
        node = court_node(found)
        if node is not None and node.tier in (Tier.HIGH, Tier.INTERMEDIATE):
            return found
    return None
