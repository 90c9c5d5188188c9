"""Every authority a filing cites (issue 41 items 2-5): constitutions, state codes by name and with
"Section", whole chapters, session laws, named acts' sections, agency decisions, Massachusetts
regulations. Before, each of these was silently skipped, or (``209 CMR 18.14(3)``, ``361 NLRB No.
137``) reported as a case.

The excerpts are typed from real documents nobody here wrote: Washington Supreme Court and Court of
Appeals opinions (CaseStrainer's test PDFs, github.com/justinseger015-ctrl/CaseStrainer: 858581.pdf,
1029764.pdf, 1028814.pdf), a Fifth Circuit opinion and a First Circuit opinion (freelawproject/doctor's
RECAP test files), Park v. Kim's appendix (2d Cir. 2024), pro se Texas trial-court filings (Tarrant
County; github.com/chuckdustin12/LEGAL_DESTROYER: citations only), NLRB decisions
(github.com/itstriz/nlrb-pdfliberation), Massachusetts legal-aid templates (GBLS/docassemble-
MAEvictionDefense, SuffolkLITLab/docassemble-MAEvictionMoratorium, SuffolkLITLab/docassemble-
MADebtCollectionLetter), and the forms issue 41 quotes from its own round of real filings.
"""

from __future__ import annotations

import pytest

from citecheck.extract import CiteForm, extract_citations


def _read(text: str) -> list[tuple[str, str, str | None]]:
    """(text as written, the authority in normal form, jurisdiction) of each statute-like citation."""
    ex = extract_citations(text)
    out = []
    for c in ex.citations:
        if c.form is CiteForm.STATUTE:
            st = ex.statute_of(c)
            out.append((" ".join(c.text.split()), str(st) if st else "?", st.jurisdiction if st else None))
    return out


@pytest.mark.parametrize(
    ("text", "want"),
    [
        (  # Washington Supreme Court, 1029764 (Zink)
            "in accordance with article I, section 10 of the Washington Constitution.",
            [
                (
                    "article I, section 10 of the Washington Constitution",
                    "Wash. Const. art. I, § 10",
                    "Washington",
                )
            ],
        ),
        (  # the same opinion, Washington's official style for its own constitution
            "“Justice in all cases shall be administered openly.” CONST. art. I, § 10.",
            [("CONST. art. I, § 10", "Const. art. I, § 10", None)],
        ),
        (  # Washington Court of Appeals, 858581
            "guaranteed under the Fifth Amendment of the United States Constitution and article 1, section 9 of "
            "the Washington State Constitution.",
            [
                (
                    "Fifth Amendment of the United States Constitution",
                    "U.S. Const. amend. V",
                    "United States",
                ),
                (
                    "article 1, section 9 of the Washington State Constitution",
                    "Wash. Const. art. 1, § 9",
                    "Washington",
                ),
            ],
        ),
        ("U.S. CONST. amend. II.", [("U.S. CONST. amend. II", "U.S. Const. amend. II", "United States")]),
        (  # a Tarrant County motion to recuse the regional presiding judge (round 2): the constitution named
            # before the provision, and Texas's hyphenated section (read as § 1 of no constitution before)
            "under Rule 18a(e)(2). 24. The Texas Constitution Article V, Section 1-a provides that judges may be",
            [("Texas Constitution Article V, Section 1-a", "Tex. Const. art. V, § 1-a", "Texas")],
        ),
        (  # a Texas pro se objection
            "guaranteed by Article I, Section 19 of the Texas Constitution (due course of law) and the Fourteenth "
            "Amendment of the U.S. Constitution (due process).",
            [
                ("Article I, Section 19 of the Texas Constitution", "Tex. Const. art. I, § 19", "Texas"),
                ("Fourteenth Amendment of the U.S. Constitution", "U.S. Const. amend. XIV", "United States"),
            ],
        ),
        (  # a Massachusetts summary process answer (GBLS)
            "Request for a Jury Trial Part I, Article XV of the Mass. Constitution; USPR 8",
            [
                (
                    "Part I, Article XV of the Mass. Constitution",
                    "Mass. Const. pt. I, art. XV",
                    "Massachusetts",
                )
            ],
        ),
        (  # issue 41's forms
            "U.S. Const. art. I, § 9, cl. 3; Wash. Const. art. I, § 7; Tex. Const. art. I, § 13.",
            [
                ("U.S. Const. art. I, § 9, cl. 3", "U.S. Const. art. I, § 9, cl. 3", "United States"),
                ("Wash. Const. art. I, § 7", "Wash. Const. art. I, § 7", "Washington"),
                ("Tex. Const. art. I, § 13", "Tex. Const. art. I, § 13", "Texas"),
            ],
        ),
        ("See Art. III, § 3, cl. 1.", [("Art. III, § 3, cl. 1", "Const. art. III, § 3, cl. 1", None)]),
        (
            "under article I, section 22 of the Washington State Constitution.",
            [
                (
                    "article I, section 22 of the Washington State Constitution",
                    "Wash. Const. art. I, § 22",
                    "Washington",
                )
            ],
        ),
    ],
)
def test_constitutions_are_citations(text: str, want: list) -> None:
    assert _read(text) == want


