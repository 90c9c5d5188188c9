"""The batch's output: a findings table (``OUT``) and a documents table (``OUT.documents.parquet``).

While a run goes on, what is done is written in parts to a folder beside the output
(``.OUT.parts/``), each part in two files, the findings first and the documents last (renamed into
place whole: a part counts only once its documents file is there). At the end the parts are merged
with the tables already there and each table replaces the old one whole (a temporary file renamed
over it), so a reader never sees half a table and an interrupted run loses at most one part.

A rerun skips every document the documents table or a part names, and keeps their rows as they are:
rows are copied, never recomputed. A rerun that checks nothing writes nothing (the files stay
byte for byte the same). A document whose rows are in a part replaces its earlier rows (a retried
failure; a part merged once already, when a run stopped between renaming the two tables).
"""

from __future__ import annotations

import contextlib
import os
import secrets
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from citecheck import __version__
from citecheck.batch.rows import DOCUMENT_COLUMNS, FINDING_COLUMNS, DocOutcome
from citecheck.errors import InputError

FORMAT = "citecheck-batch/1"


def _pa() -> Any:
    import pyarrow

    return pyarrow


def finding_schema() -> Any:
    pa = _pa()
    ints = {"start", "end", "line", "column", "end_line", "end_column", "citation_index"}
    return pa.schema(
        [pa.field(c, pa.int64() if c in ints else pa.string()) for c in FINDING_COLUMNS],
        metadata={"format": FORMAT, "table": "findings"},
    )


def document_schema() -> Any:
    pa = _pa()
    types = {
        "characters": pa.int64(),
        "citations": pa.int64(),
        "findings": pa.int64(),
        "errors": pa.int64(),
        "warnings": pa.int64(),
        "infos": pa.int64(),
        "seconds": pa.float64(),
    }
    return pa.schema(
        [pa.field(c, types.get(c, pa.string())) for c in DOCUMENT_COLUMNS],
        metadata={"format": FORMAT, "table": "documents"},
    )


def documents_path(out: Path) -> Path:
    """``X.parquet`` → ``X.documents.parquet`` (``X`` → ``X.documents.parquet``)."""
    stem = out.name[: -len(".parquet")] if out.name.endswith(".parquet") else out.name
    return out.with_name(f"{stem}.documents.parquet")


