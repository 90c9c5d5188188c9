"""Case-name comparison: Bluebook abbreviations, party order, short names, real typos from filed briefs."""

from __future__ import annotations

import pytest

from citecheck.checks.name_match import NameVerdict, clean_draft_name, compare_names

M, S, X = NameVerdict.MATCH, NameVerdict.MISSPELLED, NameVerdict.MISMATCH


@pytest.mark.parametrize(
    ("draft", "record", "verdict", "corrected"),
    [
        # the five real typos of issue 4
        ("Plyer v. Doe", "Plyler v. Doe", S, "Plyler v. Doe"),
        ("Fuentes v. Shervin", "Fuentes v. Shevin", S, "Fuentes v. Shevin"),
        ("Sims v. Aherns", "Sims v. Ahrens", S, "Sims v. Ahrens"),
        ("Roadway Express v. Pipe", "Roadway Express, Inc. v. Piper", S, "Roadway Express v. Piper"),
        ("Gieg v. DRR, Inc.", "Gieg v. DDR, Inc.", S, "Gieg v. DDR, Inc."),
        # a different case's name
        ("Boone v. Vinson", "Cinel v. Connick", X, None),
        ("State v. Vela", "State v. Dyous", X, None),
        ("In re J.W.", "People v. A.V. (In re A.V.)", X, None),  # initials are never "typos"
        # the same case, written differently
        ("Doe v. Plyler", "Plyler v. Doe", M, None),  # party order
        ("Avianca", "Mata v. Avianca, Inc.", M, None),  # short name
        ("Mata v. Avianca, Inc., et al.", "Mata v. Avianca, Inc.", M, None),
        (
            "Att'y Grievance Comm'n of Md. v. Zhang",
            "Attorney Grievance Commission of Maryland v. Zhang",
            M,
            None,
        ),
        ("Peyton v. D.C.", "Peyton v. District of Columbia", M, None),
        ("West v. U.S.", "West v. United States", M, None),
        (
            "Int'l Bhd. of Elec. Workers v. NLRB",
            "International Brotherhood of Electrical Workers v. NLRB",
            M,
            None,
        ),
        ("Dep't of Human Res. v. Johnson", "Department of Human Resources v. Johnson", M, None),
        ("In re A.V.", "People v. A.V. (In re A.V.)", M, None),
        ("Nowinski v. Randall H. Hagner & Co.", "NOWINSKI v. RANDALL H. HAGNER & CO., Inc.", M, None),
    ],
)
def test_compare_names(draft: str, record: str, verdict: NameVerdict, corrected: str | None) -> None:
    result = compare_names(draft, [record])
    assert result.verdict is verdict
    if corrected is not None:
        assert result.corrected(draft) == corrected


def test_any_record_name_variant_may_match() -> None:
    assert (
        compare_names(
            "Obergefell v. Hodges", ["James Obergefell, et al. v. Richard Hodges, Director"]
        ).verdict
        is M
    )


def test_clean_draft_name_strips_signals() -> None:
    assert clean_draft_name("But see Roe v. Wade") == "Roe v. Wade"
    assert clean_draft_name("See, e.g., Roe v. Wade,") == "Roe v. Wade"


# (draft name, record names [short, full caption], verdict): one shared party is not a match (issue 17)
ONE_SHARED_PARTY = [
    (
        "Jackson v. Clark",
        ["Jackson v. Munson", "Ray JACKSON v. Sam MUNSON, Clark County Sheriff"],
        "mismatch",
    ),
    (
        "State v. Hamzy",
        ["Williams v. State", "Donald WILLIAMS v. STATE of Nevada (Hamzy, intervenor)"],
        "mismatch",
    ),
    ("State v. Williams", ["Williams v. State", "Donald WILLIAMS v. STATE of Nevada"], "match"),
    ("Jackson v. Munson et al.", ["Jackson v. Munson"], "match"),
    ("Acme Corp. v. Doe", ["Acme Corporation v. Doe", "ACME CORPORATION, Appellant, v. John DOE"], "match"),
    ("People v. Smith", ["People v. Smith", "The PEOPLE of the State of California v. John SMITH"], "match"),
    ("United States v. Smith", ["United States v. Smith", "UNITED STATES of America v. Smith"], "match"),
    (
        "Int'l Bhd. of Elec. Workers v. Foust",
        ["International Brotherhood of Electrical Workers v. Foust"],
        "match",
    ),
    ("Dennis Cinel v. Harry Connick", ["Cinel v. Connick"], "match"),
]


@pytest.mark.parametrize(
    ("draft", "names", "verdict"), ONE_SHARED_PARTY, ids=[d for d, _, _ in ONE_SHARED_PARTY]
)
def test_one_shared_party_is_a_mismatch_but_forms_of_the_same_name_match(draft, names, verdict) -> None:
    assert compare_names(draft, names).verdict.value == verdict


ASAY = (
    "Mark James ASAY, Appellant, v. STATE of Florida, Appellee; Mark James Asay, Petitioner, v. Julie L. "
    "Jones, etc., Respondent"
)


@pytest.mark.parametrize(
    ("draft", "verdict"),
    [("Asay v. State", M), ("Asay v. Jones", M), ("Asay v. Smith", X), ("Smith v. State", X)],
)
def test_a_consolidated_caption_in_the_record_matches_on_any_caption(draft: str, verdict) -> None:
    """Issue 32: CourtListener's name of Asay v. State joins two captions with ';' (was a mismatch)."""
    assert compare_names(draft, [ASAY]).verdict is verdict
