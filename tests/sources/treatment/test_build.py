"""``citecheck treatment build``: CourtListener's opinions and parentheticals files → the treatment table.

The bulk files are written here in CourtListener's real format (``citecheck_testing.bulk_dump``: the COPY
dialect and the real columns of ``scripts/make_bulk_data.sh``); the opinions' words are short quotations
of real opinions (sources beside them); the cases are the real ones those words cite, with their real
citations, in an index built from dump rows written the same way.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from citecheck.sources.index.build import build_from_folder
from citecheck.sources.models import CiteKey
from citecheck.sources.treatment.build import build_treatment, find_files
from citecheck.sources.treatment.scan import OPINION_COLUMNS, scan_opinions
from citecheck.sources.treatment.store import TreatmentTable
from citecheck.treatment.models import Basis, TreatmentKind
from citecheck_testing import shared_corpus_path
from citecheck_testing.bulk_dump import Case, open_dump_file, write_dump, write_table

CA1 = "github.com/chansooligans/Federal-Appellate-Court-Opinions-Text-Analysis @ 27f7f91"
COURTS = [
    {"id": "scotus", "full_name": "Supreme Court of the United States", "short_name": "SCOTUS",
     "citation_string": "SCOTUS", "jurisdiction": "F"},
    {"id": "ca1", "full_name": "Court of Appeals for the First Circuit", "short_name": "First Circuit",
     "citation_string": "1st Cir.", "jurisdiction": "F"},
    {"id": "ca10", "full_name": "Court of Appeals for the Tenth Circuit", "short_name": "Tenth Circuit",
     "citation_string": "10th Cir.", "jurisdiction": "F"},
    {"id": "mad", "full_name": "District Court, D. Massachusetts", "short_name": "D. Mass.",
     "citation_string": "D. Mass.", "jurisdiction": "FD"},
    {"id": "neb", "full_name": "Nebraska Supreme Court", "short_name": "Neb.", "citation_string": "Neb.",
     "jurisdiction": "S"},
]  # fmt: skip

#: the real cases the quoted words name (their real citations and dates)
CASES = [
    Case(id=101, name="Tellabs, Inc. v. Makor Issues & Rights, Ltd.", cites=[("551", "U.S.", "308")],
         date="2007-06-21", court="scotus"),
    Case(id=102, name="In re Credit Suisse First Boston Corp.", cites=[("431", "F.3d", "36")], date="2005-12-12",
         court="ca1"),
    Case(id=103, name="United States v. Rockwell", cites=[("984", "F.2d", "1112")], date="1993-01-12", court="ca10"),
    Case(id=104, name="United States v. Boling", cites=[("947", "F.2d", "1461")], date="1991-10-29", court="ca10"),
    Case(id=105, name="United States v. Mangos", cites=[("134", "F.3d", "460")], date="1998-02-02", court="ca1"),
    Case(id=106, name="Marbury v. Madison", cites=[("5", "U.S.", "137")], date="1803-02-24", court="scotus"),
    # the citing opinions' own clusters (their names and citations are theirs; the ids are made up)
    Case(id=201, name="Fitzpatrick v. Gates", cites=[("599", "F.3d", "1")], date="2010-03-01", court="ca1"),
    Case(id=202, name="United States v. Holloway", cites=[("630", "F.3d", "252")], date="2011-01-05", court="ca1"),
    Case(id=203, name="United States v. Mazza", cites=[("1", "F. Supp. 3d", "1")], date="2014-01-01", court="mad"),
]  # fmt: skip

OPINIONS = [
    # (opinion id, cluster, type, plain_text): real words, their sources in the comments
    (301, 201, "010combined",  # CA1 183306.json
     "Opinions are not actionable as fraud. See In re Credit Suisse First Bos. Corp., 431 F.3d 36, 46-47 (1st "
     "Cir.2005), overruled on other grounds by Tellabs, Inc. v. Makor Issues & Rights, Ltd., 551 U.S. 308, 127 S. "
     "Ct. 2499, 168 L. Ed. 2d 179 (2007). See Marbury v. Madison, 5 U.S. 137 (1803)."),
    (302, 202, "010combined",  # CA1 183309.json (United States v. Holloway, 630 F.3d 252)
     "United States v. Mangos, 134 F.3d 460 (1st Cir. 1998). After doing so, we agree that Mangos's rule that the "
     "boilerplate charging language of assault and battery alone establishes a violent felony is no longer good "
     "law. It follows that further analysis is ordinarily required."),
    (303, 203, "020lead",  # the same words in a district court's opinion: it cannot overrule its circuit
     "United States v. Mangos, 134 F.3d 460 (1st Cir. 1998). We agree that Mangos's rule that the boilerplate "
     "charging language alone establishes a violent felony is no longer good law."),
    (304, 202, "040dissent",  # a dissent's "we" is not the court
     "Marbury v. Madison, 5 U.S. 137 (1803). We would overrule Marbury today, and we overrule it now."),
]  # fmt: skip

PARENTHETICALS = [
    # "(overruling United States v. Boling …)", CA1 195088.json: Rockwell (opinion 401) described by opinion 301
    {"id": 501, "text": "overruling United States v. Boling, 947 F.2d 1461 (10th Cir. 1991)", "score": 0.5,
     "described_opinion_id": 401, "describing_opinion_id": 301, "group_id": 1},
    {"id": 502, "text": "holding that the statute applies", "score": 0.9, "described_opinion_id": 401,
     "describing_opinion_id": 301, "group_id": 1},
    {"id": 503, "text": "declining to overrule United States v. Boling, 947 F.2d 1461 (10th Cir. 1991)",
     "score": 0.5, "described_opinion_id": 401, "describing_opinion_id": 302, "group_id": 1},
]  # fmt: skip


def _opinion_row(oid: int, cluster: int, typ: str, text: str) -> dict[str, object]:
    return {"id": oid, "date_created": "2010-05-28 19:19:24+00", "date_modified": "2017-03-24 06:52:59.154535+00",
            "author_str": "", "per_curiam": False, "joined_by_str": "", "type": typ, "sha1": "0" * 40,
            "page_count": 1, "download_url": None, "local_path": None, "plain_text": text, "html": "",
            "html_lawbox": "", "html_columbia": None, "html_anon_2020": None, "xml_harvard": "", "xml_scan": "",
            "html_with_citations": "", "extracted_by_ocr": False, "author_id": None, "cluster_id": cluster}  # fmt: skip


def write_inputs(root: Path, copies: int = 1) -> int:
    """The index of ``CASES`` at ``root/index.sqlite`` and the bulk files in ``root/bulk``: ``OPINIONS``
    ``copies`` times over (each copy its own opinion ids) and the opinion the parentheticals describe, and
    ``PARENTHETICALS``; returns the number of opinions rows."""
    write_dump(root / "dump", CASES, courts=COURTS)
    build_from_folder(root / "index.sqlite", root / "dump", full_dump=True)
    rows = [_opinion_row(oid + 1000 * k, cluster, typ, text) for k in range(copies)
            for oid, cluster, typ, text in OPINIONS]  # fmt: skip
    rows.append(_opinion_row(401, 103, "010combined", "The statute applies."))
    with open_dump_file(root / "bulk", "opinions", "2026-06-30", compress=True) as out:
        write_table(out, "opinions", rows)
    with open_dump_file(root / "bulk", "parentheticals", "2026-06-30", compress=False) as out:
        write_table(out, "parentheticals", PARENTHETICALS)
    return len(rows)


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    root = tmp_path_factory.mktemp("treatment")
    write_inputs(root)
    stats = build_treatment(root / "bulk", index_path=root / "index.sqlite", out=root / "treatment.sqlite",
                            workers=0)  # fmt: skip
    table = TreatmentTable(root / "treatment.sqlite")
    yield stats, table, root
    table.close()


def test_a_history_phrase_becomes_a_treatment_with_its_words(built) -> None:
    _, table, _ = built
    (t,) = table.lookup([CiteKey("431", "F.3d", "36")])[CiteKey("431", "F.3d", "36")]
    assert t.kind is TreatmentKind.OVERRULED and not t.whole and t.basis is Basis.REPORTED
    assert t.treating is not None and t.treating.name.startswith("Tellabs") and t.treating.year == 2007
    assert (
        t.treating.court == "scotus"
        and t.quoted_from is not None
        and t.quoted_from.name == "Fitzpatrick v. Gates"
    )
    assert t.quote is not None and "overruled on other grounds by Tellabs" in t.quote


def test_a_courts_own_words_about_its_precedent(built) -> None:
    _, table, _ = built
    (t,) = table.lookup([CiteKey("134", "F.3d", "460")])[CiteKey("134", "F.3d", "460")]
    assert t.kind is TreatmentKind.NOT_GOOD_LAW and t.basis is Basis.OWN_WORDS
    assert t.treating is not None and t.treating.name == "United States v. Holloway"  # not the district court


def test_a_parenthetical_names_the_overruling_case_through_the_opinions_file(built) -> None:
    _, table, _ = built
    (t,) = table.lookup([CiteKey("947", "F.2d", "1461")])[CiteKey("947", "F.2d", "1461")]
    assert t.basis is Basis.PARENTHETICAL and t.whole
    assert t.treating is not None and t.treating.name == "United States v. Rockwell"
    assert t.quote == "overruling United States v. Boling, 947 F.2d 1461 (10th Cir. 1991)"


def test_what_is_refused_is_counted_and_nothing_else_is_kept(built) -> None:
    stats, table, _ = built
    refused = stats.as_dict()["refused"]
    assert refused.get("the treating court is not the same as or above the treated case's") == 1  # D. Mass.
    assert table.lookup([CiteKey("5", "U.S.", "137")]) == {}  # Marbury: cited, and a dissent's "we" only
    assert table.lookup([CiteKey("551", "U.S.", "308")]) == {}  # Tellabs overruled nothing of its own
    assert stats.treatments == 3 and stats.scan.opinions == 5 and stats.scan.parentheticals == 3


def test_shards_scan_to_the_same_candidates() -> None:
    rows = [tuple(str(_opinion_row(*o).get(c) or "") for c in OPINION_COLUMNS) for o in OPINIONS]
    whole = scan_opinions(rows).candidates
    parts = [c for shard in (rows[:1], rows[1:3], rows[3:]) for c in scan_opinions(shard).candidates]
    assert whole == parts and len(whole) == 3


def test_an_opinion_row_longer_than_an_index_row_is_read(tmp_path: Path) -> None:
    """A long opinion fills five text columns (a few MB each): its row may pass the 16 MiB that holds the index's
    files (issue 35); the opinions file is held to 128 MiB instead, and the opinion after it is still read."""
    write_dump(tmp_path / "dump", CASES, courts=COURTS)
    build_from_folder(tmp_path / "index.sqlite", tmp_path / "dump", full_dump=True)
    long = _opinion_row(305, 201, "010combined", "The statute applies. " * 10)
    long["html_with_citations"] = "<p>" + "The statute applies. " * (1 << 20) + "</p>"  # 21 MiB
    rows = [long, _opinion_row(*OPINIONS[1])]
    with open_dump_file(tmp_path / "bulk", "opinions", "2026-06-30", compress=False) as out:
        write_table(out, "opinions", rows)
    stats = build_treatment(tmp_path / "bulk", index_path=tmp_path / "index.sqlite",
                            out=tmp_path / "treatment.sqlite", workers=0)  # fmt: skip
    assert stats.scan.opinions == 2 and stats.treatments == 1


def test_the_files_are_found_by_name(tmp_path: Path) -> None:
    (tmp_path / "opinions-2025-12-02.csv.bz2").write_bytes(b"")
    (tmp_path / "opinions-2026-06-30.csv.bz2").write_bytes(b"")
    (tmp_path / "citations-2026-06-30.csv.bz2").write_bytes(b"")
    assert find_files(tmp_path) == {"opinions": tmp_path / "opinions-2026-06-30.csv.bz2"}


def test_the_shared_real_opinions(tmp_path: Path) -> None:
    """The shared corpus's real opinions in CourtListener's bulk format (State v. Vela, 777 N.W.2d 266, cites
    Nebraska cases 'abrogated on other grounds'): those its words say were treated, and only those."""
    folder = shared_corpus_path("courtlistener-bulk")
    if not (folder / "opinions.csv").exists():
        pytest.skip("../shared/corpus/courtlistener-bulk is not here")
    nebraska = [
        Case(id=601, name="State v. Mata", cites=[("266", "Neb.", "668"), ("668", "N.W.2d", "448")], date="2003-09-12",
             court="neb"),
        Case(id=602, name="State v. Rogers", cites=[("277", "Neb.", "37"), ("760", "N.W.2d", "35")], date="2009-01-09",
             court="neb"),
        Case(id=603, name="State v. Myers", cites=[("244", "Neb.", "905"), ("510", "N.W.2d", "58")], date="1994-01-14",
             court="neb"),
        Case(id=604, name="State v. Burlison", cites=[("255", "Neb.", "190"), ("583", "N.W.2d", "31")],
             date="1998-08-14", court="neb"),
        Case(id=910000021, name="State v. Vela", cites=[("279", "Neb.", "94"), ("777", "N.W.2d", "266")],
             date="2010-01-15", court="neb"),
    ]  # fmt: skip
    write_dump(tmp_path / "dump", nebraska, courts=COURTS)
    build_from_folder(tmp_path / "index.sqlite", tmp_path / "dump", full_dump=True)
    bulk = tmp_path / "bulk"
    bulk.mkdir()
    (bulk / "opinions-2026-06-30.csv").symlink_to(folder / "opinions.csv")
    stats = build_treatment(bulk, index_path=tmp_path / "index.sqlite", out=tmp_path / "t.sqlite", workers=0)
    table = TreatmentTable(tmp_path / "t.sqlite")
    mata = table.lookup([CiteKey("668", "N.W.2d", "448")])
    myers = table.lookup([CiteKey("244", "Neb.", "905")])  # found by its parallel citation too
    table.close()
    assert [t.treating.name for t in mata[CiteKey("668", "N.W.2d", "448")] if t.treating] == [
        "State v. Rogers"
    ]
    assert [t.treating.name for t in myers[CiteKey("244", "Neb.", "905")] if t.treating] == [
        "State v. Burlison"
    ]
    assert stats.scan.opinions == 34 and json.dumps(stats.as_dict())


def test_confirm_asks_the_model_about_the_sentences_read_from_their_shape(tmp_path: Path) -> None:
    """``--confirm``: a statement read from a sentence's shape (a case as the subject) goes to the model endpoint
    (a loopback one here) as one yes-or-no question; a "no" drops it; a history phrase is not asked about."""

    from citecheck.config import Settings
    from citecheck_testing.model_endpoint import FakeEndpoint, logprob_answer

    cases = [
        *CASES,
        Case(id=701, name="Commissioner v. Wilcox", cites=[("327", "U.S.", "404")], date="1946-03-11", court="scotus"),
        Case(id=702, name="James v. United States", cites=[("366", "U.S.", "213")], date="1961-05-15", court="scotus"),
    ]  # fmt: skip
    write_dump(tmp_path / "dump", cases, courts=COURTS)
    build_from_folder(tmp_path / "index.sqlite", tmp_path / "dump", full_dump=True)
    james = (  # CA1 195181.json: the James Court overruled Wilcox (a court as the subject: read from its shape)
        "Commissioner v. Wilcox, 327 U.S. 404 (1946); James v. United States, 366 U.S. 213 (1961). The James Court, "
        "confronting the seeming anomaly created by Wilcox and Rutkin, overruled Wilcox and flatly rejected the "
        "taxpayer's contention."
    )  # fmt: skip
    rows = [_opinion_row(*OPINIONS[0]), _opinion_row(305, 201, "010combined", james)]
    with open_dump_file(tmp_path / "bulk", "opinions", "2026-06-30", compress=False) as out:
        write_table(out, "opinions", rows)
    ep = FakeEndpoint().answer_by(lambda body: logprob_answer(0.1, 0.9))  # always "No"
    try:
        settings = Settings(model_url=ep.url, model_name="fake-judge")
        stats = build_treatment(tmp_path / "bulk", index_path=tmp_path / "index.sqlite", out=tmp_path / "t.sqlite",
                                workers=0, confirm_with=settings)  # fmt: skip
        asked = [m["content"] for r in ep.chat_requests for m in r["messages"] if m["role"] == "user"]
    finally:
        ep.close()
    assert stats.confirmed == {"asked": 1, "rejected": 1}
    assert len(asked) == 1 and "Wilcox" in asked[0] and "James" in asked[0]
    table = TreatmentTable(tmp_path / "t.sqlite")
    assert table.lookup([CiteKey("327", "U.S.", "404")]) == {}  # rejected
    assert table.lookup([CiteKey("431", "F.3d", "36")])  # the history phrase, not asked about
    table.close()
