"""Statutes in every report format (issue 27 item 4): the summary line, the notes, the JSON fields,
and the table of authorities with statutes and regulations after the cases, as briefs list them."""

from __future__ import annotations

import asyncio
import json
import re

from citecheck.config import Settings
from citecheck.pipeline import check_document
from citecheck.report.html import render_html
from citecheck.report.json import render_json
from citecheck.report.markdown import render_markdown
from citecheck.report.model import BatchResult, authorities, file_result, grouped_authorities
from citecheck.report.sarif import render_sarif
from citecheck.report.text import render_plain
from citecheck_testing import REPO_ROOT

TEXT = (
    "See Roe v. Wade, 410 U.S. 113 (1973); 42 U.S.C. § 1983. Under § 1983, and Id. § 1988(b), fees follow.\n\n"
    "Fla. Stat. § 768.28(9)(a) (2020); 17 C.F.R. § 240.10b-5(b); 28 U.S.C. §§ 1331, 1343; 55 U.S.C. § 100.\n"
)


def _batch() -> BatchResult:
    report = asyncio.run(check_document(TEXT, None, Settings()))
    return BatchResult(files=(file_result("brief.md", "markdown", TEXT, report),), offline=True)


def test_statutes_follow_the_cases_in_the_table_of_authorities() -> None:
    file = _batch().files[0]
    groups = [
        (key, heading, [a.cite for a in members]) for key, heading, members in grouped_authorities(file)
    ]
    assert [g[0] for g in groups] == ["unknown", "statutes", "regulations"]
    assert groups[0][2] == ["410 U.S. 113"]
    # each section once, in number order (title, then section); a list names two sections
    assert groups[1][2] == [
        "28 U.S.C. § 1331",
        "28 U.S.C. § 1343",
        "42 U.S.C. § 1983",
        "42 U.S.C. § 1988",
        "55 U.S.C. § 100",
        "Fla. Stat. § 768.28",
    ]
    assert groups[2][2] == ["17 C.F.R. § 240.10b-5"]
    s1983 = next(a for a in authorities(file) if a.cite == "42 U.S.C. § 1983")
    assert [p.text for p in s1983.places] == ["42 U.S.C. § 1983", "§ 1983"]  # the short form is a place
    assert s1983.name == "U.S. Code"
    assert next(a for a in authorities(file) if a.cite == "55 U.S.C. § 100").status.value == "problem"


def test_the_summary_line_and_the_notes_say_how_many_statutes_were_not_checked() -> None:
    out = render_plain(_batch())
    summary = next(line for line in out.splitlines() if line.startswith("brief.md: ") and "citations" in line)
    assert re.search(
        r"\d+ citations \((?:\d+ of them short forms? such as Id\.; )?7 statutes or regulations\): ", summary
    ), summary
    note = next(
        line for line in out.splitlines() if "statute or regulation citations were not checked" in line
    )
    assert "the U.S. Code (" in note and "Fla. Stat. (Florida) (1)" in note and "not a finding" in note


def test_json_carries_each_statute_and_its_resolution() -> None:
    data = json.loads(render_json(_batch()))
    assert data["summary"]["statutes"] == 7
    cites = {c["text"]: c for c in data["files"][0]["citations"]}
    short = cites["§ 1983"]
    assert short["form"] == "statute" and short["status"] == "not-checked"
    assert short["statute"]["form"] == "short" and short["statute"]["resolved"] == "42 U.S.C. § 1983"
    assert short["statute"]["code"] == "usc" and short["statute"]["title"] == "42"
    assert cites["Id. § 1988(b)"]["statute"]["subsections"] == ["(b)"]
    assert cites["410 U.S. 113"]["statute"] is None
    listed = cites["28 U.S.C. §§ 1331, 1343"]["statute"]
    assert listed["keys"] == ["28 U.S.C. § 1331", "28 U.S.C. § 1343"]
    kinds = [a["statute"] is not None for a in data["files"][0]["authorities"]]
    assert kinds == sorted(kinds)  # the cases first


def test_html_markdown_and_sarif_show_the_statutes() -> None:
    batch = _batch()
    html = render_html(batch)
    assert (
        html.index("Weight not determined")
        < html.index("<h4>Statutes (6)</h4>")
        < html.index("<h4>Regulations (1)</h4>")
    )
    md = render_markdown(batch)
    assert "#### Statutes" in md and "| *U.S. Code* | 42 U.S.C. § 1983 |" in md
    sarif = json.loads(render_sarif(batch))
    rules = {r["id"] for r in sarif["runs"][0]["tool"]["driver"]["rules"]}
    assert "statute-not-checked" in rules
    results = {r["ruleId"] for r in sarif["runs"][0]["results"]}
    assert {"statute-not-checked", "impossible-citation"} <= results


def _documented(section: str) -> set[str]:
    doc = (REPO_ROOT / "docs" / "report-json.md").read_text(encoding="utf-8")
    body = doc.split(f"## {section}\n", 1)[1].split("\n## ", 1)[0]
    names: set[str] = set()
    for cell in re.findall(r"^\| ([^|]+) \|", body, re.M):
        names.update(re.findall(r"`([a-z_]+)`", cell))
    names.update(re.findall(r'"([a-z_]+)"', body.split("\n\n", 1)[0] if body.startswith("`") else ""))
    return names


def test_every_citation_and_statute_field_is_documented_in_report_json_md() -> None:
    data = json.loads(render_json(_batch()))
    citation = data["files"][0]["citations"][1]
    assert set(citation) <= _documented("Citation"), set(citation) - _documented("Citation")
    statute = citation["statute"]
    assert set(statute) <= _documented("Statute"), set(statute) - _documented("Statute")


def test_a_regulations_version_date_is_when_it_was_amended_not_decided() -> None:
    from citecheck.checks.statute_sections import SOURCE
    from citecheck.findings import Evidence, Kind, make_finding
    from citecheck.report.model import evidence_items
    from citecheck.spans import Span

    removed = make_finding(
        Kind.STATUTE_REPEALED,
        Span(0, 20),
        "17 C.F.R. § 240.10b-9 was removed from the C.F.R.",
        evidence=Evidence(source=SOURCE, citation="17 C.F.R. § 240.10b-9", date="2020-06-01"),
    )
    labels = dict(evidence_items(removed))
    assert labels.get("Amended") == "2020-06-01" and "Decided" not in labels
    case = make_finding(
        Kind.YEAR_MISMATCH, Span(0, 5), "…", evidence=Evidence(source="corpus", date="1953-11-20")
    )
    assert dict(evidence_items(case)).get("Decided") == "1953-11-20"
