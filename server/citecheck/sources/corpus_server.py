"""``citecheck corpus serve``: the local corpus over the CourtListener v4 routes citecheck's client uses.

A firm runs one on its own network so no lookup ever leaves it; citecheck's own client tests run
against it over loopback. Routes (same JSON shapes as CourtListener v4):

- ``POST /api/rest/v4/citation-lookup/``  (form or JSON: ``text``, or ``volume``/``reporter``/``page``)
- ``GET  /api/rest/v4/clusters/<id>/`` and ``GET /api/rest/v4/dockets/<id>/`` (for ``court_id``)
- ``GET  /api/rest/v4/opinions/<id>/``    (``?fields=`` honoured)
- ``GET  /api/rest/v4/opinions/?cluster=<id>``

Differences from the real service, on purpose: each case is ONE opinion (head matter and all
opinions joined, id = cluster id) whose ``html_with_citations`` carries our star pagination;
cluster ids are the CourtListener id for cases imported from CourtListener and 10^12 + the CAP id
for CAP cases; each citation-lookup entry carries ``citecheck_volume_complete`` (and
``citecheck_volume_last_page``) so the client claims "not found" only for volumes this corpus holds
in full — a partial corpus must never make a real case look fabricated. Citations in posted text are found by
scanning for ``volume reporter page`` with reporters known to reporters-db (no eyecite: the server must stay
small).
"""

from __future__ import annotations

import hmac
import json
import logging
import re
import threading
from collections.abc import Iterable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

from citecheck.errors import ConfigError
from citecheck.sources.corpus import Corpus
from citecheck.sources.models import CaseRecord, CiteKey, LookupStatus, OpinionText
from citecheck.sources.pagination import Marker, render_html
from citecheck.sources.reporters import is_known_reporter, normalise_reporter

log = logging.getLogger(__name__)


class QuietHTTPServer(ThreadingHTTPServer):
    """A threading HTTP server whose request errors go to logging, never to stderr.

    ``socketserver`` prints "Exception occurred during processing of request" and a traceback on
    stderr whenever a handler raises, typically because the client went away (a reset while the next
    request line is read, a pipe broken mid-answer). A client that left is debug; anything else is
    logged as an error. The loopback fakes of the tests use it too, so ``python -m pytest -q`` prints
    only dots.
    """

    daemon_threads = True

    def handle_error(self, request: Any, client_address: Any) -> None:
        import sys

        exc = sys.exc_info()[1]
        if isinstance(exc, ConnectionError | TimeoutError):
            log.debug("client %s went away: %s", client_address, exc)
        else:
            log.error("a request from %s failed: %s: %s", client_address, type(exc).__name__, exc)
            log.debug("the failed request's traceback", exc_info=exc)


API_PREFIX = "/api/rest/v4/"
MAX_TEXT = 64_000
MAX_CITATIONS = 250
CAP_ID_OFFSET = 10**12
_TOKEN = re.compile(r"\S+")
_PAGE = re.compile(r"^(\d+)")
_TYPE_CODES = {"federal": 1, "state": 2, "state_regional": 3, "specialty": 4, "scotus_early": 5, "neutral": 8}


def cluster_id_for(case_id: str, rowid: int) -> int:
    prefix, _, num = case_id.partition(":")
    if num.isdigit():
        return int(num) + (CAP_ID_OFFSET if prefix == "cap" else 0)
    return 2 * CAP_ID_OFFSET + rowid


def case_id_for(cluster_id: int) -> str:
    return (
        f"cap:{cluster_id - CAP_ID_OFFSET}"
        if CAP_ID_OFFSET <= cluster_id < 2 * CAP_ID_OFFSET
        else f"cl:{cluster_id}"
    )


