"""Our citation records: plain frozen values, safe to cache, serialise and send to clients.

eyecite's objects never leave ``extract/tokenizer.py``. Every span here is a code-point
offset into the ORIGINAL document text (not a cleaned copy).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import StrEnum

from citecheck.spans import Span


class CiteForm(StrEnum):
    FULL = "full"  # Roe v. Wade, 410 U.S. 113, 116 (1973)
    SHORT = "short"  # Roe, 410 U.S. at 116
    ID = "id"  # Id. at 116
    SUPRA = "supra"  # Roe, supra, at 116
    REFERENCE = "reference"  # Roe at 116
    UNRECOGNISED = "unrecognised"  # 33 Umbrella 422: citation-shaped, reporter unknown
    STATUTE = (
        "statute"  # 42 U.S.C. § 1983, 17 C.F.R. § 240.10b-5, § 1983, Id. § 1331(a): ``Citation.statute``
    )


class Database(StrEnum):
    """Electronic databases whose cites we recognise but cannot verify from reporters."""

    WESTLAW = "WL"
    LEXIS = "LEXIS"


class StatuteForm(StrEnum):
    """How a statute or regulation citation is written (``CiteForm.STATUTE`` covers all three)."""

    FULL = "full"  # 42 U.S.C. § 1983(a): the code (and title) written out
    SHORT = "short"  # § 1983(a): the code is that of the earlier full citation of the same section
    ID = "id"  # Id. § 1331(a): the code and title of the authority cited just before


#: Display names of the codes whose ``StatuteKey.code`` is an id rather than reporters-db's name.
CODE_NAMES: dict[str, str] = {"usc": "U.S.C.", "cfr": "C.F.R."}


@dataclass(frozen=True, slots=True, order=True)
class StatuteKey:
    """What a statute index looks one section up by: the code, the title in it, the section.

    ``code`` is ``"usc"`` (the United States Code), ``"cfr"`` (the Code of Federal Regulations), or
    the name reporters-db gives a code (``"Fla. Stat."``, ``"Ky. Rev. Stat. Ann."``,
    ``"Cal. Civ. Proc. Code"``; session laws and registers by volume and page: ``"Stat."`` 55/808,
    ``"Fed. Reg."``, ``"Pub. L."`` with the law's number as title). ``title`` is the title, chapter or
    volume the code is divided by where the citation names one (``None`` for ``Fla. Stat. § 768.28``);
    ``section`` is the section without subsections (``"1983"``, ``"240.10b-5"``, ``"2000e-2"``), with
    dashes as hyphens and no spaces (``statute_key`` makes one).

    ``act`` is the act of a U.S. Code appendix the citation names by its number (``"3"`` in ``5 U.S.C.
    App. 3 § 4``: acts in one appendix share section numbers). ``unit`` says what is cited when it is
    not a section: ``"part"`` (``section`` is the part: ``2 C.F.R. pt. 200``), ``"subpart"`` (``"404:p"``)
    or ``"appendix"`` (``"200:ii"``, appendix II to part 200): looked up as such, never as a section.

    >>> str(StatuteKey("usc", "42", "1983"))
    '42 U.S.C. § 1983'
    >>> str(StatuteKey("Fla. Stat.", None, "768.28"))
    'Fla. Stat. § 768.28'
    >>> str(StatuteKey("usc", "18a", "4", act="3")), str(StatuteKey("cfr", "2", "200:ii", unit="appendix"))
    ('18 U.S.C. App. 3 § 4', '2 C.F.R. pt. 200, app. II')
    """

    code: str
    title: str | None
    section: str
    act: str | None = None
    unit: str = ""

    def __str__(self) -> str:
        name = CODE_NAMES.get(self.code, self.code)
        title = self.title
        if self.code == "usc" and title and title[-1:] == "a" and title[:-1].isdigit():
            title = f"{title[:-1]}"
            name = f"{name} App." + (f" {self.act}" if self.act else "")
        if self.unit:
            return (
                f"{title} {name} {unit_text(self.unit, self.section)}" if title else f"{name} {self.section}"
            )
        return f"{title} {name} § {self.section}" if title else f"{name} § {self.section}"


def unit_text(unit: str, number: str) -> str:
    """A part, subpart or appendix as a citation writes it: ``pt. 200``, ``pt. 404, subpt. P``,
    ``pt. 200, app. II`` (``number`` as ``StatuteKey.section`` holds it: ``"404:p"``).

    >>> unit_text("appendix", "404:1")
    'pt. 404, app. 1'
    """
    part, _, rest = number.partition(":")
    if unit == "part" or not rest:
        return f"pt. {part}"
    word = "subpt." if unit == "subpart" else "app."
    return f"pt. {part}, {word} {rest.upper()}"


_SECTION_DASHES = str.maketrans({c: "-" for c in "\u2010\u2011\u2012\u2013\u2014\u2015\u2212"})


def normalise_section(section: str) -> str:
    """A section number as an index keys it: dashes as hyphens, no spaces, no trailing punctuation.

    >>> normalise_section(" 240.10b\u20135 ")
    '240.10b-5'
    """
    return "".join(section.translate(_SECTION_DASHES).split()).rstrip(".,;:-")


def statute_key(
    code: str, title: str | None, section: str, *, act: str | None = None, unit: str = ""
) -> StatuteKey:
    """``StatuteKey`` with the title's leading zeros and the section's spelling normalised.

    >>> statute_key("usc", "042", "2000e\u20132")
    StatuteKey(code='usc', title='42', section='2000e-2', act=None, unit='')
    """
    t = title.strip() if title else None
    if t and t.isdigit():
        t = str(int(t))
    number = normalise_section(section).lower() if unit else normalise_section(section)
    return StatuteKey(code, t or None, number, act or None, unit)


@dataclass(frozen=True, slots=True, kw_only=True)
class Statute:
    """What a ``CiteForm.STATUTE`` citation cites: code, title, section(s), subsections, edition.

    A full citation names its code (``42 U.S.C. §§ 1331–1332``, ``Fla. Stat. § 768.28(9)(a) (2020)``);
    a short form (``§ 1983``, ``Id. § 1331(a)``) leaves ``code`` and ``title`` None and takes them from
    the full citation it resolves to (``Extraction.statute_of``). ``subsections`` are the pin into the
    first section (``("(a)", "(1)")``); ``last_section`` ends a range (``§§ 101–105``); ``also`` lists
    further sections (``§§ 1331, 1332``); ``edition`` is the code's edition parenthetical as written
    (``West 2016``, ``2012 Repl.``). ``act`` is a U.S. Code appendix's act number (``5 U.S.C. App. 3 § 4``).
    A citation of a C.F.R. part, subpart or appendix (``2 C.F.R. pt. 200, app. II``) has ``unit`` set
    (``"part"``, ``"subpart"``, ``"appendix"``), the part in ``section`` (further parts in ``also``) and
    the ``subpart`` / ``appendix`` it names.
    """

    form: StatuteForm
    code: str | None  # see ``StatuteKey.code``; None: a short form (the code is its antecedent's)
    code_text: str | None = None  # as written: "U.S.C.A.", "Fla. Stat.", "D.C.Code"
    jurisdiction: str | None = None  # "United States", "Florida" (reporters-db's jurisdiction)
    regulation: bool = False  # a regulation (C.F.R., a state administrative code), not a statute
    title: str | None = None
    section: str
    subsections: tuple[str, ...] = ()
    last_section: str | None = None
    also: tuple[str, ...] = ()
    et_seq: bool = False
    edition: str | None = None
    year: int | None = None
    paged: bool = False  # cited by volume and page, not section: session laws, registers ("55 Stat. 808")
    act: str | None = None  # a U.S. Code appendix's act number ("3" in "5 U.S.C. App. 3 § 4")
    unit: str = ""  # "part" / "subpart" / "appendix": what is cited when it is no section
    subpart: str | None = None
    appendix: str | None = None
    #: what kind of authority when it is no code's section: ``"constitution"`` (``title`` the article or
    #: amendment, ``art. I`` / ``amend. XIV``; ``section`` its section, "" when none; clauses in
    #: ``subsections``), ``"session law"`` (``title`` the year, ``chapter`` the chapter: ``2020 Mass. Acts
    #: ch. 65, § 3(b)``), ``"act"`` (a named act's section, ``act_name`` § ``act_section``, classified to the
    #: U.S. Code section in ``code``/``title``/``section`` where OLRC's tables say where it is), ``"chapter"``
    #: (a code's whole chapter: ``chapter 7.105 RCW``, the chapter in ``section``), ``"title"`` (``Title 51 RCW``)
    kind: str = ""
    chapter: str | None = None
    act_name: str | None = None
    act_section: str | None = None

    @property
    def name(self) -> str | None:
        """The code's display name ("U.S.C.", "C.F.R.", "Fla. Stat."), None for a short form."""
        return None if self.code is None else CODE_NAMES.get(self.code, self.code)

    @property
    def key(self) -> StatuteKey | None:
        """The first section's key (None for a short form: ``Extraction.statute_of`` fills the code in)."""
        return None if self.code is None else self._key(self.section)

    def _key(self, number: str) -> StatuteKey:
        assert self.code is not None
        if self.kind == "session law":  # one year's laws hold many chapters: "2021, ch. 215"
            return statute_key(self.code, f"{self.title}, ch. {self.chapter}", number)
        if self.kind in ("chapter", "title"):
            return statute_key(self.code, f"{self.kind} {number}", "")
        if self.unit == "appendix" and self.appendix:
            return statute_key(self.code, self.title, f"{number}:{self.appendix}", unit="appendix")
        if self.unit == "subpart" and self.subpart:
            return statute_key(self.code, self.title, f"{number}:{self.subpart}", unit="subpart")
        if self.unit:
            return statute_key(self.code, self.title, number, unit="part")
        return statute_key(self.code, self.title, number, act=self.act)

    def keys(self) -> tuple[StatuteKey, ...]:
        """Every section named: the first, those listed, the end of a range (not what lies inside it)."""
        if self.code is None:
            return ()
        sections = (self.section, *self.also, *((self.last_section,) if self.last_section else ()))
        return tuple(dict.fromkeys(self._key(s) for s in sections))

    def __str__(self) -> str:
        """The citation in a canonical form: ``42 U.S.C. § 1983(a)``, ``§§ 101–105``, ``et seq.``"""
        if self.kind:
            return _kind_text(self)
        if self.code == "Pub. L.":
            return (
                f"Pub. L. No. {self.title}, § {self.section}" if self.title else f"Pub. L. No. {self.section}"
            )
        if self.paged:
            return f"{self.title} {self.name} {self.section}" if self.title else f"{self.name} {self.section}"
        if self.unit:
            return self._unit_text()
        marks = "§§" if (self.also or self.last_section) else "§"
        sections = self.section + "".join(self.subsections)
        if self.also:
            sections = ", ".join((sections, *self.also))
        if self.last_section:
            sections += f"\u2013{self.last_section}"
        return f"{self._head()}{marks} {sections}" + (" et seq." if self.et_seq else "")

    def _head(self) -> str:
        title, name = self.title, self.name
        if self.code == "usc" and title and title[-1:] == "a" and title[:-1].isdigit():
            title, name = title[:-1], f"{name} App." + (f" {self.act}" if self.act else "")
        return f"{title} {name} " if title and name else f"{name} " if name else ""

    def _unit_text(self) -> str:
        """``2 C.F.R. pt. 200``, ``pts. 60, 61``, ``20 C.F.R. pt. 404, subpt. P, app. 1``."""
        parts = ", ".join((self.section, *self.also))
        out = f"{self._head()}{'pts.' if self.also else 'pt.'} {parts}"
        if self.subpart:
            out += f", subpt. {self.subpart}"
        if self.appendix:
            out += f", app. {self.appendix}"
        return out + "".join(f", {s}" for s in self.subsections)


def _kind_text(s: Statute) -> str:
    """A constitution's provision, a session law, a named act's section or a code's chapter in its
    normal form: ``U.S. Const. art. I, § 9, cl. 3``, ``2020 Mass. Acts ch. 65, § 3(b)``, ``Sherman Act § 1
    (15 U.S.C. § 1)``, ``Wash. Rev. Code ch. 7.105``."""
    subs = "".join(s.subsections)
    if s.kind == "constitution":
        out = f"{s.name or 'Const.'} {s.title}" if s.title else f"{s.name or 'Const.'}"
        if s.section:
            out += f", § {s.section}"
        return out + "".join(f", {c}" for c in s.subsections)
    if s.kind == "session law":
        head = f"{s.title} {s.name}" if s.title else f"{s.name}"
        out = f"{head} ch. {s.chapter}" if s.chapter else head
        return out + (f", § {s.section}{subs}" if s.section else "")
    if s.kind == "chapter":
        return f"{s.name} ch. {s.section}"
    if s.kind == "title":
        return f"{s.name} tit. {s.section}"
    if s.kind == "act":
        act = f"{s.act_name} § {s.act_section}" if s.act_section else f"{s.act_name}"
        if s.code is None or s.code == "act":
            return act
        inner = replace(s, kind="", act_name=None, act_section=None)
        return f"{act} ({inner})"
    return f"{s.name} § {s.section}{subs}"


@dataclass(frozen=True, slots=True, kw_only=True)
class PinPage:
    """One element of a pin cite: a page or page range, maybe a footnote, maybe a star page.

    ``352–53`` gives ``first="352", last="353"`` (the short end expanded); ``3 n.6`` gives
    ``first="3", footnote="6"``; ``*3`` gives ``first="3", star=True``.
    """

    first: str
    last: str | None = None
    footnote: str | None = None
    star: bool = False
    span: Span

    def pages(self) -> tuple[str, ...]:
        """Every page the element names (``352–55`` → 352..355), numeric pages only."""
        if self.last is None or not (self.first.isdigit() and self.last.isdigit()):
            return (self.first,)
        lo, hi = int(self.first), int(self.last)
        if hi < lo or hi - lo > 200:
            return (self.first, self.last)
        return tuple(str(p) for p in range(lo, hi + 1))


@dataclass(frozen=True, slots=True, kw_only=True)
class Pincite:
    text: str
    span: Span
    parts: tuple[PinPage, ...]
    malformed: str | None = None  # why it could not be parsed, if it could not


@dataclass(frozen=True, slots=True, kw_only=True)
class CaseName:
    """The case name as written, cleaned of markup (``*Mata v. Avianca, Inc.*`` → ``Mata v. Avianca, Inc.``)."""

    text: str
    span: Span
    plaintiff: str | None = None
    defendant: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class Parenthetical:
    text: str  # without the outer parentheses
    span: Span  # including the parentheses


@dataclass(frozen=True, slots=True, kw_only=True)
class Quote:
    text: str  # without the quotation marks; inner quotes kept as written
    span: Span  # of the text between the marks
    block: bool = False


@dataclass(frozen=True, slots=True, kw_only=True)
class Citation:
    """One cited authority at one place in the document.

    ``index`` is the position in document order in the extraction's list. A short form has
    ``antecedent`` = the index of the FULL citation it resolves to (``None`` if unresolved).
    Full citations that are parallel cites of one case share a ``group`` (the index of the first
    of them); a lone full citation has ``group == index``.
    """

    index: int
    form: CiteForm
    span: Span  # the citation core: "410 U.S. 113", "Id. at 5", "Roe, 410 U.S. at 116", "33 Umbrella 422"
    full_span: Span  # from case name (if any) through the last parenthetical / history
    text: str  # span.of(document), less any Markdown emphasis markers inside it ("Stoltz*, ..." → "Stoltz, ...")
    volume: str | None = None
    reporter: str | None = None  # normalised through reporters-db ("F. Supp. 3d"), or as written if unknown
    reporter_as_written: str | None = None
    page: str | None = None  # first page (None for "585 U.S. ___")
    database: Database | None = None  # WL / LEXIS cites
    foreign: str | None = None  # "Canadian neutral", "UK neutral", …: outside what citecheck verifies
    #: who decided it, for an agency's decision series ("National Labor Relations Board": ``361 NLRB No. 137``,
    #: ``7 F.C.C.R. 8752``): reported as an agency decision, never looked up as a case (extract/agency.py)
    agency: str | None = None
    #: an entry of the document's own table of authorities (a dot leader and pages follow it):
    #: ``extract/tables.py`` links it to its uses in the body, where the checks speak for it
    listed: bool = False
    case_name: CaseName | None = None
    pincite: Pincite | None = None
    court: str | None = None  # courts-db id ("ca3", "scotus")
    court_text: str | None = None  # as written in the parenthetical ("3d Cir.")
    year: int | None = None
    date: str | None = None  # ISO date when a full date is given
    date_span: Span | None = None  # the court/date parenthetical, parentheses included
    parentheticals: tuple[Parenthetical, ...] = ()  # explanatory ones
    history: tuple[str, ...] = ()  # subsequent history phrases ("aff'd, 391 F.3d 250")
    quotes: tuple[Quote, ...] = ()
    proposition: str | None = None
    proposition_span: Span | None = None
    group: int | None = None
    antecedent: int | None = None
    antecedent_text: str | None = None  # "Roe" in "Roe, supra"
    paragraph: int = 0  # index of the paragraph it was found in
    statute: Statute | None = None  # what a ``CiteForm.STATUTE`` citation cites (None for every other form)

    @property
    def key(self) -> tuple[str, str, str] | None:
        """``(volume, reporter, page)`` for full reporter cites; what sources look up."""
        if self.form is CiteForm.FULL and self.volume and self.reporter and self.page:
            return (self.volume, self.reporter, self.page)
        return None

    @property
    def cite_string(self) -> str | None:
        """The bare citation string, the only thing that may leave the machine."""
        if self.volume and self.reporter and self.page:
            return f"{self.volume} {self.reporter} {self.page}"
        return None

    def __repr__(self) -> str:
        return f"Citation({self.index}, {self.form.value}, {self.text!r})"


@dataclass(frozen=True, slots=True, kw_only=True)
class Extraction:
    """The result of extracting one document.

    Besides ``citations``, the questions the checks and the edges ask of it (``citation``,
    ``touching``, ``earlier_full_cites``, ``citation_count``): an incremental document's extraction
    (``extract/incremental/view.py``) answers them building only the paragraphs it looks at."""

    text: str
    citations: tuple[Citation, ...]

    @property
    def citation_count(self) -> int:
        return len(self.citations)

    def citation(self, index: int) -> Citation:
        """``citations[index]``."""
        return self.citations[index]

    def touching(self, start: int, end: int) -> list[Citation]:
        """Citations whose full span touches ``[start, end]``, in order."""
        return [c for c in self.citations if c.full_span.start <= end and start <= c.full_span.end]

    def earlier_full_cites(self, index: int, volume: str | None, reporter: str | None) -> list[str]:
        """``"volume reporter page"`` of each FULL citation before ``index`` from that volume."""
        return [
            f"{f.volume} {f.reporter} {f.page}"
            for f in _fulls_of_volume(self.citations, volume, reporter)
            if f.index < index
        ]

    def at(self, offset: int) -> Citation | None:
        """The citation whose full span contains ``offset`` (innermost core span preferred)."""
        best: Citation | None = None
        for c in self.citations:
            if c.full_span.start <= offset <= c.full_span.end:
                if best is None or len(c.full_span) < len(best.full_span):
                    best = c
        return best

    def resolved(self, citation: Citation) -> Citation | None:
        """The full citation a citation stands for (itself when full)."""
        if citation.form is CiteForm.FULL:
            return citation
        if citation.antecedent is None:
            return None
        return self.citations[citation.antecedent]

    def statute_of(self, citation: Citation) -> Statute | None:
        """The statute or regulation a citation cites, code and title filled in; None for anything else.

        A full statute citation is its own; a short form (``§ 1983``, ``Id. § 1331(a)``) takes the code
        and title of the full citation it resolves to and keeps its own section and subsections; a bare
        ``Id.`` after a statute cites that statute. An unresolved short form gives None: its code is
        unknown (it still has ``citation.statute``, its section as written).
        """
        return resolved_statute(citation, self.resolved(citation))


def resolved_statute(citation: Citation, antecedent: Citation | None) -> Statute | None:
    """``Extraction.statute_of`` given the citation's antecedent (what ``resolved`` returns)."""
    own = citation.statute
    if own is not None and own.code is not None:
        return own
    if antecedent is None or antecedent is citation or antecedent.statute is None:
        return None
    ante = antecedent.statute
    if ante.code is None:
        return None
    if own is None:  # a bare "Id." after a statute
        return replace(ante, form=StatuteForm.ID) if citation.form is CiteForm.ID else None
    if ante.kind == "act":  # "Id. § 2" after "section 1 of the Sherman Act": the act's § 2, not placed
        return replace(
            own, code="act", code_text=ante.code_text, jurisdiction=None, kind="act", act_name=ante.act_name,
            act_section=own.section + "".join(own.subsections),
        )  # fmt: skip
    return replace(
        own,
        code=ante.code,
        code_text=ante.code_text,
        jurisdiction=ante.jurisdiction,
        regulation=ante.regulation,
        title=ante.title,
        act=ante.act,
        kind=ante.kind,
        chapter=ante.chapter,
    )


#: A whole document's full citations by (volume, reporter), in order: scanning every earlier citation
#: for each unresolved short cite was quadratic in a long brief. One entry, holding the citations it
#: was built from (so ``is`` is safe).
_FULLS: tuple[tuple[Citation, ...], dict[tuple[str | None, str | None], list[Citation]]] | None = None


def _fulls_of_volume(
    citations: tuple[Citation, ...], volume: str | None, reporter: str | None
) -> list[Citation]:
    global _FULLS
    cached = _FULLS
    if cached is None or cached[0] is not citations:
        index: dict[tuple[str | None, str | None], list[Citation]] = {}
        for f in citations:
            if f.form is CiteForm.FULL:
                index.setdefault((f.volume, f.reporter), []).append(f)
        cached = _FULLS = (citations, index)
    return cached[1].get((volume, reporter), [])
