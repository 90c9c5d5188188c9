"""Constitutional citations: the U.S. Constitution and the fifty states', in Bluebook and spelled-out forms.

``U.S. Const. art. I, § 9, cl. 3``, ``U.S. CONST. amend. XIV, § 1``, ``Wash. Const. art. I, § 7``, ``Cal.
Const., art. I, § 7``, ``Art. I, § 9, Fla. Const.``, ``article I, section 22 of the Washington State
Constitution``, ``Section 13, Article I of the Texas Constitution``, ``the Fourteenth Amendment to the
United States Constitution``, ``Section 1 of the Fourteenth Amendment``, a bare ``Art. III, § 3, cl. 1``
or ``amend. XIV, § 1``. Each is a ``Statute`` of kind ``"constitution"``: ``code`` the constitution in
Bluebook form (``U.S. Const.``, ``Wash. Const.``; ``Const.`` where the text does not name it), ``title``
the article or amendment (``art. I``, ``amend. XIV``, ``pmbl.``), ``section`` its section ("" when none),
clauses in ``subsections`` (``cl. 3``).

The U.S. Constitution's articles, sections, clauses and amendments are known (``US_ARTICLES``,
``US_AMENDMENTS``): ``us_provision_problem`` says why a provision cannot exist (``art. VIII``, ``amend.
XXXI``, ``art. I, § 11``), which ``checks/constitutions.py`` reports as an impossible citation. Only a
citation that names the U.S. Constitution is judged; a bare ``art. I, § 11`` may be a state's.

Pure: text in, matches out (offsets into the paragraph, as ``statutes.StatuteMatch``).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from citecheck.extract.models import Statute, StatuteForm

#: Article → number of clauses of each section (Congress.gov's Constitution Annotated numbering; the
#: National Archives' transcription). An article with no sections has one entry, keyed 0.
US_ARTICLES: dict[int, dict[int, int]] = {
    1: {1: 1, 2: 5, 3: 7, 4: 2, 5: 4, 6: 2, 7: 3, 8: 18, 9: 8, 10: 3},
    2: {1: 8, 2: 3, 3: 1, 4: 1},
    3: {1: 1, 2: 3, 3: 2},
    4: {1: 1, 2: 3, 3: 2, 4: 1},
    5: {0: 1},
    6: {0: 3},
    7: {0: 1},
}
#: Amendment → number of sections it labels "Section" (0: none; its paragraphs are not numbered, and a
#: court that numbers them is not wrong, so no section of those is judged).
US_AMENDMENTS: dict[int, int] = {
    **{n: 0 for n in range(1, 13)},
    13: 2,
    14: 5,
    15: 2,
    16: 0,
    17: 0,
    18: 3,
    19: 0,
    20: 6,
    21: 3,
    22: 2,
    23: 2,
    24: 2,
    25: 4,
    26: 2,
    27: 0,
}
US_SOURCE = (
    "the Constitution of the United States (National Archives transcription; clauses as Congress.gov's "
    "Constitution Annotated numbers them)"
)

_ROMAN = {"I": 1, "V": 5, "X": 10, "L": 50, "C": 100}


def roman(value: str) -> int | None:
    """``XIV`` → 14, ``14`` → 14; None for anything else (``IIII`` is read as 4: courts write what they write)."""
    if value.isdigit():
        return int(value)
    total, prev = 0, 0
    for ch in reversed(value.upper()):
        n = _ROMAN.get(ch)
        if n is None:
            return None
        total += -n if n < prev else n
        prev = max(prev, n)
    return total or None


def to_roman(n: int) -> str:
    out = []
    for value, letters in (
        (100, "C"),
        (90, "XC"),
        (50, "L"),
        (40, "XL"),
        (10, "X"),
        (9, "IX"),
        (5, "V"),
        (4, "IV"),
        (1, "I"),
    ):
        while n >= value:
            out.append(letters)
            n -= value
    return "".join(out)


def us_provision_problem(statute: Statute) -> str | None:
    """Why a provision of the U.S. Constitution cannot exist, or None (it does, or it is not judged)."""
    if statute.kind != "constitution" or statute.code != "U.S. Const." or not statute.title:
        return None
    kind, _, number = statute.title.partition(" ")
    n = roman(number)
    if n is None:
        return None
    section = int(statute.section) if statute.section.isdigit() else None
    clause = next((int(c[4:]) for c in statute.subsections if c.startswith("cl. ") and c[4:].isdigit()), None)
    if kind == "amend.":
        return _amendment_problem(n, number, section)
    if kind != "art.":
        return None
    if n not in US_ARTICLES:
        if n <= len(US_AMENDMENTS):
            return None  # "art. XIV": older opinions number the amendments as articles (amendment_as_article)
        return f"the Constitution has seven articles (I to VII); there is no Article {number}"
    return _article_problem(n, section, clause)


def _amendment_problem(n: int, number: str, section: int | None) -> str | None:
    if not 1 <= n <= len(US_AMENDMENTS):
        return f"the Constitution has {len(US_AMENDMENTS)} amendments (I to XXVII); there is no Amendment {number}"
    labelled = US_AMENDMENTS[n]
    if section is not None and labelled and section > labelled:
        return f"Amendment {to_roman(n)} has {labelled} sections; there is no section {section}"
    return None


def _article_problem(n: int, section: int | None, clause: int | None) -> str | None:
    """Why Article ``n`` has no such section or clause (sections numbered, or, key 0, clauses only)."""
    sections = US_ARTICLES[n]
    if section is not None and 0 not in sections:
        if section not in sections:
            return f"Article {to_roman(n)} has {len(sections)} sections; there is no section {section}"
        if clause is not None and clause > sections[section]:
            count = sections[section]
            return (
                f"Article {to_roman(n)}, Section {section} has {count} clause{'s' if count != 1 else ''}; "
                f"there is no clause {clause}"
            )
    elif section is None and clause is not None and 0 in sections and clause > sections[0]:
        count = sections[0]
        return f"Article {to_roman(n)} has {count} clause{'s' if count != 1 else ''}; there is no clause {clause}"
    return None


def amendment_as_article(statute: Statute) -> int | None:
    """``U.S. Const. art. XIV``: an article the Constitution lacks whose number an amendment has. Older
    opinions number the amendments as "articles" (they were proposed as "articles in addition to, and
    amendment of, the Constitution"; a First Circuit opinion of the 1990s writes ``U.S. Const., art. XIV``
    for the Fourteenth Amendment), so this is a likely slip for ``amend. XIV``, not an invented provision:
    the amendment's number, or None."""
    if statute.kind != "constitution" or statute.code != "U.S. Const." or not statute.title:
        return None
    kind, _, number = statute.title.partition(" ")
    n = roman(number)
    if kind != "art." or n is None or n in US_ARTICLES or not 1 <= n <= len(US_AMENDMENTS):
        return None
    return n


