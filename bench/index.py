"""Benchmark: the citation index at CourtListener's scale (issue 23) — build, size, lookups, name search, a brief.

It writes a synthetic dump in the real format (the quoted COPY dialect with backslash escapes, the real
headers, ``citecheck_testing/bulk_dump.py``): by default 10 M citations and 9 M clusters with long text
columns (head matter, syllabus, attorneys: ~1 KB a row, as the real 2.3 GB .bz2 file), dockets for every
cluster plus unreferenced RECAP-style dockets at 1/``--docket-sample`` of the real ratio (71.7 M rows in
all: the parse time of the rest is extrapolated from the measured rate and said so), and volumes of 100–300
cases with rising first pages in closed and running series. Then it measures, printing each figure with
the load average:

- the build from plain CSV (wall, peak RSS of every process of the build, bytes written, index size);
- bz2: the decompression rate of the child decoder on a sample, the build from .bz2 at ``--bz2-scale`` of
  the dump (wall, against the plain build of the same files), and an extrapolation to the real file sizes;
- lookups at full size: per key found / not found (p50, p99), a batch of 2,000 keys, the name search
  (p50, p95) on names written as briefs write them (abbreviated, shortened, one typo);
- a 50-citation brief checked against this index, and its CPU against a 20,000-case index.

    python bench/index.py                       # 10 M citations (needs ~25 GB of disk, an hour here)
    python bench/index.py --scale 0.1           # 1 M citations; figures extrapolated where said
    python bench/index.py --dir D --reuse       # keep / reuse the generated dump in D
"""

from __future__ import annotations

import argparse
import asyncio
import bz2
import os
import random
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "server"))

from citecheck_testing.bulk_dump import HEADERS, copy_line, copy_value

REAL = {"citations": 10_000_000, "clusters": 9_000_000, "dockets": 71_700_000}
REAL_BZ2 = {"dockets": 4.5e9, "opinion-clusters": 2.3e9, "citations": 0.25e9}
TARGETS = (
    "build: plain <= 20 min, bz2 <= 40 min, peak RSS <= 1 GB, bytes written <= 3x index, index <= 3 GB; "
    "lookup p99 <= 200 us, 2,000 keys <= 100 ms, name search p95 <= 20 ms; 50-cite brief <= 1 s, CPU <= 1.5x "
    "of a 20,000-case index"
)

# (reporter, first volume, closed series?) — volumes are filled in turn, 100-300 cases each
SERIES = [
    ("U.S.", 300, True),
    ("F.2d", 1, True),
    ("F. Supp.", 1, True),
    ("A.2d", 1, True),
    ("P.2d", 1, True),
    ("N.E.2d", 1, True),
    ("N.W.2d", 1, True),
    ("S.E.2d", 1, True),
    ("So. 2d", 1, True),
    ("S.W.2d", 1, True),
    ("F.3d", 1, False),
    ("F.4th", 1, False),
    ("A.3d", 1, False),
    ("P.3d", 1, False),
    ("F. Supp. 3d", 1, False),
    ("N.E.3d", 1, False),
]
PARALLEL = ["Md.", "Pa.", "Cal. App. 4th", "Ill. App. 3d", "Mass.", "Wis. 2d", "Ga. App.", "N.Y.2d"]
COURTS = [
    "md",
    "pa",
    "cal",
    "calctapp",
    "ill",
    "mass",
    "wis",
    "ga",
    "ny",
    "ca1",
    "ca4",
    "ca9",
    "dcd",
    "scotus",
]
FORMS = ["{a} v. {b}", "State v. {a}", "People v. {a}", "{a} v. {b} Co.", "In re {a}", "United States v. {a}",
         "{a} v. {b} Inc.", "{a} v. City of {b}", "{a} Corp. v. {b}", "Commonwealth v. {a}"]  # fmt: skip
SYL = ["ba", "co", "de", "fi", "ga", "ho", "ja", "ke", "li", "mo", "ne", "pa", "ri", "sa", "to", "vi", "wa", "zu",
       "ber", "son", "ton", "ley", "man", "ner", "ski", "ard", "ell", "ing", "ford", "well"]  # fmt: skip
WORDS = ("the court held that appellant failed to preserve the issue for review and we affirm the judgment of the "
         "trial court because the statute requires notice before the hearing and no notice was given in this "
         "case so the order is vacated and remanded with instructions to dismiss the complaint").split()  # fmt: skip


def load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def say(line: str) -> None:
    print(f"{line}    [load {load()}]", flush=True)


def surnames(rng: random.Random, n: int = 30_000) -> list[str]:
    out = set()
    while len(out) < n:
        out.add("".join(rng.choice(SYL) for _ in range(rng.choice((2, 3, 3, 4)))).capitalize())
    return sorted(out)


