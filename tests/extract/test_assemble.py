"""Short forms resolved across the document: Id., short cites, supra, references."""

from __future__ import annotations

from citecheck.extract import CiteForm, extract_citations


def _cites(text: str):
    return extract_citations(text).citations


def test_short_forms_resolve_to_their_full_citation() -> None:
    text = (
        "Roe v. Wade, 410 U.S. 113, 116 (1973). Branzburg v. Hayes, 408 U.S. 665 (1972). "
        "Benson v. Gottschalk, 409 U.S. 63, 67 (1972).\n\n"
        "Roe, 410 U.S. at 120. Id. at 121. Benson, 409 U.S. at 67. Branzburg, supra, at 690. Roe at 153."
    )
    cites = _cites(text)
    forms = [c.form for c in cites]
    assert forms == [CiteForm.FULL] * 3 + [
        CiteForm.SHORT,
        CiteForm.ID,
        CiteForm.SHORT,
        CiteForm.SUPRA,
        CiteForm.REFERENCE,
    ]
    ante = [c.antecedent for c in cites[3:]]
    assert ante == [0, 0, 2, 1, 0]
    assert [c.antecedent_text for c in cites[3:]] == ["Roe", None, "Benson", "Branzburg", "Roe"]
    assert [c.pincite.parts[0].first for c in cites[3:]] == ["120", "121", "67", "690", "153"]
    ex = extract_citations(text)
    assert ex.resolved(ex.citations[4]) is ex.citations[0]


def test_short_cite_picks_the_case_by_name_when_volume_is_shared() -> None:
    text = (
        "Roe v. Wade, 410 U.S. 113 (1973); Doe v. Bolton, 410 U.S. 179 (1973). "
        "Doe, 410 U.S. at 181. Roe, 410 U.S. at 116."
    )
    cites = _cites(text)
    assert [c.antecedent for c in cites[2:]] == [1, 0]


def test_id_after_statute_is_the_statute_not_the_case() -> None:
    text = "Roe v. Wade, 410 U.S. 113 (1973). See 42 U.S.C. \u00a7 1983. Id. \u00a7 1988. Id."
    ex = extract_citations(text)
    statute, id_section, bare_id = ex.citations[1:]
    assert statute.form is CiteForm.STATUTE
    assert id_section.form is CiteForm.STATUTE and id_section.antecedent == statute.index
    assert str(ex.statute_of(id_section)) == "42 U.S.C. \u00a7 1988"
    assert bare_id.form is CiteForm.ID and bare_id.antecedent == statute.index  # never Roe


def test_id_after_record_citation_is_not_the_case() -> None:
    cites = _cites(
        "Roe v. Wade, 410 U.S. 113 (1973). The complaint says so. Compl. \u00b6 45. Id. \u00b6 46."
    )
    assert cites[-1].form is CiteForm.ID and cites[-1].antecedent is None


def test_id_skips_citations_inside_a_parenthetical() -> None:
    text = (
        "Planned Parenthood of Se. Pa. v. Casey, 505 U.S. 833, 846 (1992) "
        "(quoting Doe v. Bolton, 410 U.S. 179, 181 (1973)). Id. at 851."
    )
    cites = _cites(text)
    assert cites[-1].form is CiteForm.ID and cites[-1].antecedent == 0


def test_id_chain_follows_short_forms() -> None:
    text = (
        "Roe v. Wade, 410 U.S. 113 (1973). Doe v. Bolton, 410 U.S. 179 (1973). "
        "Roe, 410 U.S. at 116. Id. at 117. Id."
    )
    cites = _cites(text)
    assert [c.antecedent for c in cites[2:]] == [0, 0, 0]


def test_id_after_parallel_cite_points_to_the_group() -> None:
    text = "State v. Dyous, 153 Conn. App. 266, 100 A.3d 1004 (2014). Id. at 270."
    cites = _cites(text)
    assert cites[-1].antecedent == 0 == cites[1].group


def test_unresolvable_short_forms_stay_unresolved() -> None:
    cites = _cites("Id. at 5. Smith, supra, at 4. Jones, 123 F.3d at 460. Nobody at 7.")
    assert [c.form for c in cites] == [CiteForm.ID, CiteForm.SUPRA, CiteForm.SHORT]
    assert all(c.antecedent is None for c in cites)


def test_supra_note_and_supra_part_are_not_case_citations() -> None:
    cites = _cites("Roe v. Wade, 410 U.S. 113 (1973). See supra Part II. Tribe, supra note 3, at 5.")
    assert [c.form for c in cites] == [CiteForm.FULL]


def test_reference_requires_an_earlier_party_name() -> None:
    cites = _cites(
        "Later, Casey at 846 said so. Planned Parenthood v. Casey, 505 U.S. 833 (1992). Casey at 850."
    )
    refs = [c for c in cites if c.form is CiteForm.REFERENCE]
    assert [c.text for c in refs] == ["Casey at 850"]
    assert refs[0].antecedent == 0


