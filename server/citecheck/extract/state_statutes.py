"""Statutes in the forms courts and pro se litigants write them beside ``§`` (issue 41 items 3 and 4).

- a section word for ``§``: ``Tex. Fam. Code Section 153.004(a)``, ``Texas Family Code, Sec. 6.502``,
  ``TEXAS FAMILY CODE, TITLE 4, SUBTITLE B, CHAPTER 83, Sec. 83.001``, ``15 USCA Sec. 1692c(c)``;
- the code after the section: ``Sec. 37.01 of the Texas Penal Code``, ``Chapter 10, Section 10.001 of the
  Civil Practice and Remedies Code``, ``section 1 of the Sherman Act``;
- a whole chapter or title: ``chapter 7.105 RCW``, ``ch. 42.56 RCW``, ``Title 51 RCW``, ``Mass. Gen. Laws c.
  239``;
- session laws: ``Laws of 2021, ch. 215, § 75`` (Washington's and New York's style), ``Chapter 65 of the
  Acts of 2020 § 3(b)`` and ``St. 2020, c. 65, § 3`` (Massachusetts);
- a named act's section: ``section 1 of the Sherman Act``, ``Section 504 of the Rehabilitation Act``,
  ``Sec. 8(a)(1) of the Act``, ``Lanham Act § 43(a)``: where OLRC classifies the act's section to the
  U.S. Code (``acts.ACTS``) the citation is that U.S.C. section (its checks apply) and names the act;
- a bare section after one of these in the paragraph keeps the code it follows when it is numbered
  like it (``Texas Family Code Sec. 153.002 … (Sec. 152.205 & Sec. 105.003)``).

Pure: text in, ``StatuteMatch`` out (offsets into the paragraph). ``paragraph._statutes`` merges them
with ``statutes.find_statutes``' (an overlap keeps the longer reading).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import replace

from citecheck.extract.acts import act_named
from citecheck.extract.models import Statute, StatuteForm
from citecheck.extract.statute_codes import Code, code_named
from citecheck.extract.statutes import (
    StatuteMatch,
    _code_before,
    _named_code,
    _sections,
    _short_form_may_stand,
)

#: A section word standing for "§" before a number
_SECTION_WORD = re.compile(
    # (the lookbehind after the first letter, ``X(?<!…X)``: ``re`` then tries only at an "S" or "s")
    r"(?:S(?<![\w.]S)(?:ecs?\.|ECS?\.|ections?|ECTIONS?)|s(?<![\w.]s)(?:ec\.|ecs\.|ection|ections))\s*(?=\d)"
)
#: ``TITLE 4, SUBTITLE B, CHAPTER 83,`` between a code and its section (how the Texas codes are printed)
_DIVISIONS = re.compile(
    r"(?:,?\s*(?:TITLE|Title|SUBTITLE|Subtitle|CHAPTER|Chapter|SUBCHAPTER|Subchapter)\s+[\dA-Z][\w.-]*)+\s*,?\s*$"
)
#: ``of the Texas Penal Code``: the code after the section
_OF_CODE = re.compile(r"\s*,?\s+(?:of|in|under)\s+(?:the\s+)?")
_NAME_WORDS = re.compile(r"[^\s,;()\[\]]+")
#: ``Chapter 10, Section 10.001 of …``: a chapter before the section
_CHAPTER_FIRST = re.compile(r"(?:Chapter|chapter|CHAPTER|Ch\.|ch\.)\s*(?P<ch>\d+[A-Z]?)\s*,\s*$")
#: codes divided by chapters that a citation must name (``chapter 265, section 22B of Massachusetts General
#: Laws`` is Mass. Gen. Laws ch. 265, § 22B): the chapter is the title
_CHAPTERED = frozenset({"Mass. Gen. Laws"})
#: ``chapter 7.105 RCW``, ``ch. 42.56 RCW``, ``Title 51 RCW``
_RCW_CHAPTER = re.compile(
    r"(?<![\w.])(?:(?P<word>[Cc]hapters?|CHAPTERS?|[Cc]hs?\.)\s*(?P<ch>\d+[A-Z]?\.\d+[A-Z]?)"
    r"|(?:[Tt]itle|TITLE)\s*(?P<title>\d+[A-Z]?))\s+RCW\b"
)
#: ``Mass. Gen. Laws c. 239``, ``G.L. c. 151B``: a Massachusetts chapter with no section after it
_MASS_CHAPTER = re.compile(
    r"(?P<code>M(?<![\w.]M)(?:ass\.\s?Gen\.\s?Laws(?:\s?Ann\.)?|\.\s?G\.\s?L\.)|G(?<![\w.]G)\.\s?L\.)\s*,?\s*"
    r"(?:c\.|ch\.|chapter)\s*"
    r"(?P<ch>\d+[A-Z]{0,2})\b(?!\s*,?\s*(?:§|sec))"
)
_SUB = r"(?:\((?:[a-z]{1,4}|[A-Z]{1,2}|[ivxlIVXL]{1,6}|\d{1,3})\))"
_SESSION_SECTION = (
    rf"(?:,?\s*(?:§§?|[Ss]ec(?:tion)?s?\.?)\s*(?P<sec>\d+[A-Za-z]?(?:-\d+)?)(?P<subs>(?:\s?{_SUB})*))?"
)
#: ``Laws of 2021, ch. 215, § 75``, ``Laws of 2019, 1st Spec. Sess., ch. 4``; the Washington Supreme Court
#: prints it in small capitals, which a PDF's text gives as ``LAWS OF 2025, ch. 383, §§ 4-6``
_LAWS_OF = re.compile(
    r"(?<![\w.])(?P<name>(?:Laws|LAWS)\s+(?:of|OF)\s+(?P<year>1[89]\d\d|20\d\d))\s*,?\s*(?:(?:\d(?:st|nd|rd|th)\s+)?(?:Ex\.|Extra|Spec\.|Special|Reg\.)?\s*"
    r"(?:Sess\.|Session)\s*,?\s*)?(?:ch\.|chapter|c\.)\s*(?P<ch>\d+)" + _SESSION_SECTION
)
#: ``Chapter 65 of the Acts of 2020 § 3(b)``, ``chapter 65 of the acts of 2020``
_ACTS_OF = re.compile(
    r"(?<![\w.])(?:[Cc]hapter|CHAPTER|[Cc]h\.|c\.)\s*(?P<ch>\d+)\s+of\s+the\s+(?P<name>[Aa]cts(?:\s+and\s+[Rr]esolves)?)\s+of\s+"
    r"(?P<year>1[89]\d\d|20\d\d)" + _SESSION_SECTION
)
#: Massachusetts: ``St. 2020, c. 65, § 3``
_STATUTES_OF = re.compile(
    r"(?P<name>S(?<![\w.]S)t\.)\s*(?P<year>1[89]\d\d|20\d\d)\s*,\s*c\.\s*(?P<ch>\d+)" + _SESSION_SECTION
)
#: the section before a session law that names none: ``Section 1(a) of St. 2020, c. 257``
_SECTION_OF = re.compile(
    rf"(?<![\w.])(?:[Ss]ection|SECTION|[Ss]ec\.|§)\s*(?P<sec>\d+[A-Za-z]?)(?P<subs>(?:\s?{_SUB})*)\s+of\s+(?:the\s+)?$"
)
#: an act's whole name: ``Controlled Substances Act``, ``Americans with Disabilities Act of 1990``
_ACT_NAME = re.compile(
    r"(?:[A-Z][\w'.&-]*,?\s+(?:(?:of|and|&|for|to|on|the|with|in)\s+)*){1,8}Act(?:\s+of\s+(?:1[89]\d\d|20\d\d))?"
)
#: ``Sherman Act § 1``, ``Lanham Act § 43(a)``: an act's name, then its section
_ACT_THEN_SECTION = re.compile(
    rf"(?P<name>(?:[A-Z][\w'.-]*,?\s+(?:(?:of|and|&|the|for|to|on)\s+)*){{0,8}}Act(?:\s+of\s+(?:1[89]\d\d|20\d\d))?)"
    rf"\s*,?\s*(?:§|[Ss]ec(?:tion)?\.?)\s*(?P<sec>\d+[A-Za-z]?)(?P<subs>(?:\s?{_SUB})*)"
)
_MAY_CITE = re.compile(  # grouped by first letter (as paragraph._MAY_CITE_CODE)
    r"S(?:ec|EC|t\.)|sec|C(?:hapter|HAPTER)|chapter|RCW|L(?:aws|AWS)|A(?:cts|ct\b)|G(?:\.\s?L\.|en\.\s?Laws)"
)


def find_state_statutes(norm: str, text: str) -> tuple[list[StatuteMatch], list[StatuteMatch]]:
    """The paragraph's citations in the forms above, in order, none overlapping; and the bare sections
    that are citations only if ``keep_codes`` gives them the code they follow (``Notably, §65.011(5)``,
    where a short form could not stand on its own)."""
    if not _MAY_CITE.search(norm) and "§" not in norm:
        return [], []
    found: list[StatuteMatch] = []
    for reader in (_session_laws, _chapters, _section_words, _acts_then_section):
        for m in reader(norm, text):
            if not any(f.start < m.end and m.start < f.end for f in found):
                found.append(m)
    found.sort(key=lambda m: m.start)
    maybe = [
        m for m in _bare_marks(norm, text) if not any(f.start < m.end and m.start < f.end for f in found)
    ]
    return found, maybe


_BARE_MARK = re.compile(r"§§?\s*(?=\d)")


def _bare_marks(norm: str, text: str) -> Iterator[StatuteMatch]:
    """Every ``§`` with no code before it, as a short form (kept only when it keeps a code)."""
    for bm in _BARE_MARK.finditer(norm) if "§" in norm else ():
        if _code_before(norm, bm.start()) is not None:
            continue
        marks = "§§" if bm.group().startswith("§§") else "§"
        m = _sections(norm, text, bm.end(), bm.start(), StatuteForm.SHORT, None, None, None, marks)
        if m is not None:
            yield m


def keep_codes(matches: list[StatuteMatch], maybe: frozenset[int] = frozenset()) -> list[StatuteMatch]:
    """A bare section keeps the code it follows in the paragraph (``Texas Family Code Sec. 153.002 …
    (Sec. 152.205 & Sec. 105.003)``) when it is numbered as that code numbers (``153.002`` and ``105.003``:
    a chapter, a point and three digits); a section numbered otherwise stays a short form. Matches that
    start at a position in ``maybe`` are dropped unless they keep a code."""
    out: list[StatuteMatch] = []
    last: Statute | None = None
    last_end = 0
    for m in matches:
        s = m.statute
        keeps = (
            s.form is StatuteForm.SHORT
            and last is not None
            and (_same_shape(s.section, last.section) or _listed_next(s, last, m.start - last_end))
        )
        if m.start in maybe and not keeps:
            continue
        if keeps and last is not None:
            s = replace(
                s,
                form=StatuteForm.FULL,
                code=last.code,
                code_text=None,
                jurisdiction=last.jurisdiction,
                regulation=last.regulation,
                title=last.title,
            )
            m = StatuteMatch(m.start, m.end, m.after, s, m.id_start)
        if s.form is StatuteForm.FULL and s.code and not s.kind and s.code not in ("usc", "cfr", "Pub. L."):
            last = s
        elif s.form is StatuteForm.FULL:
            last = None
        last_end = m.end
        out.append(m)
    return out


def _listed_next(s: Statute, last: Statute, gap: int) -> bool:
    """``G.L. c. 186, §11 (tenant under lease) and §12 (tenant at will)``: a bare section of as many digits
    just after a section of a chaptered code (a parenthetical between at most) is that chapter's."""
    return (
        last.title is not None
        and gap <= 40
        and s.section.isdigit()
        and last.section.isdigit()
        and len(s.section) == len(last.section)
    )


