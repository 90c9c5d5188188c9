"""The name check on real records: misspelled with a fix, mismatch naming the real case."""

from __future__ import annotations

from citecheck.checks.case_name import CaseNameCheck, best_record
from citecheck.findings import Kind, Severity
from citecheck.sources.models import CaseCite, CaseRecord, LookupStatus
from citecheck_testing import make_citation

CINEL = CaseRecord(
    id="cl:1",
    source="courtlistener",
    name="Cinel v. Connick",
    decision_date="1994-03-02",
    citations=(CaseCite(volume="15", reporter="F.3d", page="1338", last_page="1347"),),
    url="https://www.courtlistener.com/opinion/1/cinel-v-connick/",
)
PLYLER = CaseRecord(
    id="cl:2",
    source="courtlistener",
    name="Plyler v. Doe",
    decision_date="1982-06-15",
    citations=(CaseCite(volume="457", reporter="U.S.", page="202"),),
)


def test_name_mismatch_names_the_real_case(make_ctx) -> None:
    text = "See Boone v. Vinson, 15 F.3d 1338, 1343 (5th Cir. 1994)."
    c = make_citation(text, "15 F.3d 1338", name="Boone v. Vinson", pin="1343", year=1994)
    [f] = CaseNameCheck().run(make_ctx(text, [c], record=CINEL))
    assert (f.kind, f.severity) == (Kind.NAME_MISMATCH, Severity.ERROR)
    assert "Cinel v. Connick" in f.message and f.span.of(text) == "Boone v. Vinson"
    assert f.evidence.record_id == "cl:1" and f.evidence.url and f.evidence.citation == "15 F.3d 1338"
    assert f.fixes[0].edits[0].new_text == "Cinel v. Connick"


def test_misspelled_name_fix_replaces_only_the_wrong_word(make_ctx) -> None:
    text = "Plyer v. Doe, 457 U.S. 202 (1982)."
    c = make_citation(text, "457 U.S. 202", name="Plyer v. Doe", year=1982)
    [f] = CaseNameCheck().run(make_ctx(text, [c], record=PLYLER))
    assert (f.kind, f.severity) == (Kind.NAME_MISSPELLED, Severity.WARNING)
    [edit] = f.fixes[0].edits
    assert edit.span.of(text) == "Plyer" and edit.new_text == "Plyler"


def test_real_name_gives_nothing(make_ctx, cap_case) -> None:
    record, _ = cap_case("0452-01")
    text = "Nowinski v. Randall H. Hagner & Co., 100 A.2d 452 (D.C. 1953)."
    c = make_citation(text, "100 A.2d 452", name="Nowinski v. Randall H. Hagner & Co.")
    assert list(CaseNameCheck().run(make_ctx(text, [c], record=record))) == []


def test_ambiguous_cite_picks_the_named_case(cap_case, make_ctx) -> None:
    peyton, _ = cap_case("0036-01")
    branson, _ = cap_case("0038-01")
    assert best_record("Branson v. Harris", [peyton, branson]) is branson
    assert best_record("Boone v. Vinson", [peyton, branson]) is None
    text = "Boone v. Vinson, 100 A.2d 36 (D.C. 1953)."
    c = make_citation(text, "100 A.2d 36", name="Boone v. Vinson")
    ctx = make_ctx(text, [c], record=None, status=LookupStatus.AMBIGUOUS)
    from dataclasses import replace

    ctx = replace(ctx, lookup=replace(ctx.lookup, records=(peyton, branson)))
    [f] = CaseNameCheck().run(ctx)
    assert f.kind is Kind.NAME_MISMATCH and "Peyton" in f.message and "Branson" in f.message
