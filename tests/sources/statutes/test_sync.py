"""`corpus sync --statutes` against a loopback uscode.house.gov and eCFR versioner serving real-format files:
the whole sync, resuming an interrupted download, the edition for a date, and changed or hostile answers."""

from __future__ import annotations

import json
from pathlib import Path
from typing import NamedTuple

import httpx
import pytest

from citecheck.errors import SchemaChanged, SourceUnavailable
from citecheck.sources.statutes.index import StatuteIndex
from citecheck.sources.statutes.records import LookupOutcome, SectionStatus
from citecheck.sources.statutes.sync import SyncRequest, sync_statutes
from citecheck_testing.statutes import (
    TITLE_17_CFR,
    TITLE_42,
    VERSIONS_17,
    FakeSection,
    StatuteFiles,
    StatuteServer,
    ecfr_title,
    synthetic_sections,
    titles_json,
    uslm_title,
    versions_json,
)


class Key(NamedTuple):
    code: str
    title: str
    section: str


@pytest.fixture()
def files() -> StatuteFiles:
    return StatuteFiles(
        usc={
            "usc42.xml": uslm_title("42", TITLE_42, chapter_size=3),
            # a big title, so that a dropped connection leaves a part to resume
            "usc07.xml": uslm_title(
                "7", list(synthetic_sections("7", 600, words=200)), heading="AGRICULTURE"
            ),
        },
        ecfr={"17": ecfr_title("17", TITLE_17_CFR)},
        ecfr_versions={"17": versions_json("17", VERSIONS_17)},
        ecfr_titles=titles_json({"17": ("Commodity and Securities Exchanges", "2024-01-03")}),
    )


@pytest.fixture()
def server(files: StatuteFiles):  # type: ignore[no-untyped-def]
    with StatuteServer(files) as s:
        yield s


def _request(server: StatuteServer, tmp_path: Path, **kw: object) -> SyncRequest:
    return SyncRequest(
        uscode_url=server.uscode_url, ecfr_url=server.ecfr_url, work=tmp_path / "downloads", **kw
    )  # type: ignore[arg-type]


async def _sync(index: StatuteIndex, request: SyncRequest, lines: list[str] | None = None):  # type: ignore[no-untyped-def]
    async with httpx.AsyncClient(timeout=10) as client:
        return await sync_statutes(
            index, request, client=client, echo=(lines if lines is not None else []).append
        )


async def test_a_whole_sync_then_nothing_to_do(server: StatuteServer, tmp_path: Path) -> None:
    with StatuteIndex(tmp_path / "statutes.sqlite") as index:
        stats = await _sync(index, _request(server, tmp_path))
        assert sorted(stats.usc_titles) == ["42", "7"] and stats.cfr_titles == ["17"]
        assert stats.editions == {"usc": "119-36", "cfr 17": "2024-01-03"}
        rec = index.lookup(Key("usc", "42", "1983")).record
        assert rec is not None and rec.heading == "Civil action for deprivation of rights"
        removed = index.lookup(Key("cfr", "17", "240.10b-7")).record
        assert removed is not None and removed.status is SectionStatus.REMOVED  # from the versions JSON
        assert index.lookup(Key("cfr", "17", "240.10b-8")).outcome is LookupOutcome.NOT_FOUND
        lines: list[str] = []
        again = await _sync(index, _request(server, tmp_path), lines)
        assert again.sections == 0
        assert any("119-36 is already in the index" in line for line in lines)
        assert any("2024-01-03 edition is already in the index" in line for line in lines)
    assert not any((tmp_path / "downloads").rglob("*.zip")) and not any(
        (tmp_path / "downloads").rglob("*.xml")
    )


async def test_an_interrupted_download_resumes(
    server: StatuteServer, files: StatuteFiles, tmp_path: Path
) -> None:
    size = len(files.zip_bytes())
    files.cut_after = size // 2
    with StatuteIndex(tmp_path / "statutes.sqlite") as index:
        with pytest.raises(SourceUnavailable, match="resume"):
            await _sync(index, _request(server, tmp_path, cfr=False))
        assert index.titles() == []  # nothing stored from half a zip
        lines: list[str] = []
        await _sync(index, _request(server, tmp_path, cfr=False), lines)
        assert any("resumed the download" in line for line in lines)
        assert len(index.titles("usc")) == 2
    ranges = [r for path, r in files.requests if path.endswith(".zip") and r]
    assert ranges and ranges[-1].startswith("bytes=") and int(ranges[-1][6:-1]) > 0


