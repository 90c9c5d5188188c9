"""Statutes on real text (issue 27): the 34 real opinions of the shared corpus cite state and federal
codes in the styles courts use; each must be found under its code, and none may be accused offline
(every one is "not checked", a U.S.C./C.F.R. title that does not exist being the only error, and real
opinions cite none)."""

from __future__ import annotations

import asyncio
import csv
import html
import re
import sys
from collections import Counter
from functools import cache

import pytest

from citecheck.config import Settings
from citecheck.extract import CiteForm, extract_citations
from citecheck.findings import Severity
from citecheck.pipeline import check_document
from citecheck_testing import shared_corpus_path

_TAG = re.compile(r"<[^>]+>")
_BLOCK_END = re.compile(r"</(?:p|blockquote|h\d|li|div|article|section)>|<br\s*/?>", re.I)


@cache
def _opinions() -> tuple[str, ...]:
    path = shared_corpus_path("courtlistener-bulk", "opinions.csv")
    csv.field_size_limit(sys.maxsize)
    with path.open(newline="", encoding="utf-8") as f:
        rows = csv.DictReader(f, quotechar='"', escapechar="\\", doublequote=False)
        return tuple(
            html.unescape(_TAG.sub("", _BLOCK_END.sub("\n\n", r["html_with_citations"])))
            for r in rows
            if r["html_with_citations"]
        )


def test_real_opinions_cite_codes_found_under_their_names() -> None:
    per_code: Counter[str] = Counter()
    for text in _opinions():
        ex = extract_citations(text)
        for c in ex.citations:
            if c.form is CiteForm.STATUTE:
                s = ex.statute_of(c)
                per_code[s.name if s is not None and s.name else "?"] += 1
    # measured 2026-11-27 (bench/statute_text.py): Wis. Stat. 168, Mich. Comp. Laws 104 (as MCL),
    # W. Va. Code 55, Mass. Gen. Laws 48 (as G.L. c.), Neb. Rev. Stat. 45, P.R. Laws Ann. 27 (as L.P.R.A.)
    floors = {
        "Wis. Stat.": 150,
        "Mich. Comp. Laws": 100,
        "W. Va. Code": 50,
        "Mass. Gen. Laws": 40,
        "Neb. Rev. Stat.": 40,
        "P.R. Laws Ann.": 25,
        "U.S.C.": 15,
        "N.C. Gen. Stat.": 10,
        "Conn. Gen. Stat.": 10,
        "D.C. Code": 8,
    }
    short = {code: n for code, n in floors.items() if per_code[code] < n}
    assert not short, (short, per_code.most_common(20))
    assert sum(per_code.values()) >= 600


@pytest.mark.parametrize("n", range(0, 34, 6))
def test_no_statute_in_a_real_opinion_is_accused(n: int) -> None:
    for text in _opinions()[n : n + 6]:
        report = asyncio.run(check_document(text, None, Settings()))
        statutes = {c.index for c in report.extraction.citations if c.form is CiteForm.STATUTE}
        accused = [
            (f.kind.value, f.span.of(text))
            for f in report.findings
            if f.citation_index in statutes and f.severity is not Severity.INFO
        ]
        assert accused == []