_SHAPE = re.compile(r"\d+")


def _same_shape(a: str, b: str) -> bool:
    """``152.205`` and ``153.002``; ``65.011`` and ``65.001``: numbers of the same lengths between the
    same punctuation (``4.84.185`` and ``9.41.800``), the first no more than a digit longer."""
    pa, pb = _SHAPE.split(a), _SHAPE.split(b)
    if pa != pb or ("." not in a and ":" not in a and "-" not in a):
        return False
    na, nb = _SHAPE.findall(a), _SHAPE.findall(b)
    return len(na) == len(nb) and all(len(x) == len(y) for x, y in zip(na[1:], nb[1:], strict=True))


def _section_words(norm: str, text: str) -> Iterator[StatuteMatch]:
    for sm in _SECTION_WORD.finditer(norm):
        m = _section_word(norm, text, sm)
        if m is not None:
            yield m


def _section_word(norm: str, text: str, sm: re.Match[str]) -> StatuteMatch | None:
    i, j = sm.start(), sm.end()
    marks = "§§" if sm.group().rstrip(" ").lower().endswith(("s", "s.")) else "§"
    # the code before: "Tex. Fam. Code Section 153.004(a)", "TEXAS FAMILY CODE, TITLE 4, …, Sec. 83.001"
    seg_end = i
    div = _DIVISIONS.search(norm, max(0, i - 80), i)
    if div is not None:
        seg_end = div.start()
    head = _code_before(norm[:seg_end] + " " * (i - seg_end), i)
    if head is not None:
        start, code, written, title, act = head
        return _sections(norm, text, j, start, StatuteForm.FULL, code, written, title, marks, act=act)
    m = _sections(norm, text, j, i, StatuteForm.SHORT, None, None, None, marks)
    if m is None:
        return None
    after = _code_after(norm, text, m)
    if after is not None:
        return after
    return m if _short_form_may_stand(norm, i) else None


