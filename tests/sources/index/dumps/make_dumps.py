"""Write the fixture dumps of this folder with a real PostgreSQL ``COPY``, in every dialect CourtListener used.

Run once (needs PostgreSQL's server binaries, e.g. Debian's ``apt-get install postgresql``; nothing here
runs in the test suite)::

    python tests/sources/index/dumps/make_dumps.py            # starts a throwaway cluster (unix socket only)
    python tests/sources/index/dumps/make_dumps.py --host /tmp/pgsock --user postgres   # a running one

For each dialect of ``citecheck_testing.dump_dialects.DIALECTS`` it creates the four tables with that
era's columns, loads ``fixture_tables()`` (real cases and the gap shapes of issue 32, written by hand) and
writes each table with ``COPY <table> (<columns>) TO STDOUT WITH (<that era's options>)`` — the options
of ``scripts/make_bulk_data.sh`` in freelawproject/courtlistener — into ``<dialect>/``. Then two broken
dumps, as the script's ``set -e`` without ``pipefail`` can publish them: ``truncated/`` (the citations
file cut mid-row, then compressed whole, as ``psql | bzip2`` does when psql dies) and ``empty-courts/``
(an empty courts file, #2863). No CourtListener code is used or copied.
"""

from __future__ import annotations

import argparse
import bz2
import contextlib
import glob
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[3] / "server"))

from citecheck_testing.dump_dialects import (  # noqa: E402
    COLUMNS,
    DIALECTS,
    KINDS,
    TABLES,
    Dialect,
    fixture_tables,
)

_BOOLEAN = {"pacer_has_rss_feed", "in_use", "has_opinion_scraper", "has_oral_argument_scraper", "blocked",
            "ia_needs_upload", "date_filed_is_approximate"}  # fmt: skip
_TEXT_IDS = {"id:courts", "court_id", "parent_court_id", "fjc_court_id", "pacer_court_id", "scdb_id",
             "pacer_case_id"}  # fmt: skip


def _type(kind: str, column: str) -> str:
    if column in _BOOLEAN:
        return "boolean"
    if column in ("date_created", "date_modified", "date_last_pacer_contact"):
        return "timestamp with time zone"
    if column in ("date_filed", "start_date", "end_date", "date_blocked"):
        return "date"
    if (column == "id" and kind != "courts") or (column.endswith("_id") and column not in _TEXT_IDS):
        return "bigint"
    if column == "citation_count" or (column == "type" and kind == "citations"):
        return "integer"
    if column == "source" and kind == "dockets":
        return "smallint"
    return "text"


def _literal(value: object) -> str:
    if value is None:
        return "NULL"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    return "'" + str(value).replace("'", "''") + "'"


@contextlib.contextmanager
def _cluster() -> Iterator[tuple[str, str]]:
    """A throwaway PostgreSQL cluster listening on a unix socket only; (socket dir, user)."""
    bins = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    if not bins:
        sys.exit("no PostgreSQL server binaries (apt-get install postgresql)")
    bindir = Path(bins[-1]).parent
    tmp = Path(tempfile.mkdtemp(prefix="cl-dumps-pg-"))
    as_user: list[str] = []
    if os.geteuid() == 0:  # initdb refuses root
        shutil.chown(tmp, "postgres")
        as_user = ["runuser", "-u", "postgres", "--"]
    data, log = tmp / "data", tmp / "log"
    subprocess.run([*as_user, str(bindir / "initdb"), "-D", str(data), "-A", "trust", "-U", "postgres"],
                   check=True, capture_output=True)  # fmt: skip
    subprocess.run([*as_user, str(bindir / "pg_ctl"), "-D", str(data), "-l", str(log), "-w",
                    "-o", f"-c listen_addresses='' -k {tmp}", "start"], check=True, capture_output=True)  # fmt: skip
    try:
        yield str(tmp), "postgres"
    finally:
        subprocess.run([*as_user, str(bindir / "pg_ctl"), "-D", str(data), "-m", "fast", "stop"],
                       capture_output=True)  # fmt: skip
        time.sleep(0.2)
        shutil.rmtree(tmp, ignore_errors=True)


