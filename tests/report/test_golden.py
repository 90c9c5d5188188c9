"""Golden files: every format on examples/brief.md, offline on a fresh machine and with the sample corpus.

The real pipeline and source chain produce the report; only volatile fields (the tool version) are
normalised. After an intended change, review the diff and regenerate:

    CITECHECK_REGEN_GOLDEN=1 python -m pytest -q tests/report/test_golden.py
"""

from __future__ import annotations

import asyncio
import json
import os
from dataclasses import replace
from pathlib import Path

import lxml.html
import pytest

from citecheck import __version__
from citecheck.config import Settings
from citecheck.inputs import read_input
from citecheck.report import FORMATS
from citecheck.report.model import BatchResult, file_result
from citecheck_testing import REPO_ROOT, shared_corpus_path

GOLDEN = Path(__file__).parent / "golden"
EXAMPLE = "examples/brief.md"
EXT = {"text": "txt", "json": "json", "sarif": "sarif", "html": "html", "markdown": "md"}
REGEN = os.environ.get("CITECHECK_REGEN_GOLDEN") == "1"


def _check(settings: Settings) -> BatchResult:
    from citecheck.pipeline import check_document
    from citecheck.sources.chain import open_source

    doc = read_input(str(REPO_ROOT / EXAMPLE))

    async def run():
        async with open_source(settings) as source:
            return await check_document(doc.text, source, settings)

    report = asyncio.run(run())
    fr = file_result(EXAMPLE, doc.kind, doc.text, report)
    return BatchResult(files=(fr,), tool_version="VERSION", offline=True)


def _settings(tmp_path: Path) -> Settings:
    return Settings(
        corpus_path=tmp_path / "corpus.sqlite",
        cache_path=tmp_path / "cache.sqlite",
        offline=True,
        courtlistener_token=None,
        cap_fetch=False,
    )


def _import_sample(path: Path) -> None:
    from citecheck.sources.corpus import Corpus
    from citecheck.sources.importing import import_path

    cap, bulk = shared_corpus_path("cap-static"), shared_corpus_path("courtlistener-bulk")
    corpus = Corpus(path)
    try:
        import_path(corpus, cap)
        import_path(corpus, bulk)
    finally:
        corpus.close()


@pytest.fixture(scope="module", params=["offline", "corpus"])
def scenario(request, tmp_path_factory) -> tuple[str, BatchResult]:
    """Each scenario is checked once per test run; the five format tests share its result."""
    settings = _settings(tmp_path_factory.mktemp(request.param))
    if request.param == "corpus":
        _import_sample(settings.corpus_path)
    return request.param, _check(settings)


def _compare(name: str, actual: str) -> None:
    path = GOLDEN / name
    assert __version__ not in actual or __version__ == "VERSION" or "VERSION" in actual
    if REGEN or not path.exists():
        if not REGEN:
            pytest.fail(f"golden file {path} is missing; run with CITECHECK_REGEN_GOLDEN=1 to create it")
        path.parent.mkdir(exist_ok=True)
        path.write_text(actual, encoding="utf-8")
        return
    expected = path.read_text(encoding="utf-8")
    assert actual == expected, (
        f"{name} differs from its golden file; if the change is intended, review it and run "
        "CITECHECK_REGEN_GOLDEN=1 python -m pytest -q tests/report/test_golden.py"
    )


@pytest.mark.parametrize("fmt", list(FORMATS))
def test_golden(scenario, fmt):
    name, batch = scenario
    _compare(f"brief.{name}.{EXT[fmt]}", FORMATS[fmt](batch))


def test_golden_sarif_files_validate_against_the_schema():
    import jsonschema

    schema = json.loads((Path(__file__).parent / "sarif-schema-2.1.0.json").read_text(encoding="utf-8"))
    files = sorted(GOLDEN.glob("*.sarif"))
    assert files
    for path in files:
        jsonschema.Draft4Validator(schema).validate(json.loads(path.read_text(encoding="utf-8")))


def test_offline_golden_never_says_fabricated_and_tells_how_to_verify():
    data = json.loads((GOLDEN / "brief.offline.json").read_text(encoding="utf-8"))
    kinds = {f["kind"] for f in data["files"][0]["findings"]}
    assert "fabricated-case" not in kinds
    assert kinds >= {"impossible-citation", "malformed-pincite", "cannot-verify"}
    assert any("CITECHECK_COURTLISTENER_TOKEN" in n for n in data["notes"])


def test_brief_html_report_in_headless_chromium(tmp_path, headless_chromium):
    """Open the real report in a browser: it renders, and the table of authorities lists each case once."""
    settings = _settings(tmp_path)
    try:
        _import_sample(settings.corpus_path)
        with_corpus = True
    except pytest.skip.Exception:
        with_corpus = False
    batch = _check(settings)
    page = tmp_path / "brief.html"
    page.write_text(FORMATS["html"](replace(batch, tool_version=__version__)), encoding="utf-8")
    png, dom = headless_chromium(page, "1280,2400")
    assert png[:8] == b"\x89PNG\r\n\x1a\n" and len(png) > 20_000
    tree = lxml.html.fromstring(dom)
    rows = [
        [td.text_content().strip() for td in tr.xpath("./td")]
        for tr in tree.xpath("//table[contains(@class,'toa')]/tbody/tr")
    ]
    names = [r[0] for r in rows]
    assert len(names) == len(set(names)) == 12  # each authority once (short forms fold into their case)
    savage = next(r for r in rows if r[0] == "Savage v. Parks")
    assert savage[2] == ("verified" if with_corpus else "could not verify")  # the status in words
    assert savage[3].startswith("binding")  # the weight column: D.C. Court of Appeals precedent in that court
    assert savage[4] == "line 19 (×3)"  # cited three times on line 19: full, Id., short form
    cook = next(r for r in rows if r[0] == "Cook v. Public Storage, Inc.")
    assert cook[3].startswith("persuasive")
    assert cook[6] == (
        "Court differs from the court that decided the case (and 1 more)"
        if with_corpus
        else "Authority that does not bind this court"
    )
    assert all(";" not in r[6] and "not an accusation" not in r[6] for r in rows)  # one message per cell
    # findings under plain-English titles, no record id or database path, no Markdown asterisks
    text = tree.text_content()
    assert "This citation cannot exist" in text and "Record" not in text and ".sqlite" not in text
    assert "cap:" not in text and "*Berry v. Keith*" not in text
    # the pin-outside finding names the case from its record; with no corpus (a bare clone) there is none
    assert ("Berry v. Keith, 100 A.2d 831" in text) is with_corpus
    assert "at *3" in text  # a star page keeps its asterisk
    assert names.index("Savage v. Parks") < names.index("Cook v. Public Storage, Inc.")  # binding group first