def _text(rng: random.Random, n_words: int) -> str:
    start = rng.randrange(len(WORDS))
    words = [WORDS[(start + i) % len(WORDS)] for i in range(n_words)]
    for _ in range(max(1, n_words // 12)):  # vary it, or bz2 would see one sentence
        words[rng.randrange(n_words)] = str(rng.randrange(10**6))
    return " ".join(words)


class _Rows:
    """Fast rows of one file in the COPY dialect: a template of the constant columns, a few set per row."""

    def __init__(self, kind: str, constants: dict[str, object]) -> None:
        self.columns = HEADERS[kind]
        self.template = [copy_value(constants.get(c)) for c in self.columns]
        self.at = {c: i for i, c in enumerate(self.columns)}

    def line(self, values: dict[str, object]) -> str:
        row = list(self.template)
        for c, v in values.items():
            row[self.at[c]] = copy_value(v)
        return ",".join(row) + "\n"


def generate(folder: Path, *, scale: float, docket_sample: int, seed: int = 23) -> dict[str, int]:
    """Write the four files; returns row counts."""
    rng = random.Random(seed)
    names = surnames(rng)
    weights = [1 / (i + 1) ** 0.8 for i in range(len(names))]  # Zipf-like: a few names are very common
    heads = [_text(rng, 120) for _ in range(4000)]
    # how often each case is cited: heavy-tailed as CourtListener's counts are (most cases a few times,
    # a few thousands of times), drawn once and cycled
    cited = [min(int(rng.paretovariate(1.1)) - 1, 60_000) for _ in range(99_991)]
    attorneys = [_text(rng, 25) for _ in range(2000)]
    syllabi = [_text(rng, 40) for _ in range(2000)]
    n_clusters = int(REAL["clusters"] * scale)
    n_unref = int((REAL["dockets"] - REAL["clusters"]) * scale / docket_sample)
    folder.mkdir(parents=True, exist_ok=True)
    date, stamp = "2026-06-30", "2024-03-28 13:25:40.521221+00"
    clusters = _Rows("opinion-clusters", {"date_created": stamp, "date_modified": stamp, "judges": "Smith, Jones, Doe",
                                          "date_filed_is_approximate": False, "source": "U", "headnotes": "",
                                          "summary": "", "disposition": "Affirmed.", "blocked": False,
                                          "scdb_id": "", "procedural_history": "", "nature_of_suit": "",
                                          "posture": "", "history": "", "other_dates": "", "cross_reference": "",
                                          "correction": "", "filepath_json_harvard": "", "filepath_pdf_harvard": "",
                                          "arguments": ""})  # fmt: skip
    dockets = _Rows("dockets", {"date_created": stamp, "date_modified": stamp, "blocked": False,
                                "ia_needs_upload": False, "view_count": 0, "appeal_from_str": "",
                                "assigned_to_str": "", "referred_to_str": "",
                                "panel_str": "", "docket_number_core": "", "cause": "", "nature_of_suit": "",
                                "jury_demand": "", "jurisdiction_type": "", "appellate_fee_status": "",
                                "appellate_case_type_information": "", "mdl_status": "", "filepath_local": "",
                                "filepath_ia": "", "filepath_ia_json": "", "ia_upload_failure_count": None,
                                "federal_dn_case_type": "", "federal_dn_office_code": "",
                                "federal_dn_judge_initials_assigned": "", "federal_dn_judge_initials_referred": "",
                                "docket_number_raw": "", "docket_number_source": 0})  # fmt: skip
    cites = _Rows("citations", {"type": 3, "date_created": stamp, "date_modified": stamp})
    files = {
        k: (folder / f"{k}-{date}.csv").open("w", encoding="utf-8", newline="", buffering=1 << 20)
        for k in HEADERS
    }
    try:
        for k, f in files.items():
            f.write(",".join(HEADERS[k]) + "\n")
        for i, court in enumerate(COURTS):
            row = {"id": court, "full_name": f"Court {court.upper()}", "short_name": court, "citation_string": court,
                   "jurisdiction": "F" if court.startswith(("ca", "dc", "sc")) else "S", "date_modified": stamp,
                   "position": i, "in_use": True}  # fmt: skip
            files["courts"].write(copy_line(row.get(c) for c in HEADERS["courts"]))
        series = [[rep, vol, closed, rng.randint(100, 300), 0, 1] for rep, vol, closed in SERIES]
        cite_id = 0
        picks: list[int] = []
        for i in range(n_clusters):
            if not picks:
                picks = rng.choices(range(len(names)), weights=weights, k=200_000)
            cid, did = 1_000_000 + i, 10_000_000 + i
            a, b = names[picks.pop()], names[picks.pop()]
            name = FORMS[i % len(FORMS)].format(a=a, b=b)
            s = series[i % len(series)] if i % 5 else series[rng.randrange(len(series))]
            if s[4] >= s[3]:
                s[1], s[4], s[5] = s[1] + 1, 0, 1
            page = s[5]
            s[4] += 1
            s[5] += 3 + (i * 7919) % 13
            year = 1950 + (i * 60) // max(n_clusters, 1) if s[2] else 2019 + i % 6
            slug = name.lower().replace(" ", "-")[:75]
            files["opinion-clusters"].write(clusters.line({
                "id": cid, "date_filed": f"{year}-{1 + i % 12:02d}-{1 + i % 28:02d}", "slug": slug,
                "case_name_short": a, "case_name": name,
                "case_name_full": name.upper() + ", Appellant" if i % 2 else "",
                "attorneys": attorneys[i % len(attorneys)], "syllabus": syllabi[i % len(syllabi)] if i % 3 == 0 else "",
                "citation_count": cited[i % len(cited)],
                "precedential_status": "Published" if i % 20 else "Unpublished",
                "docket_id": did,
                "headmatter": f'<section class="head-matter"><p class="parties">{name.upper()}</p>'
                              f"<p>{heads[(i * 31) % len(heads)]}</p></section>",
            }))  # fmt: skip
            files["dockets"].write(dockets.line({
                "id": did, "source": 16, "case_name": name, "case_name_short": a, "slug": slug,
                "docket_number": f"No. {i % 9000}-{i % 97}", "court_id": COURTS[i % len(COURTS)],
            }))  # fmt: skip
            for vol, rep, pg in (
                (s[1], s[0], page),
                *(((100 + i % 400, PARALLEL[i % len(PARALLEL)], 1 + i % 900),) if i % 9 == 0 else ()),
            ):
                cite_id += 1
                files["citations"].write(cites.line({"id": cite_id, "volume": vol, "reporter": rep, "page": pg,
                                                     "cluster_id": cid}))  # fmt: skip
        for j in range(n_unref):
            a, b = names[j % len(names)], names[(j * 7) % len(names)]
            files["dockets"].write(dockets.line({
                "id": 200_000_000 + j, "source": 1, "case_name": f"{a} v. {b}", "case_name_short": a,
                "slug": f"{a}-v-{b}".lower(), "docket_number": f"1:2{j % 10}-cv-{j % 99999:05d}",
                "docket_number_core": f"2{j % 10}{j % 99999:05d}", "pacer_case_id": str(j),
                "cause": "28:1332 Diversity-Breach of Contract", "nature_of_suit": "190 Contract: Other",
                "jury_demand": "Plaintiff", "jurisdiction_type": "Diversity", "court_id": COURTS[j % len(COURTS)],
                "ia_needs_upload": True, "assigned_to_str": "Judge " + b,
            }))  # fmt: skip
    finally:
        for f in files.values():
            f.close()
    return {
        "clusters": n_clusters,
        "citations": cite_id,
        "dockets": n_clusters + n_unref,
        "unreferenced": n_unref,
    }


def _tree_rss(pid: int, cpu: dict[int, float] | None = None) -> int:
    """Resident bytes of ``pid`` and every descendant (Linux /proc); ``cpu`` gets each one's CPU seconds."""
    total = 0
    kids: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as fh:
                    ppid = int(fh.read().rsplit(")", 1)[1].split()[1])
                kids.setdefault(ppid, []).append(int(entry))
            except (OSError, ValueError, IndexError):
                pass
    todo = [pid]
    while todo:
        p = todo.pop()
        todo.extend(kids.get(p, ()))
        try:
            with open(f"/proc/{p}/statm") as fh:
                total += int(fh.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
            if cpu is not None:
                with open(f"/proc/{p}/stat") as fh:
                    fields = fh.read().rsplit(")", 1)[1].split()
                cpu[p] = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
        except (OSError, ValueError, IndexError):
            pass
    return total


def timed_build(folder: Path, index: Path, *, extra: list[str] | None = None) -> dict[str, float]:
    """One ``citecheck corpus sync --from`` process: wall, peak RSS (whole tree), bytes written, CPU."""
    index.unlink(missing_ok=True)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[1] / "server")}
    cmd = [sys.executable, "-m", "citecheck", "corpus", "sync", "--from", str(folder), "--index", str(index),
           "--offline", *(extra or [])]  # fmt: skip
    t0 = time.monotonic()
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    peak = 0
    done = threading.Event()
    cpu: dict[int, float] = {}  # CPU seconds of each process of the build, last seen

    def watch() -> None:
        nonlocal peak
        while not done.is_set():
            peak = max(peak, _tree_rss(proc.pid, cpu))
            done.wait(0.5)

    t = threading.Thread(target=watch, daemon=True)
    t.start()
    out, err = proc.communicate()
    done.set()
    t.join()
    wall = time.monotonic() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode != 0:
        raise SystemExit(f"build failed ({proc.returncode}): {out} {err[-2000:]}")
    return {
        "wall": wall,
        "peak_rss": peak,
        "written": (after.ru_oublock - before.ru_oublock) * 512,
        "cpu": (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime),
        "size": index.stat().st_size,
        # on two idle cores the build takes at least its busiest process's CPU, and half of all of it
        "busiest": max(cpu.values(), default=0.0),
        "idle_estimate": max(max(cpu.values(), default=0.0), sum(cpu.values()) / 2),
    }


def gib(n: float) -> str:
    return f"{n / 2**30:.2f} GiB"


def bench_build(folder: Path, work: Path, counts: dict[str, int], scale: float, docket_sample: int) -> Path:
    index = work / "index.sqlite"
    files = sorted(folder.glob("*.csv"))
    total = sum(p.stat().st_size for p in files)
    say(f"dump: {counts['citations']:,} citations, {counts['clusters']:,} clusters, {counts['dockets']:,} dockets "
        f"({counts['unreferenced']:,} unreferenced, 1/{docket_sample} of the real ratio), "
        f"{gib(total)} of CSV")  # fmt: skip
    r = timed_build(folder, index)
    # the unreferenced dockets we did not write: parse rate measured on this run's dockets file share
    dockets = folder / "dockets-2026-06-30.csv"
    missing_rows = REAL["dockets"] * scale - counts["dockets"]
    docket_rate = _parse_rate(dockets)
    extra = missing_rows / docket_rate
    say(f"build from plain CSV: {r['wall'] / 60:.1f} min wall, CPU {r['cpu']:.0f} s "
        f"(busiest process {r['busiest']:.0f} s: "
        f"on two idle cores about {r['idle_estimate'] / 60:.1f} min), peak RSS {gib(r['peak_rss'])}, "
        f"wrote {gib(r['written'])} = {r['written'] / r['size']:.2f}x the index, index {gib(r['size'])}")  # fmt: skip
    say(f"  + {missing_rows:,.0f} more unreferenced dockets at the measured {docket_rate:,.0f} rows/s: "
        f"+{extra / 60:.1f} min "
        f"(on the dockets lane, alongside the citations lane)")  # fmt: skip
    _sizes(index)
    if scale < 1:
        say(f"  at 10 M citations (x{1 / scale:.0f}, linear): ~{(r['wall'] + extra) / scale / 60:.1f} min, index "
            f"~{gib(r['size'] / scale)}")  # fmt: skip
    return index


#: Distinct name words in CourtListener's 9 M real captions: an estimate (surnames alone run to over a
#: million; companies, places and OCR slips add more); the synthetic dump has a few tens of thousands.
REAL_VOCABULARY = (1_500_000, 3_000_000)


def _sizes(index: Path) -> None:
    """What each table takes, and the ``near`` table at the real vocabulary's size (it grows with the
    number of distinct words, not of cases)."""
    import sqlite3

    db = sqlite3.connect(f"file:{index}?mode=ro&immutable=1", uri=True)
    try:
        sizes = dict(db.execute("SELECT name, sum(pgsize) FROM dbstat GROUP BY name").fetchall())
        db.execute("CREATE VIRTUAL TABLE temp.v USING fts5vocab(main, names, 'row')")
        words = db.execute(
            "SELECT count(*) FROM temp.v WHERE length(term) >= 4 AND term NOT LIKE 'zqcited%'"
        ).fetchone()[0]
    except sqlite3.Error as exc:
        say(f"  table sizes: not available ({exc})")
        return
    finally:
        db.close()
    tables = {
        "cases": sizes.get("cases", 0),
        "cites": sizes.get("cites", 0),
        "volumes": sizes.get("volumes", 0) + sizes.get("volumes_key", 0),
        "names": sum(v for k, v in sizes.items() if k.startswith("names_")),
        "near": sizes.get("near", 0),
    }
    say("  tables: " + ", ".join(f"{k} {v / 2**20:.0f} MiB" for k, v in tables.items()))
    if words:
        per_word = tables["near"] / words
        lo, hi = (n * per_word for n in REAL_VOCABULARY)
        say(f"  near: {words:,} words of 4+ letters here, {per_word:.0f} bytes a word; "
            f"at the real vocabulary's estimated "
            f"{REAL_VOCABULARY[0] / 1e6:.1f}-{REAL_VOCABULARY[1] / 1e6:.1f} M words ~{gib(lo)}-{gib(hi)} "
            f"(index ~{gib(index.stat().st_size - tables['near'] + lo)}-"
            f"{gib(index.stat().st_size - tables['near'] + hi)})")  # fmt: skip


def _parse_rate(path: Path, seconds: float = 8.0) -> float:
    """Rows per second the index's reader gets through a dockets file (parse + filter, one core)."""
    from citecheck.sources.index.rows import BulkReader

    n, t0 = 0, time.monotonic()
    with BulkReader(path, "dockets") as reader:
        for _ in reader.rows():
            n += 1
            if n % 50_000 == 0 and time.monotonic() - t0 > seconds:
                break
    return n / (time.monotonic() - t0)


def bench_bz2(folder: Path, work: Path, bz2_scale: float, rows: dict[str, int]) -> None:
    """Decompression rate of the child decoder, and a .bz2 build against the plain build of the same files."""
    sample = work / "bz2"
    shutil.rmtree(sample, ignore_errors=True)
    sample.mkdir()
    plain = work / "plain-sample"
    shutil.rmtree(plain, ignore_errors=True)
    plain.mkdir()
    for src in sorted(folder.glob("*.csv")):
        limit = int(src.stat().st_size * bz2_scale)
        with src.open("rb") as fh:
            data = (
                fh.read(limit)
                if src.name.startswith(("opinion-clusters", "dockets", "citations"))
                else fh.read()
            )
        # end on a row: generated values hold no newline
        cut = data.rfind(b"\n") + 1 if limit < src.stat().st_size else len(data)
        (plain / src.name).write_bytes(data[:cut])
        (sample / (src.name + ".bz2")).write_bytes(bz2.compress(data[:cut], 9))
    comp = sum(p.stat().st_size for p in sample.iterdir())
    raw = sum(p.stat().st_size for p in plain.iterdir())
    t0 = time.monotonic()  # the decoder alone, as the build's child runs it (libbz2, one core)
    for p in sorted(sample.iterdir()):
        code = (
            "import bz2, os, shutil, sys; shutil.copyfileobj(bz2.open(sys.argv[1]), open(os.devnull, 'wb'))"
        )
        subprocess.run([sys.executable, "-I", "-c", code, str(p)], check=True)
    dec = time.monotonic() - t0
    out_rate, in_rate = raw / dec, comp / dec
    say(f"bz2 decoding (one child, libbz2): {out_rate / 2**20:.1f} MiB/s of CSV out, "
        f"{in_rate / 2**20:.1f} MiB/s of .bz2 in "
        f"(sample ratio {raw / comp:.1f}:1)")  # fmt: skip
    a = timed_build(plain, work / "sample-plain.sqlite", extra=["--partial"])
    b = timed_build(sample, work / "sample-bz2.sqlite", extra=["--partial"])
    say(
        f"build of the {bz2_scale:.0%} sample: plain {a['wall']:.0f} s, .bz2 {b['wall']:.0f} s "
        f"({b['wall'] / a['wall']:.2f}x)"
    )
    # the real files' CSV size: their row counts at this dump's bytes per row (the synthetic text compresses
    # far better than real text, so the .bz2 sizes of the sample say nothing of the real ones)
    per_row = {k: (folder / f"{k}-2026-06-30.csv").stat().st_size / n for k, n in rows.items()}
    real_csv = {k: per_row[k] * REAL[{"opinion-clusters": "clusters"}.get(k, k)] for k in per_row}
    lane_a = (real_csv["opinion-clusters"] + real_csv["dockets"]) / out_rate
    say(f"real sizes: ~{gib(real_csv['opinion-clusters'])} of clusters and ~{gib(real_csv['dockets'])} of dockets CSV "
        f"inside {gib(REAL_BZ2['opinion-clusters'] + REAL_BZ2['dockets'])} of .bz2 (ratios "
        f"{real_csv['opinion-clusters'] / REAL_BZ2['opinion-clusters']:.1f} and "
        f"{real_csv['dockets'] / REAL_BZ2['dockets']:.1f}); "
        f"the cases lane's decoder child turns them out in ~{lane_a / 60:.0f} min at {out_rate / 2**20:.0f} MiB/s, "
        "beside the lane's parse")  # fmt: skip


def _keys(index_path: Path, rng: random.Random, n: int) -> dict[str, list]:
    """Keys found, keys absent from complete volumes and from running series, the found cases' names,
    and names of cases drawn in proportion to how often they are cited (what briefs cite)."""
    import sqlite3

    from citecheck.sources.index.schema import CITE_SEP, FIELD_SEP
    from citecheck.sources.models import CiteKey

    db = sqlite3.connect(f"file:{index_path}?mode=ro&immutable=1", uri=True)
    reps = dict(db.execute("SELECT idx, name FROM reporters"))
    lo, hi = db.execute("SELECT min(id), max(id) FROM cases").fetchone()
    found, inner, running, names, years = [], [], [], [], []
    v1 = db.execute("SELECT value FROM meta WHERE key='schema_version'").fetchone()[0] == "1"  # an A/B
    while len(found) < n:
        cid = rng.randint(lo, hi)
        if v1:
            first = db.execute(
                "SELECT reporter, volume, page FROM cites WHERE cluster=? LIMIT 1", (cid,)
            ).fetchone()
            row = db.execute(
                "SELECT name, ?, date_filed FROM cases WHERE id=?", (first is not None, cid)
            ).fetchone()
        else:
            row = db.execute("SELECT name, cites, date_filed FROM cases WHERE id=?", (cid,)).fetchone()
        if row and row[1]:
            rep, vol, page = first if v1 else row[1].split(CITE_SEP)[0].split(FIELD_SEP)[:3]
            found.append(CiteKey(str(vol), reps[int(rep)], str(page)))
            names.append(row[0])
            years.append(str(row[2] or "")[:4])
    pool = []
    while len(pool) < 50 * n:
        cited = "0" if v1 else "cited"
        row = db.execute(f"SELECT name, {cited} FROM cases WHERE id=?", (rng.randint(lo, hi),)).fetchone()
        if row:
            pool.append(row)
    cited = [name for name, _ in rng.choices(pool, weights=[(c or 0) + 1 for _, c in pool], k=n)]
    vols = db.execute(
        "SELECT reporter, volume, complete FROM volumes WHERE typeof(volume)='integer'"
    ).fetchall()
    complete = [v for v in vols if v[2]]
    incomplete = [v for v in vols if not v[2]]
    for vpool, out in ((complete, inner), (incomplete, running)):
        while vpool and len(out) < n:
            rep, vol, _ = rng.choice(vpool)
            page = rng.randint(2, 3000)
            hit = db.execute(
                "SELECT 1 FROM cites WHERE reporter=? AND volume=? AND page=?", (rep, vol, page)
            ).fetchone()
            if not hit:
                out.append(CiteKey(str(vol), reps[rep], str(page)))
    db.close()
    return {
        "found": found,
        "not found, complete volume": inner,
        "not found, running series": running,
        "names": names,
        "years": years,
        "cited names": cited,
    }


def _typo(name: str, rng: random.Random, how: str) -> str:
    """One slip in one word of four letters or more of a party's name (not in "v." or "Co.")."""
    import re

    words = [m for m in re.finditer(r"[A-Za-z]{4,}", name)]
    if not words:
        return name
    m = rng.choice(words)
    w, i = m.group(), rng.randrange(len(m.group()))
    if how == "dropped":
        w = w[:i] + w[i + 1 :]
    elif how == "changed":
        w = w[:i] + rng.choice([c for c in "abcdefghijklmnopqrstuvwxyz" if c != w[i].lower()]) + w[i + 1 :]
    else:  # two neighbours swapped (different letters, or it is no slip)
        spots = [j for j in range(len(w) - 1) if w[j].lower() != w[j + 1].lower()]
        if not spots:
            return name
        j = rng.choice(spots)
        w = w[:j] + w[j + 1] + w[j] + w[j + 2 :]
    return name[: m.start()] + w + name[m.end() :]


NAME_KINDS = (
    "as named",
    "abbreviated",
    "one letter dropped",
    "one letter changed",
    "two letters swapped",
    "one party, any case",
    "one party, a case as often cited as briefs cite it",
)


def _variant(name: str, rng: random.Random, kind: str) -> str:
    """A name as a brief writes it (see ``NAME_KINDS``)."""
    from citecheck.sources.name_keys import parties

    if kind == "abbreviated":
        return (
            name.replace("Company", "Co.")
            .replace("Corporation", "Corp.")
            .replace("United States", "U.S.")
            .replace("Incorporated", "Inc.")
        )
    if kind.startswith("one party"):
        ps = parties(name)
        return ps[-1] if ps else name
    if kind.startswith(("one letter", "two letters")):
        return _typo(name, rng, kind.split()[-1])
    return name


def pct(xs: list[float], p: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(p / 100 * len(xs)))]


