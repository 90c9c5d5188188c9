"""The Constitution Annotated's "Table of Supreme Court Decisions Overruled by Subsequent Decisions".

The Library of Congress (Congress.gov) lists every Supreme Court decision a majority of the Court
explicitly overruled, or overruled in words "functionally equivalent", with the overruling decision
(its methodology: constitution.congress.gov/browse/essay/appx_1/). It is a U.S. government work; a copy
ships as package data (``citecheck/data/overruled-decisions.csv``, provenance beside it) and
``citecheck corpus sync`` refreshes it from Congress.gov (``sources/treatment/congress.py``).

Pure: text in, rows and keys out. The CSV has the page's five columns (``Order``, ``Overruling
Decision``, ``Year of Overruling Decision``, ``Overruled Decision(s)``, ``Year(s) of Overruled
Decision(s)``); several overruled decisions share a cell, separated by ``;``, each with its own
``(in part)``, ``(plurality opinion)`` or ``(Powell, J., concurring)`` note.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from html.parser import HTMLParser

from citecheck.sources.models import CiteKey
from citecheck.treatment.models import Basis, CaseRef, Treatment, TreatmentKind

COLUMNS = (
    "Order",
    "Overruling Decision",
    "Year of Overruling Decision",
    "Overruled Decision(s)",
    "Year(s) of Overruled Decision(s)",
)
PAGE_URL = "https://constitution.congress.gov/resources/decisions-overruled/"
SOURCE_NAME = "the Constitution Annotated's table of Supreme Court decisions overruled (Congress.gov)"

#: The nominative reporters of the early U.S. Reports as the table abbreviates them, as citations spell them.
NOMINATIVE = {"Dall.": "Dall.", "Cr.": "Cranch", "Cranch": "Cranch", "Wheat.": "Wheat.", "Pet.": "Pet.",
              "How.": "How.", "Black": "Black", "Wall.": "Wall."}  # fmt: skip

_US_CITE = re.compile(
    r"(?P<cite>(?P<vol>\d{1,3})\s*U\.\s?S\.\s*(?:\((?P<nvol>\d{1,2})\s*(?P<nrep>[A-Z][A-Za-z.]*)\)\s*)?"
    r"(?P<page>\d{1,4}|_{2,}))"
)
_DOCKET = re.compile(
    r"(?P<cite>No\.\s*(?P<number>[\d-]+(?:,\s*[\d-]+)*)\s*\((?P<court>[^)]*?(?P<year>\d{4}))\))"
)
_NOTE = re.compile(r"\(([^()]*)\)")
#: what may stand between a citation and its year: a pin cite (", 77"), a stray year ("298 1921 (1921)")
_PIN = re.compile(r"^(?:,\s*\d+(?:[-–]\d+)?)?\s*(?:\d{4}(?=\s*\())?")


@dataclass(frozen=True, slots=True, kw_only=True)
class Decision:
    """One decision as the table writes it: name, citation (or docket number), year, notes."""

    name: str
    citation: str | None
    year: int | None
    notes: tuple[str, ...] = ()
    keys: tuple[CiteKey, ...] = ()  # the U.S. Reports key and, for an early volume, the nominative one

    @property
    def whole(self) -> bool:
        """False for ``(in part)`` and for a separate opinion's overruling (``(Powell, J., concurring)``)."""
        return not any(
            "in part" in n or "concurring" in n or "dissenting" in n or "to the extent" in n
            for n in self.notes
        )

    def ref(self) -> CaseRef:
        return CaseRef(
            name=self.name,
            citation=self.citation,
            year=self.year,
            court="scotus",
            court_name="Supreme Court of the United States",
            url=_url(self.keys[0]) if self.keys else None,
        )


@dataclass(frozen=True, slots=True, kw_only=True)
class TableRow:
    order: str
    overruling: Decision
    overruled: tuple[Decision, ...]
    text: str  # the row as the table writes it, quoted as the evidence


def _url(key: CiteKey) -> str:
    """CourtListener's page for a citation (its ``/c/`` resolver): a link a lawyer can follow."""
    return f"https://www.courtlistener.com/c/{key.reporter}/{key.volume}/{key.page}/"


