"""The name search's answers on a list of queries, written down or compared with another version's.

An A/B of two versions of ``CitationIndex.search_names`` (issue 40: faster, the same answers) runs the
same queries through each, with and without a year range, and compares every hit list — the cases,
their order and their scores. The queries are ``bench/index.py --names-to``'s (1,750 brief-style
names); the index is any built one (the 10 M one for the figures). Nothing is timed here: the timing
is ``bench/index.py --names-from``.

    PYTHONPATH=OLD/server python bench/name_hits.py --index D/index.sqlite --names-from Q.json --to old.json
    python bench/name_hits.py --index D/index.sqlite --names-from Q.json --compare old.json

Exit status 1 when a hit list differs (each difference printed), 0 when all are the same.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

#: The year range every query is also asked with (the filters' SQL is a different query).
YEARS = (1990, 2010)


def answers(index: Path, queries: list[str]) -> list[dict[str, Any]]:
    """Each query's hits (case id, score), best first, without and with ``YEARS``."""
    from citecheck.sources.index.lookup import CitationIndex

    ix = CitationIndex(index)
    out = []
    try:
        for q in queries:
            for years in (None, YEARS):
                hits = ix.search_names(q, limit=10, years=years)
                out.append({"query": q, "years": years, "hits": [[h.record.id, h.score] for h in hits]})
    finally:
        ix.close()
    return out


def differences(old: list[dict[str, Any]], new: list[dict[str, Any]]) -> list[str]:
    """A line per search whose hits differ (or a line saying the lists are of different searches)."""
    if [(a["query"], a["years"]) for a in old] != [(b["query"], b["years"]) for b in new]:
        return ["the two files hold different searches"]
    return [
        f"{a['query']!r} years={a['years']}: {a['hits']} -> {b['hits']}"
        for a, b in zip(old, new, strict=True)
        if a["hits"] != b["hits"]
    ]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--index", type=Path, required=True, help="a built citation index (index.sqlite)")
    ap.add_argument(
        "--names-from", type=Path, required=True, help="queries: bench/index.py --names-to's JSON"
    )
    ap.add_argument("--to", type=Path, help="write the answers here")
    ap.add_argument("--compare", type=Path, help="compare the answers with this file's (from --to)")
    args = ap.parse_args()
    queries = [q[1] if isinstance(q, list) else str(q) for q in json.loads(args.names_from.read_text())]
    got = answers(args.index, queries)
    if args.to:
        args.to.write_text(json.dumps(got))
    if args.compare:
        diff = differences(json.loads(args.compare.read_text()), json.loads(json.dumps(got)))
        for line in diff:
            print(line)
        print(
            f"{len(got):,} searches ({len(queries):,} names, with and without years {YEARS}): {len(diff)} differ"
        )
        return 1 if diff else 0
    print(f"{len(got):,} searches written")
    return 0


if __name__ == "__main__":
    sys.exit(main())
