"""CAP static volume import, against the real 100 A.2d sample (trimmed: 9 cases with gaps)."""

import json
from pathlib import Path

import pytest

from citecheck.errors import ImportFormatError
from citecheck.sources.cap_import import case_record, import_cap_volume
from citecheck.sources.corpus import Corpus
from citecheck.sources.importing import detect_format, import_path
from citecheck.sources.models import CiteKey, LookupStatus


def test_detects_cap_volume_and_parent_tree(cap_volume: Path):
    assert detect_format(cap_volume) == "cap"
    assert detect_format(cap_volume.parent.parent) == "cap"  # cap-static/ → a2d/100


def test_sample_volume_imports_nine_cases_not_complete(tmp_path: Path, cap_volume: Path):
    corpus = Corpus(tmp_path / "c.sqlite")
    stats = import_path(corpus, cap_volume)
    assert (stats.cases, stats.opinions, stats.volumes) == (9, 9, ("100 A.2d",))
    assert stats.complete_volumes == ()  # the trimmed fixture has gaps: never complete
    [cov] = corpus.coverage("A.2d")
    assert cov.ranges == ((36, 42), (450, 459), (831, 834)) and not cov.complete


def test_peyton_record_text_and_page_map(real_corpus: Corpus):
    r = real_corpus.lookup_one(CiteKey("100", "A.2d", "36"))
    assert r.status is LookupStatus.FOUND
    rec = r.record
    assert rec is not None
    assert rec.name == "Peyton v. District of Columbia"
    assert rec.name_full == "PEYTON v. DISTRICT OF COLUMBIA"
    assert rec.name_short == "Peyton" and rec.name_abbreviation == "Peyton v. District of Columbia"
    assert rec.url is None  # local import: no link unless asked for
    meta = {
        "id": 1,
        "name": "A v. B",
        "first_page": "7",
        "file_name": "0007-01",
        "citations": [{"cite": "9 A.2d 7"}],
    }
    linked = case_record(meta, case_law_links=True)
    assert linked.url == "https://case.law/caselaw/?reporter=a2d&volume=9&case=0007-01"
    assert rec.decision_date == "1953-11-06"
    assert rec.court_name == "District of Columbia Municipal Court of Appeals"
    assert rec.court_id == "dc"  # via courts-db
    assert rec.jurisdiction == "District of Columbia"
    assert rec.citations[0].last_page == "38"
    op = real_corpus.opinion(rec.id)
    assert op is not None
    pm = op.page_map("A.2d", "100")
    assert pm is not None and [lbl for _, lbl in pm.starts] == ["37", "38"]
    # the attorneys' paragraph starts page 37 (the label sits in the head matter)
    at37 = pm.starts[0][0]
    assert op.text[at37:].startswith("William C. Gardner")
    assert pm.page_at(op.text.index("QUINN, Associate Judge.")) == "37"
    assert "*37" not in op.text


def test_real_case_elsewhere_in_volume_is_cannot_verify_never_not_found(real_corpus: Corpus):
    # 100 A.2d 500 lies in a gap of the trimmed sample: real cases exist there
    r = real_corpus.lookup_one(CiteKey("100", "A.2d", "500"))
    assert r.status is LookupStatus.CANNOT_VERIFY
    assert "only part of 100 A.2d" in r.reason


def test_page_inside_a_case_reports_the_containing_case(real_corpus: Corpus):
    r = real_corpus.lookup_one(CiteKey("100", "A.2d", "37"))
    assert r.status is LookupStatus.CANNOT_VERIFY
    assert r.containing is not None and r.containing.name == "Peyton v. District of Columbia"


