"""Fixtures for source tests: a corpus imported from the real shared samples (built once per session)."""

from __future__ import annotations

from pathlib import Path

import pytest

from citecheck.sources.corpus import Corpus
from citecheck.sources.corpus_server import QuietHTTPServer
from citecheck.sources.importing import import_path
from citecheck_testing import shared_corpus_path


@pytest.fixture(scope="session")
def cap_volume() -> Path:
    return shared_corpus_path("cap-static", "a2d", "100")


@pytest.fixture(scope="session")
def bulk_dir() -> Path:
    return shared_corpus_path("courtlistener-bulk")


@pytest.fixture(scope="session")
def real_corpus_file(tmp_path_factory: pytest.TempPathFactory, cap_volume: Path, bulk_dir: Path) -> Path:
    """A corpus file with the CAP sample volume and the CourtListener bulk sample (read-only use!)."""
    path = tmp_path_factory.mktemp("corpus") / "corpus.sqlite"
    corpus = Corpus(path)
    import_path(corpus, cap_volume)
    import_path(corpus, bulk_dir)
    corpus.close()
    return path


@pytest.fixture
def real_corpus(real_corpus_file: Path):
    corpus = Corpus(real_corpus_file)
    yield corpus
    corpus.close()


class Loopback:
    """A real HTTP server on 127.0.0.1 whose answers a test scripts; records every request."""

    def __init__(self) -> None:
        import threading
        from http.server import BaseHTTPRequestHandler

        self.requests: list[tuple[str, str, dict[str, str], bytes]] = []
        self.routes = {}  # (method, path) -> callable(body) -> (status, headers, bytes) | list of those
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def _serve(self, method: str) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length) if length else b""
                outer.requests.append((method, self.path, dict(self.headers), body))
                path = self.path.split("?")[0]
                answer = outer.routes.get((method, path))
                if isinstance(answer, list):
                    answer = answer.pop(0) if len(answer) > 1 else answer[0]
                if callable(answer):
                    answer = answer(self.path, body)
                status, headers, payload = answer if answer else (404, {}, b'{"detail": "Not found."}')
                self.send_response(status)
                for k, v in headers.items():
                    self.send_header(k, v)
                self.send_header("Content-Length", str(len(payload)))
                self.end_headers()
                self.wfile.write(payload)

            def do_GET(self) -> None:
                self._serve("GET")

            def do_POST(self) -> None:
                self._serve("POST")

            def log_message(self, *args) -> None:
                pass

        self._httpd = QuietHTTPServer(("127.0.0.1", 0), Handler)
        self._httpd.daemon_threads = True
        self.url = f"http://127.0.0.1:{self._httpd.server_address[1]}/"
        self._thread = threading.Thread(
            target=self._httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        )
        self._thread.start()

    def json(self, method: str, path: str, *answers) -> None:
        """Answer ``(status, body)`` pairs in turn (the last one repeats)."""
        import json as _json

        self.routes[(method, path)] = [
            (
                status,
                {"Content-Type": "application/json", **(extra[0] if extra else {})},
                _json.dumps(body).encode(),
            )
            for status, body, *extra in answers
        ]

    def stop(self) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()


@pytest.fixture
def loopback():
    server = Loopback()
    yield server
    server.stop()
