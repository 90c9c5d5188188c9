"""Which code a written name stands for: the U.S. Code, the C.F.R., and the codes reporters-db knows.

Pure data and lookups, no scanning (``statutes.py`` scans). A code is found by its name as written
with spaces removed and lower-cased, so ``D.C.Code``, ``D.C. Code`` and ``d.c. code`` are one name.
The names come from reporters-db's ``laws`` (statutory and administrative compilations, with their
variations) plus the names courts use that reporters-db lacks: the official short forms of several
states (``KRS``, ``RCW``, ``N.J.S.A.``, ``General Statutes`` in Connecticut, California's ``Pen. Code``
without ``Cal.``), ``U.S.C.S.`` and ``L.P.R.A.``. A name maps to the code reporters-db calls it by, so
``KRS 446.070`` and ``Ky. Rev. Stat. Ann. § 446.070`` have one ``StatuteKey``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from typing import Any


@dataclass(frozen=True, slots=True)
class Code:
    """One code as ``StatuteKey`` names it."""

    code: str  # "usc", "cfr" or reporters-db's name ("Ky. Rev. Stat. Ann.")
    jurisdiction: str  # "United States", "Kentucky"
    regulation: bool = False  # an administrative code (C.F.R., a state's)
    numbered: bool = False  # a number before the name is its title ("42 U.S.C.", "1 Pa. Cons. Stat.")
    paged: bool = False  # cited by volume and page, not section (session laws, registers: "55 Stat. 808")


def squash(name: str) -> str:
    """A code name as looked up: spaces removed, lower case (``"D.C. Code"`` → ``"d.c.code"``)."""
    return "".join(name.split()).lower()


USC = Code("usc", "United States", numbered=True)
CFR = Code("cfr", "United States", regulation=True, numbered=True)

#: reporters-db cite types that are statutes or regulations (dockets, patents and the like are not)
_LAW_TYPES = {
    "leg_statute": (False, False),
    "admin_compilation": (True, False),
    "municipal": (True, False),
    "leg_act": (False, False),
    "leg_session": (False, True),
    "admin_register": (True, True),
}
#: codes whose name reporters-db builds from a subject (``Cal. Civ. Proc. Code``): read by pattern
SUBJECT_KEYS = frozenset({"Cal. Code", "N.Y. Law", "Tex. Code Ann."})

#: names courts write that reporters-db does not list: name → (reporters-db code, numbered)
_ALIASES: dict[str, tuple[str, bool]] = {
    "U.S.C.S.": ("usc", True),
    "USCS": ("usc", True),
    "USCA": ("usc", True),  # "15 USCA Sec. 1692c(c)" (a Massachusetts legal-aid letter)
    "U.S. Code": ("usc", True),
    "KRS": ("Ky. Rev. Stat. Ann.", False),
    "K.R.S.": ("Ky. Rev. Stat. Ann.", False),
    "Ky. Rev. Stat.": ("Ky. Rev. Stat. Ann.", False),
    "N.C.G.S.": ("N.C. Gen. Stat.", False),
    "G.S.": ("N.C. Gen. Stat.", False),
    "General Statutes": ("Conn. Gen. Stat.", False),
    "Conn. Gen. Stat. Ann.": ("Conn. Gen. Stat.", False),
    "RCW": ("Wash. Rev. Code", False),
    "ORS": ("Or. Rev. Stat.", False),
    "MCL": ("Mich. Comp. Laws", False),
    "M.C.L.": ("Mich. Comp. Laws", False),
    "MCLA": ("Mich. Comp. Laws Ann.", False),
    "NRS": ("Nev. Rev. Stat.", False),
    "R.C.": ("Ohio Rev. Code Ann.", False),
    "Ohio Rev. Code": ("Ohio Rev. Code Ann.", False),
    "N.J.S.A.": ("N.J. Stat. Ann.", False),
    "La. R.S.": ("La. Stat. Ann.", False),
    "La. Rev. Stat.": ("La. Stat. Ann.", False),
    "La. Rev. Stat. Ann.": ("La. Stat. Ann.", False),
    "O.C.G.A.": ("Ga. Code Ann.", False),
    "A.R.S.": ("Ariz. Rev. Stat.", False),
    "C.R.S.": ("Colo. Rev. Stat.", False),
    "MCA": ("Mont. Code Ann.", False),
    "T.C.A.": ("Tenn. Code Ann.", False),
    "D.C. Official Code": ("D.C. Code", False),
    "Pa.C.S.": ("Pa. Cons. Stat.", True),
    "Pa.C.S.A.": ("Pa. Cons. Stat.", True),
    "P.S.": ("Pa. Stat. and Cons. Stat. Ann.", True),
    "L.P.R.A.": ("P.R. Laws Ann.", True),
    "ILCS": ("Ill. Comp. Stat.", True),
    "G.L.": ("Mass. Gen. Laws", False),
    "M.G.L.": ("Mass. Gen. Laws", False),
    "Mass. G.L.": ("Mass. Gen. Laws", False),
    "CPLR": ("N.Y. C.P.L.R.", False),
    "N.Y. C.P.L.R.": ("N.Y. C.P.L.R.", False),
    "Florida Statutes": ("Fla. Stat.", False),
    "F.S.": ("Fla. Stat.", False),
    "Colo. Rev. Stat. Ann.": ("Colo. Rev. Stat.", False),
}
#: New York's official style names its consolidated laws without "N.Y." (``Penal Law § 125.25``,
#: ``CPL 440.10``); the code is reporters-db's ``N.Y. <subject> Law`` spelling
_NEW_YORK = {
    "Penal Law": "N.Y. Penal Law",
    "CPL": "N.Y. Crim. Proc. Law",
    "Criminal Procedure Law": "N.Y. Crim. Proc. Law",
    "Vehicle and Traffic Law": "N.Y. Veh. & Traf. Law",
    "General Business Law": "N.Y. Gen. Bus. Law",
    "General Obligations Law": "N.Y. Gen. Oblig. Law",
    "General Municipal Law": "N.Y. Gen. Mun. Law",
    "Insurance Law": "N.Y. Ins. Law",
    "Labor Law": "N.Y. Lab. Law",
    "Executive Law": "N.Y. Exec. Law",
    "Education Law": "N.Y. Educ. Law",
    "Public Health Law": "N.Y. Pub. Health Law",
    "Real Property Law": "N.Y. Real Prop. Law",
    "RPAPL": "N.Y. Real Prop. Acts. Law",
    "Domestic Relations Law": "N.Y. Dom. Rel. Law",
    "Family Court Act": "N.Y. Fam. Ct. Act",
    "Social Services Law": "N.Y. Soc. Serv. Law",
    "Correction Law": "N.Y. Correct. Law",
    "Judiciary Law": "N.Y. Jud. Law",
    "Civil Rights Law": "N.Y. Civ. Rights Law",
    "Business Corporation Law": "N.Y. Bus. Corp. Law",
    "Limited Liability Company Law": "N.Y. Ltd. Liab. Co. Law",
    "EPTL": "N.Y. Est. Powers & Trusts Law",
    "Estates, Powers and Trusts Law": "N.Y. Est. Powers & Trusts Law",
    "Workers' Compensation Law": "N.Y. Workers' Comp. Law",
    "Election Law": "N.Y. Elec. Law",
    "Tax Law": "N.Y. Tax Law",
    "Mental Hygiene Law": "N.Y. Mental Hyg. Law",
}
#: California's official style names its codes without "Cal." (Cal. Style Manual § 2:7); each maps to the
#: Bluebook name the subject pattern gives ``Cal. Penal Code § 187``, so both styles are one code
_CALIFORNIA = {
    "Bus. & Prof. Code": "Cal. Bus. & Prof. Code",
    "Civ. Code": "Cal. Civ. Code",
    "Code Civ. Proc.": "Cal. Civ. Proc. Code",
    "Com. Code": "Cal. Com. Code",
    "Corp. Code": "Cal. Corp. Code",
    "Educ. Code": "Cal. Educ. Code",
    "Elec. Code": "Cal. Elec. Code",
    "Evid. Code": "Cal. Evid. Code",
    "Fam. Code": "Cal. Fam. Code",
    "Fin. Code": "Cal. Fin. Code",
    "Fish & G. Code": "Cal. Fish & Game Code",
    "Food & Agr. Code": "Cal. Food & Agric. Code",
    "Gov. Code": "Cal. Gov't Code",
    "Harb. & Nav. Code": "Cal. Harb. & Nav. Code",
    "Health & Saf. Code": "Cal. Health & Safety Code",
    "Ins. Code": "Cal. Ins. Code",
    "Lab. Code": "Cal. Lab. Code",
    "Mil. & Vet. Code": "Cal. Mil. & Vet. Code",
    "Pen. Code": "Cal. Penal Code",
    "Prob. Code": "Cal. Prob. Code",
    "Pub. Contract Code": "Cal. Pub. Cont. Code",
    "Pub. Resources Code": "Cal. Pub. Res. Code",
    "Pub. Util. Code": "Cal. Pub. Util. Code",
    "Rev. & Tax. Code": "Cal. Rev. & Tax. Code",
    "Sts. & Hy. Code": "Cal. Sts. & High. Code",
    "Unemp. Ins. Code": "Cal. Unemp. Ins. Code",
    "Veh. Code": "Cal. Veh. Code",
    "Wat. Code": "Cal. Water Code",
    "Welf. & Inst. Code": "Cal. Welf. & Inst. Code",
}
_JURISDICTIONS_OF_ALIAS_CODES = {"N.Y. C.P.L.R.": "New York"}
#: the federal codes as typed without their last full stop (``17 U.S.C § 107``)
_FEDERAL_SPELLINGS = {"U.S.C": USC, "U. S. C": USC, "C.F.R": CFR}
#: state administrative codes by the names their own courts and agencies write (reporters-db has the
#: Bluebook names): name → (reporters-db code, a number before the name is its title)
REGULATION_ALIASES: dict[str, tuple[str, bool]] = {
    "NYCRR": ("N.Y. Comp. Codes R. & Regs.", True),
    "N.Y.C.R.R.": ("N.Y. Comp. Codes R. & Regs.", True),
    "N.Y. Comp. Codes R. & Regs.": ("N.Y. Comp. Codes R. & Regs.", True),
    "CCR": ("Cal. Code Regs.", True),
    "C.C.R.": ("Cal. Code Regs.", True),
    "Cal. Code Regs.": ("Cal. Code Regs.", True),
    "Cal. Code of Regs.": ("Cal. Code Regs.", True),
    "California Code of Regulations": ("Cal. Code Regs.", True),
    "TAC": ("Tex. Admin. Code", True),
    "T.A.C.": ("Tex. Admin. Code", True),
    "Tex. Admin. Code": ("Tex. Admin. Code", True),
    "Texas Administrative Code": ("Tex. Admin. Code", True),
    "N.J.A.C.": ("N.J. Admin. Code", False),
    "N.J. Admin. Code": ("N.J. Admin. Code", False),
    "F.A.C.": ("Fla. Admin. Code Ann.", False),
    "Fla. Admin. Code": ("Fla. Admin. Code Ann.", False),
    "Florida Administrative Code": ("Fla. Admin. Code Ann.", False),
    "Ill. Adm. Code": ("Ill. Admin. Code", True),
    "Ill. Admin. Code": ("Ill. Admin. Code", True),
    "Pa. Code": ("Pa. Code", True),
    "Pa. Admin. Code": ("Pa. Code", True),
}


def _law_code(key: str, entry: dict[str, Any]) -> Code | None:
    """The code a reporters-db law entry names (None: a kind of law that is no code)."""
    kind = _LAW_TYPES.get(entry.get("cite_type", ""))
    if kind is None:
        return None
    regexes = entry.get("regexes") or ()
    numbered = any(re.match(r"\(\?P<(?:title|chapter|volume)>|\$volume", r) for r in regexes)
    return {"U.S.C.": USC, "C.F.R.": CFR}.get(key) or Code(
        "Fed. Reg." if key == "FR" else key,
        str(entry.get("jurisdiction") or ""),
        regulation=kind[0],
        numbered=numbered or kind[1],
        paged=kind[1],
    )


@cache
def _table() -> dict[str, Code]:
    import reporters_db

    out: dict[str, Code] = {}
    for key, entries in reporters_db.LAWS.items():
        if key in SUBJECT_KEYS:
            continue
        for entry in entries:
            code = _law_code(key, entry)
            if code is None:
                continue
            for name in (key, *entry.get("variations", {})):
                out.setdefault(squash(name), code)
    for name, (code_name, numbered) in _ALIASES.items():
        if code_name == "usc":
            out.setdefault(squash(name), USC)
            continue
        base = out.get(squash(code_name))
        jurisdiction = base.jurisdiction if base else _JURISDICTIONS_OF_ALIAS_CODES.get(code_name, "")
        out.setdefault(
            squash(name),
            Code(code_name, jurisdiction, regulation=base.regulation if base else False, numbered=numbered),
        )
    for name, code_name in _CALIFORNIA.items():
        out.setdefault(squash(name), Code(code_name, "California"))
    for name, code in _FEDERAL_SPELLINGS.items():
        out.setdefault(squash(name), code)
    for name, (code_name, numbered) in REGULATION_ALIASES.items():  # these win: they are regulations
        base = out.get(squash(code_name))
        jurisdiction = base.jurisdiction if base is not None else ""
        out[squash(name)] = Code(code_name, jurisdiction, regulation=True, numbered=numbered)
    for name, code_name in _NEW_YORK.items():
        out.setdefault(squash(name), Code(code_name, "New York"))
    return out


@cache
def longest_name_words() -> int:
    """How many words the longest known code name has (how far back a lookup tries)."""
    import reporters_db

    names = [*_ALIASES, *_CALIFORNIA, *_NEW_YORK, *REGULATION_ALIASES]
    for key, entries in reporters_db.LAWS.items():
        for entry in entries:
            names.append(key)
            names.extend(entry.get("variations", {}))
    from citecheck.extract.state_code_names import longest_words

    return max(max(len(n.split()) for n in names), longest_words() + 1)


#: Bluebook abbreviations of the states, for a code whose state is spelled out (``WISCONSIN STAT.``)
_STATES = {
    "alabama": "Ala.", "alaska": "Alaska", "arizona": "Ariz.", "arkansas": "Ark.", "california": "Cal.",
    "colorado": "Colo.", "connecticut": "Conn.", "delaware": "Del.", "florida": "Fla.", "georgia": "Ga.",
    "hawaii": "Haw.", "idaho": "Idaho", "illinois": "Ill.", "indiana": "Ind.", "iowa": "Iowa",
    "kansas": "Kan.", "kentucky": "Ky.", "louisiana": "La.", "maine": "Me.", "maryland": "Md.",
    "massachusetts": "Mass.", "michigan": "Mich.", "minnesota": "Minn.", "mississippi": "Miss.",
    "missouri": "Mo.", "montana": "Mont.", "nebraska": "Neb.", "nevada": "Nev.", "ohio": "Ohio",
    "oklahoma": "Okla.", "oregon": "Or.", "pennsylvania": "Pa.", "tennessee": "Tenn.", "texas": "Tex.",
    "utah": "Utah", "vermont": "Vt.", "virginia": "Va.", "washington": "Wash.", "wisconsin": "Wis.",
    "wyoming": "Wyo.",
}  # fmt: skip


def code_named(name: str) -> Code | None:
    """The code ``name`` (as written) stands for, or None.

    >>> code_named("U. S. C. A.").code
    'usc'
    >>> code_named("KRS") == code_named("Ky. Rev. Stat. Ann.")
    True
    >>> code_named("Pen.Code").code
    'Cal. Penal Code'
    """
    table = _table()
    got = table.get(squash(name))
    if got is None:
        first, _, rest = name.strip().partition(" ")
        state = _STATES.get(first.lower())
        if state is not None and rest:
            got = table.get(squash(f"{state} {rest}"))
    if got is None:
        got = _spelled(name)
    return got


def _spelled(name: str) -> Code | None:
    """A state's code written out (``Texas Family Code``, ``TEX. INS. CODE``, ``New York Insurance Law``):
    ``state_code_names``, issue 41."""
    from citecheck.extract.state_code_names import new_york_law, spelled_code

    spelled = spelled_code(name)
    if spelled is not None:
        return Code(spelled[0], spelled[1])
    rest = new_york_law(name)
    if rest is not None:
        known = _table().get(squash(rest))
        if known is not None and known.jurisdiction == "New York":
            return known
    return None


#: Codes named by a subject between fixed words (``Cal. Civ. Proc. Code``, ``N.Y. Gen. Bus. Law``,
#: ``Tex. Civ. Prac. & Rem. Code Ann.``, ``Md. Code Ann., Cts. & Jud. Proc.``), anchored at the end of
#: the text before ``§``.
_SUBJECT = r"(?:(?:[A-Z][A-Za-z.'\u2019-]*|&)\s?){1,6}?"
SUBJECT_CODES: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(rf"(?<![\w.])Cal(?:ifornia)?\.?\s?{_SUBJECT}Code$"), "California"),
    (re.compile(rf"(?<![\w.])N\.\s?Y\.\s?{_SUBJECT}Law(?:\s?Ann\.)?$"), "New York"),
    (re.compile(rf"(?<![\w.])Tex\.\s?{_SUBJECT}Code(?:\s?Ann\.)?$"), "Texas"),
    (re.compile(rf"(?<![\w.])Md\.\s?Code(?:\s?Ann\.)?,\s?{_SUBJECT}$"), "Maryland"),
)
