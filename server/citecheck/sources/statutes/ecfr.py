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


def parse_ecfr(source: str | IO[bytes], *, name: str = "") -> tuple[ParsedTitle, Iterator[ParsedSection]]:
    """Read the root now (a wrong format fails at once), the sections as the iterator is consumed."""
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
    if root.tag == "DIV1":
        parsed.title = normalise_title(root.get("N") or "")
    return parsed, _sections(events, parsed, label)


def _sections(events: Any, parsed: ParsedTitle, label: str) -> Iterator[ParsedSection]:
    divs = 0
    try:
        for event, elem in events:
            tag = elem.tag
            if event == "start":
                if tag == "DIV1" and elem.get("TYPE") == "TITLE" and not parsed.title:
                    parsed.title = normalise_title(elem.get("N") or "")
                continue
            if tag == "AMDDATE" and elem.text and not parsed.edition:
                parsed.edition = _clean(elem.text)
            elif tag == "HEAD" and not parsed.heading and elem.getparent() is not None:
                if elem.getparent().tag == "DIV1":
                    parsed.heading = _clean("".join(elem.itertext()))
            if tag != "DIV8" or elem.get("TYPE") != "SECTION":
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
        raise SchemaChanged(f"{label}: broken XML ({exc})") from exc
    if not parsed.title:
        raise SchemaChanged(f'{label}: no <DIV1 TYPE="TITLE" N=…>: the eCFR format may have changed')
    if not parsed.sections:
        raise SchemaChanged(
            f'{label}: title {parsed.title} has {divs} <DIV8 TYPE="SECTION"> with a section number: '
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
                VersionEntry(
                    date=str(r["date"]), removed=bool(r.get("removed")), name=str(r.get("name") or "")
                )
            )
    except (ValueError, KeyError, TypeError, AttributeError, RecursionError) as exc:
        raise SchemaChanged(f"{name}: not the eCFR versions list ({exc.__class__.__name__}: {exc})") from exc
    return {k: tuple(sorted(v, key=lambda e: e.date)) for k, v in out.items()}
