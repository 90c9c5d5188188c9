"""``citecheck corpus sync``: fetch the newest CourtListener dump the index needs, then build or update it.

1. **List** the bucket (S3 ``ListObjectsV2`` under ``bulk-data/``, page by page) and pick the newest
   date for which all four files the index reads exist: courts, dockets, opinion-clusters, citations
   (a dump still being uploaded is skipped). Only the listing and those files are requested; nothing
   about any brief, and no token, goes to the bucket.
2. **Stop early** when the index was built from that dump already.
3. **Check the disk** for what is left to download plus the build, and say how much is needed.
4. **Download** each file with ``sources/download.py`` (streamed to disk, resumed after an
   interruption with HTTP Range, checked against the listing's size and ETag).
5. **Build** beside the old index and swap (``build.py``): an update when the old index is an older
   full dump. The downloads are deleted after a successful build unless asked to keep them.
6. **Pass over a broken dump.** The export runs without ``pipefail``, so a failed table is published
   empty or cut short: an empty file is passed over from the listing; one found broken once downloaded
   (the bucket's own bytes, cut short or a damaged stream) is passed over then, and the sync goes on with
   the dump before it — unless the index already holds a newer one (then the error; the index is unchanged).

A second sync of the same index while one runs is refused with the holder's pid (``build.BuildLock``).
File names come from the listing, which is untrusted: only ``bulk-data/<kind>-YYYY-MM-DD.csv.bz2``
names of the four kinds are used, and they pass ``safe_names`` before they become paths.
"""

from __future__ import annotations

import ipaddress
import re
import xml.etree.ElementTree as ET
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote, urlsplit

import httpx

from citecheck.errors import BadResponse, ConfigError, ImportFormatError, SourceUnavailable
from citecheck.sources.download import (
    DownloadProgress,
    RemoteFile,
    check_free_space,
    download,
    fetch_bounded,
    files_of,
    is_complete,
    remove_download,
    verified,
)
from citecheck.sources.importing import NullProgress, ProgressSink
from citecheck.sources.index import files
from citecheck.sources.index.build import (
    BuildLock,
    BuildStats,
    DumpFiles,
    build_index,
    estimate_index_bytes,
    read_meta,
)
from citecheck.sources.index.rows import DamagedFile
from citecheck.sources.index.schema import layout_outdated
from citecheck.sources.safe_names import inside, safe_component
from citecheck.sources.targets import check_folder, check_side_files

PREFIX = "bulk-data/"
KINDS = ("courts", "dockets", "opinion-clusters", "citations")
#: ``\Z``, not ``$``: ``$`` lets a key end in a newline, which then becomes part of a URL and a file name
_KEY = re.compile(r"^bulk-data/((courts|dockets|opinion-clusters|citations)-(\d{4}-\d{2}-\d{2})\.csv\.bz2)\Z")
_S3 = "{http://s3.amazonaws.com/doc/2006-03-01/}"
#: One listing page may not be larger than this (S3 pages of 1,000 keys are ~300 KB).
MAX_LISTING_BYTES = 16 << 20
MAX_PAGES = 200


@dataclass(frozen=True, slots=True, kw_only=True)
class DumpListing:
    """The newest complete dump in the bucket: its date and one ``RemoteFile`` per kind."""

    date: str
    files: dict[str, RemoteFile]
    names: dict[str, str]  # kind → file name
    #: what was taken from an older dump instead, and why (an empty file of the newest)
    notes: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True, kw_only=True)
class SyncResult:
    date: str
    build: BuildStats
    downloaded: int  # bytes fetched by this run
    resumed: int  # bytes that were already there from an interrupted run
    notes: tuple[str, ...] = ()  # files taken from an older dump (``DumpListing.notes``)


def bulk_folder(index: Path) -> Path:
    """Where a sync of ``index`` downloads: ``<index stem>-bulk/`` beside it, one folder per index (two
    indexes in one folder shared ``bulk/`` and their syncs deleted each other's ``.part``)."""
    return index.with_name(f"{index.stem}-bulk")


