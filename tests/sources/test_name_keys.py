"""Case-name keys: T6 abbreviations folded both ways, parties, and a score that ranks the right case first."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from citecheck.sources.name_keys import name_score, name_tokens, normalise_name, parties

# (as a brief writes it, as CourtListener stores it): the same key
SAME_KEY = [
    ("Int'l Bhd. of Elec. Workers v. NLRB", "International Brotherhood of Electrical Workers v. N.L.R.B."),
    ("Dep't of Human Res. v. Johnson", "Department of Human Resources v. Johnson"),
    ("Att'y Grievance Comm'n of Md. v. Zhang", "Attorney Grievance Commission of Maryland v. Zhang"),
    ("West v. U.S.", "West v. United States"),
    ("Peyton v. D.C.", "Peyton v. District of Columbia"),
    ("Hertz Corp. v. Friend", "The Hertz Corporation v. Friend"),  # a leading "The", a suffix
    ("Mata v. Avianca, Inc.", "Mata vs. Avianca Inc"),
    (
        "W. Va. Emp'rs' Mut. Ins. Co. v. Summit Point",
        "West Virginia Employers' Mutual Insurance Co. v. Summit Point",
    ),
]


@pytest.mark.parametrize(("brief", "record"), SAME_KEY)
def test_abbreviations_and_full_forms_give_one_key(brief: str, record: str) -> None:
    assert normalise_name(brief) == normalise_name(record)
    assert name_tokens(brief) == name_tokens(record)


def test_words_without_identity_give_no_token() -> None:
    assert name_tokens("In re Smith, et al.") == ("smith",)
    assert name_tokens("Ex parte Jones") == ("jones",)
    assert name_tokens("The Matter of the Estate of Brown") == ("estate", "brown")


def test_different_names_give_different_keys() -> None:
    assert normalise_name("State v. Vela") != normalise_name("State v. Dyous")
    assert normalise_name("Smith v. Jones") != normalise_name("Jones v. Smith")  # order is part of the key


def test_parties_split_captions_and_consolidations() -> None:
    assert parties("Obergefell v. Hodges") == ("Obergefell", "Hodges")
    assert parties("United States ex rel. Smith v. Jones; Doe vs. Roe") == (
        "United States ex rel. Smith",
        "Jones",
        "Doe",
        "Roe",
    )
    assert parties("In re A.V.") == ("In re A.V.",)


# (draft, candidate names, lowest acceptable score)
HIGH = [
    ("Avianca", ["Mata v. Avianca, Inc."], 1.0),  # a short form names one party
    ("Doe v. Plyler", ["Plyler v. Doe"], 1.0),  # party order
    ("State v. Dyous", ["Dyous", "State v. Dyous", "STATE of Connecticut v. Anthony DYOUS."], 1.0),
    ("Obergefell v. Hodges", ["James Obergefell, et al. v. Richard Hodges, Director"], 1.0),
    ("In re A.V.", ["People v. A.V. (In re A.V.)"], 1.0),  # the parenthetical alternative
    ("Plyer v. Doe", ["Plyler v. Doe"], 0.85),  # a typo costs a little
    ("Smith v. Jones", ["Smith"], 0.7),  # a short name alone: the other party is unknown
    ("St. Paul Fire & Marine Ins. Co. v. Smith", ["Saint Paul Fire & Marine Insurance Co. v. Smith"], 1.0),
    ("Ohio St. Univ. v. Smith", ["Ohio State University v. Smith"], 1.0),
    ("SEC v. Smith", ["Securities & Exchange Commission v. Smith"], 0.7),
    (
        "Bleecker St. Tenants Corp. v. Bleeker Jones LLC",
        ["Bleecker St. Tenants Corp.. v. Bleeker Jones Llc"],
        1.0,
    ),
]
LOW = [
    ("Boone v. Vinson", ["Cinel v. Connick"], 0.0),
    ("State v. Vela", ["State v. Dyous"], 0.25),  # "State" alone is no match
    ("United States v. Smith", ["United States v. Jones"], 0.25),
    ("Jackson v. Clark", ["Jackson v. Munson"], 0.5),  # one shared party is half a name
    ("In re J.W.", ["People v. A.V. (In re A.V.)"], 0.3),
    # a known abbreviation stands for its own words only, not for any word its letters fit
    ("Smithers v. Jones", ["Bleecker St. Tenants Corp.. v. Bleeker Jones Llc"], 0.6),
    ("Stewart", ["Bleecker St. Tenants Corp.. v. Bleeker Jones Llc"], 0.3),
    ("McDonald v. Zhang", ["Attorney Grievance Comm'n of Md. v. Zhang"], 0.6),
    ("Institute for Justice v. Smith", ["Mutual Ins. Co. v. Smith"], 0.6),
]


@pytest.mark.parametrize(("draft", "names", "at_least"), HIGH)
def test_the_same_case_scores_high(draft: str, names: list[str], at_least: float) -> None:
    assert name_score(draft, names) >= at_least


@pytest.mark.parametrize(("draft", "names", "at_most"), LOW)
def test_another_case_scores_low(draft: str, names: list[str], at_most: float) -> None:
    assert name_score(draft, names) <= at_most


def test_the_right_case_ranks_first_among_neighbours() -> None:
    cases = {
        "Department of Human Resources v. Johnson": ["Department of Human Resources v. Johnson"],
        "Johnson v. State": ["Johnson v. State"],
        "Department of Revenue v. Johnson": ["Department of Revenue v. Johnson"],
        "Human Rights Comm'n v. Johnston": ["Human Rights Comm'n v. Johnston"],
    }
    ranked = sorted(cases, key=lambda k: name_score("Dep't of Human Res. v. Johnson", cases[k]), reverse=True)
    assert ranked[0] == "Department of Human Resources v. Johnson"


def test_empty_and_wordless_names_score_zero() -> None:
    assert name_score("", ["Roe v. Wade"]) == 0.0
    assert name_score("Roe v. Wade", ["", "  "]) == 0.0
    assert name_score("In re", ["In re Smith"]) == 0.0


_names = st.text(alphabet=st.sampled_from(list("abcdeAB .,'&;()v")), max_size=40)


@settings(max_examples=200, deadline=None)
@given(_names, st.lists(_names, max_size=3))
def test_scores_stay_between_zero_and_one(draft: str, names: list[str]) -> None:
    assert 0.0 <= name_score(draft, names) <= 1.0


@settings(max_examples=100, deadline=None)
@given(st.from_regex(r"[A-Z][a-z]{3,9}( [A-Z][a-z]{3,9})? v\. [A-Z][a-z]{3,9}", fullmatch=True))
def test_a_name_scores_one_against_itself(name: str) -> None:
    assert name_score(name, [name]) == 1.0


def _fold_every_string(s: str) -> str:
    """``fold`` as it was before ASCII skipped the decomposition (issue 40): every string decomposed."""
    import re
    import unicodedata

    s = unicodedata.normalize("NFKD", s)
    s = "".join(ch for ch in s if not unicodedata.combining(ch))
    return re.sub(r"['’.]", "", s.casefold()).strip()


@given(st.text(max_size=40) | st.text(alphabet=st.characters(max_codepoint=127), max_size=40))
@settings(max_examples=300, deadline=None)
def test_fold_skips_the_decomposition_of_ascii_only_where_it_changes_nothing(s: str) -> None:
    from citecheck.sources.name_keys import fold

    assert fold(s) == _fold_every_string(s)
    for name in ("Peña v. Dep’t of Corr.", "HAWAI'I v. Office of Hawaiian Affairs", "Ǆemal v. Ǳon"):
        assert fold(name) == _fold_every_string(name)
