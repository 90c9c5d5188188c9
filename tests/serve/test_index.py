"""The Word backend uses the citation index through the same source chain: a page on which no case begins in
a volume the index holds in full comes back as fabricated-case, offline, with the cases around it."""

from __future__ import annotations

from pathlib import Path

import pytest
from tests.serve.conftest import start_server, stop_server

from citecheck.sources.index.build import build_from_folder
from citecheck_testing.bulk_dump import closed_volume_cases, write_dump


def test_the_word_backend_checks_against_the_index(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    write_dump(tmp_path / "dump", closed_volume_cases())
    build_from_folder(tmp_path / "index.sqlite", tmp_path / "dump", full_dump=True)
    monkeypatch.setenv("CITECHECK_INDEX_PATH", str(tmp_path / "index.sqlite"))
    proc, served = start_server(tmp_path / "serve", tmp_path / "no-corpus.sqlite")
    try:
        paragraphs = [
            "The county relies on Whitcomb v. Anne Arundel County, 100 A.2d 52 (Md. 1953), and on "
            "Peyton v. District of Columbia, 100 A.2d 36 (D.C. 1953)."
        ]
        with served.client() as c:
            r = c.post(
                "/api/v1/check",
                json={"document": "brief", "paragraphs": paragraphs},
                headers=served.headers(),
            )
        assert r.status_code == 200, r.text
        findings = r.json()["report"]["files"][0]["findings"]
        fabricated = [f for f in findings if f["kind"] == "fabricated-case"]
        assert len(fabricated) == 1 and "100 A.2d 52" in fabricated[0]["message"]
        assert "Dep't of Human Res. v. Johnson" in str(fabricated[0]["evidence"])
        assert not [f for f in findings if f["kind"] in ("name-mismatch", "cannot-verify")]
    finally:
        stop_server(proc)
