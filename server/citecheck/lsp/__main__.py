"""``citecheck-lsp``: parse the command line, configure logging to stderr, serve over stdio.

stdout belongs to the protocol in ``--stdio`` mode, so nothing here may print to it.
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import logging
import os
import sys

from citecheck import __version__
from citecheck.privacy import redact


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="citecheck-lsp", description="citecheck language server")
    p.add_argument(
        "--stdio", action="store_true", help="talk LSP on stdin/stdout (the default and only mode)"
    )
    # --tcp was removed: every documented editor starts the server over stdio, and a TCP port lets any
    # local process (or web page) send initializationOptions that redirect the token. See docs/editors.md.
    p.add_argument("--tcp", action="store_true", help=argparse.SUPPRESS)
    p.add_argument("--host", help=argparse.SUPPRESS)
    p.add_argument("--port", help=argparse.SUPPRESS)
    p.add_argument(
        "--log-level",
        default="WARNING",
        type=str.upper,
        choices=["DEBUG", "INFO", "WARNING", "ERROR"],
        help="stderr log level (default WARNING)",
    )
    p.add_argument("--version", action="version", version=f"citecheck-lsp {__version__}")
    return p


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if args.tcp or args.host or args.port:
        sys.stderr.write(
            "citecheck-lsp: --tcp is no longer supported; editors start `citecheck-lsp --stdio` "
            "(see docs/editors.md)\n"
        )
        return 2
    logging.basicConfig(stream=sys.stderr, level=args.log_level, format="%(levelname)s %(name)s: %(message)s")
    redact.register_secrets_from_env(os.environ)
    redact.install()  # InitializeParams and configuration answers carry the token: mask every line
    from citecheck.lsp import log_filters
    from citecheck.lsp.wiring import create_server
    from citecheck.startup import tokenizer_cache

    tokenizer_cache.install()  # the tokenizer from its cache file: no eyecite import before the first answer

    log_filters.install()

    # Extraction runs in a worker thread; a short GIL switch interval lets the protocol thread
    # answer a keystroke between the worker's slices instead of waiting 5 ms per hand-over.
    sys.setswitchinterval(0.0005)

    from citecheck.lsp.features.warmup import start_warming
    from citecheck.lsp.transport import serve_stdio

    server = create_server()
    tune_gc()
    # Before the first message is read: it overlaps whatever the editor does before ``initialize`` (VS
    # Code's extension may wait for the CourtListener token's read) and pygls reading it.
    start_warming(server)
    status = serve_stdio(server)
    # ``exit`` means now: do not wait for a background extraction or a network call to finish
    # (SQLite writes are transactions; an interrupted one is simply not there).
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(Exception):
            stream.flush()
    logging.shutdown()
    os._exit(status)


def tune_gc() -> None:
    """The collector, set once for this process, from its main thread, before serving.

    Everything loaded so far (eyecite's extractors, reporter data, the protocol's converters: most of
    the process's objects) moves to the permanent generation, so no later full collection walks it;
    and a young collection waits for 20,000 new container objects instead of 700, since a keystroke's
    extraction allocates some ten thousand that all survive into its result (none of them in cycles).
    Garbage cycles are still collected, just in larger batches.

    No full collection first: after the imports it found 18 unreachable objects among ~80,000 and
    cost 0.05–0.25 s (load 2–11) between spawning the server and its first answer, which an editor
    opening a brief waits for (issue 40); those few cycles stay frozen for the process's life.
    """
    gc.freeze()
    _, second, third = gc.get_threshold()
    gc.set_threshold(20_000, second, third)


if __name__ == "__main__":
    sys.exit(main())