def find_cites(text: str) -> list[tuple[int, int, str, str, str]]:
    """``(start, end, volume, reporter as written, page)`` for each ``volume reporter page`` in the text.

    >>> [c[2:] for c in find_cites("See 153 Conn. App. 266, 100 A.3d 1004 (2014); 2018 IL App (1st) 152522.")]
    [('153', 'Conn. App.', '266'), ('100', 'A.3d', '1004'), ('2018', 'IL App (1st)', '152522')]
    """
    toks = [(m.start(), m.group()) for m in _TOKEN.finditer(text)]
    out: list[tuple[int, int, str, str, str]] = []
    i = 0
    while i < len(toks):
        start, vol = toks[i]
        if not vol.isdigit():
            i += 1
            continue
        hit = None
        for j in range(min(6, len(toks) - i - 2), 0, -1):
            reporter = " ".join(t for _, t in toks[i + 1 : i + 1 + j])
            page_start, page_tok = toks[i + 1 + j]
            m = _PAGE.match(page_tok)
            if m and not reporter.endswith(",") and is_known_reporter(reporter):
                hit = (start, page_start + m.end(), vol, reporter, m.group(1), i + 2 + j)
                break
        if hit:
            out.append(hit[:5])
            i = hit[5]
        else:
            i += 1
    return out


