"""CourtListener REST v4 client (httpx, async): citation lookup, clusters, opinions.

Privacy: citation-lookup is sent ONLY the citation strings (``"100 A.3d 1004; 279 Neb. 94"``),
never the draft. Limits honoured: ≤250 citations and ≤64,000 characters per request, the
per-citation throttle's ``wait_until``, ``Retry-After``; 5xx and timeouts are retried with backoff,
but a refused connection fails at once and the client then stays quiet for a while, so an offline
machine never hangs a language server. 401/403 → AuthenticationError.

Honest coverage: a 404 is NOT_FOUND only for reporter volumes CourtListener holds in full
(``reporters.courtlistener_covers``); otherwise it is CANNOT_VERIFY.
"""

from __future__ import annotations

import asyncio
import re
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import replace
from datetime import datetime
from typing import Any
from urllib.parse import urljoin, urlsplit

import httpx

from citecheck.errors import AuthenticationError, BadResponse, RateLimited, SourceUnavailable
from citecheck.sources.bulk_import import TEXT_FIELDS
from citecheck.sources.models import (
    CaseCite,
    CaseRecord,
    CiteKey,
    LookupResult,
    LookupStatus,
    OpinionText,
    PassageHit,
)
from citecheck.sources.pagination import derived_last_page, html_to_text, join_texts, opinion_text, page_maps
from citecheck.sources.reporters import courtlistener_covers, normalise_reporter

MAX_CITES_PER_REQUEST = 250
MAX_TEXT_CHARS = 64_000
SEPARATOR = "; "
_OPINION_ID = re.compile(r"/opinions/(\d+)/?$")


def _parse_wait(resp: httpx.Response, now: float) -> float | None:
    """Seconds to wait from a 429: body ``wait_until`` (ISO-8601) or the ``Retry-After`` header."""
    try:
        body = resp.json()
    except ValueError:
        body = None
    if isinstance(body, dict):
        until = body.get("wait_until") or body.get("wait_util")
        if isinstance(until, str):
            try:
                ts = datetime.fromisoformat(until.replace("Z", "+00:00")).timestamp()
                return max(0.0, ts - now)
            except ValueError:
                pass
    header = resp.headers.get("Retry-After")
    if header:
        try:
            return max(0.0, float(header))
        except ValueError:
            return None
    return None


def batches(keys: Sequence[CiteKey]) -> list[tuple[str, dict[int, CiteKey]]]:
    """Split keys into request texts (≤250 cites, ≤64,000 chars): ``(text, {start offset: key})``.

    >>> [t for t, _ in batches([CiteKey("1", "U.S.", "1"), CiteKey("2", "U.S.", "2")])]
    ['1 U.S. 1; 2 U.S. 2']
    """
    out: list[tuple[str, dict[int, CiteKey]]] = []
    parts: list[str] = []
    starts: dict[int, CiteKey] = {}
    length = 0
    for k in keys:
        s = str(k)
        extra = len(s) + (len(SEPARATOR) if parts else 0)
        if parts and (len(parts) >= MAX_CITES_PER_REQUEST or length + extra > MAX_TEXT_CHARS):
            out.append((SEPARATOR.join(parts), starts))
            parts, starts, length = [], {}, 0
            extra = len(s)
        starts[length + (extra - len(s))] = k
        parts.append(s)
        length += extra
    if parts:
        out.append((SEPARATOR.join(parts), starts))
    return out