def _evict(path: Path) -> bool:
    """Drop the file's pages from the OS page cache (only this file's), as after a reboot; False if the
    platform cannot."""
    if not hasattr(os, "posix_fadvise"):
        return False
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
        os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
    finally:
        os.close(fd)
    return True


def _cache(path: Path) -> None:
    """Read the whole file once, so its pages are in the OS page cache (as just after a sync)."""
    with path.open("rb") as fh:
        while fh.read(1 << 24):
            pass


def _forget(ix: Any) -> None:
    if hasattr(ix, "forget"):
        ix.forget()
    else:  # the first layout's reader (an A/B against it)
        ix._records.clear()
        ix._volumes.clear()


def _per_key(ix: Any, keys: list, label: str) -> None:
    wall, cpu = [], []
    for k in keys:
        _forget(ix)  # every key a first: no record or volume cache
        t0, c0 = time.perf_counter(), time.thread_time()
        ix.lookup([k])
        wall.append(time.perf_counter() - t0)
        cpu.append(time.thread_time() - c0)
    say(f"lookup {label}: wall p50 {statistics.median(wall) * 1e6:.0f} us, p99 {pct(wall, 99) * 1e6:.0f} us; "
        f"CPU p50 {statistics.median(cpu) * 1e6:.0f} us, p99 {pct(cpu, 99) * 1e6:.0f} us "
        f"({len(wall)} keys)")  # fmt: skip


