"""What a new user meets on real documents: each file checked as ``citecheck check --offline`` checks it on a
fresh machine (no corpus, no index, no network), one table row per file.

Issue 36's acceptance: on real documents nobody here wrote (filed briefs and motions, agency decisions,
law-review articles with footnotes, .docx/.doc/.wpd/.pdf as courts and agencies publish them) citecheck
raises no error and no false warning, and a file it cannot read says so (a scan is "nothing could be read",
never "No citations"). The row gives what was read (kind, pages, scanned pages not read), the counts, and
each error and warning in full, so that every one can be read against the document. Files are read at run
time and never copied into the repository; docs/evaluation.md names the ones measured and where they come
from (repository @ commit, path).

    python bench/real_documents.py FILE_OR_DIR ... [--markdown] [--authorities]

``--authorities`` (issue 41's acceptance) adds two columns: the citations by kind (case citations full,
short, ``Id.``, supra; the table-of-authorities entries among them; constitutions, codes, session laws,
acts' sections, chapters, regulations, agency decisions) and the case citations the document's text
lost to a line or page break: those a de-wrapped copy of the same text (every run of white space one
space, a word hyphenated at a line's end one word) finds and the text as read does not.
"""

from __future__ import annotations

import argparse
import asyncio
import re
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "server"))

from citecheck.config import Settings
from citecheck.errors import InputError
from citecheck.extract import CiteForm, Extraction, extract_citations
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


_DEHYPHEN = re.compile(r"(?<=[a-z])-\n(?=[a-z])")


def _case_keys(ex: Extraction) -> Counter[str]:
    """Each case citation as volume, reporter and page (the pin for a short form), counted."""
    keys: Counter[str] = Counter()
    for c in ex.citations:
        if c.form in (CiteForm.FULL, CiteForm.SHORT) and c.volume and c.reporter and not c.agency:
            pin = " ".join(c.pincite.text.split()) if c.form is CiteForm.SHORT and c.pincite else ""
            keys[f"{c.volume} {c.reporter} {c.page or ''}{' at ' + pin if pin else ''}".strip()] += 1
    return keys


def _by_kind(ex: Extraction) -> str:
    """The citations by kind: ``full 30 (listed 4), short 5, id 3, constitution 2, Tex. code 7 …``."""
    kinds: Counter[str] = Counter()
    for c in ex.citations:
        if c.form is CiteForm.STATUTE:
            st = ex.statute_of(c)
            if st is None:
                kinds["section, code unknown"] += 1
            elif st.kind:
                kinds[st.kind] += 1
            elif st.regulation:
                kinds["regulation"] += 1
            elif st.paged:
                kinds["session law"] += 1
            elif st.code == "usc":
                kinds["U.S.C."] += 1
            elif st.jurisdiction in (None, "United States"):
                kinds[str(st.name)] += 1
            else:
                kinds["state code"] += 1
        elif c.agency:
            kinds["agency"] += 1
        else:
            kinds[c.form.value] += 1
        if c.listed:
            kinds["listed"] += 1
    return ", ".join(f"{k} {n}" for k, n in sorted(kinds.items(), key=lambda kv: -kv[1]))


def _lost(text: str, ex: Extraction) -> str:
    """Case citations a de-wrapped copy of ``text`` finds that ``text`` as read does not."""
    flat = re.sub(r"\s+", " ", _DEHYPHEN.sub("", text))
    missing = _case_keys(extract_citations(flat)) - _case_keys(ex)
    return "; ".join(f"{k}" + (f" ×{n}" if n > 1 else "") for k, n in missing.items()) or "none"


async def _row(path: Path, settings: Settings, authorities: bool = False) -> tuple[str, ...]:
    started = time.perf_counter()
    try:
        doc = read_input(str(path))
    except InputError as exc:
        why = str(exc).removeprefix(f"{path}: ")
        extra = ("—", "—") if authorities else ()
        return (path.name, path.suffix.lstrip("."), "—", "—", "—", "—", "—", *extra, f"not read: {why}")
    async with open_source(settings) as source:
        file, _report, _hidden = await check_input(doc, source, settings)
    shown = [f for f in file.sorted_findings() if f.severity is not Severity.INFO]
    extra = (_by_kind(_report.extraction), _lost(doc.text, _report.extraction)) if authorities else ()
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
        *extra,
        detail + f" ({time.perf_counter() - started:.1f} s)",
    )


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("paths", nargs="+")
    parser.add_argument("--authorities", action="store_true", help="citations by kind, lost to breaks")
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
            *(("citations by kind", "lost to a break") if args.authorities else ()),
            "errors and warnings",
        )
        print("| " + " | ".join(head) + " |")
        print("|" + "---|" * len(head))
        totals = [0, 0, 0, 0]
        for path in _files(args.paths):
            row = asyncio.run(_row(path, settings, args.authorities))
            print("| " + " | ".join(cell.replace("|", "\\|") for cell in row) + " |", flush=True)
            totals[0] += 1
            for i, cell in enumerate(row[4:7], start=1):
                totals[i] += int(cell) if cell.isdigit() else 0
        print(f"\n{totals[0]} documents, {totals[1]} citations, {totals[2]} errors, {totals[3]} warnings")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
