"""Citations across line and page breaks (issue 41 item 1; issue 36's ``137 S Ct⏎1773``).

A PDF's text layer has a line break wherever the page wrapped a line, and its pages hold far more than
``MAX_PARAGRAPH`` characters with no blank line in them: such a paragraph used to be cut at every line
break, so a citation wrapped there (``Morales Feliciano v. Rullan, 303 F.3d⏎1, 7``) was two pieces and
neither a citation. The excerpts are real, from public-domain opinions as their PDFs' text layers give
them (doctor's RECAP test files, a Supreme Court slip opinion, an NLRB decision, a Missouri opinion),
typed here; the property: re-wrapping a real paragraph at ANY space finds the same citations, alone or
inside a page-long paragraph, and a blank line (a page break) at any space keeps every citation.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from citecheck.extract import CiteForm, Document, Edit, extract_citations
from citecheck.extract.paragraphs import MAX_PARAGRAPH, split_paragraphs

#: Calvary Chapel of Bangor v. Mills, No. 20-1507 (1st Cir. Dec. 22, 2020), slip op. 4 and n.2
CALVARY = (
    "It is common ground that subject matter jurisdiction cannot be conferred on a federal court by the "
    "parties' agreement alone.  See Espinal-Domínguez v. Puerto Rico, 352 F.3d 490, 495 (1st Cir. 2003).  "
    "We must, therefore, mount an independent inquiry into the existence vel non of appellate "
    'jurisdiction.  As a general rule, the jurisdiction of the court of appeals is limited to "appeals '
    'from . . . final decisions of the district courts."  28 U.S.C. § 1291.  Even if these circumstances '
    "qualified as a close call — and we do not believe that they do — our settled practice when confronted "
    'with borderline cases is to "resolve[] against immediate appealability."  Morales Feliciano v. '
    "Rullan, 303 F.3d 1, 7 (1st Cir. 2002)."
)
#: Jagels v. State (Mo. Ct. App. E.D.), doctor's missouri.pdf, pages 2–3
JAGELS = (
    "The motion court's findings and conclusions are presumptively correct and will be overturned only "
    "when the court, after reviewing the entire record, is left with a “definite and firm impression that "
    "a mistake has been made.”  Vaca v. State, 314 S.W.3d 331, 334 (Mo. banc 2010).  A movant must show "
    "that, but for counsel's ineffective assistance, he would have not pleaded guilty and instead would "
    "have insisted on going to trial.  May v. State, 309 S.W.3d 303, 306 (Mo. App. E.D. 2010)."
)
#: Aggregate Industries (NLRB ALJ supplemental decision, 2014), itstriz/nlrb-pdfliberation sample4.pdf
NLRB = (
    "Once the General Counsel satisfies that burden of production, the respondent has the ultimate burden "
    "of proving that the discriminatee did not mitigate damages by using reasonable diligence in seeking "
    "alternate employment.  Id. at 964.  Notably, the test for mitigation is not measured by a "
    "discriminatee's success in gaining employment, but rather by the efforts made to seek work.  Lorge "
    "School, 355 NLRB No. 94, slip op. at 3 (2010); see also id. at 3–4."
)
#: Tarrant Regional Water Dist. v. Herrmann, 569 U. S. 614 (2013), syllabus (doctor's vector.pdf)
TARRANT = (
    "The sovereign States possess an “absolute right to all their navigable waters and the soils under "
    "them for their own common use.” Martin v. Lessee of Waddell, 16 Pet. 367, 410.  So, for example, a "
    "court must begin with a strong presumption against defeat of a State's title.  United States v. "
    "Alaska, 521 U. S. 1, 34.  Tarrant identifies one interstate compact, the Upper Niobrara River "
    "Compact, Pub. L. 91–52, 83 Stat. 86."
)
#: New York's official style, as the Appellate Division cites it in Aybar v Aybar, 169 AD3d 137 (2d Dept 2019)
AYBAR = (
    "The Supreme Court has since made clear that specific jurisdiction requires an affiliation between the "
    "forum and the underlying controversy (see Bristol-Myers Squibb Co. v Superior Ct. of Cal., San "
    "Francisco Cty., 582 US —, 137 S Ct 1773, 1780 [2017]; BNSF R. Co. v Tyrrell, 581 US —, 137 S Ct "
    "1549, 1558 [2017])."
)
#: 303 Creative LLC v. Elenis, 600 U.S. 570 (2023), slip op. 2 and 19 (CaseStrainer's test_files/test_case_2.pdf;
#: issue 41's second round): its PDF wraps section numbers after a dash (``§24–34–⏎306(9)``) and pin lists
#: after a comma (``at 571, ⏎578``); both were read cut (``§24–34`` as a RANGE of sections 24 to 34, the pin
#: as ``571``)
CREATIVE = (
    "Either state officials or private citizens may bring actions to enforce the law. §§24–34–306, "
    "24–34–602(1). And a variety of penalties can follow. Courts can order fines up to $500 per violation. "
    "§24–34–602(1)(a). The Colorado Commission on Civil Rights can issue cease-and-desist orders, "
    "§24–34–306(9), and require violators to take various other “affirmative action[s].” §24–34–605; "
    "§24–34–306(9). In particular, this Court has held, public accommodations statutes can sweep too "
    "broadly when deployed to compel speech. See, e.g., Hurley, 515 U. S., at 571, 578; Dale, 530 U. S., "
    "at 659."
)
REAL = [CALVARY, JAGELS, NLRB, TARRANT, AYBAR, CREATIVE]
_IDS = ["calvary", "jagels", "nlrb", "tarrant", "aybar", "creative"]

#: Prose lines (each a whole sentence, as a PDF's text layer gives a page) that make a paragraph longer
#: than ``MAX_PARAGRAPH``, so the real excerpt after them is read as part of a page, not on its own.
_PAGE = "The court considered the record as a whole and the arguments the parties made at the hearing.\n"


def _print(ex, shift: int = 0) -> list[tuple]:
    """What must not change when the text is wrapped differently: every citation's form, span, cite,
    pin, name, court and year (offsets moved back by ``shift``)."""
    return [
        (
            c.form,
            c.span.start - shift,
            c.span.end - shift,
            c.volume,
            c.reporter,
            c.page,
            None if c.statute is None else str(c.statute),
            None if c.pincite is None else " ".join(c.pincite.text.split()),
            None if c.case_name is None else " ".join(c.case_name.text.split()),
            c.court,
            c.year,
        )
        for c in ex.citations
    ]


def _spaces(text: str) -> list[int]:
    return [i for i, ch in enumerate(text) if ch == " "]


@pytest.mark.parametrize("excerpt", REAL, ids=_IDS)
def test_a_line_break_at_any_space_finds_the_same_citations(excerpt: str) -> None:
    want = _print(extract_citations(excerpt))
    assert len(want) >= 2
    for i in _spaces(excerpt):
        wrapped = excerpt[:i] + "\n" + excerpt[i + 1 :]
        assert _print(extract_citations(wrapped)) == want, repr(wrapped[max(0, i - 40) : i + 40])


def test_a_line_break_after_any_dash_of_a_section_number_keeps_the_section() -> None:
    """A slip opinion's line may end at any dash of ``24–34–306`` (the dash kept, often a space after it)."""
    want = _print(extract_citations(CREATIVE))
    sections = [p[6] for p in want if p[6]]
    assert sections == [
        "§§ 24-34-306, 24-34-602",
        "§ 24-34-602(1)(a)",
        "§ 24-34-306(9)",
        "§ 24-34-605",
        "§ 24-34-306(9)",
    ]
    dashes = [i for i, ch in enumerate(CREATIVE) if ch == "–"]
    for i in dashes:
        for cut in ("\n", " \n"):
            wrapped = CREATIVE[: i + 1] + cut + CREATIVE[i + 1 :]
            got = [(p[0], *p[3:7]) for p in _print(extract_citations(wrapped))]
            assert got == [(p[0], *p[3:7]) for p in want], repr(wrapped[max(0, i - 30) : i + 30])


