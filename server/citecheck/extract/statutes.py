"""Statute and regulation citations in one paragraph: ``42 U.S.C. §§ 1331–1332``, ``§ 1983(a)``, ``Id. § 5``.

Pure: text in, matches out (offsets into the paragraph). eyecite's law tokens cover the codes
reporters-db knows but read sections as digits only (``§ 2000e`` becomes ``§ 2000``, ``§ 240.10b-5``
becomes ``§ 240.10``, ``§ 1A-1`` is no citation at all), miss the names courts actually write
(``KRS 446.070``, ``Pen. Code, § 550``, ``General Statutes § 17a-593``, ``42 U.S.C. 1983``) and have no
statutory short forms (eyecite issue #77). So every ``§`` is read here: the code named just before it
(``statute_codes``), a title before the code or as ``tit.``/``ch.``, then sections with letters,
subsections, lists, ranges, ``et seq.`` and an edition parenthetical; forms without ``§`` (``42 U.S.C.
1983``, ``29 CFR 1910.1200``, ``KRS 446.070``) by pattern; eyecite's remaining law tokens (session laws,
registers, codes cited without ``§``) fill the rest.

A ``§`` with no code before it is a short form only where a statute's section can stand alone: at the
start of a sentence or clause, after a signal, ``Id.`` or an ordinary word (``under § 1983``). After a
capitalised name or a number it is a section of something else (``Restatement (Second) of Torts §
402A``, ``U.S. Const. art. I, § 8``, ``Decl. ¶ 3, § 2``) and is left alone.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, replace

from citecheck.extract.models import Statute, StatuteForm
from citecheck.extract.statute_codes import SUBJECT_CODES, Code, code_named, longest_name_words

#: A section number: starts with a digit; letters, and "-" "." ":" "/" between alphanumerics
#: (``1983``, ``2000e-2``, ``240.10b-5``, ``17a-593``, ``1A-1``, ``14:30``, ``5/9-1``).
_SECTION = r"\d[0-9A-Za-z]*(?:[-.:/][0-9A-Za-z]+)*"
#: One subsection: ``(a)``, ``(12)``, ``(A)``, ``(iv)``; never a year ``(2018)`` nor a word ``(West)``.
_SUB = r"\((?:[a-z]{1,4}|[A-Z]{1,2}|[ivxlIVXL]{1,6}|\d{1,3})\)"
_SECTION_AT = re.compile(rf"(?P<section>{_SECTION})(?P<subs>(?:\s?{_SUB})*)")
_SUBS = re.compile(_SUB)
_SUBS_RUN = re.compile(rf"(?:\s?{_SUB})*")
#: ``322ND``, ``233rd``: no section is numbered so; a Texas caption's column of ``§`` signs stands before a
#: court's name (``AND § 322ND JUDICIAL DISTRICT``)
_ORDINAL = re.compile(r"\d+(?:st|nd|rd|th|ST|ND|RD|TH)")
#: the rest of a section number a line break cuts after one of its dashes: a Supreme Court slip opinion's
#: ``§24–34–⏎306(9)``, ``R. I. Gen. Laws §11–24–⏎2`` (the text must have the line break: ``§ 24-34- 306``
#: typed on one line is no such thing)
_WRAPPED_REST = re.compile(rf"-[ \t\r\n\f\v]+(?P<rest>{_SECTION})")
#: California's ``§ 550, subds. (a)(1) & (b)(1)``
_SUBD = re.compile(
    rf",?\s*subds?\.\s*(?P<subs>{_SUB}(?:\s?{_SUB})*)(?:\s*(?:&|and|,)\s*{_SUB}(?:\s?{_SUB})*)*"
)
_LIST_ITEM = re.compile(
    rf"\s*(?:,\s*(?:and\s+|or\s+|&\s*)?|\s+(?:and|or|&)\s+)(?P<section>{_SECTION})(?:\s?{_SUB})*"
)
_SUB_LIST_ITEM = re.compile(rf"\s*(?:,\s*(?:and\s+|or\s+)?|\s+(?:and|or)\s+){_SUB}(?:\s?{_SUB})*")
_RANGE = re.compile(rf"\s*(?:-|to|through|thru)\s*(?P<section>{_SECTION})(?:\s?{_SUB})*")
_ET_SEQ = re.compile(r"\s*,?\s*et\.?\s*seq\.?")
#: ``(West 2016)``, ``(2012 Repl.)``, ``(2012 Repl. & 2014 Supp.)``, ``(McKinney 2014)``, ``(Supp. V 2017)``
_EDITION = re.compile(
    r"\s*\((?P<edition>(?:(?:[A-Z][\w.'&-]*|&|and|ed\.|\d{4}|[IVX]+)\s?){1,6})\)",
)
_YEAR = re.compile(r"\b(?:1[6-9]|20)\d\d\b")
_ID_BEFORE = re.compile(r"(?:^|(?<=[\s(\[;,\"]))(?P<id>[Ii]d|[Ii]bid)\.?,?\s*(?:at\s+)?$")
_TITLE_BEFORE = re.compile(
    r"(?:,\s*|\s+)(?:tit\.|title|Title|ch\.|c\.|chapter)\s*(?P<title>\d+[A-Za-z]?)\s*,?\s*$"
)
#: ``5 U.S.C. App. §``, ``50 U.S.C. app. §``, ``46 U.S.C.app. §`` (so a First Circuit opinion prints it),
#: ``5 U.S.C. app. 3 §`` (the appendix's act number: the Inspector General Act is app. 3); the key keeps
#: the title's appendix, not the act
_APPENDIX = re.compile(r"(?:\s+|(?<=\.))[Aa]pp(?:\.|endix)?(?:\s+(?P<act>\d{1,2}))?\s*$")
_NUMBER_BEFORE = re.compile(r"(?:^|(?<=[\s(\[;,]))(?:[Tt]itle\s+)?(?P<title>\d+[A-Za-z]?)\s*$")
#: ``section 90.803(18), Florida Statutes``: a spelled-out section is a citation only with its code after it
_SPELLED_SECTION = re.compile(r"(?<![\w.])[Ss]ection\s+(?=\d)")
_TOKEN = re.compile(r"[^\s,;()\[\]]+")
_AFTER_COMMA = re.compile(r",\s*")
_BARE_YEAR = re.compile(r"\s+(?P<year>(?:19|20)\d\d)\b(?![-.:/]?\d)")
_SIGNALS = frozenset(
    "see also cf. compare contra accord but e.g. e.g., under and or to in of by from with via".split()
)
#: words that open a sentence of prose before a section (``As § 768.28 says``, ``Under § 1983, …``); any
#: other capitalised word before a ``§`` names what the section belongs to (``Restatement § 28``)
_OPENERS = _SIGNALS | frozenset(
    "as in if so thus here because while although since unlike like after before only pursuant section "
    "sections nor neither either both when where whether".split()
)
#: ``42 U.S.C. 1983``, ``29 CFR 1910.1200``, ``48 U.S.C. Section 2101``, ``40 C.F.R. Part 60``
_FEDERAL = re.compile(
    r"(?<![\w.])(?P<title>\d{1,3})\s*(?P<app>a|A)?\s+"
    r"(?P<code>U\.\s?S\.\s?C\.(?:\s?[AS]\.)?|U\.\s?S\.\s?C(?![\w.])|USCA?|USCS|C\.\s?F\.\s?R\.?|CFR)"
    r"(?P<appendix>\s+App\.)?\s*,?\s+(?:(?:[Ss]ec(?:tions?|s?\.))\s*|(?P<part>[Pp]arts?|[Pp]ts?\.)\s*)?(?=\d)"
)
#: ``KRS 446.070``, ``RCW 4.84.185``, ``N.J.S.A. 2C:11-3``, ``CPLR 3211(a)(7)``: a code name that needs no ``§``
_BARE = re.compile(
    r"(?<![\w.])(?P<code>KRS|K\.R\.S\.|RCW|ORS|MCLA?|M\.C\.L\.|NRS|N\.J\.S\.A\.|La\.\s?R\.\s?S\.|R\.C\.|CPLR|"
    r"N\.C\.G\.S\.|G\.S\.|O\.C\.G\.A\.|A\.R\.S\.)\s+(?=\d)"
)


#: ``Pub. L. No. 111-148, § 1101``, ``Pub. L. 107-150``: the law's number is the title, its section the section
#: (a law cited whole: the number is the section). eyecite's own pattern reads ``Pub. L. No. 77-352, 55
#: Stat. 808`` as section 55.
_PUBLIC_LAW = re.compile(
    r"(?<![\w.])(?:Pub\.\s*L\.|Public\s+Law|P\.\s?L\.)\s*(?:No\.\s*)?(?P<law>\d{1,3}-\d{1,5})"
    r"(?:,?\s*(?:§|[Ss]ec\.|[Ss]ection)\s*(?=\d))?"
)
PUBLIC_LAW = Code("Pub. L.", "United States")
#: ``55 Stat. 808``, ``48 Fed. Reg. 9871``: read here too, since eyecite's ``Pub. L.`` token swallows the
#: volume of a Statutes at Large cite written after it
_PAGED = re.compile(
    r"(?<![\w.])(?P<volume>\d{1,3})\s+(?P<code>Stat\.|Fed\.\s?Reg\.)\s+(?P<page>\d[\d,]*\d|\d)"
)


@dataclass(frozen=True, slots=True)
class StatuteMatch:
    """One statute citation in a paragraph: its core ``[start, end)`` (code through the last section,
    ``et seq.`` included) and ``after``, the end of its edition parenthetical (``end`` when none)."""

    start: int
    end: int
    after: int
    statute: Statute
    id_start: int | None = None  # where an ``Id.`` it swallowed starts (``Id. § 5``)


@dataclass(frozen=True, slots=True)
class LawToken:
    """An eyecite law token (``scan`` gives them): reporters-db's name and its regex groups."""

    start: int
    end: int
    law: str  # reporters-db's key ("U.S.C.", "Stat.", "Cal. Code")
    groups: tuple[tuple[str, str], ...]


