"""A loopback stand-in for CourtListener's bulk-data bucket (S3), for tests and bench (never shipped).

It answers what ``corpus sync`` asks of the real bucket: the ``ListObjectsV2`` listing under a prefix
(XML, paged by ``max_keys`` with continuation tokens) and ``GET`` of an object with ``ETag``,
``Content-Length`` and ``Range`` / ``If-Range`` (206 with ``Content-Range``; the whole object when
If-Range names another version). Faults are scripted per object:

- ``drop_after[key] = n``: the next GET sends the headers of the whole answer, then only ``n`` body
  bytes, and closes the connection (a dropped download);
- ``ignore_range = True``: every GET answers 200 with the whole object (a server without Range);
- ``wrong_length[key] = n``: the listing says ``n`` bytes (a listing that does not match the object);
- ``damage_once[key] = i``: the next GET sends the object with byte ``i`` changed (damaged on the way;
  the listing and the stored object stay right).

``multipart_etag(data, part_size)`` is the ETag S3 gives a multipart upload of ``data``.

It binds 127.0.0.1 only; ``requests`` records (path, Range header) of every request.
"""

from __future__ import annotations

import hashlib
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, unquote, urlsplit
from xml.sax.saxutils import escape

from citecheck.sources.corpus_server import QuietHTTPServer


def multipart_etag(data: bytes, part_size: int) -> str:
    """The ETag S3 gives ``data`` uploaded in parts of ``part_size`` bytes: the MD5 of the parts' MD5s, ``-N``."""
    parts = [data[i : i + part_size] for i in range(0, len(data), part_size)] or [b""]
    joined = b"".join(hashlib.md5(part).digest() for part in parts)
    return f'"{hashlib.md5(joined).hexdigest()}-{len(parts)}"'


@dataclass
class _Object:
    data: bytes
    etag: str
    modified: str = "2026-07-01T04:12:00.000Z"


@dataclass
class FakeBucket:
    max_keys: int = 1000
    objects: dict[str, _Object] = field(default_factory=dict)
    drop_after: dict[str, int] = field(default_factory=dict)
    wrong_length: dict[str, int] = field(default_factory=dict)
    damage_once: dict[str, int] = field(default_factory=dict)
    ignore_range: bool = False
    listing_status: int = 200
    requests: list[tuple[str, str | None]] = field(default_factory=list)

    def __post_init__(self) -> None:
        self._server: QuietHTTPServer | None = None
        self._thread: threading.Thread | None = None

    # ------------------------------------------------------------------ content
    def put(self, key: str, data: bytes, *, etag: str | None = None) -> None:
        """Store an object; its ETag is the MD5 (a single-part upload) unless given (``"…-3"``: multipart)."""
        self.objects[key] = _Object(data=data, etag=etag or f'"{hashlib.md5(data).hexdigest()}"')

    def put_folder(self, folder: Path, prefix: str = "bulk-data/") -> None:
        for p in sorted(folder.iterdir()):
            if p.is_file():
                self.put(prefix + p.name, p.read_bytes())

    # ------------------------------------------------------------------ server
    def start(self) -> FakeBucket:
        bucket = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_GET(self) -> None:
                bucket._get(self)

            def log_message(self, *args: Any) -> None:
                pass

        self._server = QuietHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)
        self._thread.start()
        return self

    @property
    def base_url(self) -> str:
        assert self._server is not None
        return f"http://127.0.0.1:{self._server.server_address[1]}/"

    def stop(self) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._server = None

    def __enter__(self) -> FakeBucket:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # ------------------------------------------------------------------ answers
    def _get(self, h: BaseHTTPRequestHandler) -> None:
        parts = urlsplit(h.path)
        self.requests.append((parts.path, h.headers.get("Range")))
        if parts.path == "/":
            self._listing(h, parse_qs(parts.query))
            return
        key = unquote(parts.path.lstrip("/"))
        obj = self.objects.get(key)
        if obj is None:
            self._send(h, 404, b"<Error><Code>NoSuchKey</Code></Error>", "application/xml")
            return
        start = 0
        rng = h.headers.get("Range")
        if_range = h.headers.get("If-Range")
        if rng and not self.ignore_range and (if_range is None or if_range == obj.etag):
            try:
                start = int(rng.split("=", 1)[1].split("-", 1)[0])
            except (IndexError, ValueError):
                start = 0
            if start >= len(obj.data):
                h.send_response(416)
                h.send_header("Content-Range", f"bytes */{len(obj.data)}")
                h.send_header("Content-Length", "0")
                h.end_headers()
                return
        body = obj.data[start:]
        damaged = self.damage_once.pop(key, None)
        if damaged is not None and 0 <= damaged - start < len(body):
            at = damaged - start
            body = body[:at] + bytes([body[at] ^ 0x55]) + body[at + 1 :]
        h.send_response(206 if start else 200)
        h.send_header("ETag", obj.etag)
        h.send_header("Accept-Ranges", "bytes")
        h.send_header("Content-Length", str(len(body)))
        if start:
            h.send_header("Content-Range", f"bytes {start}-{len(obj.data) - 1}/{len(obj.data)}")
        h.end_headers()
        drop = self.drop_after.pop(key, None)
        if drop is not None:
            h.wfile.write(body[:drop])
            h.wfile.flush()
            h.close_connection = True
            try:
                h.connection.shutdown(2)
            except OSError:
                pass
            return
        h.wfile.write(body)

    def _listing(self, h: BaseHTTPRequestHandler, query: dict[str, list[str]]) -> None:
        if self.listing_status != 200:
            self._send(
                h, self.listing_status, b"<Error><Code>InternalError</Code></Error>", "application/xml"
            )
            return
        prefix = query.get("prefix", [""])[0]
        keys = sorted(k for k in self.objects if k.startswith(prefix))
        start = int(query.get("continuation-token", ["0"])[0] or 0)
        page = keys[start : start + self.max_keys]
        more = start + self.max_keys < len(keys)
        items = "".join(
            f"<Contents><Key>{escape(k)}</Key><LastModified>{self.objects[k].modified}</LastModified>"
            f"<ETag>{escape(self.objects[k].etag)}</ETag>"
            f"<Size>{self.wrong_length.get(k, len(self.objects[k].data))}</Size>"
            "<StorageClass>STANDARD</StorageClass></Contents>"
            for k in page
        )
        token = f"<NextContinuationToken>{start + self.max_keys}</NextContinuationToken>" if more else ""
        body = (
            '<?xml version="1.0" encoding="UTF-8"?>'
            '<ListBucketResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/">'
            f"<Name>com-courtlistener-storage</Name><Prefix>{escape(prefix)}</Prefix><KeyCount>{len(page)}</KeyCount>"
            f"<MaxKeys>{self.max_keys}</MaxKeys><IsTruncated>{'true' if more else 'false'}</IsTruncated>"
            f"{items}{token}</ListBucketResult>"
        ).encode()
        self._send(h, 200, body, "application/xml")

    @staticmethod
    def _send(h: BaseHTTPRequestHandler, status: int, body: bytes, ctype: str) -> None:
        h.send_response(status)
        h.send_header("Content-Type", ctype)
        h.send_header("Content-Length", str(len(body)))
        h.end_headers()
        h.wfile.write(body)
