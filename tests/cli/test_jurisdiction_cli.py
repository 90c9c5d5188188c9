"""The matter's court reaches the check from every place it can be given, and the reports show weights."""

from __future__ import annotations

import json
import re
import zipfile

import docx

NINTH = "Smith v. Jones, 500 F.3d 1, 5 (9th Cir. 2007), controls here.\n"
CUSTOM = (
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
    '<Properties xmlns="http://schemas.openxmlformats.org/officeDocument/2006/custom-properties" '
    'xmlns:vt="http://schemas.openxmlformats.org/officeDocument/2006/docPropsVTypes">'
    '<property fmtid="{D5CDD505-2E9C-101B-9397-08002B2CF9AE}" pid="2" name="Court"><vt:lpwstr>S.D.N.Y.</vt:lpwstr>'
    "</property></Properties>"
)


def _json(result) -> dict:
    assert result.rc in (0, 1), result.err
    return json.loads(result.out)["files"][0]


def test_court_from_config_file(run_cli, cli_home, tmp_path) -> None:
    (cli_home / "citecheck.toml").write_text('court = "nysd"\n')
    path = tmp_path / "motion.txt"
    path.write_text(NINTH)
    f = _json(run_cli("check", "--offline", "--format", "json", str(path)))
    assert f["forum"]["court"] == "nysd" and f["forum"]["origin"] == "config"
    assert f["citations"][0]["weight"]["weight"] == "persuasive"
    assert [x["kind"] for x in f["findings"] if x["kind"] == "non-binding-authority"] == [
        "non-binding-authority"
    ]


def test_front_matter_beats_config(run_cli, cli_home, tmp_path) -> None:
    (cli_home / "citecheck.toml").write_text('court = "nysd"\n')
    path = tmp_path / "motion.md"
    path.write_text("---\ncourt: N.D. Cal.\n---\n" + NINTH)
    f = _json(run_cli("check", "--offline", "--format", "json", str(path)))
    assert f["forum"]["court"] == "cand" and f["forum"]["origin"] == "front matter"
    assert f["citations"][0]["weight"]["weight"] == "binding"
    assert not any(x["kind"] == "non-binding-authority" for x in f["findings"])


def test_docx_custom_property(run_cli, tmp_path) -> None:
    plain = tmp_path / "plain.docx"
    document = docx.Document()
    document.add_paragraph(NINTH.strip())
    document.save(plain)
    path = tmp_path / "motion.docx"
    with zipfile.ZipFile(plain) as src, zipfile.ZipFile(path, "w") as dst:
        for item in src.infolist():
            dst.writestr(item, src.read(item.filename))
        dst.writestr("docProps/custom.xml", CUSTOM)
    f = _json(run_cli("check", "--offline", "--format", "json", str(path)))
    assert f["forum"]["court"] == "nysd" and f["forum"]["origin"] == "document property"
    assert any(x["kind"] == "non-binding-authority" for x in f["findings"])


def test_bad_question_setting_is_a_config_error(run_cli, cli_home, tmp_path) -> None:
    (cli_home / "citecheck.toml").write_text('question = "constitutional"\n')
    path = tmp_path / "motion.txt"
    path.write_text(NINTH)
    result = run_cli("check", "--offline", str(path))
    assert result.rc == 2 and "question" in result.err and "Traceback" not in result.err


def test_no_court_anywhere_says_how_to_set_it(run_cli, tmp_path) -> None:
    path = tmp_path / "motion.txt"
    path.write_text(NINTH)
    result = run_cli("check", "--offline", str(path))
    assert "Court: not determined" in result.out and "court" in result.out
    f = _json(run_cli("check", "--offline", "--format", "json", str(path)))
    assert f["forum"] is None and f["citations"][0]["weight"]["weight"] == "unknown"


def test_example_brief_html_shows_every_weight_and_the_minnesota_case(run_cli) -> None:
    result = run_cli("check", "--offline", "--format", "html", "examples/brief.md")
    html = result.out
    assert "Court: District of Columbia Court of Appeals (from the caption" in html
    binding = html.index("Binding authority")
    persuasive = html.index("Persuasive authority")
    cook = html.index("Cook v. Public Storage, Inc.</em>")
    assert binding < html.index("Savage v. Parks</em>") < persuasive < cook  # grouped by weight
    assert re.search(
        r'class="weight persuasive">persuasive</span><br><span class="why">a court of Minnesota', html
    )
    # a note (info) is a row of the notes table (issue 36), with its kind's code for the settings
    assert (
        'Authority that does not bind this court <span class="kind">(non-binding-authority)</span></td>'
        in html
    )
    f = _json(run_cli("check", "--offline", "--format", "json", "examples/brief.md"))
    weights = {c["text"]: (c["weight"] or {}).get("weight") for c in f["citations"]}
    assert weights["100 A.2d 450"] == "binding" and weights["761 N.W.2d 645"] == "persuasive"
    [nb] = [x for x in f["findings"] if x["kind"] == "non-binding-authority"]
    assert nb["severity"] == "info" and "Minnesota" in nb["message"]


def test_example_docx_carries_the_court_as_a_document_property(run_cli) -> None:
    f = _json(run_cli("check", "--offline", "--format", "json", "examples/brief.docx"))
    assert f["forum"]["court"] == "dc" and f["forum"]["origin"] == "document property"
    [nb] = [x for x in f["findings"] if x["kind"] == "non-binding-authority"]
    assert f["citations"][nb["citation_index"]]["cite"] == "761 N.W.2d 645"
