"""Foreign and non-US neutral citations: ``2016 SCC 27``, ``[2019] UKSC 12``, ``(2016) 7 SCC 464``.

citecheck verifies US case law only. A foreign citation is real as often as a US one, but reporters-db
does not know its court codes, so without this pass it looked like an invented reporter (an error), and
``[2016] 1 S.C.R. 631`` (Supreme Court of Canada) was read as South Carolina's ``1 S.C. 631``. Found here,
such a citation is reported as outside what citecheck verifies (info) and never looked up.

Three shapes, all with a year where a US volume would be:

- ``[YEAR] (VOL) CODE (DIVISION) NUMBER``: the bracketed year is never US style;
- ``(YEAR) VOL CODE NUMBER`` where CODE is no reporter reporters-db knows (California's
  ``(1990) 50 Cal.3d 785`` has the same shape with a known reporter and stays a US citation);
- ``YEAR CODE NUMBER``, CODE in capitals and unknown to reporters-db (US neutral codes such as ``WI``,
  ``IL``, ``OK`` are known, so ``2018 WI 11`` stays a US citation).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from citecheck.reporters import is_known_reporter

_YEAR = r"(?:1[5-9]|20)\d\d"
_CODE_WORD = r"[A-Z][A-Za-z.&']*"
_DIVISION = r"(?:Civ|Crim|Admin|Ch|QB|KB|Fam|Comm|TCC|Pat|IPEC|Costs|COP)"
_BRACKETED = re.compile(
    rf"\[(?P<year>{_YEAR})\]\s+(?:(?P<volume>\d{{1,3}})\s+)?(?P<code>{_CODE_WORD}(?:\s{_CODE_WORD}){{0,3}}?)"
    rf"\s+(?P<number>\d{{1,6}})(?:\s\((?:Ch|QB|KB|Fam|Admin|Comm|TCC|Pat|IPEC)\))?(?![\w/])"
)
_PAREN_YEAR = re.compile(
    rf"\((?P<year>{_YEAR})\)\s+(?P<volume>\d{{1,3}})\s+(?P<code>{_CODE_WORD}(?:\s{_CODE_WORD})?)\s+(?P<number>\d{{1,6}})(?![\w/])"
)
#: Neutral citations began in the 1990s (Australia 1998, Canada 1999–2000, the UK 2001): an earlier "year"
#: before a capitalised code is a docket entry ("1662 CMO 11": docket 1662, case management order 11).
#: the lookbehind after the year's first digit (``X(?<!…X)``): a pattern opening with a lookbehind is tried at
#: every position, one opening with a digit only at digits (tests/extract/test_fast_regexes.py)
_NEUTRAL = re.compile(
    rf"(?P<year>1(?<![\w\[(/.-]1)99\d|2(?<![\w\[(/.-]2)0\d\d)\s+(?P<code>[A-Z]{{2,8}})(?:\s{_DIVISION})?\s+(?P<number>\d{{1,6}})(?![\w/]|\.\d)"
)
#: A US court's own papers, numbered like a neutral citation in docket tables and record cites
#: ("2020 CMO 11", "2019 ECF 12"): never a foreign court.
#: "No. 2018 CA 1234": a docket number, however it is numbered.
#: ``\d{4}\s+[A-Z]`` (a repeat opening a pattern keeps ``re`` from skipping to the digits)
_YEAR_THEN_CAPITAL = re.compile(r"\d\d\d\d\s+[A-Z]")
#: the same for an ASCII text, where ``\d`` is ``[0-9]`` (a class ``re`` tests faster than the Unicode digits)
_YEAR_THEN_CAPITAL_ASCII = re.compile(r"[0-9][0-9][0-9][0-9]\s+[A-Z]")
_DOCKET_BEFORE = re.compile(r"\bNos?\.\s*$")
_DOCKET_CODES = frozenset(
    "CMO PTO ECF DE DKT DOC MDL TRO SJ MSJ MTD JA SA RE ROA TR EX EXH APP ORD OSC PI MIL CR CV".split()
)

#: Court codes → the system they belong to (for the message only; an unlisted code is "non-US").
_SYSTEMS: tuple[tuple[frozenset[str], str], ...] = (
    (
        frozenset(
            "SCC S.C.R. SCR ONCA ONSC BCCA BCSC BCCRT ABCA ABQB QCCA QCCS FCA FC NSCA NBCA MBCA SKCA HRTO "
            "TCC CHRT NLCA PECA YKCA NWTCA ONCJ BCPC".split()
        ),
        "Canadian",
    ),
    (
        frozenset(
            "UKSC UKHL UKPC EWCA EWHC EWFC UKUT UKFTT AC WLR QB KB Ch All ER Fam Cr App R Lloyd's Rep".split()
        ),
        "UK",
    ),
    (frozenset("HCA FCAFC NSWSC NSWCA VSC VSCA QCA QSC WASC WASCA SASC FamCA CLR ALR".split()), "Australian"),
    (frozenset("NZSC NZCA NZHC NZLR".split()), "New Zealand"),
    (frozenset("IESC IECA IEHC IR ILRM".split()), "Irish"),
)


@dataclass(frozen=True, slots=True)
class ForeignCite:
    start: int
    end: int
    volume: str
    code: str
    number: str
    system: str  # "Canadian neutral", "UK", "non-US", …


def _system(code: str, shape: str) -> str:
    if code.startswith("ZA"):
        return "South African"
    if shape == "paren" and code in ("SCC", "SCR"):
        return "Indian"
    first = code.split()[0]
    for codes, name in _SYSTEMS:
        if code in codes or first in codes:
            return name
    return "non-US"


def find_foreign(norm: str) -> list[ForeignCite]:
    """Foreign citations in a normalised paragraph, in order, not overlapping."""
    if "[" not in norm and not (_YEAR_THEN_CAPITAL_ASCII if norm.isascii() else _YEAR_THEN_CAPITAL).search(
        norm
    ):
        return []
    out: list[ForeignCite] = []
    for m in _BRACKETED.finditer(norm):
        code = m["code"]
        out.append(
            ForeignCite(
                m.start(), m.end(), m["volume"] or m["year"], code, m["number"], _system(code, "bracket")
            )
        )
    for m in _PAREN_YEAR.finditer(norm):
        code = m["code"]
        if is_known_reporter(code) or is_known_reporter(code.replace(" ", "")):
            continue  # California style: "(1990) 50 Cal.3d 785"
        out.append(ForeignCite(m.start(), m.end(), m["volume"], code, m["number"], _system(code, "paren")))
    for m in _NEUTRAL.finditer(norm):
        code = m["code"]
        if is_known_reporter(code) or code in _DOCKET_CODES or _DOCKET_BEFORE.search(norm, 0, m.start()):
            continue  # a US neutral citation ("2018 WI 11"), a database ("WL"), a docket entry ("2020 CMO 11")
        out.append(ForeignCite(m.start(), m.end(), m["year"], code, m["number"], _system(code, "neutral")))
    out.sort(key=lambda f: (f.start, -f.end))
    kept: list[ForeignCite] = []
    for f in out:
        if kept and f.start < kept[-1].end:
            continue
        kept.append(f)
    return kept