def check_bulk_url(url: str) -> str:
    """The bucket URL, if it is https (or http to this machine); ConfigError otherwise."""
    parts = urlsplit(url)
    host = (parts.hostname or "").lower()
    if parts.scheme == "https" and host:
        return url if url.endswith("/") else url + "/"
    loopback = host == "localhost"
    try:
        loopback = loopback or ipaddress.ip_address(host).is_loopback
    except ValueError:
        pass
    if parts.scheme == "http" and loopback:
        return url if url.endswith("/") else url + "/"
    raise ConfigError(f"bulk_url must be an https URL (http only to this machine), not {url!r}")


def parse_listing(body: bytes) -> tuple[list[tuple[str, int | None, str | None]], str | None]:
    """(key, size, ETag) of every object of one ListObjectsV2 page, and the next page's token."""
    try:
        root = ET.fromstring(body)
    except ET.ParseError as exc:
        raise BadResponse(f"the bucket listing is not XML ({exc})") from exc
    ns = _S3 if root.tag.startswith(_S3) else ""
    out = []
    for item in root.iter(f"{ns}Contents"):
        key = item.findtext(f"{ns}Key") or ""
        size_text = item.findtext(f"{ns}Size") or ""
        etag = item.findtext(f"{ns}ETag")
        out.append((key, int(size_text) if size_text.isdigit() else None, etag.strip() if etag else None))
    truncated = (root.findtext(f"{ns}IsTruncated") or "").strip().lower() == "true"
    token = root.findtext(f"{ns}NextContinuationToken") if truncated else None
    return out, token or None


#: A listed file this small holds nothing (an empty bz2 stream is 14 bytes): the export failed for it.
EMPTY_FILE_BYTES = 64


def newest_dump(
    objects: list[tuple[str, int | None, str | None]], base_url: str, damaged: frozenset[str] = frozenset()
) -> DumpListing:
    """The newest date with all four files; BadResponse when the listing has none.

    An empty file was published once (the courts file, #2863; the export runs without ``pipefail``, so a
    failed table is published empty or cut short): an empty courts file is replaced by the newest earlier
    one (courts change little), and a dump whose cases, dockets or citations file is empty is passed over
    for the one before it. ``damaged`` names files found broken once downloaded (cut short, a damaged
    stream: ``rows.DamagedFile``), passed over the same way."""
    by_date: dict[str, dict[str, tuple[str, int | None, str | None]]] = {}
    for key, size, etag in objects:
        m = _KEY.match(key)
        if m:
            by_date.setdefault(m.group(3), {})[m.group(2)] = (m.group(1), size, etag)

    def failed(entry: tuple[str, int | None, str | None]) -> str:
        """Why the file is no use ("": it may be)."""
        if entry[0] in damaged:
            return "damaged (cut short)"
        return "empty" if entry[1] is not None and entry[1] <= EMPTY_FILE_BYTES else ""

    notes: list[str] = []
    for date in sorted(by_date, reverse=True):
        kinds = dict(by_date[date])
        if not all(k in kinds for k in KINDS):
            continue
        hollow = [f"{k} file is {failed(kinds[k])}" for k in KINDS if k != "courts" and failed(kinds[k])]
        if hollow:
            notes.append(f"the {date} dump's {', '.join(hollow)}: used an older dump")
            continue
        if failed(kinds["courts"]):
            why = failed(kinds["courts"])
            older = next(
                (by_date[d]["courts"] for d in sorted(by_date, reverse=True)
                 if d < date and "courts" in by_date[d] and not failed(by_date[d]["courts"])),
                None,
            )  # fmt: skip
            if older is None:
                notes.append(f"the {date} dump's courts file is {why} and no older one is listed")
                continue
            notes.append(f"the {date} dump's courts file is {why} (as in #2863): used {older[0]}")
            kinds["courts"] = older
        return DumpListing(
            date=date,
            files={
                k: RemoteFile(
                    url=f"{base_url}{PREFIX}{quote(kinds[k][0])}", size=kinds[k][1], etag=kinds[k][2]
                )
                for k in KINDS
            },
            names={k: kinds[k][0] for k in KINDS},
            notes=tuple(notes),
        )
    raise BadResponse(
        "the bucket lists no complete dump (courts, dockets, opinion-clusters and citations of one date) "
        f"under {PREFIX}" + (f" ({'; '.join(notes)})" if notes else "")
    )


async def list_bucket(client: httpx.AsyncClient, base_url: str) -> DumpListing:
    return newest_dump(await list_objects(client, base_url), base_url)


