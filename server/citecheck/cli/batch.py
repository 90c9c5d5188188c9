"""``citecheck batch INPUT... --out OUT.parquet``: check thousands of documents on Ray (docs/scale.md).

Argv, the progress line, the summary and the exit status live here; the work is ``citecheck.batch``.
Exit status: 0 every document listed has its rows and none failed; 1 some document could not be checked
(its row says why); 2 usage, configuration or input errors (Ray not installed among them); 130 interrupted
(what was done is kept: the same command goes on from there).
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from dataclasses import replace
from pathlib import Path
from typing import Any, TextIO

from citecheck.config import Settings, settings_from_mapping
from citecheck.errors import ConfigError

EXIT_OK, EXIT_FAILED, EXIT_USAGE = 0, 1, 2
#: Without a terminal, a progress line at most this often.
PROGRESS_EVERY_S = 10.0


def add_batch_commands(subparsers: argparse._SubParsersAction[Any]) -> None:
    p = subparsers.add_parser(
        "batch",
        help="check many documents on Ray, into Parquet tables",
        description="Check every .docx, .pdf, .md and .txt document INPUT names (folders recursively, globs, "
        "files, @FILE: a list of paths) as `citecheck check` would, on a local Ray instance or a cluster; "
        "findings go to OUT (one row a finding) and OUT.documents.parquet (one row a document). A rerun with "
        "the same --out skips the documents already there. Needs the [scale] extra.",
    )
    p.add_argument("inputs", nargs="+", metavar="INPUT")
    p.add_argument("--out", "-o", type=Path, required=True, metavar="OUT.parquet", help="the findings table")
    p.add_argument(
        "--ray-address", metavar="ADDR", help="join this Ray cluster (default: start a local instance)"
    )
    p.add_argument(
        "--workers",
        type=int,
        metavar="N",
        help="worker processes (default: every CPU, here or in the cluster)",
    )
    p.add_argument(
        "--timeout",
        type=float,
        default=300.0,
        metavar="S",
        help="seconds one document may take before it becomes an error row (default: 300)",
    )
    p.add_argument(
        "--retry-errors", action="store_true", help="check again the documents whose row is an error"
    )
    p.add_argument(
        "--model-url",
        action="append",
        default=[],
        metavar="URL",
        help="an OpenAI-compatible endpoint for the holding checks; repeat for replicas (default: model_url)",
    )
    p.add_argument("--no-holdings", action="store_true", help="skip the holding checks")
    p.add_argument(
        "--no-ignore", action="store_true", help="report findings dismissed in .citecheck/ignore.json too"
    )


def run_batch_command(args: argparse.Namespace, settings: Settings) -> int:
    from citecheck.batch import engine
    from citecheck.batch.documents import expand_inputs
    from citecheck.batch.worker import batch_settings
    from citecheck.ignores import IgnoreList
    from citecheck.ignores.file import find_ignore_file, read_ignore_list

    if args.workers is not None and args.workers < 1:
        raise ConfigError("--workers must be 1 or more")
    if not args.timeout > 0:
        raise ConfigError("--timeout must be more than 0 seconds")
    engine.require_scale()
    urls = _judge_urls(args, settings)
    _say_what_is_not_asked(settings)
    settings = _workers_settings(batch_settings(settings), urls, args.no_holdings)
    holdings = settings.holdings_enabled() and not settings.offline
    paths = expand_inputs(args.inputs)
    ignores = IgnoreList() if args.no_ignore else read_ignore_list(find_ignore_file(Path.cwd()))

    from citecheck.batch.store import Store

    out = args.out.expanduser()
    with Store(out) as store:
        done = store.done()
        todo = [p for p in paths if p not in done or (args.retry_errors and done[p] is not None)]
        skipped = len(paths) - len(todo)
        err = sys.stderr
        err.write(
            f"citecheck batch: {len(paths)} documents"
            + (f", {skipped} already in {out.name} (skipped)" if skipped else "")
            + f", {len(todo)} to check\n"
        )
        progress = _Progress(len(todo), err)
        outcomes: list[Any] = []

        def keep(outcome: Any) -> None:
            store.add(outcome)
            outcomes.append(outcome)
            progress.advance(outcome)

        stats, interrupted = None, False
        try:
            if todo:
                options = engine.EngineOptions(
                    workers=args.workers,
                    address=args.ray_address,
                    timeout_s=args.timeout,
                    judge_urls=_judge_urls_used(urls, settings) if holdings else (),
                    keep_ray_files=bool(getattr(args, "debug", False)),
                )
                stats = engine.run(todo, settings, ignores, options, keep, progress.tick)
        except KeyboardInterrupt:
            interrupted = True
        finally:
            progress.close()
            store.merge()
        _summary(err, out, store, paths, outcomes, skipped, stats, interrupted)
        if interrupted:
            err.write("citecheck: interrupted; run the same command again to go on where it stopped\n")
            return 130
        errors = {k: v for k, v in store.done().items() if k in set(paths) and v is not None}
        return EXIT_FAILED if errors else EXIT_OK


def _speed(err: TextIO, outcomes: list[Any], failed: list[Any], stats: Any) -> None:
    wall = (stats.finished or time.monotonic()) - stats.started
    rate = len(outcomes) / wall if wall > 0 else 0.0
    err.write(
        f"checked {len(outcomes) - len(failed)} documents, {len(failed)} failed, in {_duration(wall)} "
        f"({rate:.2f} documents/s on {stats.workers} workers; {stats.setup_s:.1f} s to start them)\n"
    )
    if stats.worker_peak_rss:
        mb = sorted(r / 2**20 for r in stats.worker_peak_rss)
        err.write(f"  workers' peak memory: {mb[0]:.0f}-{mb[-1]:.0f} MB each\n")


def _findings_counted(err: TextIO, outcomes: list[Any]) -> None:
    sev = Counter[str]()
    kinds = Counter[str]()
    for o in outcomes:
        for row in o.findings:
            sev[row["severity"]] += 1
            kinds[row["kind"]] += 1
    cites = sum(o.citations for o in outcomes)
    err.write(
        f"  {cites} citations; findings: {sev['error']} error, {sev['warning']} warning, {sev['info']} info\n"
    )
    if kinds:
        err.write("  most frequent: " + ", ".join(f"{k} {n}" for k, n in kinds.most_common(6)) + "\n")


def _judge_urls_used(urls: list[str], settings: Settings) -> tuple[str, ...]:
    """The holding checks' endpoints: each ``--model-url``, else the setting's."""
    return tuple(urls if urls else [settings.model_url or ""])


def _workers_settings(settings: Settings, urls: list[str], no_holdings: bool) -> Settings:
    """The workers' settings: the first ``--model-url`` the model endpoint, the holding checks off when asked."""
    if urls:
        settings = replace(settings, model_url=urls[0])
    if no_holdings:
        settings = replace(settings, holdings=False)
    return settings


