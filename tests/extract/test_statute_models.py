"""The statute citation model: keys an index looks sections up by, and short forms taking their code."""

from __future__ import annotations

import pytest

from citecheck.extract.models import (
    Citation,
    CiteForm,
    Extraction,
    Statute,
    StatuteForm,
    StatuteKey,
    normalise_section,
    statute_key,
)
from citecheck.spans import Span


def _statute_cite(
    index: int, statute: Statute, *, antecedent: int | None = None, form: CiteForm = CiteForm.STATUTE
) -> Citation:
    span = Span(index * 10, index * 10 + 5)
    return Citation(
        index=index,
        form=form,
        span=span,
        full_span=span,
        text=str(statute),
        statute=statute,
        antecedent=antecedent,
    )


USC_1983 = Statute(
    form=StatuteForm.FULL,
    code="usc",
    code_text="U.S.C.",
    jurisdiction="United States",
    title="42",
    section="1983",
)


@pytest.mark.parametrize(
    ("written", "key"),
    [
        ("1983", "1983"),
        ("240.10b\u20135", "240.10b-5"),  # en dash as typeset
        (" 2000e\u20112 ", "2000e-2"),  # non-breaking hyphen, stray spaces
        ("17a-593.", "17a-593"),  # sentence punctuation is not part of a section
    ],
)
def test_sections_are_keyed_with_hyphens_and_no_spaces(written: str, key: str) -> None:
    assert normalise_section(written) == key


def test_statute_key_drops_leading_zeros_of_a_numeric_title_only() -> None:
    assert statute_key("usc", "042", "1983") == StatuteKey("usc", "42", "1983")
    assert statute_key("usc", "5a", "552") == StatuteKey("usc", "5a", "552")  # an appendix title stays
    assert statute_key("Fla. Stat.", None, "768.28") == StatuteKey("Fla. Stat.", None, "768.28")


def test_keys_name_every_listed_section_and_the_ends_of_a_range() -> None:
    listed = Statute(form=StatuteForm.FULL, code="usc", title="28", section="1331", also=("1332",))
    assert listed.keys() == (StatuteKey("usc", "28", "1331"), StatuteKey("usc", "28", "1332"))
    ranged = Statute(form=StatuteForm.FULL, code="usc", title="11", section="101", last_section="105")
    assert ranged.keys() == (StatuteKey("usc", "11", "101"), StatuteKey("usc", "11", "105"))
    assert str(ranged) == "11 U.S.C. §§ 101\u2013105"


def test_a_short_form_has_no_key_of_its_own() -> None:
    short = Statute(form=StatuteForm.SHORT, code=None, section="1983")
    assert short.key is None and short.keys() == () and short.name is None


def test_short_forms_take_code_and_title_from_their_antecedent() -> None:
    full = _statute_cite(0, USC_1983)
    short = _statute_cite(
        1, Statute(form=StatuteForm.SHORT, code=None, section="1983", subsections=("(b)",)), antecedent=0
    )
    id_other = _statute_cite(
        2, Statute(form=StatuteForm.ID, code=None, section="1985", subsections=("(3)",)), antecedent=0
    )
    bare_id = Citation(
        index=3, form=CiteForm.ID, span=Span(30, 33), full_span=Span(30, 33), text="Id.", antecedent=0
    )
    unresolved = _statute_cite(4, Statute(form=StatuteForm.SHORT, code=None, section="2000e"))
    ex = Extraction(text="x" * 60, citations=(full, short, id_other, bare_id, unresolved))

    assert ex.statute_of(full) is USC_1983
    got = ex.statute_of(short)
    assert got is not None and got.key == StatuteKey("usc", "42", "1983") and got.subsections == ("(b)",)
    assert got.form is StatuteForm.SHORT
    other = ex.statute_of(id_other)
    assert other is not None and str(other) == "42 U.S.C. § 1985(3)"
    same = ex.statute_of(bare_id)
    assert same is not None and same.key == USC_1983.key and same.form is StatuteForm.ID
    assert ex.statute_of(unresolved) is None  # its code is unknown


def test_a_case_citation_has_no_statute() -> None:
    span = Span(0, 12)
    case = Citation(
        index=0,
        form=CiteForm.FULL,
        span=span,
        full_span=span,
        text="410 U.S. 113",
        volume="410",
        reporter="U.S.",
        page="113",
    )
    bare_id = Citation(
        index=1, form=CiteForm.ID, span=Span(14, 17), full_span=Span(14, 17), text="Id.", antecedent=0
    )
    ex = Extraction(text="410 U.S. 113. Id.", citations=(case, bare_id))
    assert ex.statute_of(case) is None and ex.statute_of(bare_id) is None