class CorpusAPI:
    """The JSON logic, independent of HTTP (so it is easy to test and to embed)."""

    def __init__(self, corpus: Corpus, base_url: str) -> None:
        self.corpus = corpus
        self.base_url = base_url.rstrip("/") + "/"

    # ------------------------------------------------------------------ shapes
    def _cite_type(self, reporter: str, stored: str | None) -> int | None:
        if stored and stored.isdigit():
            return int(stored)
        import reporters_db

        root = reporters_db.EDITIONS.get(reporter)
        for rep in reporters_db.REPORTERS.get(root, ()) if root else ():
            code = _TYPE_CODES.get(rep.get("cite_type", ""))
            if code:
                return code
        return None

    def cluster_json(self, record: CaseRecord, rowid: int) -> dict[str, Any]:
        cid = cluster_id_for(record.id, rowid)
        slug = re.sub(r"[^a-z0-9]+", "-", record.name.lower()).strip("-")[:75] or "case"
        has_text = self.corpus.opinion_by_rowid(rowid) is not None
        return {
            "resource_uri": f"{self.base_url}clusters/{cid}/",
            "id": cid,
            "absolute_url": f"/opinion/{cid}/{slug}/",
            "panel": [],
            "non_participating_judges": [],
            "docket_id": cid,  # one docket per case here: same id
            "docket": f"{self.base_url}dockets/{cid}/",
            "sub_opinions": [f"{self.base_url}opinions/{cid}/"] if has_text else [],
            "citations": [
                {
                    "volume": c.volume,
                    "reporter": c.reporter,
                    "page": c.page,
                    "type": self._cite_type(c.reporter, c.type),
                }
                for c in record.citations
            ],
            "cluster_redirections": [],
            "judges": "",
            "date_filed": record.decision_date,
            "date_filed_is_approximate": False,
            "slug": slug,
            "case_name_short": record.name_short or "",
            "case_name": record.name,
            "case_name_full": record.name_full or "",
            "source": "U" if record.source == "cap" else "C",
            "precedential_status": "Published",
            "citation_count": 0,
            "blocked": False,
            "headmatter": "",
        }

    def opinion_json(self, record: CaseRecord, rowid: int, op: OpinionText) -> dict[str, Any]:
        cid = cluster_id_for(record.id, rowid)
        markers: list[Marker] = []
        for pm in op.page_maps:
            index = next(
                (
                    k
                    for k, c in enumerate(record.citations, 1)
                    if c.reporter == pm.reporter and c.volume == pm.volume
                ),
                1,
            )
            markers.extend(Marker(off, label, index) for off, label in pm.starts)
        empty = dict.fromkeys(
            ("plain_text", "html", "html_lawbox", "html_columbia", "html_anon_2020", "xml_harvard"), ""
        )
        return {
            "resource_uri": f"{self.base_url}opinions/{cid}/",
            "id": cid,
            "absolute_url": f"/opinion/{cid}/",
            "cluster_id": cid,
            "cluster": f"{self.base_url}clusters/{cid}/",
            "author_id": None,
            "author_str": "",
            "per_curiam": False,
            "joined_by": [],
            "joined_by_str": "",
            "type": "010combined",
            **empty,
            "html_with_citations": render_html(op.text, sorted(markers, key=lambda m: m.offset)),
            "extracted_by_ocr": False,
            "opinions_cited": [],
        }

    # ------------------------------------------------------------------ routes
    def citation_lookup(self, form: dict[str, str]) -> tuple[int, Any]:
        text, reporter = form.get("text"), form.get("reporter")
        if text is None and reporter is None:
            return 400, {"non_field_errors": ["Either 'text' or 'reporter' is required."]}
        if text is not None and reporter is not None:
            return 400, {
                "non_field_errors": ["Invalid request. Provide either a 'text' or 'reporter', not both."]
            }
        if text is not None:
            if len(text) > MAX_TEXT:
                return 400, {"text": [f"Ensure this field has no more than {MAX_TEXT} characters."]}
            found = find_cites(text)
        else:
            missing = {f: ["This field is required."] for f in ("volume", "page") if not form.get(f)}
            if missing:
                return 400, missing
            vol, page = form["volume"], form["page"]
            s = f"{vol} {reporter} {page}"
            found = [(0, len(s), vol, reporter or "", page)]
        out = []
        for idx, (start, end, vol, rep, page) in enumerate(found):
            as_written = text[start:end] if text is not None else f"{vol} {rep} {page}"
            entry: dict[str, Any] = {
                "citation": as_written,
                "normalized_citations": [],
                "start_index": start,
                "end_index": end,
                "status": 200,
                "error_message": "",
                "clusters": [],
            }
            canonical = normalise_reporter(rep)
            if not is_known_reporter(canonical):
                entry.update(
                    status=400, error_message=f"Unable to find reporter with abbreviation of '{rep}'"
                )
                out.append(entry)
                continue
            entry["normalized_citations"] = [f"{vol} {canonical} {page}"]
            # extension fields (not in CourtListener): whether this corpus holds the whole volume, so a
            # client can say "not found" only where that is honest
            complete, last_page, _ = self.corpus.volume_info(canonical, vol)
            entry["citecheck_volume_complete"] = complete
            entry["citecheck_volume_last_page"] = last_page if complete else None
            if idx >= MAX_CITATIONS:
                entry.update(status=429, error_message="Too many citations requested.")
                out.append(entry)
                continue
            clusters = self._clusters_for(CiteKey(vol, canonical, page))
            if not clusters:
                entry.update(status=404, error_message=f"Citation not found: '{vol} {rep} {page}'")
            else:
                entry.update(status=200 if len(clusters) == 1 else 300, clusters=clusters)
            out.append(entry)
        return 200, out

    def _clusters_for(self, key: CiteKey) -> list[dict[str, Any]]:
        result = self.corpus.lookup_one(key)
        records = list(result.records)
        if (
            result.status not in (LookupStatus.FOUND, LookupStatus.AMBIGUOUS)
            and result.containing is not None
        ):
            # CourtListener's pincite fallback: accept the preceding case if its text has a "*page" marker
            op = self.corpus.opinion(result.containing.id)
            pm = op.page_map(key.reporter, key.volume) if op else None
            if pm is not None and any(label == key.page for _, label in pm.starts):
                records = [result.containing]
        out = []
        for r in sorted(records, key=lambda r: r.id, reverse=True):
            rowid = self.corpus.rowid(r.id)
            if rowid is not None:
                out.append(self.cluster_json(r, rowid))
        return out

    def cluster(self, cluster_id: int) -> tuple[int, Any]:
        rowid = self.corpus.rowid(case_id_for(cluster_id))
        record = self.corpus.record_by_rowid(rowid) if rowid is not None else None
        if record is None or rowid is None:
            return 404, {"detail": "No OpinionCluster matches the given query."}
        return 200, self.cluster_json(record, rowid)

    def docket(self, docket_id: int, fields: list[str] | None = None) -> tuple[int, Any]:
        rowid = self.corpus.rowid(case_id_for(docket_id))
        record = self.corpus.record_by_rowid(rowid) if rowid is not None else None
        if record is None:
            return 404, {"detail": "No Docket matches the given query."}
        data = {
            "resource_uri": f"{self.base_url}dockets/{docket_id}/",
            "id": docket_id,
            "court": f"{self.base_url}courts/{record.court_id}/" if record.court_id else None,
            "court_id": record.court_id,
            "case_name": record.name,
            "case_name_short": record.name_short or "",
            "case_name_full": record.name_full or "",
        }
        if fields:
            data = {k: v for k, v in data.items() if k in fields}
        return 200, data

    def opinion(self, opinion_id: int, fields: list[str] | None = None) -> tuple[int, Any]:
        rowid = self.corpus.rowid(case_id_for(opinion_id))
        record = self.corpus.record_by_rowid(rowid) if rowid is not None else None
        op = self.corpus.opinion_by_rowid(rowid) if rowid is not None else None
        if record is None or op is None or rowid is None:
            return 404, {"detail": "No Opinion matches the given query."}
        data = self.opinion_json(record, rowid, op)
        if fields:
            data = {k: v for k, v in data.items() if k in fields}
        return 200, data

    def opinions_of_cluster(self, cluster_id: int, fields: list[str] | None) -> tuple[int, Any]:
        status, data = self.opinion(cluster_id, fields)
        results = [data] if status == 200 else []
        return 200, {"count": len(results), "next": None, "previous": None, "results": results}


