"""Statute and regulation citations as briefs and opinions write them: federal, state, short forms."""

from __future__ import annotations

import pytest

from citecheck.extract import CiteForm, StatuteForm, StatuteKey, extract_citations
from citecheck.extract.normalise import normalise
from citecheck.extract.statutes import find_statutes

# (text, the citation as written, its key, subsections, further sections, range end, et seq., edition)
FULL_CASES = [
    # federal, with §, titles, subsections, lists, ranges, et seq., editions
    ("See 42 U.S.C. § 1983.", "42 U.S.C. § 1983", ("usc", "42", "1983"), (), (), None, False, None),
    (
        "28 U.S.C. §§ 1331, 1332 (2018).",
        "28 U.S.C. §§ 1331, 1332",
        ("usc", "28", "1331"),
        (),
        ("1332",),
        None,
        False,
        "2018",
    ),
    (
        "17 C.F.R. § 240.10b-5(b).",
        "17 C.F.R. § 240.10b-5(b)",
        ("cfr", "17", "240.10b-5"),
        ("(b)",),
        (),
        None,
        False,
        None,
    ),
    (
        "11 U.S.C. §§ 101\u2013105.",
        "11 U.S.C. §§ 101\u2013105",
        ("usc", "11", "101"),
        (),
        (),
        "105",
        False,
        None,
    ),
    # a range whose first section has a letter: "1981a-1983" is no hyphenated section (a suffix of as many
    # digits as its section, and above it, is none the Code has): read as one, it was a fabricated-statute error
    (
        "42 U.S.C. §§ 1981a\u20131983.",
        "42 U.S.C. §§ 1981a\u20131983",
        ("usc", "42", "1981a"),
        (),
        (),
        "1983",
        False,
        None,
    ),
    (
        "42 U.S.C. §§ 1981a-1982 (2018).",
        "42 U.S.C. §§ 1981a-1982",
        ("usc", "42", "1981a"),
        (),
        (),
        "1982",
        False,
        "2018",
    ),
    # a range by its end's last digits or letters (First Circuit opinions: '18 U.S.C. § 1961-68', RICO)
    ("18 U.S.C. § 1961-68.", "18 U.S.C. § 1961-68", ("usc", "18", "1961"), (), (), "1968", False, None),
    (
        "15 U.S.C. § 1679-1679j.",
        "15 U.S.C. § 1679-1679j",
        ("usc", "15", "1679"),
        (),
        (),
        "1679j",
        False,
        None,
    ),
    ("42 U.S.C. § 2000e-16.", "42 U.S.C. § 2000e-16", ("usc", "42", "2000e-16"), (), (), None, False, None),
    ("2 U.S.C. § 31-1.", "2 U.S.C. § 31-1", ("usc", "2", "31-1"), (), (), None, False, None),
    ("16 U.S.C. § 824a-3.", "16 U.S.C. § 824a-3", ("usc", "16", "824a-3"), (), (), None, False, None),
    (
        "42 U.S.C. § 300ff-111.",
        "42 U.S.C. § 300ff-111",
        ("usc", "42", "300ff-111"),
        (),
        (),
        None,
        False,
        None,
    ),
    ("15 U.S.C. § 78o-10.", "15 U.S.C. § 78o-10", ("usc", "15", "78o-10"), (), (), None, False, None),
    (
        "42 U.S.C. § 2000e et seq. applies.",
        "42 U.S.C. § 2000e et seq.",
        ("usc", "42", "2000e"),
        (),
        (),
        None,
        True,
        None,
    ),
    (
        "42 U.S.C. § 2000e-2(a)(1).",
        "42 U.S.C. § 2000e-2(a)(1)",
        ("usc", "42", "2000e-2"),
        ("(a)", "(1)"),
        (),
        None,
        False,
        None,
    ),
    (
        "11 U.S.C.A. § 544(a) (West 2016).",
        "11 U.S.C.A. § 544(a)",
        ("usc", "11", "544"),
        ("(a)",),
        (),
        None,
        False,
        "West 2016",
    ),
    ("28 U.S.C.S. § 1331.", "28 U.S.C.S. § 1331", ("usc", "28", "1331"), (), (), None, False, None),
    ("42 U.S.C.§1983.", "42 U.S.C.§1983", ("usc", "42", "1983"), (), (), None, False, None),
    ("50 U.S.C. App. § 2401.", "50 U.S.C. App. § 2401", ("usc", "50a", "2401"), (), (), None, False, None),
    # lower-case "app." and an appendix's act number (the Inspector General Act is 5 U.S.C. app. 3)
    ("50 U.S.C. app. § 2410.", "50 U.S.C. app. § 2410", ("usc", "50a", "2410"), (), (), None, False, None),
    # glued, as a First Circuit opinion prints it
    (
        "as 46 U.S.C.app. § 1903, see",
        "46 U.S.C.app. § 1903",
        ("usc", "46a", "1903"),
        (),
        (),
        None,
        False,
        None,
    ),
    (
        "The Act, 5 U.S.C. app. 3 § 4(a), requires audits.",
        "5 U.S.C. app. 3 § 4(a)",
        ("usc", "5a", "4", "3"),  # the act's number is kept: the appendix's acts share section numbers
        ("(a)",),
        (),
        None,
        False,
        None,
    ),
    # federal without §
    (
        "5 U.S.C. 552(a)(4)(B).",
        "5 U.S.C. 552(a)(4)(B)",
        ("usc", "5", "552"),
        ("(a)", "(4)", "(B)"),
        (),
        None,
        False,
        None,
    ),
    ("29 CFR 1910.1200 governs.", "29 CFR 1910.1200", ("cfr", "29", "1910.1200"), (), (), None, False, None),
    (
        "48 U.S.C. Section 2101 etseq.",
        "48 U.S.C. Section 2101 etseq.",
        ("usc", "48", "2101"),
        (),
        (),
        None,
        True,
        None,
    ),
    # a part, never read as section 60 (issue 33: the index called it fabricated)
    ("40 C.F.R. Part 60.", "40 C.F.R. Part 60", ("cfr", "40", "60", None, "part"), (), (), None, False, None),
    # state codes reporters-db knows, and the names courts write
    (
        "Fla. Stat. § 768.28(9)(a) (2020).",
        "Fla. Stat. § 768.28(9)(a)",
        ("Fla. Stat.", None, "768.28"),
        ("(9)", "(a)"),
        (),
        None,
        False,
        "2020",
    ),
    (
        "N.C. Gen. Stat. § 1A-1, Rule 12(b)(6).",
        "N.C. Gen. Stat. § 1A-1",
        ("N.C. Gen. Stat.", None, "1A-1"),
        (),
        (),
        None,
        False,
        None,
    ),
    (
        "KRS 446.070 provides a remedy.",
        "KRS 446.070",
        ("Ky. Rev. Stat. Ann.", None, "446.070"),
        (),
        (),
        None,
        False,
        None,
    ),
    (
        "Ky. Rev. Stat. Ann. § 446.070.",
        "Ky. Rev. Stat. Ann. § 446.070",
        ("Ky. Rev. Stat. Ann.", None, "446.070"),
        (),
        (),
        None,
        False,
        None,
    ),
    (
        "Cal. Civ. Proc. Code § 425.16(b)(1).",
        "Cal. Civ. Proc. Code § 425.16(b)(1)",
        ("Cal. Civ. Proc. Code", None, "425.16"),
        ("(b)", "(1)"),
        (),
        None,
        False,
        None,
    ),
    (
        "(Pen.Code, § 550, subds. (a)(1) & (b)(1).)",
        "Pen.Code, § 550, subds. (a)(1) & (b)(1)",
        ("Cal. Penal Code", None, "550"),
        ("(a)", "(1)"),
        (),
        None,
        False,
        None,
    ),
    (
        "N.Y. Penal Law § 140.35 (McKinney 2014).",
        "N.Y. Penal Law § 140.35",
        ("N.Y. Penal Law", None, "140.35"),
        (),
        (),
        None,
        False,
        "McKinney 2014",
    ),
    (
        "Tex. Civ. Prac. & Rem. Code Ann. § 16.003.",
        "Tex. Civ. Prac. & Rem. Code Ann. § 16.003",
        ("Tex. Civ. Prac. & Rem. Code Ann.", None, "16.003"),
        (),
        (),
        None,
        False,
        None,
    ),
    (
        "General Statutes § 17a-593 (c) provides",
        "General Statutes § 17a-593 (c)",
        ("Conn. Gen. Stat.", None, "17a-593"),
        ("(c)",),
        (),
        None,
        False,
        None,
    ),
    (
        "D.C.Code § 22-2501 (2012 Repl.).",
        "D.C.Code § 22-2501",
        ("D.C. Code", None, "22-2501"),
        (),
        (),
        None,
        False,
        "2012 Repl.",
    ),
    (
        "3 L.P.R.A. §§ 761 - 788.",
        "3 L.P.R.A. §§ 761 - 788",
        ("P.R. Laws Ann.", "3", "761"),
        (),
        (),
        "788",
        False,
        None,
    ),
    (
        "Cal.Code Regs., tit. 16, § 1360.1.",
        "Cal.Code Regs., tit. 16, § 1360.1",
        ("Cal. Code Regs.", "16", "1360.1"),
        (),
        (),
        None,
        False,
        None,
    ),
    (
        "Mass. Gen. Laws ch. 93A, § 2.",
        "Mass. Gen. Laws ch. 93A, § 2",
        ("Mass. Gen. Laws", "93A", "2"),
        (),
        (),
        None,
        False,
        None,
    ),
    (
        "Del.Code Ann. tit. 11, § 828 (West 2014).",
        "Del.Code Ann. tit. 11, § 828",
        ("Del. Code Ann.", "11", "828"),
        (),
        (),
        None,
        False,
        "West 2014",
    ),
    (
        "Va.Code Ann. § 18.2-94 (West 2014).",
        "Va.Code Ann. § 18.2-94",
        ("Va. Code Ann.", None, "18.2-94"),
        (),
        (),
        None,
        False,
        "West 2014",
    ),
    (
        "N.J.S.A. 2C:11-3.",
        "N.J.S.A. 2C:11-3",
        ("N.J. Stat. Ann.", None, "2C:11-3"),
        (),
        (),
        None,
        False,
        None,
    ),
]