#: States: name → Bluebook abbreviation of its constitution (``Wash. Const.``)
STATES: dict[str, str] = {
    "Alabama": "Ala.",
    "Alaska": "Alaska",
    "Arizona": "Ariz.",
    "Arkansas": "Ark.",
    "California": "Cal.",
    "Colorado": "Colo.",
    "Connecticut": "Conn.",
    "Delaware": "Del.",
    "Florida": "Fla.",
    "Georgia": "Ga.",
    "Hawaii": "Haw.",
    "Idaho": "Idaho",
    "Illinois": "Ill.",
    "Indiana": "Ind.",
    "Iowa": "Iowa",
    "Kansas": "Kan.",
    "Kentucky": "Ky.",
    "Louisiana": "La.",
    "Maine": "Me.",
    "Maryland": "Md.",
    "Massachusetts": "Mass.",
    "Michigan": "Mich.",
    "Minnesota": "Minn.",
    "Mississippi": "Miss.",
    "Missouri": "Mo.",
    "Montana": "Mont.",
    "Nebraska": "Neb.",
    "Nevada": "Nev.",
    "New Hampshire": "N.H.",
    "New Jersey": "N.J.",
    "New Mexico": "N.M.",
    "New York": "N.Y.",
    "North Carolina": "N.C.",
    "North Dakota": "N.D.",
    "Ohio": "Ohio",
    "Oklahoma": "Okla.",
    "Oregon": "Or.",
    "Pennsylvania": "Pa.",
    "Rhode Island": "R.I.",
    "South Carolina": "S.C.",
    "South Dakota": "S.D.",
    "Tennessee": "Tenn.",
    "Texas": "Tex.",
    "Utah": "Utah",
    "Vermont": "Vt.",
    "Virginia": "Va.",
    "Washington": "Wash.",
    "West Virginia": "W. Va.",
    "Wisconsin": "Wis.",
    "Wyoming": "Wyo.",
}
_BY_ABBREVIATION = {"".join(a.split()).lower().rstrip("."): (a, s) for s, a in STATES.items()}
_BY_NAME = {s.lower(): (a, s) for s, a in STATES.items()}

