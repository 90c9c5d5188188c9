"""What each layer of the keystroke machinery costs or saves: stage 1 in process, per key.

Types into the bench brief (``bench/brief.py``, real prose and real case tuples) what
``bench/lsp_latency.py`` types — a character at a random place every key, every fourth key a deletion
— and measures the CPU (``time.thread_time``) of stage 1 per key: ``Document.apply_edits`` (re-split,
re-extract the paragraphs whose text changed, assemble) and the local-findings memo
(``paragraph_findings``) with the findings of the paragraphs re-checked. The same keys run under each
variant, interleaved (all variants on one key's text before the next key), so the machine's noise falls
on every variant alike; minimum and median per variant are printed.

Variants are ``Thresholds`` settings and switches that turn one layer off:
  all               as shipped
  no-shared-index   every run indexes its own records (``patch_limit=-1``): no index borrowed from the run before
  no-zone           every paragraph after one planned again is planned again (``zone_records=0``)
  no-bulk-memo      the memo looks at every paragraph (its slices before and after the edit not taken over)
  whole-resplit     every edit re-splits the whole text (``local_edits=0``)

    python bench/incremental_layers.py [--words 30000,100000] [--keys 200] [--variants all,no-zone,...]
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import random
import statistics
import sys
import time
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "server"))

from brief import build_brief
from citecheck.extract import Document, Edit
from citecheck.extract.incremental import memo
from citecheck.extract.incremental.memo import LocalMemo, paragraph_findings
from citecheck.extract.incremental.thresholds import DEFAULT, using
from citecheck.judge import check_locally


@contextlib.contextmanager
def _variant(name: str) -> Iterator[None]:
    if name == "all":
        with using(DEFAULT):
            yield
    elif name == "no-shared-index":
        with using(replace(DEFAULT, patch_limit=-1)):
            yield
    elif name == "no-zone":
        with using(replace(DEFAULT, zone_records=0)):
            yield
    elif name == "whole-resplit":
        with using(replace(DEFAULT, local_edits=0)):
            yield
    elif name == "no-bulk-memo":
        real = memo._bulk_range
        memo._bulk_range = lambda run, m: None  # type: ignore[assignment]
        try:
            yield
        finally:
            memo._bulk_range = real
    else:
        raise SystemExit(f"unknown variant {name!r}")


def _load() -> str:
    return " ".join(Path("/proc/loadavg").read_text().split()[:3])


def run(words: int, keys: int, variants: list[str]) -> None:
    brief = build_brief(words, citations=max(1, words * 1000 // 30_000))
    print(f"\n== {len(brief.split()):,} words, {len(brief):,} chars; load average {_load()}")
    docs = {}
    for v in variants:
        with _variant(v):
            doc = Document(brief)
            m = LocalMemo()
            paragraph_findings(doc.extraction, m, check_locally)
            docs[v] = (doc, m)
    gc.collect()
    gc.freeze()
    rng = random.Random(1)
    text = brief
    cpu: dict[str, list[float]] = {v: [] for v in variants}
    for i in range(keys):
        offset = rng.randrange(len(text))
        if i % 4 == 3 and text[offset] not in "\r\n":
            edit = Edit(start=offset, end=offset + 1, new_text="")
        else:
            edit = Edit(start=offset, end=offset, new_text="a")
        text = text[: edit.start] + edit.new_text + text[edit.end :]
        for v in variants:
            doc, m = docs[v]
            with _variant(v):
                t = time.thread_time()
                ex = doc.apply_edits([edit], text=text)
                got = paragraph_findings(ex, m, check_locally)
                for _a, _b, found in got.changes:
                    len(found)
                cpu[v].append((time.thread_time() - t) * 1000)
    base = statistics.median(cpu[variants[0]])
    print(f"stage 1 CPU per key over {keys} keys (ms): min / median / p90; median vs {variants[0]}")
    for v in variants:
        xs = sorted(cpu[v])
        p90 = xs[int(len(xs) * 0.9)]
        med = statistics.median(xs)
        print(f"  {v:<16} {xs[0]:6.2f} / {med:6.2f} / {p90:6.2f}   {med / base:5.2f}x")
    gc.unfreeze()
    for doc, _m in docs.values():  # every variant ends on the same text and citations
        assert doc.text == text
    first = docs[variants[0]][0].extraction
    for v in variants[1:]:
        assert docs[v][0].extraction == first, v


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--words", default="30000,100000")
    ap.add_argument("--keys", type=int, default=200)
    ap.add_argument("--variants", default="all,no-shared-index,no-zone,no-bulk-memo,whole-resplit")
    args = ap.parse_args()
    for w in args.words.split(","):
        run(int(w), args.keys, args.variants.split(","))


if __name__ == "__main__":
    main()
