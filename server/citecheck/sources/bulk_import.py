"""Import CourtListener bulk CSVs (courts, dockets, opinion-clusters, citations, opinions).

The dumps are PostgreSQL ``COPY … CSV … ESCAPE '\\'`` output: every value quoted, quotes escaped
with a backslash (not doubled), newlines inside fields, fields far over csv's default size limit,
and opinions files of ~50 GB (bz2). So everything streams: rows go straight into TEMP staging
tables in the corpus file (on disk, not in memory), then each cluster is assembled — head matter
first, then its opinions by id — into one clean text with page maps. Memory stays flat whatever the
file size. Re-importing the same files replaces the same cases (by ``cl:<cluster id>``).
"""

from __future__ import annotations

import bz2
import csv
import io
import json
import re
import sqlite3
import sys
from collections.abc import Iterator
from functools import lru_cache
from pathlib import Path
from typing import Any, BinaryIO, cast

from citecheck.errors import ImportFormatError
from citecheck.sources.corpus import Corpus, storage_error
from citecheck.sources.importing import ImportStats, NullProgress, ProgressSink
from citecheck.sources.models import CaseCite, CaseRecord
from citecheck.sources.pagination import (
    Marker,
    ParsedText,
    derived_last_page,
    html_to_text,
    join_texts,
    opinion_text,
    page_maps,
)
from citecheck.sources.reporters import normalise_reporter

_FILE = re.compile(
    r"^(courts|dockets|opinion-clusters|citations|opinions)(?:-\d{4}-\d{2}-\d{2})?\.csv(?:\.bz2)?$"
)
#: CourtListener's own best-text order (OPINION_TEXT_SOURCE_FIELDS, then plain_text).
TEXT_FIELDS = (
    "html_with_citations",
    "xml_harvard",
    "html_columbia",
    "html_lawbox",
    "html_anon_2020",
    "html",
    "plain_text",
)
_COMMIT_EVERY = 2000
_ASSEMBLE_PAGE = 500
COURTLISTENER_WEB = "https://www.courtlistener.com"


def find_bulk_files(folder: Path) -> dict[str, Path]:
    """``{"opinion-clusters": path, ...}``; the newest dump wins when several dates are present."""
    out: dict[str, Path] = {}
    if not folder.is_dir():
        return out
    for p in sorted(folder.iterdir()):
        m = _FILE.match(p.name)
        if m and p.is_file():
            out[m.group(1)] = p  # sorted: a later date replaces an earlier one
    return out


class _CountingReader(io.RawIOBase):
    """Counts bytes read from the underlying (possibly compressed) file, for the progress bar."""

    def __init__(self, raw: BinaryIO) -> None:
        self.raw = raw
        self.count = 0

    def readable(self) -> bool:
        return True

    def readinto(self, b: Any) -> int:
        n = cast(io.RawIOBase, self.raw).readinto(b)
        self.count += n or 0
        return n or 0


#: Columns each file must have (others are optional; CourtListener adds columns over time).
REQUIRED = {
    "courts": ("id",),
    "dockets": ("id", "court_id"),
    "opinion-clusters": ("id", "case_name"),
    "citations": ("id", "volume", "reporter", "page", "cluster_id"),
    "opinions": ("id", "cluster_id"),
}


