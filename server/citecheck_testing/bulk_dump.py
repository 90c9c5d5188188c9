"""Write CourtListener bulk files in their real format, for tests and bench/index.py (never shipped).

The format is what ``scripts/make_bulk_data.sh`` writes (notes/courtlistener-api.md §3): PostgreSQL
``COPY … CSV HEADER ESCAPE '\\' FORCE_QUOTE *``: an unquoted header, every non-NULL value quoted
(numbers and booleans too), NULL an unquoted empty field, ``"`` written ``\\"`` and ``\\`` written
``\\\\`` (never doubled), newlines inside values kept. Columns and their order are the dumps' own.
Nothing here is copied from ../shared: the rows are made up, the shape is CourtListener's.
"""

from __future__ import annotations

import bz2
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

HEADERS: dict[str, tuple[str, ...]] = {
    "courts": tuple(
        "id pacer_court_id pacer_has_rss_feed pacer_rss_entry_types date_last_pacer_contact fjc_court_id "
        "date_modified in_use has_opinion_scraper has_oral_argument_scraper position citation_string short_name "
        "full_name url start_date end_date jurisdiction notes parent_court_id".split()
    ),
    "dockets": tuple(
        "id date_created date_modified source appeal_from_str assigned_to_str referred_to_str panel_str "
        "date_last_index date_cert_granted date_cert_denied date_argued date_reargued date_reargument_denied "
        "date_filed date_terminated date_last_filing case_name_short case_name case_name_full slug docket_number "
        "docket_number_core pacer_case_id cause nature_of_suit jury_demand jurisdiction_type appellate_fee_status "
        "appellate_case_type_information mdl_status filepath_local filepath_ia filepath_ia_json "
        "ia_upload_failure_count ia_needs_upload ia_date_first_change view_count date_blocked blocked "
        "appeal_from_id assigned_to_id court_id idb_data_id originating_court_information_id referred_to_id "
        "federal_dn_case_type federal_dn_office_code federal_dn_judge_initials_assigned "
        "federal_dn_judge_initials_referred federal_defendant_number parent_docket_id docket_number_raw "
        "docket_number_source".split()
    ),
    "opinion-clusters": tuple(
        "id date_created date_modified judges date_filed date_filed_is_approximate slug case_name_short case_name "
        "case_name_full scdb_id scdb_decision_direction scdb_votes_majority scdb_votes_minority source "
        "procedural_history attorneys nature_of_suit posture syllabus headnotes summary disposition history "
        "other_dates cross_reference correction citation_count precedential_status date_blocked blocked "
        "filepath_json_harvard filepath_pdf_harvard docket_id arguments headmatter".split()
    ),
    "citations": tuple("id volume reporter page type cluster_id date_created date_modified".split()),
    # the treatment build's files (citecheck treatment build): scripts/make_bulk_data.sh's columns
    "opinions": tuple(
        "id date_created date_modified author_str per_curiam joined_by_str type sha1 page_count download_url "
        "local_path plain_text html html_lawbox html_columbia html_anon_2020 xml_harvard xml_scan "
        "html_with_citations extracted_by_ocr author_id cluster_id".split()
    ),
    "parentheticals": tuple("id text score described_opinion_id describing_opinion_id group_id".split()),
}
STAMP = "2024-03-28 13:25:40+00"


def copy_value(value: Any) -> str:
    """One field as COPY writes it.

    >>> copy_value(None), copy_value(12), copy_value('say "hi" \\\\ bye'), copy_value(True)
    ('', '"12"', '"say \\\\"hi\\\\" \\\\\\\\ bye"', '"t"')
    """
    if value is None:
        return ""
    if isinstance(value, bool):
        value = "t" if value else "f"
    text = str(value).replace("\\", "\\\\").replace('"', '\\"')
    return f'"{text}"'


def copy_line(values: Iterable[Any]) -> str:
    return ",".join(copy_value(v) for v in values) + "\n"


def write_table(
    out: TextIO, kind: str, rows: Iterable[Mapping[str, Any]], *, header: Iterable[str] | None = None
) -> int:
    """Write ``rows`` (column → value; absent columns are NULL) under the real header of ``kind``."""
    columns = tuple(header) if header is not None else HEADERS[kind]
    out.write(",".join(columns) + "\n")
    n = 0
    for row in rows:
        out.write(copy_line(row.get(c) for c in columns))
        n += 1
    return n


def open_dump_file(folder: Path, kind: str, date: str, *, compress: bool) -> TextIO:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{kind}-{date}.csv{'.bz2' if compress else ''}"
    if compress:
        return bz2.open(path, "wt", encoding="utf-8", newline="")  # type: ignore[return-value]
    return path.open("w", encoding="utf-8", newline="")


@dataclass
class Case:
    """One made-up reported case: a cluster, its docket and its citations."""

    id: int
    name: str
    cites: list[tuple[str, str, str]]  # (volume, reporter, page), the first the official one
    date: str = "1953-06-01"
    court: str = "md"
    docket_number: str | None = "No. 1"
    short: str | None = None
    full: str | None = None
    status: str = "Published"
    modified: str = STAMP
    cite_ids: list[int] = field(default_factory=list)
    cited: int = 0  # CourtListener's citation_count: how many opinions cite it
    types: list[int] | None = None  # CourtListener's citation type of each of ``cites`` (default 3)


