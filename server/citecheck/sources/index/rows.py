"""Stream the rows the index keeps from CourtListener bulk files (plain ``.csv`` or ``.csv.bz2``).

The dumps are PostgreSQL ``COPY … CSV … ESCAPE '\\' FORCE_QUOTE *`` output (every value quoted,
quotes escaped with a backslash and never doubled, newlines inside fields). A ``.bz2`` file is
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
#: Used columns a header may lack (read as empty): what only ranks, never identifies.
OPTIONAL_COLUMNS = frozenset({("opinion-clusters", "citation_count")})
FILE_PATTERN = re.compile(r"^(courts|dockets|opinion-clusters|citations)-(\d{4}-\d{2}-\d{2})\.csv(\.bz2)?$")
#: Kept values longer than this are refused (a caption runs to a few thousand characters at most).
MAX_FIELD = 20_000
#: csv's own limit: an unused column may be long (head matter), but not without bound.
CSV_FIELD_LIMIT = 256 << 20
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
    """Counts the bytes read from a plain file (the progress of a .csv)."""

    def __init__(self, raw: BinaryIO, tick: Callable[[int], None]) -> None:
        self.raw, self.tick = raw, tick

    def readable(self) -> bool:
        return True

    def readinto(self, b: Any) -> int:
        n = cast(io.RawIOBase, self.raw).readinto(b)
        self.tick(n or 0)
        return n or 0


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
        columns: tuple[str, ...] | None = None,
        optional: frozenset[str] = frozenset(),
        long_columns: frozenset[str] = frozenset(),
    ) -> None:
        """``columns`` (default ``USED_COLUMNS[kind]``): the columns to read, of any bulk file (the treatment
        build reads parentheticals and opinions); ``optional`` of them may be missing from the header;
        ``long_columns`` are not held to ``MAX_FIELD`` (opinion text)."""
        self.path, self.kind = path, kind
        self.columns = columns or USED_COLUMNS[kind]
        self.optional = optional
        self.long_columns = long_columns
        self.stats = FileStats(name=path.name)
        self._tick = tick or (lambda n: None)
        self._proc: subprocess.Popen[bytes] | None = None
        self._feeder: threading.Thread | None = None
        self._feed_error: BaseException | None = None
        self._raw: BinaryIO | None = None

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
            return cast(BinaryIO, io.BufferedReader(_Counting(fh, self._tick), buffer_size=1 << 20))
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
        return cast(BinaryIO, proc.stdout)

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
            return ImportFormatError(f"{self.path}: {why or f'the bz2 decoder failed ({code})'}")
        return None

    def rows(self) -> Iterator[tuple[str, ...]]:
        """The used columns of every row that passes the checks (see the module docstring)."""
        csv.field_size_limit(CSV_FIELD_LIMIT)
        text = io.TextIOWrapper(self._binary(), encoding="utf-8", newline="")
        reader = csv.reader(text, quotechar='"', escapechar="\\", doublequote=False)
        try:
            header = next(reader)
        except StopIteration:
            failure = self._decoder_failure()
            if failure is not None:
                raise failure from None
            raise ImportFormatError(f"{self.path}: the file is empty (no header)") from None
        except (csv.Error, UnicodeDecodeError, OSError) as exc:
            raise self._decoder_failure() or ImportFormatError(
                f"{self.path}: not a CSV file ({exc})"
            ) from exc
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
        where = [header.index(c) if c in header else width for c in used]
        stats = self.stats
        try:
            for row in reader:
                stats.rows += 1
                if len(row) != width:
                    stats.refuse("a field count other than the header's")
                    if stats.rows >= 1000 and stats.refused.total() == stats.rows:
                        raise ImportFormatError(
                            f"{self.path}: no row has the header's {width} fields; is it CourtListener's "
                            "backslash-escaped CSV dialect?"
                        )
                    continue
                if pad:
                    row.append("")
                values = tuple(row[i] for i in where)
                long = self.long_columns
                bad = next(
                    (
                        v
                        for c, v in zip(used, values, strict=True)
                        if "\x00" in v or (len(v) > MAX_FIELD and c not in long)
                    ),
                    None,
                )
                if bad is not None:
                    stats.refuse(
                        "a NUL character" if "\x00" in bad else f"a field over {MAX_FIELD} characters"
                    )
                    continue
                yield values
        except (csv.Error, UnicodeDecodeError, OSError) as exc:
            raise self._decoder_failure() or ImportFormatError(
                f"{self.path}: unreadable at row {stats.rows + 1} ({exc})"
            ) from exc
        failure = self._decoder_failure()
        if failure is not None:
            raise failure


def parse_id(value: str) -> int | None:
    """A positive integer id, or None (refused by the caller).

    >>> parse_id("910000001"), parse_id("x12"), parse_id(""), parse_id("-3"), parse_id("99999999999999999")
    (910000001, None, None, None, None)
    """
    if not (value.isascii() and value.isdigit()) or len(value) > 13:
        return None
    n = int(value)
    return n if 0 < n <= MAX_ID else None