@pytest.mark.parametrize(("text", "written", "key", "subs", "also", "last", "et_seq", "edition"), FULL_CASES)
def test_full_statute_citations(text, written, key, subs, also, last, et_seq, edition) -> None:
    ex = extract_citations(text)
    [c] = [c for c in ex.citations if c.form is CiteForm.STATUTE]
    s = c.statute
    assert s is not None and s.form is StatuteForm.FULL
    assert c.text == written and text[c.span.start : c.span.end] == written
    assert s.key == StatuteKey(*key)
    assert (s.subsections, s.also, s.last_section, s.et_seq, s.edition) == (subs, also, last, et_seq, edition)
    if edition:  # the edition parenthetical belongs to the citation
        assert text[c.full_span.start : c.full_span.end].endswith(f"({edition})")


@pytest.mark.parametrize(
    "text",
    [
        "U.S. Const. art. I, § 8, cl. 3.",  # a constitution's section
        "Restatement (Second) of Torts § 402A (1965).",  # a restatement's
        "Revised UCC §§ 9-506(b), (c).",  # a model code's
        "Possinger Decl., Ex. 1, §§ 15-16.",  # a record exhibit's
        "Act No. 3-2013 § 1-101.",  # an act's own numbering
        "Wright & Miller, Federal Practice and Procedure § 1357 (3d ed.).",  # a treatise's
        "See § II.A above.",  # a brief's own heading
        "Call R.C. Smith at 10 a.m.",  # initials, not Ohio's code
        "Review is a key factor. Restatement §28, Comment a.",  # a restatement opening a sentence
    ],
)
def test_sections_of_other_things_are_not_statute_citations(text: str) -> None:
    # a constitution's provision is a citation of its own kind since issue 41, never a code's section
    cites = [c for c in extract_citations(text).citations if c.form is CiteForm.STATUTE]
    assert [c for c in cites if c.statute is None or c.statute.kind != "constitution"] == []
    if text.startswith("U.S. Const."):
        assert [str(c.statute) for c in cites] == ["U.S. Const. art. I, § 8, cl. 3"]


