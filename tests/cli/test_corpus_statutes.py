"""`citecheck corpus sync --statutes --from FOLDER` and `corpus status` through the real CLI entry point."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from citecheck.cli import main
from citecheck_testing.statutes import FakeSection, ecfr_title, release_zip, uslm_title, versions_json


@pytest.fixture(autouse=True)
def isolated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("CITECHECK_CACHE_PATH", str(tmp_path / "cache.sqlite"))
    monkeypatch.setenv("CITECHECK_STATUTES_PATH", str(tmp_path / "statutes.sqlite"))


def _release(folder: Path) -> Path:
    folder.mkdir()
    usc = {
        "usc42.xml": uslm_title(
            "42",
            [
                FakeSection(
                    number="1983",
                    heading="Civil action for deprivation of rights",
                    paragraphs=("Every person who …",),
                )
            ],
        ),
        "usc18.xml": uslm_title(
            "18",
            [
                FakeSection(
                    number="1001", heading="Statements or entries generally", paragraphs=("Whoever …",)
                )
            ],
            heading="CRIMES",
        ),
    }
    (folder / "xml_uscAll@119-36.zip").write_bytes(release_zip(usc))
    (folder / "ecfr").mkdir()
    (folder / "ecfr" / "title-17.xml").write_bytes(
        ecfr_title(
            "17",
            {
                "240": [
                    FakeSection(
                        number="240.10b-5",
                        heading="Employment of manipulative and deceptive devices.",
                        paragraphs=("It shall be unlawful …",),
                    )
                ]
            },
        )
    )
    (folder / "ecfr" / "versions-title-17.json").write_bytes(
        versions_json("17", [("240.10b-5", "240", "2017-01-03", False)])
    )
    (folder / "ecfr" / "title-17.date").write_text("2024-01-03")
    return folder


def test_status_without_an_index_says_sections_are_not_checked(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["corpus", "status"]) == 0
    assert "sections not checked" in capsys.readouterr().out


def test_sync_from_a_folder_then_status(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = _release(tmp_path / "release")
    assert main(["--offline", "corpus", "sync", "--statutes", "--from", str(folder)]) == 0
    out = capsys.readouterr().out
    assert "stored 2 U.S. Code titles, 1 C.F.R. titles (3 sections)" in out
    assert "usc: 119-36" in out and "cfr 17: 2024-01-03" in out
    assert main(["corpus", "status"]) == 0
    out = capsys.readouterr().out
    assert "U.S. Code: 2 titles, 2 sections; edition 119-36" in out and "titles: 18, 42" in out
    assert "C.F.R.: 1 titles, 1 sections; edition 2024-01-03" in out
    assert main(["corpus", "status", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["titles"] == {"usc": 2, "cfr": 1} and data["sections"] == {"usc": 2, "cfr": 1}


def test_sync_needs_what_and_offline_needs_a_folder(capsys: pytest.CaptureFixture[str]) -> None:
    # without --statutes, sync builds the citation index (cli/corpus.py); offline it needs files
    assert main(["--offline", "corpus", "sync"]) == 2
    assert "--from DIR" in capsys.readouterr().err
    assert main(["--offline", "corpus", "sync", "--statutes"]) == 2
    assert "--from FOLDER" in capsys.readouterr().err


def test_a_release_in_a_changed_format_is_one_clear_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "release"
    folder.mkdir()
    (folder / "xml_uscAll@119-1.zip").write_bytes(
        release_zip({"usc01.xml": b"<lawDoc xmlns='http://xml.house.gov/schemas/uslm/2.0'/>"})
    )
    assert main(["corpus", "sync", "--statutes", "--usc-only", "--from", str(folder)]) == 2
    err = capsys.readouterr().err
    assert "usc01.xml" in err and "format may have changed" in err and "Traceback" not in err
