"""A loopback stand-in for CourtListener v4 that enforces its documented limits, for tests and bench.

citecheck never starts it by itself: ``tests/sources/test_pacing.py``, the CLI tests and
``bench/courtlistener_pacing.py`` do, to see what our client does against the real service's rules
(``docs/sources.md``, the CourtListener notes):

- every route shares the per-user request throttle (``5/min`` for a free account; 429 with
  ``Retry-After`` and ``{"detail": ...}``);
- citation-lookup also counts looked-up citations (``60/min``): a request is admitted while the
  window holds fewer than the limit, after which the user is blocked for ``max(count/limit, 1)``
  windows (429 with ``{"wait_until": ISO-8601}``); only the first 250 citations of a request are
  looked up, the rest come back with ``status 429``.

Every citation is a case (all named ``case_name``) unless listed in ``missing`` (404). Clusters, opinions (with
star pagination) and dockets are served for the cases it has answered. ``search/`` (v4, ``type=o``) finds the
cases of ``named`` (search-result objects as the v4 API returns them: ``cluster_id``, ``caseName``,
``caseNameFull``, ``citation`` strings, ``court_id``, ``dateFiled``, ``absolute_url``) whose ``caseName`` holds
every word of ``case_name``, within ``filed_after``/``filed_before``; a full-text query (``q=``) finds the results
of ``citing`` whose snippets hold its quoted phrase (the treatment search); ``searches`` records each query's
parameters (what left the client). ``time_scale`` shrinks the
windows (``1/60``: a minute lasts one second). Faults are scripted per request: ``faults`` is a
queue consumed one per request, ``always`` applies to every request. It binds 127.0.0.1 only.
"""

from __future__ import annotations

import json
import re
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from http.server import BaseHTTPRequestHandler
from typing import Any
from urllib.parse import parse_qs, urlsplit

from citecheck.sources.corpus_server import QuietHTTPServer, find_cites
from citecheck.sources.pacing import parse_rates

PREFIX = "/api/rest/v4/"


@dataclass
class Fault:
    """One scripted misbehaviour. ``kind``: "status" (answer ``status`` with ``body``/``headers``),
    "lookup" (answer citation-lookup with ``mangle(entries)`` instead of the entries), "trickle"
    (send the real answer at ``bytes_per_s``), "hang" (say nothing for ``seconds``)."""

    kind: str
    status: int = 200
    body: Any = None
    headers: dict[str, str] = field(default_factory=dict)
    mangle: Callable[[list[dict[str, Any]]], Any] | None = None
    bytes_per_s: float = 1.0
    seconds: float = 0.0


@dataclass
class Counts:
    requests: int = 0  # every request received
    admitted: int = 0  # requests that passed the throttles
    lookups: int = 0  # admitted citation-lookup requests
    citations: int = 0  # citations looked up (status other than 429)
    throttled: int = 0  # whole-request 429s
    entry_429: int = 0  # citations returned with status 429 (past the per-request cap)
    by_route: dict[str, int] = field(default_factory=dict)
    times: list[float] = field(default_factory=list)  # when each request arrived


