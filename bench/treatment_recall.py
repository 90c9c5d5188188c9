"""Recall and precision of the treatment build on real opinions (issue 37, "Done means": from text).

The opinions: a folder of CourtListener opinion JSON (by default the 1,100 First Circuit opinions of
github.com/chansooligans/Federal-Appellate-Court-Opinions-Text-Analysis @ 27f7f91, Archive/Progress_Reports/
data/, fetched beside this checkout), written as CourtListener's ``opinions`` bulk file in its real columns
and COPY dialect. The truth: ``bench/data/treatment_labels_ca1.tsv``, every explicit statement of negative
treatment in those opinions read by hand. An index holds the labelled cases (treated and treating, with their
real citations, years and courts) and every citing opinion's cluster. Then, through the real entry point:

    citecheck treatment build BULK --index INDEX --out TABLE
    citecheck check BRIEF --index INDEX --offline --format json      (treatment_path = TABLE)

where BRIEF cites every treated case once. A statement is **found** when the check warns on its case
(``overruled`` / ``negatively-treated``), quoting an opinion's sentence, and the table holds the statement (the
same treating case); a statement several opinions make is one row quoting one of them (how many is printed).
**Precision**: of the table's treatments, those a label states. Printed: statements and opinions found, recall
by statement and by opinion, precision, the misses.

    python bench/treatment_recall.py --opinions ../scratch/ca1
"""

from __future__ import annotations

import argparse
import contextlib
import csv
import io
import json
import os
import shutil
import tempfile
from pathlib import Path

from citecheck.cli import main as cli
from citecheck.sources.models import CiteKey
from citecheck.sources.treatment.store import TreatmentTable
from citecheck_testing.bulk_dump import Case, open_dump_file, write_dump, write_table

LABELS = Path(__file__).parent / "data" / "treatment_labels_ca1.tsv"
TEXT = ("plain_text", "html", "html_lawbox", "html_columbia", "html_with_citations")


def labels() -> list[dict[str, str]]:
    lines = [ln for ln in LABELS.read_text(encoding="utf-8").splitlines() if not ln.startswith("#")]
    return list(csv.DictReader(lines, delimiter="\t"))


def _key(cite: str) -> tuple[str, str, str]:
    vol, rest = cite.split(" ", 1)
    rep, page = rest.rsplit(" ", 1)
    return vol, rep, page


def write_inputs(opinions: Path, truth: list[dict[str, str]], work: Path) -> dict[str, int]:
    """The opinions bulk file and the dump of the index; returns each opinion file's cluster id."""
    files = sorted(opinions.glob("*.json"))
    cluster = {f.name: int(f.stem) for f in files}
    rows = []
    for f in files:
        d = json.loads(f.read_text(encoding="utf-8"))
        text = {k: (None if d.get(k) in (None, "None") else d.get(k)) for k in TEXT}
        rows.append(
            {**text, "id": int(f.stem), "type": d.get("type") or "010combined", "cluster_id": int(f.stem)}
        )
    with open_dump_file(work / "bulk", "opinions", "2026-06-30", compress=True) as out:
        write_table(out, "opinions", rows)
    cases: dict[tuple[str, str, str], Case] = {}
    courts: set[str] = {"ca1"}
    for lb in truth:
        for side in ("treated", "treating"):
            cite, name = lb[f"{side}_cite"], lb[f"{side}_name"]
            if not cite or name == "SELF":
                continue
            k = _key(cite)
            court = lb[f"{side}_court"] or "scotus"
            courts.add(court)
            cases.setdefault(k, Case(id=800_000 + len(cases), name=name, cites=[k], date=f"{lb[f'{side}_year']}-06-01",
                                     court=court))  # fmt: skip
    citing = [Case(id=cid, name=f"First Circuit opinion {cid}", cites=[(str(cid), "F.4th", "1")], date="2012-01-01",
                   court="ca1") for cid in cluster.values()]  # fmt: skip
    court_rows = [
        {"id": c, "full_name": c, "short_name": c, "citation_string": c, "jurisdiction": "F"} for c in courts
    ]
    write_dump(work / "dump", [*cases.values(), *citing], courts=court_rows)
    return cluster


