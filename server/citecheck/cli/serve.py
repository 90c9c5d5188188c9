"""``citecheck serve``: start the Word add-in's backend; ``--init`` makes its certificate and token.

Everything lives in ``<config dir>/serve/`` (``citecheck serve --init`` prints where). The server binds
the loopback interface only: ``--host`` accepts nothing else.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import platformdirs

from citecheck.config import Settings
from citecheck.errors import ConfigError
from citecheck.serve.request_deadline import DEFAULT_REQUEST_TIMEOUT_S
from citecheck.serve.security import DEFAULT_MAX_BODY, Policy

DEFAULT_PORT = 8765
_LOOPBACK = {"127.0.0.1": "127.0.0.1", "localhost": "127.0.0.1", "::1": "::1"}


def serve_dir() -> Path:
    return Path(platformdirs.user_config_dir("citecheck", appauthor=False)) / "serve"


def add_serve_commands(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "serve",
        help="run the local HTTPS backend of the Word add-in",
        description="Serve the Word add-in's task pane and its API on https://localhost:PORT "
        "(loopback only). Run once with --init to create the certificate.",
    )
    p.add_argument(
        "--init",
        action="store_true",
        help="create the localhost certificate and token, print how to trust the certificate, and exit",
    )
    p.add_argument("--force", action="store_true", help="with --init: replace an existing certificate")
    p.add_argument("--port", type=int, default=DEFAULT_PORT, help=f"port (default {DEFAULT_PORT})")
    p.add_argument("--host", default="127.0.0.1", help="loopback address to bind: 127.0.0.1 (default) or ::1")
    p.add_argument(
        "--root",
        type=Path,
        default=None,
        metavar="DIR",
        help="folder whose .citecheck/ignore.json is shared with the editors (default: current folder)",
    )
    p.add_argument(
        "--cert",
        type=Path,
        default=None,
        metavar="PEM",
        help="use this certificate (e.g. office-addin-dev-certs' localhost.crt) instead of ours",
    )
    p.add_argument("--key", type=Path, default=None, metavar="PEM", help="private key for --cert")
    p.add_argument("--manifest", action="store_true", help="print the add-in manifest for --port and exit")
    p.add_argument(
        "--max-request-bytes",
        type=int,
        default=DEFAULT_MAX_BODY,
        metavar="N",
        help=f"largest request accepted (default {DEFAULT_MAX_BODY:,})",
    )
    p.add_argument(
        "--request-timeout",
        type=float,
        default=DEFAULT_REQUEST_TIMEOUT_S,
        metavar="SECONDS",
        help="a request's headers and body must arrive within this many seconds, or the connection is "
        f"closed (default {DEFAULT_REQUEST_TIMEOUT_S:g})",
    )


def run_serve_command(args: argparse.Namespace, settings: Settings) -> int:
    from citecheck.serve.app import STATIC_DIR, manifest_xml
    from citecheck.serve.certs import CertPaths, create, expires, trust_instructions
    from citecheck.serve.security import load_or_create_token

    if not 0 < args.port < 65536:
        raise ConfigError(f"--port must be between 1 and 65535, not {args.port}")
    host = _LOOPBACK.get(args.host)
    if host is None:
        raise ConfigError(
            f"--host must be a loopback address (127.0.0.1, ::1 or localhost), not {args.host!r}: "
            "the add-in's backend never listens on a network interface"
        )
    if args.manifest:
        sys.stdout.write(manifest_xml(STATIC_DIR, args.port))
        return 0
    paths = CertPaths(serve_dir())
    token_path = paths.directory / "token"
    if args.init:
        if paths.exist() and not args.force:
            sys.stdout.write(
                f"A certificate already exists in {paths.directory} (valid until "
                f"{expires(paths):%Y-%m-%d}); use --init --force to replace it.\n\n"
            )
        else:
            create(paths)
            sys.stdout.write(
                f"Created a localhost certificate in {paths.directory}\n  authority to trust: {paths.ca}\n\n"
            )
        load_or_create_token(token_path)
        sys.stdout.write(trust_instructions(paths))
        return 0
    cert, key = args.cert, args.key
    if (cert is None) != (key is None):
        raise ConfigError("--cert and --key go together")
    if cert is None:
        if not paths.exist():
            raise ConfigError(
                "no certificate yet: run `citecheck serve --init` once (Word loads add-ins only over HTTPS)"
            )
        cert, key = paths.cert, paths.key
    if args.max_request_bytes < 1024:
        raise ConfigError("--max-request-bytes must be at least 1024")
    if not 0 < args.request_timeout <= 3600:
        raise ConfigError(
            f"--request-timeout must be between 0 and 3600 seconds, not {args.request_timeout:g}"
        )
    policy = Policy(port=args.port, token=load_or_create_token(token_path), max_body=args.max_request_bytes)
    root = (args.root or Path.cwd()).resolve()
    return _run(settings, host, policy, cert, key, root, request_timeout_s=args.request_timeout)


def _run(
    settings: Settings,
    host: str,
    policy: Policy,
    cert: Path,
    key: Path,
    root: Path,
    *,
    request_timeout_s: float = DEFAULT_REQUEST_TIMEOUT_S,
) -> int:
    import uvicorn

    from citecheck.cli.app import _describe_sources
    from citecheck.serve.app import ServeConfig, create_app
    from citecheck.serve.request_deadline import deadline_protocol

    port = policy.port
    app = create_app(
        ServeConfig(settings=settings, policy=policy, root=root, sources=_describe_sources(settings))
    )
    config = uvicorn.Config(
        app,
        host=host,
        port=port,
        ssl_certfile=str(cert),
        ssl_keyfile=str(key),
        http=deadline_protocol(request_timeout_s),  # slow clients do not hold connections
        log_level="warning",
        server_header=False,
        access_log=False,
    )
    sys.stderr.write(
        f"citecheck serve: https://localhost:{port}/taskpane.html (manifest: "
        f"https://localhost:{port}/manifest.xml); ignore list under {root}; Ctrl+C stops\n"
    )
    try:
        uvicorn.Server(config).run()
    except OSError as exc:
        raise ConfigError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from exc
    return 0