def test_a_pin_list_wrapped_after_its_comma_keeps_its_pages() -> None:
    text = "See, e.g., Hurley, 515 U. S., at 571, \n578; Dale, 530 U. S., at 659."
    pins = [" ".join(c.pincite.text.split()) for c in extract_citations(text).citations if c.pincite]
    assert pins == ["571, 578", "659"]


@pytest.mark.parametrize("excerpt", REAL, ids=_IDS)
def test_inside_a_page_long_paragraph_too(excerpt: str) -> None:
    """A PDF page: no blank line for thousands of characters. The excerpt wrapped at every 60th space
    or so, as a page wraps it, after enough prose to pass ``MAX_PARAGRAPH``."""
    prefix = _PAGE * (MAX_PARAGRAPH // len(_PAGE) + 2)
    want = _print(extract_citations(excerpt))
    for phase in range(0, 9):
        chars = list(excerpt)
        for k, i in enumerate(_spaces(excerpt)):
            if k % 9 == phase:
                chars[i] = "\n"
        page = prefix + "".join(chars) + "\n" + _PAGE * 3
        assert len(split_paragraphs(page)) > 1  # the page is cut, but never inside a citation
        got = [p for p in _print(extract_citations(page), len(prefix)) if p[1] >= 0]
        assert got == want, phase


def test_aybar_137_s_ct_1773_in_the_whole_opinion() -> None:
    """Issue 36: ``137 S Ct⏎1773`` was found in an excerpt but lost in the whole opinion (one paragraph
    of more than 3,000 characters, cut at every line break)."""
    text = _PAGE * 40 + AYBAR.replace("137 S Ct 1773", "137 S Ct\n1773") + "\n" + _PAGE * 10
    cites = [c for c in extract_citations(text).citations if c.form is CiteForm.FULL]
    assert [c.text for c in cites] == ["137 S Ct\n1773", "137 S Ct\n1549"] or [
        " ".join(c.text.split()) for c in cites
    ] == ["137 S Ct 1773", "137 S Ct 1549"]
    first = cites[0]
    assert (first.volume, first.reporter, first.page) == ("137", "S. Ct.", "1773")
    assert text[first.span.start : first.span.end] == first.text


# The shapes the issue found lost in real filings: a break after the volume (also in a short form),
# before the page, a parallel cite split, a series written with a space.
SHAPES = [
    (
        "Tex. Dep't of Family & Protective Servs. v. Sherry, 46 S.W.3d 857, 860 (Tex. 2001); see ",
        "46",
        "S.W.3d",
        "857",
    ),
    ("State v. Gregory, 158 Wn.2d 759, 147 P.3d 1201 (2006).", "158", "Wash. 2d", "759"),
    ("Gregory, 158 Wn.2d at 786.", "158", "Wash. 2d", None),
    ("In re Dependency of K.D.S., 176 Wn.2d 644, 294 P.3d 695 (2013).", "294", "P.3d", "695"),
    ("Walker v. Packer, 827 S.W.2d 833, 839 (Tex. 1992) (orig. proceeding).", "827", "S.W.2d", "833"),
    ("In re J.W., 645 S.W. 3d 726, 741 (Tex. 2022).", "645", "S.W.3d", "726"),
]


@pytest.mark.parametrize(("sentence", "volume", "reporter", "page"), SHAPES)
@pytest.mark.parametrize("brk", ["\n", "\n\n", "\n \n"])
def test_break_inside_the_citation(
    sentence: str, volume: str, reporter: str, page: str | None, brk: str
) -> None:
    """Every space inside the citation (volume, reporter, page) replaced by a line break or a blank
    line (a page break), alone and after a page of prose: the citation is still found."""
    whole = next(
        c for c in extract_citations(sentence).citations if (c.volume, c.reporter) == (volume, reporter)
    )
    inside = [i for i in _spaces(sentence) if whole.span.start < i < whole.span.end]
    assert inside
    for i in inside:
        for prefix in ("", _PAGE * 40):
            text = prefix + sentence[:i] + brk + sentence[i + 1 :]
            found = [
                c
                for c in extract_citations(text).citations
                if (c.volume, c.reporter) == (volume, reporter)
                and (page is None or c.page == page)
                and c.form is whole.form
            ]
            assert found, repr(text[len(prefix) :])
            assert text[found[0].span.start : found[0].span.end].split() == whole.text.split()


_PARAGRAPHS = st.sampled_from(REAL)
#: A page wraps no line shorter than this (the last of a paragraph aside): breaks this far apart at least
_LINE_MIN = 20


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(excerpt=_PARAGRAPHS, data=st.data())
def test_rewrapped_at_random_finds_the_same_cites_incrementally(excerpt: str, data) -> None:
    """Several breaks at once (a line's length apart), line breaks and blank lines, in a page-long
    paragraph: every citation is still found (its cite and form), and a ``Document`` edited into that
    text agrees with a fresh extraction of it."""
    spaces = _spaces(excerpt)
    picks = data.draw(st.lists(st.sampled_from(spaces), min_size=1, max_size=8, unique=True))
    picks = [i for k, i in enumerate(sorted(picks)) if k == 0 or i - sorted(picks)[k - 1] >= _LINE_MIN]
    kinds = data.draw(st.lists(st.sampled_from(["\n", "\n\n"]), min_size=len(picks), max_size=len(picks)))
    out, last = [], 0
    for i, brk in sorted(zip(picks, kinds, strict=True)):
        out.append(excerpt[last:i] + brk)
        last = i + 1
    wrapped = "".join(out) + excerpt[last:]
    prefix = _PAGE * 35
    text = prefix + wrapped

    def cites(ex):
        return sorted(
            (c.form, c.volume, c.reporter, c.page, None if c.statute is None else str(c.statute))
            for c in ex.citations
            if c.form in (CiteForm.FULL, CiteForm.STATUTE, CiteForm.UNRECOGNISED)
        )

    assert cites(extract_citations(text)) == cites(extract_citations(excerpt))
    doc = Document(prefix + excerpt)
    doc.apply_edits([Edit(start=len(prefix), end=len(prefix) + len(excerpt), new_text=wrapped)])
    assert _print(doc.extraction) == _print(extract_citations(text))


def test_a_docx_citation_cut_into_two_paragraphs_is_one(tmp_path) -> None:
    """Text pasted into Word from a PDF keeps the PDF's line ends as paragraph marks: the .docx reader
    joins Word's paragraphs with a blank line, so the citation's parts are two paragraphs of text; the
    blank line between a volume and its reporter and page goes on (item 1, ".docx")."""
    import docx

    from citecheck.inputs import read_input

    d = docx.Document()
    d.add_paragraph(
        "It is common ground that subject matter jurisdiction cannot be conferred by the parties."
    )
    d.add_paragraph("See Espinal-Domínguez v. Puerto Rico, 352")
    d.add_paragraph("F.3d 490, 495 (1st Cir. 2003).")
    path = tmp_path / "pasted.docx"
    d.save(str(path))
    doc = read_input(str(path))
    (c,) = [c for c in extract_citations(doc.text).citations if c.volume]
    assert (c.volume, c.reporter, c.page, c.year, c.court) == ("352", "F.3d", "490", 2003, "ca1")
    assert c.case_name is not None and c.case_name.text == "Espinal-Domínguez v. Puerto Rico"
    assert doc.text[c.span.start : c.span.end] == "352\n\nF.3d 490"


@pytest.mark.parametrize(
    ("text", "name"),
    [
        (
            "See Ander-\nson v. Liberty Lobby, Inc., 477 U.S. 242, 248 (1986).",
            "Anderson v. Liberty Lobby, Inc.",
        ),
        (
            "See Anderson v. Lib-\n   erty Lobby, Inc., 477 U.S. 242, 248 (1986).",
            "Anderson v. Liberty Lobby, Inc.",
        ),
        (  # Calvary Chapel v. Mills (1st Cir. 2020), a hyphenated name broken at its hyphen
            "alone.  See Espinal-\nDomínguez v. Puerto Rico, 352 F.3d 490, 495 (1st Cir. 2003).",
            "Espinal-Domínguez v. Puerto Rico",
        ),
    ],
)
def test_a_name_hyphenated_at_a_line_end_is_read_whole(text: str, name: str) -> None:
    """Hyphenation (item 1): before, the scan stopped at the broken word and the name lost its first
    party ("Liberty Lobby, Inc.", a name a corpus would call the wrong case's)."""
    (c,) = extract_citations(text).citations
    assert c.case_name is not None and c.case_name.text == name
    assert c.case_name.span.start == text.index(name.split("-")[0].split()[0][:4])