def _psql(host: str, user: str, db: str, sql: str) -> bytes:
    env = {**os.environ, "PGTZ": "UTC"}  # timestamps as CourtListener's server writes them: "+00"
    done = subprocess.run(["psql", "-X", "-q", "-t", "-A", "-v", "ON_ERROR_STOP=1", "-h", host, "-U", user, "-d", db,
                           "-c", sql],
                          check=True, capture_output=True, env=env)  # fmt: skip
    return done.stdout


def _options(dialect: Dialect) -> str:
    # the backtick era wrote QUOTE \"\`\" inside a double-quoted shell string: PostgreSQL got QUOTE "`"
    return dialect.options.replace("QUOTE '`'", 'QUOTE "`"')


def write_dialect(host: str, user: str, dialect: Dialect, out: Path) -> None:
    db = "cl_" + dialect.name.replace("-", "_")
    _psql(host, user, "postgres", f"DROP DATABASE IF EXISTS {db}")
    _psql(host, user, "postgres", f"CREATE DATABASE {db} ENCODING 'UTF8' TEMPLATE template0")
    tables = fixture_tables()
    out.mkdir(parents=True, exist_ok=True)
    for kind in KINDS:
        columns = COLUMNS[dialect.era][kind]
        ddl = ", ".join(f"{c} {_type(kind, c)}" for c in columns)
        rows = tables[kind]
        values = ",\n".join("(" + ", ".join(_literal(r.get(c)) for c in columns) + ")" for r in rows)
        _psql(
            host,
            user,
            db,
            f"CREATE TABLE {TABLES[kind]} ({ddl}); INSERT INTO {TABLES[kind]} VALUES {values};",
        )
        data = _psql(
            host, user, db, f"COPY {TABLES[kind]} ({', '.join(columns)}) TO STDOUT WITH ({_options(dialect)})"
        )
        (out / f"{kind}-{dialect.date}.csv").write_bytes(data)
    _psql(host, user, "postgres", f"DROP DATABASE {db}")


def broken_dumps(source: Path, date: str) -> None:
    """``truncated/`` and ``empty-courts/`` from the backslash dump (compressed as the script does)."""
    for name in ("truncated", "empty-courts"):
        folder = HERE / name
        shutil.rmtree(folder, ignore_errors=True)
        folder.mkdir()
        for kind in KINDS:
            data = (source / f"{kind}-{date}.csv").read_bytes()
            if name == "truncated" and kind == "citations":
                data = data[: len(data) // 2]  # psql died here; bzip2 still ended its stream
                data = data[: data.rindex(b",") + 3]  # mid-row, inside a quoted value
            if name == "empty-courts" and kind == "courts":
                data = b""  # #2863: nothing came out of psql
            (folder / f"{kind}-{date}.csv.bz2").write_bytes(bz2.compress(data))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--host", help="socket directory of a running PostgreSQL (default: start one)")
    parser.add_argument("--user", default="postgres")
    args = parser.parse_args()
    with contextlib.ExitStack() as stack:
        host, user = (args.host, args.user) if args.host else stack.enter_context(_cluster())
        version = _psql(host, user, "postgres", "SHOW server_version").decode().strip()
        for dialect in DIALECTS.values():
            write_dialect(host, user, dialect, HERE / dialect.name)
            print(f"{dialect.name}: COPY … WITH ({_options(dialect)})")
        broken_dumps(HERE / "backslash", DIALECTS["backslash"].date)
        (HERE / "POSTGRESQL_VERSION").write_text(version + "\n", encoding="utf-8")
        print(f"written by PostgreSQL {version}")


if __name__ == "__main__":
    main()