def find_statutes(
    norm: str, text: str, laws: list[LawToken] | tuple[LawToken, ...] = ()
) -> list[StatuteMatch]:
    """Every statute or regulation citation in one normalised paragraph, in order.

    ``text`` is the paragraph as written (``norm`` normalised one for one): an en dash there tells a
    range (``§§ 101–105``) from a hyphenated section (``§ 22-2501``). Each reader below adds what the
    ones before it did not find; an overlap keeps the longer reading.
    """
    out: list[StatuteMatch] = []
    for reader in (_section_marks, _spelled, _federal, _bare, _state_rules, _public_laws, _paged):
        for m in reader(norm, text):
            if not _inside(out, m.start):
                out.append(m)
    for tok in laws:
        if tok.law != "Pub. L." and not any(o.start < tok.end and tok.start < o.end for o in out):
            got = _from_law_token(norm, text, tok)
            if got is not None:
                out.append(got)
    out.sort(key=lambda m: m.start)
    return _no_overlaps(out)


def _section_marks(norm: str, text: str) -> Iterator[StatuteMatch]:
    i = norm.find("§")
    while i >= 0:
        m = _at_section_mark(norm, text, i)
        if m is not None:
            yield m
            i = norm.find("§", max(m.end, i + 1))
        else:
            i = norm.find("§", i + 1 if not norm.startswith("§§", i) else i + 2)