class CourtListenerClient:
    """An AuthoritySource backed by CourtListener v4 (or a ``citecheck corpus serve`` speaking it)."""

    name = "courtlistener"

    def __init__(
        self,
        base_url: str,
        token: str | None,
        *,
        timeout_s: float = 20.0,
        connect_timeout_s: float = 3.0,
        client: httpx.AsyncClient | None = None,
        retries: int = 3,
        backoff_s: float = 0.5,
        max_wait_s: float = 90.0,
        quiet_after_failure_s: float = 30.0,
        assume_courtlistener_coverage: bool | None = None,
        fetch_courts: bool | None = None,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.base_url = base_url.rstrip("/") + "/"
        host = urlsplit(self.base_url).hostname or ""
        # Our coverage table describes the real CourtListener; any other server (a firm's
        # `citecheck corpus serve`) must say per answer whether it holds the volume.
        self.assume_courtlistener_coverage = (
            host == "courtlistener.com" or host.endswith(".courtlistener.com")
            if assume_courtlistener_coverage is None
            else assume_courtlistener_coverage
        )
        # one extra request per case found: worth it on a self-hosted server, not on CourtListener's
        # free tier (5 requests a minute), where court stays unknown and the court check is skipped
        self.fetch_courts = (not self.assume_courtlistener_coverage) if fetch_courts is None else fetch_courts
        self._courts: dict[str, str | None] = {}
        headers = {"User-Agent": "citecheck"}
        if token:
            headers["Authorization"] = f"Token {token}"
        self._client = client or httpx.AsyncClient(
            timeout=httpx.Timeout(timeout_s, connect=min(connect_timeout_s, timeout_s)), headers=headers
        )
        if client is not None:
            self._client.headers.update(headers)
        self._own_client = client is None
        self.retries = retries
        self.backoff_s = backoff_s
        self.max_wait_s = max_wait_s
        self.quiet_after_failure_s = quiet_after_failure_s
        self._sleep = sleep
        self._clock = clock
        self._down_until = 0.0
        self._down_reason = ""
        self._clusters: OrderedDict[str, dict[str, Any]] = OrderedDict()  # raw cluster JSON by id, small LRU

    @property
    def description(self) -> str:
        return f"CourtListener ({self.base_url})"

    # ------------------------------------------------------------------ HTTP
    async def _request(self, method: str, url: str, **kw: Any) -> httpx.Response:
        now = self._clock()
        if now < self._down_until:
            raise SourceUnavailable(f"{self._down_reason} (not retrying for {self._down_until - now:.0f}s)")
        attempt = 0
        waited_for_throttle = False
        while True:
            try:
                resp = await self._client.request(method, url, **kw)
            except httpx.ConnectError as exc:
                self._mark_down(f"cannot connect to {self.base_url}: {exc.__class__.__name__}")
                raise SourceUnavailable(self._down_reason) from exc
            except (httpx.TimeoutException, httpx.NetworkError, httpx.RemoteProtocolError) as exc:
                attempt += 1
                if attempt > self.retries:
                    self._mark_down(f"{self.base_url} timed out or dropped the connection")
                    raise SourceUnavailable(self._down_reason) from exc
                await self._sleep(self.backoff_s * 2 ** (attempt - 1))
                continue
            except (httpx.HTTPError, httpx.InvalidURL) as exc:  # bad URL, unsupported scheme, …
                raise SourceUnavailable(f"cannot use {self.base_url}: {exc}") from exc
            status = resp.status_code
            if status in (401, 403):
                raise AuthenticationError(
                    f"CourtListener refused the token (HTTP {status}); check CITECHECK_COURTLISTENER_TOKEN"
                )
            if status == 429:
                wait = _parse_wait(resp, self._clock())
                if not waited_for_throttle and wait is not None and wait <= self.max_wait_s:
                    waited_for_throttle = True
                    await self._sleep(wait)
                    continue
                raise RateLimited("CourtListener is throttling requests", retry_after=wait)
            if status >= 500:
                attempt += 1
                if attempt > self.retries:
                    raise SourceUnavailable(
                        f"CourtListener answered HTTP {status} after {self.retries} retries"
                    )
                await self._sleep(self.backoff_s * 2 ** (attempt - 1))
                continue
            return resp

    def _mark_down(self, reason: str) -> None:
        self._down_reason = reason
        self._down_until = self._clock() + self.quiet_after_failure_s

    async def _json(self, method: str, path: str, **kw: Any) -> Any:
        resp = await self._request(method, urljoin(self.base_url, path), **kw)
        if resp.status_code == 404:
            return None
        if resp.status_code >= 400:
            raise BadResponse(f"CourtListener answered HTTP {resp.status_code} to {path}: {resp.text[:200]}")
        try:
            return resp.json()
        except ValueError as exc:
            raise BadResponse(f"CourtListener sent something that is not JSON for {path}") from exc

    # ------------------------------------------------------------------ records
    def record_from_cluster(self, cluster: dict[str, Any]) -> CaseRecord:
        """CaseRecord from a v4 cluster object (the cluster JSON has no court: court_id stays None)."""
        try:
            cid = str(cluster["id"])
        except (KeyError, TypeError) as exc:
            raise BadResponse("cluster object without an id") from exc
        cites = []
        for c in cluster.get("citations") or []:
            if (
                not isinstance(c, dict)
                or c.get("volume") in (None, "")
                or not c.get("reporter")
                or not c.get("page")
            ):
                continue
            cites.append(
                CaseCite(
                    volume=str(c["volume"]),
                    reporter=normalise_reporter(str(c["reporter"])),
                    page=str(c["page"]),
                    type=str(c["type"]) if c.get("type") is not None else None,
                )
            )
        absolute = cluster.get("absolute_url")
        origin = "{0.scheme}://{0.netloc}".format(urlsplit(self.base_url))
        self._remember(cid, cluster)
        return CaseRecord(
            id=f"cl:{cid}",
            source="courtlistener",
            name=cluster.get("case_name")
            or cluster.get("case_name_full")
            or cluster.get("case_name_short")
            or "",
            name_short=cluster.get("case_name_short") or None,
            name_full=cluster.get("case_name_full") or None,
            decision_date=cluster.get("date_filed") or None,
            citations=tuple(cites),
            url=urljoin(origin, absolute) if absolute else None,
        )

    def _remember(self, cid: str, cluster: dict[str, Any]) -> None:
        self._clusters[cid] = cluster
        self._clusters.move_to_end(cid)
        while len(self._clusters) > 256:
            self._clusters.popitem(last=False)

    # ------------------------------------------------------------------ lookup
    async def lookup(self, keys: Sequence[CiteKey]) -> dict[CiteKey, LookupResult]:
        norm = {k: CiteKey(k.volume, normalise_reporter(k.reporter), k.page) for k in keys}
        results: dict[CiteKey, LookupResult] = {}
        pending = list(dict.fromkeys(keys))
        rounds = 0
        while pending and rounds < 50:
            rounds += 1
            text, starts = batches(pending)[0]
            try:
                answered, overflow = await self._lookup_text(text, starts, norm)
            except (RateLimited, SourceUnavailable) as exc:
                if not results:
                    raise
                # keep what earlier batches answered; the rest is transient (source=None: not cached)
                for k in pending:
                    results[k] = LookupResult(
                        key=k, status=LookupStatus.CANNOT_VERIFY, reason=f"CourtListener unavailable: {exc}"
                    )
                pending = []
                break
            results.update(answered)
            batch_keys = list(starts.values())
            rest = pending[len(batch_keys) :]
            pending = [k for k in batch_keys if k in overflow] + rest
            for k in batch_keys:
                if k not in results and k not in overflow:
                    results[k] = self._cannot(k, "CourtListener did not recognise this as a case citation")
        for k in pending:
            results.setdefault(k, self._cannot(k, "CourtListener did not answer for this citation"))
        if self.fetch_courts:
            results = await self._with_courts(results)
        return results

    async def _with_courts(self, results: dict[CiteKey, LookupResult]) -> dict[CiteKey, LookupResult]:
        """Fill ``court_id`` from each cluster's docket (the cluster JSON has no court). Best effort."""
        wanted = {
            r.id[3:]
            for res in results.values()
            for r in (*res.records, *((res.containing,) if res.containing else ()))
            if r.court_id is None and r.id.startswith("cl:")
        }
        for cid in sorted(wanted):
            if cid in self._courts:
                continue
            docket = (self._clusters.get(cid) or {}).get("docket_id")
            court = None
            if docket is not None:
                try:
                    data = await self._json("GET", f"dockets/{docket}/", params={"fields": "id,court_id"})
                except (BadResponse, SourceUnavailable):
                    data = None
                if isinstance(data, dict) and isinstance(data.get("court_id"), str):
                    court = data["court_id"]
            self._courts[cid] = court

        def fix(r: CaseRecord | None) -> CaseRecord | None:
            if r is None or r.court_id is not None or not r.id.startswith("cl:"):
                return r
            court = self._courts.get(r.id[3:])
            return replace(r, court_id=court) if court else r

        return {
            k: replace(res, records=tuple(fix(r) for r in res.records), containing=fix(res.containing))  # type: ignore[misc]
            for k, res in results.items()
        }

    def _cannot(self, key: CiteKey, reason: str, containing: CaseRecord | None = None) -> LookupResult:
        return LookupResult(
            key=key, status=LookupStatus.CANNOT_VERIFY, source=self.name, reason=reason, containing=containing
        )

    async def _lookup_text(
        self, text: str, starts: dict[int, CiteKey], norm: dict[CiteKey, CiteKey]
    ) -> tuple[dict[CiteKey, LookupResult], set[CiteKey]]:
        data = await self._json("POST", "citation-lookup/", data={"text": text})
        if not isinstance(data, list):
            raise BadResponse("citation-lookup did not answer with a list")
        by_string = {str(norm[k]): k for k in starts.values()}
        out: dict[CiteKey, LookupResult] = {}
        overflow: set[CiteKey] = set()
        for entry in data:
            if not isinstance(entry, dict):
                raise BadResponse("citation-lookup entry is not an object")
            normalized = [str(x) for x in entry.get("normalized_citations") or []]
            key = starts.get(entry.get("start_index", -1))  # type: ignore[arg-type]
            if key is not None and str(norm[key]) not in normalized and entry.get("citation") != str(key):
                key = None  # offsets do not line up with what we sent: trust the citation string instead
            if key is None:
                for s in entry.get("normalized_citations") or []:
                    key = by_string.get(s)
                    if key:
                        break
            if key is None or key in out:
                continue
            status = entry.get("status")
            if status == 429:
                overflow.add(key)
                continue
            out[key] = self._map_entry(key, norm[key], status, entry)
        return out, overflow

    def _map_entry(self, key: CiteKey, nkey: CiteKey, status: Any, entry: dict[str, Any]) -> LookupResult:
        if "citecheck_volume_complete" in entry:  # a citecheck corpus server says what it holds
            covered = bool(entry["citecheck_volume_complete"])
            last_page = entry.get("citecheck_volume_last_page") if covered else None
        else:
            covered = self.assume_courtlistener_coverage and courtlistener_covers(nkey.reporter, nkey.volume)
            last_page = None
        label = str(nkey)
        vol = f"{nkey.volume} {nkey.reporter}"
        where = (
            "CourtListener" if self.assume_courtlistener_coverage else f"the corpus server at {self.base_url}"
        )
        if status in (200, 300):
            clusters = [c for c in entry.get("clusters") or [] if isinstance(c, dict)]
            records = [self.record_from_cluster(c) for c in clusters]
            exact = [r for r in records if any(c.key == nkey for c in r.citations)]
            if exact:
                return LookupResult(
                    key=key,
                    status=LookupStatus.FOUND if len(exact) == 1 else LookupStatus.AMBIGUOUS,
                    records=tuple(exact),
                    source=self.name,
                    reason=f"found in {where}",
                )
            # CourtListener's "perhaps it's a pincite" fallback: the page is INSIDE another case
            containing = records[0] if len(records) == 1 else None
            if covered:
                return LookupResult(
                    key=key,
                    status=LookupStatus.NOT_FOUND,
                    source=self.name,
                    reason=f"no case begins at {label} in {where}, which holds all of {vol}",
                    containing=containing,
                    volume_complete=True,
                    volume_last_page=last_page,
                )
            return self._cannot(
                key,
                f"no case begins at {label} in {where} (its coverage of {vol} is not complete)",
                containing,
            )
        if status == 404:
            if covered:
                return LookupResult(
                    key=key,
                    status=LookupStatus.NOT_FOUND,
                    source=self.name,
                    reason=f"{where}, which holds all of {vol}, has no case at {label}",
                    volume_complete=True,
                    volume_last_page=last_page,
                )
            return self._cannot(key, f"not in {where}, whose coverage of {vol} is not complete")
        if status == 400:
            return self._cannot(key, f"{where} does not know the reporter of {label}")
        return self._cannot(key, f"{where} answered status {status} for {label}")

    # ------------------------------------------------------------------ text
    async def cluster(self, cluster_id: str) -> dict[str, Any] | None:
        if cluster_id in self._clusters:
            return self._clusters[cluster_id]
        data = await self._json("GET", f"clusters/{cluster_id}/")
        if data is None:
            return None
        if not isinstance(data, dict):
            raise BadResponse(f"cluster {cluster_id} is not an object")
        self._remember(cluster_id, data)
        return data

    async def opinion(self, record: CaseRecord) -> OpinionText | None:
        if not record.id.startswith("cl:"):
            return None
        cid = record.id[3:]
        cluster = await self.cluster(cid)
        if cluster is None:
            return None
        op_ids = []
        for url in cluster.get("sub_opinions") or []:
            m = _OPINION_ID.search(str(url))
            if m:
                op_ids.append(int(m.group(1)))
        fields = ",".join(("id", "type", *TEXT_FIELDS))
        parts = [html_to_text(cluster.get("headmatter") or "")]
        texts = 0
        for oid in sorted(op_ids):
            op = await self._json("GET", f"opinions/{oid}/", params={"fields": fields})
            if not isinstance(op, dict):
                continue
            for name in TEXT_FIELDS:
                value = op.get(name)
                if isinstance(value, str) and value.strip():
                    parts.append(opinion_text(name, value))
                    texts += 1
                    break
        if not texts:
            return None
        joined = join_texts(parts)
        cites = self.record_from_cluster(cluster).citations
        cites = tuple(
            CaseCite(
                volume=c.volume,
                reporter=c.reporter,
                page=c.page,
                type=c.type,
                last_page=derived_last_page(c.page, [m.label for m in joined.markers if m.index == k]),
            )
            for k, c in enumerate(cites, start=1)
        )
        return OpinionText(case_id=record.id, text=joined.text, page_maps=page_maps(joined.markers, cites))

    async def find_passage(self, passage: str, *, limit: int = 5) -> list[PassageHit]:
        return []  # CourtListener search would send the draft's words away: never

    async def close(self) -> None:
        if self._own_client:
            await self._client.aclose()
