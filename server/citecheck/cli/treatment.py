"""``citecheck treatment build|status``: the treatment table (cases overruled or negatively treated).

``build PATH`` reads CourtListener's parentheticals and opinions files from a folder (or one file) and
resolves the cases through the citation index (``--index``, default the index ``corpus sync`` built);
``build`` with no PATH downloads the newest parentheticals and opinions files from the bucket first.
``status`` says what the table and the Congress.gov table hold. Progress on stderr, results on stdout.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from citecheck.config import Settings, overruled_table_path
from citecheck.errors import ConfigError

if TYPE_CHECKING:
    from citecheck.sources.treatment.build import BuildStats

__all__ = ["add_treatment_commands", "run_treatment_command"]


def add_treatment_commands(subparsers: Any) -> None:
    p = subparsers.add_parser(
        "treatment",
        help="build and inspect the treatment table (overruled and negatively treated cases)",
        description="citecheck treatment build [PATH] [--index FILE] [--out FILE]: the treatment table from "
        "CourtListener's parentheticals and opinions files; citecheck treatment status.",
    )
    sub = p.add_subparsers(dest="treatment_command", metavar="ACTION")
    build = sub.add_parser("build", help="build the treatment table from CourtListener bulk files")
    build.add_argument(
        "path", nargs="?", type=Path, metavar="PATH",
        help="a folder with parentheticals-*.csv[.bz2] and/or opinions-*.csv[.bz2] (or one such file); "
        "without it, the newest files are downloaded from the bucket (bulk_url; the opinions file is ~50 GB)",
    )  # fmt: skip
    build.add_argument("--out", type=Path, metavar="FILE", help="table to write (default: treatment_path)")
    build.add_argument(
        "--workers", type=int, metavar="N",
        help="scanning processes (default: cores - 1); with --ray, Ray workers (default: every CPU of Ray)",
    )  # fmt: skip
    build.add_argument(
        "--ray", action="store_true",
        help="scan on a local Ray instance of --workers CPUs (the [scale] extra; docs/scale.md)",
    )  # fmt: skip
    build.add_argument(
        "--ray-address", metavar="ADDR", help="scan on the Ray cluster at ADDR (docs/scale.md); implies --ray"
    )
    build.add_argument("--json", action="store_true", help="print the build's figures as JSON")
    build.add_argument(
        "--confirm", action="store_true",
        help="ask the model endpoint (model_url, model_name) about the sentences read from their shape only",
    )  # fmt: skip
    build.add_argument(
        "--keep-downloads", action="store_true", help="keep the files downloaded from the bucket"
    )
    status = sub.add_parser("status", help="what the treatment data on this machine holds")
    status.add_argument("--json", action="store_true", help="as JSON")
    for q in (build, status):
        q.add_argument(
            "--index", default=argparse.SUPPRESS, metavar="FILE", help="citation index to resolve cases"
        )
        q.add_argument(
            "--treatment", type=Path, default=None, metavar="FILE", help="treatment table (alias of --out)"
        )


def _table_path(args: argparse.Namespace, settings: Settings) -> Path:
    chosen = getattr(args, "out", None) or getattr(args, "treatment", None) or settings.treatment_path
    return Path(chosen).expanduser()


def _echo(line: str) -> None:
    sys.stderr.write(f"citecheck: {line}\n")
    sys.stderr.flush()


def run_treatment_command(args: argparse.Namespace, settings: Settings, *, out: TextIO | None = None) -> int:
    out = out or sys.stdout
    action = getattr(args, "treatment_command", None)
    if action is None:
        raise ConfigError("treatment needs an action: build or status (see citecheck treatment --help)")
    if action == "status":
        return _status(args, settings, out)
    return _build(args, settings, out)


def _options(args: argparse.Namespace, settings: Settings) -> bool:
    """The build's options checked before anything is read or downloaded; whether the scan runs on Ray."""
    ray = bool(args.ray or args.ray_address is not None)
    if args.workers is not None and args.workers < (1 if ray else 0):
        raise ConfigError("--workers must be 1 or more with --ray" if ray else "--workers must be 0 or more")
    if ray:
        import importlib.util

        if importlib.util.find_spec("ray") is None:
            raise ConfigError('treatment build --ray needs Ray: pip install "citecheck-legal[scale]"')
    if args.confirm and not (settings.model_url and settings.model_name):
        raise ConfigError(
            "--confirm needs the model endpoint: set model_url and model_name (docs/model-endpoint.md)"
        )
    return ray


