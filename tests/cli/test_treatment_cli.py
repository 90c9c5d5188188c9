"""``citecheck treatment build|status`` through the real entry point: figures on stdout, errors in one line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from citecheck_testing.bulk_dump import Case, open_dump_file, write_dump, write_table

COURTS = [
    {"id": "scotus", "full_name": "Supreme Court of the United States", "short_name": "SCOTUS",
     "citation_string": "SCOTUS", "jurisdiction": "F"},
    {"id": "ca7", "full_name": "Court of Appeals for the Seventh Circuit", "short_name": "Seventh Circuit",
     "citation_string": "7th Cir.", "jurisdiction": "F"},
    {"id": "ca1", "full_name": "Court of Appeals for the First Circuit", "short_name": "First Circuit",
     "citation_string": "1st Cir.", "jurisdiction": "F"},
]  # fmt: skip
CASES = [
    Case(id=1, name="Tinsley v. United Parcel Service, Inc.", cites=[("665", "F.2d", "778")], date="1981-12-01",
         court="ca7"),
    Case(id=2, name="Rupe v. Spector Freight Systems, Inc.", cites=[("679", "F.2d", "685")], date="1982-06-01",
         court="ca7"),
    Case(id=3, name="Citing v. Opinion", cites=[("1", "F.3d", "1")], date="1993-07-01", court="ca1"),
]  # fmt: skip
# words of a real First Circuit opinion (chansooligans/Federal-Appellate-Court-Opinions-Text-Analysis @ 27f7f91,
# Archive/Progress_Reports/data/194629.json), as CourtListener serves its plain text
WORDS = (
    "Tinsley v. United Parcel Service, Inc., 665 F.2d 778 , 779 (7th Cir. 1981), overruled on other grounds, "
    "Rupe v. Spector Freight Sys. Inc., 679 F.2d 685 (7th Cir. 1982)."
)


def _bulk(tmp_path: Path) -> tuple[Path, Path]:
    write_dump(tmp_path / "dump", CASES, courts=COURTS)
    with open_dump_file(tmp_path / "bulk", "opinions", "2026-06-30", compress=True) as out:
        write_table(out, "opinions", [{"id": 9, "type": "010combined", "plain_text": WORDS, "cluster_id": 3}])
    return tmp_path / "dump", tmp_path / "bulk"


def test_build_then_status(run_cli, cli_home: Path, tmp_path: Path) -> None:
    dump, bulk = _bulk(tmp_path)
    assert run_cli("corpus", "sync", "--from", str(dump), "--offline").rc == 0
    built = run_cli("treatment", "build", str(bulk), "--offline")
    assert built.rc == 0, built.err
    assert "1 treatments" in built.out and "read 1 opinions (1 with a cue word)" in built.out
    assert "reading opinions-2026-06-30.csv.bz2" in built.err  # progress on stderr
    status = run_cli("treatment", "status")
    assert status.rc == 0 and "1 treatments of 3 cases" in status.out
    assert "292 overruled decisions" in status.out  # the Congress.gov table shipped with the package
    data = json.loads(run_cli("treatment", "status", "--json").out)
    assert data["treatment_table"]["counts"]["overruled"] == 1
    figures = json.loads(run_cli("treatment", "build", str(bulk), "--json", "--offline").out)
    assert figures["treatments"] == 1 and figures["opinions"] == 1 and figures["cpu_seconds"] >= 0


def test_errors_are_one_line_with_what_to_do(run_cli, cli_home: Path, tmp_path: Path) -> None:
    _, bulk = _bulk(tmp_path)
    no_index = run_cli("treatment", "build", str(bulk), "--index", str(tmp_path / "none.sqlite"))
    assert no_index.rc == 2 and "no citation index" in no_index.err and "corpus sync" in no_index.err
    nothing = run_cli("treatment", "build", str(tmp_path / "dump"))
    assert nothing.rc == 2 and "no parentheticals-*.csv[.bz2] or opinions-*.csv[.bz2]" in nothing.err
    offline = run_cli("treatment", "build", "--offline")
    assert offline.rc == 2 and "give PATH" in offline.err
    bare = run_cli("treatment")
    assert bare.rc == 2 and "build or status" in bare.err
    for done in (no_index, nothing, offline, bare):
        assert "Traceback" not in done.err


def test_an_opinions_file_in_another_dialect_says_so(run_cli, cli_home: Path, tmp_path: Path) -> None:
    dump, _ = _bulk(tmp_path)
    assert run_cli("corpus", "sync", "--from", str(dump), "--offline").rc == 0
    bad = tmp_path / "bad"
    bad.mkdir()
    (bad / "opinions-2026-06-30.csv").write_text("id,cluster_id\n1,2\n", encoding="utf-8")
    done = run_cli("treatment", "build", str(bad))
    assert done.rc == 0 and "0 treatments" in done.out  # no text columns: nothing to read, nothing invented
    (bad / "opinions-2026-06-30.csv").write_text("identifier\n1\n", encoding="utf-8")
    done = run_cli("treatment", "build", str(bad))
    assert done.rc == 2 and "'id'" in done.err and "opinions file" in done.err


def test_corpus_sync_refreshes_the_table_of_decisions_overruled(run_cli, cli_home: Path, tmp_path: Path,
                                                                 monkeypatch) -> None:  # fmt: skip
    from citecheck.config import overruled_table_path
    from citecheck.sources.treatment.congress import shipped_text
    from citecheck_testing.bulk_bucket import FakeBucket
    from citecheck_testing.bulk_dump import closed_volume_cases

    newer = (
        shipped_text().rstrip("\n")
        + '\n"237","Newer v. Case, 700 U.S. 1 (2030)","2030","Older v. Case, 600 U.S. 1 (2025)","2025"\n'
    )
    with FakeBucket() as bucket:
        write_dump(tmp_path / "pub", closed_volume_cases(), compress=True)
        bucket.put_folder(tmp_path / "pub")
        bucket.put("resources/decisions-overruled.csv", newer.encode())
        monkeypatch.setenv("CITECHECK_BULK_URL", bucket.base_url)
        monkeypatch.setenv("CITECHECK_OVERRULED_URL", bucket.base_url + "resources/decisions-overruled.csv")
        done = run_cli("corpus", "sync")
    assert done.rc == 0, done.err
    assert "table of Supreme Court decisions overruled: 293 decisions" in done.out
    assert overruled_table_path().exists()
    assert "refreshed" in run_cli("treatment", "status").out
    # a page that cannot be reached leaves the table in use and says so; the sync itself succeeds
    monkeypatch.setenv("CITECHECK_OVERRULED_URL", "http://127.0.0.1:9/decisions-overruled/")
    with FakeBucket() as bucket:
        bucket.put_folder(tmp_path / "pub")
        monkeypatch.setenv("CITECHECK_BULK_URL", bucket.base_url)
        again = run_cli("corpus", "sync")
    assert again.rc == 0 and "was not refreshed" in again.err


def test_build_then_check_quotes_the_overruling_opinions_own_sentence(run_cli, cli_home: Path, tmp_path: Path,
                                                                     monkeypatch) -> None:  # fmt: skip
    """Issue 37's "from text": CourtListener-format opinions rows holding a real opinion's words, an index that
    holds both cases; ``treatment build DIR --index FILE`` then ``check --index FILE`` warns on the case and
    quotes the opinion. The words: United States v. Holloway, 630 F.3d 252 (1st Cir. 2011), as CourtListener
    serves it (chansooligans/Federal-Appellate-Court-Opinions-Text-Analysis @ 27f7f91, 183309.json)."""
    cases = [
        Case(id=11, name="United States v. Mangos", cites=[("134", "F.3d", "460")], date="1998-02-02", court="ca1"),
        Case(id=12, name="United States v. Holloway", cites=[("630", "F.3d", "252")], date="2011-01-05", court="ca1"),
    ]  # fmt: skip
    write_dump(tmp_path / "dump", cases, courts=COURTS)
    words = (
        "<p>United States v. Mangos, 134 F.3d 460 (1st Cir. 1998).</p><p>After doing so, we agree that Mangos's "
        'rule that the boilerplate charging language of assault and battery alone establishes a violent felony is no '
        '<span class="star-pagination">*255</span> longer good law.<sup>[2]</sup> It follows that further analysis '
        "is ordinarily required in the district courts.</p>"
    )  # fmt: skip
    with open_dump_file(tmp_path / "bulk", "opinions", "2026-06-30", compress=True) as out:
        write_table(out, "opinions", [{"id": 183309, "type": "010combined", "html_with_citations": words,
                                       "cluster_id": 12}])  # fmt: skip
    index, table = tmp_path / "index.sqlite", tmp_path / "treatment.sqlite"
    assert (
        run_cli("corpus", "sync", "--from", str(tmp_path / "dump"), "--index", str(index), "--offline").rc
        == 0
    )
    built = run_cli("treatment", "build", str(tmp_path / "bulk"), "--index", str(index), "--out", str(table))
    assert built.rc == 0 and "1 treatments" in built.out, built.out + built.err
    brief = tmp_path / "brief.md"
    brief.write_text("Assault is a violent felony. United States v. Mangos, 134 F.3d 460 (1st Cir. 1998).\n")
    monkeypatch.setenv("CITECHECK_TREATMENT_PATH", str(table))
    checked = run_cli("check", str(brief), "--index", str(index), "--offline", "--format", "json")
    data = json.loads(checked.out)
    (f,) = [x for x in data["files"][0]["findings"] if x["kind"] in ("overruled", "negatively-treated")]
    assert f["kind"] == "negatively-treated" and f["severity"] == "warning"
    assert "United States v. Holloway" in f["message"]
    assert "is no longer good law" in f["evidence"]["passage"] and "Mangos's rule" in f["evidence"]["passage"]
    (cite,) = [c for c in data["files"][0]["citations"] if c["cite"] == "134 F.3d 460"]
    assert cite["treatment"]["status"] == "negatively-treated" and cite["treatment"]["sources"]


def test_build_with_ray_reports_what_the_build_here_reports(run_cli, cli_home: Path, tmp_path: Path) -> None:
    """``--ray``: the scan on a real local Ray instance of 2 CPUs (stopped after), the same figures and table."""
    pytest.importorskip("ray", reason="Ray is the [scale] extra (in [dev]); not installed here")
    dump, bulk = _bulk(tmp_path)
    assert run_cli("corpus", "sync", "--from", str(dump), "--offline").rc == 0
    common = ("treatment", "build", str(bulk), "--offline", "--json")
    here = run_cli(*common, "--out", str(tmp_path / "here.sqlite"), "--workers", "0")
    on_ray = run_cli(*common, "--out", str(tmp_path / "ray.sqlite"), "--ray", "--workers", "2")
    assert here.rc == 0 and on_ray.rc == 0, on_ray.err
    assert "scanning on Ray: 2 workers" in on_ray.err and "Traceback" not in on_ray.err
    timing = {"table", "seconds", "cpu_seconds", "worker_cpu_seconds", "size_bytes"}
    a, b = json.loads(here.out), json.loads(on_ray.out)
    assert a["treatments"] == 1 and {k: v for k, v in a.items() if k not in timing} == {
        k: v for k, v in b.items() if k not in timing
    }
    assert b["size_bytes"] == a["size_bytes"]  # the same rows, the same pages
    assert "worker_cpu_seconds" not in a and b["worker_cpu_seconds"] >= 0
    zero = run_cli(*common, "--ray", "--workers", "0")
    assert zero.rc == 2 and "--workers must be 1 or more with --ray" in zero.err