class FakeCourtListener:
    def __init__(
        self,
        *,
        request_rates: str = "5/min,50/hour,125/day",
        citation_rate: str = "60/min",
        time_scale: float = 1.0,
        max_citations: int = 250,
        missing: frozenset[str] = frozenset(),
        token: str | None = None,
        case_name: str = "Alpha v. Beta",
        named: tuple[dict[str, Any], ...] = (),
        citing: tuple[dict[str, Any], ...] = (),
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.request_rates = parse_rates(request_rates, time_scale=time_scale)
        cites = parse_rates(citation_rate, time_scale=time_scale)
        self.citation_rate = cites[0] if cites else None
        self.max_citations = max_citations
        self.missing = missing
        self.token = token
        self.case_name = case_name
        self.named = named
        #: search results of a full-text query (``q=``): those whose snippets hold its first quoted phrase
        self.citing = citing
        self.searches: list[dict[str, list[str]]] = []
        self.clock = clock
        self.faults: list[Fault] = []
        self.always: Fault | None = None
        #: "vol reporter page" → a cluster JSON to serve for that case instead of the made-up one (its
        #: ``id`` and ``sub_opinions`` are replaced with the stand-in's own)
        self.cluster_json: dict[str, dict[str, Any]] = {}
        #: answers ``opinions/<id>/`` instead of the made-up text: cluster → (status, JSON or raw bytes)
        self.opinion_answer: Callable[[dict[str, Any]], tuple[int, Any]] | None = None
        self.counts = Counts()
        self._lock = threading.Lock()
        self._requests: list[float] = []
        self._citations: list[tuple[float, int]] = []
        self._blocked_until = 0.0
        self._clusters: dict[int, dict[str, Any]] = {}
        self._ids: dict[str, int] = {}
        self.looked_up: set[str] = set()  # every citation answered 200/404 at least once
        self.lookup_order: list[str] = []  # "vol reporter page" of every citation looked up, in order
        self._httpd: QuietHTTPServer | None = None

    # ------------------------------------------------------------------ lifecycle
    def start(self) -> FakeCourtListener:
        outer = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_GET(self) -> None:
                outer._handle(self, "GET")

            def do_POST(self) -> None:
                outer._handle(self, "POST")

            def log_message(self, *args: Any) -> None:
                pass

        self._httpd = QuietHTTPServer(("127.0.0.1", 0), Handler)
        self._httpd.daemon_threads = True
        threading.Thread(
            target=self._httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        ).start()
        return self

    @property
    def base_url(self) -> str:
        assert self._httpd is not None
        return f"http://127.0.0.1:{self._httpd.server_address[1]}{PREFIX}"

    def stop(self) -> None:
        if self._httpd is not None:
            self._httpd.shutdown()
            self._httpd.server_close()
            self._httpd = None

    def __enter__(self) -> FakeCourtListener:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # ------------------------------------------------------------------ throttles
    def _request_throttle(self, now: float) -> float | None:
        """Seconds to wait, or None when the request may pass (then it is counted)."""
        longest = max((r.window_s for r in self.request_rates), default=0.0)
        self._requests = [t for t in self._requests if t > now - longest]
        waits = []
        for rate in self.request_rates:
            inside = [t for t in self._requests if t > now - rate.window_s]
            if len(inside) >= rate.count:
                waits.append(inside[len(inside) - rate.count] + rate.window_s - now)
        if waits:
            return max(waits)
        self._requests.append(now)
        return None

    def _citation_throttle(self, now: float, n: int) -> float | None:
        """CourtListener's CitationCountRateThrottle: admitted while the window holds < limit."""
        rate = self.citation_rate
        if rate is None:
            return None
        if now < self._blocked_until:
            return self._blocked_until
        self._citations = [(t, c) for t, c in self._citations if t > now - rate.window_s]
        used = sum(c for _, c in self._citations)
        if used >= rate.count:
            return self._citations[0][0] + rate.window_s
        self._citations.append((now, n))
        total = used + n
        if total > rate.count:  # a proportional block: 250 citations at 60/min → about four minutes
            self._blocked_until = now + max(total / rate.count, 1.0) * rate.window_s
        return None

    # ------------------------------------------------------------------ serving
    def _handle(self, h: BaseHTTPRequestHandler, method: str) -> None:
        length = int(h.headers.get("Content-Length") or 0)
        body = h.rfile.read(length) if length else b""
        url = urlsplit(h.path)
        route = url.path[len(PREFIX) :] if url.path.startswith(PREFIX) else url.path
        now = self.clock()
        with self._lock:
            self.counts.requests += 1
            self.counts.times.append(now)
            name = route.split("/")[0]
            self.counts.by_route[name] = self.counts.by_route.get(name, 0) + 1
            fault = self.faults.pop(0) if self.faults else self.always
        if fault is not None and fault.kind == "hang":
            time.sleep(fault.seconds)
            return
        if fault is not None and fault.kind == "status":
            return self._send(h, fault.status, fault.body, fault.headers)
        if self.token is not None and h.headers.get("Authorization") != f"Token {self.token}":
            return self._send(h, 401, {"detail": "Invalid token."}, {"WWW-Authenticate": "Bearer"})
        with self._lock:
            wait = self._request_throttle(now)
            if wait is not None:
                self.counts.throttled += 1
                return self._send(
                    h, 429, {"detail": f"Request was throttled. Expected available in {wait:.3f} seconds."},
                    {"Retry-After": f"{wait:.3f}"},
                )  # fmt: skip
        status, payload = self._route(method, route, url.query, body, now, fault)
        if fault is not None and fault.kind == "trickle":
            return self._send(h, status, payload, trickle=fault.bytes_per_s)
        self._send(h, status, payload)

    def _route(
        self, method: str, route: str, query: str, body: bytes, now: float, fault: Fault | None
    ) -> tuple[int, Any]:
        parts = [p for p in route.split("/") if p]
        if method == "POST" and parts == ["citation-lookup"]:
            return self._lookup(body, now, fault)
        if method == "GET" and parts == ["search"]:
            return self._search(parse_qs(query))
        if method == "GET" and len(parts) == 2 and parts[1].isdigit():
            with self._lock:
                cluster = self._clusters.get(int(parts[1]))
            if cluster is not None and parts[0] == "clusters":
                return 200, cluster
            if cluster is not None and parts[0] == "opinions":
                if self.opinion_answer is not None:
                    return self.opinion_answer(cluster)
                return 200, self._opinion(cluster)
            if cluster is not None and parts[0] == "dockets":
                return 200, {"id": cluster["id"], "court_id": "scotus"}
        return 404, {"detail": "Not found."}

    def _lookup(self, body: bytes, now: float, fault: Fault | None) -> tuple[int, Any]:
        form = parse_qs(body.decode("utf-8", "replace"))
        text = (form.get("text") or [""])[0]
        if len(text) > 64_000:
            return 400, {"text": ["Ensure this field has no more than 64000 characters."]}
        cites = find_cites(text)
        with self._lock:
            blocked = self._citation_throttle(now, len(cites))
            if blocked is not None:
                self.counts.throttled += 1
                until = datetime.fromtimestamp(blocked, UTC).isoformat()
                return 429, {
                    "error_message": "Too many requests (allowed rate: 60/min).",
                    "wait_until": until,
                }
            self.counts.admitted += 1
            self.counts.lookups += 1
        entries = []
        for i, (start, end, vol, rep, page) in enumerate(cites):
            label = f"{vol} {rep} {page}"
            entry: dict[str, Any] = {"citation": text[start:end], "normalized_citations": [label],
                                     "start_index": start, "end_index": end, "error_message": "",
                                     "clusters": []}  # fmt: skip
            if i >= self.max_citations:
                entry.update(status=429, error_message="Too many citations requested.")
                with self._lock:
                    self.counts.entry_429 += 1
            elif label in self.missing:
                entry.update(status=404, error_message=f"Citation not found: '{label}'")
            else:
                entry.update(status=200, clusters=[self._cluster(label, vol, rep, page)])
            if entry["status"] != 429:
                with self._lock:
                    self.counts.citations += 1
                    self.looked_up.add(label)
                    self.lookup_order.append(label)
            entries.append(entry)
        if fault is not None and fault.kind == "lookup" and fault.mangle is not None:
            return 200, fault.mangle(entries)
        return 200, entries

    def _search(self, q: dict[str, list[str]]) -> tuple[int, Any]:
        """The v4 search API's opinion search, as far as a name search uses it."""
        with self._lock:
            self.searches.append(q)
        if (q.get("type") or ["o"])[0] != "o":
            return 400, {"detail": "only type=o is modelled"}
        if q.get("q"):
            phrase = re.search(r'"([^"]+)"', q["q"][0])
            wanted = phrase.group(1) if phrase else q["q"][0]
            hits = [
                r for r in self.citing
                if any(wanted in re.sub(r"<[^>]+>", "", str(o.get("snippet", ""))) for o in r.get("opinions", ()))
            ]  # fmt: skip
            return 200, {"count": len(hits), "next": None, "previous": None, "results": hits[:20]}
        words = re.findall(r"\w+", (q.get("case_name") or [""])[0].lower())
        after, before = (q.get("filed_after") or [""])[0], (q.get("filed_before") or ["9999"])[0]
        results = [
            r
            for r in self.named
            if all(w in re.findall(r"\w+", str(r.get("caseName", "")).lower()) for w in words)
            and after <= str(r.get("dateFiled", "")) <= before
        ]
        return 200, {"count": len(results), "next": None, "previous": None, "results": results[:20]}

    def _cluster(self, label: str, vol: str, rep: str, page: str) -> dict[str, Any]:
        with self._lock:
            cid = self._ids.setdefault(label, 1000 + len(self._ids))
            if cid not in self._clusters and label in self.cluster_json:
                self._clusters[cid] = {
                    **self.cluster_json[label],
                    "id": cid,
                    "sub_opinions": [f"https://www.courtlistener.com{PREFIX}opinions/{cid}/"],
                }
            if cid not in self._clusters:
                self._clusters[cid] = {
                    "id": cid,
                    "resource_uri": f"{PREFIX}clusters/{cid}/",
                    "absolute_url": f"/opinion/{cid}/case-{cid}/",
                    "case_name": self.case_name,
                    "case_name_short": self.case_name.split(" v. ")[0],
                    "case_name_full": "",
                    "date_filed": "2000-01-01",
                    "docket_id": cid,
                    "citations": [
                        {
                            "volume": int(vol) if vol.isdigit() else vol,
                            "reporter": rep,
                            "page": page,
                            "type": 1,
                        }
                    ],
                    "sub_opinions": [f"https://www.courtlistener.com{PREFIX}opinions/{cid}/"],
                    "headmatter": "",
                }
            return self._clusters[cid]

    def add_cluster(self, cluster_id: int, cite: str, case_name: str) -> None:
        """Serve a cluster (and its opinion) by id without a lookup first: a case the client learnt of
        elsewhere (the citation index) and now fetches the text of. ``cite``: ``"410 U.S. 113"``."""
        vol, rest = cite.split(" ", 1)
        rep, page = rest.rsplit(" ", 1)
        with self._lock:
            self._clusters[cluster_id] = {
                "id": cluster_id,
                "resource_uri": f"{PREFIX}clusters/{cluster_id}/",
                "absolute_url": f"/opinion/{cluster_id}/case/",
                "case_name": case_name,
                "case_name_short": case_name.split(" v. ")[0],
                "case_name_full": "",
                "date_filed": "2000-01-01",
                "docket_id": cluster_id,
                "citations": [{"volume": vol, "reporter": rep, "page": page, "type": 1}],
                "sub_opinions": [f"https://www.courtlistener.com{PREFIX}opinions/{cluster_id}/"],
                "headmatter": "",
            }

    @staticmethod
    def _opinion(cluster: dict[str, Any]) -> dict[str, Any]:
        page = str(cluster["citations"][0]["page"])
        nxt = str(int(page) + 1) if page.isdigit() else page
        html = (f"<p>The court held that the rule applies to every case.</p>"
                f'<span class="star-pagination">*{nxt}</span><p>Affirmed.</p>')  # fmt: skip
        return {"id": cluster["id"], "type": "020lead", "html_with_citations": html}

    @staticmethod
    def _send(
        h: BaseHTTPRequestHandler,
        status: int,
        payload: Any,
        headers: dict[str, str] | None = None,
        trickle: float | None = None,
    ) -> None:
        raw = payload if isinstance(payload, bytes) else json.dumps(payload).encode()
        try:
            h.send_response(status)
            h.send_header("Content-Type", "application/json")
            for k, v in (headers or {}).items():
                h.send_header(k, v)
            h.send_header("Content-Length", str(len(raw)))
            h.end_headers()
            if trickle is None:
                h.wfile.write(raw)
                return
            for b in raw:
                h.wfile.write(bytes([b]))
                h.wfile.flush()
                time.sleep(1.0 / trickle)
        except OSError:
            pass  # the client gave up on us: that is what a test of deadlines wants
