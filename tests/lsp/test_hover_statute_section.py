"""The hover of a statute citation the statute index matched shows the section's heading and status."""

from __future__ import annotations

from citecheck.extract.models import Statute, StatuteForm
from citecheck.findings import Kind, make_finding
from citecheck.lsp.features.hover import render_hover
from citecheck.results import CitationResult, Status
from citecheck.sources.statutes.records import SectionRecord, SectionStatus
from citecheck.spans import Span

S1983 = SectionRecord(
    code="usc",
    title="42",
    section="1983",
    heading="Civil action for deprivation of rights",
    edition="119-36",
    url="https://uscode.house.gov/view.xhtml?req=granuleid:USC-prelim-title42-section1983",
)
STATUTE = Statute(form=StatuteForm.FULL, code="usc", title="42", section="1983")


def test_a_verified_section_shows_its_heading_and_edition() -> None:
    result = CitationResult(citation_index=0, status=Status.VERIFIED, basis=Status.VERIFIED, statute=S1983)
    text = render_hover("42 U.S.C. § 1983", result, [], None, statute=STATUTE, written=STATUTE)
    assert (
        "**42 U.S.C. § 1983** — Civil action for deprivation of rights (U.S. Code, release point 119-36)"
        in text
    )
    assert "[open](https://uscode.house.gov/" in text


def test_a_transferred_section_says_so_and_where_it_went() -> None:
    moved = SectionRecord(
        code="usc", title="16", section="18", heading="Transferred", status=SectionStatus.TRANSFERRED,
        moved_to="15 U.S.C. § 1544", edition="119-102not101",
    )  # fmt: skip
    finding = make_finding(
        Kind.STATUTE_REPEALED, Span(0, 14), "16 U.S.C. § 18 was transferred", citation_index=0
    )
    result = CitationResult(citation_index=0, status=Status.PROBLEM, basis=Status.VERIFIED, statute=moved)
    text = render_hover("16 U.S.C. § 18", result, [finding], None)
    assert "— **transferred** (now 15 U.S.C. § 1544)" in text
    assert "no longer in force as cited" in text.splitlines()[0]
