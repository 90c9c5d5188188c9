"""The U.S. Constitution's provisions are known: one that does not exist is an impossible citation with
evidence (issue 41 item 2); a real one, a state's, or an unnamed constitution's is never accused.
Agency decisions are "could not be verified", naming the agency, never a case's findings (item 5)."""

from __future__ import annotations

import asyncio

import pytest

from citecheck.config import Settings
from citecheck.findings import Kind, Severity
from citecheck.pipeline import check_document
from citecheck.report.model import file_result, grouped_authorities


def _check(text: str):
    return asyncio.run(check_document(text, None, Settings(offline=True)))


@pytest.mark.parametrize(
    ("cite", "why"),
    [
        ("U.S. Const. art. XXX", "seven articles"),
        ("U.S. Const. amend. XXXI", "27 amendments"),
        ("U.S. Const. art. I, § 11", "Article I has 10 sections"),
        ("U.S. Const. art. I, § 8, cl. 19", "18 clauses"),
        ("U.S. CONST. amend. XIV, § 6", "Amendment XIV has 5 sections"),
        ("Article IV, Section 5 of the United States Constitution", "Article IV has 4 sections"),
    ],
)
def test_a_provision_the_constitution_does_not_have_is_impossible(cite: str, why: str) -> None:
    report = _check(f"The statute is invalid under {cite}.")
    (f,) = [f for f in report.findings if f.kind is Kind.IMPOSSIBLE_CITATION]
    assert f.severity is Severity.ERROR and why in f.message
    assert f.evidence.source is not None and "National Archives" in f.evidence.source


@pytest.mark.parametrize(
    "cite",
    [
        "U.S. Const. art. I, § 9, cl. 3",  # issue 41's real forms
        "U.S. Const. art. III, § 3, cl. 1",
        "U.S. Const. amend. XIV, § 1",
        "U.S. Const. art. VI, cl. 2",
        "U.S. Const. amend. XIX, § 2",  # unnumbered paragraphs: never judged
        "Wash. Const. art. I, § 7",
        "Tex. Const. art. I, § 13",
        "Wash. Const. art. 11",  # a state's articles are not known here
        "art. I, § 11",  # whose constitution the paragraph does not say
    ],
)
def test_real_and_unknown_provisions_are_never_accused(cite: str) -> None:
    report = _check(f"The statute is invalid under {cite}.")
    assert [f for f in report.findings if f.severity is not Severity.INFO] == []
    (f,) = report.findings
    assert f.kind is Kind.STATUTE_NOT_CHECKED and "constitution" in f.message


def test_an_amendment_written_as_an_article_is_a_warning_with_the_fix() -> None:
    """A First Circuit opinion in the chansooligans collection (CourtListener 194509) writes the
    Fourteenth Amendment as an article, as older opinions number the amendments: never an error."""
    text = 'deprive persons of property without "due process of law."  U.S. Const., art. XIV. The process due'
    report = _check(text)
    (f,) = [f for f in report.findings if f.severity is not Severity.INFO]
    assert (f.kind, f.severity) == (Kind.IMPOSSIBLE_CITATION, Severity.WARNING)
    assert [x.title for x in f.fixes] == ["Cite U.S. Const. amend. XIV"]
    (edit,) = f.fixes[0].edits
    assert text[edit.span.start : edit.span.end] == "U.S. Const., art. XIV"
    assert "U.S. Const. art. VIII" in _check("U.S. Const. art. VIII bars it.").findings[0].message


def test_agency_decisions_cannot_be_verified_and_have_their_own_table() -> None:
    text = (
        "The Board has so held. Latino Express, Inc., 361 NLRB No. 137 (2014); Aneco, Inc., 330 NLRB 969 "
        "(2000); In re Rules, 7 F.C.C.R. 8752 (1992). The statute is invalid under U.S. Const. amend. XIV, § 1, "
        "and Texas Family Code § 153.002."
    )
    report = _check(text)
    agency = [f for f in report.findings if f.kind is Kind.CANNOT_VERIFY]
    assert len(agency) == 3 and all("agency" in f.message for f in agency)
    assert "National Labor Relations Board" in agency[0].message
    assert [f for f in report.findings if f.severity is not Severity.INFO] == []
    groups = {
        g: [a.cite for a in members]
        for g, _, members in grouped_authorities(file_result("x", "text", text, report))
    }
    assert groups["agency"] == [
        "330 NLRB 969",
        "7 F.C.C.R. 8752",
        "361 NLRB No. 137",
    ]  # by name: Aneco, In re, Latino
    assert groups["constitutions"] == ["U.S. Const. amend. XIV, § 1"]
    assert groups["statutes"] == ["Tex. Fam. Code Ann. § 153.002"]
    assert not any(g in groups for g in ("binding", "persuasive", "unknown", "no-case"))
