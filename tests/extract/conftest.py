"""Real opinion text for the extraction tests, read from ../shared/corpus where it lies (never copied)."""

from __future__ import annotations

import csv
import html
import re
import sys
from functools import cache

import pytest

from citecheck_testing import shared_corpus_path

_TAG = re.compile(r"<[^>]+>")
_BLOCK_END = re.compile(r"</(?:p|blockquote|h\d|li|div|article|section)>|<br\s*/?>", re.I)


def strip_tags(markup: str) -> str:
    """Tag-stripped HTML, one paragraph per block element; star-pagination markers stay as text."""
    return html.unescape(_TAG.sub("", _BLOCK_END.sub("\n\n", markup)))


@cache
def _bulk_opinions() -> tuple[str, ...]:
    path = shared_corpus_path("courtlistener-bulk", "opinions.csv")
    csv.field_size_limit(sys.maxsize)
    with path.open(newline="", encoding="utf-8") as f:
        rows = csv.DictReader(f, quotechar='"', escapechar="\\", doublequote=False)
        return tuple(strip_tags(r["html_with_citations"]) for r in rows if r["html_with_citations"])


@cache
def _cap_opinions() -> tuple[str, ...]:
    folder = shared_corpus_path("cap-static", "a2d", "100", "html")
    return tuple(strip_tags(p.read_text(encoding="utf-8")) for p in sorted(folder.glob("*.html")))


@pytest.fixture(scope="session")
def bulk_opinions() -> tuple[str, ...]:
    return _bulk_opinions()


@pytest.fixture(scope="session")
def cap_opinions() -> tuple[str, ...]:
    return _cap_opinions()


@pytest.fixture(scope="session")
def bulk_extractions(bulk_opinions):
    from citecheck.extract import extract_citations

    return tuple((text, extract_citations(text)) for text in bulk_opinions)
