"""Extraction speed on a 30,000-word, ~1,000-citation brief built from real opinion text.

Prints: full extraction time (cold process: first call, including eyecite's lazy regex compiles; and
warm: paragraph cache cleared), and per-keystroke ``Document.apply_edits`` time p50/p95 over >= 500
single-character edits spread over the whole document (insertions and deletions, alternating).
Targets on the 2-core CI machine: full <= 2 s, keystroke p95 <= 30 ms.

    python bench/extract.py [--edits 600] [--words 30000] [--citations 1000]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "server"))

from brief import build_brief
from citecheck.extract import Document, Edit, extract_citations
from citecheck.extract.paragraph import extract_paragraph


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--edits", type=int, default=600)
    ap.add_argument("--words", type=int, default=30_000)
    ap.add_argument("--citations", type=int, default=1_000)
    args = ap.parse_args()

    t0 = time.perf_counter()
    import eyecite  # noqa: F401  (import cost reported separately)

    t_import = time.perf_counter() - t0
    brief = build_brief(args.words, args.citations)
    print(f"brief: {len(brief.split())} words, {len(brief)} chars, {brief.count(chr(10) * 2) + 1} paragraphs")
    print(f"import eyecite: {t_import * 1000:.0f} ms")

    t0 = time.perf_counter()
    ex = extract_citations(brief)
    cold = time.perf_counter() - t0
    forms: dict[str, int] = {}
    for c in ex.citations:
        forms[c.form.value] = forms.get(c.form.value, 0) + 1
    print(f"citations: {len(ex.citations)} {forms}")
    print(f"full extraction, cold process: {cold:.3f} s")

    warm = []
    for _ in range(3):
        extract_paragraph.cache_clear()
        t0 = time.perf_counter()
        extract_citations(brief)
        warm.append(time.perf_counter() - t0)
    print(
        f"full extraction, warm (cache cleared): best {min(warm):.3f} s, median {statistics.median(warm):.3f} s"
    )

    extract_paragraph.cache_clear()
    doc = Document(brief)
    n = max(500, args.edits)
    times = []
    cpu = []
    loop0 = time.perf_counter()
    for k in range(n):
        length = len(doc.text)
        pos = (k * 7919 * 13) % (length - 2) + 1  # spread over the document
        # alternate typing a character and deleting one elsewhere: every edit makes new paragraph text
        edit = (
            Edit(start=pos, end=pos, new_text="x")
            if k % 2 == 0
            else Edit(start=pos, end=pos + 1, new_text="")
        )
        t0, c0 = time.perf_counter(), time.process_time()
        doc.apply_edits([edit])
        times.append(time.perf_counter() - t0)
        cpu.append(time.process_time() - c0)
    loop = time.perf_counter() - loop0
    print(
        f"keystroke mean over the whole edit loop (everything, garbage collection included): {loop / n * 1000:.1f} ms"
    )
    for label, xs in (("wall", times), ("cpu", cpu)):
        xs.sort()
        p50 = xs[len(xs) // 2] * 1000
        p95 = xs[int(len(xs) * 0.95)] * 1000
        print(
            f"keystroke {label} ({n} single-character edits): p50 {p50:.1f} ms, p95 {p95:.1f} ms, max {xs[-1] * 1000:.1f} ms"
        )
    load = Path("/proc/loadavg").read_text().split()[:3] if Path("/proc/loadavg").exists() else "?"
    print(f"machine load average while measuring (1/5/15 min): {' '.join(load)} on {os.cpu_count()} cores")
    assert doc.extraction == extract_citations(doc.text)
    print("incremental result equals full extraction of the edited text: yes")


if __name__ == "__main__":
    main()
