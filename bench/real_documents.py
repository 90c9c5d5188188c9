"""What a new user meets on real documents: each file checked as ``citecheck check --offline`` checks it on a
fresh machine (no corpus, no index, no network), one table row per file.

Issue 36's acceptance: on real documents nobody here wrote (filed briefs and motions, agency decisions,
law-review articles with footnotes, .docx/.doc/.wpd/.pdf as courts and agencies publish them) citecheck
raises no error and no false warning, and a file it cannot read says so (a scan is "nothing could be read",
never "No citations"). The row gives what was read (kind, pages, scanned pages not read), the counts, and
each error and warning in full, so that every one can be read against the document. Files are read at run
time and never copied into the repository; docs/evaluation.md names the ones measured and where they come
from (repository @ commit, path).

    python bench/real_documents.py FILE_OR_DIR ... [--markdown]
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "server"))

from citecheck.config import Settings
from citecheck.errors import InputError
from citecheck.findings import Severity
from citecheck.inputs import read_input
from citecheck.pipeline import check_input
from citecheck.sources.chain import open_source

_SUFFIXES = {".pdf", ".docx", ".doc", ".wpd", ".txt", ".md", ".mdx", ".html"}


def _files(args: list[str]) -> list[Path]:
    out: list[Path] = []
    for a in args:
        p = Path(a)
        out += sorted(f for f in p.iterdir() if f.suffix.lower() in _SUFFIXES) if p.is_dir() else [p]
    return out


async def _row(path: Path, settings: Settings) -> tuple[str, ...]:
    started = time.perf_counter()
    try:
        doc = read_input(str(path))
    except InputError as exc:
        why = str(exc).removeprefix(f"{path}: ")
        return (path.name, path.suffix.lstrip("."), "—", "—", "—", "—", "—", f"not read: {why}")
    async with open_source(settings) as source:
        file, _report, _hidden = await check_input(doc, source, settings)
    shown = [f for f in file.sorted_findings() if f.severity is not Severity.INFO]
    detail = "; ".join(
        f"{f.severity.value} {f.kind.value}: {' '.join(f.message.split())[:160]}" for f in shown
    )
    return (
        path.name,
        doc.kind,
        str(len(doc.pages)) if doc.pages else "—",
        ", ".join(doc.unread_pages) or "—",
        str(len(file.citations)),
        str(sum(f.severity is Severity.ERROR for f in shown)),
        str(sum(f.severity is Severity.WARNING for f in shown)),
        detail + f" ({time.perf_counter() - started:.1f} s)",
    )


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("paths", nargs="+")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="citecheck-real-docs-") as tmp:
        home = Path(tmp)
        settings = Settings(
            corpus_path=home / "corpus.sqlite",
            cache_path=home / "cache.sqlite",
            index_path=home / "index.sqlite",
            offline=True,
            courtlistener_token=None,
            cap_fetch=False,
        )
        head = (
            "document",
            "kind",
            "pages",
            "scanned pages",
            "citations",
            "errors",
            "warnings",
            "errors and warnings",
        )
        print("| " + " | ".join(head) + " |")
        print("|" + "---|" * len(head))
        totals = [0, 0, 0, 0]
        for path in _files(args.paths):
            row = asyncio.run(_row(path, settings))
            print("| " + " | ".join(cell.replace("|", "\\|") for cell in row) + " |", flush=True)
            totals[0] += 1
            for i, cell in enumerate(row[4:7], start=1):
                totals[i] += int(cell) if cell.isdigit() else 0
        print(f"\n{totals[0]} documents, {totals[1]} citations, {totals[2]} errors, {totals[3]} warnings")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