def _spelled(norm: str, text: str) -> Iterator[StatuteMatch]:
    for sm in _SPELLED_SECTION.finditer(norm) if "ection" in norm else ():
        m = _sections(norm, text, sm.end(), sm.start(), StatuteForm.SHORT, None, None, None, "§")
        m = _with_code_after(norm, text, m) if m is not None else None
        if m is not None and m.statute.form is StatuteForm.FULL:
            yield m


def _federal(norm: str, text: str) -> Iterator[StatuteMatch]:
    for fm in _FEDERAL.finditer(norm):
        code = code_named(fm["code"])
        if code is not None:
            title = fm["title"] + ("a" if fm["app"] or fm["appendix"] else "")
            m = None
            if fm["part"] and code.code == "cfr":
                m = _cfr_parts(norm, text, fm, code, title)
            if m is None:
                m = _sections(
                    norm, text, fm.end(), fm.start(), StatuteForm.FULL, code, fm["code"], title, "§"
                )
            if m is not None:
                yield m


#: ``2 C.F.R. Part 200``, ``40 C.F.R. Parts 60 and 61``, ``pt. 200, app. II``, ``Part 404, Subpart P, Appendix 1``
#: (and the appendix's own ``§ 12.05C``): parts and appendices, never read as sections
_PART_NUMBER = re.compile(r"(?P<part>\d+[A-Za-z]?)(?![\w\-:/]|\.\w)")
_PART_LIST = re.compile(
    r"\s*(?:,\s*(?:and\s+|or\s+|&\s*)?|\s+(?:and|or|&)\s+)(?P<part>\d+[A-Za-z]?)(?![\w\-:/]|\.\w)"
)
_SUBPART = re.compile(
    r"\s*,?\s*(?:[Ss]ubpart|[Ss]ubpt\.)\s*(?P<subpart>[A-Z][A-Za-z]{0,2}(?:-\d+)?|\d+)(?!\w|\.\w)"
)
_PART_APPENDIX = re.compile(
    r"\s*,?\s*(?:[Aa]ppendix|[Aa]pp\.)\s*(?P<appendix>[IVX]+|[A-Z]{1,2}(?:-\d+)?|\d+)(?![\w])"
)
_APPENDIX_PIN = re.compile(rf"\s*,\s*§\s*(?P<pin>\d+(?:\.\d+)?[A-Za-z]?(?:{_SUB})*)")


