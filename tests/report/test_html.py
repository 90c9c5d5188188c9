"""The HTML report: one self-contained, escaped file with a table of authorities; and how it renders."""

from __future__ import annotations

import lxml.html

from citecheck.report.html import render_html


def _toa_rows(doc) -> list[list[str]]:
    rows = doc.xpath("//table[contains(@class,'toa')]/tbody/tr")
    return [[td.text_content().strip() for td in row.xpath("./td")] for row in rows]


def test_html_is_self_contained_and_escapes_document_text(sample_batch):
    out = render_html(sample_batch)
    assert "<script" not in out and "<link" not in out and "@import" not in out
    assert "<b>&</b>" not in out and "&lt;b&gt;&amp;&lt;/b&gt;" in out  # context shown, escaped
    doc = lxml.html.fromstring(out)
    assert doc.xpath("//h2")[0].text_content() == "Summary"


def test_html_table_of_authorities_has_each_case_once_with_places_and_status(sample_batch):
    doc = lxml.html.fromstring(render_html(sample_batch))
    rows = _toa_rows(doc)
    assert [r[0] for r in rows] == ["Berry v. Keith", "Savage v. Parks", "Whitfield v. Kessler"]
    berry = rows[0]
    assert (
        berry[1:3] == ["100 A.2d 831", "problem"] and berry[4] == "line 2 (×2)"
    )  # the line, not line:column
    assert berry[6] == "Pin cite outside the pages of the case"  # one message per cell
    # a place with a finding links to that finding's evidence
    link = doc.xpath("//table[contains(@class,'toa')]//a[text()='line 2 (×2)']")[0]
    target = doc.get_element_by_id(link.get("href")[1:])
    assert "pincite-out-of-range" in target.text_content() and "Berry v. Keith" in target.text_content()
    assert rows[1][5] == "Savage v. Parks (1953)"


def test_html_findings_show_evidence_and_links(sample_batch):
    doc = lxml.html.fromstring(render_html(sample_batch))
    findings = doc.xpath("//div[contains(@class,'finding')]")
    assert len(findings) == 2
    text = findings[0].text_content()
    assert "Page831–833" in text.replace(" ", "") and "Suggested fix" in text
    # what the finding means travels with the report; no link to a URL the package does not declare
    assert "What this means: The pin cite is outside the pages the case occupies." in text
    assert not any("github.com" in h for h in findings[0].xpath(".//a/@href"))
    assert findings[0].xpath(".//mark")[0].text_content() == "836"


def test_html_renders_in_headless_chromium(sample_batch, tmp_path, headless_chromium):
    page = tmp_path / "report.html"
    page.write_text(render_html(sample_batch), encoding="utf-8")
    png, dom = headless_chromium(page, "1200,1600")
    assert png[:8] == b"\x89PNG\r\n\x1a\n" and len(png) > 5000
    rows = _toa_rows(lxml.html.fromstring(dom))
    assert [r[0] for r in rows] == ["Berry v. Keith", "Savage v. Parks", "Whitfield v. Kessler"]


def test_html_table_of_authorities_is_grouped_by_weight_in_the_forum(sample_batch):
    from dataclasses import replace

    from citecheck.jurisdiction import Forum, Question, court_node, weigh

    dc = court_node("dc")
    assert dc is not None
    forum = Forum(court=dc, question=Question.STATE, origin="caption")
    file = sample_batch.files[0]
    weights = {0: weigh("dc", forum), 1: weigh("md", forum), 2: weigh("md", forum), 3: None}
    statuses = tuple(replace(st, weight=weights[st.index]) for st in file.statuses)
    batch = replace(sample_batch, files=(replace(file, statuses=statuses, forum=forum),))
    doc = lxml.html.fromstring(render_html(batch))
    assert (
        "Court: District of Columbia Court of Appeals (from the caption; state question)."
        in doc.text_content()
    )
    headings = [h.text_content() for h in doc.xpath("//h4[not(ancestor::div[contains(@class, 'finding')])]")]
    # Whitfield cannot exist (impossible-citation): no weight at all, not "not determined" (issue 25)
    assert headings == [
        "Binding authority (1)",
        "Persuasive authority (1)",
        "No weight: no case at this citation (1)",
    ]
    rows = _toa_rows(doc)
    assert [r[0] for r in rows] == ["Savage v. Parks", "Berry v. Keith", "Whitfield v. Kessler"]
    assert rows[1][3].startswith("persuasive") and "a court of Maryland" in rows[1][3]