def run(*argv: str) -> str:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        rc = cli(list(argv))
    if rc not in (0, 1):
        raise SystemExit(f"citecheck {' '.join(argv)} failed ({rc})")
    return out.getvalue()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--opinions", type=Path, required=True, help="folder of CourtListener opinion JSON")
    args = ap.parse_args(argv)
    truth = labels()
    work = Path(tempfile.mkdtemp(prefix="goodlaw-recall-"))
    try:
        cluster = write_inputs(args.opinions, truth, work)
        index, table = work / "index.sqlite", work / "treatment.sqlite"
        run("corpus", "sync", "--from", str(work / "dump"), "--index", str(index), "--offline")
        run("treatment", "build", str(work / "bulk"), "--index", str(index), "--out", str(table), "--offline")
        treated = list(
            dict.fromkeys((lb["treated_name"], lb["treated_cite"], lb["treated_year"]) for lb in truth)
        )
        brief = work / "brief.md"
        brief.write_text(
            "".join(f"The rule was so. {n}, {c} ({y}).\n" for n, c, y in treated), encoding="utf-8"
        )
        os.environ["CITECHECK_TREATMENT_PATH"] = str(table)
        report = json.loads(run("check", str(brief), "--index", str(index), "--offline", "--format", "json"))
        warned = {c["cite"] for f in report["files"] for c in f["citations"]
                  if any(x["citation_index"] == c["index"] and x["kind"] in ("overruled", "negatively-treated")
                         for x in f["findings"])}  # fmt: skip
        held = TreatmentTable(table)
        found, missed, own = [], [], 0
        for lb in truth:
            ts = held.lookup([CiteKey(*_key(lb["treated_cite"]))]).get(CiteKey(*_key(lb["treated_cite"])), ())
            here, by = f"cl:{cluster[lb['opinion']]}", lb["treating_name"]
            held_it = [
                t for t in ts
                if (t.treating is None and by in ("", "SELF"))
                or (t.treating is not None and (t.treating.name == by or (by == "SELF"
                                                and t.treating.record_id == here)))
            ]  # fmt: skip
            own += any(t.quoted_from and t.quoted_from.record_id == here for t in held_it)
            (found if lb["treated_cite"] in warned and held_it else missed).append(lb)
        rows = held.db.execute("SELECT t.cited, t.quoted_from FROM treatments t").fetchall()
        names = dict(held.db.execute("SELECT id, cite FROM cases").fetchall())
        stated = {(lb["treated_cite"], cluster[lb["opinion"]]) for lb in truth}
        right = sum(1 for cited, src in rows if (names.get(cited), src) in stated)
        held.close()
        opinions = {lb["opinion"] for lb in truth}
        op_found = {lb["opinion"] for lb in found}
        print(f"opinions read        {len(cluster):,} (from {args.opinions})")
        print(f"labelled statements  {len(truth)} in {len(opinions)} opinions")
        print(f"found                {len(found)} statements ({len(found) / len(truth):.1%}), "
              f"{len(op_found)} of {len(opinions)} opinions ({len(op_found) / len(opinions):.1%})")  # fmt: skip
        print(f"quoting that opinion {own} of the {len(found)} (a statement several opinions make is kept once, with "
              "the strongest one's words and how many said it)")  # fmt: skip
        print(f"precision            {right} of {len(rows)} treatments in the table are labelled statements "
              f"({right / max(1, len(rows)):.1%})")  # fmt: skip
        for lb in missed:
            print(
                f"  missed: {lb['opinion']}: {lb['treated_name']}, {lb['treated_cite']} <- {lb['treating_name']}"
            )
        print(f"load average         {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
