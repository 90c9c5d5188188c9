"""The tokenizer's shortcuts (``extract/tokenizer.py``) give eyecite's tokens, in eyecite's order.

``Tokenizer.tokenize`` does not list the extractors eyecite would try in eyecite's order: it orders only
the extractors of tokens with one span (``_rank``), and with ``every=False`` (what ``scan`` asks) it
leaves out the stop words and paragraph marks that cover no other token's start. Both are compared here
with the plain way, editions in the order the merge left them (``test_eyecite_adapter`` sorts them),
on real opinions, the bench brief, eyecite's edge cases and randomly changed text.
"""

from __future__ import annotations

import random
import sys
from itertools import pairwise
from pathlib import Path

from citecheck.extract.eyecite_adapter import _tokenizer, scan, spaced_ids
from citecheck.extract.normalise import normalise
from citecheck.extract.paragraphs import split_paragraphs
from citecheck.extract.tokenizer import _IGNORED_BY_HITS, Token, TokenKind
from citecheck_testing import shared_corpus_path

_EXTRA = (
    "See also Roe v. Wade, 410 U.S. 113; see v. re In re X, e.g., aff'd, (quoting id.), Cf. 5 U.S. 1.",
    "v. Smith, ___ U.S. ___ (2019); Bean, \u2014 Nev. \u2014, 398 P.2d 251; __ F.3d __; -- N.J. --; _ A.2d _",
    "Id. at 5; (Id. at p. 152.) (Ibid.) Id.; see also ibid., id. supra, Roe, supra, at 116; (supra) "
    "denied  granted\tdismissed\nremanded affirmed citing parte",
    "100 A.2d 1, 100 A. 2d 2, 100 A.\u20092d 3 and 100 P. 3d 4 (Cal. 2004); 33 Ga. 1; 25 Tex. 1; 1 Bald. C.C. 1.",
    "2019 WL 1396975, at *3; 2020 U.S. Dist. LEXIS 12345; 2020-Ohio-123; 2019 IL 123456; 2015 ME 12.",
    "Roe, 410 U.S., at 116; 539 U. S., at 339\u2013340; 12-34 Foo 5; 1 2 3 4 5 6 U.S. 7; 9 \u00a7 10; Cal. Penal Code.",
    "5 S.Ct. 3 and 5 S. Ct. 3, 5 S.Ct. at 4; 7 Misc. 3d 1 (N.Y. Sup. Ct. 2005); 12 N.Y.S.2d 4; 3 Ohio St. 3d 9.",
    # reporters whose abbreviation names several editions: one span's tokens merge their editions in order
    "See 5 Marsh. 10, and 7 Marsh. at 12; 3 Mon. 4; 2 Bailey 9; 4 Am. Negl. Cas. 5; 6 Mon. Rep. at 7.",
)


