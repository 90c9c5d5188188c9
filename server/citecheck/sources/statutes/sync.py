"""``citecheck corpus sync --statutes``: download the U.S. Code and the C.F.R. and build the index.

U.S. Code: the OLRC's download page names the current release point; its ``xml_uscAll@<rp>.zip``
(≈100 MB) is fetched with ``sources/download.py`` (streamed to a ``.part``, resumed with HTTP Range
after an interruption, size and ETag checked) and read title by title without unpacking. C.F.R.: the
eCFR versioner's ``titles.json`` gives each title's latest complete date (or ``--cfr-date`` picks
the edition nearest a brief's date); per title its ``versions`` JSON (the history of every section)
and its ``full/{date}/title-N.xml``, each stored as soon as it arrives and then deleted.

Only the release id and title numbers from those answers enter a URL or a file name, and only after
they match a strict pattern: a hostile page cannot choose a path or a host. Nothing of a brief is
ever sent. A title whose file is in a changed format stops the sync with ``SchemaChanged``; the
titles stored before it stay.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import httpx

from citecheck.config import DEFAULT_ECFR_URL, DEFAULT_USCODE_URL
from citecheck.errors import BadResponse, SchemaChanged
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
from citecheck.sources.statutes.ecfr import parse_titles
from citecheck.sources.statutes.index import StatuteIndex

__all__ = ["DEFAULT_ECFR_URL", "DEFAULT_USCODE_URL", "SyncRequest", "sync_statutes"]


#: release points are "<congress>-<law>", sometimes qualified: "118-200", "119-102not101"
_RELEASE_LINK = re.compile(
    r"releasepoints/us/pl/(\d{2,3})/(\d{1,4}[a-z0-9]{0,12})/xml_uscAll@(\d{2,3}-\d{1,4}[a-z0-9]{0,12})\.zip"
)
_RELEASE_ID = re.compile(r"(\d{2,3})-(\d{1,4}[a-z0-9]{0,12})")
_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")


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


Echo = Callable[[str], None]


def _base(url: str) -> str:
    return url if url.endswith("/") else url + "/"


#: The most each answer may be (decoded), read as it arrives: the real ones are ~50 KB (the download page),
#: ~15 KB (titles.json) and a few MB (the versions of the largest title; title 42 has ~17,800).
MAX_PAGE_BYTES = 4 << 20
MAX_TITLES_BYTES = 4 << 20
MAX_VERSIONS_BYTES = 64 << 20


async def _get(client: httpx.AsyncClient, url: str, what: str, limit: int = MAX_PAGE_BYTES) -> bytes:
    status, body = await fetch_bounded(client, url, limit=limit, what=what)
    if status != 200:
        raise BadResponse(f"{what}: {url} answered {status}")
    return body


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
            await _get(client, base + "titles.json", "the eCFR titles list", MAX_TITLES_BYTES)
        )
        if not t.reserved and (request.cfr_titles is None or t.number in request.cfr_titles)
    ]
    held = {t.title: t.edition for t in index.titles("cfr")}
    folder = request.work / "ecfr"
    folder.mkdir(parents=True, exist_ok=True)
    if progress is not None:
        progress.stage("C.F.R. titles", len(titles))
    for t in titles:
        if not (t.number.isascii() and t.number.isdigit() and len(t.number) <= 3):  # C.F.R. titles are 1-50
            raise SchemaChanged(f"the eCFR titles list names title {t.number[:40]!r}")
        date = request.cfr_date or t.up_to_date_as_of
        if date is None or not _DATE.fullmatch(date):
            raise SchemaChanged(f"the eCFR titles list gives title {t.number} no date ({date!r})")
        if request.cfr_date is not None and t.up_to_date_as_of and date > t.up_to_date_as_of:
            date = t.up_to_date_as_of  # the versioner has nothing later
        if held.get(t.number) == date:
            echo(f"C.F.R. title {t.number}: the {date} edition is already in the index")
        else:
            versions = folder / f"versions-title-{t.number}.json"
            versions.write_bytes(
                await _get(
                    client,
                    f"{base}versions/title-{t.number}.json",
                    f"C.F.R. title {t.number} versions",
                    MAX_VERSIONS_BYTES,
                )
            )
            xml = folder / f"title-{t.number}.xml"
            echo(f"C.F.R. title {t.number}: downloading the {date} edition")
            await download(
                RemoteFile(url=f"{base}full/{date}/title-{t.number}.xml"),
                xml,
                client=client,
                progress=on_bytes,
            )
            with reading(xml):  # a title damaged on the way is fetched afresh next time
                title = store_ecfr_title(index, xml, versions=versions, edition=date, source=base)
            stats.cfr_titles.append(title.title)
            stats.sections += title.sections
            stats.editions[f"cfr {title.title}"] = date
            remove_download(xml)
            versions.unlink(missing_ok=True)
        if progress is not None:
            progress.advance()
