"""Extraction CPU against stock eyecite's ``get_citations``, same text, same process, interleaved (issue 40).

For each size the bench brief (``brief.py``: real opinion prose, real citations in every form) is
extracted by citecheck (``extract_citations``, the paragraph cache cleared first: a cold document) and
by eyecite (``get_citations`` with its default tokenizer), one after the other, ``--rounds`` times;
the figure is the ratio of the median CPU seconds (``time.process_time``), ours over eyecite's. Both
tokenizers are built before the first round. It also prints how many citations each found (the two
count differently: ours resolves short forms and reads statutes; the eyecite suite,
``bench/eyecite_suite.py``, compares them field by field).

    python bench/extract_vs_eyecite.py [--words 10000,30000,100000,300000] [--rounds 5]
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


def _load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--words", default="10000,30000,100000,300000")
    ap.add_argument("--rounds", type=int, default=5)
    args = ap.parse_args(argv)

    from eyecite import get_citations
    from eyecite.tokenizers import default_tokenizer

    from citecheck.extract import extract_citations
    from citecheck.extract.paragraph import extract_paragraph

    extract_citations("See Roe v. Wade, 410 U.S. 113 (1973). Id. at 116.")  # both tokenizers built
    get_citations("See Roe v. Wade, 410 U.S. 113 (1973). Id. at 116.", tokenizer=default_tokenizer)
    print(f"extraction CPU vs eyecite's get_citations; load average {_load()} at start")
    for words in (int(w) for w in args.words.split(",")):
        text = build_brief(words, citations=max(1, words // 30))
        ours: list[float] = []
        theirs: list[float] = []
        n_ours = n_theirs = 0
        for _ in range(args.rounds):
            extract_paragraph.cache_clear()
            c0 = time.process_time()
            n_ours = len(extract_citations(text).citations)
            ours.append(time.process_time() - c0)
            c0 = time.process_time()
            n_theirs = len(get_citations(text, tokenizer=default_tokenizer))
            theirs.append(time.process_time() - c0)
        a, b = statistics.median(ours), statistics.median(theirs)
        print(
            f"{words:,} words ({len(text):,} characters): citecheck {a:.4f} s CPU, eyecite {b:.3f} s CPU "
            f"(medians of {args.rounds}): {a / b:.4f}x; citations found: citecheck {n_ours:,}, eyecite "
            f"{n_theirs:,}; load average {_load()}"
        )
    print("targets: <= 0.05x at 10k words, <= 0.025x at 100k")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