def test_a_prose_mention_of_an_amendment_is_no_citation() -> None:
    assert _read("The First Amendment protects speech; the Second Amendment was not argued.") == []


@pytest.mark.parametrize(
    ("text", "want"),
    [
        (  # Fifth Circuit, St. Pierre v. Dearborn (doctor's RECAP test file)
            "under Texas Insurance Code § 4001.003(1), making Dearborn liable",
            [("Texas Insurance Code § 4001.003(1)", "Tex. Ins. Code Ann. § 4001.003(1)", "Texas")],
        ),
        (
            "engaged in the administration of an employee benefits program.” TEX. INS. CODE\n§ 4001.003(1)(B).",
            [("TEX. INS. CODE § 4001.003(1)(B)", "Tex. Ins. Code Ann. § 4001.003(1)(B)", "Texas")],
        ),
        (  # Texas pro se filings (citations only)
            "starkly contravenes the mandates set forth in Chapter 10, Section 10.001 of the Civil Practice and "
            "Remedies Code.",
            [
                (
                    "Chapter 10, Section 10.001 of the Civil Practice and Remedies Code",
                    "Tex. Civ. Prac. & Rem. Code Ann. § 10.001",
                    "Texas",
                )
            ],
        ),
        (
            "¹ TEXAS FAMILY CODE, TITLE 4, SUBTITLE B, CHAPTER 83, Sec. 83.001",
            [
                (
                    "TEXAS FAMILY CODE, TITLE 4, SUBTITLE B, CHAPTER 83, Sec. 83.001",
                    "Tex. Fam. Code Ann. § 83.001",
                    "Texas",
                )
            ],
        ),
        (
            "4.1 The Texas Family Code Sec. 152.205 and Sec. 105.003 enshrine the necessity for equitable process.",
            [
                ("Texas Family Code Sec. 152.205", "Tex. Fam. Code Ann. § 152.205", "Texas"),
                ("Sec. 105.003", "Tex. Fam. Code Ann. § 105.003", "Texas"),  # a bare section keeps its code
            ],
        ),
        (
            "1. Sec. 37.01 of the Texas Penal Code defines the following terms:",
            [("Sec. 37.01 of the Texas Penal Code", "Tex. Penal Code Ann. § 37.01", "Texas")],
        ),
        (
            "3. Texas Government Code §§ 74.101–74.106 (Court Administration Act) sets forth",
            [("Texas Government Code §§ 74.101–74.106", "Tex. Gov't Code Ann. §§ 74.101–74.106", "Texas")],
        ),
        (
            "Section 65.011 of the Texas Civil Practice and Remedies Code provides general grounds for "
            "injunctions. Notably, §65.011(5) permits a writ of injunction",
            [
                (
                    "Section 65.011 of the Texas Civil Practice and Remedies Code",
                    "Tex. Civ. Prac. & Rem. Code Ann. § 65.011",
                    "Texas",
                ),
                ("§65.011(5)", "Tex. Civ. Prac. & Rem. Code Ann. § 65.011(5)", "Texas"),
            ],
        ),
        (  # issue 41's forms
            "Texas Family Code § 153.002; Tex. Fam. Code Section 153.004(a); § 155.001(d).",
            [
                ("Texas Family Code § 153.002", "Tex. Fam. Code Ann. § 153.002", "Texas"),
                ("Tex. Fam. Code Section 153.004(a)", "Tex. Fam. Code Ann. § 153.004(a)", "Texas"),
                ("§ 155.001(d)", "Tex. Fam. Code Ann. § 155.001(d)", "Texas"),
            ],
        ),
        (  # Park v. Kim, 91 F.4th 610 (2d Cir. 2024), the New York law the brief relied on
            "New York Insurance Law Section 2601 and Section 14 of the New York Workers' Compensation Law",
            [
                ("New York Insurance Law Section 2601", "N.Y. Ins. Law § 2601", "New York"),
                (
                    "Section 14 of the New York Workers' Compensation Law",
                    "N.Y. Workers' Comp. Law § 14",
                    "New York",
                ),
            ],
        ),
        (  # Washington Court of Appeals, 858581; Supreme Court, 1029764 and 1028814
            "orders under chapter 7.105 RCW and chapter 26.09 RCW are not listed",
            [
                ("chapter 7.105 RCW", "Wash. Rev. Code ch. 7.105", "Washington"),
                ("chapter 26.09 RCW", "Wash. Rev. Code ch. 26.09", "Washington"),
            ],
        ),
        (
            "cross petition for review under the Public Records Act, ch. 42.56 RCW.",
            [("ch. 42.56 RCW", "Wash. Rev. Code ch. 42.56", "Washington")],
        ),
        (
            "which later became the Industrial Insurance Act (IIA), Title 51 RCW.",
            [("Title 51 RCW", "Wash. Rev. Code tit. 51", "Washington")],
        ),
    ],
)
def test_state_codes_by_name_section_and_chapter(text: str, want: list) -> None:
    assert _read(text) == want