def _code_after(norm: str, text: str, m: StatuteMatch) -> StatuteMatch | None:
    """``Sec. 37.01 of the Texas Penal Code``, ``section 1 of the Sherman Act``: the section made a full
    citation of the code or act named after it."""
    om = _OF_CODE.match(norm, m.end)
    if om is None:
        return None
    s = om.end()
    words = list(_NAME_WORDS.finditer(norm, s, min(len(norm), s + 90)))
    start = m.start
    chapter = _CHAPTER_FIRST.search(norm, max(0, m.start - 20), m.start)
    if chapter is not None:
        start = chapter.start()
    for k in range(min(len(words), 10), 0, -1):
        end = words[k - 1].end()
        name = norm[s:end].rstrip(".,;:")
        end = s + len(name)
        act = act_named(name)
        if act is not None:
            return _act_section(start, end, m.statute, name, act)
        code = code_named(name) if not name.lower().endswith(" act") else None
        if code is None:
            found = _named_code(name)
            code = found[1] if found is not None and found[0] == 0 else None
        if code is not None:
            statute = replace(
                m.statute,
                form=StatuteForm.FULL,
                code=code.code,
                code_text=" ".join(name.split()),
                jurisdiction=code.jurisdiction,
                regulation=code.regulation,
                title=chapter["ch"] if chapter is not None and code.code in _CHAPTERED else m.statute.title,
            )
            return StatuteMatch(start, end, end, statute)
    for k in range(min(len(words), 10), 0, -1):  # an act the table does not place, by its whole name
        name = norm[s : words[k - 1].end()].rstrip(".,;:")
        if _ACT_NAME.fullmatch(name):
            return _act_section(
                start, s + len(name), m.statute, name, (" ".join(name.split()), "", _unplaced)
            )
    return None


