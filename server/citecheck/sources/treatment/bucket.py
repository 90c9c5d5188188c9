"""``citecheck treatment build`` with no PATH: the newest parentheticals and opinions files from the bucket.

The listing is CourtListener's public bucket (the one ``corpus sync`` lists, ``bulk_url``); only
``bulk-data/parentheticals-YYYY-MM-DD.csv.bz2`` and ``bulk-data/opinions-YYYY-MM-DD.csv.bz2`` of one date
are used, their names checked by ``safe_names`` before they become paths, downloaded with
``sources/download.py`` (resumable, size and ETag checked). A parenthetical names its described opinion by
opinion id, and only the opinions file maps opinion ids to cases, so both files are needed: the opinions
file is about 50 GB compressed (2026).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

import httpx

from citecheck.errors import BadResponse, SourceUnavailable
from citecheck.sources.download import DownloadProgress, RemoteFile, check_free_space, download, is_complete
from citecheck.sources.index.sync import MAX_LISTING_BYTES, MAX_PAGES, PREFIX, check_bulk_url, parse_listing
from citecheck.sources.safe_names import inside, safe_component

_KEY = re.compile(r"^bulk-data/((parentheticals|opinions)-(\d{4}-\d{2}-\d{2})\.csv\.bz2)$")
KINDS = ("parentheticals", "opinions")


@dataclass(frozen=True, slots=True, kw_only=True)
class TreatmentFiles:
    date: str
    files: dict[str, RemoteFile]
    names: dict[str, str]


def newest(objects: list[tuple[str, int | None, str | None]], base_url: str) -> TreatmentFiles:
    by_date: dict[str, dict[str, tuple[str, int | None, str | None]]] = {}
    for key, size, etag in objects:
        m = _KEY.match(key)
        if m:
            by_date.setdefault(m.group(3), {})[m.group(2)] = (m.group(1), size, etag)
    for date in sorted(by_date, reverse=True):
        kinds = by_date[date]
        if all(k in kinds for k in KINDS):
            return TreatmentFiles(
                date=date,
                files={k: RemoteFile(url=f"{base_url}{PREFIX}{quote(kinds[k][0])}", size=kinds[k][1], etag=kinds[k][2])
                       for k in KINDS},
                names={k: kinds[k][0] for k in KINDS},
            )  # fmt: skip
    raise BadResponse(f"the bucket lists no parentheticals and opinions files of one date under {PREFIX}")


async def fetch_treatment_files(
    bulk_url: str,
    folder: Path,
    *,
    client: httpx.AsyncClient | None = None,
    progress: Callable[[DownloadProgress], None] | None = None,
    timeout_s: float = 60.0,
) -> tuple[str, dict[str, Path]]:
    """Download the newest dump's parentheticals and opinions files into ``folder``; (date, paths)."""
    base = check_bulk_url(bulk_url)
    own = client is None
    client = client or httpx.AsyncClient(timeout=httpx.Timeout(timeout_s, connect=10.0), follow_redirects=False,
                                         headers={"User-Agent": "citecheck"})  # fmt: skip
    try:
        objects: list[tuple[str, int | None, str | None]] = []
        token: str | None = None
        for _ in range(MAX_PAGES):
            params = {"list-type": "2", "prefix": PREFIX}
            if token:
                params["continuation-token"] = token
            try:
                response = await client.get(base, params=params)
            except httpx.HTTPError as exc:
                raise SourceUnavailable(
                    f"cannot reach {base} ({exc.__class__.__name__}); check the network"
                ) from exc
            if response.status_code != 200:
                raise SourceUnavailable(f"the bucket {base} answered {response.status_code} to its listing")
            if len(response.content) > MAX_LISTING_BYTES:
                raise BadResponse(f"the bucket listing page is larger than {MAX_LISTING_BYTES} bytes")
            page, token = parse_listing(response.content)
            objects.extend(page)
            if token is None:
                break
        listing = newest(objects, base)
        paths = {k: inside(folder, safe_component(listing.names[k], "bulk file name")) for k in KINDS}
        left = sum((f.size or 0) for k, f in listing.files.items() if not is_complete(paths[k], f))
        check_free_space(folder, left, f"downloading the {listing.date} parentheticals and opinions files")
        for kind in KINDS:
            await download(listing.files[kind], paths[kind], client=client, progress=progress)
        return listing.date, paths
    finally:
        if own:
            await client.aclose()


__all__ = ["KINDS", "TreatmentFiles", "fetch_treatment_files", "newest"]
