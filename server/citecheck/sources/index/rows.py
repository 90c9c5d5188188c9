"""Stream the rows the index keeps from CourtListener bulk files (plain ``.csv`` or ``.csv.bz2``).

The dumps are PostgreSQL ``COPY … CSV`` output (newlines inside fields), in one of the four dialects
CourtListener has published (``scripts/make_bulk_data.sh``'s history; issue 32): the default CSV (until
2023-07: quoted when needed, quotes doubled), ``FORCE_QUOTE *`` with doubled quotes (2023-07 → 2024-07,
and proposed again in PR #6707), backtick quotes (2024-08 → 2025-01) and ``ESCAPE '\\'`` (since
2025-01-23: every value quoted, quotes escaped with a backslash). ``sniff`` reads a file's first
megabytes and tells which (``dump_dialect`` decides for all the files of a dump together: the clusters
file, full of quoted HTML, is decisive where the citations file may not be). A file that ends mid-row —
the export runs under ``set -e`` without ``pipefail``, so a dump cut short is published as well-formed
bz2 — is refused (``TruncatedFile``); an empty file is ``EmptyFile`` (the courts file was published empty
once, #2863: the build keeps the previous index's courts). A ``.bz2`` file is
decoded by a child process (libbz2 through ``python -I -c``) fed by a thread of ours, so the
decompression of one file runs on one core while this process parses on the other; nothing is
decompressed to disk and no file is held in memory. A truncated or corrupt stream ends in an
``ImportFormatError`` that names the file (bz2's own CRCs catch corruption).

Columns are mapped by header name (CourtListener adds columns over time): a column the index
uses that the header lacks is an error naming it; columns we do not use, added or gone, do not
matter. Each kept row is checked: an id that is no number, a NUL, a kept field over
``MAX_FIELD`` characters or a row whose field count is not the header's is refused and counted by
reason, never stored.
"""

from __future__ import annotations

import csv
import io
import re
import subprocess
import sys
import threading
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, BinaryIO, cast

from citecheck.errors import ImportFormatError

#: The bulk files the index reads, and the columns it uses from each (all must be in the header).
USED_COLUMNS: dict[str, tuple[str, ...]] = {
    "courts": ("id", "full_name", "short_name", "citation_string", "jurisdiction"),
    "dockets": ("id", "court_id", "docket_number", "date_modified"),
    "opinion-clusters": (
        "id",
        "docket_id",
        "case_name",
        "case_name_short",
        "case_name_full",
        "date_filed",
        "precedential_status",
        "date_modified",
        "citation_count",
    ),
    "citations": ("id", "volume", "reporter", "page", "type", "cluster_id", "date_modified"),
}
#: Used columns a header may lack (read as empty): what only ranks, never identifies, and the citation
#: dates dumps before 2025-11-20 lack (dfbea0f09; an update then treats every citation as changed).
OPTIONAL_COLUMNS = frozenset({("opinion-clusters", "citation_count"), ("citations", "date_modified")})
FILE_PATTERN = re.compile(r"^(courts|dockets|opinion-clusters|citations)-(\d{4}-\d{2}-\d{2})\.csv(\.bz2)?\Z")
#: Kept values longer than this are refused (a caption runs to a few thousand characters at most).
MAX_FIELD = 20_000
#: A row (every field, the header too) may not be longer than this, in characters: csv's limit is per field,
#: so 30 fields just under it passed 4 GB (issue 35); a real row is a few KB, head matter included.
MAX_ROW = 16 << 20
#: The same bound for a file whose ``long_columns`` are opinion text (the treatment build's opinions file): a
#: long opinion is a few MB in each of its five text formats, so its row may pass ``MAX_ROW``.
MAX_LONG_ROW = 128 << 20
#: csv's own limit: an unused column may be long (head matter), but not without bound.
CSV_FIELD_LIMIT = MAX_ROW
#: Ids above this are refused: no CourtListener table is near it, and ids size our bitmaps.
MAX_ID = (1 << 40) - 1

_BUNZIP = r"""
import bz2, sys
inp, out = sys.stdin.buffer, sys.stdout.buffer
d, fed, total = bz2.BZ2Decompressor(), False, 0
try:
    while True:
        data = inp.read(1 << 20)
        if not data:
            break
        total += len(data)
        while data:
            fed = True
            out.write(d.decompress(data))
            if d.eof:
                data, d, fed = d.unused_data, bz2.BZ2Decompressor(), False
            else:
                data = b""
    out.flush()
except BrokenPipeError:
    sys.exit(0)
except (OSError, EOFError) as exc:
    sys.stderr.write(f"corrupt bz2 data ({exc}) after {total} compressed bytes")
    sys.exit(3)
if fed or total == 0:
    sys.stderr.write(f"truncated bz2 file: the stream stops after {total} bytes, before its end")
    sys.exit(3)
"""