async def test_the_cfr_edition_for_a_briefs_date(
    server: StatuteServer, files: StatuteFiles, tmp_path: Path
) -> None:
    with StatuteIndex(tmp_path / "statutes.sqlite") as index:
        stats = await _sync(index, _request(server, tmp_path, usc=False, cfr_date="2019-05-01"))
        assert files.full_dates == ["2019-05-01"] and stats.editions == {"cfr 17": "2019-05-01"}
        assert index.titles("cfr")[0].edition == "2019-05-01"


async def test_a_release_in_a_changed_schema_stops_and_keeps_what_was_stored(
    server: StatuteServer, files: StatuteFiles, tmp_path: Path
) -> None:
    with StatuteIndex(tmp_path / "statutes.sqlite") as index:
        await _sync(index, _request(server, tmp_path, cfr=False))
        files.release_point = "119-1"
        files.usc = {"usc42.xml": b"<lawDoc xmlns='http://xml.house.gov/schemas/uslm/2.0'><main/></lawDoc>"}
        files.reset_zip()
        with pytest.raises(SchemaChanged, match="format may have changed"):
            await _sync(index, _request(server, tmp_path, cfr=False))
        assert index.lookup(Key("usc", "42", "1983")).edition == "119-36"


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"ecfr_titles": b"<html>maintenance</html>"}, "not the eCFR titles list"),
        ({"ecfr_titles": titles_json({"17": ("x", "../../etc")})}, "no date"),
    ],
)
async def test_changed_or_hostile_ecfr_answers_are_clear_errors(
    server: StatuteServer, files: StatuteFiles, tmp_path: Path, change: dict[str, object], message: str
) -> None:
    for k, v in change.items():
        setattr(files, k, v)
    with StatuteIndex(tmp_path / "statutes.sqlite") as index, pytest.raises(SchemaChanged, match=message):
        await _sync(index, _request(server, tmp_path, usc=False))


async def test_a_download_page_without_a_release_link_is_a_clear_error(tmp_path: Path) -> None:
    files = StatuteFiles(release_point="not-a-release")
    with StatuteServer(files) as server, StatuteIndex(tmp_path / "statutes.sqlite") as index:
        with pytest.raises(SchemaChanged, match="--release"):
            await _sync(index, _request(server, tmp_path, cfr=False))


