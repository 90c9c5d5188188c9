"""U.S. Code titles in USLM XML (the Law Revision Counsel's release points, ``usc42.xml``) → sections.

Streamed with lxml's ``iterparse`` (a title is up to ~100 MB), one ``ParsedSection`` per code section,
memory flat: each section is cleared once read. Sections quoted inside notes (``<quotedContent>``,
other Acts' short-title sections) are not the Code's and are skipped. A file that is not a USLM
``uscDoc`` — or one whose sections no longer carry ``<num value=…>`` — raises ``SchemaChanged``
naming what was expected and what was found: a release in a changed format must stop the sync, not
build an index that would call every cited section fabricated.

Status comes from ``@status`` when present, else from the bracketed heading the Code prints
(``[§ 902. Repealed. Pub. L. 115–97 …]``, ``[§ 1981a. Transferred]``); where a transferred or
renumbered section went is read from its heading and notes ("transferred to section 1101 of Title 8", or
as the Code has written it since the 2014 reorganisations, "editorially reclassified as section 10101 of
Title 52").
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import IO, Any

from lxml import etree

from citecheck.errors import SchemaChanged, UnreadableFile
from citecheck.sources.statutes.records import (
    APPENDIX_ACTS,
    ParsedAct,
    ParsedSection,
    ParsedTitle,
    SectionStatus,
    appendix_label,
    normalise_section,
    normalise_title,
)

__all__ = ["USLM_NAMESPACES", "ParsedSection", "ParsedTitle", "SchemaChanged", "parse_uslm"]

USLM_NAMESPACES = (
    "http://xml.house.gov/schemas/uslm/1.0",  # the OLRC release points
    "https://xml.house.gov/schemas/uslm/1.0",
    "http://schemas.gpo.gov/xml/uslm",  # USLM 2.x (GPO; the OLRC converter's USLM2 output)
)

# Block elements: a line break before each, so words of two paragraphs never run together.
_BLOCKS = frozenset(
    "subsection paragraph subparagraph clause subclause item subitem subsubitem content chapeau "
    "continuation p proviso quotedContent tr table level".split()
)
# Not the section's enacted text: notes, source credits, tables of contents.
_SKIP = frozenset("notes note sourceCredit toc layout footnote".split())
# …unless it is the first thing after its parent's "(a)" and heading: "(a) In general.— Every person …"
_INLINE_FIRST = frozenset(("content", "chapeau", "p"))
_QUOTED = frozenset(("quotedContent", "note", "notes"))

_STATUS_WORDS = {
    "repealed": SectionStatus.REPEALED,
    "transferred": SectionStatus.TRANSFERRED,
    "renumbered": SectionStatus.RENUMBERED,
    "redesignated": SectionStatus.RENUMBERED,
    "omitted": SectionStatus.OMITTED,
    "reserved": SectionStatus.RESERVED,
    "vacant": SectionStatus.RESERVED,
    "expired": SectionStatus.EXPIRED,
    "terminated": SectionStatus.EXPIRED,
}
_HEADING_STATUS = re.compile(
    r"^\W*(repealed|transferred|renumbered|omitted|reserved|vacant|expired|terminated)\b", re.I
)
#: where a section went: "Renumbered § 478a", "was transferred to section 316a of Title 43", "Renumbered §§ 601
#: to 610", "were transferred to sections 1201 to 1203, respectively, of former Title 49", "is set out as a note
#: under section 1001 of this title" (a section sign has no word boundary before it: ``\b§`` never matched)
_SEC = r"\d[\w\u2010-\u2015\-]*"
_MOVED = re.compile(
    r"\b(?:transferred|renumbered|redesignated|reclassified)\b(?P<gap>[^.;]{0,80}?)(?:\bsections?\b\.?|§§?)\s*"
    rf"(?P<sec>{_SEC})(?:\s+(?:to|through)\s+(?P<last>{_SEC}))?"
    r"(?P<resp>,?\s+respectively,?)?"
    r"(?:,?\s+of\s+(?:(?P<this>this title)|(?P<app>this Appendix)|"
    r"(?P<former>former\s+)?title\s+(?P<title>\d+[A-Za-z]?)))?",
    re.I,
)
#: the section a note speaks of: "Section 471a, act Mar. 4, 1927, …", "Sections 44 to 46 were …"
_NOTE_SUBJECT = re.compile(rf"^Sections?\s+(?P<sec>{_SEC})(?:\s+(?:to|through)\s+(?P<last>{_SEC}))?\b")
_RANGE = re.compile(
    r"§§\s*(?P<a>[\w\u2010-\u2015\-.]+?)\s*(?P<sep>\bto\b|\bthrough\b|,|\band\b)\s*(?P<b>[\w\u2010-\u2015\-.]+?)[.\]]*\s*$"
)
#: ``<num value="451 to 460, 471 to 483">``: one element for several sections and ranges
_VALUE_PIECE = re.compile(r"\s*(?P<a>[^,\s]+)(?:\s+(?:to|through)\s+(?P<b>[^,\s]+))?\s*(?:,|$)")
_ELIMINATED = re.compile(r"\[ELIMINATED\]|has been eliminated", re.I)
_PL = re.compile(r"/us/pl/(\d+)/(\d+)")
_IDENT = re.compile(r"^/us/usc/t(?P<title>\w+?)(?:/[^/]+)*?/s(?P<section>[^/]+)$")
_ACT_IDENT = re.compile(r"^/us/usc/t\w+?/(?P<act>.+)$")
#: what an appendix holds besides its acts (the heading, notes and table of contents)
_NOT_ACTS = frozenset(("num", "heading", "note", "notes", "toc", "layout", "sourceCredit"))
_TITLE_IDENT = re.compile(r"^/us/usc/t(?P<title>\w+)$")


def _local(tag: object) -> str:
    if not isinstance(tag, str):
        return ""  # comments, processing instructions
    return tag.rsplit("}", 1)[-1]


def _clean(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def _first_after_label(e: Any) -> bool:
    prev = e.getprevious()
    while prev is not None and _local(prev.tag) in ("num", "heading"):
        prev = prev.getprevious()
    return prev is None


def section_text(elem: Any) -> str:
    """The enacted text of a section: its content and subdivisions, without notes or credits."""
    out: list[str] = []

    def walk(e: Any) -> None:
        name = _local(e.tag)
        if name in _SKIP:
            return
        if name in _BLOCKS:
            out.append(" " if name in _INLINE_FIRST and _first_after_label(e) else "\n")
        if e.text:
            out.append(e.text)
        for child in e:
            walk(child)
            if child.tail:
                out.append(child.tail)

    for child in elem:
        if _local(child.tag) in ("num", "heading"):
            continue
        walk(child)
    lines = (_clean(line) for line in "".join(out).split("\n"))
    return "\n".join(line for line in lines if line)


def _status(elem: Any, heading: str, num_text: str) -> SectionStatus:
    attr = (elem.get("status") or "").strip().lower()
    if attr in _STATUS_WORDS:
        return _STATUS_WORDS[attr]
    m = _HEADING_STATUS.match(heading)
    if m and (num_text.lstrip().startswith("[") or heading.rstrip().endswith("]") or not section_text(elem)):
        return _STATUS_WORDS[m.group(1).lower()]
    return SectionStatus.CURRENT


def _place(m: re.Match[str], title: str) -> str | None:
    """The title a destination is in: "this title" in an appendix is the title it is the appendix of
    ("5a" → "5"), "this Appendix" the appendix; None for a former title (no longer a place to cite)."""
    if m.group("former"):
        return None
    if m.group("title"):
        return normalise_title(m.group("title"))
    if m.group("app"):
        return title
    base, _ = appendix_label(title)
    return base


def _cite(where: str, section: str, note: str = "") -> str:
    base, appendix = appendix_label(where)
    return f"{base} U.S.C.{' App.' if appendix else ''} § {normalise_section(section)}{note}"


def _numbers(first: str, last: str) -> list[str] | None:
    """``181`` to ``190`` → every number between; None unless both are plain numbers, rising."""
    a, b = normalise_section(first), normalise_section(last)
    if not (a.isdigit() and b.isdigit()) or int(b) < int(a) or int(b) - int(a) > 2000:
        return None
    return [str(n) for n in range(int(a), int(b) + 1)]


def _moves_in(text: str, sources: list[str], title: str) -> dict[str, str]:
    """Where the sections ``sources`` (an element's first section, or a range's) went, as ``text`` says.

    One destination for one source; a range to a range of as many plain numbers, in order ("§§ 181 to
    190 … renumbered §§ 601 to 610", "… respectively"): the one at the same place. Anything else —
    a range to one section, a former title — gives no destination (a guess would be a wrong fix)."""
    m = _MOVED.search(text)
    if m is None:
        return {}
    where = _place(m, title)
    if where is None:
        return {}
    note = " note" if "note" in m.group("gap").lower() else ""
    if m.group("last"):
        targets = _numbers(m.group("sec"), m.group("last"))
        if targets is None or len(targets) != len(sources):
            return {}
        return {s: _cite(where, t) for s, t in zip(sources, targets, strict=True)}
    if len(sources) != 1:
        return {}
    return {sources[0]: _cite(where, m.group("sec"), note)}


def _note_paragraphs(elem: Any) -> list[str]:
    out = []
    for child in elem:
        if _local(child.tag) in ("notes", "note"):
            for p in child.iter():
                if _local(p.tag) == "p":
                    out.append(_clean("".join(p.itertext())))
    return out


def _destinations(
    section: str, ranges: list[tuple[str, str | None]], heading: str, elem: Any, title: str
) -> tuple[str | None, tuple[tuple[str, str], ...]]:
    """``(moved_to, moves)``: where a transferred or renumbered element went — one section's destination,
    or, for an element that stands for a range, each section's own (from the heading or the notes, which
    say it section by section: "Section 471a, … was transferred to section 316a of Title 43")."""
    first, last = ranges[0]
    whole = [first] if last is None and len(ranges) == 1 else None
    if whole is None and len(ranges) == 1 and last is not None:
        whole = _numbers(first, last)
    found: dict[str, str] = {}
    if whole is not None:
        found.update(_moves_in(heading, whole, title))
    for para in _note_paragraphs(elem):
        _note_moves(para, whole if whole == [first] else None, title, found)
    if not found and whole == [first]:  # the heading or notes name no section: read them as before
        found.update(
            _moves_in(heading, whole, title) or _moves_in(" ".join(_note_paragraphs(elem)), whole, title)
        )
    found = {k: v for k, v in found.items() if v.removesuffix(" note") != _cite(title, k)}  # never itself
    if len(ranges) == 1 and last is None:
        return found.get(section), ()
    return None, tuple(sorted(found.items()))


def _note_moves(para: str, single: list[str] | None, title: str, found: dict[str, str]) -> None:
    """The moves a note paragraph names, added to ``found`` (what is there already stays): of the sections
    it names as its subject ("Section 471a, … was transferred"), or, for an element of one section
    (``single``), of "this section"."""
    subject = _NOTE_SUBJECT.match(para)
    if subject is None:
        if single is not None and para.lower().startswith(("section,", "section was", "this section")):
            found.update({k: v for k, v in _moves_in(para, single, title).items() if k not in found})
        return
    src = normalise_section(subject.group("sec"))
    sources = [src] if subject.group("last") is None else _numbers(src, subject.group("last"))
    if sources:
        for k, v in _moves_in(para, sources, title).items():
            found.setdefault(k, v)


def _ranges(value: str, num_text: str) -> list[tuple[str, str | None]]:
    """The sections one element stands for: ``"1983"``, ``"2401 to 2408"``, ``"11, 12"``, ``"451 to 460,
    471 to 483"`` (from ``num/@value``; from the printed number when the value gives only the first)."""
    if " to " in value or " through " in value or "," in value:
        out: list[tuple[str, str | None]] = []
        for piece in _VALUE_PIECE.finditer(value):
            a = normalise_section(piece.group("a"))
            b = normalise_section(piece.group("b")) if piece.group("b") else None
            if a:
                out.append((a, b if b != a else None))
        if out:
            return out
    first = normalise_section(value)
    r = _RANGE.search(num_text)
    if r is not None:
        a, b = normalise_section(r.group("a")), normalise_section(r.group("b"))
        if r.group("sep") in (",", "and"):
            return [(a, None), (b, None)]
        return [(a, b if b != a else None)]
    return [(first, None)]