async def list_objects(client: httpx.AsyncClient, base_url: str) -> list[tuple[str, int | None, str | None]]:
    """(key, size, ETag) of every object under ``bulk-data/``, read page by page."""
    objects: list[tuple[str, int | None, str | None]] = []
    token: str | None = None
    for _ in range(MAX_PAGES):
        params = {"list-type": "2", "prefix": PREFIX}
        if token:
            params["continuation-token"] = token
        try:
            status, body, _headers = await fetch_bounded(
                client, base_url, params=params, limit=MAX_LISTING_BYTES, what="the bucket listing"
            )
        except SourceUnavailable as exc:
            raise SourceUnavailable(f"cannot reach {base_url} ({exc.__cause__.__class__.__name__}); "
                                    "check the network") from exc  # fmt: skip
        if status != 200:
            raise SourceUnavailable(f"the bucket {base_url} answered {status} to its listing")
        page, token = parse_listing(body)
        objects.extend(page)
        if token is None:
            break
    else:
        raise BadResponse(f"the bucket listing did not end after {MAX_PAGES} pages")
    return objects


def _unreadable(exc: ImportFormatError, paths: dict[str, Path]) -> ImportFormatError:
    """A download that cannot be read: deleted unless its bytes were checked against the listing's ETag.

    An unchecked one (a multipart ETag with an odd part size) may have been damaged on the way: kept, every
    later sync would reuse it and fail the same way without a request. A checked one is the bucket's own
    file, byte for byte: fetching it again would give the same bytes, so it stays until the bucket lists
    another version (a new ETag is downloaded afresh anyway). A checked one that is broken (cut short, a
    damaged stream: the export failed) is ``_PassOver``: the sync tries the dump before it.
    """
    text = str(exc)
    named = [p for p in paths.values() if p.name in text] or list(paths.values())
    dropped = [p for p in named if p.exists() and verified(p) is None]
    for p in dropped:
        remove_download(p)
    if dropped:
        names = ", ".join(p.name for p in dropped)
        return ImportFormatError(
            f"{text}; the download could not be checked against the bucket's listing, so it may have been damaged "
            f"on the way: {names} deleted, run citecheck corpus sync again to fetch it afresh"
        )
    kept = [p for p in named if p.exists()]
    if kept:
        error = ImportFormatError(
            f"{text}; {', '.join(p.name for p in kept)} is the bucket's own file byte for byte (its checksum "
            "matches the listing): the published dump is damaged. The old index is unchanged; a sync after "
            "CourtListener replaces the file fetches the new one (or build from other files: corpus sync --from DIR)"
        )
        return _PassOver(frozenset(p.name for p in kept), error) if isinstance(exc, DamagedFile) else error
    return exc


class _PassOver(ImportFormatError):
    """Files of the dump that are the bucket's own bytes and broken: the dump before it may serve."""

    def __init__(self, names: frozenset[str], error: ImportFormatError) -> None:
        super().__init__(str(error))
        self.names = names
        self.error = error


def _held_already(
    index: Path, old: dict[str, str], listing: DumpListing, progress: ProgressSink | None
) -> SyncResult | None:
    """The answer when the index (its ``meta``: ``old``) already holds the newest full dump and its layout is
    current; None to build (an outdated layout is said now: the downloads may take a while)."""
    outdated = layout_outdated(old)
    if outdated is not None:
        (progress or NullProgress()).stage(
            f"the citation index {index} {outdated}: building it again from the {listing.date} dump", None
        )
        return None
    if old.get("dump_date") != listing.date or old.get("full_dump") != "1":
        return None
    return SyncResult(date=listing.date, build=BuildStats(mode="unchanged", dump_date=listing.date,
                      full_dump=True, size=files.current(index).stat().st_size), downloaded=0,
                      resumed=0, notes=listing.notes)  # fmt: skip


def _check_room(index: Path, folder: Path, listing: DumpListing, paths: dict[str, Path]) -> None:
    """Raises DiskSpaceError unless the downloads left, the new index and the old one fit."""
    left = sum(
        (f.size or 0) - (0 if not is_complete(paths[k], f) else (f.size or 0))
        for k, f in listing.files.items()
    )
    sizes = {k: f.size or 0 for k, f in listing.files.items()}
    check_free_space(
        folder,
        left + estimate_index_bytes(sizes) + (index.stat().st_size if index.exists() else 0),
        f"syncing the {listing.date} dump",
    )