def test_the_cli_syncs_from_the_hosts_in_the_users_settings(
    server: StatuteServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from citecheck.cli import main

    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("CITECHECK_CACHE_PATH", str(tmp_path / "cache.sqlite"))
    monkeypatch.setenv("CITECHECK_STATUTES_PATH", str(tmp_path / "statutes.sqlite"))
    monkeypatch.setenv("CITECHECK_USCODE_URL", server.uscode_url)
    monkeypatch.setenv("CITECHECK_ECFR_URL", server.ecfr_url)
    assert main(["corpus", "sync", "--statutes", "--cfr-title", "17"]) == 0
    out = capsys.readouterr()
    assert "stored 2 U.S. Code titles, 1 C.F.R. titles" in out.out
    assert "U.S. Code: downloading release point 119-36" in out.err


def test_a_folders_config_cannot_choose_the_download_host(
    server: StatuteServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from citecheck.config import Settings, settings_from_mapping

    s = settings_from_mapping({"uscodeUrl": server.uscode_url, "ecfrUrl": server.ecfr_url})
    assert (s.uscode_url, s.ecfr_url) == (Settings().uscode_url, Settings().ecfr_url)


# ------------------------------------------------------------------ the versioner's API (issue 33 item 5)
def _two_titles(files: StatuteFiles) -> None:
    files.ecfr["3"] = ecfr_title(
        "3", {"100": [FakeSection(number="100.1", heading="Ethics.", paragraphs=("…",))]}
    )
    files.ecfr_versions["3"] = versions_json("3", [("100.1", "100", "2015-03-17", False)])
    files.ecfr_titles = titles_json(
        {"3": ("The President", "2024-01-03"), "17": ("Commodity and Securities Exchanges", "2024-01-03")}
    )


async def test_versions_are_asked_up_to_the_editions_date_page_by_page(
    server: StatuteServer, files: StatuteFiles, tmp_path: Path
) -> None:
    """The API needs an issue date (400 without one) and pages at 1,000 records: the sync asked neither,
    so a title's removed sections past the first page were unknown (and later "fabricated")."""
    files.versions_per_page = 2  # VERSIONS_17 has 5 rows: 3 pages
    with StatuteIndex(tmp_path / "statutes.sqlite") as index:
        await _sync(index, _request(server, tmp_path, usc=False))
        removed = index.lookup(Key("cfr", "17", "240.10b-7")).record  # its versions are on pages 2 and 3
        assert removed is not None and removed.status is SectionStatus.REMOVED
    asked = files.versions_queries
    assert [q.get("page") for q in asked] == ["1", "2", "3"]
    assert all(q.get("issue_date[lte]") == "2024-01-03" for q in asked)


async def test_a_title_being_processed_is_asked_again_after_retry_after(
    server: StatuteServer, files: StatuteFiles, tmp_path: Path
) -> None:
    files.busy["17"] = 2
    with StatuteIndex(tmp_path / "statutes.sqlite") as index:
        stats = await _sync(index, _request(server, tmp_path, usc=False, retry_wait_s=0.05))
        assert stats.cfr_titles == ["17"] and stats.refused == []
    assert len(files.versions_queries) == 3


async def test_a_failed_title_is_skipped_with_a_line_and_the_others_are_built(
    server: StatuteServer, files: StatuteFiles, tmp_path: Path
) -> None:
    """One failed title aborted the whole sync, and what was stored was counted as if all were."""
    _two_titles(files)
    files.busy["3"] = 99  # still processing after every retry
    lines: list[str] = []
    with StatuteIndex(tmp_path / "statutes.sqlite") as index:
        stats = await _sync(index, _request(server, tmp_path, usc=False, retry_wait_s=0.01), lines)
        assert stats.cfr_titles == ["17"] and len(stats.refused) == 1
        assert "1 C.F.R. titles" in stats.summary() and "1 refused" in stats.summary()
        assert [t.title for t in index.titles("cfr")] == ["17"]
    assert any(line.startswith("C.F.R. title 3: skipped, not stored") and "503" in line for line in lines)


async def test_a_title_file_that_is_another_title_or_not_ecfr_is_skipped(
    server: StatuteServer, files: StatuteFiles, tmp_path: Path
) -> None:
    _two_titles(files)
    files.ecfr["3"] = files.ecfr["17"]  # asked for title 3, given title 17's file
    files.ecfr["17"] = b"<html><body>Error</body></html>"
    lines: list[str] = []
    with StatuteIndex(tmp_path / "statutes.sqlite") as index:
        stats = await _sync(index, _request(server, tmp_path, usc=False), lines)
        assert stats.cfr_titles == [] and len(stats.refused) == 2
        assert index.titles("cfr") == []
    assert any("holds title 17, not title 3" in line for line in lines)
    assert any("format may have changed" in line for line in lines)


def test_the_amendment_date_is_read_not_the_deprecated_date() -> None:
    from citecheck.sources.statutes.ecfr import section_history

    doc = {
        "content_versions": [
            {"date": "1999-01-01", "amendment_date": "2020-06-01", "issue_date": "2020-06-01", "identifier": "1.1",
             "name": "§ 1.1", "removed": False, "type": "section"},
            {"date": "2021-01-01", "identifier": "1.2", "name": "§ 1.2", "removed": False, "type": "section"},
        ]
    }  # fmt: skip
    hist = section_history(json.dumps(doc))
    assert hist["1.1"][0].date == "2020-06-01" and hist["1.2"][0].date == "2021-01-01"


def test_the_cli_exits_1_when_a_title_was_skipped(
    server: StatuteServer, files: StatuteFiles, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:  # fmt: skip
    from citecheck.cli import main

    _two_titles(files)
    files.ecfr["3"] = b"<html>maintenance</html>"
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("CITECHECK_CACHE_PATH", str(tmp_path / "cache.sqlite"))
    monkeypatch.setenv("CITECHECK_STATUTES_PATH", str(tmp_path / "statutes.sqlite"))
    monkeypatch.setenv("CITECHECK_ECFR_URL", server.ecfr_url)
    assert main(["corpus", "sync", "--statutes", "--cfr-only"]) == 1
    out = capsys.readouterr()
    assert "stored 1 C.F.R. titles" in out.out and "1 refused" in out.out
    assert "refused C.F.R. title 3" in out.err


async def test_a_release_whose_title_has_no_sections_keeps_the_good_copy_and_says_so(
    server: StatuteServer, files: StatuteFiles, tmp_path: Path
) -> None:
    """Issue 35 item 1: a usc42.xml with no <section> was stored as a covered title of 0 sections over the good
    one (every 42 U.S.C. citation then fabricated-statute) and the sync ended as if all were well."""
    with StatuteIndex(tmp_path / "statutes.sqlite") as index:
        await _sync(index, _request(server, tmp_path, cfr=False))
        files.release_point = "119-40"
        files.usc = {"usc42.xml": uslm_title("42", []), "usc07.xml": files.usc["usc07.xml"]}
        files.reset_zip()
        stats = await _sync(index, _request(server, tmp_path, cfr=False))
        assert stats.usc_titles == ["7"] and len(stats.refused) == 1 and "usc42.xml" in stats.refused[0]
        assert "1 refused" in stats.summary()
        assert index.covers("usc", "42")
        rec = index.lookup(Key("usc", "42", "1983")).record
        assert rec is not None and rec.edition == "119-36"  # the good copy, from the release that had it
