"""``citecheck corpus sync --statutes``: download the U.S. Code and the C.F.R. and build the index.

U.S. Code: the OLRC's download page names the current release point; its ``xml_uscAll@<rp>.zip``
(≈100 MB) is fetched with ``sources/download.py`` (streamed to a ``.part``, resumed with HTTP Range
after an interruption, size and ETag checked) and read title by title without unpacking. C.F.R.: the
eCFR versioner's ``titles.json`` gives each title's latest complete date (or ``--cfr-date`` picks
the edition nearest a brief's date); per title its ``versions`` JSON (the history of every section:
``issue_date[lte]`` the edition's date, as the API requires, every page of 1,000 records, each
version's ``amendment_date``) and its ``full/{date}/title-N.xml``, each stored as soon as it arrives
and then deleted. A title the versioner is processing answers 503: it is asked again after its
``Retry-After`` (a few times, each wait bounded); a title that still fails, or whose file is another
title's or unreadable, is skipped with a line saying so, the others are built, and the summary counts
the titles really stored (``BuildStats.refused``: the command then exits 1).

Only the release id and title numbers from those answers enter a URL or a file name, and only after
they match a strict pattern: a hostile page cannot choose a path or a host. Nothing of a brief is
ever sent. A title whose file is in a changed format stops the sync with ``SchemaChanged``; the
titles stored before it stay.
"""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path

import httpx

from citecheck.config import DEFAULT_ECFR_URL, DEFAULT_USCODE_URL
from citecheck.errors import BadResponse, CitecheckError, SchemaChanged, SourceUnavailable
from citecheck.sources.download import (
    DownloadProgress,
    RemoteFile,
    download,
    fetch_bounded,
    reading,
    remove_download,
)
from citecheck.sources.importing import ProgressSink
from citecheck.sources.statutes.build import BuildStats, build_index, store_ecfr_title
from citecheck.sources.statutes.ecfr import TitleInfo, parse_titles
from citecheck.sources.statutes.index import StatuteIndex

__all__ = ["DEFAULT_ECFR_URL", "DEFAULT_USCODE_URL", "SyncRequest", "sync_statutes"]


#: release points are "<congress>-<law>", sometimes qualified: "118-200", "119-102not101"
_RELEASE_LINK = re.compile(
    r"releasepoints/us/pl/(\d{2,3})/(\d{1,4}[a-z0-9]{0,12})/xml_uscAll@(\d{2,3}-\d{1,4}[a-z0-9]{0,12})\.zip"
)
_RELEASE_ID = re.compile(r"(\d{2,3})-(\d{1,4}[a-z0-9]{0,12})")
_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")
#: a title the versioner is processing answers 503 with ``Retry-After``: how many times it is asked again
RETRIES_503 = 3
#: the versioner pages ``versions/title-N.json`` at 1,000 records; a title's versions in more pages than
#: this are refused (title 40, the largest, has about 40)
MAX_VERSION_PAGES = 400
#: The most each answer may be (unpacked), read as it arrives (issue 35: they were read whole first, 3 GB in
#: 8 s): the real ones are ~50 KB (the download page), ~15 KB (titles.json), ~300 KB (a page of 1,000
#: versions); all the pages of one title's versions together may not pass ``MAX_VERSIONS_BYTES``.
MAX_PAGE_BYTES = 4 << 20
MAX_TITLES_BYTES = 4 << 20
MAX_VERSIONS_PAGE_BYTES = 8 << 20
MAX_VERSIONS_BYTES = 64 << 20


@dataclass(frozen=True, slots=True, kw_only=True)
class SyncRequest:
    uscode_url: str = DEFAULT_USCODE_URL
    ecfr_url: str = DEFAULT_ECFR_URL
    work: Path  # where downloads go (kept between tries so they resume)
    usc: bool = True
    cfr: bool = True
    release: str | None = None  # "118-200"; None = the current one
    cfr_date: str | None = None  # ISO date of the C.F.R. edition; None = each title's latest
    cfr_titles: frozenset[str] | None = None  # None = all
    retry_wait_s: float = 120.0  # the longest Retry-After honoured (a 503 while a title is processed)


Echo = Callable[[str], None]


def _base(url: str) -> str:
    return url if url.endswith("/") else url + "/"