def _say_what_is_not_asked(settings: Settings) -> None:
    """One line when the settings would have a check download CAP volumes or ask CourtListener."""
    if settings.offline:
        return
    off = [
        what
        for what, on in (
            ("CAP volumes are not downloaded", settings.cap_fetch),
            ("CourtListener is not asked", bool(settings.courtlistener_token)),
        )
        if on
    ]
    if off:
        sys.stderr.write(
            f"citecheck batch: only local sources are read ({' and '.join(off)}): fill the corpus and "
            "the citation index first (docs/scale.md)\n"
        )


def _judge_urls(args: argparse.Namespace, settings: Settings) -> list[str]:
    """``--model-url`` values, each checked as the ``model_url`` setting is."""
    urls = []
    for url in args.model_url:
        checked = settings_from_mapping({"model_url": url}, settings, user_level=True).model_url
        if not checked:
            raise ConfigError(f"--model-url {url}: not an http(s) URL")
        urls.append(checked)
    return urls


class _Progress:
    """``citecheck batch: 120/300 documents (3 failed), 4.1 documents/s, ETA 44 s`` — redrawn in place on
    a terminal, otherwise a line every ``PROGRESS_EVERY_S``."""

    def __init__(self, total: int, stream: TextIO) -> None:
        self.total, self.stream = total, stream
        self.done = self.failed = 0
        self.began: float | None = None  # the first document handed out (Ray and the workers started)
        self.tty = stream.isatty()
        self.last = time.monotonic()  # the first line after PROGRESS_EVERY_S: an early rate says little

    def advance(self, outcome: Any) -> None:
        self.done += 1
        self.failed += bool(outcome.failed)
        self.tick()

    def line(self) -> str:
        now = time.monotonic()
        began = self.began or now
        rate = self.done / (now - began) if now > began else 0.0
        eta = (
            f", ETA {_duration((self.total - self.done) / rate)}"
            if rate > 0 and self.done < self.total
            else ""
        )
        failed = f" ({self.failed} failed)" if self.failed else ""
        return f"citecheck batch: {self.done}/{self.total} documents{failed}, {rate:.1f} documents/s{eta}"

    def tick(self, stats: Any = None) -> None:
        if stats is not None and stats.started and self.began is None:
            self.began = stats.started
        now = time.monotonic()
        if self.tty:
            if now - self.last >= 0.2:
                self.stream.write("\r\x1b[2K" + self.line())
                self.stream.flush()
                self.last = now
        elif now - self.last >= PROGRESS_EVERY_S and self.done:
            self.stream.write(self.line() + "\n")
            self.stream.flush()
            self.last = now

    def close(self) -> None:
        if self.tty and self.last:
            self.stream.write("\r\x1b[2K")
            self.stream.flush()


def _duration(seconds: float) -> str:
    seconds = int(seconds + 0.5)
    if seconds < 60:
        return f"{seconds} s"
    if seconds < 3600:
        return f"{seconds // 60} min {seconds % 60:02d} s"
    return f"{seconds // 3600} h {seconds % 3600 // 60:02d} min"


def _summary(
    err: TextIO,
    out: Path,
    store: Any,
    paths: list[str],
    outcomes: list[Any],
    skipped: int,
    stats: Any,
    interrupted: bool,
) -> None:
    """What this run did, and what the tables hold for the documents listed."""
    failed = [o for o in outcomes if o.failed]
    if stats is not None and outcomes:
        _speed(err, outcomes, failed, stats)
    elif not outcomes and not interrupted:
        err.write("nothing to check\n")
    if failed:
        why = Counter(o.error_kind for o in failed)
        err.write("  failed: " + ", ".join(f"{n} {k}" for k, n in why.most_common()) + "\n")
    if outcomes:
        _findings_counted(err, outcomes)
    if stats is not None and stats.judge is not None:
        j = stats.judge
        sent = ", ".join(f"{u} {n}" for u, n in sorted(j.requests.items())) or "none"
        err.write(
            f"  holding judge: requests {sent}; cache {j.cache_hits} hit(s), {j.cache_misses} miss(es); "
            f"{j.waited} waited for room\n"
        )
    if out.exists():
        err.write(f"  findings:  {out}\n  documents: {store.documents}\n")