def _unplaced(section: str) -> str | None:
    return None


def _act_section(
    start: int, end: int, own: Statute, name: str, act: tuple[str, str, Callable[[str], str | None]]
) -> StatuteMatch:
    """A named act's section: the U.S.C. section OLRC classifies it to, where the table has it."""
    canonical, title, place = act
    number = own.section
    usc = place(number)
    statute = Statute(
        form=StatuteForm.FULL,
        code="usc" if usc else "act",
        code_text=" ".join(name.split()),
        jurisdiction="United States" if usc or title else None,
        # an act's section no table places: the act's name keeps it apart from other acts' same numbers
        title=title if usc else (None if canonical == "the Act" else canonical),
        section=usc or number,
        subsections=own.subsections,
        kind="act",
        act_name=canonical,
        act_section=number + "".join(own.subsections),
    )
    return StatuteMatch(start, end, end, statute)


def _acts_then_section(norm: str, text: str) -> Iterator[StatuteMatch]:
    for am in _ACT_THEN_SECTION.finditer(norm) if "Act" in norm else ():
        name = am["name"]
        # the name read back over capitalised words: take the longest tail the table knows
        words = list(_NAME_WORDS.finditer(name))
        for k in range(len(words)):
            tail = name[words[k].start() :].rstrip(",")
            act = act_named(tail)
            if act is not None:
                own = Statute(
                    form=StatuteForm.SHORT,
                    code=None,
                    section=am["sec"],
                    subsections=tuple(re.findall(_SUB, am["subs"] or "")),
                )
                yield _act_section(am.start("name") + words[k].start(), am.end(), own, tail, act)
                break