@dataclass(frozen=True, slots=True, kw_only=True)
class _Job:
    """One sync's settings, for its steps."""

    index: Path
    folder: Path
    client: httpx.AsyncClient
    progress: ProgressSink | None
    on_download: Callable[[DownloadProgress], None] | None
    keep_downloads: bool
    rebuild: bool
    parallel: bool | None

    async def run(self, listing: DumpListing, base: str) -> SyncResult:
        """Download ``listing``'s files and build the index from them (see the module docstring)."""
        index = self.index
        old = read_meta(files.current(index))  # a finished build waiting at .next is promoted first
        if not self.rebuild and (held := _held_already(index, old, listing, self.progress)) is not None:
            return held
        paths = {k: inside(self.folder, safe_component(listing.names[k], "bulk file name")) for k in KINDS}
        check_side_files((f for path in paths.values() for f in files_of(path)), flag="--index")
        _check_room(index, self.folder, listing, paths)
        fetched = resumed = 0
        for kind in KINDS:
            result = await download(
                listing.files[kind], paths[kind], client=self.client, progress=self.on_download
            )
            fetched += result.fetched
            resumed += result.resumed_from
        dump = DumpFiles(
            courts=paths["courts"],
            dockets=paths["dockets"],
            clusters=paths["opinion-clusters"],
            citations=paths["citations"],
            date=listing.date,
        )
        source = {"bucket": base, "etags": {k: f.etag for k, f in listing.files.items()}}
        try:
            stats = build_index(index, dump, full_dump=True, progress=self.progress or NullProgress(),
                                parallel=self.parallel, rebuild=self.rebuild, source=source, lock=False,
                                announce=False)  # fmt: skip
        except ImportFormatError as exc:
            raise _unreadable(exc, paths) from exc
        if not self.keep_downloads:
            for path in paths.values():
                remove_download(path)
        return SyncResult(date=listing.date, build=stats, downloaded=fetched, resumed=resumed,
                          notes=listing.notes)  # fmt: skip


def _before(
    passed: _PassOver,
    objects: list[tuple[str, int | None, str | None]],
    base: str,
    damaged: frozenset[str],
    index: Path,
) -> frozenset[str]:
    """The damaged files to pass over next, when a dump before the broken one can still serve: one no older
    than the dump the index holds (the same one leaves the index unchanged, with a note why). Otherwise the
    broken file's error is raised: the old index is unchanged."""
    more = damaged | passed.names
    if more == damaged:
        raise passed.error
    try:
        before = newest_dump(objects, base, more)
    except BadResponse:
        raise passed.error from None
    old = read_meta(files.current(index))
    if old.get("full_dump") == "1" and (old.get("dump_date") or "") > before.date:
        raise passed.error
    return more


async def sync(
    index: Path,
    *,
    bulk_url: str,
    download_dir: Path | None = None,
    client: httpx.AsyncClient | None = None,
    progress: ProgressSink | None = None,
    on_download: Callable[[DownloadProgress], None] | None = None,
    keep_downloads: bool = False,
    rebuild: bool = False,
    parallel: bool | None = None,
    timeout_s: float = 60.0,
) -> SyncResult:
    """Bring ``index`` up to the newest usable dump in the bucket (see the module docstring)."""
    base = check_bulk_url(bulk_url)
    index = files.check_writable(index)
    folder = download_dir or bulk_folder(index)
    check_folder(folder, flag="--index")
    own = client is None
    client = client or httpx.AsyncClient(timeout=httpx.Timeout(timeout_s, connect=10.0), follow_redirects=False,
                                         headers={"User-Agent": "citecheck"})  # fmt: skip
    job = _Job(index=index, folder=folder, client=client, progress=progress, on_download=on_download,
               keep_downloads=keep_downloads, rebuild=rebuild, parallel=parallel)  # fmt: skip
    try:
        with BuildLock(index):
            objects = await list_objects(client, base)
            damaged: frozenset[str] = frozenset()
            while True:
                try:
                    return await job.run(newest_dump(objects, base, damaged), base)
                except _PassOver as passed:
                    damaged = _before(passed, objects, base, damaged, index)
    finally:
        if own:
            await client.aclose()
