"""CourtListener bulk CSV import, against the real 30-opinion sample and tiny fixtures of our own."""

import bz2
import shutil
from pathlib import Path

import pytest

from citecheck.errors import ImportFormatError
from citecheck.sources.bulk_import import find_bulk_files, import_bulk
from citecheck.sources.corpus import Corpus
from citecheck.sources.importing import detect_format, import_path
from citecheck.sources.models import CiteKey, LookupStatus


def test_detects_bulk_folder(bulk_dir: Path):
    assert detect_format(bulk_dir) == "courtlistener-bulk"


def test_sample_imports_all_clusters(real_corpus: Corpus):
    stats = real_corpus.stats()
    per = stats["citations_per_reporter"]
    assert per["A.3d"] == 7 and per["N.W.2d"] == 7 and per["S.E.2d"] == 7
    assert per["IL App (1st)"] == 1  # neutral cite: volume = year, page = number
    r = real_corpus.lookup_one(CiteKey("2018", "IL App (1st)", "152522"))
    assert r.status is LookupStatus.FOUND and r.record is not None and r.record.name == "People v. Lee"


def test_dyous_record_court_and_page_maps_by_citation_index(real_corpus: Corpus):
    rec = real_corpus.lookup_one(CiteKey("153", "Conn. App.", "266")).record
    assert rec is not None and rec.id == "cl:910000001"
    assert rec.court_id == "connappct" and rec.court_name == "Connecticut Appellate Court"
    assert rec.jurisdiction == "Connecticut"
    assert rec.decision_date == "2014-09-30"
    assert rec.url == "https://www.courtlistener.com/opinion/910000001/state-v-dyous/"
    op = real_corpus.opinion(rec.id)
    assert op is not None
    a3d, conn = op.page_map("A.3d"), op.page_map("Conn. App.")
    assert a3d is not None and conn is not None
    assert len(a3d.starts) == 9 and len(conn.starts) == 15  # README: spans per index 1: 9, 2: 15
    # *1005 sits in the head matter, before the opinion: the opinion's first words are on 1005
    assert a3d.starts[0][1] == "1005" and a3d.starts[0][0] < op.text.index("LAVINE, J.")
    assert a3d.page_at(op.text.index("LAVINE, J.")) == "1005"
    assert conn.page_at(op.text.index("LAVINE, J.")) == "266"
    assert conn.page_at(op.text.index("The defendant, Anthony Dyous, appeals")) == "267"
    assert "*267" not in op.text and "*1006" not in op.text


def test_last_pages_derived_from_markers_with_anomalies(real_corpus: Corpus):
    def last(v, r, p):
        rec = real_corpus.lookup_one(CiteKey(v, r, p)).record
        assert rec is not None
        return rec.cite_for(r, v).last_page

    assert last("698", "S.E.2d", "424") == "446"  # spans run past the source's last page
    assert last("592", "S.E.2d", "124") is not None  # *126 before *125 still gives a sane last page
    assert last("944", "N.E.2d", "1119") == "1119"  # one-page case repeating its first page
    assert last("100", "A.3d", "206") is None  # only Pa. spans: A.3d last page unknown
    assert last("440", "Md.", "128") is None  # no Md. spans at all
    assert last("945", "N.E.2d", "484") == "491"


def test_multi_opinion_cluster_in_opinion_id_order(real_corpus: Corpus):
    rec = real_corpus.lookup_one(CiteKey("777", "N.W.2d", "266")).record
    assert rec is not None
    op = real_corpus.opinion(rec.id)
    assert op is not None
    neb = op.page_map("Neb.")
    assert neb is not None and len(neb.starts) == 77
    assert len(op.page_map("N.W.2d").starts) == 48


def test_bulk_volumes_are_never_complete(real_corpus: Corpus):
    r = real_corpus.lookup_one(CiteKey("100", "A.3d", "5"))
    assert r.status is LookupStatus.CANNOT_VERIFY


def test_bz2_matches_plain_and_reimport_is_idempotent(tmp_path: Path, bulk_dir: Path, real_corpus: Corpus):
    folder = tmp_path / "bulk"
    folder.mkdir()
    for p in bulk_dir.glob("*.csv"):
        name = p.name.replace(".csv", "-2026-06-30.csv.bz2")
        with open(p, "rb") as src, bz2.open(folder / name, "wb") as dst:
            shutil.copyfileobj(src, dst)
    assert set(find_bulk_files(folder)) == {"courts", "dockets", "opinion-clusters", "citations", "opinions"}
    corpus = Corpus(tmp_path / "c.sqlite")
    s1 = import_path(corpus, folder)
    s2 = import_path(corpus, folder)
    assert s1.cases == s2.cases == 30
    expected = {k: v for k, v in real_corpus.stats().items()}
    got = corpus.stats()
    # the shared corpus also holds the CAP sample (9 A.2d cases)
    assert got["cases"] == expected["cases"] - 9
    op_a = corpus.opinion("cl:910000021")
    op_b = real_corpus.opinion("cl:910000021")
    assert op_a == op_b


