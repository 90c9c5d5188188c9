"""The constructors extraction makes its records with (``extract/records.py``) and the move of a citation
to the document's offsets (``placing.shift_citation``, which passes the thirty fields by position)."""

from __future__ import annotations

import dataclasses

from citecheck.extract.incremental.placing import shift_citation
from citecheck.extract.models import (
    CaseName,
    Citation,
    CiteForm,
    Database,
    Parenthetical,
    Pincite,
    PinPage,
    Quote,
    Statute,
    StatuteForm,
)
from citecheck.extract.records import fast_constructor, positional_constructor
from citecheck.spans import Span


def _every_field_set() -> Citation:
    """A citation whose every field holds a value of its own (no default, no two alike)."""
    return Citation(
        index=3,
        form=CiteForm.FULL,
        span=Span(40, 52),
        full_span=Span(20, 60),
        text="410 U.S. 113",
        volume="410",
        reporter="U.S.",
        reporter_as_written="U. S.",
        page="113",
        database=Database.WESTLAW,
        foreign="UK neutral",
        agency="National Labor Relations Board",
        listed=True,
        case_name=CaseName(text="Roe v. Wade", span=Span(20, 31), plaintiff="Roe", defendant="Wade"),
        pincite=Pincite(
            text="116-17",
            span=Span(54, 60),
            parts=(PinPage(first="116", last="17", footnote="2", star=False, span=Span(54, 60)),),
        ),
        court="scotus",
        court_text="U.S.",
        year=1973,
        date="1973-01-22",
        date_span=Span(61, 67),
        parentheticals=(Parenthetical(text="holding so", span=Span(68, 80)),),
        history=("aff'd",),
        quotes=(Quote(text="a right", span=Span(2, 9), block=False),),
        proposition="The right is fundamental.",
        proposition_span=Span(0, 25),
        group=7,
        antecedent=1,
        antecedent_text="Roe",
        paragraph=9,
        statute=Statute(form=StatuteForm.FULL, code="usc", title="42", section="1983"),
    )


def test_the_positional_constructor_makes_what_the_class_makes() -> None:
    c = _every_field_set()
    values = [getattr(c, f.name) for f in dataclasses.fields(Citation)]
    made = positional_constructor(Citation)(*values)
    assert made == c and type(made) is Citation
    assert (
        fast_constructor(Citation)(**{f.name: getattr(c, f.name) for f in dataclasses.fields(Citation)}) == c
    )
    name = CaseName(text="Roe", span=Span(1, 4), plaintiff=None, defendant="Roe")
    assert positional_constructor(CaseName)(name.text, name.span, name.plaintiff, name.defendant) == name


def test_a_citation_moved_keeps_each_field_in_its_place() -> None:
    """Every field of the moved citation is the field of the same name, moved: a field passed in the
    wrong place (``shift_citation`` passes them by position) fails here."""
    c = _every_field_set()
    d = 1000
    moved = shift_citation(c, d, index=30, group=31, antecedent=32, paragraph=33)

    def sp(s: Span) -> Span:
        return Span(s.start + d, s.end + d)

    assert c.pincite is not None and c.case_name is not None
    want = dataclasses.replace(
        c,
        index=30,
        span=sp(c.span),
        full_span=sp(c.full_span),
        case_name=dataclasses.replace(c.case_name, span=sp(c.case_name.span)),
        pincite=dataclasses.replace(
            c.pincite,
            span=sp(c.pincite.span),
            parts=tuple(dataclasses.replace(p, span=sp(p.span)) for p in c.pincite.parts),
        ),
        date_span=sp(c.date_span) if c.date_span else None,
        parentheticals=tuple(dataclasses.replace(p, span=sp(p.span)) for p in c.parentheticals),
        quotes=tuple(dataclasses.replace(q, span=sp(q.span)) for q in c.quotes),
        proposition_span=sp(c.proposition_span) if c.proposition_span else None,
        group=31,
        antecedent=32,
        paragraph=33,
    )
    for f in dataclasses.fields(Citation):
        assert getattr(moved, f.name) == getattr(want, f.name), f.name
    # nothing to move: a citation without the optional parts keeps them absent
    bare = Citation(index=0, form=CiteForm.ID, span=Span(0, 3), full_span=Span(0, 3), text="Id.")
    got = shift_citation(bare, 5, index=1, group=None, antecedent=0, paragraph=2)
    assert got == dataclasses.replace(
        bare, index=1, span=Span(5, 8), full_span=Span(5, 8), antecedent=0, paragraph=2
    )


def test_what_citations_shared_in_their_paragraph_they_share_moved() -> None:
    """A parallel group's case name, date and parentheticals, and a sentence's proposition, are one object
    for all the citations that have them, after the move to the document's offsets as before it (each
    paragraph's objects are moved once: memory on briefs of 100,000 citations, issue 40)."""
    from citecheck.extract import extract_citations

    text = (
        "First paragraph here.\n\nThe right is fundamental. Roe v. Wade, 410 U.S. 113, 93 S. Ct. 705 (1973) "
        '(holding so); see also Doe v. Bolton, 410 U.S. 179 (1973) ("a quoted line").'
    )
    a, b, c = extract_citations(text).citations
    assert (a.group, b.group, c.group) == (0, 0, 2) and a.paragraph == 1
    assert a.case_name is not None and a.case_name is b.case_name and a.case_name.text == "Roe v. Wade"
    assert a.date_span is not None and a.date_span is b.date_span
    assert a.parentheticals and a.parentheticals == b.parentheticals
    assert all(p is q for p, q in zip(a.parentheticals, b.parentheticals, strict=True))
    assert a.proposition_span is b.proposition_span is c.proposition_span
    assert a.proposition == "The right is fundamental." and a.proposition is b.proposition is c.proposition
    assert a.span.of(text) == "410 U.S. 113" and a.parentheticals[0].span.of(text) == "(holding so)"


