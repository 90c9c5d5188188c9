"""The public API over real opinion text: spans index the original text; incremental == full."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from citecheck.errors import InputError
from citecheck.extract import CiteForm, Document, Edit, StatuteForm, extract_citations
from citecheck.extract.normalise import citation_text
from citecheck.extract.paragraphs import split_paragraphs
from citecheck_testing import shared_corpus_path


def _check_spans(text: str, ex) -> None:
    for c in ex.citations:
        assert citation_text(text[c.span.start : c.span.end]) == c.text
        assert c.full_span.covers(c.span)
        assert 0 <= c.full_span.start <= c.full_span.end <= len(text)
        if c.case_name is not None:
            assert c.full_span.covers(c.case_name.span)
        if c.pincite is not None:
            assert text[c.pincite.span.start : c.pincite.span.end] == c.pincite.text
        for q in c.quotes:
            if not q.block:
                assert text[q.span.start : q.span.end] == q.text
        for p in c.parentheticals:
            assert text[p.span.start + 1 : p.span.end - 1] == p.text
        if c.proposition_span is not None:
            assert text[c.proposition_span.start : c.proposition_span.end] == c.proposition
        if c.antecedent is not None:
            ante = ex.citations[c.antecedent]
            assert c.antecedent < c.index
            if (
                ante.form is CiteForm.STATUTE
            ):  # only a full statute citation, only for Id. or a statute short form
                assert ante.statute is not None and ante.statute.form is StatuteForm.FULL
                assert c.form in (CiteForm.ID, CiteForm.STATUTE)
            else:
                assert ante.form in (CiteForm.FULL, CiteForm.UNRECOGNISED)
        if c.statute is not None:
            assert c.form is CiteForm.STATUTE


def test_spans_index_the_original_text_of_real_opinions(bulk_extractions) -> None:
    total = 0
    for text, ex in bulk_extractions:
        _check_spans(text, ex)
        total += len(ex.citations)
    assert total > 30
    shared_corpus_path("courtlistener-bulk", "opinions.csv")  # the rest counts the 34 real opinions
    assert total > 500  # the 34 opinions cite hundreds of authorities


def test_spans_over_cap_html_text(cap_opinions) -> None:
    for text in cap_opinions:
        _check_spans(text, extract_citations(text))


def test_real_opinion_yields_resolved_short_forms(bulk_extractions) -> None:
    shared_corpus_path("courtlistener-bulk", "opinions.csv")  # counts of the 34 real opinions (skips without)
    forms = {f: 0 for f in CiteForm}
    resolved = 0
    for _, ex in bulk_extractions:
        for c in ex.citations:
            forms[c.form] += 1
            resolved += c.form in (CiteForm.ID, CiteForm.SHORT, CiteForm.SUPRA) and c.antecedent is not None
    assert forms[CiteForm.FULL] > 300 and forms[CiteForm.ID] > 30 and forms[CiteForm.SHORT] > 30
    assert resolved > (forms[CiteForm.ID] + forms[CiteForm.SHORT]) * 0.7


def test_bad_input_is_a_clear_error() -> None:
    with pytest.raises(InputError):
        extract_citations(b"bytes")  # type: ignore[arg-type]
    doc = Document("Roe v. Wade, 410 U.S. 113 (1973).")
    with pytest.raises(InputError, match="outside the document"):
        doc.apply_edits([Edit(start=5, end=999, new_text="x")])
    with pytest.raises(InputError):
        doc.apply_edits([Edit(start=3, end=2, new_text="x")])
    assert doc.text == "Roe v. Wade, 410 U.S. 113 (1973)."  # unchanged after a rejected edit


def test_empty_and_odd_text() -> None:
    assert extract_citations("").citations == ()
    assert extract_citations("   \n\n ").citations == ()
    assert extract_citations("eyecite").citations == ()  # eyecite's joke citation "1 FLP 1" is not ours
    assert extract_citations("\x00\ufffd" * 50).citations == ()


def test_edits_apply_in_order_with_lsp_semantics() -> None:
    text = "See Roe v. Wade, 410 U.S. 113 (1973)."
    doc = Document(text)
    y = text.index("73")
    ex = doc.apply_edits([Edit(start=0, end=3, new_text="Cf."), Edit(start=y, end=y + 2, new_text="74")])
    assert doc.text == "Cf. Roe v. Wade, 410 U.S. 113 (1974)."
    assert ex == extract_citations(doc.text) and ex.citations[0].year == 1974


@pytest.fixture
def extracted(monkeypatch) -> list[str]:
    """The paragraph texts a ``Document`` extracts (not those it takes over), in order."""
    import citecheck.extract.incremental.document as document

    calls: list[str] = []
    real = document.extract_paragraph

    def counting(text: str):
        calls.append(text)
        return real.__wrapped__(text)

    counting.__wrapped__ = counting  # type: ignore[attr-defined]
    monkeypatch.setattr(document, "extract_paragraph", counting)
    return calls


def test_document_reuses_unchanged_paragraphs(extracted) -> None:
    calls = extracted
    text = "Roe v. Wade, 410 U.S. 113 (1973).\n\nSome text.\n\nId. at 116."
    doc = Document(text)
    calls.clear()
    s = text.index("Some")
    ex = doc.apply_edits([Edit(start=s, end=s + 4, new_text="Other")])
    assert calls == ["Other text."]
    assert ex.citations[1].antecedent == 0 and ex.citations[1].span.start == doc.text.index("Id.")


def test_a_paragraph_repeated_is_extracted_once(extracted) -> None:
    """A Replace All that makes thousands of paragraphs alike (or a heading, a signature block repeated)
    extracts each distinct text once per re-split, not once per paragraph (issue 26: 20,000 changes in a
    1.86 MB document cost 6.6 s of server CPU, most of it extracting the same line 20,217 times)."""
    calls = extracted
    line = "The court held in Savage v. Parks, 100 A.2d 450, 451 (1953), that id. controls the deposit."
    text = "\n".join([line] * 300)
    doc = Document(text)
    assert calls == [line]
    calls.clear()
    replaced = text.replace("id.", "Id.")
    doc.apply_edits([Edit(start=0, end=len(text), new_text=replaced)])
    assert calls == [line.replace("id.", "Id.")]
    assert doc.extraction == extract_citations(replaced)
    assert len(doc.extraction.citations) == 600


_TEXT = st.sampled_from(
    [
        "",
        " ",
        "\n",
        "\n\n",
        "\r\n",
        "x",
        ".",
        "Id. at 5",
        ", 410 U.S. 113",
        "Roe v. Wade",
        " (3d Cir. 1999)",
        "\u2013",
        "\u00a0",
        '"',
        "*",
    ]
)


@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(data=st.data())
def test_random_edits_equal_full_extraction(limits, bulk_opinions, data) -> None:
    i = data.draw(st.integers(0, len(bulk_opinions) - 1), label="opinion")
    base = bulk_opinions[i]
    start = data.draw(st.integers(0, max(0, len(base) - 6000)), label="window")
    text = base[start : start + 6000]  # a window keeps each example fast
    doc = Document(text)
    assert doc.extraction == extract_citations(text)
    for _ in range(data.draw(st.integers(1, 4), label="rounds")):
        edits = []
        cur = len(doc.text)
        for _ in range(data.draw(st.integers(1, 3), label="n")):
            a = data.draw(st.integers(0, cur), label="a")
            b = data.draw(st.integers(a, min(cur, a + data.draw(st.integers(0, 40), label="len"))), label="b")
            new = data.draw(st.one_of(_TEXT, st.text(max_size=12)), label="new")
            edits.append(Edit(start=a, end=b, new_text=new))
            cur += len(new) - (b - a)
        got = doc.apply_edits(edits)
        assert doc._paragraphs == split_paragraphs(doc.text)
        assert got == extract_citations(doc.text)


def test_pathological_text_is_handled() -> None:
    assert len(extract_citations("Id. at 5. " * 2000).citations) == 2000
    assert extract_citations("A. " * 5000).citations == ()
    assert extract_citations("(" * 1400 + "Roe v. Wade, 410 U.S. 113" + ")" * 1400).citations[0].page == "113"
    extract_citations("(" * 5000 + "Roe v. Wade, 410 U.S. 113" + ")" * 5000)  # cut somewhere; must not fail


def test_incremental_resolution_across_many_paragraphs(limits) -> None:
    """Edits that change, keep, split and merge what later short forms resolve to."""
    paras = [
        "Roe v. Wade, 410 U.S. 113 (1973). Doe v. Bolton, 410 U.S. 179 (1973).",
        "Text. Roe, 410 U.S. at 116. Id. at 117.",
        "More text. Doe, supra, at 181. Roe at 120.",
        "> A block quote here.",
        "Id.",
        "Casey v. Planned Parenthood, 505 U.S. 833 (1992). Casey, 505 U.S. at 846.",
        "Id. at 850. Roe, supra, at 153. Bolton at 190.",
    ]
    text = "\n\n".join(paras)
    doc = Document(text)
    assert doc.extraction == extract_citations(text)

    def edit(old: str, new: str, nth: int = 0) -> None:
        at = -1
        for _ in range(nth + 1):
            at = doc.text.index(old, at + 1)
        got = doc.apply_edits([Edit(start=at, end=at + len(old), new_text=new)])
        assert got == extract_citations(doc.text), (old, new)

    edit("Roe v. Wade", "Rowe v. Wade")  # later "Roe" short forms change resolution
    edit("Rowe v. Wade", "Roe v. Wade")
    edit("Text.", "Text, longer now.")  # same resolution, offsets move
    edit("\n\n", "\n\n\n\n", 2)  # more blank lines
    edit("More text.", "More text.\n\nSplit here.")  # a new paragraph
    edit("\n\nSplit here.", " Joined.")  # merged again
    edit("> A block quote here.", "Not a block quote.")
    edit("Id.", "", 1)  # an Id. disappears
    edit("410 U.S. 179", "410 U.S. 180")
    assert [c.antecedent for c in doc.extraction.citations if c.form is CiteForm.SUPRA] == [
        c.antecedent for c in extract_citations(doc.text).citations if c.form is CiteForm.SUPRA
    ]


_PIECES = st.sampled_from(
    [
        "\n",
        "\n\n",
        "\r\n",
        "\r",
        " ",
        "\t",
        "x",
        "Id. at 5.",
        "Roe v. Wade, 410 U.S. 113 (1973).",
        "\u2028",
        "\v",
    ]
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    parts=st.lists(_PIECES, min_size=1, max_size=40),
    edits=st.lists(st.tuples(st.floats(0, 1), st.integers(0, 6), _PIECES), min_size=1, max_size=8),
)
def test_single_edits_resplit_locally_like_a_full_split(limits, parts, edits) -> None:
    """One edit at a time (the LSP case) re-splits only around the edit; it must equal a full split."""
    doc = Document("".join(parts))
    for frac, length, new in edits:
        a = int(frac * len(doc.text))
        b = min(len(doc.text), a + length)
        doc.apply_edits([Edit(start=a, end=b, new_text=new)])
        assert doc._paragraphs == split_paragraphs(doc.text)
        assert doc.extraction == extract_citations(doc.text)


def test_single_edits_in_long_paragraphs(limits, bulk_opinions) -> None:
    from citecheck.extract.paragraphs import MAX_PARAGRAPH

    text = next(t for t in bulk_opinions if max(len(p) for p in t.split("\n\n")) > MAX_PARAGRAPH)
    doc = Document(text)
    for k in range(40):
        pos = (k * 7919) % len(doc.text)
        doc.apply_edits([Edit(start=pos, end=pos, new_text="\n" if k % 3 == 0 else "x")])
        assert doc._paragraphs == split_paragraphs(doc.text)
    assert doc.extraction == extract_citations(doc.text)


def test_code_point_offsets_with_astral_characters_and_crlf() -> None:
    text = (
        "\U0001f600\U0001f4da Intro.\r\n\r\n"
        "\u201cQuoted,\u201d *Roe v.\u00a0Wade*, 410 U.S. 113, 116\u201317 (1973).\r\nId. at 120."
    )
    ex = extract_citations(text)
    _check_spans(text, ex)
    roe, id_ = ex.citations
    assert text[roe.span.start : roe.span.end] == "410 U.S. 113"
    assert roe.case_name.text == "Roe v. Wade" and roe.quotes[0].text == "Quoted,"  # whitespace cleaned
    assert id_.antecedent == 0 and id_.pincite.text == "120"


@settings(
    max_examples=30,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(data=st.data())
def test_lazy_view_answers_like_the_full_tuple(limits, bulk_opinions, data) -> None:
    """``Document.extraction`` builds citations per paragraph on demand; every way of asking for one
    (by index, by offset, by span, its antecedent) answers as the full extraction of the text does."""
    from citecheck.extract.incremental.view import DocumentExtraction

    base = bulk_opinions[data.draw(st.integers(0, len(bulk_opinions) - 1), label="opinion")]
    start = data.draw(st.integers(0, max(0, len(base) - 5000)), label="window")
    doc = Document(base[start : start + 5000])
    for _ in range(data.draw(st.integers(1, 4), label="rounds")):
        cur = len(doc.text)
        a = data.draw(st.integers(0, cur), label="a")
        b = data.draw(st.integers(a, min(cur, a + 20)), label="b")
        doc.apply_edits(
            [Edit(start=a, end=b, new_text=data.draw(st.one_of(_TEXT, st.text(max_size=5)), label="new"))]
        )
        lazy, full = doc.extraction, extract_citations(doc.text)
        assert isinstance(lazy, DocumentExtraction)
        for c in full.citations:
            assert lazy.citation(c.index) == c
            assert lazy.resolved(c) == full.resolved(c)
        for offset in {data.draw(st.integers(0, len(doc.text)), label="at") for _ in range(5)}:
            assert lazy.at(offset) == full.at(offset)
            hits = [
                c for c in full.citations if c.full_span.start <= offset + 3 and offset <= c.full_span.end
            ]
            assert lazy.touching(offset, offset + 3) == hits
        assert lazy == full and lazy.citations == full.citations


def test_typing_inside_case_names_resolves_later_short_forms_again(limits) -> None:
    """A keystroke in a case name changes only the names of its full citation: later paragraphs stay in
    step unless one of their name lookups (short form, supra, "Name at N") answers differently."""
    first = "Smith v. Jones, 33 F.3d 1 (3d Cir. 1990); Doe v. Roe, 34 F.3d 5 (3d Cir. 1991)."
    rest = [
        "Nothing here to resolve.",
        "Smith, 33 F.3d at 2.",
        "Jones, supra, at 3.",
        "Later, Roe at 6 says more.",
        "Id. at 7.",
        "Doe, 34 F.3d at 8; Smyth, 33 F.3d at 4.",
    ]
    base = "\n\n".join([first, *rest])
    for at in range(len(first) + 1):
        for typed, cut in (("y", 0), ("", 1), ("x ", 0)):
            if cut and at >= len(first):
                continue
            doc = Document(base)
            doc.apply_edits([Edit(start=at, end=at + cut, new_text=typed)])
            assert doc.extraction == extract_citations(doc.text), (at, typed)
            # and back again, from the edited state
            doc.apply_edits([Edit(start=at, end=at + len(typed), new_text=base[at : at + cut])])
            assert doc.extraction == extract_citations(base), (at, typed, "undo")


def test_a_text_the_caller_already_made_is_used_only_when_it_is_the_edit_s() -> None:
    """The language server hands over the editor's text for a keystroke: taken as is when it is the
    edit applied (no copy of a long brief per key), ignored when it is not (the edit decides)."""
    base = "Roe v. Wade, 410 U.S. 113 (1973).\n\n" + "Plain words. " * 200 + "\n\nRoe, 410 U.S. at 116."
    at = base.index("Plain")
    edit = Edit(start=at, end=at, new_text="Doe v. Bolton, 410 U.S. 179. ")
    made = base[:at] + edit.new_text + base[at:]
    doc = Document(base)
    doc.apply_edits([edit], text=made)
    assert doc.text is made and doc.extraction == extract_citations(made)
    for wrong in (
        made.replace("Bolton", "Boltin"),  # differs at the edit
        made[:-4] + "117.",  # differs at the end
        "X" + made[1:],  # differs at the start
        made + " ",  # another length
    ):
        doc = Document(base)
        doc.apply_edits([edit], text=wrong)
        assert doc.text == made and doc.extraction == extract_citations(made)