HEADER_CL = "id,docket_id,case_name,case_name_short,case_name_full,date_filed,slug,headmatter"
HEADER_CIT = "id,volume,reporter,page,type,cluster_id"
HEADER_OP = "id,cluster_id,type,plain_text,html,html_with_citations,xml_harvard"


def _tiny(folder: Path, op_html: str) -> None:
    folder.mkdir()
    (folder / "opinion-clusters.csv").write_text(
        HEADER_CL
        + '\n"1","",'
        + '"Smith v. \\"Jones\\"","Smith","SMITH v. JONES","2001-02-03","smith-v-jones",'
        + '"<p>Head \\\\ matter</p>"\n',
        encoding="utf-8",
    )
    (folder / "citations.csv").write_text(
        HEADER_CIT + '\n"2","5","F. 3d","10","1","1"\n"3","9","S. Ct.","20","1","1"\n', encoding="utf-8"
    )
    (folder / "opinions.csv").write_text(
        HEADER_OP + f'\n"7","1","010combined","","",{op_html},\n"8","99","x","orphan","","",\n',
        encoding="utf-8",
    )


def test_backslash_dialect_nulls_newlines_and_huge_fields(tmp_path: Path):
    big = "word " * 40_000  # > csv's default 131,072-char field limit
    html = (
        '"<p>First\nline <span class=\\"star-pagination\\">*11</span>second '
        + big
        + ' <span class=\\"star-pagination\\" citation-index=\\"2\\">*21</span>end</p>"'
    )
    _tiny(tmp_path / "b", html)
    corpus = Corpus(tmp_path / "c.sqlite")
    stats = import_bulk(corpus, tmp_path / "b")
    assert stats.cases == 1 and stats.skipped == 1  # opinion of an unknown cluster is skipped
    rec = corpus.lookup_one(CiteKey("5", "F.3d", "10")).record  # reporter normalised on import
    assert rec is not None and rec.name == 'Smith v. "Jones"' and rec.court_id is None
    op = corpus.opinion(rec.id)
    assert op is not None and op.text.startswith("Head \\ matter\nFirst line second word")
    assert op.page_map("F.3d").starts[0][1] == "11" and op.page_map("S. Ct.").starts[0][1] == "21"
    assert rec.cite_for("S. Ct.").last_page == "21"


def test_falls_back_through_text_fields(tmp_path: Path):
    folder = tmp_path / "b"
    _tiny(folder, '""')
    (folder / "opinions.csv").write_text(
        HEADER_OP
        + '\n"7","1","010combined","plain words here","","","<page-number label=\\"11\\">*11</page-number>harvard"\n'
    )
    corpus = Corpus(tmp_path / "c.sqlite")
    import_bulk(corpus, folder)
    op = corpus.opinion("cl:1")
    assert op is not None and op.text.endswith("harvard")  # xml_harvard preferred over plain_text


def test_wrong_dialect_is_a_clear_error(tmp_path: Path):
    folder = tmp_path / "b"
    _tiny(folder, '""')
    (folder / "citations.csv").write_text(HEADER_CIT + '\n"2","5","F.3d"\n')
    with pytest.raises(ImportFormatError, match="fields"):
        import_bulk(Corpus(tmp_path / "c.sqlite"), folder)


def test_missing_required_file(tmp_path: Path):
    folder = tmp_path / "b"
    folder.mkdir()
    (folder / "opinions.csv").write_text(HEADER_OP + "\n")
    with pytest.raises(ImportFormatError):
        import_path(Corpus(tmp_path / "c.sqlite"), folder)


def test_missing_columns_and_a_failed_import_leave_the_corpus_usable(tmp_path: Path):
    folder = tmp_path / "b"
    _tiny(folder, '""')
    (folder / "citations.csv").write_text('id,volume,cluster_id\n"2","5","1"\n')
    corpus = Corpus(tmp_path / "c.sqlite")
    with pytest.raises(ImportFormatError, match="reporter, page column"):
        import_bulk(corpus, folder)
    (folder / "citations.csv").write_text(HEADER_CIT + '\n"2","5","F.3d","10","1","1"\n')
    assert import_bulk(corpus, folder).cases == 1  # no transaction was left open by the failure
    (tmp_path / "junk").mkdir()
    (tmp_path / "junk" / "opinion-clusters.csv.bz2").write_bytes(b"not bz2 at all")
    (tmp_path / "junk" / "citations.csv").write_text(HEADER_CIT + "\n")
    with pytest.raises(ImportFormatError, match="opinion-clusters"):
        import_bulk(corpus, tmp_path / "junk")
    assert corpus.lookup_one(CiteKey("5", "F.3d", "10")).record is not None
