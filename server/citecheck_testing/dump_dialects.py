"""CourtListener's bulk-file dialects over time, and rows to write in them (tests only, never shipped).

Every dump is PostgreSQL ``COPY <table> (<columns>) TO STDOUT WITH (<options>)`` piped to bzip2
(``scripts/make_bulk_data.sh`` in freelawproject/courtlistener). Its options changed four times; these
are the options of each era, read from that script's history (commit, date):

- ``default`` (until 2023-07): ``FORMAT csv, ENCODING utf8, HEADER`` — a value is quoted only when it
  must be, a quote is doubled (b9934ecfe, 2023-06-30);
- ``doubled`` (2023-07 → 2024-07): ``… HEADER, FORCE_QUOTE *`` — every non-NULL value quoted, quotes
  doubled (54d9825d4, 2023-07-07; proposed again in open PR #6707);
- ``backtick`` (2024-08 → 2025-01): ``… HEADER, QUOTE '`', FORCE_QUOTE *`` — values in backticks, a
  backtick doubled, ``"`` literal (514066806, 2024-08-07);
- ``backslash`` (since 2025-01-23): ``… HEADER, ESCAPE '\\', FORCE_QUOTE *`` — ``"`` written ``\\"``
  and ``\\`` written ``\\\\`` (1ddd590df); citations gained ``date_created, date_modified`` on
  2025-11-20 (dfbea0f09), so dumps before that lack them.

``COLUMNS`` holds each era's column lists of the four files the index reads (facts read from the script;
its code is not copied). ``write_table`` writes rows as PostgreSQL's COPY does in a dialect; the files in
``tests/sources/index/dumps/`` were written by a real PostgreSQL (``make_dumps.py`` there) and the tests
check this writer gives the same bytes, so it can write dumps of the shared corpus's real rows in every
dialect without a PostgreSQL. ``fixture_tables`` is the rows of those files: real cases (names and
citations as published) and the gap shapes of CourtListener's data (issue 32), written here by hand.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any


@dataclass(frozen=True, slots=True)
class Dialect:
    name: str
    options: str  # the COPY options, as the script gave them to PostgreSQL
    quote: str
    escape: str
    force_quote: bool
    era: str  # the column lists of its time (``COLUMNS``)
    date: str  # a dump date of that era, for file names


DIALECTS: dict[str, Dialect] = {
    d.name: d
    for d in (
        Dialect("default", "FORMAT csv, ENCODING utf8, HEADER", '"', '"', False, "2023-06", "2023-06-30"),
        Dialect("doubled", "FORMAT csv, ENCODING utf8, HEADER, FORCE_QUOTE *", '"', '"', True, "2023-10",
                "2024-03-31"),
        Dialect("backtick", "FORMAT csv, ENCODING utf8, HEADER, QUOTE '`', FORCE_QUOTE *", "`", "`", True,
                "2024-08", "2024-12-31"),
        Dialect("backslash-nodates", "FORMAT csv, ENCODING utf8, HEADER, ESCAPE '\\', FORCE_QUOTE *", '"',
                "\\", True, "2025-01", "2025-06-30"),
        Dialect("backslash", "FORMAT csv, ENCODING utf8, HEADER, ESCAPE '\\', FORCE_QUOTE *", '"', "\\", True,
                "2026-08", "2026-06-30"),
    )
}  # fmt: skip

_COURTS_2023_06 = (
    "id pacer_court_id pacer_has_rss_feed fjc_court_id date_modified in_use has_opinion_scraper "
    "has_oral_argument_scraper position citation_string short_name full_name url start_date end_date jurisdiction"
)
_COURTS = (
    "id pacer_court_id pacer_has_rss_feed pacer_rss_entry_types date_last_pacer_contact fjc_court_id "
    "date_modified in_use has_opinion_scraper has_oral_argument_scraper position citation_string short_name "
    "full_name url start_date end_date jurisdiction notes parent_court_id"
)
_DOCKETS_2023_06 = (
    "id date_created date_modified source appeal_from_str assigned_to_str referred_to_str panel_str "
    "date_cert_granted date_cert_denied date_argued date_reargued date_reargument_denied date_filed "
    "date_terminated date_last_filing case_name_short case_name case_name_full slug docket_number "
    "docket_number_core pacer_case_id cause nature_of_suit jury_demand jurisdiction_type appellate_fee_status "
    "appellate_case_type_information mdl_status filepath_ia filepath_ia_json date_blocked blocked "
    "appeal_from_id assigned_to_id court_id idb_data_id originating_court_information_id referred_to_id"
)
_DOCKETS_2023_10 = (
    "id date_created date_modified source appeal_from_str assigned_to_str referred_to_str panel_str "
    "date_last_index date_cert_granted date_cert_denied date_argued date_reargued date_reargument_denied "
    "date_filed date_terminated date_last_filing case_name_short case_name case_name_full slug docket_number "
    "docket_number_core pacer_case_id cause nature_of_suit jury_demand jurisdiction_type appellate_fee_status "
    "appellate_case_type_information mdl_status filepath_local filepath_ia filepath_ia_json "
    "ia_upload_failure_count ia_needs_upload ia_date_first_change view_count date_blocked blocked "
    "appeal_from_id assigned_to_id court_id idb_data_id originating_court_information_id referred_to_id"
)
_DOCKETS_FEDERAL = (
    " federal_dn_case_type federal_dn_office_code federal_dn_judge_initials_assigned "
    "federal_dn_judge_initials_referred federal_defendant_number parent_docket_id"
)
_CLUSTERS_2023_06 = (
    "id date_created date_modified judges date_filed date_filed_is_approximate slug case_name_short case_name "
    "case_name_full scdb_id scdb_decision_direction scdb_votes_majority scdb_votes_minority source "
    "procedural_history attorneys nature_of_suit posture syllabus headnotes summary disposition history "
    "other_dates cross_reference correction citation_count precedential_status date_blocked blocked docket_id"
)
_CLUSTERS_2024_08 = _CLUSTERS_2023_06.replace(
    "blocked docket_id", "blocked filepath_json_harvard docket_id arguments headmatter"
)
_CLUSTERS_2025 = _CLUSTERS_2023_06.replace(
    "blocked docket_id", "blocked filepath_json_harvard filepath_pdf_harvard docket_id arguments headmatter"
)
_CITATIONS_OLD = "id volume reporter page type cluster_id"

#: The columns of the four files in each era (``scripts/make_bulk_data.sh`` at b9934ecfe, ab58da08c,
#: 514066806, 1ddd590df, 26a474e6).
COLUMNS: dict[str, dict[str, tuple[str, ...]]] = {
    era: {kind: tuple(cols.split()) for kind, cols in tables.items()}
    for era, tables in {
        "2023-06": {"courts": _COURTS_2023_06, "dockets": _DOCKETS_2023_06,
                    "opinion-clusters": _CLUSTERS_2023_06, "citations": _CITATIONS_OLD},
        "2023-10": {"courts": _COURTS, "dockets": _DOCKETS_2023_10, "opinion-clusters": _CLUSTERS_2024_08,
                    "citations": _CITATIONS_OLD},
        "2024-08": {"courts": _COURTS, "dockets": _DOCKETS_2023_10 + _DOCKETS_FEDERAL,
                    "opinion-clusters": _CLUSTERS_2024_08, "citations": _CITATIONS_OLD},
        "2025-01": {"courts": _COURTS, "dockets": _DOCKETS_2023_10 + _DOCKETS_FEDERAL,
                    "opinion-clusters": _CLUSTERS_2025, "citations": _CITATIONS_OLD},
        "2026-08": {"courts": _COURTS,
                    "dockets": _DOCKETS_2023_10 + _DOCKETS_FEDERAL + " docket_number_raw docket_number_source",
                    "opinion-clusters": _CLUSTERS_2025,
                    "citations": _CITATIONS_OLD + " date_created date_modified"},
    }.items()
}  # fmt: skip

KINDS = ("courts", "dockets", "opinion-clusters", "citations")
TABLES = {"courts": "search_court", "dockets": "search_docket", "opinion-clusters": "search_opinioncluster",
          "citations": "search_citation"}  # fmt: skip


def copy_field(value: Any, dialect: Dialect) -> str:
    """One value as PostgreSQL's CSV COPY writes it in ``dialect`` (``CopyAttributeOutCSV``): NULL an
    empty field, a value quoted when forced or when it holds the delimiter, the quote or a line break (an
    empty string always), and inside quotes each quote or escape character preceded by the escape."""
    if value is None:
        return ""
    if isinstance(value, bool):
        value = "t" if value else "f"
    text = str(value)
    q, e = dialect.quote, dialect.escape
    must = dialect.force_quote or text == "" or any(ch in text for ch in (",", q, "\n", "\r"))
    if not must:
        return text
    out = []
    for ch in text:
        if ch == q or ch == e:
            out.append(e)
        out.append(ch)
    return q + "".join(out) + q


def write_table(path: Path, kind: str, rows: Iterable[Mapping[str, Any]], dialect: Dialect) -> int:
    """``rows`` (column → value; absent columns NULL) under the era's header, as COPY writes them."""
    columns = COLUMNS[dialect.era][kind]
    n = 0
    with path.open("w", encoding="utf-8", newline="") as out:
        out.write(",".join(columns) + "\n")
        for row in rows:
            out.write(",".join(copy_field(row.get(c), dialect) for c in columns) + "\n")
            n += 1
    return n