def _cfr_parts(norm: str, text: str, fm: re.Match[str], code: Code, title: str) -> StatuteMatch | None:
    """A citation of C.F.R. parts (and a subpart or appendix of one) after ``Part``/``pt.``."""
    pm = _PART_NUMBER.match(norm, fm.end())
    if pm is None:
        return None
    end = pm.end()
    also: list[str] = []
    while fm["part"].lower().startswith(("parts", "pts")) and (lm := _PART_LIST.match(norm, end)) is not None:
        if _code_follows(norm, lm.end("part")):
            break
        also.append(lm["part"])
        end = lm.end()
    subpart = appendix = None
    pins: tuple[str, ...] = ()
    if not also and (sm := _SUBPART.match(norm, end)) is not None:
        subpart, end = sm["subpart"], sm.end()
    if not also and (am := _PART_APPENDIX.match(norm, end)) is not None:
        appendix, end = am["appendix"], am.end()
        if (pin := _APPENDIX_PIN.match(norm, end)) is not None:
            pins, end = (f"§ {pin['pin']}",), pin.end()
    statute = Statute(
        form=StatuteForm.FULL,
        code=code.code,
        code_text=" ".join(fm["code"].split()),
        jurisdiction=code.jurisdiction,
        regulation=code.regulation,
        title=title,
        section=pm["part"],
        also=tuple(also),
        subsections=pins,
        unit="appendix" if appendix else "subpart" if subpart else "part",
        subpart=subpart,
        appendix=appendix,
    )
    return _with_edition(norm, text, StatuteMatch(fm.start(), end, end, statute))


_SPACES = re.compile(r"\s+")


def _code_follows(norm: str, pos: int) -> bool:
    """A code's name right after ``pos``: the number before it is that code's title, not one more section
    of a list (``28 U.S.C. §§ 1331, 1343, and 29 C.F.R. pt. 825``)."""
    sp = _SPACES.match(norm, pos)
    if sp is None:
        return False
    s = sp.end()
    words = list(_TOKEN.finditer(norm, s, min(len(norm), s + 60)))
    for k in range(min(len(words), longest_name_words()), 0, -1):
        if code_named(norm[s : words[k - 1].end()]) is not None:
            return True
    return False


def _bare(norm: str, text: str) -> Iterator[StatuteMatch]:
    for bm in _BARE.finditer(norm):
        code = code_named(bm["code"])
        if code is not None:
            m = _sections(norm, text, bm.end(), bm.start(), StatuteForm.FULL, code, bm["code"], None, "§")
            if m is not None and _bare_section_ok(m.statute.section):
                yield m


#: state codes of rules cited without ``§`` (their own official styles): ``22 NYCRR 202.8-g``, ``2 CCR 18700``,
#: ``35 Ill. Adm. Code 302.208``, ``16 TAC 5.1``; ``N.J.A.C. 10:49-1.1``, ``Fla. Admin. Code R. 69O-186.013``
#: and ``Rule 64B8-9.003, F.A.C.``. Each is reported (not checked, naming the code), never dropped.
_RULES_TITLED = re.compile(
    r"(?<![\w.])(?P<title>\d{1,3})\s+(?P<code>NYCRR|N\.Y\.C\.R\.R\.|CCR|C\.C\.R\.|Cal\.\s?Code\s?Regs\.|"
    r"Ill\.\s?Adm(?:in)?\.\s?Code|TAC|T\.A\.C\.|Tex\.\s?Admin\.\s?Code|Pa\.\s?Code)"
    r"\s*,?\s+(?:(?:[Ss]ec(?:tion|\.)|[Rr]ule|[Rr]\.)\s*)?(?=\d)"
)
_RULES_UNTITLED = re.compile(
    r"(?<![\w.])(?P<code>N\.J\.A\.C\.|N\.J\.\s?Admin\.\s?Code|Fla\.\s?Admin\.\s?Code(?:\s?Ann\.)?|F\.A\.C\.)"
    r"\s*,?\s+(?:(?:[Rr]ule|[Rr]\.)\s*)?(?=\d)"
)
_RULE_WORD = re.compile(r"(?<![\w.])[Rr]ule\s+(?=\d)")


def _state_rules(norm: str, text: str) -> Iterator[StatuteMatch]:
    for rx in (_RULES_TITLED, _RULES_UNTITLED):
        for rm in rx.finditer(norm):
            code = code_named(rm["code"])
            if code is None:
                continue
            title = rm.groupdict().get("title")
            m = _sections(norm, text, rm.end(), rm.start(), StatuteForm.FULL, code, rm["code"], title, "§")
            if m is not None:
                yield m
    for wm in _RULE_WORD.finditer(norm) if "ule" in norm else ():  # "Rule 64B8-9.003, F.A.C."
        m = _sections(norm, text, wm.end(), wm.start(), StatuteForm.SHORT, None, None, None, "§")
        m = _with_code_after(norm, text, m) if m is not None else None
        if m is not None and m.statute.form is StatuteForm.FULL and m.statute.regulation:
            yield m


def _public_laws(norm: str, text: str) -> Iterator[StatuteMatch]:
    for pm in _PUBLIC_LAW.finditer(norm) if "L" in norm else ():
        yield _public_law(norm, text, pm)


def _paged(norm: str, text: str) -> Iterator[StatuteMatch]:
    for pm in _PAGED.finditer(norm) if "." in norm else ():
        code = code_named(pm["code"])
        if code is None:
            continue
        statute = Statute(
            form=StatuteForm.FULL,
            code=code.code,
            code_text=" ".join(pm["code"].split()),
            jurisdiction=code.jurisdiction,
            regulation=code.regulation,
            title=pm["volume"],
            section=pm["page"].replace(",", ""),
            paged=True,
        )
        yield _with_edition(norm, text, StatuteMatch(pm.start(), pm.end(), pm.end(), statute))


