"""The fix-evaluation maker on the real corpus, and the scorer on fixes built by hand."""

from __future__ import annotations

from collections import Counter

from citecheck.checks.quote_match import OpinionIndex, locate
from citecheck.evaluation.corpus_samples import load_real_cases, load_samples
from citecheck.evaluation.fix_items import FIX_KINDS, INVENTIONS, make_fix_dataset
from citecheck.evaluation.fix_scoring import FixScores, FixTruth, apply_fix, edited_region, is_right
from citecheck.evaluation.scoring import parse_dataset
from citecheck.extract import extract_citations
from citecheck.findings import Fix, TextEdit
from citecheck.spans import Span
from citecheck_testing import shared_corpus_path


def test_fix_dataset_kinds_and_truths(imported_corpus) -> None:  # type: ignore[no-untyped-def]
    samples = load_samples(imported_corpus)
    real = load_real_cases(shared_corpus_path("citations", "legalcitebench-cases-A.jsonl"))
    rows = make_fix_dataset(samples, real, n=150, seed=3)
    assert rows == make_fix_dataset(samples, real, n=150, seed=3)  # reproducible
    kinds = Counter(r["fix"]["kind"] for r in rows)  # type: ignore[index]
    assert set(FIX_KINDS) <= set(kinds) and kinds["unknown-case"] and kinds["clean"]
    assert set(r["invention"] for r in rows if "invention" in r) == set(INVENTIONS)
    quoted = Counter(r["quoted"] for r in rows if "quoted" in r)
    assert quoted[True] > quoted[False] > 0  # a third state a proposition instead
    held = {str(c) for s in samples for c in s.record.citations}
    by_id = {s.record.id: s for s in samples}
    for r in rows:
        truth = r["fix"]
        text = str(r["text"])
        [cite] = [c for c in extract_citations(text).citations if c.form.value == "full"][:1] or [None]
        if truth["kind"] in FIX_KINDS:  # type: ignore[index]
            case = by_id[str(r["case"])]
            assert truth["citations"] == [str(c) for c in case.record.citations]  # type: ignore[index]
            if r["quoted"]:
                quote = text.split('"')[1].rstrip(".")
                if "..." not in quote and ". . ." not in quote and "[" not in quote:  # the meant case's words
                    assert locate(quote, OpinionIndex(case.opinion.text)) is not None
            else:
                assert '"' not in text  # a proposition, not a quotation: only name and citation decide
        if truth["kind"] == "invented-citation":  # type: ignore[index]
            [core] = r["hallucinations"]  # type: ignore[misc]
            assert core in text and core not in held  # no case we hold begins there
        if truth["kind"] == "wrong-citation":  # type: ignore[index]
            assert cite is not None and cite.cite_string in held
            assert cite.cite_string not in truth["citations"]  # type: ignore[index]
        if truth["kind"] == "unknown-case":  # type: ignore[index]
            assert truth["name"] is None and '"' not in text  # nothing but the name relates it


def test_scorer_judges_what_a_fix_makes_of_the_draft() -> None:
    text = 'He wrote "x y z." Savage v. Parks, 100 A.2d 457, 451 (1953).'
    truth = FixTruth(kind="invented-citation", name="Savage v. Parks", citations=("100 A.2d 450",))
    page = text.index("457")
    right = Fix(title="t", edits=(TextEdit(span=Span(page, page + 3), new_text="450"),))
    name = text.index("Savage v. Parks")
    wrong = Fix(
        title="w",
        edits=(
            TextEdit(span=Span(name, name + len("Savage v. Parks")), new_text="Pennsylvania R. v. Newmyer"),
            TextEdit(span=Span(page, page + 3), new_text="456"),
        ),
    )
    for fix, expected in ((right, True), (wrong, False)):
        fixed = apply_fix(text, fix)
        assert is_right(extract_citations(fixed), edited_region(text, fix), truth) is expected
    scores = FixScores()
    scores.add("a", truth, [(None, wrong)], [False], None)  # type: ignore[list-item]
    scores.add("b", truth, [(None, wrong), (None, right)], [False, True], True)  # type: ignore[list-item]
    scores.add("c", truth, [], [], None)
    c = scores.by_kind["invented-citation"]
    assert (c.items, c.offered, c.right, c.wrong_alone, c.right_first, c.clean_after) == (3, 2, 1, 1, 0, 1)
    assert "invented-citation" in scores.render()


def test_fix_truth_is_read_from_the_dataset_line() -> None:
    line = (
        '{"text": "t", "hallucinations": {}, "invention": "series",'
        ' "fix": {"kind": "invented-citation", "name": "A v. B", "citations": ["1 A.2d 1"]}}'
    )
    [ex] = parse_dataset([line])
    assert ex.fix == FixTruth(
        kind="invented-citation", name="A v. B", citations=("1 A.2d 1",), invention="series"
    )
    [plain] = parse_dataset(['{"text": "t", "hallucinations": {}}'])
    assert plain.fix is None