_STATE_NAMES = "|".join(sorted((re.escape(s) for s in STATES), key=len, reverse=True))
_STATE_ABBRS = "|".join(
    sorted(
        {re.escape(a).replace(r"\.", r"\.?").replace(r"\ ", r"\s?") for a in STATES.values()},
        key=len,
        reverse=True,
    )
)
_ORDINALS = (
    "first second third fourth fifth sixth seventh eighth ninth tenth eleventh twelfth thirteenth fourteenth "
    "fifteenth sixteenth seventeenth eighteenth nineteenth twentieth"
).split()
_ORDINAL_WORD = r"(?:Twenty-?(?:first|second|third|fourth|fifth|sixth|seventh)|" + "|".join(_ORDINALS) + ")"

# -- the pieces of a provision ------------------------------------------------------------------------
#: an article's or section's number: roman, arabic, with a letter (``5A``) or Texas's hyphenated one (``1-a``)
_NUM = r"(?:[IVXLC]{1,7}|\d{1,3}(?:-?[A-Za-z](?![A-Za-z]))?)"
_ART = rf"(?:[Aa]rt(?:icle)?s?\.?|ART(?:ICLE)?\.?)\s*(?P<art>{_NUM})"
_AMEND = rf"(?:[Aa]mend(?:ment)?s?\.?|AMEND(?:MENT)?\.?)\s*(?P<amend>{_NUM})"
_SEC = rf"(?:§|[Ss]ec(?:tion)?s?\.?|SEC(?:TION)?\.?)\s*(?P<sec>{_NUM})"
_CL = r"(?:[Cc]l(?:ause)?s?\.?|CL\.?)\s*(?P<cl>\d{1,2})"
_PART = r"(?:[Pp]t\.|[Pp]art)\s*(?P<part>[IVX\d]{1,4})"
_PMBL = r"(?P<pmbl>[Pp]mbl\.|[Pp]reamble|PMBL\.)"
#: what follows a constitution's name: ``art. I, § 9, cl. 3`` / ``amend. XIV, § 1`` / ``pmbl.`` / ``pt. 1, art. 12``
_PROVISION = rf"(?:(?:{_PART}\s*,\s*)?{_ART}|{_AMEND}|{_PMBL})(?:\s*,?\s*{_SEC})?(?:\s*,?\s*{_CL})?"
#: a constitution's name in Bluebook form: ``U.S. Const.``, ``U.S. CONST.``, ``Wash. Const.``, ``Cal. Const.,``,
#: ``N.Y. Const,`` (New York's official style), ``Ill. Const. 1970,``, ``Const 1963,`` (Michigan's); a state's
#: constitution spelled out before the provision (``The Texas Constitution Article V, Section 1-a``)
_NAME = (
    rf"(?P<name>(?P<us>U\.\s?S\.|United\s+States)\s*(?:Const\.?|CONST\.?|Constitution)"
    rf"|(?P<abbr>{_STATE_ABBRS})\s*(?:Const\.?|CONST\.?)(?:\s+(?:of\s+)?\d{{4}})?"
    rf"|(?P<bare>(?:Const|CONST)(?:\.|\s+(?=\d{{4}})))(?:\s*\d{{4}})?"
    rf"|(?P<stname>{_STATE_NAMES})(?:\s+State)?\s+(?:Constitution|CONSTITUTION))"
)
_BLUEBOOK = re.compile(rf"(?<![\w.]){_NAME}\s*,?\s*{_PROVISION}")
#: the provision first: ``Art. I, § 9, Fla. Const.``, ``article I, section 22 of the Washington State
#: Constitution``, ``Section 13, Article I of the Texas Constitution``, ``art. III of the Constitution``
_SPELLED_NAME = (
    rf"(?:the\s+)?(?:(?P<sus>United\s+States|U\.\s?S\.|Federal|federal)\s+|(?P<sstate>{_STATE_NAMES})(?:\s+State)?\s+"
    rf"|(?P<sabbr>{_STATE_ABBRS})\s+)?"
    rf"(?:Constitution|CONSTITUTION)(?:\s+of\s+(?:the\s+(?P<sus2>United\s+States)|(?:the\s+)?(?:State\s+of\s+)?(?P<sstate2>{_STATE_NAMES})))?"
)
_SEC_FIRST = (
    rf"(?:§|[Ss]ec(?:tion)?\.?|SECTION)\s*(?P<sec2>{_NUM})\s*,?\s*(?:of\s+)?"
    rf"(?:[Aa]rt(?:icle)?\.?|ART(?:ICLE)?\.?)\s*(?P<art2>{_NUM})"
)
_AFTER = re.compile(
    rf"(?<![\w.])(?:{_SEC_FIRST}|{_PROVISION})"
    rf"(?:\s*,\s*(?P<abbr_after>{_STATE_ABBRS})\s*Const\.?|\s*,?\s+(?:of|to|in|under)\s+{_SPELLED_NAME})"
)
#: ``the Fourteenth Amendment to the United States Constitution``, ``Section 1 of the Fourteenth Amendment``
_NAMED_AMENDMENT = re.compile(
    rf"(?<![\w.])(?:(?:§|[Ss]ec(?:tion)?\.?)\s*(?P<sec>\d{{1,2}})\s*(?:,\s*|\s+of\s+)(?:the\s+)?)?"
    rf"(?P<ord>{_ORDINAL_WORD})\s+Amendment"
    rf"(?P<to>\s+(?:to|of)\s+the\s+(?:United\s+States|U\.\s?S\.|Federal|federal)\s+Constitution)?",
    re.IGNORECASE,
)
#: a bare provision, no constitution named: ``Art. III, § 3, cl. 1``, ``amend. XIV, § 1`` (roman article
#: and a section, or a roman amendment: a code's ``art. 38.22`` or ``Article 2`` is no constitution)
_BARE = re.compile(
    # (the lookbehind after the first letter, ``X(?<!…X)``: ``re`` then tries only at an "A" or "a")
    rf"(?:(?:A(?<![\w.]A)(?:rt\.|rticle|RT\.)|a(?<![\w.]a)(?:rt\.|rticle))\s*(?P<art>[IVX]{{1,4}})"
    rf"(?=\s*,\s*(?:§|[Ss]ec))"
    rf"|(?:A(?<![\w.]A)(?:mend\.|MEND\.)|a(?<![\w.]a)mend\.)\s*(?P<amend>[IVX]{{1,6}})\b)"
    rf"(?:\s*,\s*{_SEC})?(?:\s*,\s*{_CL})?"
)
_MAY_CITE = re.compile(  # grouped by first letter (as paragraph._MAY_CITE_CODE)
    r"C(?:onst|ONST)|A(?:mend|rt\.|rticle|RTICLE|RT\.)|a(?:mend|rt\.|rticle)", re.ASCII
)


