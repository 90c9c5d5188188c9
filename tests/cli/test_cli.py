"""``citecheck check`` end to end: the real pipeline, real files, exit codes, errors, offline guarantee."""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler

import pytest

from citecheck.sources.corpus_server import QuietHTTPServer

EXAMPLE = "examples/brief.md"


def test_fresh_clone_offline_does_real_work_and_accuses_nobody(run_cli):
    r = run_cli("check", EXAMPLE)
    # extraction + local checks still run: the impossible citation and the reversed pin range
    assert "error impossible-citation" in r.out and "640 F.4th 512" in r.out
    assert "warning malformed-pincite" in r.out and "733–31" in r.out
    # every other citation says plainly it could not be verified, and how to fix that
    assert "info cannot-verify: 100 A.2d 450 could not be verified" in r.out
    assert "citecheck corpus import" in r.out and "CITECHECK_COURTLISTENER_TOKEN" in r.out
    assert "fabricated-case" not in r.out and "appears to be fabricated" not in r.out
    assert r.rc == 1  # an error-level finding (the impossible citation) at the default --fail-on error


@pytest.mark.parametrize(("fail_on", "rc"), [("never", 0), ("error", 1), ("warning", 1), ("info", 1)])
def test_fail_on_thresholds(run_cli, tmp_path, fail_on, rc):
    assert run_cli("check", "--offline", "--fail-on", fail_on, EXAMPLE).rc == rc


def test_only_info_findings_pass_at_fail_on_error_but_not_info(run_cli, tmp_path):
    doc = tmp_path / "one.md"
    doc.write_text("See Savage v. Parks, 100 A.2d 450, 451 (D.C. Mun. App. 1953).\n")
    assert run_cli("check", "--offline", str(doc)).rc == 0
    assert run_cli("check", "--offline", "--fail-on", "warning", str(doc)).rc == 0
    assert run_cli("check", "--offline", "--fail-on", "info", str(doc)).rc == 1


def test_bad_input_is_one_line_and_other_files_are_still_checked(run_cli, tmp_path):
    bad = tmp_path / "broken.docx"
    bad.write_bytes(b"PK\x03\x04 not really a zip")
    r = run_cli("check", "--offline", "--format", "json", str(bad), EXAMPLE, str(tmp_path / "missing.md"))
    assert r.rc == 2
    lines = r.err.strip().splitlines()
    assert (
        len(lines) == 2
        and "broken.docx: not a valid .docx" in lines[0]
        and "missing.md: no such file" in lines[1]
    )
    assert "Traceback" not in r.err
    doc = json.loads(r.out)
    assert [f["path"] for f in doc["files"]] == [EXAMPLE]
    assert [e["path"] for e in doc["errors"]] == [str(bad), str(tmp_path / "missing.md")]


def test_usage_and_config_errors_exit_2(run_cli, tmp_path):
    assert run_cli("check").rc == 2
    assert run_cli("check", "--format", "pdf", EXAMPLE).rc == 2
    assert run_cli().rc == 2
    cfg = tmp_path / "bad.toml"
    cfg.write_text("checks = ['no-such-kind']\n")
    r = run_cli("check", "--config", str(cfg), EXAMPLE)
    assert (
        r.rc == 2
        and r.err.strip() == "citecheck: error: unknown finding kind(s) in enabled_kinds: no-such-kind"
    )
    assert run_cli("--version").rc == 0


def test_internal_errors_are_one_line_unless_debug(run_cli, monkeypatch):
    import citecheck.cli.app as cli

    def boom(*args, **kwargs):
        raise RuntimeError("kaboom")

    monkeypatch.setattr(cli, "_check_documents", boom)
    r = run_cli("check", EXAMPLE)
    assert r.rc == 2 and "Traceback" not in r.err
    assert r.err.strip() == "citecheck: internal error: RuntimeError: kaboom (run with --debug for details)"
    r = run_cli("check", "--debug", EXAMPLE)
    assert r.rc == 2 and "Traceback" in r.err and "kaboom" in r.err


