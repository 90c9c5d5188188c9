"""Trust on real text: errors and warnings citecheck raises on real citations and real opinions, offline.

Every citation in these inputs is real and (as far as a court's own opinion goes) correctly written, so
the right answer is: no error at all, no warning, only ``cannot-verify`` info. The bench checks them with
no source (no corpus, no network) and prints the counts, then lists each error/warning so a regression
can be read off directly. It also counts the quotations offered for a case citation and how many of
them the extraction binds to one (``quote_binding``): a quotation left unbound is never compared.

Inputs (all read at run time, never copied into the repository):

- ``../shared/corpus/citations/*.jsonl``: real case tuples, each written as ``Name, CITE (YEAR).``;
- ``../shared/corpus/courtlistener-bulk/opinions.csv``: real opinions (HTML → text);
- ``--opinions DIR`` (repeatable): more real opinions, ``*.txt``, ``*.html`` or CourtListener-style
  ``*.json`` with an ``html`` / ``plain_text`` / ``html_with_citations`` field (deduplicated by text).
  E.g. the 50 Supreme Court opinions in github.com/ielab/ussc-caselaw-collection
  (``airs2017-collection/topic/*.json``).

    python bench/real_text.py [--opinions DIR ...] [--show 40] [--show-unbound 20]
"""

from __future__ import annotations

import argparse
import asyncio
import csv
import hashlib
import json
import re
import sys
import time
from bisect import bisect_left
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "server"))

from brief import html_to_text
from citecheck.config import Settings
from citecheck.extract import CiteForm, Extraction
from citecheck.extract.names import CONNECTORS, SIGNALS
from citecheck.extract.normalise import normalise
from citecheck.extract.paragraphs import split_paragraphs
from citecheck.extract.quotes import find_quotes
from citecheck.findings import Severity
from citecheck.pipeline import check_document
from citecheck_testing import SHARED_CORPUS

_UNBOUND: list[str] = []