class Store:
    """The output of one ``--out``: what is done, the parts of this run, the merge at the end."""

    def __init__(self, out: Path, *, part_docs: int = 50, part_seconds: float = 30.0) -> None:
        self.out = out
        self.documents = documents_path(out)
        self.parts = out.with_name(f".{out.name}.parts")
        self.part_docs, self.part_seconds = part_docs, part_seconds
        self._pending: list[DocOutcome] = []
        self._last_flush = time.monotonic()
        self._lock_fd: int | None = None

    # -- the lock: two runs on one --out would each merge the other's parts away
    def __enter__(self) -> Store:
        import fcntl

        try:
            self.out.parent.mkdir(parents=True, exist_ok=True)
            fd = os.open(self.out.with_name(f".{self.out.name}.lock"), os.O_RDWR | os.O_CREAT, 0o644)
        except OSError as exc:
            raise InputError(f"cannot write beside {self.out}: {exc.strerror or exc}") from exc
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(fd)
            raise InputError(f"{self.out} is being written by another citecheck batch run") from None
        self._lock_fd = fd
        try:
            self._check_existing()
        except BaseException:
            self.__exit__()
            raise
        return self

    def __exit__(self, *exc: object) -> None:
        if self._lock_fd is not None:
            os.close(self._lock_fd)  # releases the lock; the lock file stays (removing it races)
            self._lock_fd = None

    def _check_existing(self) -> None:
        """An ``--out`` that is not a batch's findings table is never overwritten."""
        for path, table in ((self.out, "findings"), (self.documents, "documents")):
            if not path.exists():
                continue
            meta = _metadata(path)
            if meta is None or meta.get(b"format") != FORMAT.encode() or meta.get(b"table") != table.encode():
                raise InputError(
                    f"{path} exists and is not a citecheck batch {table} table; choose another --out"
                )

    def done(self) -> dict[str, str | None]:
        """Every document already done, by path → its error text (None when it was checked)."""
        out: dict[str, str | None] = {}
        if self.documents.exists():
            table = _read(self.documents, columns=["path", "error"])
            out.update(zip(table.column("path").to_pylist(), table.column("error").to_pylist(), strict=True))
        for part in self._part_documents():
            table = _read(part, columns=["path", "error"])
            out.update(zip(table.column("path").to_pylist(), table.column("error").to_pylist(), strict=True))
        return out

    def add(self, outcome: DocOutcome) -> None:
        self._pending.append(outcome)
        if len(self._pending) >= self.part_docs or time.monotonic() - self._last_flush >= self.part_seconds:
            self.flush()

    def flush(self) -> None:
        """Write the pending documents as one part (findings file, then documents file)."""
        self._last_flush = time.monotonic()
        if not self._pending:
            return
        pa = _pa()
        self.parts.mkdir(parents=True, exist_ok=True)
        name = f"part-{time.time_ns():020d}-{secrets.token_hex(3)}"
        findings = [row for o in self._pending for row in o.findings]
        _write(
            self.parts / f"{name}.findings.parquet",
            pa.Table.from_pylist(findings, schema=finding_schema()),
        )
        _write(
            self.parts / f"{name}.documents.parquet",
            pa.Table.from_pylist([o.document_row() for o in self._pending], schema=document_schema()),
        )
        self._pending.clear()

    def merge(self) -> bool:
        """Fold the parts into the two tables; False when there was nothing to fold (nothing written)."""
        self.flush()
        parts = self._part_documents()
        if not parts:
            self._remove_parts()
            return False
        pa = _pa()
        new_docs = pa.concat_tables([_read(p) for p in parts]).cast(document_schema())
        new_paths = set(new_docs.column("path").to_pylist())
        finding_parts = [p.with_name(p.name.replace(".documents.", ".findings.")) for p in parts]
        new_findings = pa.concat_tables(
            [_read(p) for p in finding_parts if p.exists()] or [_empty_findings()]
        )
        for target, new, key, schema in (
            (self.out, new_findings, "document", finding_schema()),
            (self.documents, new_docs, "path", document_schema()),
        ):
            old = _read(target).cast(schema) if target.exists() else schema.empty_table()
            kept = old.filter(pa.array([v not in new_paths for v in old.column(key).to_pylist()], pa.bool_()))
            _write(target, pa.concat_tables([kept, new.cast(schema)]).cast(schema))
        self._remove_parts()
        return True

    def _part_documents(self) -> list[Path]:
        if not self.parts.is_dir():
            return []
        return sorted(self.parts.glob("part-*.documents.parquet"))

    def _remove_parts(self) -> None:
        if not self.parts.is_dir():
            return
        for p in self.parts.iterdir():
            with contextlib.suppress(OSError):
                p.unlink()
        with contextlib.suppress(OSError):
            self.parts.rmdir()


def _empty_findings() -> Any:
    return finding_schema().empty_table()


def _metadata(path: Path) -> dict[bytes, bytes] | None:
    try:
        import pyarrow.parquet as pq

        return dict(pq.read_schema(path).metadata or {})
    except Exception:
        return None


def _read(path: Path, columns: Sequence[str] | None = None) -> Any:
    import pyarrow.parquet as pq

    try:
        return pq.read_table(path, columns=list(columns) if columns else None)
    except Exception as exc:
        raise InputError(f"{path}: cannot read this Parquet file ({type(exc).__name__}: {exc})") from exc


def _write(path: Path, table: Any) -> None:
    """Whole or not at all: a temporary file beside ``path``, fsynced, renamed over it."""
    import pyarrow.parquet as pq

    tmp = path.with_name(f".{path.name}.{secrets.token_hex(4)}.tmp")
    try:
        table = table.replace_schema_metadata(
            {**(table.schema.metadata or {}), b"tool": f"citecheck {__version__}".encode()}
        )
        pq.write_table(table, tmp, compression="zstd")
        with open(tmp, "rb") as fh:
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException as exc:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        if isinstance(exc, OSError):
            raise InputError(f"cannot write {path}: {exc.strerror or exc}") from exc
        raise


def read_tables(out: Path) -> Iterator[Any]:
    """The findings and documents tables of ``--out`` (tests, bench, the summary of a finished run)."""
    yield _read(out)
    yield _read(documents_path(out))
