"""Comparing ``citecheck batch``'s Parquet tables with ``citecheck check --format json`` (tests and bench).

Both sides are read into the same shape: per document (absolute path), its findings in report order,
each as the tuple of every field the JSON report gives a finding (span, message, evidence, fixes).
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

Row = tuple[Any, ...]


def _row(document: str, f: dict[str, Any]) -> Row:
    span = f["span"]
    return (
        f["kind"],
        f["severity"],
        span["start"],
        span["end"],
        span["line"],
        span["column"],
        span["end_line"],
        span["end_column"],
        f["page"],
        f["message"],
        f["citation_index"],
        json.dumps(f["evidence"], sort_keys=True, ensure_ascii=False),
        json.dumps(f["fixes"], sort_keys=True, ensure_ascii=False),
    )


def findings_of_check(report: dict[str, Any], cwd: Path | None = None) -> dict[str, list[Row]]:
    """A ``check --format json`` report → {absolute path: finding rows}."""
    base = cwd or Path.cwd()
    return {
        os.path.abspath(base / f["path"]): [_row(f["path"], x) for x in f["findings"]]
        for f in report["files"]
    }


def findings_of_batch(out: Path) -> dict[str, list[Row]]:
    """``batch --out`` tables → {path: finding rows}; every checked document is there, with or without findings."""
    import pyarrow.parquet as pq

    from citecheck.batch.store import documents_path

    docs = pq.read_table(documents_path(out)).to_pylist()
    result: dict[str, list[Row]] = {d["path"]: [] for d in docs if d["error"] is None}
    for r in pq.read_table(out).to_pylist():
        f = {
            "kind": r["kind"],
            "severity": r["severity"],
            "span": {k: r[k] for k in ("start", "end", "line", "column", "end_line", "end_column")},
            "page": r["page"],
            "message": r["message"],
            "citation_index": r["citation_index"],
            "evidence": json.loads(r["evidence"]),
            "fixes": json.loads(r["fixes"]),
        }
        result.setdefault(r["document"], []).append(_row(r["document"], f))
    return result


def differences(check: dict[str, list[Row]], batch: dict[str, list[Row]]) -> list[str]:
    """Each document whose findings differ, in words (empty: the same everywhere)."""
    out = []
    for path in sorted(set(check) | set(batch)):
        a, b = check.get(path), batch.get(path)
        if a is None or b is None:
            out.append(f"{path}: only in {'batch' if a is None else 'check'}")
        elif a != b:
            first = next(
                (i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), min(len(a), len(b))
            )
            out.append(f"{path}: {len(a)} vs {len(b)} findings; first difference at #{first}")
    return out