async def _get(
    client: httpx.AsyncClient,
    url: str,
    what: str,
    *,
    params: Mapping[str, str] | None = None,
    retry_wait_s: float = 0.0,
    limit: int = MAX_PAGE_BYTES,
) -> bytes:
    """One answer, read as it arrives and refused past ``limit`` bytes; a 503 (the versioner processing a
    title) is asked again after its ``Retry-After`` (at most ``retry_wait_s`` each time, ``RETRIES_503``
    times) when ``retry_wait_s`` allows waiting."""
    for attempt in range(RETRIES_503 + 1):
        status, body, headers = await fetch_bounded(client, url, params=params, limit=limit, what=what)
        if status == 503 and retry_wait_s > 0 and attempt < RETRIES_503:
            await asyncio.sleep(_retry_after(headers, retry_wait_s))
            continue
        if status == 503:
            raise SourceUnavailable(
                f"{what}: {url} answered 503 (the title is being processed; sync again later)"
            )
        if status != 200:
            raise BadResponse(f"{what}: {url} answered {status}")
        return body
    raise SourceUnavailable(f"{what}: {url} answered 503")  # not reached


def _retry_after(headers: httpx.Headers, cap: float) -> float:
    value = headers.get("Retry-After", "")
    seconds = float(value) if re.fullmatch(r"\d{1,6}(?:\.\d+)?", value.strip()) else cap / 4
    return max(0.0, min(seconds, cap))


async def _versions(client: httpx.AsyncClient, base: str, number: str, date: str, wait: float) -> bytes:
    """Every page of ``versions/title-N.json`` issued up to ``date``, as one document."""
    rows: list[object] = []
    url, what = f"{base}versions/title-{number}.json", f"C.F.R. title {number} versions"
    read = 0
    for page in range(1, MAX_VERSION_PAGES + 1):
        body = await _get(
            client, url, what, params={"issue_date[lte]": date, "page": str(page)}, retry_wait_s=wait,
            limit=MAX_VERSIONS_PAGE_BYTES,
        )  # fmt: skip
        read += len(body)
        if read > MAX_VERSIONS_BYTES:
            raise BadResponse(
                f"{what}: more than {MAX_VERSIONS_BYTES >> 20} MB of versions; not the eCFR's answer"
            )
        try:
            doc = json.loads(body)
            got = doc["content_versions"]
            meta = doc.get("meta") or {}
            total = int(str(meta.get("total_pages") or 1))
        except (ValueError, KeyError, TypeError, AttributeError, RecursionError) as exc:
            raise SchemaChanged(
                f"{what}: not the eCFR versions list ({exc.__class__.__name__}: {exc})"
            ) from exc
        if not isinstance(got, list):
            raise SchemaChanged(f"{what}: not the eCFR versions list (content_versions is no list)")
        rows.extend(got)
        if page >= total:
            break
    else:
        raise SchemaChanged(f"{what}: more than {MAX_VERSION_PAGES} pages of versions")
    return json.dumps(
        {"content_versions": rows, "meta": {"title": number, "issue_date": {"lte": date}}}
    ).encode()


async def _remote(client: httpx.AsyncClient, url: str) -> RemoteFile:
    """Size and ETag from a HEAD (so the download can check and resume); bare URL if HEAD fails."""
    try:
        response = await client.head(url)
    except httpx.HTTPError:
        return RemoteFile(url=url)
    if response.status_code != 200:
        raise BadResponse(f"{url} answered {response.status_code}")
    size = response.headers.get("Content-Length")
    return RemoteFile(
        url=url, size=int(size) if size and size.isdigit() else None, etag=response.headers.get("ETag")
    )


async def current_release(client: httpx.AsyncClient, uscode_url: str) -> str:
    """The release point the OLRC's download page offers (``"118-200"``)."""
    page = (await _get(client, _base(uscode_url) + "download.shtml", "the U.S. Code download page")).decode(
        "utf-8", "replace"
    )
    m = _RELEASE_LINK.search(page)
    if m is None:
        raise SchemaChanged(
            f"{_base(uscode_url)}download.shtml links no xml_uscAll@….zip: the U.S. Code download page has "
            "changed; give the release point with --release (e.g. 118-200)"
        )
    return m.group(3)


async def sync_statutes(
    index: StatuteIndex,
    request: SyncRequest,
    *,
    client: httpx.AsyncClient,
    echo: Echo = lambda _line: None,
    on_bytes: Callable[[DownloadProgress], None] | None = None,
    progress: ProgressSink | None = None,
) -> BuildStats:
    """Download what ``request`` asks for and store it; returns what was stored."""
    stats = BuildStats()
    request.work.mkdir(parents=True, exist_ok=True)
    if request.usc:
        await _sync_usc(index, request, client, echo, on_bytes, progress, stats)
    if request.cfr:
        await _sync_cfr(index, request, client, echo, on_bytes, progress, stats)
    return stats