LOOPBACK_HOSTS = frozenset({"127.0.0.1", "localhost", "::1"})


def is_loopback(host: str) -> bool:
    return host.strip("[]").lower() in LOOPBACK_HOSTS


def _host_name(header: str) -> str:
    """The host part of a ``Host`` header (``[::1]:80`` → ``::1``, ``a.example:80`` → ``a.example``)."""
    header = header.strip().lower()
    if header.startswith("["):
        return header[1 : header.find("]")] if "]" in header else header
    return header.rsplit(":", 1)[0] if header.count(":") == 1 else header


class _Handler(BaseHTTPRequestHandler):
    api: CorpusAPI  # set on the subclass made per server
    token: str | None = None  # required as ``Authorization: Token …`` when set
    allowed_hosts: frozenset[str] | None = None  # accepted ``Host`` names; None = any (token-protected)
    server_version = "citecheck-corpus"
    timeout = 30  # a client that stops sending mid-request cannot hold a thread forever

    def _refused(self) -> bool:
        """Answer 403/401 and return True unless the request may be served.

        A browser page can reach a loopback server by rebinding its own name to 127.0.0.1: such a
        request carries the attacker's name in ``Host`` (refused) and an ``Origin`` (refused: no
        browser is a client of this API).
        """
        host = self.headers.get("Host")
        if self.headers.get("Origin") is not None:
            self._send(403, {"detail": "browser requests are not served"})
            return True
        if self.allowed_hosts is not None and (host is None or _host_name(host) not in self.allowed_hosts):
            self._send(403, {"detail": "unexpected Host header"})
            return True
        if self.token is not None:
            given = self.headers.get("Authorization") or ""
            scheme, _, value = given.partition(" ")
            if scheme.lower() not in ("token", "bearer") or not hmac.compare_digest(
                value.strip().encode("utf-8", "surrogateescape"),
                self.token.encode("utf-8", "surrogateescape"),
            ):
                self._send(401, {"detail": "Invalid token."})
                return True
        return False

    def log_message(self, fmt: str, *args: Any) -> None:
        log.info("%s " + fmt, self.address_string(), *args)

    def _send(self, status: int, body: Any) -> None:
        raw = json.dumps(body).encode("utf-8")
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(raw)))
        self.end_headers()
        self.wfile.write(raw)

    def _route(self) -> tuple[str, dict[str, list[str]]]:
        parts = urlsplit(self.path)
        if not parts.path.startswith(API_PREFIX):
            return "", {}
        return parts.path[len(API_PREFIX) :], parse_qs(parts.query)

    def do_GET(self) -> None:
        if self._refused():
            return
        try:
            path, query = self._route()
            fields = query.get("fields", [""])[0].split(",") if query.get("fields") else None
            m = re.fullmatch(r"(clusters|opinions|dockets)/(\d+)/?", path)
            if m and m.group(1) == "clusters":
                self._send(*self.api.cluster(int(m.group(2))))
            elif m and m.group(1) == "dockets":
                self._send(*self.api.docket(int(m.group(2)), fields))
            elif m:
                self._send(*self.api.opinion(int(m.group(2)), fields))
            elif path.rstrip("/") == "opinions" and query.get("cluster", [""])[0].isdigit():
                self._send(*self.api.opinions_of_cluster(int(query["cluster"][0]), fields))
            else:
                self._send(404, {"detail": "Not found."})
        except Exception as exc:  # the server must answer, not die
            log.exception("error serving %s", self.path)
            self._send(500, {"detail": f"server error: {exc.__class__.__name__}"})

    def do_POST(self) -> None:
        if self._refused():
            return
        try:
            path, _ = self._route()
            if path.rstrip("/") != "citation-lookup":
                self._send(404, {"detail": "Not found."})
                return
            try:
                length = int(self.headers.get("Content-Length") or 0)
            except ValueError:
                length = -1
            if length < 0:
                self._send(400, {"detail": "bad Content-Length"})
                return
            if length > 4 * MAX_TEXT * 4:
                self._send(400, {"text": [f"Ensure this field has no more than {MAX_TEXT} characters."]})
                return
            raw = self.rfile.read(length).decode("utf-8", errors="replace")
            if (self.headers.get("Content-Type") or "").startswith("application/json"):
                try:
                    data = json.loads(raw or "{}")
                except json.JSONDecodeError:
                    self._send(400, {"detail": "JSON parse error"})
                    return
                form = {k: str(v) for k, v in data.items()} if isinstance(data, dict) else {}
            else:
                form = {k: v[0] for k, v in parse_qs(raw, keep_blank_values=True).items()}
            self._send(*self.api.citation_lookup(form))
        except Exception as exc:
            log.exception("error serving %s", self.path)
            self._send(500, {"detail": f"server error: {exc.__class__.__name__}"})