def read_rows(path: Path, progress: ProgressSink) -> Iterator[dict[str, str]]:
    """Stream dict rows from a bulk CSV (plain or .bz2), mapping columns by header name."""
    csv.field_size_limit(sys.maxsize)
    progress.stage(path.name, path.stat().st_size)
    with open(path, "rb") as fh:
        counter = _CountingReader(fh)
        buffered = io.BufferedReader(counter, buffer_size=1 << 20)
        binary = cast(BinaryIO, bz2.BZ2File(buffered) if path.name.endswith(".bz2") else buffered)
        text = io.TextIOWrapper(binary, encoding="utf-8", newline="")
        reader = csv.reader(text, quotechar='"', escapechar="\\", doublequote=False)
        try:
            header = next(reader)
        except StopIteration:
            return
        except (csv.Error, OSError, EOFError, UnicodeDecodeError) as exc:
            raise ImportFormatError(f"{path}: not a readable CSV ({exc})") from exc
        m = _FILE.match(path.name)
        missing = [c for c in REQUIRED.get(m.group(1) if m else "", ()) if c not in header]
        if missing:
            raise ImportFormatError(f"{path}: no {', '.join(missing)} column(s) in its header")
        seen = 0
        try:
            for row in reader:
                if len(row) != len(header):
                    raise ImportFormatError(
                        f"{path}: row {reader.line_num} has {len(row)} fields, header has {len(header)}"
                        " (is this CourtListener's backslash-escaped dialect?)"
                    )
                yield dict(zip(header, row, strict=True))
                if counter.count - seen >= 1 << 16:
                    progress.advance(counter.count - seen)
                    seen = counter.count
        except (csv.Error, OSError, EOFError, UnicodeDecodeError) as exc:
            raise ImportFormatError(f"{path}: unreadable at line {reader.line_num} ({exc})") from exc
        progress.advance(counter.count - seen)


def _encode_markers(p: ParsedText) -> str:
    return json.dumps([[m.offset, m.label, m.index] for m in p.markers])


def _decode(text: str, markers: str) -> ParsedText:
    return ParsedText(text, tuple(Marker(int(o), str(lbl), int(i)) for o, lbl, i in json.loads(markers)))


def best_text(row: dict[str, str]) -> tuple[str, str]:
    """``(field, value)`` of the first non-empty text field in CourtListener's order."""
    for name in TEXT_FIELDS:
        value = row.get(name)
        if value and value.strip():
            return name, value
    return "plain_text", ""


_STAGING = """
CREATE TEMP TABLE IF NOT EXISTS cl_courts (id TEXT PRIMARY KEY, name TEXT, jurisdiction TEXT);
CREATE TEMP TABLE IF NOT EXISTS cl_dockets (id INTEGER PRIMARY KEY, court_id TEXT, docket_number TEXT);
CREATE TEMP TABLE IF NOT EXISTS cl_clusters (id INTEGER PRIMARY KEY, docket_id INTEGER, case_name TEXT,
    case_name_short TEXT, case_name_full TEXT, date_filed TEXT, slug TEXT, head TEXT, head_markers TEXT);
CREATE TEMP TABLE IF NOT EXISTS cl_cites (id INTEGER PRIMARY KEY, cluster_id INTEGER, volume TEXT,
    reporter TEXT, page TEXT, type TEXT);
CREATE INDEX IF NOT EXISTS temp.cl_cites_cluster ON cl_cites (cluster_id, id);
CREATE TEMP TABLE IF NOT EXISTS cl_ops (id INTEGER PRIMARY KEY, cluster_id INTEGER, text TEXT, markers TEXT);
CREATE INDEX IF NOT EXISTS temp.cl_ops_cluster ON cl_ops (cluster_id, id);
"""


@lru_cache(maxsize=4096)
def court_place(court_id: str | None) -> str | None:
    """Jurisdiction as a place, like CAP's ("Connecticut"; "United States" for federal courts), via courts-db."""
    if not court_id:
        return None
    from courts_db import courts  # a dependency; imported on first use (its data is large)

    for c in courts:
        if c.get("id") == court_id:
            if c.get("system") == "federal":
                return "United States"
            return c.get("location") or None
    return None


def _int(value: str | None) -> int | None:
    try:
        return int(value) if value not in (None, "") else None
    except ValueError:
        return None


