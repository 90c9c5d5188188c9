"""``citecheck corpus sync --statutes`` and the statute lines of ``citecheck corpus status``.

cli/corpus.py wires these in. Downloads and builds go through ``sources/statutes`` (sync.py,
build.py); progress goes to stderr, results to stdout; errors are CitecheckErrors (one line).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from pathlib import Path
from typing import Any, TextIO

from citecheck.config import Settings
from citecheck.errors import ConfigError
from citecheck.sources.locks import SyncLock

__all__ = ["add_statute_arguments", "run_statute_sync", "statute_status"]


def add_statute_arguments(p: argparse.ArgumentParser) -> None:
    g = p.add_argument_group("statutes and regulations (--statutes)")
    g.add_argument(
        "--statutes",
        action="store_true",
        help="build the statute index: U.S. Code (OLRC release point) and C.F.R. (eCFR versioner)",
    )
    g.add_argument("--usc-only", action="store_true", help="only the U.S. Code")
    g.add_argument("--cfr-only", action="store_true", help="only the C.F.R.")
    g.add_argument("--release", metavar="RP", help="U.S. Code release point (e.g. 118-200; default: current)")
    g.add_argument(
        "--cfr-date",
        metavar="YYYY-MM-DD",
        help="C.F.R. edition: the one in force on this date (e.g. a brief's date; default: latest)",
    )
    g.add_argument(
        "--cfr-title", action="append", default=None, metavar="N", help="only this C.F.R. title (repeatable)"
    )
    g.add_argument(
        "--from",
        dest="from_folder",
        type=Path,
        default=None,
        metavar="FOLDER",
        help="build from files already here, no network: CourtListener dump files for the citation index; "
        "with --statutes, release files (xml_uscAll@….zip or usc*.xml; title-N.xml)",
    )
    g.add_argument("--statutes-path", type=Path, default=None, metavar="FILE", help="statute index file")


def _index_path(args: argparse.Namespace, settings: Settings) -> Path:
    return Path(getattr(args, "statutes_path", None) or settings.statutes_path).expanduser()


def downloads_folder(path: Path) -> Path:
    """Where a sync of the statute index ``path`` downloads: ``<stem>-downloads/`` beside it, one per index."""
    return path.with_name(f"{path.stem}-downloads")


def _writable_index(path: Path) -> Path:
    """``path`` when a statute index may be written there (nothing yet, or a statute index), nothing beside
    it is a link, a folder or a device, and its downloads folder is a folder (``sources/targets.py``)."""
    from citecheck.sources.locks import lock_path
    from citecheck.sources.targets import check_folder, check_side_files, check_target

    flag = "--statutes-path"
    path = check_target(path, flag=flag, kind="statute index", command="corpus sync --statutes")
    beside = [path.with_name(path.name + s) for s in ("-journal", "-wal", "-shm")]
    check_side_files([lock_path(path), *beside], flag=flag)
    check_folder(downloads_folder(path), flag=flag)
    return path


def _echo(line: str) -> None:
    sys.stderr.write(f"citecheck: {line}\n")
    sys.stderr.flush()


def run_statute_sync(args: argparse.Namespace, settings: Settings, out: TextIO) -> int:
    from citecheck.cli.corpus import RichProgress
    from citecheck.sources.statutes.index import StatuteIndex

    if args.usc_only and args.cfr_only:
        raise ConfigError("--usc-only and --cfr-only exclude each other")
    if args.from_folder is None and settings.offline:
        raise ConfigError(
            "corpus sync --statutes downloads from the network; with --offline use --from FOLDER"
        )
    path = _writable_index(_index_path(args, settings))
    with SyncLock(path, doing="syncing"):  # one sync per statute index: two raced on the same .part
        index = StatuteIndex(path)
        try:
            with RichProgress() as progress:
                if args.from_folder is not None:
                    stats = _from_folder(index, args, progress)
                else:
                    stats = asyncio.run(_download(index, args, settings, progress, path))
        finally:
            index.close()
    out.write(f"stored {stats.summary()}\n")
    for what, edition in sorted(stats.editions.items()):
        out.write(f"  {what}: {edition}\n")
    for line in stats.uncovered:
        out.write(f"  not checked: {line}\n")
    for line in stats.refused:
        _echo(f"refused {line}")
    out.write(f"statute index: {path}\n")
    if stats.refused:  # not as if all were well: a title was not stored (docs/sources.md, "Faults")
        _echo(
            f"{len(stats.refused)} file(s) refused; the titles above were stored, the refused ones were not"
        )
        return 1
    return 0


def _from_folder(index: Any, args: argparse.Namespace, progress: Any) -> Any:
    from citecheck.sources.statutes.build import build_index

    folder: Path = args.from_folder
    if not folder.is_dir():
        raise ConfigError(f"--from {folder}: not a folder")
    usc = None
    if not args.cfr_only:
        zips = sorted(folder.glob("xml_uscAll@*.zip"))
        usc = zips[-1] if zips else (folder if any(folder.glob("usc*.xml")) else None)
    ecfr = None
    if not args.usc_only:
        for candidate in (folder / "ecfr", folder):
            if candidate.is_dir() and (
                any(candidate.glob("title-*.xml")) or any(candidate.glob("ECFR-title*.xml"))
            ):
                ecfr = candidate
                break
    if usc is None and ecfr is None:
        raise ConfigError(f"--from {folder}: no xml_uscAll@….zip, usc*.xml or title-N.xml files")
    return build_index(index, usc=usc, ecfr=ecfr, progress=progress, on_title=lambda t: None)


async def _download(
    index: Any, args: argparse.Namespace, settings: Settings, progress: Any, path: Path
) -> Any:
    import httpx

    from citecheck.sources.download import DownloadProgress, format_bytes
    from citecheck.sources.statutes.sync import SyncRequest, sync_statutes

    request = SyncRequest(
        uscode_url=settings.uscode_url,
        ecfr_url=settings.ecfr_url,
        work=downloads_folder(path),
        usc=not args.cfr_only,
        cfr=not args.usc_only,
        release=args.release,
        cfr_date=args.cfr_date,
        cfr_titles=frozenset(
            str(int(t)) for t in args.cfr_title if t.isascii() and t.isdigit() and len(t) <= 3
        )
        if args.cfr_title
        else None,
    )
    last: dict[str, float] = {}

    def on_bytes(p: DownloadProgress) -> None:
        if p.done - last.get(p.name, 0) < 16 << 20 and not (p.total and p.done >= p.total):
            return
        last[p.name] = p.done
        total = f" of {format_bytes(p.total)}" if p.total else ""
        eta = f", {p.eta_s:.0f} s left" if p.eta_s is not None else ""
        _echo(f"{p.name}: {format_bytes(p.done)}{total} ({format_bytes(p.rate)}/s{eta})")

    timeout = httpx.Timeout(settings.http_timeout_s, connect=min(3.0, settings.http_timeout_s))
    async with httpx.AsyncClient(
        timeout=timeout, follow_redirects=False, headers={"User-Agent": "citecheck"}
    ) as client:
        return await sync_statutes(
            index, request, client=client, echo=_echo, on_bytes=on_bytes, progress=progress
        )


def statute_status(
    settings: Settings, out: TextIO, *, as_json: bool = False, path: Path | None = None
) -> int:
    """What the statute index holds: titles per code, editions, sections, size (or that there is none)."""
    from citecheck.sources.statutes.index import StatuteIndex

    path = (path or settings.statutes_path).expanduser()
    if not path.exists():
        if as_json:
            out.write(json.dumps({"path": str(path), "exists": False}) + "\n")
        else:
            out.write(
                f"statute index: none at {path}\n  U.S.C. and C.F.R. citations: titles checked, sections not "
                "checked (run: citecheck corpus sync --statutes)\n"
            )
        return 0
    with StatuteIndex(path, readonly=True) as index:
        titles = index.titles()
        stats = index.stats()
    if as_json:
        data = dict(stats)
        data["exists"] = True
        data["title_list"] = [
            {
                "code": t.code,
                "title": t.title,
                "edition": t.edition,
                "sections": t.sections,
                "synced_at": t.synced_at,
                "covered": t.covered,
                "note": t.note,
            }
            for t in titles
        ]
        out.write(json.dumps(data, indent=2) + "\n")
        return 0
    out.write(f"statute index: {path} ({int(str(stats['bytes'])) / 1e6:.1f} MB)\n")
    for code, label in (("usc", "U.S. Code"), ("cfr", "C.F.R.")):
        mine = [t for t in titles if t.code == code]
        if not mine:
            out.write(f"  {label}: not synced (its sections are not checked)\n")
            continue
        held = [t for t in mine if t.covered]
        editions = sorted({t.edition for t in held})
        shown = ", ".join(t.title for t in held)
        out.write(
            f"  {label}: {len(held)} titles, {sum(t.sections for t in held):,} sections; edition "
            f"{', '.join(editions[:3])}{' …' if len(editions) > 3 else ''}; synced {max(t.synced_at for t in mine)}\n"
            f"    titles: {shown}\n"
        )
        for t in mine:
            if not t.covered:
                out.write(f"    not checked: {t.label} ({t.note[:120]})\n")
    return 0
