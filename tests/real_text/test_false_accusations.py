"""Real citations, written correctly, that citecheck once accused: each must now raise no error/warning.

Every excerpt is a short quotation of a real public document (the source is in each row); the
citations in them are real and, unless the row says otherwise, correctly written. Checked offline
with no corpus, the right answer is "cannot verify" (info) or nothing at all.
"""

from __future__ import annotations

import asyncio

import pytest

from citecheck.config import Settings
from citecheck.findings import Finding, Kind, Severity
from citecheck.pipeline import Report, check_document


def check_offline(text: str) -> Report:
    return asyncio.run(check_document(text, None, Settings()))


def accusations(text: str) -> list[Finding]:
    """The errors and warnings citecheck raises on ``text`` offline (info is not an accusation)."""
    return [f for f in check_offline(text).findings if f.severity in (Severity.ERROR, Severity.WARNING)]


SCOTUS_2017 = (
    "U.S. Supreme Court slip opinion (2017), CourtListener text via github.com/ielab/ussc-caselaw-collection"
)

# (excerpt, source)
CLEAN: list[tuple[str, str]] = [
    # reporters-db's wrong date ranges (issue 17)
    ("United States v. Microsoft Corp., 980 F. Supp. 537 (D.D.C. 1997).", "issue 17 (real citation)"),
    (
        "See Cohen v. Beneficial Indus. Loan Corp., 744 F. Supp. 1323 (E.D. Pa. 1990).",
        "issue 17 (real citation)",
    ),
    ("See Kohn v. American Metal Climax, Inc., 54 F.R.D. 282 (W.D. Pa. 1971).", "issue 17 (real citation)"),
    ("State v. Williams, 15 Ohio St. 3d 239 (1984).", "issue 17 (real citation)"),
    (
        "Proposed Rules of Evidence for United States Courts and Magistrates, 56 F. R. D. 183, 265 (1972).",
        "Pena-Rodriguez v. Colorado, 580 U.S. ___ (2017), " + SCOTUS_2017,
    ),
    (
        "See, e.g., Crawford v. State, 10 Tenn. 60, 68 (1821); Cochran v. Street, 1 Va. 79, 81 (1792).",
        "Pena-Rodriguez v. Colorado, " + SCOTUS_2017,
    ),
    (
        "Taylor v. Giger, 3 Ky. 586, 597–598 (1808); Bull v. Commonwealth, 55 Va. 613, 627–628 (1857).",
        "Pena-Rodriguez v. Colorado, " + SCOTUS_2017,
    ),
    (
        "Designation of Acting Solicitor of Labor, 31 Op. O. L. C. 73, 77 (2007).",
        "NLRB v. SW General, Inc., 580 U.S. ___ (2017), " + SCOTUS_2017,
    ),
    # foreign and neutral citations (issue 17)
    ("R v. Jordan, 2016 SCC 27.", "issue 17"),
    ("See 2019 ONCA 123; 2020 BCCRT 949; 2025 HRTO 2715; 2004 FCA 155.", "issue 17"),
    (
        "Lee v. Ashers Baking Co. [2018] UKSC 49; Simmons v. Castle [2012] EWCA Civ 1039.",
        "UK Supreme Court / Court of Appeal",
    ),
    ("Mabo v. Queensland (No. 2) [1992] HCA 23.", "High Court of Australia"),
    (
        "Jacob Puliyel v. Union of India (2022) 7 SCC 464.",
        "Supreme Court of India (neutral shape from issue 17)",
    ),
    ("Ngwenya v. Bidvest 2016 ZALAC 28.", "South African Labour Appeal Court (shape from issue 17)"),
    ("R. v. Jordan, [2016] 1 S.C.R. 631.", "Supreme Court of Canada"),
    # real strings that are not case reporters in reporters-db (issue 17)
    (
        "See 2 OED 88 (def. 5); see also 1 OED 576 (2d ed. 1989).",
        "Star Athletica v. Varsity Brands, " + SCOTUS_2017,
    ),
    (
        "California v. Hodari D., 499 U.S. 621, 624 (1991) (quoting 2 Webster 67).",
        "Manuel v. Joliet, " + SCOTUS_2017,
    ),
    (
        "Rex v. Almon, 5 Burr. 2687 (K. B. 1770); Dent v. The Hundred of Hertford, 2 Salk. 645 (K. B. 1696).",
        "Pena-Rodriguez v. Colorado, " + SCOTUS_2017,
    ),
    (
        "Tucker v. Town Council of South Kingstown, 5 Rawle I. 558, 560 (1859).",
        "Pena-Rodriguez v. Colorado, " + SCOTUS_2017,
    ),
    (
        "Ex-King Farouk of Egypt v. Christian Dior, 84 Clunet 717, 24 I. L. R. 228, 229 (CA Paris 1957).",
        "Bolivarian Republic of Venezuela v. Helmerich & Payne, " + SCOTUS_2017,
    ),
    (
        "much as 70% of the total vote. See 5 Record 636, 638, 641. See 2 Record 349.",
        "Cooper v. Harris, " + SCOTUS_2017,
    ),
    (
        "Cantrell v. Knox Cty. Bd. of Educ., 20 IDELR 123 (1993); see also 3 EHLR 553.",
        "issue 17 (looseleaf services)",
    ),
    (
        "Foo v. Bar, 2 Vern. 540 (1706); Baz v. Qux, 3 Wils. 145 (1770).",
        "issue 17 (English nominative reporters)",
    ),
    (
        "Dalton v. Angus, 6 App. Cas. 740 (1881); Doe v. Roe, 3 Grat. 405 (1846).",
        "issue 17 (nominative reporters)",
    ),
    # Lexis printouts: the running head of every page names the reporter and the database number,
    # and slip opinions number documents, not pages (real citations; both once "impossible")
    (
        "208 So. 3d 227, *; 2016 Fla. App. LEXIS 17683, **;",
        "running head of a Lexis printout filed as an exhibit (EFTA01372153, released by the DOJ)",
    ),
    (
        "2014 N.Y. Misc. LEXIS 1404, ***; 2014 NY Slip Op 24083",
        "running head of a Lexis printout filed as an exhibit (EFTA01296884, released by the DOJ)",
    ),
    (
        "See 2019 Tex. App. LEXIS 10452; 2013 NY Slip Op 51234(U).",
        "shape of the above (numbers above 10,000)",
    ),
    # public state opinions (casetext / midpage copies)
    (
        "by the pronouncement of the Supreme Court in Furman v. Georgia, 408 U.S. 238, 92 S. Ct. 2726, 33 L. Ed. 2d "
        "346 (1972).",
        "Singletary v. State, 473 So. 2d 556 (Ala. Crim. App. 1984), "
        "app.midpage.ai/document/singletary-v-state-1093883",
    ),
    (
        "In Jackson v. State, 674 So.2d 1318, 1326–28 (Ala.Cr.App.1993), aff'd in pertinent part, reversed in part, "
        "674 So.2d 1365 (Ala.1994), on return to remand, 674 So.2d 1370 (Ala.Cr.App.1995), the appellant claimed",
        "Woolf v. State, summary on casetext.com/case/jackson-v-state-2169",
    ),
    (
        "Donald Eugene Nix appeals his guilty-plea conviction of the illegal possession of a controlled substance, "
        "See§ 13A–12–212(a)(1), Ala.Code 1975.",
        "Nix v. State, CR-12-0406 (Ala. Crim. App. 2013), print.casetext.com/case/nix-v-state-125",
    ),
]