def import_bulk(corpus: Corpus, folder: Path, *, progress: ProgressSink | None = None) -> ImportStats:
    """Import the bulk CSVs in ``folder``; clusters need their citations, opinions are optional."""
    progress = progress or NullProgress()
    files = find_bulk_files(folder)
    for needed in ("opinion-clusters", "citations"):
        if needed not in files:
            raise ImportFormatError(
                f"{folder}: no {needed}-*.csv[.bz2] file (needed for a CourtListener import)"
            )
    db = corpus.connection
    rows = skipped = refused = 0
    with corpus.lock:
        db.executescript(_STAGING)
        for table in ("cl_courts", "cl_dockets", "cl_clusters", "cl_cites", "cl_ops"):
            db.execute(f"DELETE FROM {table}")

        def stage(table: str, sql: str, values: Iterator[tuple]) -> int:
            nonlocal refused
            n, bad = _stage(corpus, sql, values)
            refused += bad
            return n

        if "courts" in files:
            rows += stage(
                "cl_courts",
                "INSERT OR REPLACE INTO cl_courts VALUES (?,?,?)",
                (
                    (
                        r["id"],
                        r.get("full_name") or r.get("short_name"),
                        court_place(r["id"]),
                    )
                    for r in read_rows(files["courts"], progress)
                ),
            )
        if "dockets" in files:
            rows += stage(
                "cl_dockets",
                "INSERT OR REPLACE INTO cl_dockets VALUES (?,?,?)",
                (
                    (_int(r["id"]), r.get("court_id") or None, r.get("docket_number") or None)
                    for r in read_rows(files["dockets"], progress)
                ),
            )

        def clusters() -> Iterator[tuple]:
            for r in read_rows(files["opinion-clusters"], progress):
                head = html_to_text(r.get("headmatter") or "")
                yield (
                    _int(r["id"]),
                    _int(r.get("docket_id")),
                    r.get("case_name") or r.get("case_name_full") or r.get("case_name_short") or "",
                    r.get("case_name_short") or None,
                    r.get("case_name_full") or None,
                    r.get("date_filed") or None,
                    r.get("slug") or None,
                    head.text,
                    _encode_markers(head),
                )

        rows += stage(
            "cl_clusters", "INSERT OR REPLACE INTO cl_clusters VALUES (?,?,?,?,?,?,?,?,?)", clusters()
        )
        rows += stage(
            "cl_cites",
            "INSERT OR REPLACE INTO cl_cites VALUES (?,?,?,?,?,?)",
            (
                (
                    _int(r["id"]),
                    _int(r["cluster_id"]),
                    r["volume"],
                    normalise_reporter(r["reporter"]),
                    r["page"],
                    r.get("type") or None,
                )
                for r in read_rows(files["citations"], progress)
            ),
        )

        if "opinions" in files:

            def opinions() -> Iterator[tuple]:
                nonlocal skipped
                for r in read_rows(files["opinions"], progress):
                    cluster = _int(r.get("cluster_id"))
                    known = db.execute("SELECT 1 FROM cl_clusters WHERE id = ?", (cluster,)).fetchone()
                    if not known:
                        skipped += 1
                        continue
                    parsed = opinion_text(*best_text(r))
                    yield (_int(r["id"]), cluster, parsed.text, _encode_markers(parsed))

            rows += stage("cl_ops", "INSERT OR REPLACE INTO cl_ops VALUES (?,?,?,?)", opinions())

        stats = _assemble(corpus, progress)
        for table in ("cl_courts", "cl_dockets", "cl_clusters", "cl_cites", "cl_ops"):
            db.execute(f"DELETE FROM {table}")
        db.commit()
    return ImportStats(
        format="courtlistener-bulk",
        cases=stats[0],
        opinions=stats[1],
        citations=stats[2],
        rows=rows,
        volumes=stats[3],
        skipped=skipped,
        refused=refused,
        refusal="rows without a usable id" if refused else None,
    )