def test_fast_shift_builds_the_same_objects_as_the_constructors() -> None:
    import dataclasses

    from citecheck.extract.incremental.placing import shift_citation
    from citecheck.spans import Span

    text = (
        'As held, "x is y." See *Roe v. Wade*, 410 U.S. 113, 116\u201317 (1973) (holding "z"); Id. at 5 n.2.'
    )
    for c in extract_citations(text).citations:
        moved = shift_citation(c, 7, index=c.index + 1, group=c.group, antecedent=c.antecedent, paragraph=3)

        def mv(s: Span | None) -> Span | None:
            return None if s is None else Span(s.start + 7, s.end + 7)

        expected = dataclasses.replace(
            c,
            index=c.index + 1,
            paragraph=3,
            span=mv(c.span),
            full_span=mv(c.full_span),
            date_span=mv(c.date_span),
            proposition_span=mv(c.proposition_span),
            case_name=None
            if c.case_name is None
            else dataclasses.replace(c.case_name, span=mv(c.case_name.span)),
            pincite=None
            if c.pincite is None
            else dataclasses.replace(
                c.pincite,
                span=mv(c.pincite.span),
                parts=tuple(dataclasses.replace(p, span=mv(p.span)) for p in c.pincite.parts),
            ),
            parentheticals=tuple(dataclasses.replace(p, span=mv(p.span)) for p in c.parentheticals),
            quotes=tuple(dataclasses.replace(q, span=mv(q.span)) for q in c.quotes),
        )
        assert moved == expected
        assert hash(moved.span) == hash(expected.span)


def test_parallel_short_pin_follows_its_partner() -> None:
    cites = _cites(
        "In re Smith, 140 N.J. 1 (1942). Id. at 5, 99 A.2d at 7. Smith, 140 N.J. at 6, 99 A.2d at 8."
    )
    forms = [(c.form, c.antecedent) for c in cites]
    assert forms == [
        (CiteForm.FULL, None),
        (CiteForm.ID, 0),
        (CiteForm.SHORT, 0),
        (CiteForm.SHORT, 0),
        (CiteForm.SHORT, 0),
    ]


def test_supra_followed_by_a_short_cite_is_one_citation() -> None:
    text = "Grant v. Esquire, Inc., 316 F. Supp. 1 (S.D.N.Y. 1970). Grant v. Esquire, supra, 316 F. Supp. at 884."
    full, short = _cites(text)
    assert short.form is CiteForm.SHORT and short.text == "Grant v. Esquire, supra, 316 F. Supp. at 884"
    assert short.antecedent == full.index and short.antecedent_text == "Grant v. Esquire"


def test_emphasised_short_forms_start_at_the_name_and_show_no_markers() -> None:
    text = (
        "*Savage v. Stoltz*, 100 A.2d 450 (D.C. Mun. App. 1953). The lessor relied on *Savage*, 100 A.2d "
        "at 451. See also *Id.* at 452; **Savage**, 100 A.2d at 451; _Id._ at 451; *Savage*, supra, at 452."
    )
    cites = _cites(text)
    assert [c.form for c in cites] == [
        CiteForm.FULL, CiteForm.SHORT, CiteForm.ID, CiteForm.SHORT, CiteForm.ID, CiteForm.SUPRA,
    ]  # fmt: skip
    assert [c.text for c in cites[1:]] == [
        "Savage, 100 A.2d at 451",
        "Id. at 452",
        "Savage, 100 A.2d at 451",
        "Id. at 451",
        "Savage, supra, at 452",
    ]
    starts = [c.span.start for c in cites[1:]]
    assert [text[s] for s in starts] == ["S", "I", "S", "I", "S"]
    assert all(c.antecedent == 0 for c in cites[1:])
    # the span still indexes the original text; only the shown text drops the markers
    assert text[cites[1].span.start : cites[1].span.end] == "Savage*, 100 A.2d at 451"


def test_star_pages_keep_their_star() -> None:
    text = "Smith v. Jones, 2019 WL 1396975, at *3 (S.D.N.Y. Mar. 27, 2019). Id. at *5."
    cites = _cites(text)
    assert cites[1].form is CiteForm.ID and cites[1].text == "Id. at *5"


def test_supra_after_volume_and_reporter() -> None:
    text = (
        "Roe v. Wade, 410 U.S. 113 (1973). Doe v. Bolton, 410 U.S. 179 (1973). "
        "The State's interest grows, Roe, 410 U.S., supra, at 163, and see Doe, 410 U.S., supra, at 192."
    )
    cites = _cites(text)
    sup = [c for c in cites if c.form is CiteForm.SUPRA]
    assert [c.text for c in sup] == ["Roe, 410 U.S., supra, at 163", "Doe, 410 U.S., supra, at 192"]
    assert [c.antecedent_text for c in sup] == ["Roe", "Doe"]
    assert [c.antecedent for c in sup] == [0, 1]
    assert [c.pincite.text for c in sup] == ["163", "192"]


def test_volume_supra_needs_a_name_and_a_real_reporter() -> None:
    text = (
        "Roe v. Wade, 410 U.S. 113 (1973). As 410 U.S., supra, at 163 shows, and Roe, 410 Qx., supra, at 5."
    )
    sup = [c for c in _cites(text) if c.form is CiteForm.SUPRA]
    # no name before the volume: not a supra we could resolve (no "As, supra" warning)
    assert not any("410 U.S." in c.text for c in sup)
    # an unknown reporter is not read as a volume: the old reading stands, resolving to nothing
    assert [(c.antecedent_text, c.antecedent) for c in sup] == [("Qx.", None)]
