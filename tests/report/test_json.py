"""The versioned JSON report: spans are code points into the checked text."""

from __future__ import annotations

import json

from citecheck.report.json import SCHEMA_VERSION, render_json


def test_json_header_and_summary(sample_batch):
    doc = json.loads(render_json(sample_batch))
    assert (doc["schema"], doc["version"], doc["offset_unit"]) == (
        "citecheck-report",
        SCHEMA_VERSION,
        "codepoint",
    )
    assert doc["summary"]["findings"] == {"error": 2, "warning": 0, "info": 0}
    assert doc["summary"]["status"]["verified"] == 2
    assert doc["errors"] == [{"path": "bad.docx", "message": "malformed .docx"}]


def test_json_spans_index_the_original_text_in_code_points(sample_batch):
    text = sample_batch.files[0].text
    doc = json.loads(render_json(sample_batch))
    (f,) = doc["files"]
    for c in f["citations"]:
        assert text[c["span"]["start"] : c["span"]["end"]] == c["text"]
    whit = f["citations"][3]
    assert whit["text"] == "512 A.4th 77" and whit["span"]["start"] == text.index("512 A.4th 77")


def test_json_findings_carry_kind_severity_evidence_and_fixes(sample_batch):
    doc = json.loads(render_json(sample_batch))
    pin = doc["files"][0]["findings"][0]
    assert pin["kind"] == "pincite-out-of-range" and pin["severity"] == "error"
    assert pin["evidence"]["record_id"] == "cap:2" and pin["evidence"]["page"] == "831–833"
    assert pin["fixes"][0]["edits"][0]["new_text"] == "833"
    savage = doc["files"][0]["citations"][0]
    assert savage["resolved_case"]["name"] == "Savage v. Parks" and savage["status"] == "verified"
    assert {a["name"] for a in doc["files"][0]["authorities"]} == {
        "Savage v. Parks",
        "Berry v. Keith",
        "Whitfield v. Kessler",
    }


def test_streamed_report_is_byte_for_byte_json_dumps_of_the_dict(sample_batch):
    from dataclasses import replace

    from citecheck.report.json import report_dict

    empty = replace(sample_batch, files=(replace(sample_batch.files[0], citations=(), findings=()),))
    for batch in (sample_batch, empty, replace(sample_batch, files=())):
        for indent in (2, None, 4):
            assert render_json(batch, indent=indent) == (
                json.dumps(report_dict(batch), indent=indent, ensure_ascii=False) + "\n"
            )


def test_the_fast_encoder_writes_json_dumps_bytes_or_hands_over() -> None:
    """orjson writes the indented report where its bytes are json's; a lone surrogate or an int past 64
    bits (which orjson refuses) is still written, by json."""
    from citecheck.report.json import _dumps

    values = [
        {
            "text": 'x\x00\x1f\x7f\u2028 "q" \\ \b\f\n\r\t é 中 😀',
            "empty": [],
            "none": {},
            "n": [0, -3, 2**63 - 1],
            "flags": [True, False, None],
            "nested": {"a": [{"b": []}]},
        },
        [],
        {},
        "s",
        7,
        {"surrogate": "return of his \ud800 money"},
        {"big": 2**70},
    ]
    for value in values:
        assert _dumps(value, 2) == json.dumps(value, indent=2, ensure_ascii=False)
        assert _dumps(value, None) == json.dumps(value, ensure_ascii=False)


def test_a_proposed_authority_carries_why_confidence_and_the_case_and_the_docs_say_so(sample_batch):
    import re
    from dataclasses import replace

    from citecheck.findings import Confidence, Evidence, Fix, TextEdit
    from citecheck_testing import REPO_ROOT

    file = sample_batch.files[0]
    f = file.findings[0]
    proposal = Fix(
        title="Cite Berry v. Keith, 100 A.2d 831, 832 (1953)",
        edits=(TextEdit(span=f.span, new_text="832"),),
        why="its name matches the draft's",
        confidence=Confidence.MEDIUM,
        preferred=False,
        evidence=Evidence(record_id="cap:2", case_name="Berry v. Keith", citation="100 A.2d 831"),
    )
    batch = replace(
        sample_batch, files=(replace(file, findings=(replace(f, fixes=(proposal,)), *file.findings[1:])),)
    )
    [fix] = json.loads(render_json(batch))["files"][0]["findings"][0]["fixes"]
    assert fix["why"] == "its name matches the draft's" and fix["confidence"] == "medium"
    assert fix["preferred"] is False and fix["case"] == {
        "record_id": "cap:2",
        "case_name": "Berry v. Keith",
        "citation": "100 A.2d 831",
    }
    plain = json.loads(render_json(sample_batch))["files"][0]["findings"][0]["fixes"][0]
    assert plain["preferred"] is True and "why" not in plain and "case" not in plain
    docs = (REPO_ROOT / "docs" / "report-json.md").read_text(encoding="utf-8")
    table = docs.split("## Fix\n", 1)[1].split("\n## ", 1)[0]
    documented = set(re.findall(r"^\| `([a-z_]+)` \|", table, re.M))
    assert set(fix) <= documented, set(fix) - documented