def write_dump(
    folder: Path, tables: Mapping[str, Iterable[Mapping[str, Any]]], dialect: Dialect
) -> dict[str, Path]:
    """The four files of one dump in ``dialect``; returns {kind: path}."""
    folder.mkdir(parents=True, exist_ok=True)
    paths = {}
    for kind in KINDS:
        paths[kind] = folder / f"{kind}-{dialect.date}.csv"
        write_table(paths[kind], kind, tables.get(kind, ()), dialect)
    return paths


# --------------------------------------------------------------------------------------------- rows

STAMP = "2024-03-28 13:25:40+00"


@dataclass(frozen=True, slots=True)
class FixtureCase:
    """One reported case of the fixture dump: its cluster, docket and citations (the first official)."""

    id: int
    name: str
    court: str
    date: str
    cites: tuple[tuple[str, str, str, int], ...]  # (volume, reporter, page, CourtListener type)
    docket_number: str | None = None
    full: str | None = None
    status: str = "Published"
    syllabus: str | None = None


#: Real cases, as their reporters print them (names and citations are public facts, written here by hand),
#: with text that exercises every escaping rule (a quote in a name, a backslash and a backtick in a
#: field, a newline in the head matter, empty strings beside NULLs).
REAL_CASES: tuple[FixtureCase, ...] = (
    FixtureCase(4_100_001, "Roe v. Wade", "scotus", "1973-01-22",
                (("410", "U.S.", "113", 1), ("93", "S. Ct.", "705", 1), ("35", "L. Ed. 2d", "147", 1)), "No. 70-18"),
    FixtureCase(4_100_002, "Doe v. Bolton", "scotus", "1973-01-22",
                (("410", "U.S.", "179", 1), ("93", "S. Ct.", "739", 1)), "No. 70-40"),
    FixtureCase(4_100_003, "Miranda v. Arizona", "scotus", "1966-06-13",
                (("384", "U.S.", "436", 1), ("86", "S. Ct.", "1602", 1)), "No. 759"),
    FixtureCase(4_100_004, "Brown v. Board of Education", "scotus", "1954-05-17",
                (("347", "U.S.", "483", 1), ("74", "S. Ct.", "686", 1)), "No. 1"),
    FixtureCase(4_100_005, "Mata v. Avianca, Inc.", "nysd", "2023-06-22", (("678", "F. Supp. 3d", "443", 1),),
                "No. 22-cv-1461 (PKC)"),
    FixtureCase(4_100_006, 'In re "Agent Orange" Product Liability Litigation', "ca2", "1987-04-21",
                (("818", "F.2d", "145", 1),), "Nos. 84-6273", syllabus="Settlement approved; see C:\\records\\ao."),
    FixtureCase(4_100_007, "Peyton v. District of Columbia", "dc", "1953-11-06", (("100", "A.2d", "36", 3),),
                "No. 1389"),
    FixtureCase(4_100_008, "Branson v. Harris", "dc", "1953-11-06", (("100", "A.2d", "38", 3),), "No. 1377"),
    FixtureCase(4_100_009, "United States v. Lewis", "dc", "1953-11-06", (("100", "A.2d", "40", 3),), "No. 1393"),
    FixtureCase(4_100_010, "Savage v. Parks", "dc", "1953-12-02", (("100", "A.2d", "450", 3),), "No. 1395"),
    FixtureCase(4_100_011, "Nowinski v. Randall H. Hagner & Co.", "dc", "1953-12-02", (("100", "A.2d", "452", 3),),
                "No. 1402"),
    FixtureCase(4_100_012, "Seaboard Finance Co. v. Ruppert", "dc", "1953-12-03", (("100", "A.2d", "454", 3),),
                "No. 1404"),
    FixtureCase(4_100_013, "Pennsylvania R. v. Newmyer", "dc", "1953-12-04", (("100", "A.2d", "456", 3),),
                "No. 1384"),
    FixtureCase(4_100_014, "Berry v. Keith", "dc", "1953-12-29", (("100", "A.2d", "831", 3),), "No. 1411"),
    FixtureCase(4_100_015, "Clarke v. District of Columbia", "dc", "1953-12-30", (("100", "A.2d", "833", 3),),
                "No. 1392"),
    # a consolidated caption: CourtListener's name joins the captions with ';' (issue 32)
    FixtureCase(4_100_016, "Mark James ASAY, Appellant, v. STATE of Florida, Appellee; Mark James Asay, "
                "Petitioner, v. Julie L. Jones, etc., Respondent", "fla", "2016-12-22",
                (("210", "So. 3d", "1", 2),), "Nos. SC16-223, SC16-102"),
    # the neutral citation 1992-Ohio-2 is missing from the data (#3992, #5768); its parallels are there
    FixtureCase(4_100_017, "State ex rel. Fenley v. Ohio Historical Society", "ohio", "1992-08-26",
                (("64", "Ohio St. 3d", "509", 2), ("597", "N.E.2d", "120", 3)), "No. 91-1994"),
)  # fmt: skip

