"""A pin before the case's first page (issue 36): found without any source, on the real texts that showed it;
and the real shapes that only look like one (a parallel citation's volume, a line number, a slip opinion's
page, an ``Id.`` that means something else) stay silent."""

from __future__ import annotations

from citecheck.config import Settings
from citecheck.extract import extract_citations
from citecheck.findings import Kind, Severity
from citecheck.judge import local_findings

#: Fletcher v. Experian Info. Sols., Inc., No. 25-20086 (5th Cir. Feb. 18, 2026) (order imposing sanctions), part I:
#: the court cites Mata at "449–51" and then "Id. at 151" — it meant 451.
FLETCHER = (
    "In that case, the plaintiff's AI-generated brief cited seven nonexistent cases. Mata v. Avianca, Inc., "
    "678 F. Supp. 3d 443, 449–51 (S.D.N.Y. 2023). For example, the brief cited a case called Varghese v. "
    "China Southern Airlines Co., which did not exist, and the federal reporter citation led to a different "
    "case altogether. Id. at 151. The brief listed our own distinguished colleague, Judge Patrick "
    "Higginbotham, as a member of the Varghese panel, even though that case was entirely fictional. "
    "Id. at 453 & n.7.\n"
)


def _pins(text: str) -> list:
    return [
        f for f in local_findings(extract_citations(text), Settings()) if f.kind is Kind.PINCITE_OUT_OF_RANGE
    ]


def test_id_at_151_after_449_51_is_a_warning_with_the_page_meant() -> None:
    [f] = _pins(FLETCHER)
    assert f.severity is Severity.WARNING  # which case an "Id." means is read from the text
    assert FLETCHER[f.span.start : f.span.end] == "151"
    assert "before page 443" in f.message and "Mata v. Avianca, Inc." in f.message
    [fix] = f.fixes
    assert fix.edits[0].new_text == "451" and not fix.preferred
    assert f.evidence.citation == "678 F. Supp. 3d 443" and f.evidence.page == "443"


def test_a_full_citations_own_pin_before_its_first_page_is_an_error() -> None:
    text = "See Mata v. Avianca, Inc., 678 F. Supp. 3d 443, 151 (S.D.N.Y. 2023).\n"
    [f] = _pins(text)
    assert f.severity is Severity.ERROR and "the pin cite or the citation is wrong" in f.message
    # a real First Circuit opinion (chansooligans/Federal-Appellate-Court-Opinions-Text-Analysis, 148517.json):
    # Fountain begins at 768 F.2d 790, so the first page is what is wrong; the finding says either may be
    text = "United States v. Fountain, 768 F.2d 870, 802 (7th Cir. 1985); see also United States v. Ekanem.\n"
    [f] = _pins(text)
    assert f.severity is Severity.ERROR and "802" in f.message


def test_pins_in_range_and_parallel_pages_are_not_findings() -> None:
    assert _pins(FLETCHER.replace("Id. at 151", "Id. at 451")) == []
    # "Id. at 150" after a parallel citation: a page of the U.S. Reports, not before the S. Ct. one
    text = "Roe v. Wade, 93 S. Ct. 705, 410 U.S. 113 (1973). Id. at 150.\n"
    assert _pins(text) == []


def test_what_only_looks_like_a_pin_before_the_first_page_is_silent() -> None:
    texts = [
        # a slip opinion's page (chansooligans 194518.json)
        "See Acme Tile and Terrazzo Co., 306 N.L.R.B. 83, at 2 (1992). In reality, the ALJ found otherwise.\n",
        # a parallel citation broken over the page, its volume read as a pin (194505.json)
        "See Grise v. White, 355 Mass. 698, 247 N.E.2d\n\n                        385, 388 (1969).\n",
        # a PDF's line numbers (2d Cir., 705.json)
        "Anglo-Iberia Underwriting Mgmt. Co. v. Lodderhose, 224 F. Supp. 2d 679,  6   681-84 (S.D.N.Y. 2002).\n",
        # a footnote number glued to the pin (194685.json)
        "See Anthony's Pier Four, Inc. v. Crandall Dry Dock Eng'rs, Inc., 396 Mass. 818 (1986). Later: "
        "Anthony's Pier Four, Inc., 396 Mass. at 825-26,4 or the cause of the harm.\n",
        # the companion case on the page before (194522.json)
        "Lee v. ISKCON, 112 S. Ct. 2709, 2709 (1992) (per curiam); see ISKCON, 112 S. Ct. at 2708 (finding "
        "airport to be nonpublic forum).\n",
        # an "Id." that means the record, just after a case (194632.json shape)
        "See Perini Corp. v. United States, 904 F.2d 79 (1st Cir. 1990). A witness never explained the usage. "
        "Id. at 70.\n",
        # an "Id." after a journal citation the extraction does not look for (Gallacher, Cite Unseen, 70 Alb. L.
        # Rev. 491 (2007), in freelawproject/courtlistener's Literature folder)
        "Ex parte Bollman, 8 U.S. 75 (1807); Wheaton v. Peters, 33 U.S. 591, 668 (1834). See John H. Langbein, "
        "The Criminal Trial Before the Lawyers, 45 U. Chi. L. Rev. 263, 268 n.18 (1978). The Sessions Papers are "
        "a collection of synopsized reports. Id. at 268.\n",
        # a public-domain citation pinned by paragraph (the same report, ¶ 55)
        "Pinpoint citations are indicated by paragraph numbers: Jones v. Smith, 1996 Wis 235, 15 where 15 is the "
        "15th paragraph in the case.\n",
        # a percentage pinpoint (AALL Citation Formats Committee, Task Force Report ¶ 65, the same folder)
        "the citation would be Smith v. Jones, 513 N.W.2d 723, 24.3 (Iowa 1968); or Smith v. Jones, 1996 Wis 353, "
        "24.3.\n",
    ]
    for text in texts:
        assert _pins(text) == [], text