def bench_lookups(index_path: Path, n: int = 5000) -> dict[str, list]:
    """Per key (wall and this thread's CPU: on a loaded machine the wall p99 is the scheduler's), a batch, names.

    Each kind of key is measured on a freshly opened index (a new connection and map; no record or
    volume cached) three ways: the file just read from disk (its pages dropped from the OS page cache
    first, as after a reboot), the file in the page cache (as after a sync wrote it, or any use since),
    and again once this process has touched its pages (a running server)."""
    from citecheck.sources.index.lookup import CitationIndex

    rng = random.Random(7)
    keys = _keys(index_path, rng, n)
    for what in ("found", "not found, complete volume", "not found, running series"):
        for state in ("file not in the page cache", "file in the page cache", "pages touched before"):
            if state == "file not in the page cache" and not _evict(index_path):
                continue
            if state == "file in the page cache":
                _cache(index_path)
            ix = CitationIndex(index_path)
            try:
                if state == "pages touched before":
                    _per_key(ix, keys[what], "(warm-up)")
                _per_key(ix, keys[what], f"{what}, fresh open, {state}")
            finally:
                ix.close()
    mixed = (
        keys["found"][:1400]
        + keys["not found, complete volume"][:300]
        + keys["not found, running series"][:300]
    )
    _cache(index_path)
    for state in ("fresh open", "again"):
        runs, cpus = [], []
        ix = CitationIndex(index_path)
        try:
            for _ in range(7 if state == "again" else 1):
                _forget(ix)
                t0, c0 = time.perf_counter(), time.thread_time()
                ix.lookup(mixed)
                runs.append(time.perf_counter() - t0)
                cpus.append(time.thread_time() - c0)
            if state == "again":
                runs, cpus = runs[1:], cpus[1:]
        finally:
            ix.close()
        say(f"batch of {len(mixed):,} keys (70% found), {state}: median {statistics.median(runs) * 1e3:.0f} ms wall, "
            f"{statistics.median(cpus) * 1e3:.0f} ms CPU over {len(runs)} run(s)")  # fmt: skip
    return keys