def _build(args: argparse.Namespace, settings: Settings, out: TextIO) -> int:
    from citecheck.sources.download import remove_download
    from citecheck.sources.treatment.build import build_treatment

    table = _table_path(args, settings)
    index = Path(getattr(args, "index", None) or settings.index_path).expanduser()
    ray = _options(args, settings)
    downloaded: dict[str, Path] = {}
    path = args.path
    if path is None:
        if settings.offline:
            raise ConfigError(
                "treatment build downloads CourtListener's bulk files; with --offline give PATH"
            )
        from citecheck.sources.treatment.bucket import fetch_treatment_files

        folder = table.with_name("bulk")
        _echo(f"listing {settings.bulk_url} for the newest parentheticals and opinions files")
        _date, downloaded = asyncio.run(fetch_treatment_files(settings.bulk_url, folder))
        path = folder
    confirm_with = settings if args.confirm else None
    if ray:
        from citecheck.batch.treatment import build_on_ray

        stats = build_on_ray(path, index_path=index, out=table, address=args.ray_address, workers=args.workers,
                             stage=_echo, confirm_with=confirm_with)  # fmt: skip
    else:
        stats = build_treatment(path, index_path=index, out=table, workers=args.workers, stage=_echo,
                                confirm_with=confirm_with)  # fmt: skip
    if downloaded and not args.keep_downloads:
        for p in downloaded.values():
            remove_download(p)
    if args.json:
        out.write(json.dumps({"table": str(table), **stats.as_dict()}, indent=2) + "\n")
    else:
        _write_figures(stats, table, out)
    return 0


def _write_figures(stats: BuildStats, table: Path, out: TextIO) -> None:
    from citecheck.sources.download import format_bytes

    out.write(f"treatment table {table}: {stats.treatments:,} treatments ({format_bytes(stats.size)})\n")
    out.write(
        f"  read {stats.scan.opinions:,} opinions ({stats.scan.with_cue:,} with a cue word) and "
        f"{stats.scan.parentheticals:,} parentheticals: {stats.scan.statements:,} statements, {stats.kept:,} kept\n"
    )
    refused = stats.refused + stats.scan.refused
    for why, n in refused.most_common():
        out.write(f"  refused {n:,}: {why}\n")
    if stats.confirmed:
        c = stats.confirmed
        out.write(f"  the model was asked about {c.get('asked', 0)} sentences: {c.get('confirmed', 0)} confirmed, "
                  f"{c.get('rejected', 0)} rejected, {c.get('unanswered', 0)} unanswered (kept)\n")  # fmt: skip
    out.write(f"  {stats.seconds:.1f} s ({stats.cpu_seconds:.1f} s of CPU)\n")


def _status(args: argparse.Namespace, settings: Settings, out: TextIO) -> int:
    from citecheck.errors import CorpusError
    from citecheck.sources.treatment.congress import load_table
    from citecheck.sources.treatment.store import TreatmentTable

    congress = load_table(overruled_table_path())
    info: dict[str, Any] = {"congress_table": {"source": congress.description, "overruled": congress.pairs}}
    path = _table_path(args, settings)
    if path.exists():
        try:
            t = TreatmentTable(path)
            info["treatment_table"] = {"path": str(path), "meta": t.meta, "counts": t.counts()}
            t.close()
        except CorpusError as exc:
            info["treatment_table"] = {"path": str(path), "error": str(exc)}
    else:
        info["treatment_table"] = {"path": str(path), "missing": True}
    if args.json:
        out.write(json.dumps(info, indent=2) + "\n")
        return 0
    out.write(f"{congress.description}: {congress.pairs} overruled decisions\n")
    tt = info["treatment_table"]
    if tt.get("missing"):
        out.write(f"no treatment table at {path}: build one with `citecheck treatment build PATH`\n")
    elif "error" in tt:
        out.write(f"treatment table {path}: {tt['error']}\n")
    else:
        counts = tt["counts"]
        out.write(f"treatment table {path}: {counts['treatments']:,} treatments of {counts['cases']:,} cases, "
                  f"built {tt['meta'].get('built', '?')} from {tt['meta'].get('files', '?')}\n")  # fmt: skip
    return 0
