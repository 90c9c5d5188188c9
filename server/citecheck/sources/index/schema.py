"""The citation index's SQLite schema: metadata only, compact, laid out so a lookup reads two rows.

- ``volumes`` holds, per reporter volume, the sorted first pages of its cases and, beside them, the
  case (cluster id) that begins at each (two packed arrays): looking a citation up is one probe of its
  volume's row and a bisection, whether a case begins at the page (found) or not (the cases before and
  after it, and whether the index holds the volume in full). An integer volume's row id is computed
  from (reporter, volume), so that probe needs no index; text volumes go through ``volumes_key``.
- ``cases`` (one row per CourtListener cluster, keyed by its id) is the whole record: names, date,
  status, citation count, court, docket number and its citations, packed in citation order — a found
  citation's record is one more probe, nothing is joined.
- ``cites`` (keyed by reporter, volume, page, cluster) holds every citation row: the source of the
  two above, what an update changes, and the lookup of the rare page that is not a number.
- ``names`` is a contentless FTS5 table (no positions) of each case's name keys
  (``sources.name_keys.name_tokens``) plus a citation-count tier key, for the case-name search;
  ``near`` is the deletion neighbourhood of its vocabulary (every word of four letters or more, with
  each of its letters dropped in turn), so a name typed with one letter dropped, changed, added or two
  swapped still finds its word.

Schema 1 (before 2026-11-28) read the court, docket and parallel citations from other tables per
lookup; a build replaces an index of another schema whole (``build._can_update``), and a reader
refuses one with a message that says to sync. See docs/sources.md ("The citation index").
"""

from __future__ import annotations

from citecheck.sources.name_keys import NAME_KEYS_VERSION

SCHEMA_VERSION = 2

TABLES = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT) WITHOUT ROWID;
CREATE TABLE courts (idx INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE, name TEXT, short_name TEXT,
    citation_string TEXT, jurisdiction TEXT, place TEXT);
CREATE TABLE reporters (idx INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE);
CREATE TABLE cases (id INTEGER PRIMARY KEY, docket INTEGER, date_filed INTEGER, status INTEGER,
    cited INTEGER, court INTEGER, number TEXT, name TEXT NOT NULL, short TEXT, full TEXT, cites TEXT);
CREATE TABLE cites (reporter INTEGER NOT NULL, volume NOT NULL, page NOT NULL, cluster INTEGER NOT NULL,
    cite_id INTEGER NOT NULL, type INTEGER, PRIMARY KEY (reporter, volume, page, cluster)) WITHOUT ROWID;
CREATE TABLE volumes (id INTEGER PRIMARY KEY, reporter INTEGER NOT NULL, volume NOT NULL,
    cases INTEGER NOT NULL, complete INTEGER NOT NULL, last_date INTEGER, pages BLOB NOT NULL,
    clusters BLOB NOT NULL);
CREATE UNIQUE INDEX volumes_key ON volumes (reporter, volume);
CREATE VIRTUAL TABLE names USING fts5(tokens, content='', columnsize=0, detail=none);
CREATE TABLE near (key TEXT NOT NULL, term TEXT NOT NULL, PRIMARY KEY (key, term)) WITHOUT ROWID;
"""

#: What a build stages beside the new file (an attached database, deleted after the build): the
#: cases and dockets as the dump gives them, joined into ``cases`` once everything is read.
STAGE_TABLES = """
CREATE TABLE stage.cases (id INTEGER PRIMARY KEY, docket INTEGER, date_filed INTEGER, status INTEGER,
    cited INTEGER, name TEXT NOT NULL, short TEXT, full TEXT);
CREATE TABLE stage.dockets (id INTEGER PRIMARY KEY, court INTEGER, number TEXT);
CREATE TABLE stage.packed (cluster INTEGER PRIMARY KEY, cites TEXT);
CREATE TABLE stage.touched (id INTEGER PRIMARY KEY);
"""

#: CourtListener's precedential_status values, stored as small integers.
STATUSES = ("Unknown", "Published", "Unpublished", "Errata", "Separate", "In-chambers", "Relating-to")
STATUS_CODE = {s: i for i, s in enumerate(STATUSES)}

#: Separators of a case's packed citations (``cases.cites``): fields, then citations. Citation values
#: with control characters are refused when read (``lanes.cites_lane``), so these never occur inside.
FIELD_SEP = "\x1f"
CITE_SEP = "\x1e"

#: Integer volumes below this get the row id ``reporter << 32 | volume``; others (text, huge) a row id
#: from ``TEXT_VOLUME_IDS`` up, found through ``volumes_key``.
VOLUME_ID_LIMIT = 1 << 32
TEXT_VOLUME_IDS = 1 << 60


def volume_id(reporter: int, volume: object) -> int | None:
    """The row id of an integer volume's row (None: a text volume, looked up by its key).

    >>> volume_id(3, 100), volume_id(3, "13301-M")
    (12884901988, None)
    """
    if isinstance(volume, int) and 0 <= volume < VOLUME_ID_LIMIT:
        return (reporter << 32) | volume
    return None


#: Citation-count tiers in the name search: a case cited ``n`` times gets the key ``tier_key(n)``, so
#: a search for a word thousands of cases share asks for the most cited of them first.
TIER_PREFIX = "zqcited"
TIERS = 12


def tier(cited: int | None) -> int:
    """0 for uncited (or unknown), then one tier per doubling, the last open-ended.

    >>> [tier(n) for n in (None, 0, 1, 2, 3, 4, 100, 5000, 10**6)]
    [0, 0, 1, 2, 2, 3, 7, 11, 11]
    """
    return min(int(cited).bit_length(), TIERS - 1) if cited and cited > 0 else 0


def tier_key(n: int) -> str:
    return f"{TIER_PREFIX}{n}"


def layout_outdated(meta: dict[str, str]) -> str | None:
    """Why an index written by another citecheck cannot be updated or read (None: it can)."""
    if not meta:
        return None
    version = meta.get("schema_version", "")
    if version != str(SCHEMA_VERSION):
        newer = version.isdigit() and int(version) > SCHEMA_VERSION
        return (
            f"it was written by a newer citecheck (index layout {version})"
            if newer
            else f"it has an older layout (index layout {version or '?'}, this citecheck writes {SCHEMA_VERSION})"
        )
    if meta.get("name_keys_version") != str(NAME_KEYS_VERSION):
        return "its case-name keys are older than this citecheck's"
    return None
