"""CourtListener REST v4 client (httpx, async): citation lookup, clusters, opinions, dockets.

Privacy: citation-lookup is sent ONLY the citation strings (``"100 A.3d 1004; 279 Neb. 94"``),
never the draft. Every request goes through one ``Pacer`` (``sources/pacing.py``): the documented
limits are spent smoothly (≤ the free allowance of citations per request window, ≤250 citations and
≤64,000 characters per request), ``wait_until``/``Retry-After`` hold every caller, a rejected token
stops every call until it changes, 5xx back off exponentially with a cap. A run has one deadline and
each request another one that covers reading the body, so a slow or silent server cannot keep a run
going; a refused connection fails at once and the client then stays quiet for a while.

Honest coverage: a 404 is NOT_FOUND only for reporter volumes CourtListener holds in full
(``reporters.courtlistener_covers``); otherwise it is CANNOT_VERIFY. An answer whose shape is not
the documented one is CANNOT_VERIFY with the reason, never NOT_FOUND.
"""

from __future__ import annotations

import asyncio
import re
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import replace
from datetime import datetime
from functools import partial
from typing import Any
from urllib.parse import urljoin, urlsplit

import httpx

from citecheck.errors import (
    AuthenticationError,
    BadResponse,
    Deferred,
    RateLimited,
    SourceError,
    SourceUnavailable,
)
from citecheck.sources.bulk_import import TEXT_FIELDS
from citecheck.sources.models import (
    CaseCite,
    CaseRecord,
    CiteKey,
    LookupResult,
    LookupStatus,
    NameHit,
    NameSearch,
    OpinionText,
    PassageHit,
)
from citecheck.sources.opinion_fit import why_unfit
from citecheck.sources.pacing import (
    FREE_CITATION_RATE,
    FREE_REQUEST_RATES,
    Pacer,
    PacingStore,
    Work,
    WorkOrder,
    about,
    parse_rates,
)
from citecheck.sources.pagination import derived_last_page, html_to_text, join_texts, opinion_text, page_maps
from citecheck.sources.reporters import courtlistener_covers, normalise_reporter
from citecheck.sources.retry import Backoff

MAX_CITES_PER_REQUEST = 250
MAX_TEXT_CHARS = 64_000
SEPARATOR = "; "
_OPINION_ID = re.compile(r"/opinions/(\d+)/?$")
_CITE_STRING = re.compile(r"^\s*(\d{1,5})\s+([A-Za-z][\w.' ]{0,40}?)\s+(\d{1,6})\s*$")
#: Results of one name search read at most (CourtListener's first page holds 20).
NAME_RESULTS = 20
#: Years either side of the draft's a name search asks CourtListener for (its year may be the slip).
NAME_YEAR_WINDOW = 3


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


def _text(value: Any) -> str:
    """A string field of a JSON answer, or "" when it is missing or not a string."""
    return value if isinstance(value, str) else ""


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


def is_courtlistener_host(url: str) -> bool:
    host = urlsplit(url).hostname or ""
    return host == "courtlistener.com" or host.endswith(".courtlistener.com")


def _is_id(x: object) -> bool:
    """An int or a non-blank string (never a bool, which is an int to Python)."""
    return isinstance(x, int | str) and not isinstance(x, bool) and str(x).strip() != ""


def _malformed_cluster(c: object) -> str | None:
    """What is wrong with one cluster of a citation-lookup answer, or None."""
    if not isinstance(c, dict):
        return "a cluster that is not an object"
    cid = c.get("id")
    if not isinstance(cid, int | str) or isinstance(cid, bool) or str(cid) == "":
        return "a cluster without an id"
    cites = c.get("citations")
    if not isinstance(cites, list) or not cites:
        return f"cluster {cid} without a list of citations"
    for x in cites:
        if not isinstance(x, dict):
            return f"cluster {cid} with a citation that is not an object"
        rep = x.get("reporter")
        if (
            not _is_id(x.get("volume"))
            or not isinstance(rep, str)
            or not rep.strip()
            or not _is_id(x.get("page"))
        ):
            return f"cluster {cid} with a citation lacking volume, reporter or page"
    return None


