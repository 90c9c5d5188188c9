"""Named federal acts and where their sections stand in the U.S. Code (issue 41 item 4).

``section 1 of the Sherman Act`` is ``15 U.S.C. § 1``; ``section 8(a)(1) of the National Labor Relations
Act`` is ``29 U.S.C. § 158(a)(1)``; ``section 408 of the Federal Food, Drug, and Cosmetic Act`` is ``21
U.S.C. § 346a``. (``Sec. 8(a)(1) of the Act``, as NLRB decisions write it, names no act in the
paragraph: it is reported as a section of "the Act", not placed.) A small table of the classification
the Office of the Law Revision Counsel gives each act (the
U.S. Code's own source credits name the act's section: "(July 5, 1935, ch. 372, § 8, 49 Stat. 452)"
under 29 U.S.C. § 158; uscode.house.gov's Popular Name Tool and Table III): only acts courts cite by
section often, and for each only sections whose place is settled and that courts cite side by side
with the U.S.C. section. Title 9's rows (the Federal Arbitration Act, enacted as the title itself) were
checked against the source credits of the USLM release 119-36; the other titles' release files were
not available here, so their rows rest on the published classification alone (docs/extraction.md). A
section the table does not place is reported as the act's section, not checked, never guessed.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import cache
from string import ascii_lowercase


def _letters(base: str, first: int, last: int, start: int = 1) -> dict[str, str]:
    """Act § n → ``base`` + a letter (``Securities Exchange Act`` § 10 → 78j): section ``start`` is ``a``."""
    return {str(n): base + ascii_lowercase[n - start] for n in range(first, last + 1)}


def _offset(first: int, last: int, add: int) -> dict[str, str]:
    """Act § n → n + ``add`` (``National Labor Relations Act`` § 8 → 158)."""
    return {str(n): str(n + add) for n in range(first, last + 1)}


#: name (as courts write it, lower case) → (the act's name, U.S.C. title, act section → U.S.C. section);
#: an empty mapping with a title: the act's sections are numbered as the title's (Bankruptcy Code, I.R.C.)
_ACTS: tuple[tuple[tuple[str, ...], str, str, dict[str, str] | None], ...] = (
    (("Sherman Act", "Sherman Antitrust Act"), "Sherman Act", "15", {**_offset(1, 6, 0), "8": "7"}),
    (
        ("Clayton Act", "Clayton Antitrust Act"),
        "Clayton Act",
        "15",
        {
            "2": "13",
            "3": "14",
            "4": "15",
            "4A": "15a",
            "4B": "15b",
            "5": "16",
            "6": "17",
            "7": "18",
            "8": "19",
            "12": "22",
            "13": "23",
            "14": "24",
            "15": "25",
            "16": "26",
        },
    ),
    (
        ("National Labor Relations Act", "NLRA", "Wagner Act"),
        "National Labor Relations Act",
        "29",
        _offset(1, 19, 150),
    ),
    (
        ("Labor Management Relations Act", "Taft-Hartley Act", "LMRA"),
        "Labor Management Relations Act",
        "29",
        {"301": "185", "303": "187"},
    ),
    (("Fair Labor Standards Act", "FLSA"), "Fair Labor Standards Act", "29", _offset(2, 17, 200)),
    (
        ("Federal Food, Drug, and Cosmetic Act", "Food, Drug, and Cosmetic Act", "FDCA", "FD&C Act"),
        "Federal Food, Drug, and Cosmetic Act",
        "21",
        {
            "201": "321",
            "301": "331",
            "303": "333",
            "304": "334",
            "402": "342",
            "403": "343",
            "408": "346a",
            "409": "348",
            "501": "351",
            "502": "352",
            "505": "355",
            "510": "360",
            "513": "360c",
            "515": "360e",
            "701": "371",
        },
    ),
    (
        ("Securities Exchange Act of 1934", "Securities Exchange Act", "Exchange Act"),
        "Securities Exchange Act of 1934",
        "15",
        _letters("78", 1, 21),
    ),
    (("Securities Act of 1933", "Securities Act"), "Securities Act of 1933", "15", _letters("77", 1, 26)),
    (
        ("Civil Rights Act of 1964",),
        "Civil Rights Act of 1964",
        "42",
        {
            "601": "2000d",
            "701": "2000e",
            **{str(700 + n): f"2000e-{n - 1}" for n in range(2, 16)},
            "717": "2000e-16",
        },
    ),
    (
        ("Rehabilitation Act of 1973", "Rehabilitation Act"),
        "Rehabilitation Act of 1973",
        "29",
        {"501": "791", "503": "793", "504": "794", "505": "794a", "508": "794d"},
    ),
    (
        ("Fair Debt Collection Practices Act", "FDCPA"),
        "Fair Debt Collection Practices Act",
        "15",
        {"802": "1692", **_letters("1692", 803, 818, 803)},
    ),
    (
        ("Fair Credit Reporting Act", "FCRA"),
        "Fair Credit Reporting Act",
        "15",
        {**_letters("1681", 603, 621, 603), "623": "1681s-2"},
    ),
    (("Federal Arbitration Act", "FAA"), "Federal Arbitration Act", "9", _offset(1, 16, 0)),
    (
        ("Lanham Act", "Trademark Act of 1946"),
        "Lanham Act",
        "15",
        {
            "1": "1051",
            "2": "1052",
            "7": "1057",
            "32": "1114",
            "33": "1115",
            "34": "1116",
            "35": "1117",
            "39": "1121",
            "43": "1125",
            "45": "1127",
        },
    ),
    (
        ("Endangered Species Act", "ESA"),
        "Endangered Species Act of 1973",
        "16",
        {"3": "1532", "4": "1533", "7": "1536", "9": "1538", "10": "1539", "11": "1540"},
    ),
    (
        ("Clean Water Act", "Federal Water Pollution Control Act", "CWA"),
        "Clean Water Act",
        "33",
        {
            "301": "1311",
            "303": "1313",
            "309": "1319",
            "401": "1341",
            "402": "1342",
            "404": "1344",
            "502": "1362",
            "505": "1365",
        },
    ),
    (
        ("Immigration and Nationality Act", "INA"),
        "Immigration and Nationality Act",
        "8",
        {
            "101": "1101",
            "208": "1158",
            "212": "1182",
            "235": "1225",
            "236": "1226",
            "237": "1227",
            "240": "1229a",
            "241": "1231",
            "242": "1252",
            "245": "1255",
            "276": "1326",
        },
    ),
    (
        ("Employee Retirement Income Security Act", "ERISA"),
        "Employee Retirement Income Security Act of 1974",
        "29",
        {"3": "1002", "404": "1104", "409": "1109", "502": "1132", "510": "1140", "514": "1144"},
    ),
    (
        ("Age Discrimination in Employment Act", "ADEA"),
        "Age Discrimination in Employment Act of 1967",
        "29",
        _offset(2, 14, 619),
    ),
    (
        ("Family and Medical Leave Act", "FMLA"),
        "Family and Medical Leave Act of 1993",
        "29",
        {"101": "2611", "102": "2612", "104": "2614", "105": "2615", "107": "2617"},
    ),
    (
        ("Occupational Safety and Health Act", "OSH Act"),
        "Occupational Safety and Health Act of 1970",
        "29",
        {"3": "652", "5": "654", "6": "655", "8": "657", "11": "660", "17": "666"},
    ),
    (
        ("Americans with Disabilities Act", "Americans With Disabilities Act", "ADA"),
        "Americans with Disabilities Act of 1990",
        "42",
        {
            "3": "12102",
            "101": "12111",
            "102": "12112",
            "103": "12113",
            "201": "12131",
            "202": "12132",
            "301": "12181",
            "302": "12182",
            "503": "12203",
        },
    ),
    (
        ("Fair Housing Act",),
        "Fair Housing Act",
        "42",
        {"802": "3602", "804": "3604", "805": "3605", "806": "3606", "813": "3613", "818": "3617"},
    ),
    (("Bankruptcy Code",), "Bankruptcy Code", "11", None),
    (("Internal Revenue Code", "I.R.C.", "IRC"), "Internal Revenue Code", "26", None),
)


@cache
def _index() -> dict[str, tuple[str, str, dict[str, str] | None]]:
    out: dict[str, tuple[str, str, dict[str, str] | None]] = {}
    for names, canonical, title, sections in _ACTS:
        for name in names:
            out[_key(name)] = (canonical, title, sections)
            if not name.startswith("the "):
                out[_key(f"the {name}")] = (canonical, title, sections)
            for prefix in ("federal", "u.s."):
                out.setdefault(_key(f"{prefix} {name}"), (canonical, title, sections))
    return out


def _key(name: str) -> str:
    return " ".join(name.replace(",", " ").split()).lower()


_NUMBERED = re.compile(r"\d+[A-Za-z]{0,3}(?:-\d+)?")


def act_named(name: str) -> tuple[str, str, Callable[[str], str | None]] | None:
    """(the act's name, its U.S.C. title, where an act section stands in that title: None where the table
    does not place it) for a named act, or for ``the Act`` (unnamed: title "", nothing placed); None for
    a name the table does not hold.

    >>> act_named("the Sherman Act")[2]("1")
    '1'
    >>> act_named("National Labor Relations Act")[2]("8")
    '158'
    """
    key = _key(name)
    if key in ("act", "the act"):
        return ("the Act", "", _nowhere)
    got = _index().get(key)
    if got is None:
        return None
    canonical, title, sections = got
    if sections is None:  # numbered as the title is: "section 362 of the Bankruptcy Code" is 11 U.S.C. § 362
        return canonical, title, _same
    return canonical, title, sections.get


def _nowhere(section: str) -> str | None:
    return None


def _same(section: str) -> str | None:
    return section if _NUMBERED.fullmatch(section) else None
