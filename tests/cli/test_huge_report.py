"""A report of 100,000 citations is written as it is produced, and is byte for byte the report the
renderers give as one string, in every format (issue 40: a 20 MB brief's HTML report peaked at a
gigabyte when built whole). Not timed: what it checks is the bytes."""

from __future__ import annotations

import io
import json
import random

import pytest

from citecheck.cli import app
from citecheck.report import FORMATS
from citecheck.report.json import write_json
from citecheck.report.model import BatchResult

CITATIONS = 100_000
_NAMES = ("Doe", "Roe", "Acme Corp.", "State", "Smith", "Jones", "United States", "Baker", "Young", "Ortiz")
_REPORTERS = ("F.3d", "F.2d", "U.S.", "A.2d", "P.3d", "N.E.2d", "F. Supp. 2d", "So. 2d", "S.W.3d", "N.W.2d")


def huge_brief(citations: int = CITATIONS, seed: int = 40) -> str:
    """Paragraphs of prose with full citations, short forms, ``Id.`` and parentheticals: ``citations`` of them."""
    rng = random.Random(seed)
    paragraphs, n = [], 0
    while n < citations:
        a, b = rng.sample(_NAMES, 2)
        vol, rep, page = rng.randint(1, 999), rng.choice(_REPORTERS), rng.randint(1, 1500)
        pin = page + rng.randint(0, 20)
        year = rng.randint(1950, 2023)
        paragraphs.append(
            f"The court considered the question at length. See {a} v. {b}, {vol} {rep} {page}, {pin} "
            f"({year}) (holding that “notice must be given”). Id. at {pin + 1}. The rule is settled. "
            f"{a}, {vol} {rep} at {pin + 2}; see also {b} v. {a}, {vol + 1} {rep} {page + 3} ({year})."
        )
        n += 4
    return "\n\n".join(paragraphs) + "\n"


@pytest.fixture(scope="module")
def checked(tmp_path_factory) -> tuple:
    """One check of the huge brief, as ``citecheck check --offline`` makes it (the CLI's own function)."""
    from citecheck.config import Settings
    from citecheck.ignores import IgnoreList
    from citecheck.inputs import read_input

    folder = tmp_path_factory.mktemp("huge")
    doc = folder / "huge.md"
    doc.write_text(huge_brief(), encoding="utf-8")
    settings = Settings(
        offline=True,
        corpus_path=folder / "corpus.sqlite",
        cache_path=folder / "cache.sqlite",
        index_path=folder / "index.sqlite",
        max_document_chars=10**8,
    )
    read = read_input(str(doc), max_chars=10**8)
    files, sources, hidden = app._check_documents([read], settings, IgnoreList(), progress=False)
    return doc, files, sources, hidden


def test_the_huge_brief_has_a_hundred_thousand_citations(checked) -> None:
    _, files, _, _ = checked
    assert len(files[0].citations) >= CITATIONS
    assert len(files[0].findings) > 10_000


@pytest.mark.parametrize("fmt", list(FORMATS))
def test_the_written_report_is_the_rendered_one_byte_for_byte(checked, fmt, tmp_path, monkeypatch) -> None:
    doc, files, sources, hidden = checked
    monkeypatch.setattr(app, "_check_documents", lambda *a, **k: (files, sources, hidden))
    monkeypatch.setenv("CITECHECK_MAX_DOCUMENT_CHARS", str(10**8))
    out = tmp_path / f"report.{fmt}"
    code = app.main(["check", "--offline", "--format", fmt, "--fail-on", "never", "-o", str(out), str(doc)])
    assert code == 0
    batch = BatchResult(
        files=tuple(files), tool_version=app.__version__, sources=sources, offline=True, ignored=hidden
    )
    if fmt == "json":
        whole = io.StringIO()
        write_json(batch, whole)
        expected = whole.getvalue()
        assert json.loads(expected)["summary"]["citations"] >= CITATIONS
    else:
        expected = FORMATS[fmt](batch)
    assert out.read_text(encoding="utf-8") == expected
