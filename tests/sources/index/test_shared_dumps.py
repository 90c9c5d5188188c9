"""The shared corpus's real rows in every dialect CourtListener has published (issue 32's acceptance): the 30
modern cases of ``courtlistener-bulk/`` with their parallel citations, the CAP volume's cases (100 A.2d) and the
499 real case tuples of ``citations/``, written as PostgreSQL's COPY writes each dialect
(``citecheck_testing.dump_dialects``, byte-identical to PostgreSQL's on ``dumps/``), built into the index,
and every one of their citations checked in a brief: no error and no warning. Reads ../shared at run time
and skips inside each test when it is absent; nothing of it is copied into the repository."""

from __future__ import annotations

import asyncio
import csv
import json
from pathlib import Path

import pytest

from citecheck.config import Settings
from citecheck.findings import Severity
from citecheck.pipeline import check_document
from citecheck.sources.base import Unavailable
from citecheck.sources.chain import SourceChain
from citecheck.sources.index.build import build_from_folder
from citecheck.sources.index.source import IndexSource
from citecheck_testing import shared_corpus_path
from citecheck_testing.dump_dialects import DIALECTS, STAMP, write_dump


def _shared() -> Path:
    root = shared_corpus_path()
    if not (root / "courtlistener-bulk" / "citations.csv").is_file():
        pytest.skip("../shared/corpus is not here")
    return root


def _bulk(root: Path, name: str) -> list[dict[str, str | None]]:
    csv.field_size_limit(1 << 30)
    with (root / "courtlistener-bulk" / name).open(encoding="utf-8", newline="") as fh:
        rows = list(csv.DictReader(fh, quotechar='"', escapechar="\\", doublequote=False))
    return [{k: (v if v != "" else None) for k, v in row.items()} for row in rows]


def real_tables(root: Path) -> tuple[dict[str, list[dict]], list[str]]:
    """The dump's rows, and one brief line per real case: ``Name, CITE[, PARALLEL…] (YEAR).``"""
    courts = _bulk(root, "courts.csv")
    dockets = _bulk(root, "dockets.csv")
    clusters = _bulk(root, "opinion-clusters.csv")
    citations = _bulk(root, "citations.csv")
    lines: list[str] = []
    by_cluster: dict[str, list[dict]] = {}
    for c in citations:
        by_cluster.setdefault(str(c["cluster_id"]), []).append(c)
    for k in clusters:
        cites = sorted(by_cluster.get(str(k["id"]), []), key=lambda c: int(str(c["id"])))
        written = ", ".join(f"{c['volume']} {c['reporter']} {c['page']}" for c in cites)
        lines.append(f"{k['case_name']}, {written} ({str(k['date_filed'])[:4]}).")
    next_id = 980_000_000
    # the CAP volume's cases: 100 A.2d (D.C. Municipal Court of Appeals, 1953)
    for case in json.loads((root / "cap-static" / "a2d" / "100" / "CasesMetadata.json").read_text("utf-8")):
        next_id += 1
        vol, rep, page = "100", "A.2d", str(case["first_page"])
        clusters.append({"id": next_id, "case_name": case["name_abbreviation"], "case_name_full": case["name"],
                         "date_filed": case["decision_date"], "docket_id": next_id + 1_000_000,
                         "precedential_status": "Published", "date_modified": STAMP})  # fmt: skip
        dockets.append({"id": next_id + 1_000_000, "court_id": "dc", "docket_number": case["docket_number"],
                        "date_created": STAMP, "date_modified": STAMP})  # fmt: skip
        citations.append({"id": next_id, "volume": vol, "reporter": rep, "page": page, "type": 3,
                          "cluster_id": next_id, "date_created": STAMP, "date_modified": STAMP})  # fmt: skip
        lines.append(f"{case['name_abbreviation']}, {vol} {rep} {page} (D.C. {case['decision_date'][:4]}).")
    # the real case tuples (one citation each)
    for row in (root / "citations" / "legalcitebench-cases-A.jsonl").read_text("utf-8").splitlines():
        if not row.strip():
            continue
        t = json.loads(row)
        parts = str(t["citation"]).split()
        if len(parts) < 3 or not parts[0].isdigit() or not parts[-1].isdigit():
            continue
        next_id += 1
        name = " ".join(str(t["case_name"]).split())
        clusters.append({"id": next_id, "case_name": name, "date_filed": f"{t['year']}-06-15",
                         "docket_id": next_id + 1_000_000, "precedential_status": "Published",
                         "date_created": STAMP, "date_modified": STAMP})  # fmt: skip
        dockets.append({"id": next_id + 1_000_000, "date_created": STAMP, "date_modified": STAMP})
        citations.append({"id": next_id, "volume": parts[0], "reporter": " ".join(parts[1:-1]), "page": parts[-1],
                          "type": 2, "cluster_id": next_id, "date_created": STAMP, "date_modified": STAMP})  # fmt: skip
        lines.append(f"{name}, {t['citation']} ({t['year']}).")
    tables = {"courts": courts, "dockets": dockets, "opinion-clusters": clusters, "citations": citations}
    return tables, lines


@pytest.mark.parametrize("dialect", list(DIALECTS))
def test_every_real_citation_of_the_shared_corpus_verifies_in_every_dialect(
    dialect: str, tmp_path: Path
) -> None:
    root = _shared()
    tables, lines = real_tables(root)
    write_dump(tmp_path / "dump", tables, DIALECTS[dialect])
    stats = build_from_folder(tmp_path / "ix.sqlite", tmp_path / "dump", full_dump=True)
    assert stats.refused == {}
    assert stats.cases == len(tables["opinion-clusters"])
    assert stats.citations == len(
        {(c["volume"], c["reporter"], c["page"], c["cluster_id"]) for c in tables["citations"]}
    )
    brief = "\n\n".join(lines) + "\n"

    async def run():
        chain = SourceChain([IndexSource.open(tmp_path / "ix.sqlite"), Unavailable("offline mode")])
        try:
            return await check_document(brief, chain, Settings(offline=True, cap_fetch=False))
        finally:
            await chain.close()

    report = asyncio.run(run())
    loud = [
        (report.extraction.citations[f.citation_index].text, f.kind.value, f.message[:160])
        for f in report.findings
        if f.severity is not Severity.INFO and f.citation_index is not None
    ]
    assert loud == []
    verified = sum(1 for r in report.results if r.status.value == "verified")
    assert verified >= 0.9 * len(
        lines
    )  # the rest: tuples whose reporter eyecite reads otherwise, not checked
