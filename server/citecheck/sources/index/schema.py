"""The citation index's SQLite schema: metadata only, compact, keyed for one-probe lookups.

- ``cites`` is a WITHOUT ROWID table keyed by (reporter, volume, page, cluster): looking a citation
  up is one B-tree probe that reads nothing else. Reporters are small integers (``reporters``);
  volumes and pages are integers when they are numbers (most), text otherwise (``13301-M``).
- ``volumes`` holds, per reporter volume, the sorted first pages of its cases (a packed array) and
  whether the index holds the volume in full: "which case's pages does page P fall in, and which
  cases come before and after it" is one probe and a bisection.
- ``cases`` (one row per CourtListener cluster, keyed by its id) and ``dockets`` (only those a
  cluster refers to: court and docket number) give the record; ``courts`` names the courts.
- ``names`` is a contentless FTS5 table (no positions) of each case's name keys
  (``sources.name_keys.name_tokens``), for the case-name search.

See docs/sources.md ("The citation index") for sizes and the coverage rule.
"""

from __future__ import annotations

SCHEMA_VERSION = 1

TABLES = """
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
"""

#: Built after the rows are in (one sort instead of a random insert per row).
INDEXES = "CREATE INDEX IF NOT EXISTS cites_cluster ON cites (cluster, cite_id);"

#: CourtListener's precedential_status values, stored as small integers.
STATUSES = ("Unknown", "Published", "Unpublished", "Errata", "Separate", "In-chambers", "Relating-to")
STATUS_CODE = {s: i for i, s in enumerate(STATUSES)}