def _read_section(elem: Any, title: str, act: str = "") -> ParsedSection | None:
    num = next((c for c in elem if _local(c.tag) == "num"), None)
    heading_el = next((c for c in elem if _local(c.tag) == "heading"), None)
    value = (num.get("value") if num is not None else None) or ""
    m = _IDENT.match(elem.get("identifier") or "")
    if not value.strip() and m is None:
        return None
    num_text = _clean("".join(num.itertext())) if num is not None else ""
    ranges = _ranges(value or (m.group("section") if m is not None else ""), num_text)
    section, range_last = ranges[0]
    heading = _clean("".join(heading_el.itertext())) if heading_el is not None else ""
    heading = heading.rstrip("]").strip()
    status = _status(elem, heading, num_text)
    moved: str | None = None
    moves: tuple[tuple[str, str], ...] = ()
    if status in (SectionStatus.TRANSFERRED, SectionStatus.RENUMBERED):
        moved, moves = _destinations(section, ranges, heading, elem, title)
    return ParsedSection(
        section=section,
        heading=heading,
        status=status,
        text=section_text(elem) if status is SectionStatus.CURRENT else "",
        moved_to=moved,
        range_last=range_last,
        also=tuple(ranges[1:]),
        act=act,
        moves=moves,
    )


def parse_uslm(source: str | IO[bytes], *, name: str = "") -> tuple[ParsedTitle, Iterator[ParsedSection]]:
    """Read the root now (a wrong format fails at once), the sections as the iterator is consumed.

    Args:
        source: a path or a binary stream (a member of the release zip, read without unpacking).
        name: how errors name the file.
    Returns:
        the title (its ``sections`` count final once the iterator is exhausted) and the sections.
    """
    label = name or (source if isinstance(source, str) else getattr(source, "name", "USLM file"))
    events = etree.iterparse(source, events=("start", "end"), resolve_entities=False, no_network=True)
    parsed = ParsedTitle(code="usc")
    try:
        _event, root = next(events)
    except etree.XMLSyntaxError as exc:
        raise UnreadableFile(f"{label}: not XML ({exc})") from exc
    except StopIteration:
        raise UnreadableFile(f"{label}: empty file") from None
    ns, _, local = root.tag.rpartition("}")
    if local != "uscDoc" or ns.lstrip("{") not in USLM_NAMESPACES:
        raise SchemaChanged(
            f"{label}: expected a USLM <uscDoc> in namespace {USLM_NAMESPACES[0]}, found <{local}>"
            f"{' in ' + ns.lstrip('{') if ns else ' without a namespace'}: the U.S. Code release format "
            "may have changed; the statute index was not updated"
        )
    if m := _TITLE_IDENT.match(root.get("identifier") or ""):
        parsed.title = normalise_title(m.group("title"))
    return parsed, _sections(events, parsed, label)


