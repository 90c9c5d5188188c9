"""SARIF 2.1.0: valid against the OASIS schema shipped beside this test, and useful to code scanning."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema

from citecheck.findings import Kind
from citecheck.report.sarif import render_sarif

SCHEMA = json.loads((Path(__file__).parent / "sarif-schema-2.1.0.json").read_text(encoding="utf-8"))


def validate_sarif(doc: dict) -> None:
    jsonschema.Draft4Validator(SCHEMA).validate(doc)


def test_sarif_validates_against_the_2_1_0_schema(sample_batch):
    validate_sarif(json.loads(render_sarif(sample_batch)))


def test_the_schema_check_can_fail(sample_batch):
    doc = json.loads(render_sarif(sample_batch))
    doc["runs"][0]["results"][0]["level"] = "fatal"  # not a SARIF level
    try:
        validate_sarif(doc)
    except jsonschema.ValidationError:
        return
    raise AssertionError("schema accepted an invalid level")


def test_sarif_results_rules_regions_and_fixes(sample_batch):
    run = json.loads(render_sarif(sample_batch))["runs"][0]
    assert run["columnKind"] == "unicodeCodePoints"
    assert [r["id"] for r in run["tool"]["driver"]["rules"]] == [k.value for k in Kind]
    first, second = run["results"]
    assert first["ruleId"] == "pincite-out-of-range" and first["level"] == "error"
    assert run["tool"]["driver"]["rules"][first["ruleIndex"]]["id"] == first["ruleId"]
    loc = first["locations"][0]["physicalLocation"]
    assert loc["artifactLocation"]["uri"] == "briefs/sample%20brief.md"
    text = sample_batch.files[0].text
    region = loc["region"]
    assert text[region["charOffset"] : region["charOffset"] + region["charLength"]] == "836"
    assert (region["startLine"], region["startColumn"]) == (2, 63)
    repl = first["fixes"][0]["artifactChanges"][0]["replacements"][0]
    assert repl["insertedContent"]["text"] == "833"
    assert second["properties"]["citation"] == "512 A.4th 77"
    notes = run["invocations"][0]["toolExecutionNotifications"]
    assert (
        notes[0]["message"]["text"] == "malformed .docx"
        and run["invocations"][0]["executionSuccessful"] is False
    )


def test_sarif_fingerprints_are_stable_and_distinct(sample_batch):
    first = json.loads(render_sarif(sample_batch))["runs"][0]["results"]
    again = json.loads(render_sarif(sample_batch))["runs"][0]["results"]
    prints = [r["partialFingerprints"]["citecheckFinding/v1"] for r in first]
    assert prints == [r["partialFingerprints"]["citecheckFinding/v1"] for r in again]
    assert len(set(prints)) == len(prints)
