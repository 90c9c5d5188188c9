"""States' codes by the names courts and pro se litigants write out: ``Texas Family Code``, ``TEX. INS.
CODE``, ``Texas Civil Practice and Remedies Code``, ``New York Insurance Law``, ``Revised Code of
Washington``, ``Massachusetts General Laws``, ``Official Code of Georgia Annotated``.

Pure data and one lookup (``spelled_code``), used by ``statute_codes.code_named`` when no other name
matches. A name maps to the code as ``StatuteKey.code`` names it, the Bluebook abbreviation (the one
``Tex. Fam. Code Ann.`` and ``RCW`` already give), so ``Texas Family Code § 153.002``, ``Tex. Fam. Code Ann. §
153.002`` and ``TEX. FAM. CODE § 153.002`` are one section. Covered: the ten most populous states
(California, Texas, Florida, New York, Pennsylvania, Illinois, Ohio, Georgia, North Carolina,
Michigan), Washington and Massachusetts, and New Jersey and Virginia. A code named without its state
(``Family Code § 153.002``) is Texas's or California's only where the other state has no code of that
name; otherwise it is left to the other readers (California's official style, ``Fam. Code, § 3011``).
"""

from __future__ import annotations

import re
from functools import cache

#: Texas's codes: subject as written out → its Bluebook abbreviation (T1: "Tex. Fam. Code Ann.")
TEXAS = {
    "Agriculture": "Agric.",
    "Alcoholic Beverage": "Alco. Bev.",
    "Business and Commerce": "Bus. & Com.",
    "Business & Commerce": "Bus. & Com.",
    "Business Organizations": "Bus. Orgs.",
    "Civil Practice and Remedies": "Civ. Prac. & Rem.",
    "Civil Practice & Remedies": "Civ. Prac. & Rem.",
    "Education": "Educ.",
    "Election": "Elec.",
    "Estates": "Est.",
    "Family": "Fam.",
    "Finance": "Fin.",
    "Government": "Gov't",
    "Health and Safety": "Health & Safety",
    "Health & Safety": "Health & Safety",
    "Human Resources": "Hum. Res.",
    "Insurance": "Ins.",
    "Labor": "Lab.",
    "Local Government": "Loc. Gov't",
    "Natural Resources": "Nat. Res.",
    "Occupations": "Occ.",
    "Parks and Wildlife": "Parks & Wild.",
    "Penal": "Penal",
    "Property": "Prop.",
    "Special District Local Laws": "Spec. Dist.",
    "Tax": "Tax",
    "Transportation": "Transp.",
    "Utilities": "Util.",
    "Water": "Water",
}
#: California's codes written out → the code as ``statute_codes`` already names it ("Cal. Fam. Code")
CALIFORNIA = {
    "Business and Professions": "Bus. & Prof.",
    "Business & Professions": "Bus. & Prof.",
    "Civil": "Civ.",
    "Commercial": "Com.",
    "Corporations": "Corp.",
    "Education": "Educ.",
    "Elections": "Elec.",
    "Evidence": "Evid.",
    "Family": "Fam.",
    "Financial": "Fin.",
    "Fish and Game": "Fish & Game",
    "Food and Agricultural": "Food & Agric.",
    "Government": "Gov't",
    "Harbors and Navigation": "Harb. & Nav.",
    "Health and Safety": "Health & Safety",
    "Insurance": "Ins.",
    "Labor": "Lab.",
    "Military and Veterans": "Mil. & Vet.",
    "Penal": "Penal",
    "Probate": "Prob.",
    "Public Contract": "Pub. Cont.",
    "Public Resources": "Pub. Res.",
    "Public Utilities": "Pub. Util.",
    "Revenue and Taxation": "Rev. & Tax.",
    "Streets and Highways": "Sts. & High.",
    "Unemployment Insurance": "Unemp. Ins.",
    "Vehicle": "Veh.",
    "Water": "Water",
    "Welfare and Institutions": "Welf. & Inst.",
}
#: Codes named in full → (the code as ``StatuteKey.code`` names it, jurisdiction)
WHOLE: dict[str, tuple[str, str]] = {
    "Texas Code of Criminal Procedure": ("Tex. Code Crim. Proc.", "Texas"),
    "Code of Criminal Procedure": ("Tex. Code Crim. Proc.", "Texas"),
    "California Code of Civil Procedure": ("Cal. Civ. Proc. Code", "California"),
    "Code of Civil Procedure": ("Cal. Civ. Proc. Code", "California"),
    "Florida Statutes": ("Fla. Stat.", "Florida"),
    "Florida Statute": ("Fla. Stat.", "Florida"),
    "Fla. Stat. Ann.": ("Fla. Stat.", "Florida"),
    "New York Civil Practice Law and Rules": ("N.Y. C.P.L.R.", "New York"),
    "Civil Practice Law and Rules": ("N.Y. C.P.L.R.", "New York"),
    "Pennsylvania Consolidated Statutes": ("Pa. Cons. Stat.", "Pennsylvania"),
    "Consolidated Statutes": ("Pa. Cons. Stat.", "Pennsylvania"),
    "Illinois Compiled Statutes": ("Ill. Comp. Stat.", "Illinois"),
    "Ohio Revised Code": ("Ohio Rev. Code Ann.", "Ohio"),
    "Revised Code": ("Ohio Rev. Code Ann.", "Ohio"),
    "Official Code of Georgia Annotated": ("Ga. Code Ann.", "Georgia"),
    "Official Code of Georgia": ("Ga. Code Ann.", "Georgia"),
    "Georgia Code": ("Ga. Code Ann.", "Georgia"),
    "North Carolina General Statutes": ("N.C. Gen. Stat.", "North Carolina"),
    "General Statutes of North Carolina": ("N.C. Gen. Stat.", "North Carolina"),
    "Michigan Compiled Laws": ("Mich. Comp. Laws", "Michigan"),
    "Revised Code of Washington": ("Wash. Rev. Code", "Washington"),
    "Washington Revised Code": ("Wash. Rev. Code", "Washington"),
    "Massachusetts General Laws": ("Mass. Gen. Laws", "Massachusetts"),
    "General Laws": ("Mass. Gen. Laws", "Massachusetts"),
    "Mass. General Laws": ("Mass. Gen. Laws", "Massachusetts"),
    "General Laws of Massachusetts": ("Mass. Gen. Laws", "Massachusetts"),
    "New Jersey Statutes": ("N.J. Stat. Ann.", "New Jersey"),
    "New Jersey Statutes Annotated": ("N.J. Stat. Ann.", "New Jersey"),
    "Code of Virginia": ("Va. Code Ann.", "Virginia"),
    "Virginia Code": ("Va. Code Ann.", "Virginia"),
}
#: New York's laws written out with the state's name (``New York Insurance Law``): "New York" + a name
#: ``statute_codes`` knows without it (``Insurance Law``)
_NEW_YORK_PREFIX = re.compile(r"(?:New\s+York|N\.\s?Y\.|NY)\s+(?P<rest>.+)", re.IGNORECASE)

