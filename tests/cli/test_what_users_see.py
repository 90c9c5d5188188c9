"""What a user reads from ``citecheck check``: errors on stderr only, a summary whose counts add up,
.docx locations Word users can find, no PDF library noise, and a word about misspelled settings."""

from __future__ import annotations

import json
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


#: "16 citations (4 of them short forms such as Id.): 2 with problems, 14 could not be verified. 14 findings:
#: 1 error, 1 warning, 12 notes." (issue 36: it read "… 11 cannot-verify lines = 10 for cannot-verify
#: citations + 1 for a citation counted as a problem; 4 more …")
_SUMMARY = r": (\d+) citations? \((\d+) of them (?:a )?short forms? such as Id\.\): (.*?)\. (\d+) findings?: (.*?)\.$"


def test_the_summary_line_adds_up_in_plain_words(run_cli):
    r = run_cli("check", "--offline", EXAMPLE)
    m = re.search(re.escape(EXAMPLE) + _SUMMARY, r.out, re.M)
    assert m, r.out
    total, short, statuses, findings, severities = m.groups()
    assert int(total) == sum(int(p.split()[0]) for p in statuses.split(", "))
    assert int(findings) == sum(int(p.split()[0]) for p in severities.split(", "))
    assert int(findings) == len(re.findall(r": (error|warning|info) [a-z-]+: ", r.out))
    assert "error" in severities and "notes" in severities and "info" not in severities
    # the cannot-verify lines are the full citations not verified: the short forms among them get none
    unverified = int(re.search(r"(\d+) could not be verified", statuses).group(1))
    lines = len(re.findall(r": info cannot-verify: ", r.out))
    assert lines <= unverified <= lines + int(short)


def test_could_not_be_verified_is_explained_once(run_cli):
    """Issue 36: a 3-5 line note repeated under every unverified citation (73 times in one opinion)."""
    r = run_cli("check", "--offline", EXAMPLE)
    assert len(re.findall(r": info cannot-verify: ", r.out)) > 5
    # said once, in the notes (the first run's note when most could not be checked: issue 32)
    said = r.out.count("This is not a finding") + r.out.count("proves nothing about them")
    assert said == 1, r.out
    assert r.out.count("CITECHECK_COURTLISTENER_TOKEN") == 1  # how to enable verification, once
    cannot = [b for b in r.out.split("\n" + EXAMPLE) if " info cannot-verify: " in b.split("\n")[0]]
    assert all(len(b.strip().splitlines()) == 2 for b in cannot), cannot  # the line and "cited:", no evidence


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


def test_pdf_findings_say_the_page_in_every_report_a_lawyer_reads(run_cli, tmp_path):
    """Issue 36: the HTML and Markdown reports gave the line and column of text extracted from a PDF; the
    page is what the reader can find."""
    data = build_pdf(
        [
            "Argument. Savage v. Parks, 100 A.2d 450, 451 (D.C. Mun. App. 1953).",
            "Whitfield v. Kessler Mgmt. Co., 640 F.4th 512 (D.C. Cir. 2001). Id. at 513.",
        ]
    )
    pdf = tmp_path / "brief.pdf"
    pdf.write_bytes(data)
    html = run_cli("check", "--offline", "--format", "html", str(pdf)).out
    assert "page 2 — <code>640 F.4th 512</code>" in html and "column " not in html
    assert re.search(r"<td>page 1</td><td><code>100 A.2d 450</code>", html)
    md = run_cli("check", "--offline", "--format", "markdown", str(pdf)).out
    assert "(`impossible-citation`) at page 2 —" in md and "| page 1 |" in md
    assert not re.search(r"\| \d+:\d+ \|", md)


def test_scanned_pages_are_said_in_every_format(run_cli, tmp_path):
    """Issue 36: "No citations. No findings." for a PDF whose pages are scans reads as "nothing wrong"; each
    report says which pages were not read, and what to do."""
    typed = "The court relied on Savage v. Parks, 100 A.2d 450 (D.C. 1953). " * 4
    pdf = tmp_path / "filing.pdf"
    pdf.write_bytes(build_pdf([typed, "", "", "", typed, ""], scanned={1, 2, 3, 5}))
    said = (
        "Pages 2–4, 6 of the PDF are images with little or no text (scanned?): nothing on them was checked."
    )
    for fmt in ("text", "markdown", "html"):
        r = run_cli("check", "--offline", "--format", fmt, str(pdf))
        assert r.rc == 0 and said in r.out.replace("&#x27;", "'"), (fmt, r.out)
    r = run_cli("check", "--offline", "--format", "json", str(pdf))
    assert json.loads(r.out)["files"][0]["unread_pages"] == ["2", "3", "4", "6"]
    typed_only = tmp_path / "typed.pdf"
    typed_only.write_bytes(build_pdf([typed]))
    r = run_cli("check", "--offline", str(typed_only))
    assert "scanned?" not in r.out
