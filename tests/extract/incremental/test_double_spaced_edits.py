"""Double-spaced text under edits: whether a blank line ends a paragraph depends on the lines on either
side of it (``paragraphs._joins``), so an edit may turn the blank lines next to it from a paragraph end
into a line break or back. The local re-split around an edit must still split as the whole text would,
and the extraction equal a fresh one.

The lines are wrapped lines of a real double-spaced First Circuit opinion (CourtListener 150888) and
the edits are what changes their status: a line end typed or deleted, a period, a comma, a blank line,
a heading, a short line.
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from citecheck.extract import Document, Edit, extract_citations
from citecheck.extract.paragraphs import split_paragraphs

_LINES = st.sampled_from(
    [
        "abettors, on the one hand, and accessories after the fact, on the",
        "elements and a separate punishment. United States v. Avants, 367",
        "F.3d 433, 450 (5th Cir. 2004). One consequence of that enduring",
        'abetting a crime that already has been committed." United States',
        "v. Hamilton, 334 F.3d 170, 180 (2d Cir. 2003); SEC v. Papa, 555",
        "F.3d 31, 36 (1st Cir. 2009).",
        "in this case continued at least while Pérez was held hostage. See",
        'Papa, 555 F.3d at 36 n.3 ("[A] conspiracy generally ends when the',
        "Smart v. Tatum,",
        "541 U.S. 1085 (2004); Id. at 1086.",
        "II. DISCUSSION",
        "-6-",
        '23 indictment, other overlapping facts or issues may." Id. at 1043-',
        "24 44.",
        "12",
        "x",
    ]
)
_SEPS = st.sampled_from(["\n\n", "\n \n", "\r\n\r\n", "\n", "\n\n\n", "\n\n\n\n", " "])
_NEW = st.sampled_from(["", ".", ",", "\n", "\n\n", " ", "x", "v.", "\n\nII. DISCUSSION\n\n", "Id."])


@st.composite
def _double_spaced(draw: st.DrawFn) -> str:
    lines = draw(st.lists(_LINES, min_size=1, max_size=14))
    seps = [draw(st.one_of(st.just("\n\n"), _SEPS)) for _ in lines[1:]]
    return lines[0] + "".join(s + line for s, line in zip(seps, lines[1:], strict=True))


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    text=_double_spaced(),
    edits=st.lists(st.tuples(st.floats(0, 1), st.integers(0, 4), _NEW), min_size=1, max_size=8),
)
def test_single_edits_in_double_spaced_text_resplit_like_a_full_split(limits, text, edits) -> None:
    doc = Document(text)
    for frac, length, new in edits:
        a = int(frac * len(doc.text))
        b = min(len(doc.text), a + length)
        doc.apply_edits([Edit(start=a, end=b, new_text=new)])
        assert doc._paragraphs == split_paragraphs(doc.text)
        assert doc.extraction == extract_citations(doc.text)
