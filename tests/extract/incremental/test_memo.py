"""The local-findings memo (``paragraph_findings``) gives exactly what a fresh check of the final text
gives, edit after edit."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from citecheck.config import Settings
from citecheck.extract import Document, Edit, extract_citations
from citecheck.extract.incremental.memo import LocalMemo, paragraph_findings
from citecheck.extract.incremental.view import DocumentExtraction
from citecheck.judge import check_locally, local_findings
from citecheck.visible import visible

PARAS = [
    "Umbrellas are no defence. Smith v. Jones, 33 Umbrella 422 (1986).",
    "The pin is reversed. Peyton v. District of Columbia, 100 A.2d 36, 40-38 (D.C. 1953).",
    "As held in id. at 4.",
    "See Roe, 410 U.S. at 116.",
    "Later still: Doe v. Roe, 12 F.4th 1 (2d Cir. 1890).",
    "Gratz v. Bollinger, 539 U. S. 244 (2003); Grutter v. Bollinger, 539 U. S. 306 (2003).",
    "Compare 539 U. S., at 250, with 539 U. S., at 2, and 541 U. S., at 3.",
    "Smith, supra, at 423; Nobody, supra, at 5.",
]
#: what typing does to a brief: letters, deleted characters, new citations, broken and joined paragraphs
PIECES = [
    "a",
    "",
    " supra note 3",
    "Id. at 7. ",
    "\n\n",
    "410 U.S. 113",
    ", 539 U. S., at 300",
    "v.",
    "1",
    "\n",
]


def _memo_local(extraction, settings: Settings, memo: LocalMemo):
    """What stage 1 shows: the memo's findings of this version, filtered."""
    return visible(paragraph_findings(extraction, memo, check_locally).findings(), settings)


def _fresh(text: str, settings: Settings):
    """A fresh full check of ``text``: a plain ``Extraction``, every citation checked, no memo."""
    return local_findings(extract_citations(text), settings)


def test_memo_changes_nothing_but_the_work(limits) -> None:
    text = "\n\n".join(PARAS * 6)
    doc, memo, settings = Document(text), LocalMemo(), Settings()
    assert isinstance(doc.extraction, DocumentExtraction)
    assert _memo_local(doc.extraction, settings, memo) == _fresh(text, settings)
    rng = random.Random(5)
    for step in range(60):
        at = rng.randrange(len(text))
        new = rng.choice(PIECES)
        end = at + (rng.randrange(1, 30) if new == "" and at < len(text) else 0)
        end = min(end, len(text))
        doc.apply_edits([Edit(start=at, end=end, new_text=new)])
        text = text[:at] + new + text[end:]
        with_memo = _memo_local(doc.extraction, settings, memo)
        assert with_memo == _fresh(text, settings), step
    assert memo


def test_memo_takes_unmoved_findings_over_as_the_same_objects() -> None:
    text = "\n\n".join(PARAS * 4)
    doc, memo, settings = Document(text), LocalMemo(), Settings()
    before = _memo_local(doc.extraction, settings, memo)
    end = len(text)  # typing at the very end moves nothing; only the text near the end is new
    doc.apply_edits([Edit(start=end, end=end, new_text=" More words.")])
    after = _memo_local(doc.extraction, settings, memo)
    assert after == before
    far = [(a, b) for a, b in zip(after, before, strict=True) if b.span.end < end - 400]
    assert far and all(a is b for a, b in far)
    # typing at the start moves every finding, by exactly the typed length
    doc.apply_edits([Edit(start=0, end=0, new_text="xy")])
    moved = _memo_local(doc.extraction, settings, memo)
    assert [f.span.shift(-2) for f in moved] == [f.span for f in before]


@settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(data=st.data())
def test_random_edit_sequences_equal_a_fresh_check(limits, data) -> None:
    paras = data.draw(st.lists(st.sampled_from(PARAS), min_size=1, max_size=10), label="paragraphs")
    text = "\n\n".join(paras)
    doc, memo, settings = Document(text), LocalMemo(), Settings()
    _memo_local(doc.extraction, settings, memo)
    for _ in range(data.draw(st.integers(1, 8), label="rounds")):
        edits = []
        cur = len(doc.text)
        for _ in range(data.draw(st.integers(1, 2), label="n")):
            a = data.draw(st.integers(0, cur), label="a")
            b = data.draw(st.integers(a, min(cur, a + data.draw(st.integers(0, 30), label="len"))), label="b")
            new = data.draw(st.one_of(st.sampled_from(PIECES + PARAS), st.text(max_size=6)), label="new")
            edits.append(Edit(start=a, end=b, new_text=new))
            cur += len(new) - (b - a)
        doc.apply_edits(edits)
        assert _memo_local(doc.extraction, settings, memo) == _fresh(doc.text, settings)


def test_text_beside_a_paragraph_is_read_again() -> None:
    """A short form's finding depends on the words just after it, which may open the next paragraph."""
    text = "Intro.\n\nSee 541 U. S., at 3\n\nMore text here."
    doc, memo, settings = Document(text), LocalMemo(), Settings()
    (first,) = _memo_local(doc.extraction, settings, memo)
    at = text.index("More")
    doc.apply_edits([Edit(start=at, end=at, new_text="supra note 3 ")])
    (now,) = _memo_local(doc.extraction, settings, memo)
    assert (
        now == _fresh(doc.text, settings)[0]
        and now.message != first.message
        and "parallel pin" in now.message
    )


def test_a_citation_added_before_renumbers_later_findings_without_checking_them_again(monkeypatch) -> None:
    import citecheck.judge as judge_module

    paras = [
        p for p in PARAS if "Compare" not in p and "See Roe" not in p
    ]  # no unresolved reporter short forms
    text = "\n\n".join(paras * 5)
    doc, memo, settings = Document(text), LocalMemo(), Settings()
    _memo_local(doc.extraction, settings, memo)
    runs: list[int] = []
    real = judge_module.run_checks
    monkeypatch.setattr(
        judge_module, "run_checks", lambda checks, ctx: runs.append(ctx.citation.index) or real(checks, ctx)
    )
    doc.apply_edits([Edit(start=0, end=0, new_text="See Xyzzy v. Plugh, 999 F.2d 1 (1990). ")])
    got = _memo_local(doc.extraction, settings, memo)
    checked = set(runs)
    assert checked and checked <= {
        c.index for c in doc.extraction.citations if c.paragraph == 0
    }  # the edited one
    assert got == _fresh(doc.text, settings)


def test_an_unresolved_short_form_names_a_cite_added_before_it() -> None:
    """Its message lists the earlier cites of its volume: a renumbering edit that adds one must not
    carry the old message over."""
    text = "\n\n".join([PARAS[5], "Nothing here.", PARAS[6]])
    doc, memo, settings = Document(text), LocalMemo(), Settings()
    _memo_local(doc.extraction, settings, memo)
    doc.apply_edits([Edit(start=0, end=0, new_text="Foo v. Bar, 539 U. S. 100 (2003). ")])
    got = _memo_local(doc.extraction, settings, memo)
    assert got == _fresh(doc.text, settings) and any("539 U.S. 100" in f.message for f in got)