class DamagedFile(ImportFormatError):
    """The file itself is broken — cut short, empty, or its compressed stream damaged — not merely in another
    format: a sync passes such a dump over for the one before it (``sync.py``)."""


class TruncatedFile(DamagedFile):
    """The file ends mid-row: the dump was cut short (the old index stays)."""


class EmptyFile(DamagedFile):
    """The file holds nothing, not even its header."""


@dataclass(frozen=True, slots=True)
class Dialect:
    """How one of CourtListener's CSV dialects is read (``csv.reader`` parameters)."""

    name: str
    quotechar: str
    escapechar: str | None
    doublequote: bool


DIALECTS = {
    d.name: d
    for d in (
        Dialect("backslash", '"', "\\", False),  # ESCAPE '\', FORCE_QUOTE * (since 2025-01-23)
        Dialect("doubled", '"', None, True),  # FORCE_QUOTE * (2023-07 → 2024-07), and the default CSV
        Dialect("default", '"', None, True),  # until 2023-07: quoted only when needed, quotes doubled
        Dialect("backtick", "`", None, True),  # QUOTE '`', FORCE_QUOTE * (2024-08 → 2025-01)
    )
}
#: The dialect a dump of this date was written in when its files cannot tell (no quote in the sample).
_DIALECT_SINCE = (("2025-01-23", "backslash"), ("2024-08-01", "backtick"), ("2023-07-07", "doubled"))
#: How much of a file ``sniff`` reads (decompressed).
SNIFF_BYTES = 4 << 20
_BACKSLASH_MARK = re.compile(r'\\["\\]')
_DOUBLED_MARK = re.compile(r'[^,\n\\]""|""[^,\n]')


def dialect_for_date(date: str | None) -> str:
    for since, name in _DIALECT_SINCE:
        if date and date >= since:
            return name
    return "default" if date else "backslash"


@dataclass
class FileStats:
    """What reading one file found: rows read, kept, refused by reason."""

    name: str
    rows: int = 0
    kept: int = 0
    refused: Counter[str] = field(default_factory=Counter)

    def refuse(self, reason: str) -> None:
        self.refused[reason] += 1


def bulk_kind(path: Path) -> str | None:
    """``"citations"`` for ``citations-2026-06-30.csv.bz2`` (or ``citations.csv``); None for other files."""
    m = FILE_PATTERN.match(path.name)
    if m:
        return m.group(1)
    m = re.match(r"^(courts|dockets|opinion-clusters|citations)\.csv(\.bz2)?$", path.name)
    return m.group(1) if m else None


def dump_date(path: Path) -> str | None:
    m = FILE_PATTERN.match(path.name)
    return m.group(2) if m else None


def find_dump(folder: Path) -> dict[str, Path]:
    """The bulk files of ``folder`` the index reads; the newest date of each wins."""
    out: dict[str, Path] = {}
    if not folder.is_dir():
        raise ImportFormatError(f"{folder}: no such folder")
    for p in sorted(folder.iterdir(), key=lambda p: (dump_date(p) or "", p.name)):
        kind = bulk_kind(p)
        if kind is not None and p.is_file():
            out[kind] = p
    return out


class _Counting(io.RawIOBase):
    """Counts the bytes read (the progress of a .csv) and keeps the last one (a dump that does not end
    with a newline was cut short): per block of a megabyte, nothing per row."""

    def __init__(self, raw: BinaryIO, tick: Callable[[int], None] | None = None) -> None:
        self.raw, self.tick = raw, tick
        self.last = b""

    def readable(self) -> bool:
        return True

    def readinto(self, b: Any) -> int:
        n = cast(io.RawIOBase, self.raw).readinto(b) or 0
        if self.tick is not None:
            self.tick(n)
        if n:
            self.last = bytes(memoryview(b)[n - 1 : n])
        return n


class _RowTooLong(Exception):
    pass


class _BoundedLines:
    """The lines of a text stream for ``csv.reader``, none longer than ``MAX_ROW`` and none adding up to
    more within one row: ``reset()`` is called after each row (csv reads no further than the row's end)."""

    def __init__(self, text: io.TextIOWrapper, limit: int = MAX_ROW) -> None:
        self.text, self.since, self.limit = text, 0, limit

    def __iter__(self) -> _BoundedLines:
        return self

    def __next__(self) -> str:
        line = self.text.readline(self.limit + 1)  # never more than this in memory, however long the line
        if not line:
            raise StopIteration
        self.since += len(line)
        if self.since > self.limit:
            raise _RowTooLong
        return line

    def reset(self) -> None:
        self.since = 0