def test_the_source_check_does_not_say_it_twice(make_ctx) -> None:
    """With the case's record, pin_cite's own out-of-range finding leaves a page before the written first
    page to this check (one finding, not two)."""
    from citecheck.checks.pin_cite import PinciteCheck
    from citecheck.sources.models import CaseCite, CaseRecord
    from citecheck_testing import make_citation

    text = "Mata v. Avianca, Inc., 678 F. Supp. 3d 443, 151 (S.D.N.Y. 2023)."
    c = make_citation(text, "678 F. Supp. 3d 443", name="Mata v. Avianca, Inc.", pin="151")
    record = CaseRecord(
        id="x:1",
        source="corpus",
        name="Mata v. Avianca, Inc.",
        citations=(CaseCite(volume="678", reporter="F. Supp. 3d", page="443", last_page="466"),),
    )
    assert list(PinciteCheck().run(make_ctx(text, [c], record=record))) == []
    late = make_citation(
        text.replace("151", "480"), "678 F. Supp. 3d 443", name="Mata v. Avianca, Inc.", pin="480"
    )
    [f] = PinciteCheck().run(make_ctx(text.replace("151", "480"), [late], record=record))
    assert f.kind is Kind.PINCITE_OUT_OF_RANGE and "443–466" in f.message


def test_with_the_cases_record_a_short_forms_pin_is_said_once() -> None:
    """A source's record of Mata (pages 443–466): pin_cite.py says the Id.'s pin is outside the case, with its
    pages; this check's finding on the same citation steps aside (one warning, not two)."""
    from citecheck.judge import SourceEvidence, judge
    from citecheck.sources.models import CaseCite, CaseRecord, CiteKey, LookupResult, LookupStatus

    mata = CaseRecord(
        id="x:1",
        source="index",
        name="Mata v. Avianca, Inc.",
        citations=(CaseCite(volume="678", reporter="F. Supp. 3d", page="443", last_page="466"),),
    )
    key = CiteKey("678", "F. Supp. 3d", "443")
    found = LookupResult(key=key, status=LookupStatus.FOUND, records=(mata,), source="index")
    report = judge(
        extract_citations(FLETCHER), SourceEvidence(source_name="index", lookups={key: found}), Settings()
    )
    pins = [f for f in report.findings if f.kind is Kind.PINCITE_OUT_OF_RANGE]
    assert len(pins) == 1 and pins[0].severity is Severity.WARNING and "443–466" in pins[0].message


def test_the_span_index_answers_what_touching_answers() -> None:
    """The check asks ``touching`` twice per citation; ``_Spans`` answers it by bisection (a 100,000-citation
    brief took hours by scanning). The same citations, in the same order, for every window."""
    from citecheck.checks.pin_before_first_page import _Spans

    text = (
        "See Lyons v. Goodwin, 449 F. Supp. 2d 443, 449–51 (D. Conn. 2006) (holding that a long parenthetical "
        "runs on) ; Roe v. Wade, 410 U.S. 113, 93 S. Ct. 705, 35 L. Ed. 2d 147 (1973). Id. at 151. "
        "Lyons, 449 F. Supp. 2d at 450. Wade, 410 U.S. at 120; see also 42 U.S.C. § 1983.\n\n"
    ) * 5
    ex = extract_citations(text)
    spans = _Spans(ex)
    assert len(ex.citations) > 20
    for start in range(0, len(text) + 10, 7):
        for width in (0, 1, 30, 300, 2_000):
            assert spans.touching(start, start + width) == ex.touching(start, start + width), (start, width)


def test_a_footnote_number_read_as_a_pin_is_at_most_a_warning() -> None:
    """A court's PDF text puts a footnote's number after a citation across a page break ("313 U.S. 487,⏎⏎8 In
    his opinion"): pin_cite.py makes a one- or two-digit pin before a three-digit first page at most a warning
    (bench/evidence.py, 11 of 18 such errors on real opinions), and this check, which speaks for it, says
    the same (a number before a capital is no pin at all); a three-digit pin before the first page is still
    an error."""
    text = (
        "The district court applied Klaxon Co. v. Stentor Electric Manufacturing Co., 313 U.S. 487,\n\n8 In his "
        "opinion the judge said so. Erie R. Co. v. Tompkins, 304 U.S. 64, 8 (1938). See Lyons v. Goodwin, 449 F. "
        "Supp. 2d 443, 151 (D. Conn. 2006). Guaranty Trust Co. v. York, 326 U.S. 99, 12 (1945).\n"
    )
    found = {f.message.split(",")[0].split(" —")[0]: f for f in _pins(text)}
    assert set(found) == {
        "Pin cite 151 comes before page 443",
        "Pin cite 12 comes before page 99",
        "Pin cite 8 comes before page 64",
    }
    assert found["Pin cite 151 comes before page 443"].severity is Severity.ERROR
    assert found["Pin cite 12 comes before page 99"].severity is Severity.ERROR  # a two-digit first page
    assert found["Pin cite 8 comes before page 64"].severity is Severity.ERROR
    text = "Erie R. Co. v. Tompkins, 304 U.S. 164, 18 (1938) (a first page of three digits).\n"
    (footnote,) = _pins(text)
    assert (
        footnote.severity is Severity.WARNING and "A footnote number read as a pin cite?" in footnote.message
    )
