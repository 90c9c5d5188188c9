"""Two full citations of one first page are one case unless they name different parties, so a short
form of that volume resolves by the names of both: typing in one of the names must re-resolve it in
the keystroke machinery exactly as a fresh extraction does."""

from __future__ import annotations

import pytest

from citecheck.extract import Document, Edit, extract_citations

HEAD = (
    "Smith v. Jones, 5 F.3d 10 (1st Cir. 1993), held so.\n\n"
    "Text between. Smith v. Jones, 5 F.3d 10 (1st Cir. 1993).\n\n"
)
TAIL = "More text. 5 F.3d at 12. Id. at 13."
# with paragraphs between, the short form's paragraph lies in a run taken over at once (``affected_from``)
FILLER = "Filler paragraph one.\n\nFiller paragraph two.\n\nFiller three.\n\n"


@pytest.mark.parametrize("between", ["", FILLER], ids=["next", "after-a-run"])
def test_typing_in_a_same_page_name_re_resolves_the_short_form(limits, between: str) -> None:
    text = HEAD + between + TAIL
    doc = Document(text)
    assert doc.extraction.citations[2].antecedent == 1  # the same case twice: the later one
    for old, new in (("Smith", "Brown"), ("Jones", "Green"), ("Green", "Jones"), ("Brown", "")):
        at = doc.text.index(old, text.index("Text between"))
        got = doc.apply_edits([Edit(start=at, end=at + len(old), new_text=new)])
        assert got == extract_citations(doc.text), (old, new)
        if (old, new) == ("Jones", "Green"):  # "Brown v. Green" and "Smith v. Jones": two cases on page 10
            assert got.citations[2].antecedent is None