def _public_law(norm: str, text: str, pm: re.Match[str]) -> StatuteMatch:
    law = pm["law"]
    if pm.end() > pm.end("law"):  # a section follows
        m = _sections(norm, text, pm.end(), pm.start(), StatuteForm.FULL, PUBLIC_LAW, "Pub. L.", law, "§")
        if m is not None:
            return m
    statute = Statute(
        form=StatuteForm.FULL, code="Pub. L.", code_text="Pub. L.", jurisdiction="United States", section=law
    )
    return StatuteMatch(pm.start(), pm.end("law"), pm.end("law"), statute)


def _inside(found: list[StatuteMatch], pos: int) -> bool:
    return any(m.start <= pos < m.end for m in found)


def _no_overlaps(found: list[StatuteMatch]) -> list[StatuteMatch]:
    out: list[StatuteMatch] = []
    for m in found:
        if out and m.start < out[-1].end:
            if m.end - m.start > out[-1].end - out[-1].start:
                out[-1] = m
            continue
        out.append(m)
    return out


def _bare_section_ok(section: str) -> bool:
    """A section after a code name written without ``§`` looks like one (``446.070``, ``2C:11-3``,
    ``3211``): not a lone small number, which could be anything."""
    return any(ch in section for ch in ".:-/") or sum(ch.isdigit() for ch in section) >= 3


def _at_section_mark(norm: str, text: str, i: int) -> StatuteMatch | None:
    """The citation whose ``§`` (or ``§§``) is at ``i``, if its section follows and something before
    it makes it a statute citation (a code name, ``Id.``, or a place a short form can stand)."""
    marks = "§§" if norm.startswith("§§", i) else "§"
    j = i + len(marks)
    while j < len(norm) and norm[j] == " ":
        j += 1
    if j >= len(norm) or not norm[j].isdigit():
        return None
    head = _code_before(norm, i)
    if head is not None:
        start, code, written, title, act = head
        return _sections(norm, text, j, start, StatuteForm.FULL, code, written, title, marks, act=act)
    before = norm[max(0, i - 12) : i]
    idm = _ID_BEFORE.search(before)
    if idm is not None:
        start = i - len(before) + idm.start("id")
        m = _sections(norm, text, j, start, StatuteForm.ID, None, None, None, marks)
        return None if m is None else StatuteMatch(m.start, m.end, m.after, m.statute, id_start=start)
    m = _sections(norm, text, j, i, StatuteForm.SHORT, None, None, None, marks)
    if m is None:
        return None
    full = _with_code_after(norm, text, m)
    if full.statute.form is StatuteForm.FULL:
        return full  # Florida's "§ 768.28(9)(a), Fla. Stat. (2020)", Colorado's "§ 18-3-102, C.R.S."
    return m if _short_form_may_stand(norm, i) else None


def _with_code_after(norm: str, text: str, m: StatuteMatch) -> StatuteMatch:
    """``m`` made a full citation when a code name follows its sections after a comma (the style of
    Florida, Colorado and others: ``§ 768.28, Fla. Stat. (2020)``, ``§ 18-3-102, C.R.S. 2020``)."""
    cm = _AFTER_COMMA.match(norm, m.end)
    if cm is None:
        return m
    s = cm.end()
    words = list(_TOKEN.finditer(norm, s, min(len(norm), s + 80)))
    for k in range(min(len(words), longest_name_words()), 0, -1):
        if any(words[x + 1].start() - words[x].end() != 1 for x in range(k - 1)):
            continue  # a name is written with single spaces
        end = words[k - 1].end()
        code = code_named(norm[s:end])
        if code is None:
            continue
        statute = replace(
            m.statute,
            form=StatuteForm.FULL,
            code=code.code,
            code_text=" ".join(norm[s:end].split()),
            jurisdiction=code.jurisdiction,
            regulation=code.regulation,
        )
        full = _with_edition(norm, text, StatuteMatch(m.start, end, end, statute))
        if full.after == end and (y := _BARE_YEAR.match(norm, end)) is not None:
            year = int(y["year"])
            full = StatuteMatch(m.start, end, y.end(), replace(statute, edition=y["year"], year=year))
        return full
    return m


