"""Issue 27's "done means", through the real CLI: a brief citing real and invented U.S.C. and C.F.R. sections,
a repealed one and a state code, checked offline — with the statute index and without it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from citecheck.cli import main
from citecheck_testing.statutes import build_sample_index

BRIEF = """\
---
date: 2024-03-01
---
# Plaintiff's Memorandum

Plaintiff sues under 42 U.S.C. § 1983, which reaches every person who acts "under color of any statute,
ordinance, regulation, custom, or usage, of any State." Defendants also violated 42 U.S.C. § 1983a, which
the Act added in 1996, and 55 U.S.C. § 101, which governs municipal liability.

Claims under 42 U.S.C. § 1984 survive as well. The securities count rests on 17 C.F.R. § 240.10b-5 and on
17 C.F.R. § 240.10b-8, and on 51 C.F.R. § 12.4.

The state claim arises under Fla. Stat. § 768.28.
"""


@pytest.fixture(autouse=True)
def isolated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("CITECHECK_CACHE_PATH", str(tmp_path / "cache.sqlite"))
    monkeypatch.setenv("CITECHECK_CORPUS_PATH", str(tmp_path / "corpus.sqlite"))
    monkeypatch.delenv("CITECHECK_COURTLISTENER_TOKEN", raising=False)
    (tmp_path / "brief.md").write_text(BRIEF, encoding="utf-8")


def _check(capsys: pytest.CaptureFixture[str]) -> dict[str, Any]:
    main(["check", "brief.md", "--offline", "--format", "json"])
    return json.loads(capsys.readouterr().out)


def _by_cite(report: dict[str, Any]) -> dict[str, list[tuple[str, str]]]:
    """Each citation's text → the (kind, severity) of the findings on it."""
    file = report["files"][0]
    out: dict[str, list[tuple[str, str]]] = {c["text"]: [] for c in file["citations"]}
    texts = {c["index"]: c["text"] for c in file["citations"]}
    for f in file["findings"]:
        if f.get("citation_index") is not None:
            out[texts[f["citation_index"]]].append((f["kind"], f["severity"]))
    return out


def test_with_the_statute_index(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("CITECHECK_STATUTES_PATH", str(build_sample_index(tmp_path)))
    report = _check(capsys)
    cites = _by_cite(report)
    assert cites["42 U.S.C. § 1983"] == []
    first = report["files"][0]["citations"][0]
    assert first["status"] == "verified"
    assert first["section"]["heading"] == "Civil action for deprivation of rights"
    assert first["section"]["edition"] == "119-36" and first["section"]["status"] == "current"
    assert ("fabricated-statute", "error") in cites["42 U.S.C. § 1983a"]
    assert ("impossible-citation", "error") in cites["55 U.S.C. § 101"]
    assert ("statute-repealed", "warning") in cites["42 U.S.C. § 1984"]
    assert cites["17 C.F.R. § 240.10b-5"] == []
    assert ("fabricated-statute", "error") in cites["17 C.F.R. § 240.10b-8"]
    assert ("impossible-citation", "error") in cites["51 C.F.R. § 12.4"]
    assert [k for k, _ in cites["Fla. Stat. § 768.28"]] == ["statute-not-checked"]


def test_without_the_statute_index(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("CITECHECK_STATUTES_PATH", str(tmp_path / "none.sqlite"))
    cites = _by_cite(_check(capsys))
    assert ("impossible-citation", "error") in cites["55 U.S.C. § 101"]
    for text in ("42 U.S.C. § 1983", "42 U.S.C. § 1983a", "42 U.S.C. § 1984", "17 C.F.R. § 240.10b-8"):
        assert [k for k, _ in cites[text]] == ["statute-not-checked"], text
