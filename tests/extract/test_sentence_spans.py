"""``sentence_spans`` steps over the periods inside a citation by searching again from the citation's last
character: the sentences must be those of reading every match of the end pattern, as before."""

from __future__ import annotations

import random
from bisect import bisect_right

from citecheck.extract import sentences
from citecheck.extract.sentences import _END, _after_abbreviation, _outermost, sentence_spans, spans_between


def _every_match(norm: str, protected: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The sentences read from every match of ``_END`` (``finditer``), the way they were read before."""
    protected = _outermost(protected)
    starts = [p[0] for p in protected]
    cuts: list[int] = []
    for m in _END.finditer(norm):
        dot = m.start()
        i = bisect_right(starts, dot) - 1
        inside = i >= 0 and protected[i][0] <= dot < protected[i][1]
        if inside and dot != protected[i][1] - 1:
            continue
        if norm[dot] == "." and not inside and _after_abbreviation(norm, m.end()):
            continue
        cuts.append(m.end())
    return spans_between(norm, cuts)


def test_sentences_are_those_every_match_gives() -> None:
    rng = random.Random(4)
    pieces = [
        "U.S.",
        "v.",
        "Id.",
        "Inc.",
        "F.3d",
        "the",
        "Court",
        "held",
        "It",
        "...",
        ".'",
        '."',
        ".)",
        "?!",
        "!",
    ]
    pieces += [".", "?", "]", ")", "'", '"', "(", "A", "Smith", "12", "e.g.", "No."]
    tried = 0
    for _ in range(4_000):
        norm = ""
        for _ in range(rng.randrange(1, 40)):
            norm += rng.choice(pieces) + rng.choice(["", " ", " ", "  ", "\n"])
        protected = []
        for _ in range(rng.randrange(0, 6)):
            a = rng.randrange(len(norm) + 1)
            protected.append((a, min(len(norm), a + rng.randrange(1, 30))))
        # and spans that end right after a run of the pattern's punctuation
        for run in ("..", ".)", "?.", '."'):
            at = norm.find(run)
            if at > 0:
                protected.append((max(0, at - rng.randrange(0, 8)), at + len(run)))
        assert sentence_spans(norm, protected) == _every_match(norm, protected), (norm, protected)
        tried += 1
    assert tried == 4_000


def test_the_step_over_a_citation_is_taken() -> None:
    """The periods of a long citation are not each searched for (what the speed-up is)."""
    norm = "See Smith v. Jones, 1 U.S. 2, 3 F.3d 4 (S.D.N.Y. 1990). It held so. Then Id. at 5. Done."
    protected = [(4, 54)]  # through "1990)"
    calls = []
    real = sentences._END

    class Spy:
        def search(self, text: str, pos: int) -> object:
            calls.append(pos)
            return real.search(text, pos)

    sentences._END = Spy()  # type: ignore[assignment]
    try:
        got = sentence_spans(norm, protected)
    finally:
        sentences._END = real
    assert got == _every_match(norm, protected)
    assert 53 in calls  # searched again from the citation's last character
    assert len(calls) < len(list(real.finditer(norm))) + 1


def test_remembered_abbreviation_answers_are_those_read_afresh() -> None:
    """``_after_abbreviation`` remembers its answer by the word before the period: the sentences read with
    answers remembered from other texts are those read with none remembered."""
    rng = random.Random(12)
    pieces = [
        "U.S.",
        "v.",
        "Id.",
        "Inc.",
        "Co.)",
        "e.g.",
        "(1990).",
        "held.",
        "No.",
        "Dr.",
        "F.",
        "St.",
        "it.",
    ]
    pieces += ["The", "Court", "Smith", '"Yes."', "'", "Ill.", "pp.", "J.).", "A.", "said", "(Tex.", "12."]
    texts = [" ".join(rng.choice(pieces) for _ in range(rng.randrange(1, 30))) for _ in range(2_000)]
    fresh = []
    for t in texts:
        sentences._abbreviation_ends.clear()
        fresh.append(sentence_spans(t, []))
    assert [sentence_spans(t, []) for t in texts] == fresh
    assert fresh == [_every_match(t, []) for t in texts]
    assert len(sentences._abbreviation_ends) > 10