class BulkReader:
    """Rows of one bulk file as ``dict``-free tuples of the used columns (in ``USED_COLUMNS`` order).

    ``tick(n)`` is called with the number of file bytes consumed (compressed, for a .bz2), for a
    progress bar with an ETA. Use as a context manager: leaving it stops the decoder.
    """

    def __init__(
        self,
        path: Path,
        kind: str,
        *,
        tick: Callable[[int], None] | None = None,
        dialect: str = "backslash",
        columns: tuple[str, ...] | None = None,
        optional: frozenset[str] = frozenset(),
        long_columns: frozenset[str] = frozenset(),
    ) -> None:
        """``columns`` (default ``USED_COLUMNS[kind]``): the columns to read, of any bulk file (the treatment
        build reads parentheticals and opinions); ``optional`` of them may be missing from the header;
        ``long_columns`` are not held to ``MAX_FIELD`` (opinion text), and their rows are held to
        ``MAX_LONG_ROW`` instead of ``MAX_ROW``."""
        self.path, self.kind = path, kind
        self.dialect = DIALECTS[dialect]
        self.columns = columns or USED_COLUMNS[kind]
        self.optional = optional
        self.long_columns = long_columns
        self.max_row = MAX_LONG_ROW if long_columns else MAX_ROW
        self.stats = FileStats(name=path.name)
        self._tick = tick or (lambda n: None)
        self._proc: subprocess.Popen[bytes] | None = None
        self._feeder: threading.Thread | None = None
        self._feed_error: BaseException | None = None
        self._raw: BinaryIO | None = None
        self._ends: _Counting | None = None

    def __enter__(self) -> BulkReader:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        if self._proc is not None:
            proc, self._proc = self._proc, None
            for stream in (proc.stdout, proc.stdin, proc.stderr):
                try:
                    if stream is not None:
                        stream.close()
                except OSError:
                    pass
            if proc.poll() is None:
                proc.kill()
            proc.wait()
        if self._raw is not None:
            self._raw.close()
            self._raw = None

    def _binary(self) -> BinaryIO:
        fh = self.path.open("rb")
        if not self.path.name.endswith(".bz2"):
            self._raw = fh
            self._ends = _Counting(fh, self._tick)
            return cast(BinaryIO, io.BufferedReader(self._ends, buffer_size=1 << 20))
        proc = subprocess.Popen(
            [sys.executable, "-I", "-c", _BUNZIP],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        self._proc = proc

        def feed() -> None:
            try:
                with fh:
                    while block := fh.read(1 << 20):
                        assert proc.stdin is not None
                        proc.stdin.write(block)
                        self._tick(len(block))
            except (BrokenPipeError, ValueError):
                pass  # the reader stopped early (an error of its own, or close())
            except OSError as exc:
                self._feed_error = exc
            finally:
                try:
                    if proc.stdin is not None:
                        proc.stdin.close()
                except OSError:
                    pass

        self._feeder = threading.Thread(target=feed, name=f"feed-{self.path.name}", daemon=True)
        self._feeder.start()
        assert proc.stdout is not None
        self._ends = _Counting(cast(BinaryIO, proc.stdout))
        return cast(BinaryIO, io.BufferedReader(self._ends, buffer_size=1 << 20))

    def _decoder_failure(self) -> ImportFormatError | None:
        """Why the bz2 child failed (waits for it), or None."""
        proc = self._proc
        if proc is None:
            return None
        if self._feeder is not None:
            self._feeder.join()
        code = proc.wait()
        if self._feed_error is not None:
            return ImportFormatError(f"{self.path}: cannot read it ({self._feed_error})")
        if code != 0:
            why = proc.stderr.read().decode("utf-8", "replace").strip() if proc.stderr else ""
            return DamagedFile(f"{self.path}: {why or f'the bz2 decoder failed ({code})'}")
        return None

    def rows(self) -> Iterator[tuple[str, ...]]:
        """The used columns of every row that passes the checks (see the module docstring)."""
        csv.field_size_limit(max(CSV_FIELD_LIMIT, self.max_row))
        text = io.TextIOWrapper(self._binary(), encoding="utf-8", newline="")
        lines = _BoundedLines(text, self.max_row)  # no row longer than the bound is ever held (issue 35)
        d = self.dialect
        # strict: the end of the file inside a quoted value is an error (a dump cut short), not a value
        reader = csv.reader(
            lines, quotechar=d.quotechar, escapechar=d.escapechar, doublequote=d.doublequote, strict=True
        )
        header = self._header(reader)
        lines.reset()
        width, pad, where = self._columns(header)
        stats = self.stats
        last: list[str] | None = None
        try:
            for row in reader:
                lines.reset()
                stats.rows += 1
                last = row
                values = self._values(row, width, pad, where)
                if values is not None:
                    yield values
        except _RowTooLong:
            raise ImportFormatError(
                f"{self.path}: row {stats.rows + 1} is longer than {self.max_row:,} characters (a real row is a few "
                "thousand); not a CourtListener bulk file, or a damaged one"
            ) from None
        except (csv.Error, UnicodeDecodeError, OSError) as exc:
            raise self._unreadable(exc) from exc
        failure = self._decoder_failure()
        if failure is not None:
            raise failure
        if last is not None and self._ends is not None and self._ends.last != b"\n":
            # PostgreSQL ends every row with a newline and closes every quote: a file that does not was cut
            # short (the export's psql died and bzip2 closed the stream anyway)
            raise TruncatedFile(
                f"{self.path}: the file ends in the middle of row {stats.rows} — the dump was cut short "
                "(CourtListener's export can publish a partial file); nothing of it was used"
            )

    def _header(self, reader: Iterator[list[str]]) -> list[str]:
        """The header row, or the error that says why there is none a bulk file would have."""
        try:
            return next(reader)
        except StopIteration:
            failure = self._decoder_failure()
            if failure is not None:
                raise failure from None
            raise EmptyFile(f"{self.path}: the file is empty (no header)") from None
        except _RowTooLong:
            raise ImportFormatError(
                f"{self.path}: the header is longer than {self.max_row:,} characters; not a CourtListener bulk file"
            ) from None
        except (csv.Error, UnicodeDecodeError, OSError) as exc:
            raise self._decoder_failure() or ImportFormatError(
                f"{self.path}: not a CSV file ({exc})"
            ) from exc

    def _columns(self, header: list[str]) -> tuple[int, bool, list[int]]:
        """The header's width, whether a row needs an empty field added (an optional column it lacks), and
        where each used column is; an error when a column the index needs is missing."""
        used = self.columns
        missing = [
            c
            for c in used
            if c not in header and (self.kind, c) not in OPTIONAL_COLUMNS and c not in self.optional
        ]
        if missing:
            raise ImportFormatError(
                f"{self.path}: the header has no {', '.join(repr(c) for c in missing)} column "
                f"({'the index' if self.kind in USED_COLUMNS else 'citecheck'} needs it); is this CourtListener's "
                f"{self.kind} file?"
            )
        width = len(header)
        # an optional column the header lacks is read as empty: every row gets one empty field more
        pad = any(c not in header for c in used)
        return width, pad, [header.index(c) if c in header else width for c in used]

    def _values(self, row: list[str], width: int, pad: bool, where: list[int]) -> tuple[str, ...] | None:
        """The used columns of a row, or None when it is refused (counted in ``stats``); an error when no row
        so far has had the header's width (the file is in another dialect)."""
        stats = self.stats
        if len(row) != width:
            stats.refuse("a field count other than the header's")
            if stats.rows >= 1000 and stats.refused.total() == stats.rows:
                raise ImportFormatError(
                    f"{self.path}: no row has the header's {width} fields; it is not in the "
                    f"{self.dialect.name} dialect of CourtListener's CSV"
                )
            return None
        if pad:
            row.append("")
        values = tuple(row[i] for i in where)
        long = self.long_columns
        bad = next(
            (
                v
                for c, v in zip(self.columns, values, strict=True)
                if "\x00" in v or (len(v) > MAX_FIELD and c not in long)
            ),
            None,
        )
        if bad is not None:
            stats.refuse("a NUL character" if "\x00" in bad else f"a field over {MAX_FIELD} characters")
            return None
        return values

    def _unreadable(self, exc: Exception) -> Exception:
        """The error for a file that could not be read to its end: the decoder's (a damaged .bz2), a dump cut
        short inside a quoted value, or an unreadable row."""
        failure = self._decoder_failure()
        if failure is not None:
            return failure
        row = self.stats.rows + 1
        if isinstance(exc, csv.Error) and "end of data" in str(exc):
            return TruncatedFile(
                f"{self.path}: the file ends inside a quoted value of row {row} — the dump was cut "
                "short (CourtListener's export can publish a partial file); nothing of it was used"
            )
        return ImportFormatError(f"{self.path}: unreadable at row {row} ({exc})")


def _head(path: Path, limit: int = SNIFF_BYTES) -> str:
    """The first ``limit`` bytes of the file, decompressed (a .bz2), as text."""
    import bz2

    with path.open("rb") as fh:
        if not path.name.endswith(".bz2"):
            data = fh.read(limit)
        else:
            out, dec = bytearray(), bz2.BZ2Decompressor()
            while len(out) < limit:
                block = fh.read(1 << 16)
                if not block:
                    break
                try:
                    out += dec.decompress(block, max_length=limit - len(out))
                except (OSError, EOFError):
                    break  # the build's decoder says what is wrong with it
                if dec.eof:
                    break
            data = bytes(out)
    return data.decode("utf-8", "replace")


def sniff(path: Path) -> tuple[str | None, bool]:
    """(dialect, decisive) of one bulk file from its first megabytes; (None, False) when it holds no row.

    Decisive when the sample shows it: values in backticks; backslash-escaped quotes and backslashes; or
    doubled quotes inside values. Otherwise (no quote inside any value, as in most citations files) the
    dialects read the sample alike: the first row says whether values are quoted only when needed (the
    default CSV) and the rest is not decisive. Each guess is checked: a dialect whose reading of the
    sample gives a row of another width than the header is not the file's.
    """
    text = _head(path)
    header, _, body = text.partition("\n")
    if not body.strip():
        return None, False
    width = len(next(csv.reader([header])))
    if body.startswith("`"):
        candidates = ["backtick"]
        decisive = True
    else:
        backslash = len(_BACKSLASH_MARK.findall(body))
        doubled = len(_DOUBLED_MARK.findall(body))
        quoted = body.startswith('"')
        plain = "doubled" if quoted else "default"
        if backslash and not doubled:
            candidates, decisive = ["backslash", plain], True
        elif doubled and not backslash:
            candidates, decisive = [plain, "backslash"], True
        elif backslash or doubled:
            candidates = ["backslash", plain] if backslash > doubled else [plain, "backslash"]
            decisive = max(backslash, doubled) >= 10 * min(backslash, doubled)
        else:
            candidates, decisive = (["backslash", plain] if quoted else ["default"]), not quoted
    shares = {name: _reads(body, width, DIALECTS[name]) for name in candidates}
    best = max(candidates, key=lambda n: shares[n])  # the first of equals: the evidence's order
    # a few bad rows are refused one by one later; a wrong dialect breaks most: then no guess is sure, and
    # the reader says what is wrong (a missing column, rows of another width)
    return best, decisive and shares[best] >= 0.9


def _reads(body: str, width: int, d: Dialect) -> float:
    """The share of the sample's whole rows that have ``width`` fields in dialect ``d`` (its last row may
    be cut where the sample ends)."""
    try:
        rows = list(csv.reader(io.StringIO(body, newline=""), quotechar=d.quotechar, escapechar=d.escapechar,
                               doublequote=d.doublequote))  # fmt: skip
    except csv.Error:
        return 0.0
    whole = rows[:-1] if len(body) >= SNIFF_BYTES - 4 and len(rows) > 1 else rows
    return sum(len(r) == width for r in whole) / len(whole) if whole else 0.0


def dump_dialect(paths: dict[str, Path], date: str | None = None) -> str:
    """The dialect of a dump: what its files show (they must agree), else what its date says."""
    decided: dict[str, str] = {}
    guesses: dict[str, str] = {}
    for kind, path in paths.items():
        name, decisive = sniff(path)
        if name is None:
            continue
        (decided if decisive else guesses)[kind] = name
    readers = {n if n != "default" else "doubled" for n in decided.values()}
    if len(readers) > 1:
        shown = ", ".join(f"{paths[k].name}: {n}" for k, n in decided.items())
        raise ImportFormatError(
            f"the files of this dump are in different CSV dialects ({shown}); use one dump's files"
        )
    if decided:
        chosen = next(iter(decided.values()))
        return "doubled" if chosen == "default" and any(g == "doubled" for g in guesses.values()) else chosen
    if guesses:
        plain = {g for g in guesses.values()} - {"backslash"}
        if plain == {"default"}:
            return "default"
    return dialect_for_date(date)


def parse_id(value: str) -> int | None:
    """A positive integer id, or None (refused by the caller).

    >>> parse_id("910000001"), parse_id("x12"), parse_id(""), parse_id("-3"), parse_id("99999999999999999")
    (910000001, None, None, None, None)
    """
    if not (value.isascii() and value.isdigit()) or len(value) > 13:
        return None
    n = int(value)
    return n if 0 < n <= MAX_ID else None