def test_short_forms_resolve_to_the_full_citation_of_their_section() -> None:
    text = (
        "Plaintiff sues under 42 U.S.C. § 1983 and 28 U.S.C. §§ 1331, 1343(a)(3). "
        "Under § 1983, a person may sue; see also § 1343(a)(4). "
        "Id. § 1988(b) allows fees.\n\n"
        "And § 2000e is cited nowhere in full."
    )
    ex = extract_citations(text)
    by_text = {c.text: c for c in ex.citations}
    assert str(ex.statute_of(by_text["§ 1983"])) == "42 U.S.C. § 1983"
    assert str(ex.statute_of(by_text["§ 1343(a)(4)"])) == "28 U.S.C. § 1343(a)(4)"  # a listed section
    id_ = by_text["Id. § 1988(b)"]
    assert id_.statute is not None and id_.statute.form is StatuteForm.ID
    assert str(ex.statute_of(id_)) == "28 U.S.C. § 1988(b)"  # Id. is the authority just cited: title 28
    unresolved = by_text["§ 2000e"]
    assert unresolved.antecedent is None and ex.statute_of(unresolved) is None  # not guessed


def test_id_after_a_statute_short_form_is_that_statute() -> None:
    text = "42 U.S.C. § 1983. Roe v. Wade, 410 U.S. 113 (1973). Under § 1983, yes. Id."
    ex = extract_citations(text)
    assert str(ex.statute_of(ex.citations[-1])) == "42 U.S.C. § 1983"


