"""Benchmark: the negative-language classifier alone (issue 37) on LegalBench's ``overruling`` task.

The task (github.com/HazyResearch/legalbench, ``tasks/overruling/test.tsv``: columns ``index``, ``text``,
``label``) is 2,394 sentences of real opinions, labelled Yes when the sentence overrules a precedent. Each is read
by ``states_own_overruling`` (the text's own court overrules a case); printed: precision, recall and counts, and
with ``-v`` the false positives and the first misses.

    python bench/treatment_language.py --tsv ~/legalbench/tasks/overruling/test.tsv [-v]
"""

from __future__ import annotations

import argparse
import csv
import os

from citecheck.treatment.language import states_own_overruling


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tsv", required=True, help="LegalBench tasks/overruling/test.tsv")
    ap.add_argument("-v", action="store_true", help="print the false positives and the first 60 misses")
    args = ap.parse_args()
    with open(args.tsv, encoding="utf-8", newline="") as f:
        rows = list(csv.DictReader(f, delimiter="\t"))
    tp = fp = fn = tn = 0
    fps: list[str] = []
    fns: list[str] = []
    for r in rows:
        gold, said = r["label"].strip() == "Yes", states_own_overruling(r["text"])
        if said and gold:
            tp += 1
        elif said:
            fp += 1
            fps.append(r["text"])
        elif gold:
            fn += 1
            fns.append(r["text"])
        else:
            tn += 1
    print(f"sentences          {len(rows):,} ({tp + fn:,} labelled overruling)")
    print(f"precision          {tp / max(tp + fp, 1):.3f} ({fp} false of {tp + fp})")
    print(f"recall             {tp / max(tp + fn, 1):.3f} ({tp} of {tp + fn})")
    print(f"true negatives     {tn:,}")
    print("load average       " + " ".join(f"{x:.2f}" for x in os.getloadavg()))
    if args.v:
        print("false positives:", *(f"  {t[:200]}" for t in fps), sep="\n")
        print("misses:", *(f"  {t[:200]}" for t in fns[:60]), sep="\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