def test_stdin_and_output_file(run_cli, tmp_path):
    out = tmp_path / "report.md"
    r = run_cli(
        "check",
        "--offline",
        "-f",
        "markdown",
        "-o",
        str(out),
        "-",
        stdin=b"See Whitfield v. Kessler Mgmt. Co., 640 F.4th 512 (D.C. Cir. 2001).\n",
    )
    assert r.rc == 1 and r.out == ""
    text = out.read_text(encoding="utf-8")
    assert "## <stdin>" in text and "`impossible-citation`" in text


def test_docx_with_table_and_footnotes_is_checked_end_to_end(run_cli, tmp_path):
    """A .docx built here with python-docx: citations in a table cell and in a footnote are found."""
    path = _test_inputs_module().build_docx(
        tmp_path / "memo.docx",
        body=["The purchaser may rescind. Savage v. Parks, 100 A.2d 450, 451 (D.C. Mun. App. 1953)."],
        table=[
            ["Authority", "Holding"],
            ["Berry v. Keith, 100 A.2d 831, 833–32 (D.C. Mun. App. 1953)", "agent may not forfeit"],
        ],
        footnotes=["But see Whitfield v. Kessler Mgmt. Co., 640 F.4th 512 (D.C. Cir. 2001)."],
    )
    r = run_cli("check", "--offline", "--format", "json", str(path))
    doc = json.loads(r.out)
    (f,) = doc["files"]
    assert f["kind"] == "docx"
    assert [c["text"] for c in f["citations"] if c["form"] == "full"] == [
        "100 A.2d 450",
        "100 A.2d 831",
        "640 F.4th 512",
    ]
    kinds = {(x["kind"], f["citations"][x["citation_index"]]["text"]) for x in f["findings"]}
    assert ("malformed-pincite", "100 A.2d 831") in kinds  # from the table cell
    assert ("impossible-citation", "640 F.4th 512") in kinds  # from the footnote
    assert r.rc == 1


def _test_inputs_module():
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    try:
        import test_inputs  # the real-format builders the input tests use
    finally:
        sys.path.pop(0)
    return test_inputs


def test_pdf_findings_carry_the_pdf_page(run_cli, tmp_path):
    pdf = tmp_path / "filed.pdf"
    pdf.write_bytes(
        _test_inputs_module().build_pdf(
            [
                "See Savage v. Parks, 100 A.2d 450, 451 (D.C. Mun. App. 1953).",
                "But see Whitfield v. Kessler Mgmt. Co., 640 F.4th 512 (D.C. Cir. 2001).",
            ]
        )
    )
    r = run_cli("check", "--offline", "--format", "json", str(pdf))
    (f,) = json.loads(r.out)["files"]
    assert f["kind"] == "pdf"
    pages = {c["text"]: c["page"] for c in f["citations"]}
    assert pages == {"100 A.2d 450": "1", "640 F.4th 512": "2"}
    (impossible,) = [x for x in f["findings"] if x["kind"] == "impossible-citation"]
    assert impossible["page"] == "2"


def test_progress_bar_draws_on_a_terminal_and_is_silent_otherwise(capsys):
    from citecheck.cli.app import _progress

    with _progress(False, 2) as advance:
        advance("a.md", 1)
    assert capsys.readouterr().err == ""
    with _progress(True, 2) as advance:
        advance("a.md", 0)
        advance("a.md", 1)
        advance("b.md", 1)


class _Recorder(BaseHTTPRequestHandler):
    hits: list[str]

    def do_GET(self):
        type(self).hits.append(self.path)
        self.send_response(503)
        self.end_headers()

    do_POST = do_GET

    def log_message(self, *args):
        pass