def name_queries(
    keys: dict[str, list], rng: random.Random, per_kind: int = 250
) -> list[tuple[str, str, str]]:
    """(kind, query, the name of the case meant) for every kind of ``NAME_KINDS``."""
    out = []
    for i in range(per_kind):
        for kind in NAME_KINDS:
            source = keys["cited names"] if "often cited" in kind else keys["names"]
            name = source[i % len(source)]
            out.append((kind, _variant(name, rng, kind), name))
    return out


def bench_names(index_path: Path, queries: list[tuple[str, str, str]]) -> None:
    """The name search on names written as briefs write them (``NAME_KINDS``): time and where the case is."""
    from citecheck.sources.index.lookup import CitationIndex

    _cache(index_path)
    ix = CitationIndex(index_path)
    wall: list[float] = []
    cpu: list[float] = []
    ranks: dict[str, list[int]] = {}
    times: dict[str, list[float]] = {}
    try:
        for kind, q, name in queries:
            t0, c0 = time.perf_counter(), time.thread_time()
            hits = ix.search_names(q, limit=10)
            wall.append(time.perf_counter() - t0)
            cpu.append(time.thread_time() - c0)
            times.setdefault(kind, []).append(wall[-1])
            ranks.setdefault(kind, []).append(
                next((j for j, h in enumerate(hits) if h.record.name == name), 99)
            )
    finally:
        ix.close()
    say(f"name search: wall p50 {statistics.median(wall) * 1e3:.1f} ms, p95 {pct(wall, 95) * 1e3:.1f} ms; CPU p50 "
        f"{statistics.median(cpu) * 1e3:.1f} ms, p95 {pct(cpu, 95) * 1e3:.1f} ms, p99 {pct(cpu, 99) * 1e3:.1f} ms "
        f"({len(wall):,} brief-style names)")  # fmt: skip
    for kind, rs in ranks.items():
        say(f"  {kind}: that name first for {sum(r == 0 for r in rs) / len(rs):.0%}, in the first 10 for "
            f"{sum(r < 10 for r in rs) / len(rs):.0%}; wall p95 {pct(times[kind], 95) * 1e3:.1f} ms")  # fmt: skip


