"""Statute and regulation citations on real text: how many are found, per code and form, and that none
of them is called impossible (issue 27). Offline, no statute index: every statute citation must come out
"not checked" (info) or, for a U.S.C. / C.F.R. title that does not exist, "impossible" — and real opinions
cite no such title, so the impossible count must be 0.

Inputs, read at run time and never copied into the repository:

- ``../shared/corpus/courtlistener-bulk/opinions.csv`` (34 real opinions, state and federal) and the CAP
  sample (``../shared/corpus/cap-static``);
- ``--opinions DIR`` (repeatable): more real opinions (``*.json`` with ``html``/``plain_text``, ``*.html``,
  ``*.txt``), e.g. the 100 Supreme Court opinions of github.com/ielab/ussc-caselaw-collection
  (``airs2017-collection/topic/*.json``).

    python bench/statute_text.py [--opinions DIR ...] [--show 20]

Prints, with the machine's load average: citations per code and per form (full / short / id), short forms
resolved, the findings raised on statutes by kind and severity, every impossible one (the false
accusations this bench exists to catch), and extraction time with and without the statute reader.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "server"))

from citecheck.config import Settings
from citecheck.extract import CiteForm, extract_citations
from citecheck.findings import Kind, Severity
from citecheck.pipeline import check_document
from real_text import _corpus_opinions, _folder_opinions  # the same readers as bench/real_text.py


def _cap_opinions() -> list[tuple[str, str]]:
    from brief import html_to_text
    from citecheck_testing import SHARED_CORPUS

    folder = SHARED_CORPUS / "cap-static" / "a2d" / "100" / "html"
    return [
        (f"cap {p.name}", html_to_text(p.read_text(encoding="utf-8"))) for p in sorted(folder.glob("*.html"))
    ]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--opinions", action="append", default=[], type=Path, help="a folder of real opinions")
    ap.add_argument("--show", type=int, default=20, help="list this many statute citations per code")
    args = ap.parse_args()

    docs = _corpus_opinions() + _cap_opinions()
    for folder in args.opinions:
        docs += _folder_opinions(folder)
    seen: set[int] = set()
    docs = [(n, t) for n, t in docs if not (hash(t) in seen or seen.add(hash(t)))]  # type: ignore[func-returns-value]
    print(f"load average {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f} {os.getloadavg()[2]:.2f}")
    print(f"{len(docs)} real documents, {sum(len(t) for _, t in docs):,} characters")

    per_code: Counter[str] = Counter()
    per_form: Counter[str] = Counter()
    examples: dict[str, list[str]] = {}
    resolved = unresolved = 0
    kinds: Counter[tuple[str, str]] = Counter()
    impossible: list[tuple[str, str, str]] = []
    t_extract = 0.0
    for name, text in docs:
        t0 = time.perf_counter()
        ex = extract_citations(text)
        t_extract += time.perf_counter() - t0
        statutes = [c for c in ex.citations if c.form is CiteForm.STATUTE]
        for c in statutes:
            assert c.statute is not None
            s = ex.statute_of(c)
            form = c.statute.form.value
            per_form[form] += 1
            code = (s.name or "?") if s is not None else "(code not named)"
            per_code[code] += 1
            examples.setdefault(code, []).append(" ".join(c.text.split()))
            if form != "full":
                resolved += s is not None
                unresolved += s is None
        if not statutes:
            continue
        report = asyncio.run(check_document(text, None, Settings()))
        indexes = {c.index for c in statutes}
        for f in report.findings:
            if f.citation_index in indexes:
                kinds[(f.kind.value, f.severity.value)] += 1
                if f.kind is Kind.IMPOSSIBLE_CITATION or f.severity is not Severity.INFO:
                    impossible.append((name, f.span.of(text), f.message))

    total = sum(per_code.values())
    print(
        f"\n{total} statute and regulation citations "
        f"({', '.join(f'{n} {form}' for form, n in per_form.most_common())}); "
        f"short forms resolved {resolved}, unresolved {unresolved}"
    )
    print("\nper code:")
    for code, n in per_code.most_common():
        shown = "; ".join(dict.fromkeys(examples[code]))
        if len(shown) > 160:
            shown = shown[:157] + "…"
        print(f"  {n:5d}  {code:40s} {shown if args.show else ''}")
    print("\nfindings on statute citations:")
    for (kind, sev), n in kinds.most_common():
        print(f"  {n:5d}  {sev:8s} {kind}")
    print(f"\nerrors and warnings on statute citations (false accusations on real text): {len(impossible)}")
    for name, cited, msg in impossible[: args.show]:
        print(f"  {name}: {cited!r}: {msg}")
    print(f"\nextraction of all documents: {t_extract:.2f} s")
    _paragraph_cost(docs)


def _paragraph_cost(docs: list[tuple[str, str]], rounds: int = 3) -> None:
    """What reading statutes costs a keystroke: every paragraph extracted afresh (no cache), with the
    statute reader and without it (its law hits then only break Id. chains, as before issue 27), the two
    interleaved round by round in this one process; per-paragraph median and p95, whole-text total."""
    from citecheck.extract import paragraph as P
    from citecheck.extract.paragraphs import split_paragraphs

    paras = [text[s:e] for _, text in docs for s, e in split_paragraphs(text)]
    with_statutes = [p for p in paras if "§" in p or "U.S.C" in p or "C.F.R" in p]
    real = P._statutes

    def without(norm, text, hits):  # type: ignore[no-untyped-def]
        return [], hits

    times: dict[str, list[float]] = {"on": [], "off": []}
    totals: dict[str, list[float]] = {"on": [], "off": []}
    for _ in range(rounds):
        for label, reader in (("on", real), ("off", without)):
            P._statutes = reader  # type: ignore[assignment]
            t_all = time.perf_counter()
            for p in paras:
                t0 = time.perf_counter()
                P.extract_paragraph.__wrapped__(p)
                times[label].append(time.perf_counter() - t0)
            totals[label].append(time.perf_counter() - t_all)
    P._statutes = real

    def q(xs: list[float], f: float) -> float:
        xs = sorted(xs)
        return xs[min(len(xs) - 1, int(f * len(xs)))] * 1000

    print(
        f"\nper paragraph ({len(paras)} paragraphs, {len(with_statutes)} citing a statute; {rounds} rounds "
        f"interleaved; load average {os.getloadavg()[0]:.2f}):"
    )
    for label in ("on", "off"):
        print(
            f"  statute reader {label:3s}: median {q(times[label], 0.5):.2f} ms, p95 {q(times[label], 0.95):.2f} ms, "
            f"max {q(times[label], 1.0):.1f} ms; all paragraphs {min(totals[label]):.2f} s (best round)"
        )


if __name__ == "__main__":
    main()