@pytest.fixture
def fake_services(monkeypatch):
    """A real HTTP server on 127.0.0.1 standing in for CourtListener and the CAP static site."""
    handler = type("Handler", (_Recorder,), {"hits": []})
    httpd = QuietHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{httpd.server_address[1]}/"
    monkeypatch.setenv("CITECHECK_COURTLISTENER_URL", base + "api/rest/v4/")
    monkeypatch.setenv("CITECHECK_COURTLISTENER_TOKEN", "test-token")
    monkeypatch.setenv("CITECHECK_TOKEN_HOSTS", "127.0.0.1")  # the user's own environment allows it
    monkeypatch.setenv("CITECHECK_CAP_URL", base + "cap/")
    monkeypatch.setenv("CITECHECK_HTTP_TIMEOUT_S", "5")
    yield handler.hits
    httpd.shutdown()
    httpd.server_close()


def test_offline_sends_nothing_even_with_a_token_configured(run_cli, fake_services):
    r = run_cli("check", "--offline", EXAMPLE)
    assert fake_services == []
    assert "fabricated-case" not in r.out
    # the same run without --offline does reach the services (so this test can fail)
    r = run_cli("check", "--format", "json", EXAMPLE)
    assert fake_services, "expected the online run to contact the local stand-in services"
    doc = json.loads(r.out)
    assert doc["offline"] is False
    statuses = {c["status"] for c in doc["files"][0]["citations"]}
    assert "verified" not in statuses  # a failing service verifies nothing and accuses nobody
    assert all(x["kind"] != "fabricated-case" for x in doc["files"][0]["findings"])


@pytest.mark.corpus
def test_with_the_sample_corpus_every_deterministic_kind_appears(run_cli, imported_corpus):
    r = run_cli("check", "--offline", "--format", "json", EXAMPLE)
    doc = json.loads(r.out)
    (f,) = doc["files"]
    kinds = {x["kind"] for x in f["findings"]}
    assert kinds >= {
        "fabricated-case",
        "impossible-citation",
        "name-mismatch",
        "name-misspelled",
        "misquote",
        "pincite-out-of-range",
        "pincite-wrong-page",
        "year-mismatch",
        "court-mismatch",
        "malformed-pincite",
        "cannot-verify",
    }
    by_text = {c["text"]: c for c in f["citations"]}
    clean = by_text["100 A.2d 450"]
    assert clean["status"] == "verified" and clean["resolved_case"]["name"] == "Savage v. Parks"
    assert by_text["2019 WL 1396975"]["status"] == "cannot-verify"
    assert by_text["183 A.3d 727"]["status"] in ("cannot-verify", "problem")  # real, not in the sample
    savage = next(a for a in f["authorities"] if a["name"] == "Savage v. Parks")
    assert savage["status"] == "verified" and len(savage["citation_indexes"]) == 3  # full, Id., short form
    assert r.rc == 1


@pytest.mark.corpus
def test_corpus_command_is_wired_and_its_corpus_is_what_check_uses(run_cli, cli_home):
    from citecheck_testing import shared_corpus_path

    r = run_cli("corpus", "import", str(shared_corpus_path("cap-static")))
    assert r.rc == 0 and "imported 9 cases" in r.out
    r = run_cli("check", "--offline", "--format", "json", EXAMPLE)
    by_text = {c["text"]: c for c in json.loads(r.out)["files"][0]["citations"]}
    assert by_text["100 A.2d 450"]["status"] == "verified"
    r = run_cli("corpus", "import", str(cli_home / "nope"))
    assert r.rc == 2 and r.err.startswith("citecheck: error: ") and len(r.err.strip().splitlines()) == 1


def test_eval_command_is_wired(run_cli, tmp_path):
    r = run_cli("eval", str(tmp_path / "missing.jsonl"))
    assert r.rc == 2 and r.err.startswith("citecheck: error: ") and "Traceback" not in r.err


@pytest.mark.parametrize("fmt", ["text", "json", "sarif", "html", "markdown"])
def test_the_courtlistener_token_never_appears_in_a_report(run_cli, monkeypatch, fmt):
    monkeypatch.setenv("CITECHECK_COURTLISTENER_TOKEN", "tok-5ecret-value")
    r = run_cli("check", "--offline", "--format", fmt, EXAMPLE)
    assert r.out and "tok-5ecret-value" not in r.out + r.err