#: The shapes of CourtListener's known gaps (issue 32), made up in the real shape: what a brief cites
#: correctly that the data lacks or holds wrong.
GAP_CASES: tuple[FixtureCase, ...] = (
    # a Maryland case with its official citation only: the A.2d parallel is missing (CAP #345, #2013)
    FixtureCase(4_200_001, "Harbor Realty Co. v. Baltimore County", "md", "1953-10-14", (("203", "Md.", "1", 2),),
                "No. 12"),
    # three table dispositions on 995 F.2d 1065 (#339); the brief cites a fourth the data lacks
    FixtureCase(4_200_002, "United States v. Ames", "ca4", "1993-05-20", (("995", "F.2d", "1060", 1),)),
    FixtureCase(4_200_003, "Baird v. Collins", "ca4", "1993-05-20", (("995", "F.2d", "1065", 1),),
                status="Unpublished"),
    FixtureCase(4_200_004, "Cole v. Dunn", "ca4", "1993-05-20", (("995", "F.2d", "1065", 1),), status="Unpublished"),
    FixtureCase(4_200_005, "Estes v. Ford", "ca4", "1993-05-21", (("995", "F.2d", "1065", 1),), status="Unpublished"),
    FixtureCase(4_200_006, "United States v. Grant", "ca4", "1993-05-24", (("995", "F.2d", "1070", 1),)),
    # several U.S. cases printed on one page (#336): the data holds one of those at 346 U.S. 906
    FixtureCase(4_200_007, "Hale v. Indiana", "scotus", "1953-12-07", (("346", "U.S.", "900", 1),)),
    FixtureCase(4_200_008, "Ives v. Jordan", "scotus", "1953-12-07", (("346", "U.S.", "906", 1),)),
    FixtureCase(4_200_009, "Kemp v. Lowe", "scotus", "1953-12-07", (("346", "U.S.", "907", 1),)),
    FixtureCase(4_200_010, "Moss v. Nash", "scotus", "1953-12-14", (("346", "U.S.", "930", 1),)),
    # 131 U.S.: its appendix is paged in roman numerals (CAP #802)
    FixtureCase(4_200_011, "Owen v. Pike", "scotus", "1889-05-13", (("131", "U.S.", "1", 1),)),
    FixtureCase(4_200_012, "Quinn v. Reed", "scotus", "1889-05-13", (("131", "U.S.", "22", 1),)),
    FixtureCase(4_200_013, "Shaw v. Todd", "scotus", "1889-05-13", (("131", "U.S.", "40", 1),)),
    # a pagination error (CAP #2115): the data puts this case at 601; it begins at 600
    FixtureCase(4_200_014, "Kelly v. Shore", "dc", "1953-12-10", (("100", "A.2d", "601", 3),), "No. 1420"),
    # a volume filed under the wrong reporter (#4930): 12 Ohio App. 3d's cases as Ohio App. 2d
    FixtureCase(4_200_015, "Underwood v. Vance", "ohioctapp", "1983-11-02", (("12", "Ohio App. 2d", "45", 2),)),
    FixtureCase(4_200_016, "Wade v. Xavier", "ohioctapp", "1983-11-09", (("12", "Ohio App. 2d", "60", 2),)),
    FixtureCase(4_200_017, "Young v. Zane", "ohioctapp", "1983-11-16", (("12", "Ohio App. 2d", "77", 2),)),
)  # fmt: skip

