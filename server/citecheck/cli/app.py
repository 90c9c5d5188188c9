"""``citecheck``: check filed documents (``check``), manage the corpus (``corpus``), run evaluations (``eval``).

The edge of the batch side: argv, files, stdout/stderr and exit codes live here and nowhere else.
Exit codes: 0 nothing at or above ``--fail-on``; 1 findings at or above it; 2 usage, config or
input errors. Errors are one line on stderr; ``--debug`` shows tracebacks.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import os
import secrets
import sys
import traceback
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any, NoReturn, TextIO

from citecheck import __version__
from citecheck.config import Settings
from citecheck.config.files import load_settings
from citecheck.errors import CitecheckError, ConfigError, InputError
from citecheck.findings import Severity
from citecheck.ignores import IgnoreList
from citecheck.ignores.file import find_ignore_file, read_ignore_list
from citecheck.inputs import InputDocument, read_input
from citecheck.privacy import redact
from citecheck.report.model import BatchResult, FileError, FileResult

log = logging.getLogger(__name__)

EXIT_OK, EXIT_FINDINGS, EXIT_USAGE = 0, 1, 2
FORMAT_NAMES = ("text", "json", "sarif", "html", "markdown")
FAIL_ON = ("error", "warning", "info", "never")


class _PlainFormatter(redact.RedactingFormatter):
    """``citecheck: warning: …``: a user reads warnings, not logger names (``--debug`` shows those).
    A redacting formatter itself, so ``redact.install`` keeps it as it is."""

    def format(self, record: logging.LogRecord) -> str:
        return redact.redact(f"citecheck: {record.levelname.lower()}: {record.getMessage()}")


class _UsageError(Exception):
    """argparse wanted to exit; carries its exit status instead."""

    def __init__(self, status: int) -> None:
        super().__init__(status)
        self.status = status


class _Parser(argparse.ArgumentParser):
    def exit(self, status: int = 0, message: str | None = None) -> NoReturn:
        if message:
            sys.stderr.write(message)
        raise _UsageError(status)


def _common_options() -> _Parser:
    """Options every subcommand accepts, before or after its name (SUPPRESS keeps argparse from
    letting a subparser's default overwrite a value given before the subcommand)."""
    p = _Parser(add_help=False)
    p.add_argument(
        "--config",
        type=Path,
        default=argparse.SUPPRESS,
        metavar="FILE",
        help="settings file (citecheck.toml or pyproject.toml); default: searched upwards",
    )
    p.add_argument("--corpus", default=argparse.SUPPRESS, metavar="FILE", help="local corpus (SQLite) to use")
    p.add_argument(
        "--index",
        default=argparse.SUPPRESS,
        metavar="FILE",
        help="citation index to use (corpus sync builds it)",
    )
    p.add_argument(
        "--offline",
        action="store_true",
        default=argparse.SUPPRESS,
        help="never use the network (no CAP download, no CourtListener)",
    )
    p.add_argument(
        "--debug", action="store_true", default=argparse.SUPPRESS, help="show tracebacks and debug logging"
    )
    return p


#: The commands besides ``check``, each in its own module (imported only when that command is run, or
#: for ``--help``: ``citecheck serve``'s module alone brings in the web server).
_COMMANDS = ("corpus", "eval", "serve", "treatment", "batch", "model")
#: Common options that take a value (skipped when looking for the command's name in argv).
_VALUED = ("--config", "--corpus", "--index")


def _command_in(argv: Sequence[str]) -> str | None:
    """The subcommand ``argv`` names (its first word that is not an option or an option's value)."""
    skip = False
    for word in argv:
        if skip:
            skip = False
        elif word in _VALUED:
            skip = True
        elif not word.startswith("-"):
            return word
    return None


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The whole command line; with ``command`` (``check``, ``corpus``, …) only that command's part of
    it, so that a check imports nothing of the others (the Word backend's web server, Ray, the
    evaluation). Any other word builds it all, for argparse's own message."""
    common = _common_options()
    parser = _Parser(
        prog="citecheck",
        parents=[common],
        description="Catch fabricated and misused case citations in legal documents.",
    )
    parser.add_argument("--version", action="version", version=f"citecheck {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)

    check = sub.add_parser(
        "check",
        parents=[common],
        help="check documents and write a report",
        description="Check .docx, .md, .txt and .pdf documents ('-' reads stdin).",
    )
    check.add_argument("files", nargs="+", metavar="FILE")
    check.add_argument("--format", "-f", choices=FORMAT_NAMES, default="text")
    check.add_argument("--output", "-o", type=Path, metavar="PATH", help="write the report here, not stdout")
    check.add_argument(
        "--fail-on",
        choices=FAIL_ON,
        default="error",
        help="exit 1 when a finding is at or above this severity (default: error)",
    )
    check.add_argument(
        "--wait",
        action="store_true",
        help="wait for CourtListener's rate limit until every citation is checked "
        "(default: stop after courtlistener_budget_s and say what is still waiting)",
    )
    check.add_argument(
        "--no-ignore", action="store_true", help="report findings dismissed in .citecheck/ignore.json too"
    )
    check.add_argument(
        "--no-holdings",
        action="store_true",
        help="skip the holding checks on the model endpoint (they run when model_url is set)",
    )
    check.set_defaults(_run=_run_check)
    if command == "check":
        return parser

    wanted = _COMMANDS if command not in _COMMANDS else (command,)
    if "corpus" in wanted:
        from citecheck.cli import corpus as corpus_cli

        corpus_cli.add_corpus_commands(sub)
        _add_missing_common_options(sub.choices["corpus"], common)
        sub.choices["corpus"].set_defaults(_run=corpus_cli.run_corpus_command)
    if "eval" in wanted:
        from citecheck.cli import evaluate as eval_cli

        eval_cli.add_eval_commands(sub)
        _add_missing_common_options(sub.choices["eval"], common)
        sub.choices["eval"].set_defaults(
            _run=lambda args, settings: asyncio.run(eval_cli.run_eval_command(args, settings))
        )
    if "serve" in wanted:
        from citecheck.cli import serve as serve_cli

        serve_cli.add_serve_commands(sub)
        _add_missing_common_options(sub.choices["serve"], common)
        sub.choices["serve"].set_defaults(_run=serve_cli.run_serve_command)
    if "treatment" in wanted:
        from citecheck.cli import treatment as treatment_cli

        treatment_cli.add_treatment_commands(sub)
        _add_missing_common_options(sub.choices["treatment"], common)
        sub.choices["treatment"].set_defaults(_run=treatment_cli.run_treatment_command)
    if "batch" in wanted:
        from citecheck.cli import batch as batch_cli

        batch_cli.add_batch_commands(sub)
        _add_missing_common_options(sub.choices["batch"], common)
        sub.choices["batch"].set_defaults(_run=batch_cli.run_batch_command)
    if "model" in wanted:
        from citecheck.cli import model as model_cli

        model_cli.add_model_commands(sub)
        _add_missing_common_options(sub.choices["model"], common)
        sub.choices["model"].set_defaults(
            _run=lambda args, settings: asyncio.run(model_cli.run_model_command(args, settings))
        )
    return parser


def _add_missing_common_options(parser: argparse.ArgumentParser, common: argparse.ArgumentParser) -> None:
    """``citecheck corpus --config F ...`` works like ``citecheck --config F corpus ...``, and so does
    ``citecheck corpus sync --config F`` (each action of a command with actions takes them too)."""
    for action in common._actions:
        if action.option_strings and not any(
            o in parser._option_string_actions for o in action.option_strings
        ):
            parser._add_action(action)
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for child in action.choices.values():
                _add_missing_common_options(child, common)


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``citecheck`` console script; returns the exit status."""
    exiting = argv is None  # the console script: the process ends when this returns
    argv = list(sys.argv[1:] if argv is None else argv)
    debug = "--debug" in argv
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(
        logging.Formatter("%(levelname)s %(name)s: %(message)s") if debug else _PlainFormatter()
    )
    logging.basicConfig(level=logging.DEBUG if debug else logging.WARNING, handlers=[handler], force=True)
    if not debug:  # network progress ("downloading CAP volume …") belongs on stderr: it can take seconds
        logging.getLogger("citecheck.sources.cap_fetch").setLevel(logging.INFO)
    redact.register_secrets_from_env(os.environ)
    redact.install()
    from citecheck.startup import tokenizer_cache

    tokenizer_cache.install()  # a paragraph is tokenized from the cached table: no eyecite import
    parser = build_parser(_command_in(argv))
    try:
        args = parser.parse_args(argv)
    except _UsageError as exc:
        return EXIT_OK if exc.status == 0 else EXIT_USAGE
    if not getattr(args, "_run", None):
        parser.print_help(sys.stderr)
        return EXIT_USAGE
    args.exiting = exiting
    try:
        settings, config_file = load_settings(
            config_file=getattr(args, "config", None),
            overrides={
                "corpus": getattr(args, "corpus", None),
                "index": getattr(args, "index", None),
                "offline": getattr(args, "offline", None) or None,
            },
        )
        redact.register_secret(settings.courtlistener_token)
        if config_file:
            log.debug("settings from %s", config_file)
        from citecheck.privacy.offline import no_network

        with no_network() if settings.offline else contextlib.nullcontext():  # every command, not just check
            return int(args._run(args, settings) or 0)
    except KeyboardInterrupt:
        sys.stderr.write("citecheck: interrupted\n")
        return 130
    except BrokenPipeError:  # `citecheck ... | head`: the reader left; say nothing more
        with contextlib.suppress(OSError):
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_OK
    except CitecheckError as exc:
        if debug:
            traceback.print_exc()
        sys.stderr.write(f"citecheck: error: {exc}\n")
        return EXIT_USAGE
    except Exception as exc:
        if debug:
            traceback.print_exc()
        sys.stderr.write(
            f"citecheck: internal error: {type(exc).__name__}: {exc} (run with --debug for details)\n"
        )
        return EXIT_USAGE


def _batch_gc() -> None:
    """A check allocates millions of objects that all live until the report is written (citations,
    findings, results; no cycles among them): with the default young generation of 700, the
    collector ran ~1,500 times and walked the whole heap 6 times for a 2,000,000-character brief
    (0.9 s of 9.7 s CPU). A young generation of 20,000, as the language server has: 0.4 s."""
    import gc

    _, second, third = gc.get_threshold()
    gc.set_threshold(max(20_000, gc.get_threshold()[0]), second, third)


def _skip_exit_collections() -> None:
    """The report is written and the process is about to exit (the console script only: a caller of
    ``main`` in the same process — the tests — goes on, and a frozen heap kept the last run's
    CourtListener pacer alive into the next run, which then verified nothing new): move what is alive out of the cyclic
    collector's reach. The interpreter's own collections while it tears down walked the heap a check
    leaves (the caches of names, cites and paragraphs, the modules) for 1.5-1.9 s after a
    7,000,000-character document, longer than rendering its report; frozen objects are skipped.
    Refcounting still frees everything without cycles, so an in-process caller (the tests) loses
    nothing but the collection of cycles made before this call."""
    import gc

    gc.freeze()


def _run_check(args: argparse.Namespace, settings: Settings) -> int:
    _batch_gc()

    corpus_flag = getattr(args, "corpus", None)
    if corpus_flag and not Path(corpus_flag).expanduser().exists():  # a typo must not create an empty corpus
        raise ConfigError(
            f"no corpus at {corpus_flag} (check the path; build one with "
            f"`citecheck corpus import PATH --corpus {corpus_flag}`)"
        )
    docs, errors = _read_inputs(args.files, settings)
    if args.no_holdings:
        settings = replace(settings, holdings=False)
    if getattr(args, "wait", False):
        settings = replace(settings, courtlistener_budget_s=None)
    ignores = IgnoreList() if args.no_ignore else read_ignore_list(find_ignore_file(Path.cwd()))
    files, sources, hidden = _check_documents(
        docs, settings, ignores, progress=sys.stderr.isatty() and bool(docs)
    )
    batch = BatchResult(
        files=tuple(files),
        errors=tuple(errors),
        tool_version=__version__,
        sources=sources,
        offline=settings.offline,
        ignored=hidden,
    )
    _write_report(batch, args.format, args.output)
    if getattr(args, "exiting", False):
        _skip_exit_collections()
    if errors:
        return EXIT_USAGE
    return _exit_for(batch, args.fail_on)


def _read_inputs(names: list[str], settings: Settings) -> tuple[list[InputDocument], list[FileError]]:
    """The documents read, and a FileError for each that could not be (said on stderr at once)."""
    docs: list[InputDocument] = []
    errors: list[FileError] = []
    if sum(1 for f in names if f == "-") > 1:
        raise ConfigError("'-' (stdin) may be given only once")
    for name in names:
        try:
            docs.append(
                read_input(
                    name,
                    stdin=sys.stdin.buffer if name == "-" else None,
                    max_chars=settings.max_document_chars,
                )
            )
        except InputError as exc:
            errors.append(
                FileError(name=name if name != "-" else "<stdin>", message=str(exc).split(": ", 1)[-1])
            )
            sys.stderr.write(
                f"citecheck: {exc}\n"
            )  # always stderr, whatever the format, so pipes get only the report
    return docs, errors


def _write_report(batch: BatchResult, fmt: str, output: Path | None) -> None:
    # Reports are written as they are produced, a piece at a time, never as one string: a
    # 100,000-citation report held whole (and its joined and encoded copies) took hundreds of megabytes.
    if fmt == "text":
        from citecheck.report.text import iter_plain_lines, render_text

        tty = output is None and sys.stdout.isatty()
        # on stdout the errors were just said on stderr; a report file keeps them
        shown = replace(batch, errors=()) if output is None else batch
        if tty:
            out = render_text(shown, tty=tty, width=_width(), color="NO_COLOR" not in os.environ)
            _write(lambda stream: stream.write(out), output, sys.stdout)
        else:
            _write(lambda stream: _write_lines(stream, iter_plain_lines(shown)), output, sys.stdout)
    elif fmt == "json":  # streamed: a large brief's report as one string took a gigabyte
        from citecheck.report.json import write_json

        _write(lambda stream: write_json(batch, stream), output, sys.stdout)
    elif fmt == "html":
        from citecheck.report.html import iter_html

        _write(lambda stream: stream.writelines(iter_html(batch)), output, sys.stdout)
    else:
        from citecheck.report import FORMATS

        out = FORMATS[fmt](batch)
        _write(lambda stream: stream.write(out), output, sys.stdout)


def _exit_for(batch: BatchResult, fail_on: str) -> int:
    if fail_on == "never":
        return EXIT_OK
    threshold = Severity(fail_on).rank
    worst = batch.worst()
    return EXIT_FINDINGS if worst is not None and worst.rank >= threshold else EXIT_OK


def _write_lines(stream: TextIO, lines: Iterable[str]) -> None:
    """``render_plain``'s text, line by line, each written as it is made."""
    for line in lines:
        stream.write(line)
        stream.write("\n")


def _width() -> int:
    try:
        return max(80, os.get_terminal_size(sys.stdout.fileno()).columns)
    except (OSError, ValueError):
        return 120


def _write(emit: Callable[[TextIO], object], path: Path | None, stdout: TextIO) -> None:
    """Let ``emit`` write the report to stdout or to ``path``."""
    if path is None:
        emit(stdout)
        stdout.flush()
        return
    try:
        write_atomically(path, emit)
    except OSError as exc:
        raise InputError(f"cannot write the report to {path}: {exc.strerror or exc}") from exc


def write_atomically(path: Path, emit: Callable[[TextIO], object]) -> None:
    """Write a file whole or not at all: ``emit`` writes a temporary file beside it, renamed over it.

    A full disk (or any error) half-way through leaves the earlier file, if any, as it was and no
    truncated report to mistake for a whole one; the temporary file is removed. A path that is not a
    regular file (``/dev/stdout``, a pipe) is written directly; a symbolic link's target is replaced.

    Raises:
        OSError: the file could not be written (the caller says so in one line).
    """
    target = path.resolve() if path.is_symlink() else path
    if target.exists() and not target.is_file():
        with target.open("w", encoding="utf-8") as stream:
            emit(stream)
        return
    tmp = target.with_name(f".{target.name}.{secrets.token_hex(4)}.tmp")
    # O_EXCL: never follow or reuse a file someone else put there; 0o666 & ~umask as a plain open gives
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0), 0o666)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as stream:
            emit(stream)
            stream.flush()
            os.fsync(stream.fileno())  # on the disk before it takes the report's name
        if target.exists():
            os.chmod(tmp, target.stat().st_mode & 0o7777)  # an existing report keeps its permissions
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def _check_documents(
    docs: list[InputDocument], settings: Settings, ignores: IgnoreList, *, progress: bool
) -> tuple[list[FileResult], str, int]:
    """Check every document with one source chain in one event loop (``asyncio.run`` once).

    Returns the file results, the sources consulted, and how many findings the ignore list hid.
    """
    if not docs:
        return [], "", 0
    from citecheck.pipeline import check_input
    from citecheck.sources.chain import open_source

    # The coroutine fills ``results`` and returns only a count: on Python 3.11, asyncio.run's SIGINT handling
    # builds the task's repr with its result's full repr inside (270 MB for a brief of 100,000 citations).
    results: list[FileResult] = []
    # A very long document is extracted on every CPU available, before the sources are opened: forking
    # worker processes is safe only while this process has no other threads (the cache's has one).
    from citecheck.extract.parallel import PARALLEL_FROM, extract_document

    extracted = {}
    if any(PARALLEL_FROM <= len(doc.text) for doc in docs):  # the collector's pause costs a full collection
        with _collector_paused():
            extracted = {
                i: extract_document(doc.text)
                for i, doc in enumerate(docs)
                if PARALLEL_FROM <= len(doc.text) <= settings.max_document_chars
            }

    async def run() -> int:
        hidden = 0
        reports = []
        holdings = None
        if settings.holdings_enabled() and not settings.offline:  # the model client: only when it is used
            from citecheck.holdings.stage import HoldingStage

            holdings = HoldingStage.from_settings(settings)
        try:
            async with open_source(settings) as source:
                from citecheck.cli.pacing import PacingDisplay

                # the paced link (CourtListener): its progress and the "N of M verified" line
                remote = next((link for link in source.links if hasattr(link, "pacer")), None)
                with (
                    _progress(progress, len(docs)) as advance,
                    PacingDisplay(remote, sys.stderr, settings) as pacing,
                ):
                    for i, doc in enumerate(docs):
                        advance(doc.name, 0)
                        file, report, hid = await check_input(
                            doc,
                            source,
                            settings,
                            ignores=ignores,
                            holdings=holdings,
                            extraction=extracted.pop(i, None),
                        )
                        reports.append(report)
                        hidden += hid
                        results.append(file)
                        advance(doc.name, 1)
                pacing.summary(reports)  # after the bars are gone, so nothing draws over it
        finally:
            if holdings is not None:
                await holdings.close()
        return hidden

    hidden = asyncio.run(run())
    return results, _describe_sources(settings), hidden