def _brief(keys: dict[str, list]) -> str:
    """Forty real citations written as a lawyer writes them (name, citation, pin, the year decided) and
    ten that no case holds: what a brief's check costs is then the lookups and the ten findings' fixes,
    not a year mismatch (and its name search) on every line."""
    from citecheck import reporters

    def possible(k: Any, year: str) -> bool:  # the synthetic dump numbers volumes past the real series' ends
        return not (
            reporters.volume_problem(k.reporter, k.volume)
            or reporters.page_problem(k.reporter, k.page)
            or (year.isdigit() and reporters.series_year_problem(k.reporter, int(year)))
        )

    real = [x for x in zip(keys["found"], keys["names"], keys["years"], strict=True) if possible(x[0], x[2])]
    parts = [f"See *{name}*, {k}, {int(k.page) + 2} ({year})." for k, name, year in real[:40]]
    absent = [k for k in keys["not found, complete volume"] if possible(k, "1999")][:5]
    for k in absent + [k for k in keys["not found, running series"] if possible(k, "1999")][:5]:
        parts.append(f"Compare *Invented v. Party*, {k} (1999).")
    return "\n\n".join(" ".join(parts[i : i + 3]) for i in range(0, len(parts), 3)) + "\n"


def bench_brief(index_path: Path, small_index: Path) -> None:
    from citecheck.config import Settings
    from citecheck.pipeline import check_document
    from citecheck.sources.base import Unavailable
    from citecheck.sources.chain import SourceChain
    from citecheck.sources.index.source import IndexSource

    rng = random.Random(11)
    settings = Settings(offline=True, cap_fetch=False)

    def measure(path: Path, keys: dict[str, list]) -> tuple[float, float]:
        text = _brief(keys)

        async def once() -> tuple[float, float]:
            chain = SourceChain([IndexSource.open(path), Unavailable("offline")])
            try:
                t0, c0 = time.perf_counter(), time.process_time()
                report = await check_document(text, chain, settings)
                assert len(report.extraction.citations) >= 50
                return time.perf_counter() - t0, time.process_time() - c0
            finally:
                await chain.close()

        runs = [asyncio.run(once()) for _ in range(5)]
        return statistics.median(r[0] for r in runs), statistics.median(r[1] for r in runs)

    big = measure(index_path, _keys(index_path, rng, 400))
    small = measure(small_index, _keys(small_index, rng, 400))
    say(f"50-citation brief, offline: {big[0]:.2f} s wall, {big[1]:.2f} s CPU against this index; {small[1]:.2f} s CPU "
        f"against a 20,000-case index ({big[1] / small[1]:.2f}x)")  # fmt: skip


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--scale", type=float, default=1.0, help="fraction of 10 M citations (default 1)")
    ap.add_argument("--docket-sample", type=int, default=8, help="write 1/N of the unreferenced dockets")
    ap.add_argument("--bz2-scale", type=float, default=0.05, help="share of the dump built from .bz2")
    ap.add_argument(
        "--dir", type=Path, default=None, help="where the dump and indexes go (default: a temp dir)"
    )
    ap.add_argument("--reuse", action="store_true", help="reuse a dump already in --dir")
    ap.add_argument(
        "--skip-build", action="store_true", help="reuse --dir's index.sqlite (lookups, brief only)"
    )
    ap.add_argument("--no-bz2", action="store_true", help="skip the .bz2 sample build")
    ap.add_argument("--names-to", type=Path, help="also write the name-search queries (JSON) here")
    ap.add_argument(
        "--names-from",
        type=Path,
        help="only run these name-search queries (JSON from --names-to) against --dir's index.sqlite "
        "(an A/B of two versions of the code on one dump)",
    )
    args = ap.parse_args()
    if args.names_from:
        import json

        bench_names(
            (args.dir or Path(".")) / "index.sqlite",
            [tuple(q) for q in json.loads(args.names_from.read_text())],
        )
        return
    work = args.dir or Path(tempfile.mkdtemp(prefix="citecheck-bench-index-"))
    work.mkdir(parents=True, exist_ok=True)
    say(f"bench/index.py on {os.cpu_count()} cores; targets: {TARGETS}")
    dump = work / "dump"
    if args.reuse and (dump / "counts.txt").exists():
        counts = {k: int(v) for k, v in (ln.split("=") for ln in (dump / "counts.txt").read_text().split())}
    else:
        shutil.rmtree(dump, ignore_errors=True)
        t0 = time.monotonic()
        counts = generate(dump, scale=args.scale, docket_sample=args.docket_sample)
        (dump / "counts.txt").write_text(" ".join(f"{k}={v}" for k, v in counts.items()))
        say(f"generated the dump in {time.monotonic() - t0:.0f} s")
    index = work / "index.sqlite"
    if not args.skip_build:
        index = bench_build(dump, work, counts, args.scale, args.docket_sample)
        rows = {
            "opinion-clusters": counts["clusters"],
            "dockets": counts["dockets"],
            "citations": counts["citations"],
        }
        if not args.no_bz2:
            bench_bz2(dump, work, args.bz2_scale, rows)
    small_dump = work / "small"
    if not (work / "small.sqlite").exists():
        generate(small_dump, scale=20_000 / REAL["clusters"], docket_sample=args.docket_sample, seed=5)
        timed_build(small_dump, work / "small.sqlite")
    keys = bench_lookups(index)
    queries = name_queries(keys, random.Random(13))
    if args.names_to:
        import json

        args.names_to.write_text(json.dumps(queries))
    bench_names(index, queries)
    bench_brief(index, work / "small.sqlite")
    if args.dir is None:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