def _citation_lines() -> list[str]:
    out = []
    for path in sorted((SHARED_CORPUS / "citations").glob("*.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            if not line.strip():
                continue
            row = json.loads(line)
            name = " ".join(str(row.get("case_name", "")).split())
            year = row.get("year") or ""
            out.append(f"{name}, {row['citation']}" + (f" ({year})." if year else "."))
    return out


def _corpus_opinions() -> list[tuple[str, str]]:
    path = SHARED_CORPUS / "courtlistener-bulk" / "opinions.csv"
    if not path.exists():
        return []
    csv.field_size_limit(1 << 30)
    out = []
    with path.open(encoding="utf-8", newline="") as fh:
        for row in csv.DictReader(fh, escapechar="\\", doublequote=False):
            markup = row.get("html_with_citations") or row.get("html") or ""
            text = html_to_text(markup) if markup else row.get("plain_text", "")
            if text.strip():
                out.append((f"courtlistener-bulk opinion {row['id']}", text))
    return out


def _folder_opinions(folder: Path) -> list[tuple[str, str]]:
    out = []
    for path in sorted(folder.iterdir()):
        if path.suffix == ".json":
            data = json.loads(path.read_text(encoding="utf-8"))
            markup = data.get("html_with_citations") or data.get("html") or ""
            text = html_to_text(markup) if markup else data.get("plain_text", "")
            label = f"{path.name} {data.get('case_title') or data.get('case_name') or ''}".strip()
        elif path.suffix in (".html", ".htm"):
            text, label = html_to_text(path.read_text(encoding="utf-8")), path.name
        elif path.suffix == ".txt":
            text, label = path.read_text(encoding="utf-8"), path.name
        else:
            continue
        if text.strip():
            out.append((label, text))
    return out


_CASE_FORMS = frozenset({CiteForm.FULL, CiteForm.SHORT, CiteForm.ID, CiteForm.SUPRA, CiteForm.REFERENCE})
_GAP_WORD = re.compile(r"[^\s\"'()\[\].,;:]+")
_NOT_A_CASE = re.compile(
    r"§|U\.\s?S\.\s?C\.|C\.\s?F\.\s?R\.|R\.\s?(?:Civ|Crim|App|Evid)\.|\bStat\.|\bTr\.|\bApp\. at\b"
)


def quote_binding(text: str, extraction: Extraction) -> tuple[int, int, list[str]]:
    """(quotations offered for a case citation, how many of them are bound to one, the unbound).

    A quotation (four words or more) is *offered for* a citation when a case citation (full, short,
    Id., supra, reference) begins after it in its paragraph, within 300 characters and before the next
    quotation, with nothing between but what a case name and a signal are made of (capitalised words,
    abbreviations, connectors, signals, punctuation) and no statute or record cite; or when the
    quotation ends with its own citation. Defined on the text, not on the names we extract, so a name
    cut short still counts as a quotation left unbound.
    """
    cores = sorted((c.span.start, c.span.end) for c in extraction.citations if c.form in _CASE_FORMS)
    starts = [a for a, _ in cores]
    bound_spans = [q.span for c in extraction.citations for q in c.quotes]
    offered = bound = 0
    unbound: list[str] = []
    for a, b in split_paragraphs(text):
        para = text[a:b]
        quotes = find_quotes(normalise(para), para)
        for k, q in enumerate(quotes):
            if len(q.text.split()) < 4:
                continue
            qs, qe = a + q.span.start, a + q.span.end
            limit = min(b, qe + 300, a + quotes[k + 1].span.start if k + 1 < len(quotes) else b)
            i = bisect_left(starts, qs)
            inside = i < len(cores) and cores[i][1] <= qe and not text[cores[i][1] : qe].strip(" .,;)")
            j = bisect_left(starts, qe)
            after = j < len(cores) and cores[j][0] < limit and _name_like(text[qe + 1 : cores[j][0]])
            if not (inside or after):
                continue
            offered += 1
            if any(s.start < qe and qs < s.end for s in bound_spans):
                bound += 1
            else:
                unbound.append(text[max(a, qs - 60) : min(b, qe + 140)].replace("\n", " "))
    return offered, bound, unbound


def _name_like(gap: str) -> bool:
    if _NOT_A_CASE.search(gap):
        return False
    for word in _GAP_WORD.findall(gap):
        low = word.lower()
        if not (
            word[:1].isupper() or word[:1].isdigit() or low in CONNECTORS or low in SIGNALS or word in "&-"
        ):
            return False
    return True


async def _check(
    texts: list[tuple[str, str]], settings: Settings
) -> tuple[Counter[str], list[str], int, float]:
    counts: Counter[str] = Counter()
    shown: list[str] = []
    n_cites = 0
    t0 = time.perf_counter()
    for label, text in texts:
        report = await check_document(text, None, settings)
        n_cites += len(report.extraction.citations)
        offered, bound, unbound = quote_binding(text, report.extraction)
        counts["quotes offered"] += offered
        counts["quotes bound"] += bound
        _UNBOUND.extend(f"  [{label[:40]}] …{u}…" for u in unbound)
        for f in report.findings:
            counts[f.severity.value] += 1
            if f.severity in (Severity.ERROR, Severity.WARNING):
                counts[f"{f.severity.value}:{f.kind.value}"] += 1
                ctx = text[max(0, f.span.start - 60) : f.span.end + 30].replace("\n", " ")
                shown.append(
                    f"  [{label[:40]}] {f.severity.value} {f.kind.value}: …{ctx}… — {f.message[:160]}"
                )
    return counts, shown, n_cites, time.perf_counter() - t0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--opinions", action="append", type=Path, default=[], help="folder of more real opinions")
    ap.add_argument("--show", type=int, default=40, help="list this many errors/warnings (0: none)")
    ap.add_argument("--show-unbound", type=int, default=0, help="list this many quotations left unbound")
    args = ap.parse_args()
    settings = Settings()

    lines = _citation_lines()
    opinions = _corpus_opinions()
    for folder in args.opinions:
        opinions.extend(_folder_opinions(folder))
    seen: set[str] = set()
    unique = []
    for label, text in opinions:
        digest = hashlib.sha1(text.encode()).hexdigest()
        if digest not in seen:
            seen.add(digest)
            unique.append((label, text))

    for title, texts in (
        (f"{len(lines)} real citations (one per line, checked one by one)", [(line, line) for line in lines]),
        (f"{len(unique)} real court opinions", unique),
    ):
        counts, shown, n_cites, secs = asyncio.run(_check(texts, settings))
        print(f"{title}: {n_cites} citations extracted, {secs:.1f} s")
        print(
            f"  errors {counts['error']}, warnings {counts['warning']}, info {counts['info']}"
            + "".join(f"; {k} {v}" for k, v in sorted(counts.items()) if ":" in k)
        )
        offered, bound = counts["quotes offered"], counts["quotes bound"]
        if offered:
            print(
                f"  quotations offered for a case citation {offered}, bound to one {bound}, "
                f"never bound {offered - bound} ({100 * (offered - bound) / offered:.1f} %)"
            )
        for line in shown[: args.show]:
            print(line)
        if len(shown) > args.show:
            print(f"  … {len(shown) - args.show} more")
        for line in _UNBOUND[: args.show_unbound]:
            print(line)
        _UNBOUND.clear()


if __name__ == "__main__":
    main()
