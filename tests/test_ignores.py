"""The content-keyed ignore list and its file."""

from __future__ import annotations

import json
from pathlib import Path

from citecheck.extract.models import Citation, CiteForm, Extraction, Quote
from citecheck.findings import Evidence, Kind, make_finding
from citecheck.ignores import ANY, IgnoreKey, key_for, normalise_citation, quote_hash
from citecheck.ignores.file import IgnoreStore
from citecheck.spans import Span

TEXT = 'Peyton v. District of Columbia, 100 A.2d 36, 37 (D.C. 1953) ("a quoted line"). Id. at 37.'


def _extraction() -> Extraction:
    core = Span(TEXT.index("100"), TEXT.index("100") + len("100 A.2d 36"))
    full = Citation(
        index=0,
        form=CiteForm.FULL,
        span=core,
        full_span=Span(0, TEXT.index(")") + 1),
        text=core.of(TEXT),
        volume="100",
        reporter="A.2d",
        page="36",
        quotes=(Quote(text="a quoted line", span=Span(TEXT.index("a quoted"), TEXT.index("a quoted") + 13)),),
        group=0,
    )
    id_span = Span(TEXT.index("Id."), TEXT.index("Id.") + len("Id. at 37"))
    short = Citation(
        index=1, form=CiteForm.ID, span=id_span, full_span=id_span, text="Id. at 37", antecedent=0
    )
    return Extraction(text=TEXT, citations=(full, short))


def test_key_uses_citation_and_quote_hash() -> None:
    ex = _extraction()
    quote_span = ex.citations[0].quotes[0].span
    f = make_finding(Kind.MISQUOTE, quote_span, "not in the opinion", citation_index=0)
    key = key_for(f, ex, TEXT)
    assert key == IgnoreKey(kind="misquote", citation="100 a.2d 36", quote_hash=quote_hash("a quoted line"))


def test_short_form_is_keyed_by_its_antecedent() -> None:
    ex = _extraction()
    f = make_finding(Kind.PINCITE_OUT_OF_RANGE, ex.citations[1].span, "page 37", citation_index=1)
    assert key_for(f, ex, TEXT).citation == "100 a.2d 36"


def test_key_survives_moving_text_around() -> None:
    ex = _extraction()
    f = make_finding(Kind.NAME_MISMATCH, ex.citations[0].span, "x", citation_index=0)
    moved = make_finding(Kind.NAME_MISMATCH, ex.citations[0].span.shift(0), "x", citation_index=0)
    assert key_for(f, ex, TEXT) == key_for(moved, ex, TEXT)


def test_evidence_draft_wins_for_the_quote_hash() -> None:
    f = make_finding(Kind.MISQUOTE, Span(0, 3), "x", evidence=Evidence(draft="Other  Words"))
    name = make_finding(Kind.NAME_MISMATCH, Span(0, 3), "x", evidence=Evidence(draft="Smith v. Jones"))
    assert key_for(name, None, "abc def").quote_hash == ""
    assert key_for(f, None, "abc def").quote_hash == quote_hash("other words")


def test_store_persists_and_matches_whole_citation(tmp_path: Path) -> None:
    store = IgnoreStore.for_root(tmp_path)
    finding_key = IgnoreKey(kind="misquote", citation="100 a.2d 36", quote_hash="abc")
    store.add(finding_key)
    store.add(IgnoreKey(kind=ANY, citation="410 u.s. 113", quote_hash=ANY))
    again = IgnoreStore.for_root(tmp_path)
    assert finding_key in again
    assert IgnoreKey(kind="misquote", citation="100 a.2d 36", quote_hash="other") not in again
    assert IgnoreKey(kind="year-mismatch", citation="410 u.s. 113") in again
    data = json.loads((tmp_path / ".citecheck" / "ignore.json").read_text())
    assert data["version"] == 1 and len(data["ignored"]) == 2


def test_corrupt_file_is_reported_not_fatal(tmp_path: Path) -> None:
    path = tmp_path / ".citecheck" / "ignore.json"
    path.parent.mkdir()
    path.write_text("{not json", encoding="utf-8")
    store = IgnoreStore(path)
    assert len(store) == 0
    path.write_text(
        '{"ignored": [{"kind": 3}, {"kind": "misquote", "citation": "1 u.s. 1"}]}', encoding="utf-8"
    )
    store.load()
    assert len(store) == 1


def test_memory_store_without_workspace() -> None:
    store = IgnoreStore.for_root(None)
    store.add(IgnoreKey(kind="misquote", citation="1 u.s. 1"))
    assert len(store) == 1


def test_normalise_citation() -> None:
    assert normalise_citation("  100\tA.2d   36 ") == "100 a.2d 36"
