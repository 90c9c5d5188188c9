"""Keystroke → local-diagnostics latency of the real ``citecheck-lsp --stdio`` on the 30,000-word brief.

Drives the server over stdio with VS Code's capability set (UTF-16 positions, push diagnostics):
opens the brief, waits for the first source-backed pass, then types single characters at positions
spread over the whole brief (insertions inside and between citations, some deletions) and measures,
for every version, the time from sending ``didChange`` to receiving ``publishDiagnostics`` for THAT
version, checking the published ranges moved with the edits. Prints p50/p95/max, how many versions
got their publish, and the server's RSS (current and peak).

Targets: p95 <= 50 ms beyond the debounce (debounce <= 150 ms), RSS <= 300 MB, every version published.

    python bench/lsp_latency.py [--keys 300] [--interval-ms 120] [--debounce-ms 150] [--words 30000]
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "server"))

from lsprotocol import types
from pygls.lsp.client import LanguageClient

from brief import build_brief
from citecheck.lsp.positions import LineIndex
from citecheck.testing import SHARED_CORPUS


def _rss_mb(pid: int) -> tuple[float, float]:
    fields = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        key, _, value = line.partition(":")
        fields[key] = value.strip()
    to_mb = lambda v: int(v.split()[0]) / 1024  # noqa: E731
    return to_mb(fields.get("VmRSS", "0 kB")), to_mb(fields.get("VmHWM", "0 kB"))


def _corpus(tmp: Path) -> Path:
    from citecheck.sources.corpus import Corpus
    from citecheck.sources.importing import import_path

    path = tmp / "corpus.sqlite"
    corpus = Corpus(path)
    for part in ("cap-static", "courtlistener-bulk"):
        if (SHARED_CORPUS / part).exists():
            import_path(corpus, SHARED_CORPUS / part)
    return path


async def run(args: argparse.Namespace) -> int:
    brief = build_brief(args.words)
    print(f"brief: {len(brief.split()):,} words, {len(brief):,} chars")
    tmp = Path(tempfile.mkdtemp(prefix="citecheck-bench-"))
    corpus = _corpus(tmp)
    client = LanguageClient("lsp-latency-bench", "1")
    published: dict[int, float] = {}
    last_diags: dict[int, list[types.Diagnostic]] = {}
    checked = asyncio.Event()

    @client.feature(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    def _publish(params: types.PublishDiagnosticsParams) -> None:
        if params.version is not None:
            published.setdefault(params.version, time.perf_counter())
            last_diags[params.version] = list(params.diagnostics)

    @client.feature("citecheck/citations")
    def _citations(params) -> None:
        checked.set()

    @client.feature(types.WINDOW_LOG_MESSAGE)
    def _log(params: types.LogMessageParams) -> None:
        if params.type == types.MessageType.Error:
            print("server error:", params.message.splitlines()[0], file=sys.stderr)

    @client.feature(types.WORKSPACE_CONFIGURATION)
    def _config(params: types.ConfigurationParams) -> list:
        return [None for _ in params.items]

    profile = ["-m", "cProfile", "-o", args.profile] if args.profile else []
    await client.start_io(sys.executable, *profile, "-m", "citecheck.lsp", "--stdio")
    pid = client._server.pid  # the subprocess we started
    caps = types.ClientCapabilities(
        text_document=types.TextDocumentClientCapabilities(
            publish_diagnostics=types.PublishDiagnosticsClientCapabilities(version_support=True)
        ),
        general=types.GeneralClientCapabilities(position_encodings=[types.PositionEncodingKind.Utf16]),
    )
    t0 = time.perf_counter()
    await client.initialize_async(
        types.InitializeParams(
            capabilities=caps,
            initialization_options={
                "corpusPath": str(corpus),
                "cachePath": str(tmp / "cache.sqlite"),
                "offline": True,
                "capFetch": False,
                "debounceMs": args.debounce_ms,
            },
        )
    )
    client.initialized(types.InitializedParams())
    uri = "file:///bench/brief.txt"
    t_open = time.perf_counter()
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(uri=uri, language_id="plaintext", version=1, text=brief)
        )
    )
    while 1 not in published:
        await asyncio.sleep(0.005)
    t_first = published[1] - t_open
    await asyncio.wait_for(checked.wait(), timeout=300)
    t_checked = time.perf_counter() - t_open
    print(f"startup to initialize: {t_open - t0:.2f}s; open → first publish: {t_first * 1000:.0f} ms; "
          f"open → source-backed pass done: {t_checked:.2f}s; diagnostics: {len(last_diags[1])}")
    rss, _ = _rss_mb(pid)
    print(f"server RSS after open + full check: {rss:.0f} MB")

    rng = random.Random(1)
    text = brief
    sent: dict[int, float] = {}
    version = 1
    for i in range(args.keys):
        offset = rng.randrange(len(text))
        index = LineIndex(text)
        if i % 4 == 3 and text[offset] not in "\r\n":  # a deletion now and then
            rng_ = types.Range(start=index.position_at(offset, "utf-16"), end=index.position_at(offset + 1, "utf-16"))
            new, end = "", offset + 1
        else:
            pos = index.position_at(offset, "utf-16")
            rng_, new, end = types.Range(start=pos, end=pos), "a", offset
        version += 1
        sent[version] = time.perf_counter()
        client.text_document_did_change(
            types.DidChangeTextDocumentParams(
                text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
                content_changes=[types.TextDocumentContentChangePartial(range=rng_, text=new)],
            )
        )
        text = text[:offset] + new + text[end:]
        await asyncio.sleep(args.interval_ms / 1000)
    deadline = time.perf_counter() + 30
    while version not in published and time.perf_counter() < deadline:
        await asyncio.sleep(0.01)
    await asyncio.sleep(args.debounce_ms / 1000 + 0.5)
    rss, peak = _rss_mb(pid)

    lat = sorted((published[v] - sent[v]) * 1000 for v in sent if v in published)
    missing = [v for v in sent if v not in published]
    # ranges shift with edits: the last publish must point at real citation-like text
    final_index = LineIndex(text)
    shifted_ok = sum(
        1
        for d in last_diags.get(version, [])
        if text[final_index.offset_at(d.range.start, "utf-16") : final_index.offset_at(d.range.end, "utf-16")].strip()
    )
    q = statistics.quantiles(lat, n=20) if len(lat) >= 20 else [float("nan")] * 19
    print(f"keystrokes: {len(sent)} at {args.interval_ms} ms intervals, debounce {args.debounce_ms} ms")
    print(f"didChange → publish for that version: p50 {statistics.median(lat):.1f} ms, p95 {q[18]:.1f} ms, "
          f"max {lat[-1]:.1f} ms")
    print(f"versions published: {len(lat)}/{len(sent)} (missing: {missing[:10]}{'…' if len(missing) > 10 else ''})")
    print(f"final diagnostics: {len(last_diags.get(version, []))}, non-empty ranges: {shifted_ok}")
    print(f"server RSS: {rss:.0f} MB now, {peak:.0f} MB peak (target <= 300 MB)")
    target = args.debounce_ms + 50
    print(f"target p95 <= {target} ms (debounce + 50): {'MET' if q[18] <= target else 'MISSED'}")
    await client.shutdown_async(None)
    client.exit(None)
    await client.stop()
    return 0 if not missing else 1


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--keys", type=int, default=300)
    ap.add_argument("--interval-ms", type=int, default=120)
    ap.add_argument("--debounce-ms", type=int, default=150)
    ap.add_argument("--words", type=int, default=30_000)
    ap.add_argument("--profile", help="write a cProfile of the server's main thread to this file")
    sys.exit(asyncio.run(run(ap.parse_args())))


if __name__ == "__main__":
    main()