def _short_form_may_stand(norm: str, i: int) -> bool:
    k = _back_over_spaces(norm, i)
    if k == 0 or norm[k - 1] in "(;:[\"'":
        return True
    if norm[k - 1] == ",":
        k = _back_over_spaces(norm, k - 1)
        word = norm[_word_start(norm, k) : k]
        return bool(word) and word[0].islower()
    w = _word_start(norm, k)
    word = norm[w:k].lstrip("(\"'[")
    if not word:
        return True
    if word[0].islower() or word.lower() in _SIGNALS:
        return True
    if word[-1] in ".?!" and any(ch.isdigit() for ch in word):
        return True  # "… 42 U.S.C. § 1983. § 1985 provides": a sentence ending in a number
    # a word that opens sentences of prose ("As § 768.28 says") is prose; any other name owns the section
    b = _back_over_spaces(norm, w)
    return (b == 0 or norm[b - 1] in '.?!:;("') and word.lower() in _OPENERS


def _back_over_spaces(norm: str, k: int) -> int:
    while k > 0 and norm[k - 1] == " ":
        k -= 1
    return k


def _word_start(norm: str, k: int) -> int:
    """Where the word of non-space characters ending at ``k`` starts."""
    while k > 0 and not norm[k - 1].isspace():
        k -= 1
    return k


def _code_before(norm: str, i: int) -> tuple[int, Code, str, str | None, str | None] | None:
    """``(start, code, name as written, title, appendix act)`` of the code named right before the ``§``
    at ``i`` (the act: ``3`` of ``5 U.S.C. App. 3 §``)."""
    lo = max(0, i - 120)
    seg = norm[lo:i].rstrip()
    if seg.endswith(","):
        seg = seg[:-1].rstrip()
    title: str | None = None
    tm = _TITLE_BEFORE.search(seg)
    if tm is not None:
        title = tm["title"]
        seg = seg[: tm.start()].rstrip().rstrip(",").rstrip()
    appendix = _APPENDIX.search(seg)
    if appendix is not None:
        seg = seg[: appendix.start()]
    found = _named_code(seg)
    if found is None or found[1].paged:  # "Stat. §" is no session law: volume and page cite those
        return None
    start, code, written = found
    if code.numbered and title is None:
        nm = _NUMBER_BEFORE.search(seg, 0, start)
        if nm is not None and seg[nm.end() : start].strip() == "":
            title, start = nm["title"], nm.start()
            if seg[start:].lower().startswith("title"):
                start = nm.start("title")
    act = None
    if appendix is not None and title is not None and title.isdigit():
        title += "a"
        act = appendix["act"]
    return lo + start, code, written, title, act


def _named_code(seg: str) -> tuple[int, Code, str] | None:
    """``(start in seg, code, name)`` of a code name ending ``seg``, the longest known one."""
    for pattern, jurisdiction in SUBJECT_CODES:
        sm = pattern.search(seg)
        if sm is not None:
            written = " ".join(sm.group().split())
            known = code_named(written)  # "Tex. Admin. Code" is a code of rules, no subject-named code
            return sm.start(), known or Code(subject_code_name(written), jurisdiction), written
    starts = [m.start() for m in re.finditer(r"\S+", seg)]
    for k in range(min(len(starts), longest_name_words()), 0, -1):
        s = starts[-k]
        while s < len(seg) and seg[s] in "([\"'":
            s += 1
        written = seg[s:]
        code = code_named(written) if written else None
        if code is not None:
            return s, code, " ".join(written.split())
    return None


_INITIALS = re.compile(r"\b([A-Z])\.\s+(?=[A-Z]\.)")
_ANNOTATED = re.compile(r"^(N\.Y\..*Law)\s+Ann\.$")


def subject_code_name(written: str) -> str:
    """A subject-named code as ``StatuteKey.code``: initials closed up, New York's "Ann." (McKinney's
    annotated edition) dropped, so ``N. Y. Gen. Bus. Law Ann.`` and ``N.Y. Gen. Bus. Law`` are one code;
    Texas's given the "Ann." the Bluebook writes, so ``Tex. Fam. Code`` and ``Texas Family Code`` are
    ``Tex. Fam. Code Ann.`` (issue 41).

    >>> subject_code_name("N. Y. Gen. Bus. Law Ann.")
    'N.Y. Gen. Bus. Law'
    """
    name = _INITIALS.sub(r"\1.", " ".join(written.split()))
    if name.startswith("Tex.") and name.endswith(" Code"):
        return name + " Ann."  # Texas's codes as the Bluebook names them (T1): "Tex. Fam. Code Ann."
    return _ANNOTATED.sub(r"\1", name)


