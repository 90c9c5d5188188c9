"""The name search on real captions nobody here wrote: 499 state and federal cases of 2017-2019 as
LegalCiteBench records them (full captions: party roles, "et al.", capitals, "In the Matter of"), searched
with the names a brief gives them in Bluebook form (abbreviated per T6/T10, roles and first names dropped)."""

from __future__ import annotations

import itertools
import json

import pytest

from citecheck.sources.index.build import build_from_folder
from citecheck.sources.index.lookup import CitationIndex
from citecheck.sources.name_keys import name_score
from citecheck_testing import shared_corpus_path
from citecheck_testing.bulk_dump import Case, write_dump

# (as a brief cites it, the citation of the case it names)
BRIEF_FORMS = [
    ("McCardle v. State", "550 S.W.3d 265"),
    ("Commonwealth v. Knox", "190 A.3d 1146"),
    ("Steilen v. Cabela's Wholesale, Inc.", "906 N.W.2d 913"),
    ("Pratt & Whitney Engine Servs. v. Steager", "239 W. Va. 833"),
    ("Murray v. Midland Funding, LLC", "233 Md. App. 254"),
    ("Colinet v. Brown", "203 A.3d 1267"),
    ("Sirrah Enters., LLC v. Wunderlich", "242 Ariz. 542"),
    ("Bandstra v. Covenant Reformed Church", "913 N.W.2d 19"),
    ("Bd. of Prof'l Responsibility v. Pearce", "446 P.3d 717"),
    ("Gerlach v. Cove Apartments, LLC", "446 P.3d 624"),
    ("Noll v. Special Elec. Co.", "444 P.3d 33"),
    ("Va. Bd. of Med. v. Hagmann", "67 Va. App. 488"),
    ("Fresh Acupuncture, P.C. v. Interboro Ins. Co.", "56 Misc. 3d 98"),
    ("In re Estate of Feldmann", "903 N.W.2d 280"),
    ("Diaz v. Bernini", "419 P.3d 950"),
    ("Disciplinary Counsel v. Pickrel", "151 Ohio St. 3d 466"),
    ("Donastorg v. Rainbow USA, Inc.", "342 Ga. App. 215"),
    ("Aiken v. Aiken", "187 Wash. 2d 491"),
    ("State v. Stutzman", "388 Mont. 133"),
    ("State v. Oxford", "287 Or. App. 580"),
    ("APMD Holdings, Inc. v. Praesidium Med. Prof'l Liab. Ins. Co.", "555 S.W.3d 697"),
]


def _rows() -> list[dict[str, str]]:
    path = shared_corpus_path("citations", "legalcitebench-cases-A.jsonl")
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


@pytest.fixture(scope="module")
def index(tmp_path_factory) -> CitationIndex:
    rows = _rows()
    cases = []
    for i, r in enumerate(rows):
        vol, rest = r["citation"].split(" ", 1)
        rep, page = rest.rsplit(" ", 1)
        cases.append(
            Case(id=920_000_000 + i, name=r["case_name"], cites=[(vol, rep, page)], date=f"{r['year']}-06-01")
        )
    root = tmp_path_factory.mktemp("real-names")
    write_dump(root / "dump", cases)
    build_from_folder(root / "index.sqlite", root / "dump", full_dump=False)
    ix = CitationIndex(root / "index.sqlite")
    yield ix
    ix.close()


@pytest.mark.corpus
@pytest.mark.parametrize(("brief", "cite"), BRIEF_FORMS)
def test_a_brief_form_finds_the_real_caption(index: CitationIndex, brief: str, cite: str) -> None:
    hits = index.search_names(brief, limit=5)
    cites = [str(c) for h in hits[:3] for c in h.record.citations]
    assert cite in cites, [(h.record.name[:60], h.score) for h in hits]
    best = next(h for h in hits if cite in [str(c) for c in h.record.citations])
    assert best.score >= 0.8, (brief, best.record.name, best.score)


@pytest.mark.corpus
def test_the_year_picks_one_of_many_state_cases(index: CitationIndex) -> None:
    hits = index.search_names("McCardle v. State", limit=3, years=(2018, 2018))
    assert [str(c) for c in hits[0].record.citations] == ["550 S.W.3d 265"]


@pytest.mark.corpus
def test_every_real_caption_scores_one_against_itself_and_low_against_another() -> None:
    rows = _rows()
    for r in rows:
        assert name_score(r["case_name"], [r["case_name"]]) == 1.0, r["case_name"]
    # a caption against the next one in the file (different cases): never a confident match
    confident = [
        (a["case_name"], b["case_name"])
        for a, b in itertools.pairwise(rows)
        if name_score(a["case_name"], [b["case_name"]]) >= 0.8
    ]
    assert len(confident) <= 2, confident  # only captions that share every named party could
