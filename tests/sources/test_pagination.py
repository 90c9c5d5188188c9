import pytest

from citecheck.sources.models import CaseCite
from citecheck.sources.pagination import (
    derived_last_page,
    html_to_text,
    join_texts,
    page_maps,
    render_html,
)


def _marks(p):
    return [(p.text[m.offset : m.offset + 5], m.label, m.index) for m in p.markers]


def test_cap_page_label_anchor():
    p = html_to_text(
        '<p>before <a id="p37" href="#p37" data-label="37" data-citation-index="1" class="page-label">*37</a>after</p>'
    )
    assert p.text == "before after"
    assert _marks(p) == [("after", "37", 1)]


def test_harvard_page_number_and_merged_span_with_label():
    p = html_to_text(
        '<p>a <page-number citation-index="2" label="758">*758</page-number>b '
        '<span citation-index="1" class="star-pagination" label="533"> *533 </span>c</p>'
    )
    assert p.text == "a b c"
    assert [(m.label, m.index) for m in p.markers] == [("758", 2), ("533", 1)]


def test_columbia_and_generic_star_pagination():
    p = html_to_text(
        '<span class="star-pagination">*Page 758</span>x <span class="star-pagination">*9</span>y'
    )
    assert p.text == "x y"
    assert [m.label for m in p.markers] == ["758", "9"]


def test_anon_2020_second_scheme_is_dropped():
    p = html_to_text(
        '<span class="star-pagination" number="12" pagescheme="a">*12</span>x'
        '<span class="star-pagination" number="P3" pagescheme="b">*P3</span>y'
    )
    assert p.text == "xy"
    assert [m.label for m in p.markers] == ["12"]


def test_ny_bracket_stars_in_font_and_plain_text():
    p = html_to_text('<p><font color="FF0000">[*3]</font> One. [*4] Two.</p>')
    assert p.text == "One. Two."
    assert _marks(p) == [("One. ", "3", 1), ("Two.", "4", 1)]


def test_footnote_marks_and_scripts_dropped_entities_decoded():
    p = html_to_text('<p>place.<a class="footnotemark" href="#f1">1</a> A &amp; B<script>x()</script></p>')
    assert p.text == "place. A & B"


def test_blocks_become_single_newlines_and_whitespace_collapses():
    p = html_to_text("<section><p>  One\n   two </p>\n\n<p>three</p></section>")
    assert p.text == "One two\nthree"


def test_plain_text_without_markers():
    p = html_to_text("Plain opinion text\nwith no markers.")
    assert p.text == "Plain opinion text with no markers." and p.markers == ()


def test_join_shifts_markers_head_matter_first():
    head = html_to_text('<p>Head <span class="star-pagination">*2</span>matter</p>')
    body = html_to_text('<p>Body <span class="star-pagination">*3</span>text</p>')
    joined = join_texts([head, body])
    assert joined.text == "Head matter\nBody text"
    assert [(joined.text[m.offset :][:4], m.label) for m in joined.markers] == [("matt", "2"), ("text", "3")]


def test_derived_last_page_survives_real_anomalies():
    assert derived_last_page("124", ["126", "125"]) == "126"  # 592 S.E.2d 124: out of order
    assert derived_last_page("1119", ["1119"]) == "1119"  # repeats its first page
    assert derived_last_page("424", [str(p) for p in range(425, 447)]) == "446"  # source last page wrong
    assert derived_last_page("206", []) is None  # no markers for this reporter: unknown
    assert derived_last_page("10", ["x", "9", "50000"]) is None


def test_page_maps_per_citation_index():
    p = html_to_text(
        'a <span class="star-pagination" citation-index="2">*8</span>b <span class="star-pagination">*101</span>c'
    )
    cites = [
        CaseCite(volume="1", reporter="A.3d", page="100"),
        CaseCite(volume="2", reporter="Conn. App.", page="7"),
        CaseCite(volume="3", reporter="Md.", page="5"),  # no markers → no map (unverifiable, not page 5)
    ]
    maps = page_maps(p.markers, cites)
    assert [(m.reporter, m.first_page, m.starts) for m in maps] == [
        ("A.3d", "100", ((4, "101"),)),
        ("Conn. App.", "7", ((2, "8"),)),
    ]
    assert maps[0].page_at(0) == "100" and maps[0].page_at(4) == "101"


def test_one_page_case_without_markers_gets_a_map():
    maps = page_maps((), [CaseCite(volume="1", reporter="A.2d", page="5", last_page="5")])
    assert len(maps) == 1 and maps[0].page_at(10) == "5"


@pytest.mark.parametrize(
    "text",
    ["One two\nthree", "x", "a < b & c\nd"],
)
def test_render_round_trips(text):
    p = html_to_text(
        f'<p>{text[:1]}<span class="star-pagination" citation-index="2">*9</span>{text[1:]}</p>'.replace(
            "\n", "</p><p>"
        )
    )
    back = html_to_text(render_html(p.text, p.markers))
    assert back == p


def test_plain_text_field_is_not_html():
    from citecheck.sources.pagination import opinion_text

    p = opinion_text("plain_text", "If a < b and c > d,\nthen [*2] so.\n\n  Next   paragraph.")
    assert p.text == "If a < b and c > d, then so.\nNext paragraph."
    assert [(p.text[m.offset :][:2], m.label) for m in p.markers] == [("so", "2")]
    assert opinion_text("html", "<p>a &lt; b</p>").text == "a < b"


def test_many_stray_angle_brackets_stay_linear():
    import time

    from citecheck.sources.pagination import html_to_text

    t0 = time.perf_counter()
    p = html_to_text("<" * 200_000)
    assert time.perf_counter() - t0 < 5 and p.text.count("<") == 200_000
