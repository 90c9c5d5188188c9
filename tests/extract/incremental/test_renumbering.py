"""Citations added, removed, renamed or moved while later paragraphs refer back to earlier ones: the
incremental assembly (plans numbered from their own paragraph, references by record) must still equal
a fresh extraction of the text, and the local findings a fresh check's.

The paragraphs are written the way briefs cite: full cites (some parallel, some sharing a volume),
short forms with and without a name, ``supra``, ``Id.``, ``Name at N`` references, a block quote, a
string cite, and statutes with their short forms (``§ 1983``, ``Id. § 1988(b)``); the edits are the ones that
renumber everything after them (a citation typed or broken in the middle, a paragraph split or joined) and
those that change what a later short form finds.
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from citecheck.config import Settings
from citecheck.extract import Document, Edit, extract_citations
from citecheck.extract.incremental.memo import LocalMemo, paragraph_findings
from citecheck.judge import check_locally, local_findings
from citecheck.visible import visible

_PARAS = [
    "Roe v. Wade, 410 U.S. 113, 93 S. Ct. 705 (1973), held as much.",
    "Doe v. Bolton, 410 U.S. 179 (1973); see also Casey v. Planned Parenthood, 505 U.S. 833 (1992).",
    "The Court said so. Roe, 410 U.S. at 116. Id. at 117.",
    "Doe, supra, at 181. Roe at 120 adds more.",
    "Id.",
    "> A block quote that a citation below is offered for.",
    "Casey, 505 U.S. at 846; 410 U.S. at 190.",
    "Smith v. Jones, 33 F.3d 1 (3d Cir. 1990); Smith v. Jones, 33 F.3d 1 (3d Cir. 1990).",
    "Jones, 33 F.3d at 4. Smith, supra, at 5. Id. at 6.",
    "Plain prose with no citation at all, only words.",
    "Gratz v. Bollinger, 539 U.S. 244 (2003); Grutter v. Bollinger, 539 U.S. 306 (2003).",
    "539 U.S. at 328. Bollinger, 539 U.S. at 250.",
    "The claim arises under 42 U.S.C. \u00a7 1983 and 28 U.S.C. \u00a7\u00a7 1331, 1343(a)(3) (2018).",
    "Under \u00a7 1983, a person may sue. Id. \u00a7 1988(b). Id. See \u00a7 1343.",
    "Fla. Stat. \u00a7 768.28(9)(a) (2020); KRS 446.070; 17 C.F.R. \u00a7 240.10b-5.",
    "\u00a7 768.28 and \u00a7 240.10b-5(b) say more; Id. at 4.",
]

_TYPED = st.sampled_from(
    [
        "Roe v. Wade, 410 U.S. 113 (1973). ",
        "Doe v. Bolton, 410 U.S. 179. ",
        "Id. at 9. ",
        "Roe, 410 U.S. at 118. ",
        "Bolton, supra. ",
        "Smith v. Jones, 33 F.3d 1. ",
        "539 U.S. 300. ",
        "42 U.S.C. \u00a7 1983. ",
        "\u00a7 1983 ",
        "Id. \u00a7 1343(a). ",
        "\u00a7",
        " U.S.C. ",
        "28 U.S.C. \u00a7\u00a7 1331\u20131343 ",
        "Xyzzy v. Plugh, 999 F.2d 1 (1990). ",
        "\n\n",
        "a",
        "1",
        " v. ",
        "Wade",
        "",
    ]
)


def _fresh_local(text: str) -> list[tuple]:
    ex = extract_citations(text)
    return sorted(_key(f) for f in local_findings(ex, Settings()))


def _key(f) -> tuple:
    return (f.span.start, f.span.end, str(f.kind), f.message, f.citation_index)


@settings(
    max_examples=80,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(data=st.data())
def test_edits_that_renumber_equal_a_fresh_extraction(limits, data) -> None:
    order = data.draw(st.lists(st.integers(0, len(_PARAS) - 1), min_size=4, max_size=14), label="paragraphs")
    text = "\n\n".join(_PARAS[i] for i in order)
    doc, memo, settings_ = Document(text), LocalMemo(), Settings()
    paragraph_findings(doc.extraction, memo, check_locally)
    for _ in range(data.draw(st.integers(1, 6), label="rounds")):
        cur = len(doc.text)
        edits = []
        for _ in range(data.draw(st.integers(1, 2), label="edits")):
            a = data.draw(st.integers(0, cur), label="at")
            b = data.draw(
                st.integers(a, min(cur, a + data.draw(st.integers(0, 30), label="cut"))), label="to"
            )
            new = data.draw(_TYPED, label="typed")
            edits.append(Edit(start=a, end=b, new_text=new))
            cur += len(new) - (b - a)
        got = doc.apply_edits(edits)
        want = extract_citations(doc.text)
        assert got == want, doc.text
        for c in want.citations:  # asked one by one, as the editor does, before anything built them all
            assert got.citation(c.index) == c
        memoised = paragraph_findings(got, memo, check_locally).findings()
        assert sorted(_key(f) for f in visible(memoised, settings_)) == _fresh_local(doc.text), doc.text


def test_a_citation_typed_before_leaves_later_plans_as_they_were() -> None:
    """The plans after a new citation are the previous run's objects (nothing there is planned again),
    while every later citation is numbered one further on."""
    text = "\n\n".join(_PARAS * 3)
    doc = Document(text)
    before = doc.extraction
    plans = list(before.run.plans)  # type: ignore[attr-defined]
    at = text.index("The Court said so.")
    doc.apply_edits([Edit(start=at, end=at, new_text="Xyzzy v. Plugh, 999 F.2d 1 (1990). ")])
    run = doc.extraction.run  # type: ignore[attr-defined]
    edited = next(i for i, (s, e) in enumerate(run.paragraphs) if s <= at <= e)
    assert all(run.plans[i] is plans[i] for i in range(edited + 1, len(plans)))
    assert doc.extraction == extract_citations(doc.text)
    assert len(doc.extraction.citations) == len(before.citations) + 1


def test_a_citation_that_captures_later_short_forms_plans_them_again() -> None:
    """A new full cite of the volume a later short form names resolves that short form anew."""
    text = "\n\n".join(
        ["Prose first.", "Gratz v. Bollinger, 539 U.S. 244 (2003).", "More prose.", "539 U.S. at 328."]
    )
    doc = Document(text)
    assert doc.extraction.citations[-1].antecedent == 0
    at = text.index("More prose.")
    doc.apply_edits([Edit(start=at, end=at, new_text="Grutter v. Bollinger, 539 U.S. 306 (2003). ")])
    assert doc.extraction == extract_citations(doc.text)
    assert doc.extraction.citations[-1].antecedent == 1  # Grutter now holds page 328


def test_a_paragraph_joined_before_many_short_forms_is_planned_again_linearly(monkeypatch) -> None:
    """Joining two paragraphs moves every later paragraph, and short forms that reach back past the join
    must be planned again: the comparison of what changed gives up once it is larger than the planning
    it would save (it once compared every changed record with every later paragraph's lookups)."""
    import citecheck.extract.incremental.zone as zone_module

    paras = ["Roe v. Wade, 410 U.S. 113 (1973); Doe v. Bolton, 410 U.S. 179 (1973).", "Prose.", "More prose."]
    paras += [
        (
            "Plain prose between them."
            if i % 3 == 1
            else f"Case{i} v. Party{i}, {200 + i} F.3d {i + 1} (2001)."
            if i % 3 == 2
            else f"Case{i} v. Party{i}, {200 + i} F.3d {i + 1} (2001); Roe, 410 U.S. at {114 + i % 50}."
        )
        for i in range(600)
    ]  # every third paragraph reaches back past the join, prose between
    text = "\n\n".join(paras)
    doc = Document(text)
    calls = []
    real = zone_module._hits
    monkeypatch.setattr(zone_module, "_hits", lambda *a: calls.append(1) or real(*a))
    at = text.index("\n\nMore prose.")
    doc.apply_edits([Edit(start=at, end=at + 2, new_text=" ")])  # "Prose." and "More prose." joined
    assert doc.extraction == extract_citations(doc.text)
    assert len(calls) < 2_000, len(calls)


def test_the_comparison_gives_up_when_too_much_was_planned_again() -> None:
    """Past ``Thresholds.zone_records`` records planned again, every later paragraph counts as affected (planned
    again, as before numbering was relative), instead of comparing each changed record with each
    later paragraph's lookups (on a 300,000-word brief, a key that joined two paragraphs once spent
    20 s doing that)."""
    from citecheck.extract.incremental.lookups import LookupState
    from citecheck.extract.incremental.thresholds import active
    from citecheck.extract.incremental.zone import Queries, Zone

    text = "\n\n".join(
        f"Case{i} v. Party{i}, {200 + i} F.3d {i + 1} (2001)." for i in range(active().zone_records + 10)
    )
    run = Document(text).extraction.run  # type: ignore[attr-defined]
    st = LookupState(records_before=list(run.records_before), fulls=list(run.fulls))
    zone = Zone(run, st, Queries(), 0, 0)
    zone.planned(0, 0)  # every record, as if planned again
    assert zone.flooded
    assert not zone.unaffected(run.results[5], text, run.paragraphs[5][0], 5)
    assert zone.affected_from(run.results, run.paragraphs, text, 3, 3) == 3