@pytest.mark.parametrize(("text", "source"), CLEAN, ids=[t[:40] for t, _ in CLEAN])
def test_no_accusation_on_real_citations(text: str, source: str) -> None:
    found = accusations(text)
    assert found == [], f"{source}: {[(f.kind.value, f.message) for f in found]}"


def test_foreign_citations_are_outside_what_citecheck_verifies() -> None:
    report = check_offline("R. v. Jordan, [2016] 1 S.C.R. 631; R v. Jordan, 2016 SCC 27; [2019] UKSC 12.")
    cites = report.extraction.citations
    assert [c.foreign for c in cites] == ["Canadian", "Canadian", "UK"]
    assert all(c.key is None for c in cites)  # never looked up, never "1 S.C. 631" (South Carolina)
    infos = [f for f in report.findings if f.kind is Kind.CANNOT_VERIFY]
    assert len(infos) == 3 and all("outside what citecheck verifies" in f.message for f in infos)
    assert all(f.severity is Severity.INFO for f in report.findings)


def test_us_neutral_and_california_shapes_stay_us_citations() -> None:
    report = check_offline("People v. Brown (1990) 50 Cal.3d 785; State v. Wade, 2018 WI 11, ¶ 3.")
    assert [(c.foreign, c.key) for c in report.extraction.citations] == [
        (None, ("50", "Cal. 3d", "785")),
        (None, ("2018", "WI", "11")),
    ]


