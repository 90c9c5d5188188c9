from __future__ import annotations

from citecheck.extract.eyecite_adapter import HitKind, scan, spaced_ids
from citecheck.extract.normalise import normalise


def test_scan_kinds_and_editions() -> None:
    text = normalise(
        "See Roe v. Wade, 410 U. S. 113. Id. at 5. Roe, 410 U.S. at 120. Roe, supra. 42 U.S.C. \u00a7 1983. "
        "2019 WL 1396975; 2020 U.S. Dist. LEXIS 12345; 585 U.S. ___; 678 F.Supp.3d 443."
    )
    hits = scan(text)
    kinds = [h.kind for h in hits]
    assert kinds == [HitKind.CASE, HitKind.ID, HitKind.SHORT, HitKind.SUPRA, HitKind.LAW] + [HitKind.CASE] * 4
    assert (hits[4].law, dict(hits[4].groups)) == (
        "U.S.C.",
        {"title": "42", "reporter": "U.S.C.", "section": "1983"},
    )
    assert (hits[0].reporter, hits[0].reporter_as_written, hits[0].scotus) == ("U.S.", "U. S.", True)
    assert hits[2].page == "120"
    assert [h.database for h in hits[5:7]] == ["WL", "LEXIS"]
    assert hits[7].page is None
    assert hits[8].reporter == "F. Supp. 3d"


def test_bracketed_and_semicolon_ids_are_tokens() -> None:
    """California style "(Id. at p. 152.)", "(Ibid.)", "(Id.)" and "Id.; see also" are Id. tokens
    (eyecite's own regex wants whitespace on both sides and misses them); spans index the text."""
    text = "(Id. at p. 152.) So (Ibid.) so (Id.) so Id.; see also [Id. at 3.] so Ibid., at 4."
    hits = scan(normalise(text))
    assert [text[h.start : h.end] for h in hits] == ["Id.", "Ibid.", "Id.", "Id.", "Id.", "Ibid."]
    assert all(h.kind is HitKind.ID for h in hits)
    assert scan("Idaho (Idem.) David.") == []


def test_faster_extractor_selection_finds_exactly_what_eyecite_finds(bulk_opinions) -> None:
    """Our tokenizer subclass skips word splitting and de-duplicates extractors by identity; on real
    opinions it must return the same citation tokens as eyecite's own Aho-Corasick tokenizer."""
    from eyecite.tokenizers import AhocorasickTokenizer

    stock = AhocorasickTokenizer()
    for text in bulk_opinions[:12]:
        norm = normalise(text)
        _, theirs = stock.tokenize(spaced_ids(norm))
        ours = scan(norm)
        assert [(h.start, h.end) for h in ours] == [
            (t.start, t.end)
            for _, t in theirs
            if type(t).__name__ in ("CitationToken", "IdToken", "SupraToken", "SectionToken")
        ]


def _tokens(tokenizer, text: str, *, narrow: bool) -> list[tuple]:
    """Our table tokenizer's tokens, as comparable tuples (editions by name, sorted: eyecite merges two
    regexes' editions in its extractor set's order, which changes with the hash seed)."""
    from citecheck.extract.tokenizer import TokenKind

    names = {
        TokenKind.CITATION: "CitationToken",
        TokenKind.ID: "IdToken",
        TokenKind.SUPRA: "SupraToken",
        TokenKind.PARAGRAPH: "ParagraphToken",
        TokenKind.STOP_WORD: "StopWordToken",
        TokenKind.PLACEHOLDER: "PlaceholderCitationToken",
        TokenKind.SECTION: "SectionToken",
    }
    rows = tokenizer.table.editions
    tokenizer.narrow = narrow
    try:
        tokens = tokenizer.tokenize(text)
    finally:
        tokenizer.narrow = True
    return [
        (
            names[t.kind],
            t.start,
            t.end,
            text[t.start : t.end],
            sorted(t.groups.items()),
            sorted(rows[i].short_name for i in t.exact),
            sorted(rows[i].short_name for i in t.variation),
            t.short if t.kind is TokenKind.CITATION else None,
        )
        for t in tokens
    ]


def _stock():
    """eyecite's own ``AhocorasickTokenizer``, trying its extractors in one fixed order: those with no
    strings first, then as its prefilter finds them. (It keeps them in a set, whose order changes with
    the hash seed; where two regexes match the same span with different groups, the first tried wins.)"""
    from eyecite.tokenizers import EXTRACTORS, AhocorasickTokenizer, _strip_ws

    class Ordered(AhocorasickTokenizer):
        def get_extractors(self, text):
            stripped = _strip_ws(text)
            found = {id(e): e for e in EXTRACTORS if not e.strings}
            for _, extractors in self.case_sensitive_filter.iter(stripped):
                found.update((id(e), e) for e in extractors)
            for _, extractors in self.case_insensitive_filter.iter(stripped.lower()):
                found.update((id(e), e) for e in extractors)
            return list(found.values())

    return Ordered()


def _stock_tokens(stock, text: str) -> list[tuple]:
    """eyecite's own tokenizer's tokens, in the same tuples."""
    _, tokens = stock.tokenize(text)
    return [
        (
            type(t).__name__,
            t.start,
            t.end,
            t.data,
            sorted(getattr(t, "groups", {}).items()),
            sorted(e.short_name for e in getattr(t, "exact_editions", ())),
            sorted(e.short_name for e in getattr(t, "variation_editions", ())),
            getattr(t, "short", None),
        )
        for _, t in tokens
    ]