def test_a_paragraphs_citation_has_each_field_in_its_place() -> None:
    """``paragraph._citation`` passes the thirty fields by position too: each read back by name."""
    from citecheck.extract.paragraph import extract_paragraph

    text = (
        "The right is fundamental. Roe v. Wade, 410 U.S. 113, 116 (1973) (holding so), "
        "aff'd, 411 U.S. 1 (1974). Id. at 117."
    )
    res = extract_paragraph(text)
    c = res.citations[0]
    assert (c.index, c.form, c.span.of(text), c.text) == (0, CiteForm.FULL, "410 U.S. 113", "410 U.S. 113")
    assert c.full_span.of(text).startswith("Roe v. Wade, 410 U.S. 113")
    assert (c.volume, c.reporter, c.reporter_as_written, c.page) == ("410", "U.S.", "U.S.", "113")
    assert (c.database, c.foreign, c.agency, c.listed) == (None, None, None, False)
    assert c.case_name is not None and c.case_name.text == "Roe v. Wade"
    assert c.pincite is not None and c.pincite.text == "116"
    assert (c.court, c.court_text, c.year, c.date) == ("scotus", None, 1973, None)
    assert c.date_span is not None and c.date_span.of(text) == "(1973)"
    assert [p.text for p in c.parentheticals] == ["holding so"]
    assert c.history and c.history[0].startswith("aff")
    assert c.quotes == () and c.proposition == "The right is fundamental."
    assert c.proposition_span is not None and c.proposition_span.of(text) == c.proposition
    assert (c.group, c.antecedent, c.antecedent_text, c.paragraph, c.statute) == (0, None, None, 0, None)
    idc = res.citations[-1]
    assert idc.form is CiteForm.ID and idc.pincite is not None and idc.pincite.text == "117"


def test_the_lookup_records_and_references_are_what_their_classes_make() -> None:
    """``lookups`` makes its ``Record`` by the positional constructor and its ``Ref``/``RecordRef``/``RelRef``
    and the plan's ``CiteStep`` by ``tuple.__new__``: the same types and values as their constructors."""
    from citecheck.extract import extract_citations
    from citecheck.extract.incremental import lookups
    from citecheck.extract.incremental.assembly import assemble_incremental
    from citecheck.extract.incremental.plan import CiteStep
    from citecheck.extract.paragraph import extract_paragraph
    from citecheck.extract.paragraphs import split_paragraphs

    text = (
        "Roe v. Wade, 410 U.S. 113, 93 S. Ct. 705 (1973). Id. at 116.\n\n"
        "See Doe v. Bolton, 410 U.S. 179 (1973); Roe, 410 U.S. at 120. Roe, supra, at 121.\n"
    )
    paragraphs = split_paragraphs(text)
    _ex, run = assemble_incremental(
        text, paragraphs, [extract_paragraph(text[s:e]) for s, e in paragraphs], None
    )
    for r in run.fulls:
        assert type(r) is lookups.Record and r == lookups.Record(*(getattr(r, f) for f in r.__slots__))
    st = lookups.LookupState(records_before=run.records_before)
    st.fulls = run.fulls
    for pos in range(len(run.fulls)):
        got = st.ref(pos)
        assert type(got) is lookups.Ref and type(got.which) is lookups.RecordRef
        assert got == lookups.Ref(got.paragraph, lookups.RecordRef(*got.which))
        rel = lookups.relative(got, 3)
        assert type(rel) is lookups.RelRef and rel == lookups.RelRef(3 - got.paragraph, got.which)
    steps = [e for plan in run.plans for e in plan.steps if type(e) is CiteStep]
    assert steps and all(e == CiteStep(*e) for e in steps)
    cites = extract_citations(text).citations
    assert [c.antecedent for c in cites] == [None, None, 0, None, 0, 1]  # as main 1002753 resolves them


@dataclasses.dataclass(frozen=True, slots=True)
class _Base:
    a: int


@dataclasses.dataclass(frozen=True, slots=True)
class _Derived(_Base):
    b: str
    c: tuple[int, ...] = ()


def test_the_constructors_make_frozen_objects_of_the_class_itself() -> None:
    import pickle

    from citecheck.extract.records import _writable_twin

    assert _writable_twin(Citation) is not None  # Citation is made through the writable twin
    assert _writable_twin(_Derived) is None  # a base with slots: through the slot descriptors
    make_pin = positional_constructor(Pincite)
    names = [f.name for f in dataclasses.fields(Pincite)]
    values = [getattr(_every_field_set().pincite, name) for name in names]
    pin = make_pin(*values)
    same = Pincite(**dict(zip(names, values, strict=True)))
    assert type(pin) is Pincite
    assert pin == same and hash(pin) == hash(same)
    assert pickle.loads(pickle.dumps(pin)) == pin
    try:
        pin.text = "changed"  # type: ignore[misc]
    except dataclasses.FrozenInstanceError:
        pass
    else:
        raise AssertionError("a constructed record must stay frozen")
    derived = fast_constructor(_Derived)(a=1, b="x")
    assert type(derived) is _Derived and derived == _Derived(1, "x")
    assert positional_constructor(_Derived)(2, "y", (3,)) == _Derived(2, "y", (3,))
