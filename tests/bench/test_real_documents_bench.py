"""bench/real_documents.py (issue 36's real-document table) runs and prints a row per file: what was read,
the counts, every error and warning, and a file it cannot read as "not read: why". Run on small files
written here in the real formats (the real documents it is meant for are named in docs/evaluation.md)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from citecheck_testing.pdf import build_pdf

ROOT = Path(__file__).resolve().parents[2]


def test_the_table_has_a_row_per_file_and_says_what_was_not_read(tmp_path) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    typed = "The motion is timely; grant it. " * 4 + "See Savage v. Parks, 100 A.2d 450, 449 (D.C. 1953)."
    (docs / "filing.pdf").write_bytes(build_pdf([typed, ""], scanned={1}))
    (docs / "scan.pdf").write_bytes(build_pdf(["A CERTIFIED COPY"], scanned={0}))
    (docs / "brief.md").write_text("See Roe v. Wade, 640 F.4th 512 (2023).\n", encoding="utf-8")
    out = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "real_documents.py"), str(docs)],
        capture_output=True,
        text=True,
        timeout=600,
        cwd=tmp_path,
    )
    assert out.returncode == 0, out.stderr[-3000:]
    rows = {line.split("|")[1].strip(): line for line in out.stdout.splitlines() if line.startswith("| ")}
    assert set(rows) == {"document", "brief.md", "filing.pdf", "scan.pdf"}
    assert (
        "| pdf | 2 | 2 | 1 | 1 | 0 | error pincite-out-of-range" in rows["filing.pdf"]
    )  # 449 before page 450
    assert "not read: nothing could be read" in rows["scan.pdf"]
    assert "error impossible-citation" in rows["brief.md"]
    assert out.stdout.rstrip().endswith("3 documents, 2 citations, 2 errors, 0 warnings")