async def _sync_usc(
    index: StatuteIndex,
    request: SyncRequest,
    client: httpx.AsyncClient,
    echo: Echo,
    on_bytes: Callable[[DownloadProgress], None] | None,
    progress: ProgressSink | None,
    stats: BuildStats,
) -> None:
    release = request.release or await current_release(client, request.uscode_url)
    m = _RELEASE_ID.fullmatch(release)
    if m is None:
        raise SchemaChanged(f"{release!r} is not a U.S. Code release point (like 118-200)")
    stored = {t.edition for t in index.titles("usc")}
    if stored == {release}:
        echo(f"U.S. Code: release point {release} is already in the index")
        stats.editions["usc"] = release
        return
    url = f"{_base(request.uscode_url)}releasepoints/us/pl/{m.group(1)}/{m.group(2)}/xml_uscAll@{release}.zip"
    dest = request.work / f"xml_uscAll@{release}.zip"
    echo(f"U.S. Code: downloading release point {release} ({url})")
    result = await download(await _remote(client, url), dest, client=client, progress=on_bytes)
    if result.resumed_from:
        echo(f"U.S. Code: resumed the download at {result.resumed_from:,} bytes")
    with reading(dest):  # an unchecked zip that fails to read is fetched afresh next time
        built = build_index(index, usc=dest, progress=progress, source_usc=url)
    stats.usc_titles += built.usc_titles
    stats.sections += built.sections
    stats.uncovered += built.uncovered
    stats.refused += built.refused  # a title file with no sections: not stored, and the sync says so
    stats.editions["usc"] = built.editions.get("usc", release)
    remove_download(dest)


async def _sync_cfr(
    index: StatuteIndex,
    request: SyncRequest,
    client: httpx.AsyncClient,
    echo: Echo,
    on_bytes: Callable[[DownloadProgress], None] | None,
    progress: ProgressSink | None,
    stats: BuildStats,
) -> None:
    base = _base(request.ecfr_url)
    if request.cfr_date is not None and not _DATE.fullmatch(request.cfr_date):
        raise SchemaChanged(f"{request.cfr_date!r} is not a date (YYYY-MM-DD)")
    titles = [
        t
        for t in parse_titles(
            await _get(
                client,
                base + "titles.json",
                "the eCFR titles list",
                retry_wait_s=request.retry_wait_s,
                limit=MAX_TITLES_BYTES,
            )
        )
        if not t.reserved and (request.cfr_titles is None or t.number in request.cfr_titles)
    ]
    held = {t.title: t.edition for t in index.titles("cfr")}
    folder = request.work / "ecfr"
    folder.mkdir(parents=True, exist_ok=True)
    if progress is not None:
        progress.stage("C.F.R. titles", len(titles))
    for t in titles:
        date = _cfr_edition(t, request.cfr_date)
        if held.get(t.number) == date:
            echo(f"C.F.R. title {t.number}: the {date} edition is already in the index")
        else:
            try:
                await _sync_cfr_title(index, request, client, echo, on_bytes, stats, t.number, date, folder)
            except (CitecheckError, OSError) as exc:  # this title is skipped; the others are built
                echo(f"C.F.R. title {t.number}: skipped, not stored ({exc})")
                stats.refused.append(f"C.F.R. title {t.number}: {exc}")
        if progress is not None:
            progress.advance()


def _cfr_edition(t: TitleInfo, asked: str | None) -> str:
    """The date of the edition of title ``t`` to hold: the one asked for (``--cfr-date``), never past the
    title's last change; else the newest. Raises SchemaChanged for a title the list names oddly."""
    if not (t.number.isascii() and t.number.isdigit() and len(t.number) <= 3):  # C.F.R. titles are 1-50
        raise SchemaChanged(f"the eCFR titles list names title {t.number[:40]!r}")
    date = asked or t.up_to_date_as_of
    if date is None or not _DATE.fullmatch(date):
        raise SchemaChanged(f"the eCFR titles list gives title {t.number} no date ({date!r})")
    if asked is not None and t.up_to_date_as_of and date > t.up_to_date_as_of:
        date = t.up_to_date_as_of  # the versioner has nothing later
    return date


async def _sync_cfr_title(
    index: StatuteIndex,
    request: SyncRequest,
    client: httpx.AsyncClient,
    echo: Echo,
    on_bytes: Callable[[DownloadProgress], None] | None,
    stats: BuildStats,
    number: str,
    date: str,
    folder: Path,
) -> None:
    base = _base(request.ecfr_url)
    versions = folder / f"versions-title-{number}.json"
    versions.write_bytes(await _versions(client, base, number, date, request.retry_wait_s))
    xml = folder / f"title-{number}.xml"
    echo(f"C.F.R. title {number}: downloading the {date} edition")
    await download(
        RemoteFile(url=f"{base}full/{date}/title-{number}.xml"), xml, client=client, progress=on_bytes
    )
    try:
        title = store_ecfr_title(
            index, xml, versions=versions, edition=date, source=base, expected_title=number
        )
    finally:
        remove_download(xml)
        versions.unlink(missing_ok=True)
    stats.cfr_titles.append(title.title)
    stats.sections += title.sections
    stats.editions[f"cfr {title.title}"] = date