def _sections(
    norm: str,
    text: str,
    j: int,
    start: int,
    form: StatuteForm,
    code: Code | None,
    written: str | None,
    title: str | None,
    marks: str,
    *,
    act: str | None = None,
) -> StatuteMatch | None:
    """Parse the sections from ``j`` (a digit) on; the citation starts at ``start``."""
    sm = _SECTION_AT.match(norm, j)
    if sm is None or _ORDINAL.fullmatch(sm["section"]):
        return None
    section, end = _wrapped(norm, text, sm["section"], sm.end("section"))
    run = _SUBS_RUN.match(norm, end)
    subs = tuple(_SUBS.findall(run.group())) if run is not None else ()
    if subs and run is not None:
        end = run.end()
    subd = _SUBD.match(norm, end)
    if subd is not None and not subs:
        subs = tuple(_SUBS.findall(subd["subs"]))
        end = subd.end()
    last: str | None = None
    federal = code is not None and code.code in ("usc", "cfr")
    rng = _cfr_range(section) if code is not None and code.code == "cfr" else None
    rng = rng or _split_range(section, text, sm.start("section"), federal_list=federal and marks == "§§")
    if rng is not None:
        section, last = rng
    also: list[str] = []
    if marks == "§§" or federal:
        last, end = _more_sections(norm, text, end, marks, bool(subs), last, also)
    et_seq = False
    em = _ET_SEQ.match(norm, end)
    if em is not None:
        et_seq, end = True, em.end()
    edition, year, after = _edition(norm, text, end)
    statute = Statute(
        form=form,
        code=None if code is None else code.code,
        code_text=written,
        jurisdiction=None if code is None else code.jurisdiction,
        regulation=False if code is None else code.regulation,
        title=title,
        section=section,
        subsections=subs,
        last_section=last,
        also=tuple(also),
        et_seq=et_seq,
        edition=edition,
        year=year,
        act=act,
    )
    return StatuteMatch(start, end, after, statute)


def _wrapped(norm: str, text: str, section: str, end: int) -> tuple[str, int]:
    """A section number and where it ends, run on past a line break after one of its dashes
    (``24-34-⏎306`` is ``24-34-306``); as it stands when no line break cuts it there."""
    m = _WRAPPED_REST.match(norm, end)
    if m is None or not any(ch in "\n\r\f\v" for ch in text[end : m.start("rest")]):
        return section, end
    return f"{section}-{m['rest']}", m.end("rest")


def _subs_end(norm: str, at: int) -> int:
    """Where the subsections from ``at`` on end (``at`` when there are none)."""
    m = _SUBS_RUN.match(norm, at)
    return at if m is None else m.end()


def _more_sections(
    norm: str, text: str, end: int, marks: str, subs: bool, last: str | None, also: list[str]
) -> tuple[str | None, int]:
    """After the first section of ``§§`` (or of a federal code): a range's end (``§§ 1331–1332``), more
    sections of the list (appended to ``also``), and listed subsections (``(a), (b)``); the range's last
    section and where the sections end."""
    while True:
        rm = _RANGE.match(norm, end) if marks == "§§" and last is None and not also else None
        if rm is not None and not _code_follows(norm, rm.end("section")):
            last, end = rm["section"], rm.end()
            continue
        lm = _LIST_ITEM.match(norm, end) if marks == "§§" else None
        if lm is not None and not _code_follows(norm, lm.end("section")):
            item, item_end = _wrapped(norm, text, lm["section"], lm.end("section"))
            also.append(item)
            end = lm.end() if item_end == lm.end("section") else _subs_end(norm, item_end)
            continue
        sl = _SUB_LIST_ITEM.match(norm, end)
        if sl is not None and (marks == "§§" or subs):
            end = sl.end()
            continue
        return last, end


def _edition(norm: str, text: str, end: int) -> tuple[str | None, int | None, int]:
    """The edition parenthetical after the sections (``(2018)``, ``(West 2020)``) as written, its year, and
    where the citation's text ends (``end`` when there is none)."""
    ed = _EDITION.match(norm, end)
    if ed is not None and (y := _YEAR.search(ed["edition"])) is not None:
        return " ".join(text[ed.start("edition") : ed.end("edition")].split()), int(y.group()), ed.end()
    return None, None, end


_RANGE_END = re.compile(r"(\d+)([A-Za-z]{0,3})")


#: ``200.317-200.327``: two sections of one C.F.R. part joined by a dash are a range (a C.F.R. section's own
#: hyphen is never followed by its part and a dot: ``240.10b-5``, ``1.401(a)(9)-9``, ``301.7701-2``)
_CFR_SECTION_RANGE = re.compile(r"(?P<a>(?P<part>\d+[A-Za-z]?)\.[0-9A-Za-z]+)-(?P<b>(?P=part)\.[0-9A-Za-z]+)")


def _cfr_range(section: str) -> tuple[str, str] | None:
    m = _CFR_SECTION_RANGE.fullmatch(section)
    return (m["a"], m["b"]) if m is not None else None


_DECIMAL_END = re.compile(r"(?P<chapter>\d+[A-Z]?)\.(?P<rest>\d+)")