@pytest.mark.parametrize(
    ("text", "want"),
    [
        (  # SuffolkLITLab's motion to dismiss a non-essential eviction (Massachusetts)
            "improperly filed in violation of the Moratorium on Eviction and Foreclosures Under the Covid-19 "
            "Emergency, Chapter 65 of the Acts of 2020 §3(b).",
            [("Chapter 65 of the Acts of 2020 §3(b)", "2020 Acts ch. 65, § 3(b)", None)],
        ),
        (
            "Effective July 1, 2021 (Laws of 2021, ch. 211, § 9)",
            [("Laws of 2021, ch. 211, § 9", "2021 Sess. Laws ch. 211, § 9", None)],
        ),
        ("St. 2020, c. 65, § 3.", [("St. 2020, c. 65, § 3", "2020 Mass. Acts ch. 65, § 3", "Massachusetts")]),
        (  # GBLS's summary process discovery form (round 2): the section before the session law
            "(EOHED) as required under Section 1(a) of St. 2020, c. 257, as amended by St. 2021, c. 20.",
            [
                ("Section 1(a) of St. 2020, c. 257", "2020 Mass. Acts ch. 257, § 1(a)", "Massachusetts"),
                ("St. 2021, c. 20", "2021 Mass. Acts ch. 20", "Massachusetts"),
            ],
        ),
        (  # Washington Supreme Court, No. 103394-0 (Branson), as its PDF gives the small capitals (round 2)
            "additional remedies are available for violations of the statute. See LAWS OF 2025, ch. 383, §§ 4-6. "
            "The amendments do not",
            [("LAWS OF 2025, ch. 383, §§ 4-6", "2025 Sess. Laws ch. 383, § 4-6", None)],
        ),
        (  # Washington Supreme Court, No. 102910-1 (State v. Lewis)
            "the determination of an offender score.\u201d LAWS OF 2002, ch. 107, § 2(13)(c). When we examined",
            [("LAWS OF 2002, ch. 107, § 2(13)(c)", "2002 Sess. Laws ch. 107, § 2(13)(c)", None)],
        ),
        (  # a W.D. Okla. pro se complaint quoting 18 U.S.C. § 1961(1) (round 2): an act no table places is
            # still an act's section, never a bare section of no code
            "chemical (as defined in section 102 of the Controlled Substances Act), which is chargeable",
            [("section 102 of the Controlled Substances Act", "Controlled Substances Act § 102", None)],
        ),
        (  # GBLS's summary process answer
            "Americans With Disabilities Act; and/or Section 504 of the Rehabilitation Act My landlord has",
            [
                (
                    "Section 504 of the Rehabilitation Act",
                    "Rehabilitation Act of 1973 § 504 (29 U.S.C. § 794)",
                    "United States",
                )
            ],
        ),
        (
            "section 1 of the Sherman Act and section 408 of the Federal Food, Drug, and Cosmetic Act",
            [
                ("section 1 of the Sherman Act", "Sherman Act § 1 (15 U.S.C. § 1)", "United States"),
                (
                    "section 408 of the Federal Food, Drug, and Cosmetic Act",
                    "Federal Food, Drug, and Cosmetic Act § 408 (21 U.S.C. § 346a)",
                    "United States",
                ),
            ],
        ),
        (  # an NLRB decision (sample8): the act is not named in the paragraph, so not placed
            "Employees have the right under Section 7 of the Act to discuss the Union.",
            [("Section 7 of the Act", "the Act § 7", None)],
        ),
        (  # SuffolkLITLab's debt collection letter
            "in accordance with my rights under the Federal Fair Debt Collection Practices Act, 15 USCA Sec. "
            "1692c(c) and Massachusetts regulation 209 CMR 18.14(3).",
            [
                ("15 USCA Sec. 1692c(c)", "15 U.S.C. § 1692c(c)", "United States"),
                ("209 CMR 18.14(3)", "209 Mass. Code Regs. § 18.14(3)", "Massachusetts"),
            ],
        ),
    ],
)
def test_session_laws_acts_and_regulations(text: str, want: list) -> None:
    assert _read(text) == want


