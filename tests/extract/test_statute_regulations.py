"""Regulation and federal citations as real documents write them (issue 33 item 2): C.F.R. parts and
appendices, ranges after ``§§``, lists that stop at the next code, ``U.S.C §``, U.S. Code appendix acts,
and the states' codes of rules — every one reported, none dropped, none read as another code's."""

from __future__ import annotations

import pytest

from citecheck.extract import CiteForm, StatuteKey, extract_citations


def _statutes(text: str) -> list[tuple[str, str]]:
    ex = extract_citations(text)
    return [(c.text, str(ex.statute_of(c))) for c in ex.citations if c.form is CiteForm.STATUTE]


def _keys(text: str) -> list[tuple[StatuteKey, ...]]:
    ex = extract_citations(text)
    out = []
    for c in ex.citations:
        s = ex.statute_of(c)
        if c.form is CiteForm.STATUTE and s is not None:
            out.append(s.keys())
    return out


# The sentences of issue 33 (New York, California, Texas, New Jersey), and Florida's, Illinois's and
# Pennsylvania's codes of rules as their courts write them: (text, [(as written, code, title, section)])
STATE_RULES = [
    (
        "Regulations of the Department of Financial Services, 18 NYCRR § 515.2(a), govern; see also 22 NYCRR 202.8-g.",
        [
            ("18 NYCRR § 515.2(a)", "N.Y. Comp. Codes R. & Regs.", "18", "515.2"),
            ("22 NYCRR 202.8-g", "N.Y. Comp. Codes R. & Regs.", "22", "202.8-g"),
        ],
    ),
    ("See 9 NYCRR § 466.11.", [("9 NYCRR § 466.11", "N.Y. Comp. Codes R. & Regs.", "9", "466.11")]),
    (
        "The Commission's regulation, 2 CCR 18700, and Cal. Code Regs., tit. 2, § 18700, apply.",
        [
            ("2 CCR 18700", "Cal. Code Regs.", "2", "18700"),
            ("Cal. Code Regs., tit. 2, § 18700", "Cal. Code Regs.", "2", "18700"),
        ],
    ),
    (
        "Tex. Admin. Code tit. 16, § 5.1 provides the rule.",
        [("Tex. Admin. Code tit. 16, § 5.1", "Tex. Admin. Code", "16", "5.1")],
    ),
    ("See 16 TAC § 5.1.", [("16 TAC § 5.1", "Tex. Admin. Code", "16", "5.1")]),
    ("N.J.A.C. 10:49-1.1 governs.", [("N.J.A.C. 10:49-1.1", "N.J. Admin. Code", None, "10:49-1.1")]),
    (
        "Fla. Admin. Code R. 69O-186.013 and Rule 64B8-9.003, F.A.C., apply.",
        [
            ("Fla. Admin. Code R. 69O-186.013", "Fla. Admin. Code Ann.", None, "69O-186.013"),
            ("Rule 64B8-9.003, F.A.C.", "Fla. Admin. Code Ann.", None, "64B8-9.003"),
        ],
    ),
    (
        "35 Ill. Adm. Code 302.208 and Ill. Admin. Code tit. 35, § 302.208 apply.",
        [
            ("35 Ill. Adm. Code 302.208", "Ill. Admin. Code", "35", "302.208"),
            ("Ill. Admin. Code tit. 35, § 302.208", "Ill. Admin. Code", "35", "302.208"),
        ],
    ),
    ("See 25 Pa. Code § 93.7.", [("25 Pa. Code § 93.7", "Pa. Code", "25", "93.7")]),
]


@pytest.mark.parametrize(("text", "expected"), STATE_RULES)
def test_state_codes_of_rules_are_read_as_regulations_of_their_state(text: str, expected: list) -> None:
    ex = extract_citations(text)
    got = [
        (c.text, c.statute.code, c.statute.title, c.statute.section)
        for c in ex.citations
        if c.form is CiteForm.STATUTE and c.statute is not None
    ]
    assert got == expected
    for c in ex.citations:
        assert c.statute is not None and c.statute.regulation  # a code of rules, not a statute
    jurisdictions = {c.statute.jurisdiction for c in ex.citations if c.statute is not None}
    assert "California" not in jurisdictions or "CCR" in text or "Cal." in text  # 9 NYCRR is New York's


def test_a_list_stops_at_the_next_code() -> None:
    got = _statutes("Jurisdiction lies under 28 U.S.C. §§ 1331, 1343, and 29 C.F.R. pt. 825 applies.")
    assert got == [
        ("28 U.S.C. §§ 1331, 1343", "28 U.S.C. §§ 1331, 1343"),
        ("29 C.F.R. pt. 825", "29 C.F.R. pt. 825"),
    ]
    assert _statutes("See 42 U.S.C. §§ 1983 and 29 U.S.C. § 794.") == [
        ("42 U.S.C. §§ 1983", "42 U.S.C. § 1983"),
        ("29 U.S.C. § 794", "29 U.S.C. § 794"),
    ]