def _split_range(section: str, text: str, at: int, *, federal_list: bool = False) -> tuple[str, str] | None:
    """``1331–1332`` read as one hyphenated section is a range when both ends are numbers of as many
    digits, rising, and the text has a dash that is not a hyphen there or no hyphenated section
    could have that shape (``101-105``); ``22-2501`` and ``9-506`` stay sections. Either end may
    carry letters (``1981a–1983``, ``1679-1679j``); a plain section of three digits or more may end a
    range by its last digits (``1961-68`` is 1961 to 1968); ``2000e-16a``, ``2000e-16``, ``300ff-111``
    and ``31-1`` stay sections. After ``§§`` in the U.S. Code or the C.F.R. (``federal_list``) two rising
    numbers are a range whatever their lengths (``9 U.S.C. §§ 1-16``): no section of either is written so."""
    parts = section.split("-")
    if len(parts) != 2:
        return None
    a, b = parts
    dash = text[at + len(a)] if at + len(a) < len(text) else "-"
    if dash != "-" and _chapter_range(a, b):
        return a, b
    ends = _RANGE_END.fullmatch(a), _RANGE_END.fullmatch(b)
    if ends[0] is None or ends[1] is None:
        return None
    (na, la), (nb, lb) = ends[0].groups(), ends[1].groups()
    if federal_list and not la and not lb and int(nb) > int(na) and len(nb) >= len(na):
        return a, b
    if len(na) < 3 and dash == "-":
        return None  # "§ 12-15" is as likely a hyphenated section as a range
    return _rising(a, b, (na, la), (nb, lb))


def _rising(a: str, b: str, low: tuple[str, str], high: tuple[str, str]) -> tuple[str, str] | None:
    """``a``–``b`` as a range when its ends (number, letters) rise; the high end may be written by its last
    digits (``1961-68``)."""
    (na, la), (nb, lb) = low, high
    if len(nb) < len(na) and not la and not lb:
        full = na[: len(na) - len(nb)] + nb  # "1961-68": the end written by its last digits
        return (a, full) if int(full) > int(na) else None
    if len(na) != len(nb):
        return None
    if int(nb) > int(na) or (nb == na and lb > la):
        return a, b
    return None


def _chapter_range(a: str, b: str) -> bool:
    """``74.101–74.106`` (Texas, Washington: chapter.section): a range within one chapter, rising, when
    written with a dash that is no hyphen."""
    low, high = _DECIMAL_END.fullmatch(a), _DECIMAL_END.fullmatch(b)
    if not low or not high or low["chapter"] != high["chapter"]:
        return False
    return len(low["rest"]) == len(high["rest"]) and high["rest"] > low["rest"]


#: eyecite groups that hold a law token's title / section, by preference
_TITLE_GROUPS = ("title", "chapter", "volume", "year")
_SECTION_GROUPS = ("section", "page", "rule", "article", "reg", "law", "number", "act")


def _from_law_token(norm: str, text: str, tok: LawToken) -> StatuteMatch | None:
    """A statute citation from an eyecite law token the ``§`` reading did not find."""
    groups = dict(tok.groups)
    name = groups.get("reporter") or tok.law
    subject = groups.get("subject")
    if subject and subject not in name:  # "N. Y." + "Gen. Bus. Law Ann.": the subject names the code
        written = " ".join(f"{name} {subject}".split())
        known = code_named(tok.law)
        jurisdiction = known.jurisdiction if known is not None else ""
        m = _law_token_match(tok, groups, Code(subject_code_name(written), jurisdiction), written)
        return None if m is None else _with_edition(norm, text, m)
    code = code_named(tok.law) if tok.law not in ("Cal. Code", "N.Y. Law", "Tex. Code Ann.") else None
    if code is None:
        code = code_named(name)
    if code is None:
        for pattern, jurisdiction in SUBJECT_CODES:
            if pattern.fullmatch(name):
                written = " ".join(name.split())
                code = Code(subject_code_name(written), jurisdiction)
                break
    if code is None:
        return None
    m = _law_token_match(tok, groups, code, " ".join(name.split()))
    return None if m is None else _with_edition(norm, text, m)


def _law_token_match(tok: LawToken, groups: dict[str, str], code: Code, written: str) -> StatuteMatch | None:
    title = next((groups[g] for g in _TITLE_GROUPS if groups.get(g)), None)
    section = next((groups[g] for g in _SECTION_GROUPS if groups.get(g)), None)
    if section is None:
        return None
    statute = Statute(
        form=StatuteForm.FULL,
        code=code.code,
        code_text=written,
        jurisdiction=code.jurisdiction,
        regulation=code.regulation,
        title=title,
        section=section.replace(",", ""),
        paged=code.paged,
    )
    return StatuteMatch(tok.start, tok.end, tok.end, statute)


def _with_edition(norm: str, text: str, m: StatuteMatch) -> StatuteMatch:
    """``m`` with the edition parenthetical right after it (``(1941)``, ``(West 2016)``), if any."""
    ed = _EDITION.match(norm, m.end)
    if ed is None or (y := _YEAR.search(ed["edition"])) is None:
        return m
    edition = " ".join(text[ed.start("edition") : ed.end("edition")].split())
    return StatuteMatch(
        m.start, m.end, ed.end(), replace(m.statute, edition=edition, year=int(y.group())), m.id_start
    )
