"""Download whole CAP volumes from the case.law static layout and import them.

Layout: ``<base>/<reporter-slug>/<volume>/CasesMetadata.json``, ``…/cases/<file>.json``,
``…/html/<file>.html``. Only the volume identifier (reporter slug + volume number) is in any URL:
the draft and even its citation list never leave the machine, which is the point of fetching a
whole volume rather than asking about one citation.
"""

from __future__ import annotations

import asyncio
import json
import logging
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

import httpx

from citecheck.errors import ImportFormatError, SourceError, SourceUnavailable
from citecheck.sources.cap_import import import_cap_volume
from citecheck.sources.corpus import Corpus
from citecheck.sources.importing import ImportStats, NullProgress, ProgressSink
from citecheck.sources.reporters import cap_slug, is_known_reporter
from citecheck.sources.safe_names import inside, safe_component

if TYPE_CHECKING:
    from citecheck.sources.cache import Cache

log = logging.getLogger(__name__)

#: CAP's collection ends in 2018: series that began later are never there.
CAP_LAST_YEAR = 2018
#: After a network failure, do not try the same volume again for this long (keystrokes!).
RETRY_AFTER_FAILURE_S = 60.0
#: How long to wait for a connection to the CAP site: an unreachable site is known in seconds.
CONNECT_TIMEOUT_S = 3.0


@dataclass(slots=True)
class FetchOutcome:
    imported: set[tuple[str, str]] = field(default_factory=set)
    failures: dict[tuple[str, str], str] = field(default_factory=dict)
    stats: list[ImportStats] = field(default_factory=list)


def _cite_type(reporter: str) -> str | None:
    import reporters_db

    root = reporters_db.EDITIONS.get(reporter)
    for rep in reporters_db.REPORTERS.get(root, ()) if root else ():
        if reporter in rep.get("editions", {}):
            return rep.get("cite_type")
    return None


def _edition_start_year(reporter: str) -> int | None:
    import reporters_db

    root = reporters_db.EDITIONS.get(reporter)
    for rep in reporters_db.REPORTERS.get(root, ()) if root else ():
        ed = rep.get("editions", {}).get(reporter)
        if ed and ed.get("start"):
            return ed["start"].year
    return None


