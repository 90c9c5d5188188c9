"""What a user reads from ``citecheck check``: errors on stderr only, a summary whose counts add up,
.docx locations Word users can find, no PDF library noise, and a word about misspelled settings."""

from __future__ import annotations

import re
import sys
from pathlib import Path

EXAMPLE = "examples/brief.md"
DOCX = "examples/brief.docx"

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from test_inputs import build_pdf  # noqa: E402  (the real-format PDF writer the input tests use)


def test_file_errors_go_to_stderr_only_in_every_format(run_cli, tmp_path):
    missing = str(tmp_path / "missing.md")
    for fmt in ("text", "json", "markdown", "sarif"):
        r = run_cli("check", "--offline", "--format", fmt, EXAMPLE, missing)
        assert r.rc == 2
        assert r.err.count("missing.md: no such file") == 1, (fmt, r.err)
    r = run_cli("check", "--offline", EXAMPLE, missing)
    assert "missing.md" not in r.out, "the error leaked into the text report on stdout"


def test_report_file_keeps_the_error_and_stderr_says_it(run_cli, tmp_path):
    out = tmp_path / "report.txt"
    r = run_cli("check", "--offline", "-o", str(out), EXAMPLE, str(tmp_path / "gone.md"))
    assert "gone.md: no such file" in r.err and "gone.md: error: no such file" in out.read_text()


def test_summary_says_why_cannot_verify_count_differs_from_the_lines_listed(run_cli):
    r = run_cli("check", "--offline", EXAMPLE)
    summary = re.search(r"(\d+) citations = (\d+) problem \+ (\d+) cannot-verify;", r.out)
    assert summary, r.out
    total = int(summary.group(3))
    listed_lines = len(re.findall(r": info cannot-verify: ", r.out))
    note = re.search(
        r"(\d+) cannot-verify lines = (\d+) for cannot-verify citations(?: \+ (\d+) for a citation counted as "
        r"a problem)?; (\d+) more cannot-verify citations are short forms \(Id\., supra\), which get no line",
        r.out,
    )
    assert note, r.out
    lines, own, also, short = (int(g or 0) for g in note.groups())
    assert lines == listed_lines == own + also  # each side of the "=" adds up
    assert total == own + short


def test_the_summary_line_adds_up(run_cli):
    """Issue 25 item 8: both tallies of the summary line are sums a reader can check at a glance."""
    r = run_cli("check", "--offline", EXAMPLE)
    line = next(ln for ln in r.out.splitlines() if re.match(re.escape(EXAMPLE) + r": \d+ citations = ", ln))
    cites, findings = line.split(": ", 1)[1].split("; ")
    for tally in (cites, findings):
        total, parts = tally.split(" = ")
        assert int(total.split()[0]) == sum(int(p.split()[0]) for p in parts.split(" + ")), line
    assert int(findings.split()[0]) == len(re.findall(r": (error|warning|info) [a-z-]+: ", r.out))


def test_docx_findings_say_paragraph_not_line_and_column(run_cli):
    r = run_cli("check", "--offline", DOCX)
    findings = [
        ln
        for ln in r.out.splitlines()
        if ln.startswith(DOCX + ":") and re.search(r": (error|warning|info) [a-z-]+: ", ln)
    ]
    assert findings and all(
        re.match(re.escape(DOCX) + r": (paragraph|footnote|endnote) \d+: ", ln) for ln in findings
    ), findings
    assert not re.search(re.escape(DOCX) + r":\d+:\d+:", r.out)
    assert any(re.match(re.escape(DOCX) + r": paragraph \d+: (error|warning) ", ln) for ln in findings), (
        findings
    )


def test_pdf_library_warnings_are_not_shown_but_kept_for_debug(run_cli, tmp_path):
    data = build_pdf(["Savage v. Parks, 100 A.2d 450 (D.C. Mun. App. 1953)."])
    cut = data.rfind(b"startxref")
    bad = tmp_path / "odd.pdf"
    bad.write_bytes(
        data[:cut] + b"startxref\n99999\n%%EOF\n"
    )  # a wrong xref offset: pypdf recovers, and warns
    r = run_cli("check", "--offline", str(bad))
    assert "100 A.2d 450" in r.out
    assert "pypdf" not in r.err and "startxref" not in r.err, r.err
    r = run_cli("check", "--offline", "--debug", str(bad))
    assert re.search(r"DEBUG citecheck\.inputs: pypdf[\w.]*: incorrect startxref", r.err), r.err


def test_unknown_citecheck_variables_and_config_keys_are_named(run_cli, cli_home, monkeypatch):
    monkeypatch.setenv("CITECHECK_HTTP_TIMOUT", "5")
    (cli_home / "citecheck.toml").write_text("ofline = true\ncap_fetch = false\n")
    r = run_cli("check", "--offline", EXAMPLE)
    assert (
        "citecheck: warning: unknown environment variable CITECHECK_HTTP_TIMOUT "
        "(did you mean CITECHECK_HTTP_TIMEOUT?); it is ignored"
    ) in r.err
    assert 'unknown setting "ofline" (did you mean offline?)' in r.err
    assert "cap_fetch" not in r.err and "CITECHECK_CAP_URL" not in r.err  # real names are not warned about


def test_the_obvious_spelling_of_the_timeout_variable_works(run_cli, monkeypatch):
    from citecheck.config.files import load_settings

    monkeypatch.setenv("CITECHECK_HTTP_TIMEOUT", "7")
    settings, _ = load_settings()
    assert settings.http_timeout_s == 7.0
    r = run_cli("check", "--offline", EXAMPLE)
    assert "unknown" not in r.err


def test_first_command_on_a_network_that_drops_packets_is_fast_and_says_what_it_does(run_cli, monkeypatch):
    """A host that accepts connections and never answers: one timeout for the whole brief, not one
    per volume, and progress on stderr while it waits."""
    import time

    from citecheck_testing import loopback_tcp

    with loopback_tcp() as (url, held):
        monkeypatch.setenv("CITECHECK_CAP_URL", url)
        monkeypatch.setenv("CITECHECK_HTTP_TIMEOUT", "1")
        start = time.monotonic()
        r = run_cli("check", EXAMPLE)
        took = time.monotonic() - start
    assert took < 15, f"{took:.1f} s"
    assert len(held) == 1, "the silent host was asked once, not once per cited volume"
    # (the host may show as *** when an earlier test registered 127.0.0.1 as a token host: redaction)
    assert "citecheck: info: downloading CAP volume 100 A.2d from http://" in r.err
    assert "CAP site unreachable" in r.err
    assert "could not be verified" in r.out and "fabricated-case" not in r.out  # never an accusation
