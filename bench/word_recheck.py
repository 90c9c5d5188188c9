"""Word add-in backend: how long a 100-page brief takes to re-check after one edit.

Starts the real ``citecheck serve`` (HTTPS on 127.0.0.1, its own certificate and token in a temporary
config folder, the real corpus imported from ../shared/corpus, offline), sends a ~50,000-word brief
(bench/brief.py, real opinion prose and real citations) as Word paragraphs, then edits one paragraph
at a time and re-checks, as the task pane does. Prints the server's time per check (``elapsed_ms``:
incremental extraction + source-backed checks + the answer) and the pane's round trip.

    python bench/word_recheck.py [--words 50000] [--citations 600] [--edits 15]
"""

from __future__ import annotations

import argparse
import os
import random
import socket
import ssl
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "server"))

from brief import build_brief
from citecheck_testing import import_shared_corpus


def _port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--words", type=int, default=50_000, help="about 500 words a page")
    ap.add_argument("--citations", type=int, default=600)
    ap.add_argument("--edits", type=int, default=15)
    args = ap.parse_args()

    text = build_brief(words=args.words, citations=args.citations)
    paras = [p for p in text.split("\n\n") if p.strip()]
    print(
        f"brief: {len(text.split()):,} words (~{len(text.split()) // 500} pages), {len(paras):,} paragraphs, "
        f"{len(text):,} characters"
    )
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        env = {
            **os.environ,
            "XDG_CONFIG_HOME": str(tmp / "config"),
            "CITECHECK_CACHE_PATH": str(tmp / "cache.sqlite"),
            "CITECHECK_CAP_FETCH": "0",
        }
        subprocess.run(
            [sys.executable, "-m", "citecheck", "serve", "--init"], env=env, check=True, capture_output=True
        )
        serve = tmp / "config" / "citecheck" / "serve"
        port = _port()
        proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "citecheck",
                "--offline",
                "--corpus",
                str(import_shared_corpus(tmp / "corpus.sqlite")),
                "serve",
                "--port",
                str(port),
                "--root",
                str(tmp),
            ],
            env=env,
            stderr=subprocess.DEVNULL,
        )
        token = (serve / "token").read_text().strip()
        headers = {"Origin": f"https://localhost:{port}", "X-Citecheck-Token": token}
        client = httpx.Client(
            base_url=f"https://localhost:{port}",
            timeout=300,
            verify=ssl.create_default_context(cafile=str(serve / "citecheck-localhost-ca.pem")),
        )
        try:
            for _ in range(300):
                try:
                    client.get("/api/v1/health", headers=headers)
                    break
                except httpx.TransportError:
                    time.sleep(0.1)

            def check(ps: list[str]) -> tuple[float, float, int, int]:
                t0 = time.perf_counter()
                r = client.post(
                    "/api/v1/check", json={"document": "bench", "paragraphs": ps}, headers=headers
                )
                r.raise_for_status()
                a = r.json()
                return (
                    a["elapsed_ms"],
                    (time.perf_counter() - t0) * 1000,
                    a["report"]["summary"]["citations"],
                    a["changed_chars"],
                )

            server_ms, wall_ms, cites, _ = check(paras)
            print(f"first check: {cites} citations, server {server_ms:,.0f} ms, round trip {wall_ms:,.0f} ms")
            server_ms, wall_ms, _, _ = check(paras)
            print(f"same text again: server {server_ms:,.0f} ms, round trip {wall_ms:,.0f} ms")
            rng = random.Random(1)
            servers, walls = [], []
            for _ in range(args.edits):
                i = rng.randrange(len(paras))
                paras[i] = paras[i] + " Further, the record supports this."
                s, w, _, _ = check(paras)
                servers.append(s)
                walls.append(w)
            q = statistics.quantiles(servers, n=10)[-1] if len(servers) >= 2 else servers[0]
            print(
                f"re-check after one edit ({args.edits} edits): server median {statistics.median(servers):,.0f} ms, "
                f"p90 {q:,.0f} ms, max {max(servers):,.0f} ms; round trip median {statistics.median(walls):,.0f} ms, "
                f"max {max(walls):,.0f} ms"
            )
        finally:
            client.close()
            proc.terminate()
            proc.wait(timeout=20)


if __name__ == "__main__":
    main()