COURTS: tuple[tuple[str, str, str, str, str], ...] = (
    # (id, full_name, short_name, citation_string, jurisdiction) as CourtListener names them
    ("scotus", "Supreme Court of the United States", "Supreme Court", "SCOTUS", "F"),
    ("ca2", "Court of Appeals for the Second Circuit", "Second Circuit", "2d Cir.", "F"),
    ("ca4", "Court of Appeals for the Fourth Circuit", "Fourth Circuit", "4th Cir.", "F"),
    ("nysd", "District Court, S.D. New York", "S.D. New York", "S.D.N.Y.", "FD"),
    ("dc", "District of Columbia Court of Appeals", "D.C.", "D.C.", "S"),
    ("md", "Court of Appeals of Maryland", "Court of Appeals of Maryland", "Md.", "S"),
    ("fla", "Supreme Court of Florida", "Supreme Court of Florida", "Fla.", "S"),
    ("ohio", "Ohio Supreme Court", "Ohio Supreme Court", "Ohio", "S"),
    ("ohioctapp", "Ohio Court of Appeals", "Ohio Court of Appeals", "Ohio Ct. App.", "SA"),
)


def fixture_tables(cases: Iterable[FixtureCase] = REAL_CASES + GAP_CASES) -> dict[str, list[dict[str, Any]]]:
    """The rows of the fixture dump: one docket and cluster per case, one citation row per citation."""
    courts = [
        {"id": cid, "full_name": full, "short_name": short, "citation_string": cite, "jurisdiction": jur,
         "date_modified": STAMP, "in_use": True, "has_opinion_scraper": cid != "dc", "has_oral_argument_scraper": False,
         "pacer_has_rss_feed": None, "position": None, "url": "", "notes": "", "start_date": None}
        for cid, full, short, cite, jur in COURTS
    ]  # fmt: skip
    dockets, clusters, citations = [], [], []
    cite_id = 7_000_000
    for n, c in enumerate(cases):
        docket = c.id + 50_000_000
        dockets.append({"id": docket, "date_created": STAMP, "date_modified": STAMP, "source": 16,
                        "case_name": c.name, "case_name_short": "", "case_name_full": c.full or "",
                        "slug": c.name.lower().replace(" ", "-")[:50], "docket_number": c.docket_number,
                        "court_id": c.court, "blocked": False, "ia_needs_upload": None, "view_count": 0})  # fmt: skip
        head = (
            f'<section class="head-matter">\n<p class="parties">{c.name}</p>\n<p class="court">{c.court}</p>'
            "\n</section>"
            if n % 2 == 0
            else None
        )
        clusters.append({"id": c.id, "date_created": STAMP, "date_modified": STAMP, "judges": "",
                         "date_filed": c.date, "date_filed_is_approximate": False,
                         "slug": c.name.lower().replace(" ", "-")[:50], "case_name_short": "", "case_name": c.name,
                         "case_name_full": c.full or "", "source": "U", "procedural_history": "",
                         "attorneys": "", "syllabus": c.syllabus or "", "headnotes": "", "summary": "",
                         "disposition": "Affirmed." if n % 3 else None, "history": "", "other_dates": "",
                         "cross_reference": "", "correction": "", "citation_count": 10 * (n + 1),
                         "precedential_status": c.status, "blocked": False, "docket_id": docket,
                         "headmatter": head})  # fmt: skip
        for vol, rep, page, kind in c.cites:
            cite_id += 1
            citations.append({"id": cite_id, "volume": vol, "reporter": rep, "page": page, "type": kind,
                              "cluster_id": c.id, "date_created": STAMP, "date_modified": STAMP})  # fmt: skip
    # a docket no case refers to (RECAP), with a backtick and quotes in its name
    dockets.append({"id": 99_000_001, "date_created": STAMP, "date_modified": STAMP, "source": 1,
                    "case_name": 'O`Neil v. "Acme" Corp.', "docket_number": "1:23-cv-00001", "court_id": "nysd",
                    "blocked": False, "cause": "28:1332 Diversity-Breach of Contract"})  # fmt: skip
    return {"courts": courts, "dockets": dockets, "opinion-clusters": clusters, "citations": citations}


__all__ = [
    "COLUMNS",
    "DIALECTS",
    "GAP_CASES",
    "REAL_CASES",
    "Dialect",
    "FixtureCase",
    "copy_field",
    "fixture_tables",
    "write_dump",
    "write_table",
]