def _texts(bulk_opinions: tuple[str, ...]) -> list[str]:
    """Paragraphs as ``scan`` gives them to the tokenizer: real ones, the bench brief's, edge cases, and
    each of those changed at random (citation characters dropped, doubled, swapped in)."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
    try:
        from brief import build_brief
    finally:
        sys.path.pop(0)
    # the bench brief is made of the shared corpus's sentences, and the counts asserted need it: skipped
    # (with the reason) on a clone with nothing beside it
    shared_corpus_path("courtlistener-bulk", "opinions.csv")
    texts = list(_EXTRA)
    for text in (*bulk_opinions[:25], build_brief(words=6_000, citations=200)):
        texts += [text[s:e] for s, e in split_paragraphs(text)]
    rng = random.Random(40)
    for text in list(texts[:300]):
        chars = list(text)
        for _ in range(max(1, len(chars) // 40)):
            k = rng.randrange(len(chars))
            chars.insert(k, rng.choice(" .,;()-\nvid.supra 12 U.S. at F.3d Cal. Id."))
        texts.append("".join(chars))
    return [spaced_ids(normalise(t)) for t in texts if t.strip()]


def _as_written(tokens: list[Token]) -> list[tuple[object, ...]]:
    """Every field of each token but the extractor that made it, editions in their merged order."""
    return [(t.kind, t.start, t.end, sorted(t.groups.items()), t.short, t.exact, t.variation) for t in tokens]


def test_rank_orders_extractors_as_eyecites_prefilter_does(bulk_opinions) -> None:
    tokenizer = _tokenizer()
    checked = 0
    for text in _texts(bulk_opinions):
        chosen = tokenizer.extractors_for(text)
        stripped = "".join(text.split())
        shuffled = chosen[::-1]
        assert sorted(shuffled, key=lambda i: tokenizer._rank(i, stripped)) == chosen, text[:200]
        checked += len(chosen)
    assert checked > 10_000


def test_tokens_in_the_order_eyecite_tries_its_extractors(bulk_opinions) -> None:
    """Each extractor's matches found every way, then sorted as eyecite sorts them (stably, the extractors
    in ``extractors_for``'s order): the same tokens, and one span's tokens merged in the same order."""
    tokenizer = _tokenizer()
    ties = 0
    for text in _texts(bulk_opinions):
        tokenizer.narrow = False
        try:
            plain = tokenizer.tokenize(text)
        finally:
            tokenizer.narrow = True
        ours = tokenizer.tokenize(text)
        assert _as_written(ours) == _as_written(plain), text[:200]
        ordered = tokenizer._ordered_tokens(text, True)
        ties += sum(
            (a.start, a.end) == (b.start, b.end) and a.extractor != b.extractor for a, b in pairwise(ordered)
        )
    assert ties > 500  # tokens of one span from several extractors were ordered


def test_stop_words_left_out_only_where_they_change_nothing(bulk_opinions) -> None:
    tokenizer = _tokenizer()
    left_out = 0
    for text in _texts(bulk_opinions):
        every = tokenizer.tokenize(text)
        for_hits = tokenizer.tokenize(text, every=False)
        assert _as_written([t for t in for_hits if t.kind not in _IGNORED_BY_HITS]) == _as_written(
            [t for t in every if t.kind not in _IGNORED_BY_HITS]
        ), text[:200]
        assert all(t in every for t in for_hits)
        left_out += len(every) - len(for_hits)
    assert left_out > 1_000  # the shortcut was taken


def test_a_stop_word_over_a_tokens_start_still_drops_it() -> None:
    """eyecite sorts a stop word before a token that starts inside it, and drops that token: ``scan`` keeps
    such a stop word to drop it too. eyecite's ``e.g.`` is unescaped (any character for the periods), so
    ``e g§.`` is a stop word, and the section token ``g§.`` starts inside it (the ``v`` elsewhere makes
    eyecite's prefilter try the stop words at all)."""
    tokenizer = _tokenizer()
    text = "Roe v. Wade, e g§. 5"
    for_hits = tokenizer.tokenize(text, every=False)
    assert [(t.kind, t.start, t.end) for t in for_hits] == [(TokenKind.STOP_WORD, 13, 18)]
    assert [(t.kind, t.start) for t in tokenizer.tokenize(text)] == [
        (TokenKind.STOP_WORD, 4),
        (TokenKind.STOP_WORD, 13),
    ]
    assert scan(text) == []
    assert [h.start for h in scan("Roe, e g§. 5")] == [7]  # no stop word chosen: the section is a hit


def test_stop_words_never_cover_a_volume_an_id_or_a_supra_on_random_text() -> None:
    """``Tokenizer._all_clear`` leaves the stop words unread where every other token is a citation opening
    with its volume, an ``Id.`` or a ``supra``: on text made of stop words, their neighbours (``e.g.``'s
    dots match anything, ``in re`` and ``see also`` hold a space), punctuation and citations, the tokens
    for the hits are those of the full reading, and the shortcut was taken on most texts."""
    tokenizer = _tokenizer()
    pieces = (
        "v. in re In Re see also See e.g. e g eg5 e5g E.G. exg§ aff'd (quoting (citing Cf. cf re- -re "
        "id. Id., ibid. (Id.) supra supra, (supra) 5 U.S. 1 410 U.S. at 5 §5 § 1983 Cal. Penal Code "
        "2020-Ohio-12 ( ) [ ] , . ; - — ___ x 12 1. 5."
    ).split(" ")
    rng = random.Random(41)
    clear = 0
    for _ in range(4_000):
        text = "".join(rng.choice(pieces) + rng.choice((" ", " ", "  ", "", "\n", "\t")) for _ in range(12))
        tokens = [t for t in tokenizer.tokenize(text) if t.kind not in _IGNORED_BY_HITS]
        for_hits = tokenizer.tokenize(text, every=False)
        assert _as_written([t for t in for_hits if t.kind not in _IGNORED_BY_HITS]) == _as_written(tokens), (
            text
        )
        clear += tokenizer._all_clear(text, tokens)
    assert clear > 1_000


def test_ties_left_in_any_order_resolve_alike_in_every_order(bulk_opinions) -> None:
    """``_order_free`` runs (one span, not ordered by rank): every order of the run resolves to the same
    tokens, editions in the same order (the run's members copied, since merging changes them)."""
    import copy
    from itertools import permutations

    from citecheck.extract.tokenizer import _order_free

    tokenizer = _tokenizer()
    free = mixed = 0
    for text in _texts(bulk_opinions):
        ordered = tokenizer._ordered_tokens(text, True)
        k = 0
        while k < len(ordered):
            j = k + 1
            while j < len(ordered) and (ordered[j].start, ordered[j].end) == (
                ordered[k].start,
                ordered[k].end,
            ):
                j += 1
            if j - k > 1 and _order_free(ordered, k, j):
                free += 1
                results = {
                    repr(_as_written(tokenizer.resolved([copy.copy(t) for t in run])))
                    for run in permutations(ordered[k:j])
                }
                assert len(results) == 1, (text[:200], results)
            elif j - k > 1:
                mixed += 1
            k = j
    assert free > 300 and mixed > 0


def test_short_and_full_forms_told_apart_before_trying_them() -> None:
    """``_volume_tokens`` tries a reporter's short-form regex only where "at" (a comma aside) follows the
    reporter, and its full one only where a page's first character does (``_follows``): on text made of
    volumes, reporters, commas, "at", pages (digits of any script, roman numerals, "_"), other words and
    whitespace (the window after a number runs out inside such text), the tokens are the plain way's."""
    tokenizer = _tokenizer()
    pieces = (
        "5 12 410 U.S. U. S. N.W.2d N.W. 2d N.W. F. Supp. 2d F.Supp.2d So. 3d S. Ct. P.3d A. Cal. Rptr. 3d "
        "at at* , ,at a 116 \u0664\u0665 xii cl iv v lv _ __ x c p. page (2019) Id. ; . ( ) d e atx 3d Ga. App."
    ).split(" ")
    # whole citations: a comma before "at" or the page, pages opening with each letter a roman numeral can,
    # a reporter long enough that what follows it is not in the first window read after the number
    whole = (
        "410 U.S., at 5|5 N.W.2d, 12|5 So. 3d, at xii|5 P.3d at vi|5 A. v|5 F.3d iv|5 F.3d vi|5 U.S. lv|5 U.S. _|"
        "5 Cal. Rptr. 3d at 7|5 Cal. Rptr. 3d, at 7|5 Cal. Rptr. 3d 7|5 F. Supp. 2d, at cl|5 F.3d\nat 3|"
        "5 S. Ct. \u0664\u0665|5 N.W.2d ,at 4|5 N.W.2d,at 4|5 Ga. App. at"
    ).split("|")
    rng = random.Random(42)
    pruned = 0
    for k in range(6_000):
        text = "".join(
            rng.choice(whole if k % 2 and rng.random() < 0.5 else pieces)
            + rng.choice((" ", " ", "", "\n", "  "))
            for _ in range(10)
        )
        tokenizer.narrow = False
        try:
            plain = tokenizer.tokenize(text)
        finally:
            tokenizer.narrow = True
        assert _as_written(tokenizer.tokenize(text)) == _as_written(plain), text
    for path, (_ends, chosen) in tokenizer._after_volume_plans.items():
        every = tokenizer._path_extractors(path)
        pruned += sum(len(ids) < len(every) for ids in chosen.values())
    assert pruned > 50  # the shortcut was taken