def test_a_named_acts_section_is_checked_as_its_us_code_section() -> None:
    ex = extract_citations(
        "The Board found a violation of section 8(a)(1) of the National Labor Relations Act."
    )
    (c,) = ex.citations
    st = ex.statute_of(c)
    assert st is not None and st.key is not None
    assert (st.code, st.title, st.section, st.subsections) == ("usc", "29", "158", ("(a)", "(1)"))
    assert (st.act_name, st.act_section) == ("National Labor Relations Act", "8(a)(1)")


@pytest.mark.parametrize(
    ("text", "agency"),
    [
        ("Latino Express, Inc., 361 NLRB No. 137 (2014)", "National Labor Relations Board"),  # NLRB sample5
        ("reported at 358 NLRB No. 94, slip op. at 2–3.", "National Labor Relations Board"),
        (
            "Aneco, Inc., 330 NLRB 969 (2000), is instructive",
            "National Labor Relations Board",
        ),  # NLRB sample4
        ("In re Rules, 7 F.C.C.R. 8752 (1992)", "Federal Communications Commission"),  # issue 41's forms
        ("Order, 30 FCC Rcd. 7961 (2015)", "Federal Communications Commission"),
        (
            "Matter of Y-L-, 23 I. & N. Dec. 270 (A.G. 2002)",
            "Board of Immigration Appeals / Attorney General (I. & N. Dec.)",
        ),
    ],
)
def test_agency_decisions_are_reported_as_such(text: str, agency: str) -> None:
    cites = [c for c in extract_citations(text).citations if c.volume]
    assert len(cites) == 1 and cites[0].agency == agency


def test_a_massachusetts_regulation_is_no_court_martial_report() -> None:
    ex = extract_citations("Massachusetts regulation 209 CMR 18.14(3).")
    assert [c.form for c in ex.citations] == [CiteForm.STATUTE]
    assert ex.citations[0].statute is not None and ex.citations[0].statute.regulation
    # a real Court-Martial Reports citation stays a case
    assert [
        c.reporter for c in extract_citations("United States v. Doe, 12 C.M.R. 125 (A.B.R. 1953).").citations
    ] == ["C.M.R."]


def test_a_texas_captions_column_of_section_signs_is_no_citation() -> None:
    """A Tarrant County filing's caption (LEGAL_DESTROYER, 10.07.25 joint motion; round 2): the ``§`` signs
    divide the caption's columns, and ``§ 322ND`` was read as a section of no code."""
    text = (
        "IN THE MATTER OF § IN THE DISTRICT COURT\nTHE MARRIAGE OF §\n§\nMORGAN MYERS § 322ND JUDICIAL "
        "DISTRICT\nAND §\nCHARLES MYERS § TARRANT COUNTY, TEXAS\n\nUnder Tex. Fam. Code § 6.502 the court"
    )
    assert _read(text) == [("Tex. Fam. Code § 6.502", "Tex. Fam. Code Ann. § 6.502", "Texas")]


def test_a_bare_section_listed_after_a_chapters_section_keeps_the_chapter() -> None:
    """GBLS's summary process answer (round 2): ``§12`` is c. 186's, as ``§11`` before it; a bare section of
    another length after it (``§ 1983``) is not."""
    text = (
        "the claim for rent and possession must be dismissed. G.L. c. 186, §11 (tenant under lease) and §12 "
        "(tenant at will)."
    )
    assert _read(text) == [
        ("G.L. c. 186, §11", "186 Mass. Gen. Laws § 11", "Massachusetts"),
        ("§12", "186 Mass. Gen. Laws § 12", "Massachusetts"),
    ]
    assert _read("G.L. c. 186, § 14; see § 1983 too.")[1][1] == "?"
