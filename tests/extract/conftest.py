"""Opinion text for the extraction tests: the real opinions of ../shared/corpus where they lie (never copied),
else our own in the same format (tests/fixtures/README.md)."""

from __future__ import annotations

import csv
import html
import re
import sys
from functools import cache
from pathlib import Path

import pytest

from citecheck_testing import SHARED_CORPUS, shared_corpus_path

_TAG = re.compile(r"<[^>]+>")
_BLOCK_END = re.compile(r"</(?:p|blockquote|h\d|li|div|article|section)>|<br\s*/?>", re.I)


def strip_tags(markup: str) -> str:
    """Tag-stripped HTML, one paragraph per block element; star-pagination markers stay as text."""
    return html.unescape(_TAG.sub("", _BLOCK_END.sub("\n\n", markup)))


#: Our own two opinions in CourtListener's bulk format (tests/fixtures/README.md): what the property tests of
#: the extraction run on where ../shared is absent (a clone with nothing beside it).
OWN_BULK_OPINIONS = Path(__file__).resolve().parents[1] / "fixtures" / "courtlistener-bulk" / "opinions.csv"


@cache
def _bulk_opinions() -> tuple[str, ...]:
    """The real opinions of ../shared/corpus/courtlistener-bulk, or ours in the same format without it."""
    path = SHARED_CORPUS / "courtlistener-bulk" / "opinions.csv"
    if not path.exists():
        path = OWN_BULK_OPINIONS
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
