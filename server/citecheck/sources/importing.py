"""Import entry point: detect the format of a path and run the right importer.

``citecheck corpus import PATH`` accepts a CAP static volume (or a tree of them) or a folder of
CourtListener bulk CSVs (plain or .bz2). Anything else is an ImportFormatError with a clear message.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from citecheck.errors import ImportFormatError


@dataclass(frozen=True, slots=True, kw_only=True)
class ImportStats:
    """What an import did (printed by the CLI, used by the bench)."""

    format: str
    cases: int = 0
    opinions: int = 0
    citations: int = 0
    rows: int = 0  # input rows / records read
    volumes: tuple[str, ...] = ()
    complete_volumes: tuple[str, ...] = ()
    skipped: int = 0
    #: records refused because they could not be stored safely (no usable id, a hostile file name)
    refused: int = 0
    refusal: str | None = None  # the first refusal's reason, for the message


class ProgressSink(Protocol):
    """Where importers report progress (the CLI renders it with rich on stderr)."""

    def stage(self, name: str, total: int | None) -> None: ...

    def advance(self, n: int = 1) -> None: ...


class NullProgress:
    def stage(self, name: str, total: int | None) -> None:
        pass

    def advance(self, n: int = 1) -> None:
        pass


def detect_format(path: Path) -> str:
    """``"cap"`` or ``"courtlistener-bulk"``; raises ImportFormatError otherwise."""
    from citecheck.sources.bulk_import import find_bulk_files
    from citecheck.sources.cap_import import find_cap_volumes

    if not path.exists():
        raise ImportFormatError(f"{path}: no such file or folder")
    folder = path if path.is_dir() else path.parent
    if path.is_dir() and find_cap_volumes(path):
        return "cap"
    files = find_bulk_files(folder)
    if "opinion-clusters" in files and "citations" in files:
        return "courtlistener-bulk"
    raise ImportFormatError(
        f"{path}: not a corpus format citecheck knows. Expected a CAP static volume folder "
        "(CasesMetadata.json, cases/, html/) or a folder of CourtListener bulk CSVs "
        "(opinion-clusters-*.csv[.bz2] and citations-*.csv[.bz2], optionally courts, dockets, opinions)."
    )


def import_path(
    corpus, path: Path, *, progress: ProgressSink | None = None, url_base: str | None = None
) -> ImportStats:
    """Import whatever is at ``path`` into ``corpus`` (a ``citecheck.sources.corpus.Corpus``).

    A storage failure (full disk, another import writing, a read-only file) is a CorpusError that
    says what happened and what to do, never SQLite's own words.
    """
    import sqlite3

    from citecheck.sources.corpus import storage_error

    try:
        return _import_path(corpus, path, progress=progress, url_base=url_base)
    except sqlite3.Error as exc:
        if corpus.connection.in_transaction:
            corpus.connection.execute("ROLLBACK")
        raise storage_error(exc, corpus.path) from exc


def _import_path(
    corpus, path: Path, *, progress: ProgressSink | None = None, url_base: str | None = None
) -> ImportStats:
    progress = progress or NullProgress()
    fmt = detect_format(path)
    if fmt == "cap":
        from citecheck.sources.cap_import import count_cap_cases, find_cap_volumes, import_cap_volume

        folders = find_cap_volumes(path)
        progress.stage("CAP cases", count_cap_cases(folders))
        parts = [import_cap_volume(corpus, f, url_base=url_base, progress=progress) for f in folders]
        return ImportStats(
            format="cap",
            cases=sum(p.cases for p in parts),
            opinions=sum(p.opinions for p in parts),
            citations=sum(p.citations for p in parts),
            rows=sum(p.rows for p in parts),
            volumes=tuple(v for p in parts for v in p.volumes),
            complete_volumes=tuple(v for p in parts for v in p.complete_volumes),
            refused=sum(p.refused for p in parts),
            refusal=next((p.refusal for p in parts if p.refusal), None),
        )
    from citecheck.sources.bulk_import import import_bulk

    return import_bulk(corpus, path if path.is_dir() else path.parent, progress=progress)