class ConstitutionMatch:
    """One constitutional citation: ``[start, end)`` in the paragraph and what it cites."""

    __slots__ = ("end", "start", "statute")

    def __init__(self, start: int, end: int, statute: Statute) -> None:
        self.start, self.end, self.statute = start, end, statute


def _statute(
    code: str,
    jurisdiction: str | None,
    written: str,
    art: str | None,
    amend: str | None,
    sec: str | None,
    cl: str | None,
    pmbl: bool = False,
    part: str | None = None,
) -> Statute:
    if pmbl:
        title = "pmbl."
    elif amend:
        title = f"amend. {_numeral(amend)}"
    else:
        title = f"art. {_numeral(art or '')}"
        if part:
            title = f"pt. {part}, {title}"
    return Statute(
        form=StatuteForm.FULL,
        code=code,
        code_text=" ".join(written.split()),
        jurisdiction=jurisdiction,
        title=title,
        section=_numeral(sec) if sec else "",
        subsections=(f"cl. {cl}",) if cl else (),
        kind="constitution",
    )


def _numeral(value: str) -> str:
    """Roman numerals upper-cased (``xiv`` → ``XIV``); Arabic ones as written."""
    return value.upper() if re.fullmatch(r"[ivxlcIVXLC]+", value) else value


def _state(abbr: str | None, name: str | None) -> tuple[str, str] | None:
    """(``Wash. Const.``, ``Washington``) from an abbreviation or a state's name."""
    if abbr:
        got = _BY_ABBREVIATION.get("".join(abbr.split()).lower().rstrip("."))
        return (f"{got[0]} Const.", got[1]) if got else None
    if name:
        got = _BY_NAME.get(" ".join(name.split()).lower())
        return (f"{got[0]} Const.", got[1]) if got else None
    return None