def parse_decision(text: str) -> Decision | None:
    """One decision of the table: ``Name, 62 U.S. (21 How.) 244 (1858) (in part)``.

    >>> d = parse_decision("Allen v. Newberry,62 U.S. (21 How.) 244 (1858) (in part)")
    >>> d.name, d.citation, d.year, d.notes, [str(k) for k in d.keys], d.whole
    ('Allen v. Newberry', '62 U.S. (21 How.) 244', 1858, ('in part',), ['62 U.S. 244', '21 How. 244'], False)
    >>> parse_decision("Loper Bright Enterprises v. Raimondo, No. 22-451 (U.S. June 28, 2024)").citation
    'No. 22-451 (U.S. June 28, 2024)'
    """
    text = " ".join(text.replace("\u00a0", " ").split()).strip(" ;")
    if not text:
        return None
    m = _US_CITE.search(text) or _DOCKET.search(text)
    if m is None:
        return None
    name = text[: m.start()].strip().rstrip(",").strip()
    if not name:
        return None
    rest = _PIN.sub("", text[m.end() :].strip(), count=1)
    year = int(m["year"]) if "number" in m.groupdict() else None
    notes = []
    for n in _NOTE.findall(rest):
        n = " ".join(n.split())
        if year is None and re.fullmatch(r"\d{4}", n):
            year = int(n)  # "(1858)"; "255 U.S. 298 1921 (1921)" as the table once wrote it
        elif not re.fullmatch(r"\d{4}", n):
            notes.append(n)
    keys: list[CiteKey] = []
    if "vol" in m.groupdict() and m["page"] and not m["page"].startswith("_"):
        keys.append(CiteKey(m["vol"], "U.S.", m["page"]))
        if m["nvol"] and (rep := NOMINATIVE.get(m["nrep"])) is not None:
            keys.append(CiteKey(m["nvol"], rep, m["page"]))
    return Decision(
        name=name, citation=" ".join(m["cite"].split()), year=year, notes=tuple(notes), keys=tuple(keys)
    )


def _split_decisions(cell: str) -> list[str]:
    """The decisions of one cell: separated by ``;`` (never inside a parenthesis)."""
    out, depth, start = [], 0, 0
    for i, ch in enumerate(cell):
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth = max(0, depth - 1)
        elif ch == ";" and depth == 0:
            out.append(cell[start:i])
            start = i + 1
    out.append(cell[start:])
    return [p for p in (p.strip() for p in out) if p]


@dataclass(frozen=True, slots=True, kw_only=True)
class ParsedTable:
    rows: tuple[TableRow, ...]
    skipped: tuple[str, ...]  # cells that did not read as a decision (said, never guessed at)

    @property
    def pairs(self) -> int:
        return sum(len(r.overruled) for r in self.rows)


def parse_rows(records: Iterable[dict[str, str]]) -> ParsedTable:
    """Rows of the table from dicts keyed by its column names."""
    rows: list[TableRow] = []
    skipped: list[str] = []
    for rec in records:
        ruling = parse_decision(rec.get("Overruling Decision", ""))
        if ruling is None:
            skipped.append(rec.get("Overruling Decision", "").strip())
            continue
        ruled = []
        for part in _split_decisions(rec.get("Overruled Decision(s)", "")):
            d = parse_decision(part)
            if d is None:
                skipped.append(part)
            else:
                ruled.append(d)
        if ruled:
            text = f"{' '.join(rec['Overruling Decision'].split())} — overruled: " + "; ".join(
                " ".join(p.split()) for p in _split_decisions(rec.get("Overruled Decision(s)", ""))
            )
            rows.append(TableRow(order=rec.get("Order", "").strip(), overruling=ruling, overruled=tuple(ruled),
                                 text=text))  # fmt: skip
    return ParsedTable(rows=tuple(rows), skipped=tuple(skipped))


def parse_csv(text: str) -> ParsedTable:
    """The table from its CSV (the shipped copy, or a refreshed one): columns by header name."""
    reader = csv.DictReader(io.StringIO(text.lstrip("\ufeff")))
    missing = [
        c for c in ("Overruling Decision", "Overruled Decision(s)") if c not in (reader.fieldnames or ())
    ]
    if missing:
        raise ValueError(f"not the table of decisions overruled: no {', '.join(missing)} column")
    return parse_rows(reader)


