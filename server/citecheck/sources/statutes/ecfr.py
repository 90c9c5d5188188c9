"""C.F.R. titles from the eCFR → sections: the title XML (govinfo bulk ``ECFR-title40.xml`` or the
versioner's ``/api/versioner/v1/full/{date}/title-40.xml``) and the versioner's JSON.

Both XML forms nest ``<DIV1 TYPE="TITLE">`` … ``<DIV5 TYPE="PART">`` … ``<DIV8 TYPE="SECTION" N=…>``
with a ``<HEAD>`` (``§ 1.1 Definitions.``) and paragraphs; the bulk file numbers a section
``N="§ 1.1"``, the versioner ``N="1.1"``. Streamed with ``iterparse``, each section cleared once read,
with libxml2's limits on (no ``huge_tree``): a text node over 10 MB or elements nested over 256 deep are a
broken file, not gigabytes of memory or a RecursionError (issue 35); a title of 1.2 GB parses in 25 MB.
A root that is neither form, or a title with no ``DIV8`` sections, raises ``SchemaChanged``.

The versioner's ``/versions/title-N.json`` lists every version of every section, removed ones
included: ``section_history`` turns it into, per section, its dates and whether it was removed — how
a section cited in a 2019 brief and removed in 2021 is "removed", never "fabricated".
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import IO, Any

from lxml import etree

from citecheck.errors import SchemaChanged
from citecheck.sources.statutes.records import (
    ParsedSection,
    ParsedTitle,
    ParsedUnit,
    SectionStatus,
    normalise_section,
    normalise_title,
)

__all__ = ["TitleInfo", "VersionEntry", "parse_ecfr", "parse_titles", "section_history"]

_ROOTS = frozenset(("DLPSTEXTCLASS", "ECFR", "DIV1"))
_SKIP = frozenset(("HEAD", "CITA", "SECAUTH", "EDNOTE", "FTNT", "AUTH", "SOURCE", "EFFDNOT"))
_BLOCKS = frozenset(("P", "FP", "NOTE", "EXTRACT", "TABLE", "TR", "GPOTABLE", "ROW", "MATH", "PSPACE"))
_HEAD = re.compile(r"^\s*§§?\s*[\w.\-\u2010-\u2015]+(?:\s*(?:-|–|through|to)\s*[\w.\-]+)?\s*")
_CFR_RANGE = re.compile(
    r"(?P<part>\d+[a-z]*)\.(?P<a>[\w.\-]+?)\s*(?:[-–]|\bthrough\b|\bto\b)\s*(?P=part)\.(?P<b>[\w.\-]+)"
)


def _clean(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def _text(div: Any) -> str:
    out: list[str] = []

    def walk(e: Any) -> None:
        if not isinstance(e.tag, str) or e.tag in _SKIP:
            return
        if e.tag in _BLOCKS:
            out.append("\n")
        if e.text:
            out.append(e.text)
        for child in e:
            walk(child)
            if child.tail:
                out.append(child.tail)

    for child in div:
        walk(child)
    lines = (_clean(line) for line in "".join(out).split("\n"))
    return "\n".join(line for line in lines if line)


def _read_section(div: Any) -> ParsedSection | None:
    n = div.get("N") or ""
    head_el = div.find("HEAD")
    head = _clean("".join(head_el.itertext())) if head_el is not None else ""
    headed = _HEAD.match(head)
    raw = n.replace("§", "").strip() or (headed.group(0) if headed else "")
    if not raw:
        return None
    heading = _HEAD.sub("", head).strip()
    range_last = None
    if m := _CFR_RANGE.fullmatch(normalise_section(raw)):
        raw = f"{m.group('part')}.{m.group('a')}"
        range_last = f"{m.group('part')}.{m.group('b')}"
    section = normalise_section(raw)
    status = SectionStatus.CURRENT
    low = heading.lower().strip("[]. ")
    if low.startswith("reserved"):
        status = SectionStatus.RESERVED
    elif low.startswith(("removed", "redesignated", "transferred")) and len(_text(div)) < 400:
        status = SectionStatus.REMOVED if low.startswith("removed") else SectionStatus.RENUMBERED
    return ParsedSection(
        section=section,
        heading=heading.rstrip("."),
        status=status,
        text=_text(div) if status is SectionStatus.CURRENT else "",
        range_last=range_last,
    )


def parse_ecfr(
    source: str | IO[bytes], *, name: str = "", expected_title: str | None = None
) -> tuple[ParsedTitle, Iterator[ParsedSection]]:
    """Read the root now (a wrong format fails at once), the sections as the iterator is consumed.

    The title is the file's own: govinfo's header (``<IDNO TYPE="title">``) or its ``DIV1``'s ``NODE``
    (``"3:1"``: title 3, volume 1 — a bulk file's ``DIV1 @N`` is the *volume*, and a title may have several),
    the versioner's ``DIV1 @N``. ``expected_title`` (the title asked for, or named by the file name) must
    agree: a mismatch is ``SchemaChanged``, never a title stored under another number."""
    label = name or (source if isinstance(source, str) else getattr(source, "name", "eCFR file"))
    events = etree.iterparse(source, events=("start", "end"), resolve_entities=False, no_network=True)
    try:
        _event, root = next(events)
    except etree.XMLSyntaxError as exc:
        raise SchemaChanged(f"{label}: not XML ({exc})") from exc
    except StopIteration:
        raise SchemaChanged(f"{label}: empty file") from None
    if root.tag not in _ROOTS or (root.tag == "DIV1" and root.get("TYPE") != "TITLE"):
        raise SchemaChanged(
            f'{label}: expected an eCFR title (<DLPSTEXTCLASS>, <ECFR> or <DIV1 TYPE="TITLE">), found '
            f"<{root.tag}>: the eCFR format may have changed; the statute index was not updated"
        )
    parsed = ParsedTitle(code="cfr")
    reader = _TitleReader(parsed, label, bulk=root.tag == "DLPSTEXTCLASS", expected=expected_title)
    if root.tag == "DIV1":
        reader.volume(root)
    return parsed, reader.sections(events)


_MONTHS = {m: i for i, m in enumerate("jan feb mar apr may jun jul aug sep oct nov dec".split(), 1)}
_AMDDATE = re.compile(r"([A-Za-z]{3})[a-z]*\.?\s+(\d{1,2}),?\s+(\d{4})")
_NODE_TITLE = re.compile(r"^(\d+):")
_HEAD_TITLE = re.compile(r"^\s*Title\s+(\d+)\b", re.I)
_APPENDIX_LABEL = re.compile(r"\bAppendix\s+(?P<label>[IVX]+|[A-Z]{1,2}(?:-\d+)?|\d+)(?![\w])")
_PART_RANGE = re.compile(r"^(?P<a>\d+[a-z]?)\s*(?:-|–|to|through)\s*(?P<b>\d+[a-z]?)$", re.I)


def iso_date(text: str) -> str:
    """``"March 17, 2015"`` → ``"2015-03-17"`` (govinfo's ``AMDDATE``); text that is no date is kept.

    >>> iso_date("March 17, 2015"), iso_date("Jan. 3, 2024"), iso_date("2024-01-03")
    ('2015-03-17', '2024-01-03', '2024-01-03')
    """
    m = _AMDDATE.search(text)
    if m is None or m.group(1).lower()[:3] not in _MONTHS:
        return _clean(text)
    return f"{int(m.group(3)):04d}-{_MONTHS[m.group(1).lower()[:3]]:02d}-{int(m.group(2)):02d}"


class _TitleReader:
    """The title, its parts, subparts and appendices, and its sections, as the file streams by."""

    def __init__(self, parsed: ParsedTitle, label: str, *, bulk: bool, expected: str | None) -> None:
        self.parsed, self.label, self.bulk = parsed, label, bulk
        self.expected = normalise_title(expected) if expected else None
        self.part = ""

    def _title(self, number: str, where: str) -> None:
        number = normalise_title(number)
        if not number:
            return
        if self.parsed.title and number != self.parsed.title:
            raise SchemaChanged(
                f"{self.label}: {where} says title {number}, the file's title is {self.parsed.title}: "
                "the statute index was not updated"
            )
        if self.expected is not None and number != self.expected:
            raise SchemaChanged(
                f"{self.label}: the file holds title {number}, not title {self.expected} as asked: "
                "the statute index was not updated"
            )
        self.parsed.title = number

    def volume(self, div1: Any) -> None:
        """A ``DIV1 TYPE="TITLE"``: govinfo's ``NODE="3:1"`` names the title (``N`` is the volume); the
        versioner's ``N`` is the title."""
        node = _NODE_TITLE.match(div1.get("NODE") or "")
        if node is not None:
            self._title(node.group(1), f'<DIV1 NODE="{div1.get("NODE")}">')
        elif not self.bulk:
            self._title(div1.get("N") or "", f'<DIV1 N="{div1.get("N")}">')

    def _head(self, elem: Any) -> None:
        parent = elem.getparent()
        if parent is None:
            return
        text = _clean("".join(elem.itertext()))
        kind = parent.get("TYPE")
        if parent.tag == "DIV1" and not self.parsed.heading:
            self.parsed.heading = text
            if not self.parsed.title and (m := _HEAD_TITLE.match(text)) is not None:
                self._title(m.group(1), f"the heading {text!r}")
        elif kind == "PART":
            self._unit_part(parent, text)
        elif kind == "SUBPART" and self.part:
            sub = normalise_section(parent.get("N") or "")
            if sub:
                self.parsed.units.append(
                    ParsedUnit(kind="subpart", number=f"{self.part}:{sub}", heading=text)
                )
        elif kind == "APPENDIX":
            label = _APPENDIX_LABEL.search(parent.get("N") or "") or _APPENDIX_LABEL.search(text)
            part = re.search(r"\bPart\s+(\d+[a-z]?)\b", text, re.I)
            owner = part.group(1) if part is not None else self.part
            if label is not None and owner:
                number = f"{normalise_section(owner)}:{label.group('label').lower()}"
                self.parsed.units.append(ParsedUnit(kind="appendix", number=number, heading=text))

    def _unit_part(self, div: Any, heading: str) -> None:
        n = normalise_section(div.get("N") or "")
        reserved = "reserved" in heading.lower()
        m = _PART_RANGE.match(n)
        self.part = m.group("a") if m else n
        if n:
            last = m.group("b") if m else None
            self.parsed.units.append(
                ParsedUnit(kind="part", number=self.part, heading=heading, reserved=reserved, last=last)
            )

    def _end(self, elem: Any) -> None:
        tag = elem.tag
        if tag == "IDNO" and (elem.get("TYPE") or "").lower() == "title" and elem.text and elem.text.strip():
            self._title(elem.text, '<IDNO TYPE="title">')
        elif tag == "AMDDATE" and elem.text and not self.parsed.edition:
            self.parsed.edition = iso_date(elem.text)
        elif tag == "HEAD":
            self._head(elem)

    def sections(self, events: Any) -> Iterator[ParsedSection]:
        parsed, divs = self.parsed, 0
        try:
            for event, elem in events:
                if event == "start":
                    if elem.tag == "DIV1" and elem.get("TYPE") == "TITLE":
                        self.volume(elem)
                    continue
                if elem.tag != "DIV8" or elem.get("TYPE") != "SECTION":
                    self._end(elem)
                    continue
                divs += 1
                record = _read_section(elem)
                elem.clear(keep_tail=False)
                parent = elem.getparent()
                if parent is not None:
                    while elem.getprevious() is not None:
                        del parent[0]
                if record is not None:
                    parsed.sections += 1
                    yield record
        except etree.XMLSyntaxError as exc:
            raise SchemaChanged(f"{self.label}: broken XML ({exc})") from exc
        if not parsed.title:
            raise SchemaChanged(
                f'{self.label}: no title number (<IDNO TYPE="title">, a DIV1 NODE or N): the eCFR format may '
                "have changed"
            )
        if not parsed.sections:
            raise SchemaChanged(
                f'{self.label}: title {parsed.title} has {divs} <DIV8 TYPE="SECTION"> with a section number: '
                "the eCFR format may have changed; the statute index was not updated"
            )


@dataclass(frozen=True, slots=True, kw_only=True)
class TitleInfo:
    """One row of the versioner's ``/titles``: the title and the latest date it is complete for."""

    number: str
    name: str
    up_to_date_as_of: str | None
    reserved: bool


def parse_titles(data: bytes | str, *, name: str = "titles.json") -> list[TitleInfo]:
    """The versioner's ``/api/versioner/v1/titles.json`` → titles (SchemaChanged if not that shape)."""
    try:
        doc = json.loads(data)
        rows = doc["titles"]
        out = []
        for r in rows:
            date = r.get("up_to_date_as_of") or r.get("latest_issue_date")
            if date is not None and not isinstance(date, str):
                raise TypeError(
                    f"title {str(r.get('number'))[:20]!r} has a date that is no text: {date!r:.60}"
                )
            out.append(
                TitleInfo(
                    number=normalise_title(str(r["number"])),
                    name=str(r.get("name") or ""),
                    up_to_date_as_of=date,
                    reserved=bool(r.get("reserved")),
                )
            )
        return out
    except (ValueError, KeyError, TypeError, AttributeError, RecursionError) as exc:
        raise SchemaChanged(f"{name}: not the eCFR titles list ({exc.__class__.__name__}: {exc})") from exc


@dataclass(frozen=True, slots=True, kw_only=True)
class VersionEntry:
    date: str  # ISO date the version took effect
    removed: bool
    name: str = ""


def section_history(
    data: bytes | str, *, name: str = "versions.json"
) -> Mapping[str, tuple[VersionEntry, ...]]:
    """The versioner's ``/versions/title-N.json`` → per section (normalised), its versions by date."""
    try:
        doc = json.loads(data)
        rows = doc["content_versions"]
        out: dict[str, list[VersionEntry]] = {}
        for r in rows:
            if r.get("type", "section") != "section":
                continue
            ident = normalise_section(str(r["identifier"]))
            if not isinstance(r["date"], str):
                raise TypeError(f"section {ident[:40]!r} has a date that is no text: {r['date']!r:.60}")
            out.setdefault(ident, []).append(
                VersionEntry(  # "date" is deprecated (it equals amendment_date): read it only without one
                    date=str(r.get("amendment_date") or r["date"]),
                    removed=bool(r.get("removed")),
                    name=str(r.get("name") or ""),
                )
            )
    except (ValueError, KeyError, TypeError, AttributeError, RecursionError) as exc:
        raise SchemaChanged(f"{name}: not the eCFR versions list ({exc.__class__.__name__}: {exc})") from exc
    return {k: tuple(sorted(v, key=lambda e: e.date)) for k, v in out.items()}