def find_constitutions(norm: str) -> Iterator[ConstitutionMatch]:
    """Every constitutional citation in one normalised paragraph, in order, none overlapping."""
    if not _MAY_CITE.search(norm) and "Amendment" not in norm and "amendment" not in norm:
        return
    # a constitution named (_BLUEBOOK, _AFTER) is written "Const…" or "CONST…"; a named amendment
    # (IGNORECASE) has "amendment": a paragraph without it is not searched for them (~1 ms per brief)
    named = "Const" in norm or "CONST" in norm
    found = list(_bluebook(norm)) if named else []
    for m in _AFTER.finditer(norm) if named else ():
        if not _overlaps(found, m.start(), m.end()):
            found.extend(_written_after(m))
    for m in _NAMED_AMENDMENT.finditer(norm) if "amendment" in norm.lower() else ():
        if _overlaps(found, m.start(), m.end()) or not (m["to"] or m["sec"]):
            continue  # "the First Amendment protects": a mention in prose, not a citation
        n = _ORDINALS.index(m["ord"].lower()) + 1 if m["ord"].lower() in _ORDINALS else _twenties(m["ord"])
        found.append(
            ConstitutionMatch(
                m.start(),
                m.end(),
                _statute("U.S. Const.", "United States", "U.S. Const.", None, to_roman(n), m["sec"], None),
            )
        )
    for m in _BARE.finditer(norm):
        if _overlaps(found, m.start(), m.end()):
            continue
        found.append(
            ConstitutionMatch(
                m.start(), m.end(), _statute("Const.", None, "", m["art"], m["amend"], m["sec"], m["cl"])
            )
        )
    found.sort(key=lambda c: c.start)
    yield from found


def _bluebook(norm: str) -> Iterator[ConstitutionMatch]:
    """``U.S. Const. art. I, § 8, cl. 3``, ``Wash. Const. art. I, § 10``: the code first."""
    for m in _BLUEBOOK.finditer(norm):
        if m["us"]:
            code, where = "U.S. Const.", "United States"
        elif m["abbr"] or m["stname"]:
            got = _state(m["abbr"], m["stname"])
            if got is None:
                continue
            code, where = got
        else:
            code, where = "Const.", None
        yield ConstitutionMatch(
            m.start(),
            m.end(),
            _statute(
                code, where, m["name"], m["art"], m["amend"], m["sec"], m["cl"], bool(m["pmbl"]), m["part"]
            ),
        )


def _written_after(m: re.Match[str]) -> Iterator[ConstitutionMatch]:
    """``article I, section 22 of the Washington State Constitution``: the constitution named after."""
    if m["sus"] or m["sus2"]:
        code, where = "U.S. Const.", "United States"
    elif m["abbr_after"] or m["sabbr"] or m["sstate"] or m["sstate2"]:
        got = _state(m["abbr_after"] or m["sabbr"], m["sstate"] or m["sstate2"])
        if got is None:
            return
        code, where = got
    else:
        code, where = "Const.", None  # "art. III of the Constitution": which one, the paragraph does not say
    sec = m["sec2"] or m["sec"]
    art = m["art2"] or m["art"]
    written = (m["abbr_after"] and f"{m['abbr_after']} Const.") or _written_name(m)
    yield ConstitutionMatch(
        m.start(),
        m.end(),
        _statute(code, where, written, art, m["amend"], sec, m["cl"], bool(m["pmbl"]), m["part"]),
    )


def _written_name(m: re.Match[str]) -> str:
    """The constitution as the text names it after the provision (``Washington State Constitution``)."""
    words = m.group().split()
    k = max((i for i, w in enumerate(words) if w.lower() in ("of", "to", "in", "under")), default=-1)
    return " ".join(words[k + 1 :]) if k >= 0 else "Constitution"


def _twenties(word: str) -> int:
    rest = word.lower().replace("twenty", "").lstrip("-")
    return 20 + (_ORDINALS.index(rest) + 1 if rest in _ORDINALS else 0)


def _overlaps(found: list[ConstitutionMatch], start: int, end: int) -> bool:
    return any(f.start < end and start < f.end for f in found)
