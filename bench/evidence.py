"""Real opinions against a citation index with CourtListener's known gaps (issue 32): how many errors and
warnings does citecheck raise on citations that are real?

Every citation a court wrote in its own opinion is real. This bench extracts them all from real opinions,
makes a CourtListener-format dump that holds each cited case (a case is the parallel citations of one cite;
its name, year and court as the opinion gives them; every volume filled to at least three cases so the
coverage rule may call it complete), then takes out what CourtListener's real data lacks, at the rates
given (seeded): whole cases (``--missing``, 2 % by default: the issue's "2 % gap rate"), regional parallels
of state cases (``--regional``, CAP #345, #2013), neutral citations (``--neutral``, #3992, #5768), and moves
first pages one page on (``--pagination``, CAP #2115). It builds the index from that dump (offline, no
corpus, no network) and checks every opinion against it, counting the findings of warning and error level
on those real citations, by kind and by whether a gap caused them.

Inputs (read at run time, never copied into the repository): ``--opinions DIR`` (repeatable) of
CourtListener-style ``*.json`` (``html_with_citations`` / ``html`` / ``plain_text``), ``*.html`` or ``*.txt``;
e.g. the First Circuit opinions of github.com/chansooligans/Federal-Appellate-Court-Opinions-Text-Analysis
(``Midterm_Report/data/*.json``).

    python bench/evidence.py --opinions DIR [--limit N] [--seed 7] [--show 20]

Run it with another checkout's code on ``PYTHONPATH`` (``PYTHONPATH=/path/to/other/server``) to compare
(it uses only interfaces both have).
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import json
import os
import random
import sys
import tempfile
import time
from collections import Counter, defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
if "PYTHONPATH" not in os.environ:
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "server"))

from brief import html_to_text
from citecheck.config import Settings
from citecheck.extract import CiteForm, extract_citations
from citecheck.findings import Severity
from citecheck.pipeline import check_document
from citecheck.reporters import is_neutral, normalise_reporter
from citecheck.sources.base import Unavailable
from citecheck.sources.chain import SourceChain
from citecheck.sources.index.build import build_from_folder
from citecheck.sources.index.source import IndexSource
from citecheck_testing.bulk_dump import HEADERS, copy_line

STAMP = "2026-06-01 00:00:00+00"


def read_opinions(folders: list[Path], limit: int | None) -> list[tuple[str, str]]:
    seen: set[str] = set()
    out: list[tuple[str, str]] = []
    for folder in folders:
        for path in sorted(folder.rglob("*")):
            if path.suffix == ".json":
                try:
                    data = json.loads(path.read_text(encoding="utf-8"))
                except ValueError:
                    continue
                markup = data.get("html_with_citations") or data.get("html") or data.get("html_lawbox") or ""
                text = html_to_text(markup) if markup.strip() else data.get("plain_text") or ""
            elif path.suffix in (".html", ".htm"):
                text = html_to_text(path.read_text(encoding="utf-8", errors="replace"))
            elif path.suffix == ".txt":
                text = path.read_text(encoding="utf-8", errors="replace")
            else:
                continue
            digest = hashlib.sha1(text.encode()).hexdigest()
            if len(text.split()) < 50 or digest in seen:
                continue
            seen.add(digest)
            out.append((str(path), text))
            if limit and len(out) >= limit:
                return out
    return out


class _Union:
    def __init__(self) -> None:
        self.parent: dict[tuple[str, str, str], tuple[str, str, str]] = {}

    def find(self, k: tuple[str, str, str]) -> tuple[str, str, str]:
        self.parent.setdefault(k, k)
        while self.parent[k] != k:
            self.parent[k] = self.parent[self.parent[k]]
            k = self.parent[k]
        return k

    def union(self, a: tuple[str, str, str], b: tuple[str, str, str]) -> None:
        self.parent[self.find(a)] = self.find(b)


def cited_cases(texts: list[tuple[str, str]]) -> list[dict]:
    """Each cited case once: its citations (the parallel cites of one cite), name, year, court."""
    union = _Union()
    info: dict[tuple[str, str, str], dict] = {}
    for _, text in texts:
        ex = extract_citations(text)
        groups: dict[int, list] = defaultdict(list)
        for c in ex.citations:
            if c.form is not CiteForm.FULL or c.key is None or c.database is not None or c.agency:
                continue  # an agency's decision is never looked up as a case
            if not (c.volume and c.page and c.volume.isdigit() and c.page.isdigit()):
                continue
            key = (c.volume, normalise_reporter(c.reporter or ""), c.page)
            groups[c.group if c.group is not None else c.index].append((key, c))
        for members in groups.values():
            first = members[0][0]
            seen_volumes: set[tuple[str, str]] = set()
            for key, c in members:
                union.find(key)
                # parallel citations are of other reporters; two of one volume are a pin read as a cite
                if (key[0], key[1]) not in seen_volumes:
                    union.union(key, first)
                    seen_volumes.add((key[0], key[1]))
                slot = info.setdefault(key, {})
                slot["n"] = slot.get("n", 0) + 1
                if c.case_name is not None:
                    slot.setdefault("names", Counter())[c.case_name.text] += 1
                if c.year and "year" not in slot:
                    slot["year"] = c.year
                if c.court and "court" not in slot:
                    slot["court"] = c.court
    clusters: dict[tuple[str, str, str], dict] = {}
    for key in info:
        root = union.find(key)
        case = clusters.setdefault(
            root, {"cites": [], "names": Counter(), "year": None, "court": None, "mentions": Counter()}
        )
        case["cites"].append(key)
        case["mentions"][key] += info[key].get("n", 0)
        case["names"].update(info[key].get("names", {}))
        for field in ("year", "court"):
            if case[field] is None and field in info[key]:
                case[field] = info[key][field]
    out = []
    for case in clusters.values():
        if not case["names"]:
            continue
        # the name the opinions write most often (the longest of equals): what CourtListener would hold is
        # the caption; names cut short by the extraction are rarer than the whole one
        case["name"] = max(case["names"].items(), key=lambda kv: (kv[1], len(kv[0])))[0]
        out.append(case)
    # a name the opinions give another cited case is that case's, not this one's (one opinion's "Rice v. Santa
    # Fe Elevator Corp., 435 U.S. 497" beside another's "Malone v. White Motor Corp., 435 U.S. 497"): the
    # caption CourtListener holds is the other name
    chosen = Counter(case["name"] for case in out)
    for case in out:
        if chosen[case["name"]] > 1 and len(case["names"]) > 1:
            own = {n: k for n, k in case["names"].items() if chosen[n] == 0}
            if own:
                case["name"] = max(own.items(), key=lambda kv: (kv[1], len(kv[0])))[0]
    return out


def _slips(number: str) -> set[str]:
    """The numbers one digit of ``number`` changed gives (915 of 925)."""
    return {number[:i] + d + number[i + 1 :] for i in range(len(number)) for d in "0123456789"} - {number}


def misprints(cases: list[dict]) -> set[tuple[str, str, str]]:
    """The citations the opinions most likely misprinted: one case's name at two citations of one reporter a
    digit apart (``Weinberger v. Great Northern Nekoosa Corp., 915 F.2d 518`` in one opinion, 925 in four),
    the one cited less (of two cited as often, neither: both stay cases of the index). CourtListener holds
    the case at its own citation only: the misprint is no case of the index, and a finding on it is
    labelled a misprint, not a gap."""
    from citecheck.checks.name_match import NameVerdict, compare_names

    where = {key: case for case in cases for key in case["cites"]}
    out = set()
    for key, case in where.items():
        v, r, p = key
        for other in [(w, r, p) for w in _slips(v)] + [(v, r, q) for q in _slips(p)]:
            twin = where.get(other)
            if (
                twin is None
                or twin is case
                or compare_names(case["name"], (twin["name"],)).verdict is not NameVerdict.MATCH
            ):
                continue
            if case["mentions"][key] < twin["mentions"][other]:  # a tie tells neither (536 U.S. 214 and 514)
                out.add(key)
    return out


def _cite_type(reporter: str) -> int:
    if is_neutral(reporter):
        return 8
    import reporters_db

    for entries in reporters_db.REPORTERS.values():
        for entry in entries:
            if reporter in entry["editions"]:
                return {"federal": 1, "state": 2, "state_regional": 3, "specialty": 4}.get(
                    entry.get("cite_type"), 4
                )
    return 4


def write_dump(
    folder: Path, cases: list[dict], rng: random.Random, rates: dict[str, float]
) -> dict[str, set]:
    """The dump, with the gaps; returns the real citation keys each gap took out or moved."""
    gaps: dict[str, set] = {"missing": set(), "regional": set(), "neutral": set(), "pagination": set(),
                            "misprint": misprints(cases)}  # fmt: skip
    clusters, citations, dockets = [], [], []
    used: dict[tuple[str, str], set[int]] = defaultdict(set)
    for case in cases:
        for v, r, p in case["cites"]:
            used[(v, r)].add(int(p))
    cid = 800_000_000
    cite_id = 900_000_000
    for case in cases:
        cid += 1
        if rng.random() < rates["missing"]:
            gaps["missing"].update(case["cites"])
            continue
        types = {k: _cite_type(k[1]) for k in case["cites"]}
        kept = []
        has_state = any(t == 2 for t in types.values())
        for key in case["cites"]:
            t = types[key]
            if key in gaps["misprint"]:
                continue
            if t == 3 and has_state and rng.random() < rates["regional"]:
                gaps["regional"].add(key)
                continue
            if t == 8 and rng.random() < rates["neutral"]:
                gaps["neutral"].add(key)
                continue
            kept.append(key)
        if not kept:
            continue
        year = case["year"] or 1990
        clusters.append({"id": cid, "date_created": STAMP, "date_modified": STAMP, "date_filed": f"{year}-06-15",
                         "case_name": case["name"], "case_name_short": "", "case_name_full": "",
                         "precedential_status": "Published", "citation_count": 1, "docket_id": cid + 1_000_000_000,
                         "blocked": False})  # fmt: skip
        dockets.append({"id": cid + 1_000_000_000, "date_created": STAMP, "date_modified": STAMP,
                        "court_id": case["court"], "docket_number": f"No. {cid}", "blocked": False})  # fmt: skip
        for v, r, p in kept:
            page = p
            if rng.random() < rates["pagination"] and int(p) + 1 not in used[(v, r)]:
                gaps["pagination"].add((v, r, p))
                page = str(int(p) + 1)
            cite_id += 1
            citations.append({"id": cite_id, "volume": v, "reporter": r, "page": page, "type": types[(v, r, p)],
                              "cluster_id": cid, "date_created": STAMP, "date_modified": STAMP})  # fmt: skip
    # every volume at least three cases, on pages no opinion cites (far from them)
    for (v, r), pages in used.items():
        for n in range(3):
            cid += 1
            page = max(pages) + 40 + 10 * n
            clusters.append({"id": cid, "date_created": STAMP, "date_modified": STAMP, "date_filed": "1990-06-15",
                             "case_name": f"Filler {cid} v. Volume {n}", "precedential_status": "Published",
                             "docket_id": cid + 1_000_000_000, "blocked": False})  # fmt: skip
            dockets.append({"id": cid + 1_000_000_000, "date_created": STAMP, "date_modified": STAMP,
                            "court_id": None, "blocked": False})  # fmt: skip
            cite_id += 1
            citations.append({"id": cite_id, "volume": v, "reporter": r, "page": str(page), "type": _cite_type(r),
                              "cluster_id": cid, "date_created": STAMP, "date_modified": STAMP})  # fmt: skip
    folder.mkdir(parents=True, exist_ok=True)
    tables = {"courts": [], "dockets": dockets, "opinion-clusters": clusters, "citations": citations}
    for kind, rows in tables.items():
        with (folder / f"{kind}-2026-06-30.csv").open("w", encoding="utf-8", newline="") as out:
            out.write(",".join(HEADERS[kind]) + "\n")
            for row in rows:
                out.write(copy_line(row.get(c) for c in HEADERS[kind]))
    return gaps


async def check_all(index: Path, texts: list[tuple[str, str]]) -> list[tuple[str, str, str, str, str]]:
    """(opinion, citation key, kind, severity, message) of every warning and error."""
    out = []
    chain = SourceChain([IndexSource.open(index), Unavailable("offline mode")])
    settings = Settings(offline=True, cap_fetch=False)
    try:
        for name, text in texts:
            report = await check_document(text, chain, settings)
            for f in report.findings:
                if f.severity is Severity.INFO or f.citation_index is None:
                    continue
                c = report.extraction.citations[f.citation_index]
                key = " ".join((c.volume or "", normalise_reporter(c.reporter or ""), c.page or ""))
                out.append((name, key, f.kind.value, f.severity.value, f.message))
    finally:
        await chain.close()
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--opinions", type=Path, action="append", required=True)
    parser.add_argument("--limit", type=int, default=None)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--missing", type=float, default=0.02)
    parser.add_argument("--regional", type=float, default=0.2)
    parser.add_argument("--neutral", type=float, default=0.3)
    parser.add_argument("--pagination", type=float, default=0.01)
    parser.add_argument("--show", type=int, default=20)
    args = parser.parse_args()
    t0 = time.monotonic()
    texts = read_opinions(args.opinions, args.limit)
    cases = cited_cases(texts)
    n_cites = sum(len(c["cites"]) for c in cases)
    rng = random.Random(args.seed)
    rates = {"missing": args.missing, "regional": args.regional, "neutral": args.neutral,
             "pagination": args.pagination}  # fmt: skip
    with tempfile.TemporaryDirectory(prefix="citecheck-evidence-") as tmp:
        gaps = write_dump(Path(tmp) / "dump", cases, rng, rates)
        stats = build_from_folder(Path(tmp) / "ix.sqlite", Path(tmp) / "dump", full_dump=True)
        found = asyncio.run(check_all(Path(tmp) / "ix.sqlite", texts))
    gap_keys = {" ".join(k): g for g, keys in gaps.items() for k in keys}
    load = os.getloadavg()
    print(f"{len(texts)} opinions, {len(cases)} cited cases, {n_cites} real citations; index: {stats.cases} cases, "
          f"{stats.volumes} volumes ({stats.complete_volumes} complete); load {load[0]:.1f} {load[1]:.1f} "
          f"{load[2]:.1f}; {time.monotonic() - t0:.0f} s")  # fmt: skip
    print("gaps made: " + ", ".join(f"{g} {len(k)}" for g, k in gaps.items()))
    by = Counter((sev, kind, gap_keys.get(key, "no gap")) for _, key, kind, sev, _ in found)
    for sev in ("error", "warning"):
        rows = {k: n for k, n in by.items() if k[0] == sev}
        print(f"{sev}s on real citations: {sum(rows.values())}")
        for (_, kind, gap), n in sorted(rows.items(), key=lambda x: -x[1]):
            print(f"  {n:5d}  {kind:22s} {gap}")
    shown = [x for x in found if x[3] == "error"][: args.show]
    named = {" ".join(k): case["names"] for case in cases for k in case["cites"]}
    for name, key, kind, sev, msg in shown:
        said = msg if len(msg) <= 500 else f"{msg[:260]} … {msg[-220:]}"  # the fix is said last
        print(f"- {sev} {kind} {key} ({gap_keys.get(key, 'no gap')}) in {Path(name).name}: {said}")
        if len(named.get(key, ())) > 1:  # the index's name is a guess among these: check it against the case
            print("    the opinions name it: " + "; ".join(f"{n} ×{k}" for n, k in named[key].most_common(4)))


if __name__ == "__main__":
    main()