def _write_volume(folder: Path, cases: list[tuple[int, int, int]]) -> None:
    """A tiny CAP volume of our own: (id, first page, last page) per case, with page labels."""
    (folder / "cases").mkdir(parents=True)
    (folder / "html").mkdir()
    meta = []
    for cid, first, last in cases:
        name = f"{first:04d}-01"
        entry = {
            "id": cid,
            "name": f"ALPHA{cid} v. BETA",
            "name_abbreviation": f"Alpha{cid} v. Beta",
            "decision_date": "1990-01-02",
            "first_page": str(first),
            "last_page": str(last),
            "citations": [{"type": "official", "cite": f"7 A.2d {first}"}],
            "court": {"name": "Supreme Court of Vermont", "name_abbreviation": "Vt.", "id": 1},
            "jurisdiction": {"name": "Vt.", "name_long": "Vermont", "id": 17},
            "file_name": name,
        }
        meta.append(entry)
        (folder / "cases" / f"{name}.json").write_text(json.dumps(entry))
        labels = "".join(
            f'<p><a class="page-label" data-label="{p}" data-citation-index="1">*{p}</a>Text of page {p}.</p>'
            for p in range(first + 1, last + 1)
        )
        (folder / "html" / f"{name}.html").write_text(
            f'<section class="casebody"><article class="opinion"><p>Opening of case {cid}.</p>'
            f"{labels}</article></section>"
        )
    (folder / "CasesMetadata.json").write_text(json.dumps(meta))


def test_volume_that_tiles_its_pages_is_complete(tmp_path: Path):
    vol = tmp_path / "a2d" / "7"
    _write_volume(vol, [(1, 1, 3), (2, 3, 6), (3, 7, 9)])
    corpus = Corpus(tmp_path / "c.sqlite")
    stats = import_cap_volume(corpus, vol)
    assert stats.complete_volumes == ("7 A.2d",)
    nf = corpus.lookup_one(CiteKey("7", "A.2d", "2"))
    assert nf.status is LookupStatus.NOT_FOUND and nf.volume_complete
    assert nf.containing is not None and nf.containing.id == "cap:1"
    past = corpus.lookup_one(CiteKey("7", "A.2d", "40"))
    assert past.status is LookupStatus.NOT_FOUND and past.volume_last_page == "9"
    assert "past the last page" in past.reason


def test_gap_or_late_start_is_not_complete(tmp_path: Path):
    gap = tmp_path / "gap"
    _write_volume(gap, [(1, 1, 3), (3, 9, 12)])
    late = tmp_path / "late"
    _write_volume(late, [(4, 40, 43), (5, 43, 50)])
    corpus = Corpus(tmp_path / "c.sqlite")
    assert import_cap_volume(corpus, gap).complete_volumes == ()
    corpus2 = Corpus(tmp_path / "d.sqlite")
    assert import_cap_volume(corpus2, late).complete_volumes == ()
    assert corpus2.lookup_one(CiteKey("7", "A.2d", "1")).status is LookupStatus.CANNOT_VERIFY


def test_reimport_is_idempotent(tmp_path: Path, cap_volume: Path):
    corpus = Corpus(tmp_path / "c.sqlite")
    import_path(corpus, cap_volume)
    first = corpus.stats()
    import_path(corpus, cap_volume)
    assert corpus.stats() == first
    assert len(corpus.find_passage("indecent exposure in a public place")) == 1


def test_bad_cap_json_is_a_clear_error(tmp_path: Path):
    vol = tmp_path / "v"
    vol.mkdir()
    (vol / "CasesMetadata.json").write_text("{not json")
    with pytest.raises(ImportFormatError, match=r"CasesMetadata\.json"):
        import_path(Corpus(tmp_path / "c.sqlite"), vol)


def test_unknown_format_is_a_clear_error(tmp_path: Path):
    (tmp_path / "notes.txt").write_text("hello")
    with pytest.raises(ImportFormatError, match="not a corpus format"):
        detect_format(tmp_path)
    with pytest.raises(ImportFormatError, match="no such"):
        detect_format(tmp_path / "missing")


@pytest.mark.parametrize(
    ("name", "short"),
    [
        ("United States v. Lewis", "Lewis"),
        ("Nowinski v. Randall H. Hagner & Co.", "Nowinski"),
        ("In re Smith", "In re Smith"),
    ],
)
def test_short_names(name, short):
    from citecheck.sources.cap_import import short_name

    assert short_name(name) == short


def test_case_record_ignores_unparseable_cites():
    rec = case_record(
        {"id": 5, "name": "X", "citations": [{"cite": "garbage"}, {"cite": "3 U.S. 4"}], "first_page": "4"}
    )
    assert [str(c) for c in rec.citations] == ["3 U.S. 4"]