_SMALL_WORDS = frozenset("a an and as at by for in of on or the to".split())


def _title_case(heading: str) -> str:
    """``INTERSTATE AGREEMENT ON DETAINERS`` → ``Interstate Agreement on Detainers`` (the act's name as cited).

    >>> _title_case("INSPECTOR GENERAL ACT OF 1978")
    'Inspector General Act of 1978'
    """
    words = heading.lower().split()
    return " ".join(w if i and w in _SMALL_WORDS else w[:1].upper() + w[1:] for i, w in enumerate(words))


class _Appendix:
    """What the reader knows of a title appendix's acts while it streams (``5a``: the Federal Advisory
    Committee Act, the Inspector General Act, …): the act each section belongs to."""

    def __init__(self, parsed: ParsedTitle) -> None:
        self.parsed = parsed
        self.toc: list[str | None] = []  # the appendix's table of contents: each item's public law
        self.count = 0
        self.current = ""  # the key of the act being read
        self.element: Any = None

    def table_of_contents(self, toc: Any) -> None:
        for item in toc.iter():
            if _local(item.tag) != "tocItem":
                continue
            law = next(
                (m for r in item.iter() if _local(r.tag) == "ref" and (m := _PL.search(r.get("href") or ""))),
                None,
            )
            self.toc.append(f"pl/{law.group(1)}/{law.group(2)}" if law else None)

    def begin(self, elem: Any) -> None:
        """An act (or other division) of the appendix begins: its key from its identifier
        (``/us/usc/t18a/pl/96/456``), else from the table of contents' item at its place."""
        self.count += 1
        m = _ACT_IDENT.match(elem.get("identifier") or "")
        from_toc = self.toc[self.count - 1] if self.count <= len(self.toc) else None
        self.current = m.group("act") if m else from_toc or f"item{self.count}"
        self.element = elem
        number = next(
            (n for (t, n), k in APPENDIX_ACTS.items() if t == self.parsed.title and k == self.current), ""
        )
        self.parsed.acts[self.current] = ParsedAct(key=self.current, number=number, name="")

    def heading(self, elem: Any) -> None:
        act = self.parsed.acts.get(self.current)
        if act is not None and not act.name and elem.getparent() is self.element:
            name = _clean("".join(elem.itertext()))
            self.parsed.acts[self.current] = ParsedAct(key=act.key, number=act.number, name=_title_case(name))