def to_csv(records: Iterable[dict[str, str]]) -> str:
    out = io.StringIO()
    w = csv.DictWriter(out, fieldnames=COLUMNS, quoting=csv.QUOTE_ALL, lineterminator="\n")
    w.writeheader()
    for rec in records:
        w.writerow({c: rec.get(c, "") for c in COLUMNS})
    return out.getvalue()


class _Tables(HTMLParser):
    """Every ``<table>`` of a page as rows of cell texts; ``<br>``, ``<p>`` and ``<li>`` inside a cell
    separate decisions (``;``)."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tables: list[list[list[str]]] = []
        self._row: list[str] | None = None
        self._cell: list[str] | None = None
        self._depth = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "table":
            self._depth += 1
            self.tables.append([])
        elif tag == "tr" and self._depth:
            self._row = []
        elif tag in ("td", "th") and self._row is not None:
            self._cell = []
        elif tag in ("br", "p", "li") and self._cell is not None and "".join(self._cell).strip():
            self._cell.append("; ")

    def handle_endtag(self, tag: str) -> None:
        if tag in ("td", "th") and self._row is not None and self._cell is not None:
            self._row.append(" ".join("".join(self._cell).split()).strip(" ;"))
            self._cell = None
        elif tag == "tr" and self._row is not None:
            if self._row and self.tables:
                self.tables[-1].append(self._row)
            self._row = None
        elif tag == "table" and self._depth:
            self._depth -= 1

    def handle_data(self, data: str) -> None:
        if self._cell is not None:
            self._cell.append(data)


def _column(header: list[str], *words: str) -> int | None:
    for i, h in enumerate(header):
        low = " ".join(h.lower().split())
        if all(w in low for w in words):
            return i
    return None


def records_from_html(html: str) -> list[dict[str, str]]:
    """The table's rows from the Congress.gov page (any table whose header names the overruling and the
    overruled decisions), as dicts keyed by ``COLUMNS``; [] when the page has no such table."""
    parser = _Tables()
    parser.feed(html)
    parser.close()
    out: list[dict[str, str]] = []
    for table in parser.tables:
        if not table:
            continue
        header = table[0]
        ruling = _column(header, "overruling", "decision")
        ruled = _column(header, "overruled", "decision")
        if ruling is None or ruled is None or ruling == ruled:
            continue
        order = _column(header, "order") if _column(header, "order") is not None else _column(header, "no")
        ruling_year = _column(header, "year", "overruling")
        ruled_year = _column(header, "year", "overruled")
        for cells in table[1:]:
            if len(cells) <= max(ruling, ruled):
                continue
            out.append({
                "Order": cells[order] if order is not None and order < len(cells) else "",
                "Overruling Decision": cells[ruling],
                "Year of Overruling Decision": cells[ruling_year] if ruling_year is not None
                and ruling_year < len(cells) else "",
                "Overruled Decision(s)": cells[ruled],
                "Year(s) of Overruled Decision(s)": cells[ruled_year] if ruled_year is not None
                and ruled_year < len(cells) else "",
            })  # fmt: skip
    return out


def treatments(table: ParsedTable, *, source: str = SOURCE_NAME) -> Iterator[tuple[CiteKey, Treatment]]:
    """Each overruled decision's keys with its treatment (the row quoted as the evidence)."""
    for row in table.rows:
        ruling = row.overruling.ref()
        for d in row.overruled:
            t = Treatment(
                cited=d.ref(),
                treating=ruling,
                kind=TreatmentKind.OVERRULED,
                whole=d.whole,
                basis=Basis.TABLE,
                quote=row.text,
                source=source,
                url=PAGE_URL,
                note=", ".join(d.notes) or None,
            )
            for key in d.keys:
                yield key, t


__all__ = [
    "COLUMNS",
    "PAGE_URL",
    "SOURCE_NAME",
    "Decision",
    "ParsedTable",
    "TableRow",
    "parse_csv",
    "parse_decision",
    "parse_rows",
    "records_from_html",
    "to_csv",
    "treatments",
]
