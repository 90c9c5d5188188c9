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

from citecheck.errors import SchemaChanged
from citecheck.sources.statutes.records import (
    ParsedSection,
    ParsedTitle,
    SectionStatus,
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
_MOVED = re.compile(
    r"\b(?:transferred|renumbered|redesignated|reclassified)\b(?P<gap>[^.;]{0,80}?)\b(?:section|§)\s*"
    r"(?P<sec>\d[\w\u2010-\u2015\-]*)"
    r"(?:\s+of\s+(?:(?P<this>this title)|title\s+(?P<title>\d+[A-Za-z]?)))?",
    re.I,
)
_RANGE = re.compile(
    r"§§\s*(?P<a>[\w\u2010-\u2015\-.]+?)\s*(?P<sep>\bto\b|\bthrough\b|,|\band\b)\s*(?P<b>[\w\u2010-\u2015\-.]+?)[.\]]*\s*$"
)
_IDENT = re.compile(r"^/us/usc/t(?P<title>\w+?)/s(?P<section>[^/]+)$")
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


def _moved_to(text: str, title: str) -> str | None:
    m = _MOVED.search(text)
    if m is None:
        return None
    where = normalise_title(m.group("title")) if m.group("title") else title
    note = " note" if "as a note" in m.group("gap").lower() else ""
    return f"{where} U.S.C. § {normalise_section(m.group('sec'))}{note}"


def _notes_text(elem: Any) -> str:
    parts = []
    for child in elem:
        if _local(child.tag) in ("notes", "note"):
            parts.append(" ".join(child.itertext()))
    return _clean(" ".join(parts))


def _read_section(elem: Any, title: str) -> ParsedSection | None:
    num = next((c for c in elem if _local(c.tag) == "num"), None)
    heading_el = next((c for c in elem if _local(c.tag) == "heading"), None)
    value = num.get("value") if num is not None else None
    ident = elem.get("identifier") or ""
    m = _IDENT.match(ident)
    if not value and m is None:
        return None
    section = normalise_section(value or (m.group("section") if m is not None else ""))
    num_text = _clean("".join(num.itertext())) if num is not None else ""
    heading = _clean("".join(heading_el.itertext())) if heading_el is not None else ""
    heading = heading.rstrip("]").strip()
    status = _status(elem, heading, num_text)
    moved = None
    if status in (SectionStatus.TRANSFERRED, SectionStatus.RENUMBERED):
        moved = _moved_to(heading, title) or _moved_to(_notes_text(elem), title)
    range_last = None
    also: tuple[str, ...] = ()
    r = _RANGE.search(num_text)
    if r is not None:
        first, last = normalise_section(r.group("a")), normalise_section(r.group("b"))
        if r.group("sep") in (",", "and"):
            also = (last,)
        elif last != first:
            range_last = last
        section = first
    return ParsedSection(
        section=section,
        heading=heading,
        status=status,
        text=section_text(elem) if status is SectionStatus.CURRENT else "",
        moved_to=moved,
        range_last=range_last,
        also=also,
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
        raise SchemaChanged(f"{label}: not XML ({exc})") from exc
    except StopIteration:
        raise SchemaChanged(f"{label}: empty file") from None
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


def _sections(events: Any, parsed: ParsedTitle, label: str) -> Iterator[ParsedSection]:
    depth_quoted = 0
    seen_sections = 0
    try:
        for event, elem in events:
            name = _local(elem.tag)
            if event == "start":
                if name in _QUOTED:
                    depth_quoted += 1
                continue
            if name in _QUOTED:
                depth_quoted -= 1
                continue
            if name == "docNumber" and not parsed.title and elem.text:
                parsed.title = normalise_title(elem.text)
            elif name == "docPublicationName" and elem.text:
                parsed.edition = elem.text.strip().removeprefix("Online@")
            elif name == "heading" and not parsed.heading and _local(elem.getparent().tag) == "title":
                parsed.heading = _clean("".join(elem.itertext()))
            elif name == "title" and not parsed.title:
                if m := _TITLE_IDENT.match(elem.get("identifier") or ""):
                    parsed.title = normalise_title(m.group("title"))
            if name != "section" or depth_quoted:
                continue
            seen_sections += 1
            record = _read_section(elem, parsed.title)
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
        raise SchemaChanged(f"{label}: broken XML ({exc})") from exc
    if seen_sections and not parsed.sections:
        raise SchemaChanged(
            f"{label}: {seen_sections} <section> elements but none with <num value=…> or a /us/usc "
            "identifier: the U.S. Code release format may have changed; the statute index was not updated"
        )
    if not parsed.title:
        raise SchemaChanged(f"{label}: no title number (<docNumber> or a /us/usc/tN identifier)")