# (excerpt, source, expected kind): real wrong citations must still be flagged
FLAGGED: list[tuple[str, str, Kind, Severity]] = [
    (
        "Boone v. Vinson, 446 Cal. Rptr. 4th 183 (2019).",
        "invented series (issue 17)",
        Kind.IMPOSSIBLE_CITATION,
        Severity.ERROR,
    ),
    (
        "Q v. R, 288 Ark. 7th 620 (1999).",
        "invented series (issue 17)",
        Kind.IMPOSSIBLE_CITATION,
        Severity.ERROR,
    ),
    (
        "Doe v. Roe, 15 S.W.3d 100 (Tex. 1986).",
        "year outside the series",
        Kind.YEAR_MISMATCH,
        Severity.WARNING,
    ),
    # the Court's slip opinion printed 2012 for a 2008 case (the U.S. Reports corrected it)
    (
        "See Commonwealth v. Steele, 599 Pa. 341, 377–379, 961 A.2d 786, 807–808 (2012).",
        "Pena-Rodriguez v. Colorado, " + SCOTUS_2017,
        Kind.YEAR_MISMATCH,
        Severity.WARNING,
    ),
]


@pytest.mark.parametrize(("text", "source", "kind", "severity"), FLAGGED, ids=[t[:30] for t, *_ in FLAGGED])
def test_wrong_citations_are_still_flagged(text: str, source: str, kind: Kind, severity: Severity) -> None:
    found = accusations(text)
    assert [(f.kind, f.severity) for f in found] == [(kind, severity)], source


def test_year_mismatch_says_either_the_year_or_the_citation_is_wrong() -> None:
    [f] = accusations("Doe v. Roe, 15 S.W.3d 100 (Tex. 1986).")
    assert "either the year or the citation is wrong" in f.message and "S.W.3d began in 1999" in f.message
    assert f.evidence.note and "West" in f.evidence.note  # the table row's source


def test_docket_table_rows_are_not_foreign_citations() -> None:
    """An MDL order's table of filings ("1662 CMO 11": docket 1662, case management order 11) was reported as
    a non-US citation (issue 36); a number before 1990 is no neutral citation's year, and a US court's own
    papers (CMO, ECF, PTO…) are no foreign court's code."""
    text = (
        "| Dkt. | Filed | Document |\n|---|---|---|\n| 1662 CMO 11 | 06/01/2020 | Case Management Order No. 11 |\n\n"
        "See Dkt. 1662 CMO 11 (Case Management Order No. 11); 2020 CMO 12; ECF No. 1700, 2021 PTO 3.\n"
    )
    report = check_offline(text)
    assert [c.text for c in report.extraction.citations] == []
    assert report.findings == ()
    # the foreign shapes of issue 17 are still found
    assert [c.foreign for c in check_offline("R v. Jordan, 2016 SCC 27.").extraction.citations] == [
        "Canadian"
    ]


def test_a_year_where_the_volume_stands_is_no_impossible_volume() -> None:
    """Peter W. Martin, Neutral Citation (freelawproject/courtlistener's Literature folder): "the sixth opinion
    issued by the United States Supreme Court in 1996 can be cited in medium-neutral terms as 1996 US 6" was an
    impossible-citation error (U.S. has no volume 1996); it is a public-domain citation's shape: info."""
    report = check_offline(
        "Thus the sixth opinion issued by the United States Supreme Court in 1996 can be cited in medium-neutral "
        "terms as 1996 US 6. The data elements of this citation retain their meaning in any physical format.\n"
    )
    [f] = report.findings
    assert f.kind is Kind.CANNOT_VERIFY and "public-domain citation" in f.message
    # a volume past the end of a series written as a reporter is still impossible
    [g] = check_offline("Smith v. Jones, 1204 F.3d 15 (2d Cir. 2001).\n").findings
    assert g.kind is Kind.IMPOSSIBLE_CITATION