@contextlib.contextmanager
def _collector_paused() -> Iterator[None]:
    """Extract a long document with the cyclic collector off, then move what it made out of the
    collector's reach. Extraction makes no reference cycles (``gc.collect()`` after extracting
    2,000,000 characters frees nothing), yet the collector walked its growing results again and
    again (0.5-0.8 s of a 7,000,000-character check), and the later stages' collections walked them
    once more; they live until the report is written, and refcounting still frees them. Garbage
    left by an earlier run in this process (a caller of ``main`` that goes on: the tests) is collected
    first, so that nothing dead is frozen with the extraction and kept alive."""
    import gc

    gc.collect()
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()
    gc.freeze()


def _describe_sources(settings: Settings) -> str:
    """Which sources this run could consult, in words, for the report header.

    No path, address or token: a report is filed and shared, and ``/Users/<name>/…/corpus.sqlite``
    or a firm's internal host is nobody's business (``citecheck corpus stats`` says where they are).
    """
    parts = ["local corpus", "lookup cache"]
    if settings.index_path.expanduser().exists():
        parts.insert(1, "citation index")
    if not settings.offline and settings.cap_fetch:
        parts.append("Caselaw Access Project downloads")
    if not settings.offline and settings.courtlistener_token:
        parts.append("CourtListener")
    if settings.holdings_enabled() and not settings.offline:
        parts.append(f"holding judge {settings.model_name}")
    return "; ".join(parts)


class _progress:
    """A rich progress bar on stderr when it is a terminal; a no-op otherwise."""

    def __init__(self, enabled: bool, total: int) -> None:
        self.enabled, self.total = enabled, total
        self._bar: Any = None  # rich.progress.Progress, imported only on a terminal

    def __enter__(self) -> Callable[[str, int], None]:
        if not self.enabled:
            return lambda name, done: None
        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

        self._bar = Progress(
            TextColumn("checking {task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            console=Console(stderr=True),
            transient=True,
        )
        self._bar.start()
        task = self._bar.add_task("", total=self.total)
        return lambda name, done: self._bar.update(task, advance=done, description=name)

    def __exit__(self, *exc: object) -> None:
        if self._bar is not None:
            self._bar.stop()