class CourtListenerClient:
    """An AuthoritySource backed by CourtListener v4 (or a ``citecheck corpus serve`` speaking it).

    ``budget_s`` is the run's deadline (counted from the first call): work the allowance or a slow
    server would push past it is answered CANNOT_VERIFY with ``pending_until`` instead of waited for.
    ``patience_s`` bounds each call the same way (the language server asks for a short one and
    re-checks in the background). ``None`` for both means "wait until done" (``--wait``).
    """

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
        timeout_retries: int = 1,
        backoff_s: float = 0.5,
        backoff_cap_s: float = 300.0,
        quiet_after_failure_s: float = 30.0,
        assume_courtlistener_coverage: bool | None = None,
        fetch_courts: bool | None = None,
        request_rates: str | None = None,
        citation_rate: str | None = None,
        time_scale: float = 1.0,
        budget_s: float | None = None,
        patience_s: float | None = None,
        store: PacingStore | None = None,
        pacer: Pacer | None = None,
        order: WorkOrder | None = None,
        search_names: bool = True,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.base_url = base_url.rstrip("/") + "/"
        #: the name search may be asked (``settings.name_search_online``): the case name of a citation a
        #: finding calls wrong then goes to CourtListener (docs/sources.md, "Name search")
        self.search_names = search_names
        official = is_courtlistener_host(self.base_url)
        # Our coverage table describes the real CourtListener; any other server (a firm's
        # `citecheck corpus serve`) must say per answer whether it holds the volume.
        self.assume_courtlistener_coverage = (
            official if assume_courtlistener_coverage is None else assume_courtlistener_coverage
        )
        # one extra request per case found: worth it on a self-hosted server, not on CourtListener's
        # free tier (5 requests a minute), where court stays unknown and the court check is skipped
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
        self.timeout_s = timeout_s
        self.retries = retries
        self.timeout_retries = timeout_retries
        self.backoff_s = backoff_s
        self.quiet_after_failure_s = quiet_after_failure_s
        self._sleep = sleep
        self._clock = clock
        # The documented free-account limits apply to the official host unless settings say otherwise;
        # another server (our own corpus server) is unlimited unless configured — its 429s still hold us.
        if request_rates is None:
            request_rates = FREE_REQUEST_RATES if official else ""
        if citation_rate is None:
            citation_rate = FREE_CITATION_RATE if official else ""
        cites = parse_rates(citation_rate, time_scale=time_scale)
        self.pacer = pacer or Pacer(
            scope=urlsplit(self.base_url).netloc,
            request_rates=parse_rates(request_rates, time_scale=time_scale),
            citation_rate=cites[0] if cites else None,
            token=token,
            store=store,
            clock=clock,
            sleep=sleep,
            backoff_base_s=backoff_s,
            backoff_cap_s=backoff_cap_s,
            order=order,
        )
        self.store = store
        # ... and on a server with a request allowance neither: there a lookup is worth more than a court
        if fetch_courts is None:
            fetch_courts = not self.assume_courtlistener_coverage and not self.pacer.request_rates
        self.fetch_courts = fetch_courts
        self.budget_s = budget_s
        self.deadline: float | None = None  # the run's deadline: set by the first call, budget_s later
        self.patience_s = patience_s
        self._down_until = 0.0
        self._down_reason = ""
        self.auth_error: str | None = None  # the one message a rejected token gets
        #: called with (citations answered, citations asked, what we wait for) as a lookup proceeds
        self.on_progress: Callable[[int, int, str], None] | None = None
        self._clusters: OrderedDict[str, dict[str, Any]] = OrderedDict()  # raw cluster JSON by id, small LRU
        #: the keys a lookup answered with each case (by record id, small LRU): what its text is worth
        self._found_by: OrderedDict[str, tuple[CiteKey, ...]] = OrderedDict()
        #: name searches answered (small LRU): an editor asks the same names at every pause
        self._names: OrderedDict[tuple[str, tuple[int, int] | None], tuple[CaseRecord, ...]] = OrderedDict()

    @property
    def description(self) -> str:
        return f"CourtListener ({self.base_url})"

    @property
    def work_order(self) -> WorkOrder | None:
        """The order of value this client spends its allowance in (the chain's ``work_order``)."""
        return self.pacer.order

    def _call_deadline(self) -> float | None:
        """The earlier of the run's deadline and this call's patience."""
        if self.deadline is None and self.budget_s is not None:
            self.deadline = self._clock() + self.budget_s
        ends = [d for d in (self.deadline, None if self.patience_s is None else self._clock() + self.patience_s)
                if d is not None]  # fmt: skip
        return min(ends) if ends else None

    # ------------------------------------------------------------------ HTTP
    async def _request(
        self,
        method: str,
        url: str,
        *,
        citations: int = 0,
        deadline: float | None = None,
        work: Work | None = None,
        fill: Callable[[], dict[str, Any]] | None = None,
        **kw: Any,
    ) -> httpx.Response:
        """One paced request. Raises Deferred, AuthenticationError, RateLimited or SourceUnavailable.

        ``work`` tells the pacer what the request is worth against other callers waiting at the same
        time; ``fill``, called once the slot is granted, gives more arguments of the request (what a
        lookup carries is chosen then: the view may have scrolled during the wait)."""
        # one retry rule (sources/retry.py), one budget per kind of failure: timeouts and dropped
        # connections back off here; 429s and 5xx wait as the pacer holds
        timeouts = Backoff(tries=self.timeout_retries, base_s=self.backoff_s)
        throttled = Backoff(tries=self.retries)
        failed = Backoff(tries=self.retries)
        while True:
            self._refuse_when_down_or_late(deadline)
            try:
                stamp = await self.pacer.acquire(citations, deadline=deadline, work=work)
            except AuthenticationError as exc:
                self.auth_error = str(exc)
                raise
            if fill is not None:
                kw.update(fill())  # once: a retry resends what was chosen
                fill = None
            limit = self.timeout_s
            cut_by_deadline = False
            if deadline is not None and deadline - self._clock() < limit:
                limit, cut_by_deadline = deadline - self._clock(), True
                if limit <= 0:
                    raise Deferred("the run's time limit for CourtListener was reached", until=self._clock())
            try:
                # the whole exchange, body included, has one deadline: a server trickling one byte a
                # second never trips httpx's per-read timeout
                async with asyncio.timeout(limit):
                    resp = await self._client.request(method, url, **kw)
            except httpx.ConnectError as exc:
                self._mark_down(f"cannot connect to {self.base_url}: {exc.__class__.__name__}")
                raise SourceUnavailable(self._down_reason) from exc
            except (
                TimeoutError,
                httpx.TimeoutException,
                httpx.NetworkError,
                httpx.RemoteProtocolError,
            ) as exc:
                if cut_by_deadline and isinstance(exc, TimeoutError | httpx.TimeoutException):
                    # our deadline, not the server, ended it: the work is pending, the server not down
                    raise Deferred(
                        "the run's time limit for CourtListener was reached", until=self._clock()
                    ) from exc
                pause = timeouts.next()
                if pause is None:
                    self._mark_down(f"{self.base_url} timed out or dropped the connection")
                    raise SourceUnavailable(self._down_reason) from exc
                await self._sleep(pause)
                continue
            except (httpx.HTTPError, httpx.InvalidURL) as exc:  # bad URL, unsupported scheme, …
                raise SourceUnavailable(f"cannot use {self.base_url}: {exc}") from exc
            await self.pacer.completed(stamp)
            if await self._again(resp, throttled, failed):
                continue  # acquire() waits for the hold, or defers past the deadline
            await self.pacer.succeeded()
            return resp

    def _refuse_when_down_or_late(self, deadline: float | None) -> None:
        """Raises SourceUnavailable while the service is taken for down, Deferred past the run's deadline."""
        now = self._clock()
        if now < self._down_until:
            raise SourceUnavailable(f"{self._down_reason} (not retrying for {self._down_until - now:.0f}s)")
        if deadline is not None and self._clock() >= deadline:
            raise Deferred("the run's time limit for CourtListener was reached", until=self._clock())

    async def _again(self, resp: httpx.Response, throttled: Backoff, failed: Backoff) -> bool:
        """Whether the answer's status asks for the request again (429: the pacer holds; 5xx: it backs off).
        Raises AuthenticationError for a refused token, RateLimited / SourceUnavailable when the retries of
        that kind are spent."""
        status = resp.status_code
        if status in (401, 403):
            await self.pacer.token_rejected()
            self.auth_error = (
                f"CourtListener refused the token (HTTP {status}); no lookups are sent until it changes — "
                "check CITECHECK_COURTLISTENER_TOKEN"
            )
            raise AuthenticationError(self.auth_error)
        if status == 429:
            wait = _parse_wait(resp, self._clock())
            if wait is None:
                await self.pacer.failed("CourtListener's rate limit (HTTP 429)")
            else:
                await self.pacer.hold(
                    self._clock() + wait, "CourtListener's rate limit (it asked us to wait, HTTP 429)"
                )
            if throttled.next() is None:
                raise RateLimited("CourtListener keeps throttling requests", retry_after=wait)
            return True
        if status >= 500:
            await self.pacer.failed(f"CourtListener to recover (HTTP {status}; backing off)")
            if failed.next() is None:
                raise SourceUnavailable(f"CourtListener answered HTTP {status} after {self.retries} retries")
            return True
        return False

    def _mark_down(self, reason: str) -> None:
        self._down_reason = reason
        self._down_until = self._clock() + self.quiet_after_failure_s

    async def _json(
        self, method: str, path: str, *, citations: int = 0, deadline: float | None = None, **kw: Any
    ) -> Any:
        resp = await self._request(
            method, urljoin(self.base_url, path), citations=citations, deadline=deadline, **kw
        )
        if resp.status_code == 404:
            return None
        if 300 <= resp.status_code < 400:  # never followed (the token would go along): no answer at all
            where = resp.headers.get("Location", "")[:120]
            raise BadResponse(
                f"CourtListener answered HTTP {resp.status_code} (a redirect{f' to {where}' if where else ''}) to "
                f"{path}; it is not followed and its body is not an answer"
            )
        if not 200 <= resp.status_code < 300:
            raise BadResponse(
                f"CourtListener answered HTTP {resp.status_code} to {path}: {resp.text[:200]!r}"
            )
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
        raw = cluster.get("citations")
        for c in raw if isinstance(raw, list) else []:
            if (
                not isinstance(c, dict)
                or c.get("volume") in (None, "")
                or not isinstance(c.get("reporter"), str)
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
            name=_text(cluster.get("case_name"))
            or _text(cluster.get("case_name_full"))
            or _text(cluster.get("case_name_short"))
            or "",
            name_short=_text(cluster.get("case_name_short")) or None,
            name_full=_text(cluster.get("case_name_full")) or None,
            decision_date=_text(cluster.get("date_filed")) or None,
            citations=tuple(cites),
            url=urljoin(origin, absolute) if isinstance(absolute, str) and absolute else None,
        )

    def _remember(self, cid: str, cluster: dict[str, Any]) -> None:
        self._clusters[cid] = cluster
        self._clusters.move_to_end(cid)
        while len(self._clusters) > 256:
            self._clusters.popitem(last=False)

    # ------------------------------------------------------------------ lookup
    async def lookup(self, keys: Sequence[CiteKey]) -> dict[CiteKey, LookupResult]:
        """Answer ``keys`` in order of value (``pacing.WorkOrder``): what the user sees first (when the
        client says), then what an earlier run left pending (in the order it was left), then the
        caller's order (file order). The order is taken again before every request, so a scroll
        re-orders what is still queued."""
        deadline = self._call_deadline()
        norm = {k: CiteKey(k.volume, normalise_reporter(k.reporter), k.page) for k in keys}
        results: dict[CiteKey, LookupResult] = {}
        pending = list(dict.fromkeys(keys))
        earlier = await self._pending_positions(pending)
        # what this call would send, for the pacer to weigh against other callers (one Work per call:
        # its requests keep the place the call came in)
        work = Work(keys=lambda: pending, earlier=earlier)

        def choose(size: int) -> tuple[str, dict[int, CiteKey]]:
            """The slot is granted: the ``size`` citations worth most now fill it."""
            nonlocal pending
            pending = self.pacer.order.arrange(pending, earlier=earlier)
            return batches(pending[:size])[0]

        server_cap = MAX_CITES_PER_REQUEST
        while pending:
            size = self._batch_size(server_cap, len(pending))
            try:
                # wait for the slot first, then choose what fills it: a scroll during the wait counts
                answered, overflow, starts = await self._lookup_text(
                    partial(choose, size), norm, citations=size, deadline=deadline, work=work
                )
            except Deferred as exc:
                pending = self.pacer.order.arrange(pending, earlier=earlier)  # left in order of value
                for k in pending:
                    results[k] = self._waiting(k, exc)
                await self._remember_pending(pending, exc.until)
                pending = []
                break
            except SourceError as exc:
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
            self._note_found(answered)
            await self._forget_pending(list(answered))
            if self.on_progress is not None:
                self.on_progress(len(results), len(keys), "")
            batch_keys = list(starts.values())
            rest = pending[len(batch_keys) :]
            if overflow:
                # the service looked up fewer than we sent: size later requests to what it took, and
                # back off before resending (never an immediate resend storm)
                server_cap = max(1, len(batch_keys) - len(overflow))
                await self.pacer.failed(
                    "CourtListener's per-request limit (it looked up only part of a request)"
                )
            pending = [k for k in batch_keys if k in overflow] + rest
            for k in batch_keys:
                if k not in results and k not in overflow:
                    results[k] = self._cannot(k, "CourtListener did not recognise this as a case citation")
        # courts cost a request per case: only once every citation has its answer (value first)
        if self.fetch_courts and not any(r.pending_until for r in results.values()):
            results = await self._with_courts(results, deadline, replace(work, keys=lambda: results))
        return results

    def _batch_size(self, server_cap: int, pending: int) -> int:
        """How many citations the next request carries: what the service takes, and what the pacer's window
        allows now (when it is spent, the next window's worth, waited for)."""
        free = self.pacer.citations_free()
        rate = self.pacer.citation_rate
        size = server_cap
        if free is not None and rate is not None:
            size = min(size, free if free > 0 else rate.count)
        return max(1, min(size, pending))

    def _waiting(self, key: CiteKey, why: Deferred) -> LookupResult:
        left = why.until - self._clock()
        when = (
            f" until {datetime.fromtimestamp(why.until).strftime('%H:%M')} ({about(left)})"
            if left > 1
            else ""
        )
        return LookupResult(
            key=key,
            status=LookupStatus.CANNOT_VERIFY,
            reason=f"not checked yet: {why}{when}",
            pending_until=why.until,
        )

    def _note_found(self, answered: dict[CiteKey, LookupResult]) -> None:
        """Remember which of the caller's keys found each case: its text is worth what they are."""
        for k, res in answered.items():
            for r in (*res.records, *((res.containing,) if res.containing else ())):
                self._found_by[r.id] = (*self._found_by.pop(r.id, ()), k)[-8:]
        while len(self._found_by) > 4096:
            self._found_by.popitem(last=False)

    def _needed_by(self, record: CaseRecord) -> tuple[CiteKey, ...]:
        """The keys whose value a fetch of ``record``'s text has (``Work.keys`` for ``opinion``)."""
        return (*self._found_by.get(record.id, ()), *(c.key for c in record.citations))

    async def _pending_positions(self, keys: Sequence[CiteKey]) -> dict[CiteKey, int]:
        """Where an earlier run left each of ``keys`` in the cache's pending list (read back to order work)."""
        read = getattr(self.store, "pending_positions", None)
        if read is None or not keys:
            return {}
        try:
            return dict(await read(keys))
        except Exception:  # a broken cache loses only the order, never the work
            return {}

    async def _remember_pending(self, keys: Sequence[CiteKey], until: float) -> None:
        put = getattr(self.store, "put_pending", None)
        if put is not None:
            try:
                await put(keys, until)
            except Exception:  # persistence is a convenience; the answer is still "waiting"
                pass

    async def _forget_pending(self, keys: Sequence[CiteKey]) -> None:
        drop = getattr(self.store, "drop_pending", None)
        if drop is not None and keys:
            try:
                await drop(keys)
            except Exception:
                pass

    async def _with_courts(
        self, results: dict[CiteKey, LookupResult], deadline: float | None, work: Work | None = None
    ) -> dict[CiteKey, LookupResult]:
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
            if isinstance(docket, int) and not isinstance(docket, bool):
                try:
                    data = await self._json("GET", f"dockets/{docket}/", params={"fields": "id,court_id"},
                                            deadline=deadline, work=work)  # fmt: skip
                except SourceError:
                    break  # out of time or allowance: the court check is skipped, nothing else is lost
                if isinstance(data, dict) and isinstance(data.get("court_id"), str):
                    court = data["court_id"]
            self._courts[cid] = court

        def fix(r: CaseRecord | None) -> CaseRecord | None:
            return None if r is None else _fixed(r)

        def _fixed(r: CaseRecord) -> CaseRecord:
            if r.court_id is not None or not r.id.startswith("cl:"):
                return r
            court = self._courts.get(r.id[3:])
            return replace(r, court_id=court) if court else r

        return {
            k: replace(res, records=tuple(_fixed(r) for r in res.records), containing=fix(res.containing))
            for k, res in results.items()
        }

    def _cannot(self, key: CiteKey, reason: str, containing: CaseRecord | None = None) -> LookupResult:
        return LookupResult(
            key=key, status=LookupStatus.CANNOT_VERIFY, source=self.name, reason=reason, containing=containing
        )

    async def _lookup_text(
        self,
        choose: Callable[[], tuple[str, dict[int, CiteKey]]],
        norm: dict[CiteKey, CiteKey],
        *,
        citations: int = 0,
        deadline: float | None = None,
        work: Work | None = None,
    ) -> tuple[dict[CiteKey, LookupResult], set[CiteKey], dict[int, CiteKey]]:
        """One citation-lookup request; ``choose`` gives its text and offsets once the slot is granted.

        ``citations`` is what the pacer counts: the most ``choose`` will put in (it may put fewer
        when the text would pass 64,000 characters; counting more than was sent only paces us safer)."""
        chosen: list[dict[int, CiteKey]] = []

        def fill() -> dict[str, Any]:
            text, starts = choose()
            chosen.append(starts)
            return {"data": {"text": text}}

        data = await self._json("POST", "citation-lookup/", fill=fill, citations=citations, deadline=deadline,
                                work=work)  # fmt: skip
        starts = chosen[0]
        if not isinstance(data, list):
            raise BadResponse("citation-lookup did not answer with a list")
        by_string = {str(norm[k]): k for k in starts.values()}
        out: dict[CiteKey, LookupResult] = {}
        overflow: set[CiteKey] = set()
        for entry in data:
            if not isinstance(entry, dict):
                raise BadResponse("citation-lookup entry is not an object")
            raw_norm = entry.get("normalized_citations")
            normalized = [x for x in raw_norm if isinstance(x, str)] if isinstance(raw_norm, list) else []
            start = entry.get("start_index")
            key = starts.get(start) if isinstance(start, int) and not isinstance(start, bool) else None
            if key is not None and str(norm[key]) not in normalized and entry.get("citation") != str(key):
                key = None  # offsets do not line up with what we sent: trust the citation string instead
            if key is None:
                for s in normalized:
                    key = by_string.get(s)
                    if key:
                        break
            if key is None or key in out:
                continue
            status = entry.get("status")
            if status == 429 and not isinstance(status, bool):
                overflow.add(key)
                continue
            out[key] = self._map_entry(key, norm[key], status, entry)
        return out, overflow, starts

    def _malformed(self, entry: dict[str, Any], status: Any) -> str | None:
        """What is wrong with an entry's shape, or None when it is the documented one."""
        if not isinstance(status, int) or isinstance(status, bool) or status not in (200, 300, 400, 404):
            return f"an unexpected status {status!r}"
        clusters = entry.get("clusters")
        if not isinstance(clusters, list):
            return "no list of clusters"
        if status == 200 and not clusters:
            return "status 200 without a cluster"
        if status in (400, 404):
            return "clusters with a not-found status" if clusters else None
        for c in clusters:
            problem = _malformed_cluster(c)
            if problem is not None:
                return problem
        if "citecheck_volume_complete" in entry and not isinstance(entry["citecheck_volume_complete"], bool):
            return "a volume-coverage flag that is not true or false"
        return None

    def _map_entry(self, key: CiteKey, nkey: CiteKey, status: Any, entry: dict[str, Any]) -> LookupResult:
        where = (
            "CourtListener" if self.assume_courtlistener_coverage else f"the corpus server at {self.base_url}"
        )
        problem = self._malformed(entry, status)
        if problem is not None:
            # a broken or changed service must never accuse a real case
            return self._cannot(
                key, f"{where} sent an answer for {nkey} that citecheck cannot use ({problem})"
            )
        covered, last_page = self._coverage(entry, nkey)
        label = str(nkey)
        vol = f"{nkey.volume} {nkey.reporter}"
        if status in (200, 300):
            return self._clusters_at(key, nkey, entry, where, covered, last_page)
        if status == 404:
            if covered:
                return self._absent(
                    key, f"{where}, which holds all of {vol}, has no case at {label}", last_page
                )
            return self._cannot(key, f"not in {where}, whose coverage of {vol} is not complete")
        return self._cannot(key, f"{where} does not know the reporter of {label}")

    def _absent(
        self, key: CiteKey, reason: str, last_page: str | None, containing: CaseRecord | None = None
    ) -> LookupResult:
        """No case begins at the citation in a volume the service holds whole: the judge weighs this absence."""
        return LookupResult(
            key=key,
            status=LookupStatus.NOT_FOUND,
            source=self.name,
            reason=reason,
            containing=containing,
            volume_complete=True,
            volume_last_page=last_page,
        )

    def _coverage(self, entry: dict[str, Any], nkey: CiteKey) -> tuple[bool, str | None]:
        """Whether the answering service holds all of the cited volume, and its last page when it says."""
        if "citecheck_volume_complete" not in entry:
            return self.assume_courtlistener_coverage and courtlistener_covers(
                nkey.reporter, nkey.volume
            ), None
        # a citecheck corpus server says what it holds
        covered = entry["citecheck_volume_complete"] is True
        last_page = entry.get("citecheck_volume_last_page") if covered else None
        return covered, last_page if isinstance(last_page, str) else None

    def _clusters_at(
        self,
        key: CiteKey,
        nkey: CiteKey,
        entry: dict[str, Any],
        where: str,
        covered: bool,
        last_page: str | None,
    ) -> LookupResult:
        """An answer with clusters (status 200 or 300): the case(s) beginning at the citation, else the one the
        page is inside."""
        label = str(nkey)
        vol = f"{nkey.volume} {nkey.reporter}"
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
        if covered and containing is not None:
            reason = f"no case begins at {label} in {where}, which holds all of {vol}"
            return self._absent(key, reason, last_page, containing)
        return self._cannot(
            key,
            f"no case begins at {label} in {where} (its coverage of {vol} is not complete)"
            if not covered
            else f"{where} answered {label} with several cases, none beginning there",
            containing,
        )

    # ------------------------------------------------------------------ text
    async def cluster(
        self, cluster_id: str, *, deadline: float | None = None, work: Work | None = None
    ) -> dict[str, Any] | None:
        if cluster_id in self._clusters:
            return self._clusters[cluster_id]
        data = await self._json("GET", f"clusters/{cluster_id}/", deadline=deadline, work=work)
        if data is None:
            return None
        if not isinstance(data, dict):
            raise BadResponse(f"cluster {cluster_id} is not an object")
        self._remember(cluster_id, data)
        return data

    async def opinion(self, record: CaseRecord) -> OpinionText | None:
        """The case's text. Raises a SourceError (Deferred while waiting for the allowance) when it
        could not be fetched, so the checks that needed it can say so instead of passing."""
        if not record.id.startswith("cl:"):
            return None
        deadline = self._call_deadline()
        work = Work(keys=partial(self._needed_by, record))  # worth what the best citation needing it is
        cid = record.id[3:]
        cluster = await self.cluster(cid, deadline=deadline, work=work)
        if cluster is None:
            return None
        subs = cluster.get("sub_opinions")
        if not isinstance(subs, list):
            raise BadResponse(f"cluster {cid} has no list of opinions")
        op_ids = []
        for url in subs:
            m = _OPINION_ID.search(str(url))
            if m:
                op_ids.append(int(m.group(1)))
        fields = ",".join(("id", "type", *TEXT_FIELDS))
        head = cluster.get("headmatter")
        parts = [html_to_text(head if isinstance(head, str) else "")]
        texts = 0
        for oid in sorted(op_ids):
            op = await self._json("GET", f"opinions/{oid}/", params={"fields": fields}, deadline=deadline,
                                  work=work)  # fmt: skip
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
        # The opinions themselves, without the cluster's head matter, must be the case's: a maintenance
        # page or another case's text behind real head matter would otherwise pass for it
        # (sources/opinion_fit.py; the whole text is checked again where it is used).
        body = join_texts(parts[1:])
        alone = OpinionText(case_id=record.id, text=body.text, page_maps=page_maps(body.markers, cites))
        if (unfit := why_unfit(replace(record, citations=cites or record.citations), alone)) is not None:
            raise BadResponse(f"CourtListener's answer was not usable: {unfit}")
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

    # ------------------------------------------------------------------ names
    async def find_by_name(
        self,
        name: str,
        *,
        limit: int = 5,
        court: str | None = None,
        years: tuple[int, int] | None = None,
    ) -> NameSearch:
        """Cases named ``name`` from the v4 search API (``type=o``, the ``case_name`` field), paced like every
        request, scored here with ``name_score``. Only the case name (and a window of years around the draft's)
        is sent; the court is not, as it may be the slip. Raises a SourceError like every call (the chain
        turns it into a note)."""
        from citecheck.sources.name_keys import name_score

        if not self.search_names:
            return NameSearch()
        key = (name, years)
        cached = self._names.get(key)
        if cached is None:
            params: dict[str, str] = {"type": "o", "case_name": name, "order_by": "score desc"}
            if years is not None:
                params["filed_after"] = f"{years[0] - NAME_YEAR_WINDOW}-01-01"
                params["filed_before"] = f"{years[1] + NAME_YEAR_WINDOW}-12-31"
            data = await self._json("GET", "search/", params=params, deadline=self._call_deadline())
            results = data.get("results") if isinstance(data, dict) else None
            if data is not None and not isinstance(results, list):
                raise BadResponse("CourtListener's search did not answer with a list of results")
            records = [r for x in (results or [])[:NAME_RESULTS] if (r := self._record_from_result(x))]
            cached = tuple(records)
            self._names[key] = cached
            while len(self._names) > 512:
                self._names.popitem(last=False)
        hits = [
            NameHit(record=r, score=s, source=self.name)
            for r in cached
            if (s := name_score(name, r.names)) > 0
        ]
        hits.sort(key=lambda h: (-h.score, 0 if court is None or h.record.court_id == court else 1))
        return NameSearch(hits=tuple(hits[:limit]), asked=("CourtListener",))

    async def search_citing(self, cite: str, *, limit: int = 20) -> list[dict[str, Any]]:
        """Opinions citing ``cite`` whose words hold a cue of negative treatment: the v4 search API (``type=o``,
        highlighted snippets), paced like every request, and only while the allowance has room to spare
        (``Pacer.spare``: never waiting, never more than half of a window — ``Deferred`` otherwise). Only the
        citation string and fixed words are sent.
        Each result: ``{"cluster_id", "caseName", "citation", "court_id", "dateFiled", "absolute_url",
        "snippets"}``, hostile values dropped (``sources/treatment/online.py`` reads them)."""
        if not await self.pacer.spare():
            raise Deferred(
                "the treatment search leaves the allowance to the lookups", until=self.pacer.clock()
            )
        query = f'"{cite}" AND (overruled OR overruling OR abrogated OR superseded OR disapproved OR receded)'
        params = {"type": "o", "q": query, "highlight": "on", "order_by": "dateFiled desc"}
        data = await self._json("GET", "search/", params=params, deadline=self._call_deadline())
        results = data.get("results") if isinstance(data, dict) else None
        if data is not None and not isinstance(results, list):
            raise BadResponse("CourtListener's search did not answer with a list of results")
        rows = (self._citing_row(r) for r in (results or [])[:limit])
        return [row for row in rows if row is not None]

    def _citing_row(self, r: Any) -> dict[str, Any] | None:
        """One search result as ``search_citing`` gives it, or None (not an object, or no snippet)."""
        if not isinstance(r, dict):
            return None
        found = [o.get("snippet") for o in r.get("opinions") or [] if isinstance(o, dict)] + [
            r.get("snippet")
        ]
        snippets = [x[:5000] for x in found if isinstance(x, str) and x.strip()]
        if not snippets:
            return None
        rec = self._record_from_result(r)
        raw = r.get("citation")
        return {
            "cluster_id": r.get("cluster_id") if isinstance(r.get("cluster_id"), int) else None,
            "caseName": _text(r.get("caseName"))[:500],
            "citation": [str(c)[:60] for c in raw[:12] if isinstance(c, str)]
            if isinstance(raw, list)
            else [],
            "court_id": _text(r.get("court_id"))[:40] or None,
            "dateFiled": _text(r.get("dateFiled"))[:10] or None,
            "absolute_url": rec.url if rec is not None else None,
            "snippets": snippets,
        }

    def _record_from_result(self, r: Any) -> CaseRecord | None:
        """A CaseRecord from one search result (hostile data: only well-formed strings are kept)."""
        if not isinstance(r, dict):
            return None
        cid = r.get("cluster_id")
        if not isinstance(cid, int) or isinstance(cid, bool):
            return None
        name = _text(r.get("caseName"))[:500]
        if not name:
            return None
        cites = []
        raw = r.get("citation")
        for c in raw[:12] if isinstance(raw, list) else []:
            m = _CITE_STRING.match(c) if isinstance(c, str) else None
            if m:
                cites.append(
                    CaseCite(volume=m.group(1), reporter=normalise_reporter(m.group(2)), page=m.group(3))
                )
        if not cites:
            return None  # an unreported decision: no citation to propose
        court = _text(r.get("court_id"))
        date = _text(r.get("dateFiled"))[:10]
        absolute = _text(r.get("absolute_url"))
        origin = "{0.scheme}://{0.netloc}".format(urlsplit(self.base_url))
        return CaseRecord(
            id=f"cl:{cid}",
            source="courtlistener",
            name=name,
            name_full=_text(r.get("caseNameFull"))[:2000] or None,
            court_id=court if re.fullmatch(r"[a-z0-9]{1,20}", court) else None,
            court_name=_text(r.get("court"))[:200] or None,
            decision_date=date if re.fullmatch(r"\d{4}-\d{2}-\d{2}", date) else None,
            citations=tuple(cites),
            url=urljoin(origin, absolute) if absolute.startswith("/") else None,
        )

    async def close(self) -> None:
        if self._own_client:
            await self._client.aclose()