def _stage(corpus: Corpus, sql: str, values: Iterator[tuple]) -> tuple[int, int]:
    """Insert ``values`` into a staging table, committing every ``_COMMIT_EVERY`` rows (only with room to
    merge them: ``Corpus.commit``); returns (rows staged, rows refused for want of an id)."""
    db = corpus.connection
    n = refused = 0
    db.execute("BEGIN")
    try:
        for v in values:
            if v[0] is None:  # a row without a usable id cannot be linked: refuse and count it
                refused += 1
                continue
            db.execute(sql, v)
            n += 1
            if n % _COMMIT_EVERY == 0:
                corpus.commit()
                db.execute("BEGIN")
        corpus.commit()
    except BaseException as exc:
        if db.in_transaction:  # after a full disk SQLite has rolled back already
            db.execute("ROLLBACK")
        if isinstance(exc, sqlite3.Error):
            raise storage_error(exc, corpus.path) from exc
        raise
    return n, refused


def _assemble(corpus: Corpus, progress: ProgressSink) -> tuple[int, int, int, tuple[str, ...]]:
    db = corpus.connection
    total = db.execute("SELECT count(*) FROM cl_clusters").fetchone()[0]
    progress.stage("assembling cases", total)
    cases = texts = cites_n = 0
    volumes: set[tuple[str, str]] = set()
    # keyset pages: never hold all clusters in memory (the real file has ~10 million)
    last_id = -1
    while True:
        page = db.execute(
            "SELECT c.id, c.case_name, c.case_name_short, c.case_name_full, c.date_filed, c.slug, c.head,"
            " c.head_markers, d.court_id, d.docket_number, k.name, k.jurisdiction FROM cl_clusters c"
            " LEFT JOIN cl_dockets d ON d.id = c.docket_id LEFT JOIN cl_courts k ON k.id = d.court_id"
            " WHERE c.id > ? ORDER BY c.id LIMIT ?",
            (last_id, _ASSEMBLE_PAGE),
        ).fetchall()
        if not page:
            break
        last_id = page[-1][0]
        with corpus.transaction():
            for row in page:
                n_cites, has_text = _assemble_one(corpus, row, volumes)
                cases += 1
                texts += int(has_text)
                cites_n += n_cites
                progress.advance(1)
    with corpus.transaction():
        for rep, vol in sorted(volumes):
            if not corpus.has_volume(rep, vol, "courtlistener"):
                corpus.mark_volume(rep, vol, "courtlistener", complete=False, last_page=None)
    return cases, texts, cites_n, tuple(f"{v} {r}" for r, v in sorted(volumes))


def _assemble_one(corpus: Corpus, row: tuple, volumes: set[tuple[str, str]]) -> tuple[int, bool]:
    """Build one cluster's case: head matter then opinions by id, citations by id (= citation index)."""
    db = corpus.connection
    cid, name, short, full, date, slug, head, head_markers, court_id, _docket, court_name, juris = row
    raw_cites = db.execute(
        "SELECT volume, reporter, page, type FROM cl_cites WHERE cluster_id = ? ORDER BY id", (cid,)
    ).fetchall()
    ops = db.execute("SELECT text, markers FROM cl_ops WHERE cluster_id = ? ORDER BY id", (cid,)).fetchall()
    joined = join_texts([_decode(head or "", head_markers or "[]")] + [_decode(t, m) for t, m in ops])
    cites = []
    for k, (vol, rep, page, typ) in enumerate(raw_cites, start=1):
        labels = [m.label for m in joined.markers if m.index == k]
        cites.append(
            CaseCite(volume=vol, reporter=rep, page=page, last_page=derived_last_page(page, labels), type=typ)
        )
        volumes.add((rep, vol))
    url = f"{COURTLISTENER_WEB}/opinion/{cid}/{slug}/" if slug else f"{COURTLISTENER_WEB}/opinion/{cid}/"
    record = CaseRecord(
        id=f"cl:{cid}",
        source="courtlistener",
        name=name or full or short or "",
        name_short=short,
        name_full=full,
        court_id=court_id,
        court_name=court_name,
        jurisdiction=juris or court_place(court_id),
        decision_date=date,
        citations=tuple(cites),
        url=url,
    )
    has_text = bool(ops)
    corpus.upsert_case(
        record, joined.text if has_text else None, page_maps(joined.markers, cites) if has_text else ()
    )
    return len(cites), has_text