class CorpusServer:
    """A threaded HTTP server over one corpus file. ``start()`` in a thread (tests) or ``serve_forever()``."""

    def __init__(
        self,
        corpus_path: Path | str,
        host: str = "127.0.0.1",
        port: int = 0,
        *,
        token: str | None = None,
        allow_hosts: Iterable[str] = (),
    ) -> None:
        """Loopback needs no token; any other address does (ConfigError without one).

        ``allow_hosts``: further names clients use in ``Host`` (the bind address and, on loopback,
        the loopback names are always accepted). On a wildcard address (0.0.0.0) with no names given,
        the token alone guards the server.
        """
        if not is_loopback(host) and not token:
            raise ConfigError(
                f"serving on {host} needs a token: set CITECHECK_SERVE_TOKEN (clients send it as their "
                "CourtListener token), or serve on 127.0.0.1"
            )
        names = {h.strip("[]").lower() for h in allow_hosts if h.strip()}
        names.add(host.strip("[]").lower())
        if is_loopback(host):
            names |= LOOPBACK_HOSTS
        wildcard = host in ("0.0.0.0", "::", "")
        allowed = None if wildcard and not set(allow_hosts) else frozenset(names)
        self.corpus = Corpus(corpus_path, readonly=True)
        try:
            self._httpd = QuietHTTPServer((host, port), _Handler)
        except BaseException:
            self.corpus.close()
            raise
        self._httpd.daemon_threads = True
        host_, port_ = self._httpd.server_address[:2]
        host_ = host_.decode() if isinstance(host_, bytes) else host_
        self.base_url = f"http://{host_}:{port_}{API_PREFIX}"
        api = CorpusAPI(self.corpus, self.base_url)
        self._httpd.RequestHandlerClass = type(
            "Handler", (_Handler,), {"api": api, "token": token or None, "allowed_hosts": allowed}
        )
        self._thread: threading.Thread | None = None

    @property
    def port(self) -> int:
        return int(self._httpd.server_address[1])

    def start(self) -> CorpusServer:
        self._thread = threading.Thread(
            target=self._httpd.serve_forever,
            kwargs={"poll_interval": 0.05},
            name="citecheck-corpus-server",
            daemon=True,
        )
        self._thread.start()
        return self

    def serve_forever(self) -> None:
        self._httpd.serve_forever()

    def stop(self) -> None:
        if self._thread is not None:
            self._httpd.shutdown()
            self._thread.join(timeout=5)
            self._thread = None
        self._httpd.server_close()
        self.corpus.close()

    def __enter__(self) -> CorpusServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
