"""``paragraph._only_citations`` (is a sentence citations alone?) reads the protected extents in order once
and the words lazily; it must answer as the plain reading does: every extent cut to the sentence and
sorted, every piece between them split into words."""

from __future__ import annotations

import random

from citecheck.extract.paragraph import _LETTER, _is_signal, _only_citations


def _plain(norm: str, sent: tuple[int, int], protected: list[tuple[int, int]]) -> bool:
    s, e = sent
    pos = s
    for lo, hi in sorted((max(a, s), min(b, e)) for a, b in protected if a < b and b > s and a < e):
        if hi <= pos:
            continue
        if lo > pos and any(_LETTER.search(w) and not _is_signal(w) for w in norm[pos:lo].split()):
            return False
        pos = hi
    return not any(_LETTER.search(w) and not _is_signal(w) for w in norm[pos:e].split())


def test_only_citations_answers_as_the_plain_reading() -> None:
    rng = random.Random(40)
    words = "See see, also, Cf. e.g., But (citing Roe ( ) ; , . 5 U.S. 12 -- \u2014 * _ x X\u00e9 \u00a7 1 at".split()
    answers = {True: 0, False: 0}
    for _ in range(20_000):
        norm = "".join(
            rng.choice(words) + rng.choice((" ", " ", "", "\n", "\u00a0", "  ")) for _ in range(14)
        )
        n = len(norm)
        protected = []
        for _ in range(rng.randrange(0, 6)):
            a = rng.randrange(0, n + 1)
            protected.append((a, min(n, a + rng.randrange(0, 30))))
        s = rng.randrange(0, n + 1)
        sent = (s, rng.randrange(s, n + 1))
        want = _plain(norm, sent, protected)
        assert _only_citations(norm, sent, sorted(protected)) is want, (norm, sent, protected)
        answers[want] += 1
    assert min(answers.values()) > 2_000  # both answers were compared often
