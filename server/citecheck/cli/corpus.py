"""``citecheck corpus import|fetch|sync|stats|status|serve``: build, inspect and share the local corpus,
the citation index (``sync``, ``import --full-dump``) and the statute index (``sync --statutes``).

cli/app.py wires these in (``add_corpus_commands`` / ``run_corpus_command``). Errors are CitecheckErrors
(the CLI prints them as one line); progress goes to stderr with rich, results to stdout.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from citecheck.cli.corpus_statutes import add_statute_arguments, run_statute_sync, statute_status
from citecheck.config import Settings
from citecheck.errors import ConfigError
from citecheck.sources.importing import ImportStats

if TYPE_CHECKING:
    from citecheck.sources.download import DownloadProgress
    from citecheck.sources.index.build import BuildStats


def add_corpus_commands(subparsers: Any) -> None:
    corpus = subparsers.add_parser(
        "corpus", help="build and inspect the local case-law corpus", description="Manage the local corpus."
    )
    sub = corpus.add_subparsers(dest="corpus_command", metavar="ACTION", parser_class=type(corpus))

    def with_corpus(p: argparse.ArgumentParser) -> argparse.ArgumentParser:
        # SUPPRESS: a value given before the action (or before `corpus`) is not overwritten
        p.add_argument("--corpus", default=argparse.SUPPRESS, metavar="FILE", help="corpus file (SQLite)")
        p.add_argument(
            "--offline", action="store_true", default=argparse.SUPPRESS, help="never use the network"
        )
        return p

    with_corpus(corpus)

    imp = with_corpus(
        sub.add_parser(
            "import",
            help="import a CAP static volume (or tree) or a folder of CourtListener bulk CSVs",
            description="Import PATH: a CAP static volume folder (CasesMetadata.json, cases/, html/), a tree "
            "of them, or a folder of CourtListener bulk CSVs (plain or .bz2). Re-importing is safe.",
        )
    )
    imp.add_argument("path", type=Path, metavar="PATH")
    imp.add_argument(
        "--full-dump",
        action="store_true",
        help="PATH holds a whole CourtListener dump (courts, dockets, opinion-clusters, citations): build the "
        "citation index from it (the same as corpus sync --from PATH)",
    )
    imp.add_argument("--index", default=argparse.SUPPRESS, metavar="FILE", help="citation index to build")

    sync = with_corpus(
        sub.add_parser(
            "sync",
            help="build or update the citation index from CourtListener's bulk data (--statutes: the U.S. "
            "Code and C.F.R.)",
            description="Download the newest CourtListener bulk files the citation index needs (courts, dockets, "
            "opinion-clusters, citations; streamed, resumable, checked) and build or update the index beside the "
            "old one. Only those public files are fetched; nothing about any document leaves the machine. "
            "--statutes: the U.S. Code (the OLRC's USLM release point) and the C.F.R. (the eCFR versioner), so "
            "that statute and regulation citations are checked offline. Interrupted downloads resume.",
        )
    )
    add_statute_arguments(sync)
    sync.add_argument(
        "--partial",
        action="store_true",
        help="with --from: the files are a subset, not a whole dump (no volume becomes complete)",
    )
    sync.add_argument("--rebuild", action="store_true", help="build from nothing instead of updating")
    sync.add_argument(
        "--keep-downloads", action="store_true", help="keep the downloaded files after the build"
    )
    sync.add_argument("--index", default=argparse.SUPPRESS, metavar="FILE", help="citation index to build")
    sync.add_argument("--bulk-url", default=None, metavar="URL", help="bucket to list (default: settings)")

    status = with_corpus(
        sub.add_parser("status", help="what the local indexes hold: citation index, statutes, corpus")
    )
    status.add_argument("--json", action="store_true", help="machine-readable output")
    status.add_argument("--index", default=argparse.SUPPRESS, metavar="FILE", help="citation index to show")
    status.add_argument("--statutes-path", type=Path, default=None, metavar="FILE", help="statute index file")

    fetch = with_corpus(
        sub.add_parser(
            "fetch",
            help="download whole CAP volumes and import them",
            description="Download volumes from the case.law static site (only the volume identifiers are "
            'sent) and import them. Example: citecheck corpus fetch "A.2d" 100 101',
        )
    )
    fetch.add_argument("reporter", metavar="REPORTER")
    fetch.add_argument("volumes", nargs="+", metavar="VOLUME")
    fetch.add_argument(
        "--base-url", default=None, metavar="URL", help="static site base URL (default: settings)"
    )

    stats = with_corpus(sub.add_parser("stats", help="counts per reporter and which volumes are complete"))
    stats.add_argument("--json", action="store_true", help="machine-readable output")

    serve = with_corpus(
        sub.add_parser(
            "serve",
            help="serve the corpus over the CourtListener v4 API routes citecheck uses",
            description="Serve citation-lookup, clusters and opinions from the local corpus so that "
            "lookups never leave your network. Point clients at http://HOST:PORT/api/rest/v4/.",
        )
    )
    serve.add_argument(
        "--host",
        default="127.0.0.1",
        help="bind address (default 127.0.0.1; any other needs CITECHECK_SERVE_TOKEN)",
    )
    serve.add_argument("--port", type=int, default=8765)
    serve.add_argument(
        "--allow-host",
        action="append",
        default=[],
        metavar="NAME",
        help="a name clients use to reach this server (checked against the Host header); repeatable",
    )


class RichProgress:
    """A ProgressSink that draws one bar per stage on stderr (nothing when stderr is not a terminal)."""

    def __init__(self, stream: TextIO | None = None, *, force_terminal: bool | None = None) -> None:
        from rich.console import Console
        from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

        console = Console(file=stream or sys.stderr, force_terminal=force_terminal)
        self._progress = Progress(
            TextColumn("{task.description}"),
            BarColumn(),
            TextColumn("{task.completed:,.0f}/{task.total:,.0f}"),
            TimeElapsedColumn(),
            console=console,
            disable=not console.is_terminal,
            transient=False,
        )
        self._task: Any = None

    def __enter__(self) -> RichProgress:
        self._progress.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._progress.stop()

    def stage(self, name: str, total: int | None) -> None:
        if self._task is not None:
            t = self._progress.tasks[-1]
            self._progress.update(self._task, completed=t.total or t.completed)
        self._task = self._progress.add_task(name, total=total)

    def advance(self, n: int = 1) -> None:
        if self._task is not None:
            self._progress.advance(self._task, n)


def _print_import(stats: ImportStats, out: TextIO) -> None:
    out.write(
        f"imported {stats.cases} cases ({stats.opinions} with opinion text, {stats.citations} citations)"
        f" from {stats.format}\n"
    )
    if stats.skipped:
        out.write(f"skipped {stats.skipped} opinions of clusters not in the import\n")
    if stats.refused:
        first = f" (first: {stats.refusal})" if stats.refusal else ""
        out.write(f"refused {stats.refused} records that could not be stored safely{first}\n")
    if stats.volumes:
        shown = ", ".join(stats.volumes[:12]) + (" …" if len(stats.volumes) > 12 else "")
        out.write(f"volumes: {shown}\n")
    complete = ", ".join(stats.complete_volumes) or "none"
    out.write(f"complete volumes (cases tile every page): {complete}\n")


def run_corpus_command(args: argparse.Namespace, settings: Settings, *, out: TextIO | None = None) -> int:
    out = out or sys.stdout
    action = getattr(args, "corpus_command", None)
    if action is None:
        raise ConfigError(
            "corpus needs an action: import, fetch, sync, stats, status or serve (see citecheck corpus --help)"
        )
    corpus_path = Path(getattr(args, "corpus", None) or settings.corpus_path)
    index_path = Path(getattr(args, "index", None) or settings.index_path).expanduser()
    if action == "import" and getattr(args, "full_dump", False):
        if getattr(args, "corpus", None):
            # the index is its own file: building it at the default path while the user named another
            # file would leave them checking against an index they never asked for (issue 32)
            raise ConfigError(
                "--full-dump builds the citation index, not the corpus: name its file with --index FILE, "
                "not --corpus"
            )
        return _build_index(args.path, index_path, full_dump=True, rebuild=False, out=out)
    if action == "import":
        return _import(args.path, corpus_path, settings, out)
    if action == "sync" and args.statutes:
        return run_statute_sync(args, settings, out)
    if action == "sync":
        if args.partial and args.from_folder is None:
            raise ConfigError("--partial describes files given with --from DIR")
        if args.from_folder is not None:
            return _build_index(
                args.from_folder, index_path, full_dump=not args.partial, rebuild=args.rebuild, out=out
            )
        return asyncio.run(_sync(args, index_path, settings, out))
    if action == "status":
        return _status(index_path, corpus_path, settings, args, out)
    if action == "fetch":
        return asyncio.run(_fetch(args, corpus_path, settings, out))
    if action == "stats":
        return _stats(corpus_path, bool(args.json), out)
    if action == "serve":
        return _serve(
            corpus_path, args.host, args.port, token=settings.serve_token, allow_hosts=args.allow_host
        )
    raise ConfigError(f"unknown corpus action: {action}")


class ByteProgress:
    """A ProgressSink for bytes: a bar with size, rate and ETA on a terminal, a line every few seconds otherwise."""

    def __init__(self, stream: TextIO | None = None, *, every_s: float = 5.0) -> None:
        from rich.console import Console
        from rich.progress import (
            BarColumn,
            DownloadColumn,
            Progress,
            TextColumn,
            TimeRemainingColumn,
            TransferSpeedColumn,
        )

        self._stream = stream or sys.stderr
        console = Console(file=self._stream)
        self._live = console.is_terminal
        self._progress = Progress(
            TextColumn("{task.description}"),
            BarColumn(),
            DownloadColumn(),
            TransferSpeedColumn(),
            TimeRemainingColumn(),
            console=console,
            disable=not self._live,
        )
        self._task: Any = None
        self._name = ""
        self._total: int | None = None
        self._done = 0
        self._every = every_s
        self._last = 0.0
        self._t0 = 0.0

    def __enter__(self) -> ByteProgress:
        self._progress.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._progress.stop()

    def stage(self, name: str, total: int | None) -> None:
        import time

        self._name, self._total, self._done = name, total, 0
        self._t0 = self._last = time.monotonic()
        if self._live:
            self._task = self._progress.add_task(name, total=total)
        else:
            self._stream.write(f"citecheck: {name}\n")

    def advance(self, n: int = 1) -> None:
        import time

        self._done += n
        if self._live and self._task is not None:
            self._progress.advance(self._task, n)
            return
        now = time.monotonic()
        if now - self._last >= self._every:
            self._last = now
            self._stream.write(_progress_line(self._name, self._done, self._total, now - self._t0) + "\n")

    def download(self, p: DownloadProgress) -> None:
        """The download callback (sources/download.py)."""
        if self._name != p.name:
            self.stage(p.name, p.total)
            self._done = p.done
            if self._live and self._task is not None:
                self._progress.update(self._task, completed=p.done)
            return
        self.advance(p.done - self._done)


def _progress_line(name: str, done: int, total: int | None, elapsed: float) -> str:
    """``name: 1.2 GB of 4.5 GB, 30.1 MB/s, about 2 min left``."""
    from citecheck.sources.download import format_bytes

    rate = done / elapsed if elapsed > 0 else 0.0
    of = f" of {format_bytes(total)}" if total else ""
    left = ""
    if total and rate > 0:
        secs = (total - done) / rate
        left = f", about {secs / 60:.0f} min left" if secs >= 90 else f", about {secs:.0f} s left"
    return f"citecheck: {name}: {format_bytes(done)}{of}, {format_bytes(rate)}/s{left}"


def _build_index(folder: Path, index_path: Path, *, full_dump: bool, rebuild: bool, out: TextIO) -> int:
    from citecheck.sources.index.build import build_from_folder

    with ByteProgress() as progress:
        stats = build_from_folder(index_path, folder, full_dump=full_dump, progress=progress, rebuild=rebuild)
    _print_build(stats, index_path, out)
    return 0


_DIALECT_NAMES = {
    "default": "plain CSV (dumps before July 2023)",
    "doubled": "every value quoted, quotes doubled (July 2023 to July 2024)",
    "backtick": "values in backticks (August 2024 to January 2025)",
}


def _print_build(stats: BuildStats, index_path: Path, out: TextIO) -> None:
    from citecheck.sources.download import format_bytes

    if stats.mode == "unchanged":
        out.write(
            f"the citation index is up to date (CourtListener dump of {stats.dump_date}): {index_path}\n"
        )
        return
    kind = "a full dump" if stats.full_dump else "a partial import (no volume is complete)"
    how = "updated" if stats.mode == "update" else "built"
    out.write(
        f"citation index {how} from {kind} of {stats.dump_date or 'unknown date'} in {stats.seconds:.0f} s: "
        f"{stats.cases:,} cases, {stats.citations:,} citations, {stats.volumes:,} volumes "
        f"({stats.complete_volumes:,} complete), {format_bytes(stats.size)}\n"
    )
    if stats.rebuilt:
        out.write(f"the index was built again from nothing: {stats.rebuilt}\n")
    if stats.dialect and stats.dialect != "backslash":
        out.write(
            f"read in CourtListener's older CSV dialect: {_DIALECT_NAMES.get(stats.dialect, stats.dialect)}\n"
        )
    for note in stats.notes:
        out.write(f"note: {note}\n")
    if stats.waiting:
        out.write(
            f"{index_path} is open in another program (a language server or the Word backend), so the new index "
            f"waits beside it as {index_path.name}.next: citecheck reads it from now on and puts it in place "
            "once the old file is closed\n"
        )
    if stats.mode == "update":
        changed = ", ".join(f"{n:,} {k}" for k, n in stats.changed.items())
        deleted = ", ".join(f"{n:,} {k}" for k, n in stats.deleted.items())
        out.write(f"applied changes: {changed}; removed: {deleted}\n")
    if stats.refused:
        total = sum(stats.refused.values())
        out.write(f"refused {total:,} rows that could not be kept safely:\n")
        for why, n in sorted(stats.refused.items()):
            out.write(f"  {n:,}  {why}\n")
    out.write(f"index: {index_path}\n")


async def _sync(args: argparse.Namespace, index_path: Path, settings: Settings, out: TextIO) -> int:
    from citecheck.sources.download import format_bytes
    from citecheck.sources.index.sync import sync

    if settings.offline:
        raise ConfigError("corpus sync downloads CourtListener's bulk files; with --offline use --from DIR")
    with ByteProgress() as progress:
        result = await sync(
            index_path,
            bulk_url=args.bulk_url or settings.bulk_url,
            progress=progress,
            on_download=progress.download,
            keep_downloads=args.keep_downloads,
            rebuild=args.rebuild,
            timeout_s=max(settings.http_timeout_s, 60.0),
        )
    if result.downloaded or result.resumed:
        resumed = f" (resumed after {format_bytes(result.resumed)})" if result.resumed else ""
        out.write(f"downloaded {format_bytes(result.downloaded)} of the {result.date} dump{resumed}\n")
    for note in result.notes:
        out.write(f"note: {note}\n")
    _print_build(result.build, index_path, out)
    await _refresh_overruled(settings, out)
    return 0


async def _refresh_overruled(settings: Settings, out: TextIO) -> None:
    """The Congress.gov table of decisions overruled, refreshed with every sync; a failure is a warning (the
    copy shipped with citecheck, or the last refresh, stays in use)."""
    from citecheck.config import overruled_table_path
    from citecheck.errors import CitecheckError
    from citecheck.sources.treatment.congress import refresh

    try:
        done = await refresh(
            settings.overruled_url, overruled_table_path(), timeout_s=settings.http_timeout_s
        )
    except CitecheckError as exc:
        sys.stderr.write(f"citecheck: warning: the table of decisions overruled was not refreshed: {exc}\n")
        return
    if done.kept:
        out.write(f"table of Supreme Court decisions overruled: {done.pairs} decisions (from {done.url})\n")
    else:
        sys.stderr.write(
            f"citecheck: warning: {done.url} read as only {done.pairs} overruled decisions, fewer than the copy "
            "citecheck ships; kept the copy in use\n"
        )


def _status(
    index_path: Path, corpus_path: Path, settings: Settings, args: argparse.Namespace, out: TextIO
) -> int:
    """The citation index, the statute index (cli/corpus_statutes.py) and the corpus, in one report."""
    import io

    as_json = bool(args.json)
    statutes = io.StringIO()
    statute_status(settings, statutes, as_json=as_json, path=args.statutes_path)
    if as_json:
        data = json.loads(statutes.getvalue())
        data.update(_index_status(index_path, corpus_path))
        out.write(json.dumps(data, indent=2) + "\n")
        return 0
    _print_index_status(_index_status(index_path, corpus_path), index_path, out)
    out.write(statutes.getvalue())
    return 0


def _index_status(index_path: Path, corpus_path: Path) -> dict[str, Any]:
    from citecheck.sources.index import files
    from citecheck.sources.index.build import read_meta
    from citecheck.sources.index.lookup import CitationIndex
    from citecheck.sources.index.schema import layout_outdated

    info: dict[str, Any] = {"index": None, "corpus": str(corpus_path) if corpus_path.exists() else None}
    outdated = layout_outdated(read_meta(files.current(index_path, promote=False)))
    if outdated is not None:
        info["index_unreadable"] = (
            f"the citation index {index_path} {outdated}: run `citecheck corpus sync` (or `sync --from DIR`) "
            "to build it again"
        )
    elif index_path.exists() or files.pending_path(index_path).exists():
        index = CitationIndex(index_path)
        try:
            st = index.status()
        finally:
            index.close()
        info["index"] = {
            "path": str(st.path),
            "size": st.size,
            "dump_date": st.dump_date,
            "built_at": st.built_at,
            "full_dump": st.full_dump,
            "cases": st.cases,
            "citations": st.citations,
            "dockets": st.dockets,
            "courts": st.courts,
            "volumes": st.volumes,
            "complete_volumes": st.complete_volumes,
            "refused": st.refused,
        }
    return info


def _print_index_status(info: dict[str, Any], index_path: Path, out: TextIO) -> None:
    from citecheck.sources.download import format_bytes

    idx = info["index"]
    if info.get("index_unreadable"):
        out.write(info["index_unreadable"] + "\n")
    elif idx is None:
        out.write(
            f"no citation index at {index_path}: build one with `citecheck corpus sync` "
            "(or `citecheck corpus sync --from DIR` from downloaded dump files)\n"
        )
    else:
        kind = "full dump" if idx["full_dump"] else "partial import: no volume is complete"
        out.write(
            f"citation index: {idx['path']}\n"
            f"  CourtListener dump of {idx['dump_date'] or 'unknown date'} ({kind}), built {idx['built_at']}\n"
            f"  {idx['cases']:,} cases, {idx['citations']:,} citations, {idx['courts']:,} courts\n"
            f"  {idx['volumes']:,} volumes, {idx['complete_volumes']:,} complete (only a complete volume can show "
            "that a cited case does not exist)\n"
            f"  {format_bytes(idx['size'])} on disk\n"
        )
        if idx["refused"]:
            out.write(
                f"  {sum(idx['refused'].values()):,} rows of the dump were refused (see corpus sync's output)\n"
            )
    out.write(f"local corpus: {info['corpus'] or 'none'}\n")


def _import(path: Path, corpus_path: Path, settings: Settings, out: TextIO) -> int:
    from citecheck.sources.corpus import Corpus
    from citecheck.sources.importing import import_path

    corpus = Corpus(corpus_path)
    try:
        with RichProgress() as progress:
            stats = import_path(corpus, path, progress=progress, url_base=None)
    finally:
        corpus.close()
    _print_import(stats, out)
    out.write(f"corpus: {corpus_path}\n")
    return 0


async def _fetch(args: argparse.Namespace, corpus_path: Path, settings: Settings, out: TextIO) -> int:
    from citecheck.sources.cap_fetch import CapFetcher
    from citecheck.sources.corpus import Corpus
    from citecheck.sources.reporters import normalise_reporter

    if settings.offline:
        raise ConfigError("corpus fetch downloads from the network; it cannot run with --offline")
    bad = [v for v in args.volumes if not v.isdigit()]
    if bad:
        raise ConfigError(f"volume numbers must be digits: {', '.join(bad)}")
    reporter = normalise_reporter(args.reporter)
    corpus = Corpus(corpus_path)
    fetcher = CapFetcher(args.base_url or settings.cap_url, timeout_s=settings.http_timeout_s)
    try:
        with RichProgress() as progress:
            outcome = await fetcher.fetch_and_import(
                [(reporter, v) for v in args.volumes], corpus, progress=progress, refresh=True
            )
    finally:
        await fetcher.close()
        corpus.close()
    for stats in outcome.stats:
        _print_import(stats, out)
    for (rep, vol), why in sorted(outcome.failures.items()):
        sys.stderr.write(f"citecheck: {vol} {rep}: {why}\n")
    out.write(f"corpus: {corpus_path}\n")
    return 0 if not outcome.failures else 1


def _stats(corpus_path: Path, as_json: bool, out: TextIO) -> int:
    from citecheck.sources.corpus import Corpus

    corpus = Corpus(corpus_path, readonly=True)
    try:
        stats = corpus.stats()
        coverage = corpus.coverage()
    finally:
        corpus.close()
    if as_json:
        data = dict(stats)
        data["volumes"] = [
            {
                "reporter": c.reporter,
                "volume": c.volume,
                "cases": c.cases,
                "complete": c.complete,
                "ranges": c.ranges,
            }
            for c in coverage
        ]
        out.write(json.dumps(data, indent=2) + "\n")
        return 0
    out.write(f"corpus: {corpus_path}\n{stats['cases']} cases, {stats['opinions']} with opinion text\n\n")
    per = stats["citations_per_reporter"]
    assert isinstance(per, dict)
    out.write("citations per reporter:\n")
    width = max((len(r) for r in per), default=8)
    for rep, n in per.items():
        out.write(f"  {rep:<{width}}  {n}\n")
    complete = [c for c in coverage if c.complete]
    out.write(f"\ncomplete volumes ({len(complete)}): ")
    out.write(", ".join(f"{c.volume} {c.reporter}" for c in complete) or "none")
    out.write("\n(only a complete volume can prove that a cited case does not exist)\n")
    return 0


def _serve(
    corpus_path: Path, host: str, port: int, *, token: str | None = None, allow_hosts: Sequence[str] = ()
) -> int:
    from citecheck.sources.corpus_server import CorpusServer, is_loopback

    try:
        server = CorpusServer(corpus_path, host=host, port=port, token=token, allow_hosts=allow_hosts)
    except OSError as exc:
        raise ConfigError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from exc
    if not is_loopback(host):
        sys.stderr.write(
            f"citecheck: serving on {host}: clients must send the serve token; put an https proxy in "
            "front of it, or their CourtListener token will not be sent (plain http)\n"
        )
    sys.stderr.write(f"citecheck: serving {corpus_path} at {server.base_url} (Ctrl-C to stop)\n")
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.stop()
    return 0