COURTS = [
    {"id": "md", "full_name": "Court of Appeals of Maryland", "short_name": "Md.", "citation_string": "Md.",
     "jurisdiction": "S"},
    {"id": "pa", "full_name": "Supreme Court of Pennsylvania", "short_name": "Pa.", "citation_string": "Pa.",
     "jurisdiction": "S"},
    {"id": "ca4", "full_name": "Court of Appeals for the Fourth Circuit", "short_name": "Fourth Circuit",
     "citation_string": "4th Cir.", "jurisdiction": "F"},
    {"id": "dc", "full_name": "District of Columbia Court of Appeals", "short_name": "D.C.", "citation_string": "D.C.",
     "jurisdiction": "S"},
]  # fmt: skip


def write_dump(
    folder: Path,
    cases: list[Case],
    *,
    date: str = "2026-06-30",
    compress: bool = False,
    courts: list[dict[str, Any]] | None = None,
    unreferenced_dockets: int = 0,
    headmatter: str = "",
    extra_citations: Iterable[Mapping[str, Any]] = (),
    extra_clusters: Iterable[Mapping[str, Any]] = (),
) -> dict[str, Path]:
    """The four files the index reads, for ``cases``; returns {kind: path}."""
    citations = []
    for case in cases:
        case.cite_ids = []
        for k, (vol, rep, page) in enumerate(case.cites):
            cite_id = (
                930_000_000 + (case.id % 10_000_000) * 10 + k
            )  # stable across dumps, as CourtListener's are
            case.cite_ids.append(cite_id)
            kind = case.types[k] if case.types is not None else 3
            citations.append({"id": cite_id, "volume": vol, "reporter": rep, "page": page, "type": kind,
                              "cluster_id": case.id, "date_created": STAMP,
                              "date_modified": case.modified})  # fmt: skip
    clusters = [
        {"id": c.id, "date_created": STAMP, "date_modified": c.modified, "judges": "", "date_filed": c.date,
         "date_filed_is_approximate": False, "slug": c.name.lower().replace(" ", "-")[:75],
         "case_name_short": c.short or "", "case_name": c.name, "case_name_full": c.full or "", "scdb_id": "",
         "source": "U", "attorneys": "", "syllabus": "", "headnotes": "", "summary": "", "disposition": "",
         "citation_count": c.cited, "precedential_status": c.status, "blocked": False, "docket_id": c.id + 100_000_000,
         "headmatter": headmatter}
        for c in cases
    ]  # fmt: skip
    dockets = [
        {"id": c.id + 100_000_000, "date_created": STAMP, "date_modified": c.modified, "source": 16,
         "case_name": c.name, "docket_number": c.docket_number, "court_id": c.court, "blocked": False}
        for c in cases
    ]  # fmt: skip
    dockets += [
        {"id": 500_000_000 + i, "date_created": STAMP, "date_modified": STAMP, "source": 1,
         "case_name": f"Recap Party {i} v. Other {i}", "docket_number": f"1:2{i % 10}-cv-{i:05d}",
         "court_id": "md", "cause": "28:1332 Diversity", "blocked": False}
        for i in range(unreferenced_dockets)
    ]  # fmt: skip
    court_rows = [
        {**c, "date_modified": STAMP, "in_use": True} for c in (courts if courts is not None else COURTS)
    ]
    paths = {}
    for kind, rows in (
        ("courts", court_rows),
        ("dockets", dockets),
        ("opinion-clusters", [*clusters, *extra_clusters]),
        ("citations", [*citations, *extra_citations]),
    ):
        with open_dump_file(folder, kind, date, compress=compress) as out:
            write_table(out, kind, rows)
        paths[kind] = folder / f"{kind}-{date}.csv{'.bz2' if compress else ''}"
    return paths