def test_settings_from_pyproject_apply_and_flags_win(run_cli, tmp_path, monkeypatch):
    monkeypatch.delenv("CITECHECK_CONFIG")
    project = tmp_path / "matter"
    project.mkdir()
    (project / "pyproject.toml").write_text(
        '[tool.citecheck]\nseverity = { impossible-citation = "warning" }\ncorpus = "corpus.sqlite"\n'
    )
    drafts = project / "drafts"
    drafts.mkdir()
    (drafts / "brief.md").write_text("See Whitfield v. Kessler Mgmt. Co., 640 F.4th 512 (D.C. Cir. 2001).\n")
    monkeypatch.chdir(drafts)  # the settings file is found upwards
    r = run_cli("check", "--offline", "brief.md")
    assert "warning impossible-citation" in r.out and r.rc == 0  # downgraded by the project's settings
    # but the folder does not choose the file read as evidence (docs/settings.md, who may set what)
    assert "corpus_path" in r.err and "it is ignored" in r.err
    run_cli("check", "brief.md")  # online, CAP volumes may be stored: never in the folder's corpus
    assert not (project / "corpus.sqlite").exists() and not (drafts / "corpus.sqlite").exists()
    monkeypatch.setenv("CITECHECK_SEVERITY_OVERRIDES", "impossible-citation=error")
    r = run_cli("check", "--offline", "brief.md")
    assert "error impossible-citation" in r.out and r.rc == 1  # the environment beats the file


@pytest.mark.corpus
def test_check_honours_the_workspace_ignore_list_and_no_ignore_shows_everything(
    run_cli, imported_corpus, tmp_path, monkeypatch
):
    from citecheck_testing import REPO_ROOT

    brief = tmp_path / "brief.md"
    brief.write_text((REPO_ROOT / EXAMPLE).read_text(encoding="utf-8"), encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    full = json.loads(run_cli("check", "--offline", "--format", "json", "brief.md").out)["files"][0]
    problem = next(c for c in full["citations"] if c["status"] == "problem" and c["form"] == "full")
    cite = problem["cite"].lower()
    # dismissed from the editor: the whole citation, in the workspace's ignore file (found from a subfolder)
    (tmp_path / ".citecheck").mkdir()
    (tmp_path / ".citecheck" / "ignore.json").write_text(
        json.dumps({"version": 1, "ignored": [{"kind": "*", "citation": cite, "quoteHash": "*"}]}),
        encoding="utf-8",
    )
    (tmp_path / "sub").mkdir()
    monkeypatch.chdir(tmp_path / "sub")
    r = run_cli("check", "--offline", "--format", "json", "../brief.md")
    shown = json.loads(r.out)["files"][0]
    again = next(c for c in shown["citations"] if c["index"] == problem["index"])
    assert again["status"] != "problem"  # its status follows what is shown
    assert all(x.get("citation_index") != problem["index"] for x in shown["findings"])
    assert len(shown["findings"]) < len(full["findings"])
    text = run_cli("check", "--offline", "../brief.md").out
    assert "dismissed in .citecheck/ignore.json" in text and "--no-ignore" in text
    everything = json.loads(
        run_cli("check", "--offline", "--no-ignore", "--format", "json", "../brief.md").out
    )
    assert len(everything["files"][0]["findings"]) == len(full["findings"])


def test_scanned_pdf_exits_2_saying_nothing_could_be_read(run_cli, tmp_path):
    import io

    import pypdf

    w = pypdf.PdfWriter()
    w.add_blank_page(width=612, height=792)
    buf = io.BytesIO()
    w.write(buf)
    (tmp_path / "scan.pdf").write_bytes(buf.getvalue())
    r = run_cli("check", "--offline", str(tmp_path / "scan.pdf"))
    assert r.rc == 2 and "nothing could be read" in (r.out + r.err)
