"""Jurisdiction on real text: weights of every citation in the 30 real opinions, and what it costs.

Reads ``../shared/corpus/courtlistener-bulk`` (never copied here). Each opinion's own court (from its
docket) is the forum; prints how many citations come out binding / persuasive / unknown, why the
unknown ones are unknown, every ``non-binding-authority`` the check would raise (each one should be read:
opinions rarely call a non-binding case controlling), whether a caption was (wrongly) found, and the
time taken by caption recognition (cold and warm) and by the weighing itself.

    python bench/jurisdiction.py
"""

from __future__ import annotations

import collections
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "server"))

from brief import html_to_text
from citecheck_testing import SHARED_CORPUS


class _Quiet:
    def __getattr__(self, name: str):  # the importers' progress sink, silenced
        return lambda *a, **k: None


def main() -> int:
    folder = SHARED_CORPUS / "courtlistener-bulk"
    if not folder.is_dir():
        print(f"skipped: {folder} not found")
        return 0
    t0 = time.perf_counter()
    from citecheck.checks.base import CheckContext
    from citecheck.checks.non_binding import assess, citation_court, claim_text, controlling_phrase
    from citecheck.extract import extract_citations
    from citecheck.jurisdiction import Declared, matter_forum
    from citecheck.jurisdiction.caption import caption_court, recognise_court
    from citecheck.sources.bulk_import import best_text, read_rows

    t_import = time.perf_counter() - t0
    clusters = {r["id"]: r for r in read_rows(folder / "opinion-clusters.csv", _Quiet())}
    dockets = {r["id"]: r for r in read_rows(folder / "dockets.csv", _Quiet())}
    weights: collections.Counter[str] = collections.Counter()
    unknown: collections.Counter[tuple] = collections.Counter()
    captions: collections.Counter[str] = collections.Counter()
    flags = []
    t_caption = t_weigh = 0.0
    n_docs = 0
    for row in read_rows(folder / "opinions.csv", _Quiet()):
        field, raw = best_text(row)
        text = raw if field == "plain_text" else html_to_text(raw)
        cluster = clusters.get(row["cluster_id"])
        docket = dockets.get(cluster["docket_id"]) if cluster else None
        if docket is None:
            continue
        n_docs += 1
        court = docket["court_id"]
        t = time.perf_counter()
        found = caption_court(text)
        t_caption += time.perf_counter() - t
        captions["none" if found is None else "right" if found[0] == court else f"WRONG {found[0]}"] += 1
        extraction = extract_citations(text)
        t = time.perf_counter()
        forum = matter_forum(text, declared=(Declared(court=court, origin="config"),))
        for c in extraction.citations:
            full = extraction.resolved(c)
            if full is None:
                continue
            ctx = CheckContext(extraction=extraction, citation=c, full=full, forum=forum)
            a = assess(ctx)
            assert a is not None
            weights[a.weight.value] += 1
            if a.weight.value == "unknown":
                unknown[(full.reporter, full.court_text)] += 1
            phrase = controlling_phrase(claim_text(ctx))
            if phrase and a.weight.value == "persuasive":
                flags.append((court, c.text, citation_court(ctx), phrase))
        t_weigh += time.perf_counter() - t
    cold = time.perf_counter()
    recognise_court.cache_clear()
    recognise_court("IN THE UNITED STATES DISTRICT COURT FOR THE EASTERN DISTRICT OF PENNSYLVANIA")
    cold = time.perf_counter() - cold
    warm = time.perf_counter()
    recognise_court("IN THE UNITED STATES DISTRICT COURT FOR THE EASTERN DISTRICT OF PENNSYLVANIA")
    warm = time.perf_counter() - warm
    total = sum(weights.values())
    print(f"opinions: {n_docs}; citations weighed: {total}")
    for w in ("binding", "persuasive", "unknown"):
        print(f"  {w:<10} {weights[w]:>5}  ({100 * weights[w] / max(total, 1):.1f}%)")
    print("unknown, by (reporter, court as written):", unknown.most_common(8))
    print("captions found:", dict(captions))
    print(f"non-binding-authority findings: {len(flags)}")
    for f in flags:
        print("  ", f)
    print(f"import of the jurisdiction modules: {t_import * 1000:.0f} ms")
    print(f"caption scan: {t_caption * 1000 / max(n_docs, 1):.1f} ms per opinion (no caption in these)")
    print(
        f"recognise a new caption line: cold {cold * 1000:.0f} ms (compiles that place's courts-db patterns), "
        f"cached {warm * 1e6:.0f} µs"
    )
    print(f"forum + weighing: {t_weigh * 1000 / max(total, 1):.3f} ms per citation")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
