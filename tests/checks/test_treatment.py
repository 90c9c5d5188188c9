"""overruled / negatively-treated (checks/treatment.py): the shipped Congress.gov table, through gather and judge."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

from citecheck.config import Settings
from citecheck.findings import Kind, Severity
from citecheck.pipeline import check_document
from citecheck.sources.models import CaseRecord, CiteKey, LookupResult, LookupStatus, OpinionText, PassageHit
from citecheck.sources.treatment.source import TreatmentSource
from citecheck.treatment.models import Treatment


class TableOnly:
    """A source that knows no case but the treatment data (a fresh install: the shipped table, offline)."""

    name = "test"

    def __init__(self) -> None:
        self.link = TreatmentSource.open(table_path=None, refreshed=None)
        self.asked: list[CiteKey] = []

    async def lookup(self, keys: Sequence[CiteKey]) -> dict[CiteKey, LookupResult]:
        return {k: LookupResult(key=k, status=LookupStatus.CANNOT_VERIFY, reason="no corpus") for k in keys}

    async def opinion(self, record: CaseRecord) -> OpinionText | None:
        return None

    async def find_passage(self, passage: str, *, limit: int = 5) -> list[PassageHit]:
        return []

    async def treatment(self, keys: Sequence[CiteKey]) -> dict[CiteKey, tuple[Treatment, ...]]:
        self.asked.extend(keys)
        return await self.link.treatment(keys)

    @property
    def treatment_sources(self) -> tuple[str, ...]:
        return self.link.sources

    async def close(self) -> None:
        await self.link.close()


def check(text: str):
    return asyncio.run(check_document(text, TableOnly(), Settings()))


def treatment_findings(text: str):
    return [f for f in check(text).findings if f.kind in (Kind.OVERRULED, Kind.NEGATIVELY_TREATED)]


def test_an_overruled_supreme_court_case_is_a_warning_naming_the_overruling_case() -> None:
    text = "Sodomy laws are valid. Bowers v. Hardwick, 478 U.S. 186 (1986).\n"
    (f,) = treatment_findings(text)
    assert f.kind is Kind.OVERRULED and f.severity is Severity.WARNING  # no forum known: never an error
    assert "overruled by Lawrence v. Texas, 539 U.S. 558 (2003)" in f.message
    assert f.evidence.case_name == "Lawrence v. Texas" and f.evidence.citation == "539 U.S. 558"
    assert f.evidence.url == "https://constitution.congress.gov/resources/decisions-overruled/"
    assert "Bowers v. Hardwick" in (f.evidence.passage or "") and "Congress.gov" in (f.evidence.source or "")
    (fix,) = f.fixes
    (edit,) = fix.edits
    assert edit.new_text == ", overruled by Lawrence v. Texas, 539 U.S. 558 (2003)"
    fixed = text[: edit.span.start] + edit.new_text + text[edit.span.end :]
    assert fixed == "Sodomy laws are valid. Bowers v. Hardwick, 478 U.S. 186 (1986), overruled by Lawrence v. " \
                    "Texas, 539 U.S. 558 (2003).\n"  # fmt: skip
    assert treatment_findings(fixed) == []  # applied, the fix creates no new finding


def test_binding_and_certain_is_an_error() -> None:
    text = "---\ncourt: nysd\n---\nThe rule was different. Michigan v. Jackson, 475 U.S. 625 (1986).\n"
    (f,) = treatment_findings(text)
    assert f.kind is Kind.OVERRULED and f.severity is Severity.ERROR
    assert "binds every court" in (f.evidence.note or "")
    assert "Montejo v. Louisiana" in f.message


def test_an_overruling_in_part_is_negatively_treated_never_an_error() -> None:
    text = "---\ncourt: nysd\n---\nSee Allen v. Newberry, 62 U.S. (21 How.) 244 (1858).\n"
    (f,) = treatment_findings(text)
    assert f.kind is Kind.NEGATIVELY_TREATED and f.severity is Severity.WARNING and "in part" in f.message


def test_the_draft_that_gives_the_history_gets_nothing_for_it() -> None:
    for text in (
        "Bowers v. Hardwick, 478 U.S. 186 (1986), overruled by Lawrence v. Texas, 539 U.S. 558 (2003).",
        "Bowers v. Hardwick, 478 U.S. 186 (1986) (overruled by Lawrence v. Texas, 539 U.S. 558 (2003)).",
        "Bowers v. Hardwick, 478 U.S. 186 (1986), overruled on other grounds, Lawrence v. Texas, 539 U.S. 558 (2003).",
        "Bowers v. Hardwick, 478 U.S. 186, 190 (1986), since overruled, held otherwise.",
        "Lawrence v. Texas, 539 U.S. 558 (2003), overruled Bowers v. Hardwick, 478 U.S. 186 (1986).",
        "Lawrence v. Texas, 539 U.S. 558, 578 (2003) (overruling Bowers v. Hardwick, 478 U.S. 186 (1986)).",
        "Roe v. Wade, 314 F. Supp. 1217 (N.D. Tex. 1970), aff'd in part, rev'd in part, 410 U.S. 113 (1973), "
        "overruled by Dobbs v. Jackson Women's Health Org., 597 U.S. 215 (2022).",
    ):
        assert treatment_findings(text) == [], text


def test_a_chain_of_history_is_not_misattributed() -> None:
    """``A, aff'd in part, rev'd in part, B``: B (the Supreme Court's Roe) was overruled, not A."""
    text = (
        "Roe v. Wade, 314 F. Supp. 1217 (N.D. Tex. 1970), aff'd in part, rev'd in part, 410 U.S. 113 (1973)."
    )
    (f,) = treatment_findings(text)
    assert text[f.span.start : f.span.end] == "410 U.S. 113" and "Dobbs" in f.message
    (edit,) = f.fixes[0].edits
    assert edit.span.start == text.index("(1973)") + len("(1973)")


def test_famous_good_law_and_the_overruling_cases_get_nothing() -> None:
    text = (
        "Marbury v. Madison, 5 U.S. 137 (1803); Brown v. Board of Education, 347 U.S. 483 (1954); Miranda v. "
        "Arizona, 384 U.S. 436 (1966); Gideon v. Wainwright, 372 U.S. 335 (1963); Lawrence v. Texas, 539 U.S. 558 "
        "(2003); Obergefell v. Hodges, 576 U.S. 644 (2015); Mapp v. Ohio, 367 U.S. 643 (1961).\n"
    )
    assert treatment_findings(text) == []


def test_one_finding_per_case() -> None:
    text = "Roe v. Wade, 410 U.S. 113 (1973). Later: Roe v. Wade, 410 U.S. 113, 153 (1973). Roe, 410 U.S. at 160.\n"
    (f,) = treatment_findings(text)
    assert f.span.start == text.index("410 U.S. 113")


#: 303 Creative LLC v. Elenis, 600 U.S. 570 (2023), slip op. (CaseStrainer's test_files/test_case_2.pdf): the
#: Court cites a concurrence and a dissent of cases later overruled, as a PDF's text layer gives it
CREATIVE = (
    "---\ncourt: scotus\n---\nThey did so because they saw the freedom of speech \u201cboth as an end and "
    "as a means.\u201d Whitney v. California, \n274 U. S. 357, 375 (1927) (Brandeis, J., concurring); see "
    "also\n12 The Papers of James Madison 193\u2013194 (1977).\n\n\u201c[D]iscrimination in any form and in "
    "any degree has \nno justifiable part whatever in our democratic way of life.\u201d \nKorematsu v. United "
    "States, 323 U. S. 214, 242 (1944) (Mur-\nphy, J., dissenting).\n"
)


def test_a_concurrence_or_a_dissent_of_an_overruled_case_gets_nothing() -> None:
    """Before: two ERRORS in a real Supreme Court opinion (Whitney overruled by Brandenburg, Korematsu by
    Trump v. Hawaii): an overruling overrules the Court's opinion, not a Justice's own."""
    assert treatment_findings(CREATIVE) == []
    # the Court's own opinion, cited after the separate one, still gets its finding there
    later = CREATIVE + "\nThe holding was otherwise. Whitney v. California, 274 U. S. 357 (1927).\n"
    (f,) = treatment_findings(later)
    assert f.kind is Kind.OVERRULED and "Brandenburg" in f.message
    assert later[f.span.start : f.span.end] == "274 U. S. 357" and f.span.start > later.index("holding")


def test_the_question_leaves_only_citation_keys() -> None:
    source = TableOnly()
    asyncio.run(check_document("Bowers v. Hardwick, 478 U.S. 186 (1986). Some words.", source, Settings()))
    assert source.asked == [CiteKey("478", "U.S.", "186")]


def _table_brief() -> tuple[str, list[str]]:
    """A brief citing every Supreme Court decision the table lists as overruled, each as the table writes it
    (``Allen v. Newberry, 62 U.S. (21 How.) 244 (1858)``), one sentence each."""
    from citecheck.sources.treatment.congress import shipped_text
    from citecheck.treatment.table import parse_csv

    seen: dict[str, str] = {}
    for row in parse_csv(shipped_text()).rows:
        for d in row.overruled:
            seen.setdefault(d.citation or "", f"{d.name}, {d.citation} ({d.year})")
    cites = list(seen.values())
    return "".join(f"The court so held. {c}.\n" for c in cites), list(seen)


def test_a_brief_citing_the_tables_decisions_is_warned_on_at_least_95_percent() -> None:
    """Issue 37's measure: offline, no corpus, no index, no token: the shipped table alone."""
    text, cites = _table_brief()
    report = check(text)
    warned = {text[f.span.start : f.span.end] for f in report.findings
              if f.kind in (Kind.OVERRULED, Kind.NEGATIVELY_TREATED)}  # fmt: skip
    hit = [c for c in cites if any(c.split(" (")[0].split(") ")[-1] in w or c in w for w in warned)]
    share = len(warned) / len(cites)
    assert share >= 0.95, (len(warned), len(cites), sorted(set(cites) - set(hit))[:20])