_SPACES = re.compile(r"\s+")


def _key(name: str) -> str:
    return _SPACES.sub(" ", name.replace("&", " & ")).strip().lower()


@cache
def _table() -> dict[str, tuple[str, str]]:
    out: dict[str, tuple[str, str]] = {}
    for subject, abbreviation in TEXAS.items():
        code = f"Tex. {abbreviation} Code Ann."
        for name in (
            f"Texas {subject} Code",
            f"Tex. {subject} Code",
            f"Tex. {abbreviation} Code",
            f"Tex. {abbreviation} Code Ann.",
            f"Texas {abbreviation} Code",
            f"Vernon's Texas {subject} Code",
        ):
            out[_key(name)] = (code, "Texas")
    for subject, abbreviation in CALIFORNIA.items():
        code = f"Cal. {abbreviation} Code" if subject != "Code of Civil Procedure" else "Cal. Civ. Proc. Code"
        for name in (f"California {subject} Code", f"Cal. {subject} Code", f"Cal. {abbreviation} Code"):
            out[_key(name)] = (code, "California")
    only_texas = set(TEXAS) - set(CALIFORNIA)
    only_california = set(CALIFORNIA) - set(TEXAS)
    for subject in only_texas:  # "Civil Practice and Remedies Code": only Texas has one
        out.setdefault(_key(f"{subject} Code"), (f"Tex. {TEXAS[subject]} Code Ann.", "Texas"))
    for subject in only_california:
        out.setdefault(_key(f"{subject} Code"), (f"Cal. {CALIFORNIA[subject]} Code", "California"))
    for name, value in WHOLE.items():
        out[_key(name)] = value
    return out


@cache
def longest_words() -> int:
    return max(len(k.split()) for k in _table())


def spelled_code(name: str) -> tuple[str, str] | None:
    """(code, jurisdiction) of a code named in full or in capitals, or None.

    >>> spelled_code("Texas Family Code"), spelled_code("TEX. INS. CODE")
    (('Tex. Fam. Code Ann.', 'Texas'), ('Tex. Ins. Code Ann.', 'Texas'))
    >>> spelled_code("Revised Code of Washington")
    ('Wash. Rev. Code', 'Washington')
    """
    key = _key(name.rstrip(","))
    return _table().get(key)


def new_york_law(name: str) -> str | None:
    """``New York Insurance Law`` → ``Insurance Law`` (for ``statute_codes``' own New York table)."""
    m = _NEW_YORK_PREFIX.fullmatch(name.strip())
    return m["rest"] if m else None