def test_statute_citations_break_no_case_id_chain_they_are_not_part_of() -> None:
    text = "Roe v. Wade, 410 U.S. 113 (1973) (citing 42 U.S.C. § 1983). Id. at 116."
    ex = extract_citations(text)
    assert ex.citations[-1].antecedent == 0  # the statute sits in Roe's parenthetical


def test_session_laws_and_registers_are_statute_citations_by_volume_and_page() -> None:
    text = "Pub. L. No. 77-352, 55 Stat. 808 (1941); 48 Fed. Reg. 9871 (1983); Pub. L. No. 111-148, § 1101."
    ex = extract_citations(text)
    got = [str(ex.statute_of(c)) for c in ex.citations if c.form is CiteForm.STATUTE]
    assert got == ["Pub. L. No. 77-352", "55 Stat. 808", "48 Fed. Reg. 9871", "Pub. L. No. 111-148, § 1101"]
    assert [c.text for c in ex.citations][:2] == ["Pub. L. No. 77-352", "55 Stat. 808"]


def test_offsets_are_code_points_with_astral_text_and_nbsp() -> None:
    text = "\U0001f600 See 42\u00a0U.S.C.\u00a0§\u00a01983\u2009(2018); § 1983."
    ex = extract_citations(text)
    full, short = [c for c in ex.citations if c.form is CiteForm.STATUTE]
    assert text[full.span.start : full.span.end] == "42\u00a0U.S.C.\u00a0§\u00a01983"
    assert full.statute is not None and full.statute.year == 2018
    assert short.antecedent == full.index


def test_find_statutes_is_pure_on_the_normalised_paragraph() -> None:
    text = "11 U.S.C. §§ 101–105"
    got = find_statutes(normalise(text), text)
    assert [(m.start, m.end, m.statute.last_section) for m in got] == [(0, len(text), "105")]


def test_a_short_form_may_open_a_sentence_after_a_citation_and_codes_spelled_apart_are_one() -> None:
    text = "N. Y. Gen. Bus. Law Ann. §518 (West 2012). § 518 says so; see N.Y. Gen. Bus. Law § 518."
    ex = extract_citations(text)
    got = [(c.text, str(ex.statute_of(c)), c.antecedent) for c in ex.citations]
    assert got == [
        ("N. Y. Gen. Bus. Law Ann. §518", "N.Y. Gen. Bus. Law § 518", None),
        ("§ 518", "N.Y. Gen. Bus. Law § 518", 0),
        ("N.Y. Gen. Bus. Law § 518", "N.Y. Gen. Bus. Law § 518", None),
    ]


def test_a_state_spelled_out_and_a_bare_statutes_at_large_name() -> None:
    ex = extract_citations("WISCONSIN STAT. § 66.0217(2) provides it. STAT. § 5 does not.")
    got = [(c.text, str(ex.statute_of(c))) for c in ex.citations]
    assert got == [("WISCONSIN STAT. § 66.0217(2)", "Wis. Stat. § 66.0217(2)")]  # no "Stat. § 5"