def test_usc_without_its_last_full_stop() -> None:
    assert _statutes("Fair use, 17 U.S.C § 107, protects it.") == [("17 U.S.C § 107", "17 U.S.C. § 107")]


@pytest.mark.parametrize(
    ("text", "first", "last"),
    [
        ("See 9 U.S.C. §§ 1-16.", "1", "16"),
        ("See 9 U.S.C. §§ 1\u201316.", "1", "16"),
        ("See 2 C.F.R. §§ 200.317-200.327.", "200.317", "200.327"),
        ("See 2 C.F.R. §§ 200.317\u2013200.327.", "200.317", "200.327"),
    ],
)
def test_federal_ranges_after_two_section_signs(text: str, first: str, last: str) -> None:
    [c] = extract_citations(text).citations
    assert c.statute is not None and (c.statute.section, c.statute.last_section) == (first, last)


@pytest.mark.parametrize(
    "text",
    [
        "See 2 U.S.C. §§ 31-1, 31-2.",
        "See 17 C.F.R. § 240.10b-5.",
        "See 26 C.F.R. § 1.1502-13.",
        "D.C. Code § 22\u20132501.",
    ],
)
def test_hyphenated_sections_stay_sections(text: str) -> None:
    [c] = extract_citations(text).citations
    assert c.statute is not None and c.statute.last_section is None


@pytest.mark.parametrize(
    ("text", "written", "keys"),
    [
        ("See 2 C.F.R. Part 200.", "2 C.F.R. Part 200", [StatuteKey("cfr", "2", "200", None, "part")]),
        (
            "See 2 C.F.R. pt. 200, app. II.",
            "2 C.F.R. pt. 200, app. II",
            [StatuteKey("cfr", "2", "200:ii", None, "appendix")],
        ),
        (
            "See 20 C.F.R. Part 404, Subpart P, Appendix 1.",
            "20 C.F.R. Part 404, Subpart P, Appendix 1",
            [StatuteKey("cfr", "20", "404:1", None, "appendix")],
        ),
        (
            "See 20 C.F.R. Pt. 404, Subpt. P, App. 1, § 12.05C.",
            "20 C.F.R. Pt. 404, Subpt. P, App. 1, § 12.05C",
            [StatuteKey("cfr", "20", "404:1", None, "appendix")],
        ),
        ("See 29 C.F.R. pt. 825.", "29 C.F.R. pt. 825", [StatuteKey("cfr", "29", "825", None, "part")]),
        (
            "See 29 C.F.R. Parts 1910 and 1926.",
            "29 C.F.R. Parts 1910 and 1926",
            [StatuteKey("cfr", "29", "1910", None, "part"), StatuteKey("cfr", "29", "1926", None, "part")],
        ),
        (
            "See 40 C.F.R. Part 60, Subpart Da.",
            "40 C.F.R. Part 60, Subpart Da",
            [StatuteKey("cfr", "40", "60:da", None, "subpart")],
        ),
    ],
)
def test_cfr_parts_and_appendices_are_never_sections(text: str, written: str, keys: list[StatuteKey]) -> None:
    ex = extract_citations(text)
    [c] = [c for c in ex.citations if c.form is CiteForm.STATUTE]
    assert c.text == written
    assert c.statute is not None and list(c.statute.keys()) == keys


def test_parts_listed_before_a_register_citation_stop_at_it() -> None:
    got = _statutes("40 C.F.R. Parts 60, 61 Fed. Reg. 123 (1996).")
    assert got[0] == ("40 C.F.R. Parts 60", "40 C.F.R. pt. 60") and got[1][0] == "61 Fed. Reg. 123"


@pytest.mark.parametrize(
    ("text", "key", "shown"),
    [
        ("18 U.S.C. App. 3 § 4 governs.", StatuteKey("usc", "18a", "4", "3"), "18 U.S.C. App. 3 § 4"),
        ("5 U.S.C. App. 3 § 5(a) governs.", StatuteKey("usc", "5a", "5", "3"), "5 U.S.C. App. 3 § 5(a)"),
        ("50 U.S.C. App. § 2410 governs.", StatuteKey("usc", "50a", "2410"), "50 U.S.C. App. § 2410"),
    ],
)
def test_an_appendix_act_number_is_kept(text: str, key: StatuteKey, shown: str) -> None:
    ex = extract_citations(text)
    [c] = ex.citations
    assert c.statute is not None and c.statute.key == key and str(c.statute) == shown


def test_a_short_form_after_an_appendix_act_keeps_the_act() -> None:
    text = "Under 18 U.S.C. App. 3 § 4, the court may act. Under § 4(b), it holds a hearing."
    assert [k for ks in _keys(text) for k in ks] == [StatuteKey("usc", "18a", "4", "3")] * 2
