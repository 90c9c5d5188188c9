"""``citecheck corpus import|fetch|sync|stats|status|serve``: build, inspect and share the local corpus.

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
from typing import Any, TextIO

from citecheck.cli.statutes import add_statute_arguments, run_statute_sync, statute_status
from citecheck.config import Settings
from citecheck.errors import ConfigError
from citecheck.sources.importing import ImportStats


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

    sync = with_corpus(
        sub.add_parser(
            "sync",
            help="download public releases and build local indexes (--statutes: U.S. Code and C.F.R.)",
            description="Download and index public releases. --statutes: the U.S. Code (the OLRC's USLM "
            "release point) and the C.F.R. (the eCFR versioner), so that statute and regulation "
            "citations are checked offline. Interrupted downloads resume.",
        )
    )
    add_statute_arguments(sync)

    status = with_corpus(sub.add_parser("status", help="what the local indexes hold (corpus, statutes)"))
    status.add_argument("--json", action="store_true", help="machine-readable output")
    status.add_argument("--statutes-path", type=Path, default=None, metavar="FILE", help="statute index file")

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
    if action == "import":
        return _import(args.path, corpus_path, settings, out)
    if action == "fetch":
        return asyncio.run(_fetch(args, corpus_path, settings, out))
    if action == "sync":
        if not args.statutes:
            raise ConfigError("corpus sync needs what to sync: --statutes (see citecheck corpus sync --help)")
        return run_statute_sync(args, settings, out)
    if action == "status":
        return statute_status(settings, out, as_json=bool(args.json), path=args.statutes_path)
    if action == "stats":
        return _stats(corpus_path, bool(args.json), out)
    if action == "serve":
        return _serve(
            corpus_path, args.host, args.port, token=settings.serve_token, allow_hosts=args.allow_host
        )
    raise ConfigError(f"unknown corpus action: {action}")


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
    from citecheck.sources.server import CorpusServer, is_loopback

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