def closed_volume_cases() -> list[Case]:
    """A made-up closed-series volume (100 A.2d), a running one (12 F.4th) and a U.S. volume.

    Pages: 100 A.2d 1, 7, 15, 36, 45, 60; 12 F.4th 101, 115, 130; 410 U.S. 113, 179, 224; 411 U.S. 1.
    """
    md, ca4 = "md", "ca4"
    return [
        Case(id=910000101, name="Harbor Realty Co. v. Baltimore County",
             cites=[("100", "A.2d", "1"), ("203", "Md.", "1")], date="1953-10-14", court=md, docket_number="No. 12",
             short="Harbor Realty",
             full="HARBOR REALTY COMPANY v. BALTIMORE COUNTY, Maryland"),
        Case(id=910000102, name="Smith v. State", cites=[("100", "A.2d", "7")], date="1953-10-20", court=md),
        Case(id=910000103, name="Int'l Bhd. of Elec. Workers v. Chesapeake Tel. Co.", cites=[("100", "A.2d", "15")],
             date="1953-11-02", court=md, full="International Brotherhood of Electrical Workers, Local 24 v. "
             "Chesapeake and Potomac Telephone Company of Baltimore City"),
        Case(id=910000104, name="Peyton v. District of Columbia", cites=[("100", "A.2d", "36")], date="1953-11-17",
             court="dc", docket_number="No. 1375", short="Peyton"),
        Case(id=910000105, name="Dep't of Human Res. v. Johnson", cites=[("100", "A.2d", "45")], date="1953-12-01",
             court=md, full="DEPARTMENT OF HUMAN RESOURCES v. Mary JOHNSON"),
        Case(id=910000106, name="Jones v. Board of Education", cites=[("100", "A.2d", "60")], date="1953-12-15",
             court=md),
        Case(id=910000201, name="United States v. Alvarez-Lopez", cites=[("12", "F.4th", "101")], date="2021-08-20",
             court=ca4, docket_number="No. 20-4123"),
        Case(id=910000202, name="Carter v. Fleming", cites=[("12", "F.4th", "115")], date="2021-08-24", court=ca4),
        Case(id=910000203, name="Nguyen v. Holder", cites=[("12", "F.4th", "130")], date="2021-08-30", court=ca4),
        Case(id=910000301, name="Roe v. Wade", cites=[("410", "U.S.", "113"), ("93", "S. Ct.", "705")],
             date="1973-01-22", court="scotus", docket_number="No. 70-18", short="Roe"),
        Case(id=910000302, name="Doe v. Bolton", cites=[("410", "U.S.", "179"), ("93", "S. Ct.", "739")],
             date="1973-01-22", court="scotus", docket_number="No. 70-40", short="Doe"),
        Case(id=910000304, name="Cole v. Arkansas Dep't of Correction", cites=[("410", "U.S.", "224")],
             date="1973-01-22", court="scotus"),
        Case(id=910000303, name="San Antonio Indep. Sch. Dist. v. Rodriguez", cites=[("411", "U.S.", "1")],
             date="1973-03-21", court="scotus"),
    ]  # fmt: skip


def index_status(index: Path, cite: str):  # -> citecheck.sources.models.LookupStatus
    """What the citation index file at ``index`` answers for ``"100 A.2d 36"``."""
    from citecheck.sources.index.lookup import CitationIndex
    from citecheck.sources.models import CiteKey

    vol, rest = cite.split(" ", 1)
    rep, page = rest.rsplit(" ", 1)
    ix = CitationIndex(index)
    try:
        key = CiteKey(vol, rep, page)
        return ix.lookup([key])[key].status
    finally:
        ix.close()


#: The first layout (schema 1), as citecheck wrote it until this change.
SCHEMA_1 = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT) WITHOUT ROWID;
CREATE TABLE courts (idx INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE, name TEXT, short_name TEXT,
    citation_string TEXT, jurisdiction TEXT, place TEXT);
CREATE TABLE reporters (idx INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE);
CREATE TABLE cases (id INTEGER PRIMARY KEY, docket INTEGER, date_filed INTEGER, status INTEGER,
    name TEXT NOT NULL, short TEXT, full TEXT);
CREATE TABLE dockets (id INTEGER PRIMARY KEY, court INTEGER, number TEXT);
CREATE TABLE cites (reporter INTEGER NOT NULL, volume NOT NULL, page NOT NULL, cluster INTEGER NOT NULL,
    cite_id INTEGER NOT NULL, type INTEGER, PRIMARY KEY (reporter, volume, page, cluster)) WITHOUT ROWID;
CREATE TABLE volumes (reporter INTEGER NOT NULL, volume NOT NULL, cases INTEGER NOT NULL,
    complete INTEGER NOT NULL, last_date INTEGER, first_pages BLOB NOT NULL,
    PRIMARY KEY (reporter, volume)) WITHOUT ROWID;
CREATE VIRTUAL TABLE names USING fts5(tokens, content='', columnsize=0, detail=none);
CREATE INDEX cites_cluster ON cites (cluster, cite_id);
"""


def schema1_index(path: Path, date: str = "2026-06-30") -> Path:
    """A schema-1 index holding 100 A.2d 36, as the previous citecheck built it from that dump."""
    import sqlite3

    path.parent.mkdir(parents=True, exist_ok=True)
    db = sqlite3.connect(path)
    db.executescript(SCHEMA_1)
    meta = {"schema_version": "1", "name_keys_version": "1", "dump_date": date, "full_dump": "1",
            "built_at": "2026-07-01T00:00:00Z", "built_by": "full", "mark_citations": "2026-06-29",
            "mark_clusters": "2026-06-29", "mark_dockets": "2026-06-29", "cases": "1", "citations": "1"}  # fmt: skip
    db.executemany("INSERT INTO meta VALUES (?, ?)", list(meta.items()))
    db.execute("INSERT INTO reporters VALUES (1, 'A.2d')")
    db.execute(
        "INSERT INTO cases VALUES (910000104, NULL, 19531117, 1, 'Peyton v. District of Columbia', NULL, NULL)"
    )
    db.execute("INSERT INTO cites VALUES (1, 100, 36, 910000104, 1, 3)")
    db.commit()
    db.close()
    return path
