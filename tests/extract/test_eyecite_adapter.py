from __future__ import annotations

from citecheck.extract.eyecite_adapter import HitKind, scan
from citecheck.extract.normalise import normalise


def test_scan_kinds_and_editions() -> None:
    text = normalise(
        "See Roe v. Wade, 410 U. S. 113. Id. at 5. Roe, 410 U.S. at 120. Roe, supra. 42 U.S.C. \u00a7 1983. "
        "2019 WL 1396975; 2020 U.S. Dist. LEXIS 12345; 585 U.S. ___; 678 F.Supp.3d 443."
    )
    hits = scan(text)
    kinds = [h.kind for h in hits]
    assert (
        kinds == [HitKind.CASE, HitKind.ID, HitKind.SHORT, HitKind.SUPRA, HitKind.OTHER] + [HitKind.CASE] * 4
    )
    assert (hits[0].reporter, hits[0].reporter_as_written, hits[0].scotus) == ("U.S.", "U. S.", True)
    assert hits[2].page == "120"
    assert [h.database for h in hits[5:7]] == ["WL", "LEXIS"]
    assert hits[7].page is None
    assert hits[8].reporter == "F. Supp. 3d"


def test_faster_extractor_selection_finds_exactly_what_eyecite_finds(bulk_opinions) -> None:
    """Our tokenizer subclass skips word splitting and de-duplicates extractors by identity; on real
    opinions it must return the same citation tokens as eyecite's own Aho-Corasick tokenizer."""
    from eyecite.tokenizers import AhocorasickTokenizer

    stock = AhocorasickTokenizer()
    for text in bulk_opinions[:12]:
        norm = normalise(text)
        _, theirs = stock.tokenize(norm)
        ours = scan(norm)
        assert [(h.start, h.end) for h in ours] == [
            (t.start, t.end)
            for _, t in theirs
            if type(t).__name__ in ("CitationToken", "IdToken", "SupraToken", "SectionToken")
        ]
