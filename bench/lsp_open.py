"""From starting ``citecheck-lsp`` to the first error diagnostic on the example brief (issue 40 item 1).

What an editor does when a lawyer opens a brief: start the server, ``initialize``, ``initialized`` and
``didOpen`` back to back (VS Code sends them so), answer the server's ``workspace/configuration``
requests, and show the first ``publishDiagnostics`` that holds an error. This stand-in does the same
over stdio and prints, per run: start → ``initialize`` answered, start → first error published, and
``didOpen`` → first error published. Each run is a fresh server process (bytecode cached; the
tokenizer's table cached, as on any second start). ``--base DIR`` runs another checkout's server
(its ``server/`` folder first on the path) interleaved with this one's, A B A B, and prints the
ratio of the medians. The editor's own part (VS Code activating the extension, drawing the squiggle)
is not here: ``tests/e2e/test_vscode_editor.py`` prints the whole figure in code-server.

    python bench/lsp_open.py [--runs 5] [--base /path/to/other/checkout] [--doc FILE]
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]


def _load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


async def one_run(server_dir: Path, text: str, tmp: Path, open_after: float = 0.0) -> dict[str, float]:
    """One fresh server: the times (seconds) from its start to each milestone."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("CITECHECK_")}
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # as installed: bytecode cached
    env["PYTHONPATH"] = str(server_dir)
    env["XDG_CONFIG_HOME"] = str(tmp / "config")
    env["XDG_DATA_HOME"] = str(tmp / "data")
    start = time.perf_counter()
    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "citecheck.lsp",
        "--stdio",
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.DEVNULL,
        env=env,
        limit=2**26,
    )
    assert proc.stdin is not None and proc.stdout is not None
    ids = itertools.count(1)
    marks: dict[str, float] = {}

    def send(payload: dict[str, Any]) -> None:
        body = json.dumps({"jsonrpc": "2.0", **payload}).encode()
        proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)  # type: ignore[union-attr]

    uri = "file:///bench/brief.md"
    send(
        {
            "id": next(ids),
            "method": "initialize",
            "params": {
                "processId": None,
                "rootUri": None,
                "capabilities": {
                    "general": {"positionEncodings": ["utf-16"]},
                    "textDocument": {"publishDiagnostics": {"versionSupport": True}},
                    "workspace": {"configuration": True},
                },
                "initializationOptions": {
                    "corpusPath": str(tmp / "corpus.sqlite"),
                    "cachePath": str(tmp / "cache.sqlite"),
                    "offline": True,
                },
            },
        }
    )
    send({"method": "initialized", "params": {}})

    def open_document() -> None:
        send(
            {
                "method": "textDocument/didOpen",
                "params": {
                    "textDocument": {"uri": uri, "languageId": "markdown", "version": 1, "text": text}
                },
            }
        )
        marks["open"] = time.perf_counter() - start

    if not open_after:
        open_document()

    async def read(timeout: float) -> dict[str, Any] | None:
        """The next message, or None when none began within ``timeout``."""
        assert proc.stdout is not None
        try:
            line = await asyncio.wait_for(proc.stdout.readline(), timeout)
        except TimeoutError:
            return None
        length = 0
        while line not in (b"\r\n", b""):
            if line.lower().startswith(b"content-length:"):
                length = int(line.split(b":")[1])
            line = await proc.stdout.readline()
        if not line:
            raise RuntimeError("the server stopped before publishing an error")
        parsed: dict[str, Any] = json.loads(await proc.stdout.readexactly(length))
        return parsed

    try:
        while "error" not in marks:
            due = None if "open" in marks or "initialized" not in marks else marks["initialized"] + open_after
            if due is not None and time.perf_counter() - start >= due:
                open_document()
                continue
            msg = await read(120.0 if due is None else max(0.0, due - (time.perf_counter() - start)))
            if msg is None:
                if due is None:
                    raise RuntimeError("no answer from the server in 120 s")
                continue
            now = time.perf_counter() - start
            method = msg.get("method")
            if msg.get("id") == 1 and method is None:
                marks["initialized"] = now
            elif method == "textDocument/publishDiagnostics":
                marks.setdefault("first publish", now)
                if any(d.get("severity") == 1 for d in msg["params"]["diagnostics"]):
                    marks["error"] = now
            elif "id" in msg and method is not None:  # a request from the server
                items = msg.get("params", {}).get("items", [])
                send(
                    {
                        "id": msg["id"],
                        "result": [None] * len(items) if method == "workspace/configuration" else None,
                    }
                )
    finally:
        send({"id": next(ids), "method": "shutdown"})
        send({"method": "exit"})
        try:
            await asyncio.wait_for(proc.wait(), 10)
        except TimeoutError:
            proc.kill()
            await proc.wait()
    return marks


async def main_async(args: argparse.Namespace) -> int:
    text = Path(args.doc).read_text(encoding="utf-8")
    trees = {"A (this checkout)": ROOT / "server"}
    if args.base:
        trees["B (" + str(args.base) + ")"] = Path(args.base) / "server"
    print(
        f"{args.doc}: {len(text):,} characters; python {sys.version.split()[0]}; load average {_load()} at start"
    )
    results: dict[str, list[dict[str, float]]] = {k: [] for k in trees}
    with tempfile.TemporaryDirectory(prefix="citecheck-lsp-open-") as tmp:
        for server in trees.values():  # a first start builds the tokenizer's table: not counted
            await one_run(server, text, Path(tmp))
        for _ in range(args.runs):
            for name, server in trees.items():
                results[name].append(await one_run(server, text, Path(tmp), args.open_after))
    medians = {}
    what = "didOpen → first error" if args.open_after else "start → first error"
    for name, runs in results.items():
        med = {k: statistics.median(r[k] for r in runs) for k in ("initialized", "error")}
        opened = [r["error"] - r["open"] for r in runs]
        shown = opened if args.open_after else [r["error"] for r in runs]
        medians[name] = statistics.median(shown)
        print(
            f"{name}: start → initialize answered {med['initialized']:.2f} s; start → first error published "
            f"{med['error']:.2f} s; didOpen → first error {statistics.median(opened):.2f} s "
            f"(the document opened {args.open_after:g} s after initialize; {what}, each run: "
            f"{', '.join(f'{x:.2f}' for x in shown)})"
        )
    if len(medians) == 2:
        a, b = medians.values()
        print(f"A/B, {what}: {a / b:.2f}")
    print(f"load average at the end {_load()}")
    return 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--base", type=Path, default=None, help="another checkout, run interleaved (B)")
    ap.add_argument("--doc", default=str(ROOT / "examples" / "brief.md"))
    ap.add_argument(
        "--open-after",
        type=float,
        default=0.0,
        help="open the document this many seconds after initialize is answered (VS Code starts the server "
        "when its window has loaded, before the brief is opened); 0: at once",
    )
    args = ap.parse_args(argv)
    return asyncio.run(main_async(args))


if __name__ == "__main__":
    raise SystemExit(main())