def _chapters(norm: str, text: str) -> Iterator[StatuteMatch]:
    rcw = code_named("RCW")
    mass = code_named("Mass. Gen. Laws")
    if rcw is None or mass is None:
        return
    for cm in _RCW_CHAPTER.finditer(norm) if "RCW" in norm else ():
        kind = "chapter" if cm["ch"] else "title"
        statute = Statute(
            form=StatuteForm.FULL,
            code=rcw.code,
            code_text="RCW",
            jurisdiction=rcw.jurisdiction,
            section=cm["ch"] or cm["title"],
            kind=kind,
        )
        yield StatuteMatch(cm.start(), cm.end(), cm.end(), statute)
    for mm in _MASS_CHAPTER.finditer(norm) if "L." in norm or "Mass." in norm else ():  # every match has one
        statute = Statute(
            form=StatuteForm.FULL,
            code=mass.code,
            code_text=" ".join(mm["code"].split()),
            jurisdiction=mass.jurisdiction,
            section=mm["ch"],
            kind="chapter",
        )
        yield StatuteMatch(mm.start(), mm.end(), mm.end(), statute)


#: Session laws by the words that name them: (code, jurisdiction) where the form names its state
_SESSION_CODES: dict[str, tuple[str, str | None]] = {
    "Laws": (
        "Sess. Laws",
        None,
    ),  # Washington's and New York's "Laws of 2021": the paragraph does not say which
    "Acts": ("Acts", None),  # Massachusetts's and Maryland's "Chapter 65 of the Acts of 2020"
    "St.": ("Mass. Acts", "Massachusetts"),  # "St. 2020, c. 65": Massachusetts's own style
}


def _session_laws(norm: str, text: str) -> Iterator[StatuteMatch]:
    if "Laws" not in norm and "LAWS" not in norm and "cts" not in norm and "St." not in norm:
        return
    for pattern, needs in ((_ACTS_OF, ("cts",)), (_LAWS_OF, ("Laws", "LAWS")), (_STATUTES_OF, ("St.",))):
        if not any(literal in norm for literal in needs):
            continue  # every match has it
        for m in pattern.finditer(norm):
            word = m["name"].split()[0].capitalize()
            code, where = _SESSION_CODES.get(word if word != "Laws" else "Laws", ("Sess. Laws", None))
            if word.lower().startswith("act"):
                code, where = _SESSION_CODES["Acts"]
            sec, subs, start = m["sec"], m["subs"], m.start()
            before = None if sec else _SECTION_OF.search(norm, max(0, start - 40), start)
            if before is not None:  # "Section 1(a) of St. 2020, c. 257" (a Massachusetts discovery form)
                sec, subs, start = before["sec"], before["subs"], before.start()
            statute = Statute(
                form=StatuteForm.FULL,
                code=code,
                code_text=" ".join(m["name"].split()),
                jurisdiction=where,
                title=m["year"],
                chapter=m["ch"],
                section=sec or "",
                subsections=tuple(re.findall(_SUB, subs or "")),
                kind="session law",
            )
            yield StatuteMatch(start, m.end(), m.end(), statute)


__all__ = ["Code", "find_state_statutes", "keep_codes"]