def _metadata(name: str, elem: Any, stack: list[str], parsed: ParsedTitle, appendix: _Appendix) -> None:
    """What an element that ended says of the title: its number, edition, heading, an appendix's acts."""
    if name == "docNumber" and not parsed.title and elem.text:
        parsed.title = normalise_title(elem.text)
    elif name == "docPublicationName" and elem.text:
        parsed.edition = elem.text.strip().removeprefix("Online@").removeprefix("Online")
    elif name == "heading":
        _heading(elem, stack, parsed, appendix)
    elif name == "toc" and stack == ["appendix"]:
        appendix.table_of_contents(elem)
    elif name == "title" and not parsed.title:
        if m := _TITLE_IDENT.match(elem.get("identifier") or ""):
            parsed.title = normalise_title(m.group("title"))
    elif (
        name in ("note", "notes") and stack == ["appendix"] and "has been eliminated" not in parsed.eliminated
    ):
        if _ELIMINATED.search(text := _clean("".join(elem.itertext()))):
            parsed.eliminated = text  # "Title 50, Appendix, … has been eliminated. For disposition …"


def _heading(elem: Any, stack: list[str], parsed: ParsedTitle, appendix: _Appendix) -> None:
    """A heading: the appendix's (it may say the appendix was eliminated), the title's, or an appendix act's."""
    if stack == ["appendix"]:
        head = _clean("".join(elem.itertext()))
        parsed.heading = parsed.heading or head
        if _ELIMINATED.search(head) and not parsed.eliminated:
            parsed.eliminated = head
    elif not parsed.heading and _local(elem.getparent().tag) == "title":
        parsed.heading = _clean("".join(elem.itertext()))
    elif len(stack) == 2 and stack[0] == "appendix":
        appendix.heading(elem)