_EDGE_CASES = (
    "410 U.S. 113 at the very start; (410 U.S. 113) in brackets; x410 U.S. 113 glued to a word.",
    "17A Am. Jur. 2d Contracts § 1; 402A Mich. 1; 1 F.3d 5, 7; 1 F.3d at 7; 12 F. 3d 5; 5 U.S. (1 Cranch) 137.",
    "2019 WL 1396975, at *3; 2020 U.S. Dist. LEXIS 12345; 2020-Ohio-123; 2019 IL 123456; 2015 ME 12.",
    "Roe, 410 U.S., at 116; 539 U. S., at 339\u2013340; 12-34 Foo 5; 1 2 3 4 5 6 U.S. 7; 9 \u00a7 10.",
    "100 A.2d 1, 100 A. 2d 2, 100 A.\u20092d 3 and 100 P. 3d 4 (Cal. 2004); 33 Ga. 1; 25 Tex. 1; 1 Bald. C.C. 1.",
    "Cal. Penal Code \u00a7 187; N.Y. Gen. Bus. Law \u00a7 349; "
    "Tex. Fam. Code Ann. \u00a7 1.01; Cal.Penal Code \u00a7 1.",
    "123 S.W.2d 456; 12 S. W. 2d 3; 5 S.W. 2nd 7; 9 S.W.2d at 10; 4 SW2d 5 -- A.2d 7 \u2014 F.3d 9.",
    # the stop words, Id., supra and placeholders (tried over the whole paragraph): at the start, glued,
    # one after another, and blanks before and after a reporter
    "See also Roe v. Wade, 410 U.S. 113; see v. re In re X, e.g., aff'd, (quoting id.), Cf. 5 U.S. 1.",
    "v. Smith, ___ U.S. ___ (2019); Bean, \u2014 Nev. \u2014, 398 P.2d 251; __ F.3d __; -- N.J. --; _ A.2d _",
    "Id. at 5; (Id. at p. 152.) (Ibid.) Id.; see also ibid., id. supra, Roe, supra, at 116; (supra) "
    "denied  granted\tdismissed\nremanded affirmed citing parte",
)


def test_narrow_prefilter_gives_eyecites_tokens_on_edge_cases() -> None:
    from citecheck.extract.eyecite_adapter import _tokenizer

    tokenizer, stock = _tokenizer(), _stock()
    for text in _EDGE_CASES:
        norm = normalise(text)
        ours = _tokens(tokenizer, norm, narrow=True)
        assert ours == _tokens(tokenizer, norm, narrow=False) == _stock_tokens(stock, norm), text
    assert _tokens(tokenizer, normalise(_EDGE_CASES[0]), narrow=True)  # it does find citations


def test_narrow_prefilter_gives_eyecites_tokens_on_real_opinions(bulk_opinions, cap_opinions) -> None:
    """The volume-first reporter regexes are only tried where they can match; every token (span,
    groups, editions) must be what running every chosen regex over the whole paragraph gives, on
    every paragraph of the real opinions in ../shared/corpus."""
    from citecheck.extract.eyecite_adapter import _tokenizer
    from citecheck.extract.paragraphs import split_paragraphs

    tokenizer, stock = _tokenizer(), _stock()
    found = 0
    for text in (*bulk_opinions, *cap_opinions):
        for start, end in split_paragraphs(text):
            norm = normalise(text[start:end])
            if not norm.strip():
                continue
            narrow = _tokens(tokenizer, norm, narrow=True)
            assert narrow == _tokens(tokenizer, norm, narrow=False) == _stock_tokens(stock, norm), norm[:300]
            found += len(narrow)
    assert found > 1_000


def test_narrow_prefilter_gives_eyecites_tokens_on_the_bench_brief() -> None:
    """The same on the synthetic brief the benchmarks use (real prose, real citations, every form)."""
    import sys
    from pathlib import Path

    from citecheck.extract.eyecite_adapter import _tokenizer
    from citecheck.extract.paragraphs import split_paragraphs
    from citecheck_testing import shared_corpus_path

    shared_corpus_path("courtlistener-bulk", "opinions.csv")
    shared_corpus_path("citations", "legalcitebench-cases-A.jsonl")
    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
    try:
        from brief import build_brief
    finally:
        sys.path.pop(0)
    text = build_brief(words=30_000, citations=1_000)
    tokenizer, stock = _tokenizer(), _stock()
    found = 0
    for start, end in split_paragraphs(text):
        norm = normalise(text[start:end])
        narrow = _tokens(tokenizer, norm, narrow=True)
        assert narrow == _tokens(tokenizer, norm, narrow=False) == _stock_tokens(stock, norm), norm[:300]
        found += len(narrow)
    assert found > 1_000


def test_law_tokens_are_the_same_with_the_narrowed_prefilter() -> None:
    """The volume-first prefilter (``narrow``) never drops a law token: every example reporters-db gives
    for a law is found alike with it and without it (law regexes are not volume-first, so they run
    wherever eyecite's own prefilter sends them)."""
    from reporters_db import LAWS

    from citecheck.extract.eyecite_adapter import _tokenizer

    examples = [x for entries in LAWS.values() for e in entries for x in e["examples"]]
    tokenizer = _tokenizer()

    def laws(narrow: bool) -> list[tuple[int, int]]:
        tokenizer.narrow = narrow
        try:
            return [
                (h.start, h.end)
                for x in examples
                for h in scan(normalise(f"See {x}; and so."))
                if h.kind is HitKind.LAW
            ]
        finally:
            tokenizer.narrow = True

    found = laws(True)
    assert len(found) >= len(examples) - 5
    assert found == laws(False)