class CapFetcher:
    """Fetches volumes over HTTP (httpx, async) and imports them into a corpus."""

    name = "cap-fetch"

    def __init__(
        self,
        base_url: str,
        *,
        timeout_s: float = 20.0,
        cache: Cache | None = None,
        client: httpx.AsyncClient | None = None,
        concurrency: int = 8,
        budget_s: float | None = None,
    ) -> None:
        self.base_url = base_url.rstrip("/") + "/"
        #: The run's total time for downloads (the CLI), counted from the first download; None (the
        #: language server) = none. Past it, volumes are not fetched and their citations say why.
        self.budget_s = budget_s
        self._deadline: float | None = None
        self.cache = cache
        self._client = client or httpx.AsyncClient(
            timeout=httpx.Timeout(timeout_s, connect=min(CONNECT_TIMEOUT_S, timeout_s)), follow_redirects=True
        )
        self._own_client = client is None
        self._sem = asyncio.Semaphore(concurrency)
        self._recent_failures: dict[tuple[str, str], tuple[float, str]] = {}
        self._locks: dict[tuple[str, str], asyncio.Lock] = {}
        self._missing: dict[tuple[str, str], str] = {}

    def volume_url(self, reporter: str, volume: str) -> str:
        return f"{self.base_url}{cap_slug(reporter)}/{volume}/"

    async def _get(self, url: str) -> bytes:
        async with self._sem:
            try:
                resp = await self._client.get(url)
            except httpx.TimeoutException as exc:
                raise SourceUnavailable(f"timed out fetching {url}") from exc
            except httpx.HTTPError as exc:
                raise SourceUnavailable(f"cannot reach {self.base_url}: {exc.__class__.__name__}") from exc
            except httpx.InvalidURL as exc:
                raise SourceUnavailable(f"cannot use {self.base_url}: {exc}") from exc
        if resp.status_code == 404:
            raise FileNotFoundError(url)
        if resp.status_code >= 400:
            raise SourceUnavailable(f"{url}: HTTP {resp.status_code}")
        return resp.content

    async def download_volume(self, reporter: str, volume: str, dest: Path) -> Path:
        """Download one volume into ``dest/<slug>/<volume>``; FileNotFoundError when CAP has none."""
        try:  # the volume comes from the draft, the slug from reporters-db: still, never trust a path part
            folder = inside(
                dest, safe_component(cap_slug(reporter), "reporter"), safe_component(volume, "volume")
            )
        except ImportFormatError as exc:
            raise SourceError(str(exc)) from exc
        base = self.volume_url(reporter, volume)
        (folder / "cases").mkdir(parents=True, exist_ok=True)
        (folder / "html").mkdir(parents=True, exist_ok=True)
        raw = await self._get(base + "CasesMetadata.json")
        try:
            cases = json.loads(raw)
        except json.JSONDecodeError as exc:
            raise SourceError(f"{base}CasesMetadata.json is not JSON") from exc
        if not isinstance(cases, list):
            raise SourceError(f"{base}CasesMetadata.json is not a list of cases")
        (folder / "CasesMetadata.json").write_bytes(raw)
        names = []
        for c in cases:
            if isinstance(c, dict) and c.get("file_name"):
                try:  # a name from the network becomes a URL and a file: plain names only
                    names.append(safe_component(c["file_name"]))
                except ImportFormatError as exc:
                    log.warning("%sCasesMetadata.json: %s", base, exc)  # the importer refuses that case

        async def one(name: str) -> None:
            for sub, ext in (("cases", "json"), ("html", "html")):
                try:
                    data = await self._get(f"{base}{sub}/{name}.{ext}")
                except FileNotFoundError:
                    continue  # a case without HTML is still a case (no page map for it)
                inside(folder, sub, f"{name}.{ext}").write_bytes(data)

        await asyncio.gather(*(one(n) for n in names))
        return folder

    async def cases_metadata(self, reporter: str, volume: str) -> bytes | None:
        """A volume's ``CasesMetadata.json`` alone (the page ranges ``cap_ranges`` needs), or None when CAP
        has no such volume or it is not to be tried now (a reason is logged). Obeys the same rules as a
        volume download: the run's budget, the site's recent failures, volumes known to be missing."""
        label = f"{volume} {reporter}"
        skip = self._skip_reason(reporter, volume)
        if skip is None and self.cache is not None:
            skip = await self.cache.volume_missing(reporter, volume)
        left = self._time_left()
        if skip is None and left is not None and left <= 0:
            skip = f"this run's {self.budget_s:g} s for CAP downloads (cap_budget_s) was used up"
        if skip is not None:
            log.info("CAP case metadata of %s not fetched: %s", label, skip)
            return None
        try:
            safe_component(volume, "volume")
        except ImportFormatError:
            return None
        url = self.volume_url(reporter, volume) + "CasesMetadata.json"
        try:
            async with asyncio.timeout(left):
                return await self._get(url)
        except TimeoutError:
            log.info("CAP case metadata of %s: this run's time for CAP downloads ran out", label)
        except FileNotFoundError:
            reason = f"CAP has no volume {label}"
            self._missing[(reporter, volume)] = reason
            if self.cache is not None:
                await self.cache.put_volume_missing(reporter, volume, reason)
        except SourceError as exc:
            self._recent_failures[(reporter, volume)] = (
                time.monotonic(),
                f"CAP download of {label} failed: {exc}",
            )
            if isinstance(exc, SourceUnavailable) and ("cannot reach" in str(exc) or "timed out" in str(exc)):
                self._recent_failures[("*", "*")] = (time.monotonic(), f"CAP site unreachable: {exc}")
            log.info("CAP case metadata of %s not fetched: %s", label, exc)
        return None

    def _time_left(self) -> float | None:
        if self.budget_s is None:
            return None
        if self._deadline is None:
            self._deadline = time.monotonic() + self.budget_s
        return self._deadline - time.monotonic()

    def _skip_reason(self, reporter: str, volume: str) -> str | None:
        if not is_known_reporter(reporter):
            return f"{reporter} is not a reporter CAP publishes"
        if _cite_type(reporter) == "neutral":
            return f"{reporter} is a neutral (public-domain) citation, not a CAP reporter volume"
        start = _edition_start_year(reporter)
        if start is not None and start > CAP_LAST_YEAR:
            return f"CAP ends in {CAP_LAST_YEAR}; {reporter} began in {start}"
        if (reporter, volume) in self._missing:
            return self._missing[(reporter, volume)]
        for failed in (self._recent_failures.get((reporter, volume)), self._recent_failures.get(("*", "*"))):
            if failed and time.monotonic() - failed[0] < RETRY_AFTER_FAILURE_S:
                return failed[1]
        return None

    async def fetch_and_import(
        self,
        volumes: Sequence[tuple[str, str]],
        corpus: Corpus,
        *,
        progress: ProgressSink | None = None,
        refresh: bool = False,
    ) -> FetchOutcome:
        """Fetch each (reporter, volume) not known to be missing, import it; never raises for one volume.

        Volumes already in the corpus are skipped unless ``refresh`` (``corpus fetch`` re-downloads).
        """
        progress = progress or NullProgress()
        out = FetchOutcome()
        for reporter, volume in volumes:
            # one download per volume even when several checks ask at once (language server + CLI)
            lock = self._locks.setdefault((reporter, volume), asyncio.Lock())
            async with lock:
                await self._fetch_one(reporter, volume, corpus, progress, out, refresh)
        return out

    async def _fetch_one(
        self,
        reporter: str,
        volume: str,
        corpus: Corpus,
        progress: ProgressSink,
        out: FetchOutcome,
        refresh: bool,
    ) -> None:
        label = f"{volume} {reporter}"
        if not refresh and await asyncio.to_thread(corpus.has_volume, reporter, volume, "cap"):
            out.imported.add((reporter, volume))  # another caller fetched it while we waited
            return
        skip = self._skip_reason(reporter, volume)
        if skip:
            out.failures[(reporter, volume)] = skip
            return
        if self.cache is not None:
            missing = await self.cache.volume_missing(reporter, volume)
            if missing:
                out.failures[(reporter, volume)] = missing
                return
        left = self._time_left()
        if left is not None and left <= 0:
            out.failures[(reporter, volume)] = (
                f"CAP download of {label} not tried: this run's {self.budget_s:g} s "
                "for downloads (cap_budget_s) was used up"
            )
            return
        log.info("downloading CAP volume %s from %s", label, self.base_url)
        with tempfile.TemporaryDirectory(prefix="citecheck-cap-") as tmp:
            try:
                async with asyncio.timeout(left):
                    folder = await self.download_volume(reporter, volume, Path(tmp))
            except TimeoutError:
                out.failures[(reporter, volume)] = (
                    f"CAP download of {label} stopped: this run's {self.budget_s:g} s "
                    "for downloads (cap_budget_s) ran out"
                )
                log.warning(
                    "CAP downloads stopped after %g s (cap_budget_s); the rest stay unverified", self.budget_s
                )
                return
            except FileNotFoundError:
                reason = f"CAP has no volume {label}"
                out.failures[(reporter, volume)] = reason
                self._missing[(reporter, volume)] = reason  # also without a cache: ask once per process
                if self.cache is not None:
                    await self.cache.put_volume_missing(reporter, volume, reason)
                return
            except SourceError as exc:
                reason = f"CAP download of {label} failed: {exc}"
                out.failures[(reporter, volume)] = reason
                self._recent_failures[(reporter, volume)] = (time.monotonic(), reason)
                if isinstance(exc, SourceUnavailable) and (
                    "cannot reach" in str(exc) or "timed out" in str(exc)
                ):
                    # the site is unreachable or drops packets: do not try (and wait for) every other volume too
                    self._recent_failures[("*", "*")] = (time.monotonic(), f"CAP site unreachable: {exc}")
                    log.warning(
                        "CAP site unreachable (%s); not trying it again for %g s", exc, RETRY_AFTER_FAILURE_S
                    )
                return
            try:
                stats = await asyncio.to_thread(
                    import_cap_volume, corpus, folder, url_base=self.base_url, progress=progress
                )
            except Exception as exc:  # a bad volume must not break the check: it becomes a reason
                log.warning("import of downloaded %s failed: %s", label, exc)
                out.failures[(reporter, volume)] = f"CAP volume {label} could not be imported: {exc}"
                return
        out.imported.add((reporter, volume))
        out.stats.append(stats)
        log.info("CAP volume %s imported", label)

    async def close(self) -> None:
        if self._own_client:
            await self._client.aclose()