def _sections(events: Any, parsed: ParsedTitle, label: str) -> Iterator[ParsedSection]:
    depth_quoted = 0
    seen_sections = 0
    stack: list[str] = []  # the open elements below the root
    appendix = _Appendix(parsed)
    try:
        for event, elem in events:
            name = _local(elem.tag)
            if event == "start":
                if stack == ["appendix"] and name not in _NOT_ACTS:
                    appendix.begin(elem)
                parsed.appendix = parsed.appendix or (name == "appendix" and not stack)
                stack.append(name)
                depth_quoted += name in _QUOTED
                continue
            if not stack:
                continue  # the root's end (its start was read by parse_uslm)
            stack.pop()
            if name in _QUOTED:
                depth_quoted -= 1
            if name != "section" or depth_quoted:
                _metadata(name, elem, stack, parsed, appendix)
                continue
            seen_sections += 1
            record = _read_section(elem, parsed.title, appendix.current if stack[:1] == ["appendix"] else "")
            # drop what was read: the section, and every earlier sibling (chapters keep their headings)
            elem.clear(keep_tail=False)
            parent = elem.getparent()
            if parent is not None:
                while elem.getprevious() is not None:
                    del parent[0]
            if record is None:
                continue
            parsed.sections += 1 + len(record.also)
            yield record
    except etree.XMLSyntaxError as exc:
        raise UnreadableFile(f"{label}: broken XML ({exc})") from exc
    if seen_sections and not parsed.sections:
        raise SchemaChanged(
            f"{label}: {seen_sections} <section> elements but none with <num value=…> or a /us/usc "
            "identifier: the U.S. Code release format may have changed; the statute index was not updated"
        )
    if not parsed.title:
        raise SchemaChanged(f"{label}: no title number (<docNumber> or a /us/usc/tN identifier)")
