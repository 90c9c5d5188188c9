"""Patterns of real First Circuit opinions (github.com/chansooligans/Federal-Appellate-Court-Opinions-Text-
Analysis, CourtListener's text of each) that drew errors on real citations once the index answered them
(issue 32, bench/evidence.py): West's parallel pin after ``Id.``, ``Id.`` pinned to a regional parallel
CourtListener lacks, a public officer's successor in the caption."""

from __future__ import annotations

import asyncio

import pytest

from citecheck.config import Settings
from citecheck.findings import Kind, Severity
from citecheck.pipeline import check_document
from citecheck.sources.base import Unavailable
from citecheck.sources.chain import SourceChain
from citecheck.sources.index.build import build_from_folder
from citecheck.sources.index.source import IndexSource
from citecheck_testing.bulk_dump import Case, write_dump

CASES = [
    Case(id=960000001, name="Lynce v. Mathis", cites=[("519", "U.S.", "433"), ("117", "S. Ct.", "891")],
         date="1997-02-19", court="scotus"),
    # CourtListener lacks the N.E.2d parallel (CAP #345, #2013)
    Case(id=960000002, name="Hershenow v. Enterprise Rent-A-Car Co.", cites=[("445", "Mass.", "790")],
         date="2006-01-10", court="mass"),
    Case(id=960000003, name="Hossain v. Gonzales", cites=[("381", "F.3d", "29")], date="2004-08-31", court="ca1"),
    Case(id=960000004, name="Leahy v. City of Chicago", cites=[("96", "F.3d", "228")], date="1996-09-25",
         court="ca7"),
    Case(id=960000005, name="International Society for Krishna Consciousness, Inc. v. Lee",
         cites=[("505", "U.S.", "672"), ("112", "S. Ct.", "2701")], date="1992-06-26", court="scotus",
         short="ISKCON v. Lee"),
    Case(id=960000006, name="Lee v. International Society for Krishna Consciousness, Inc.",
         cites=[("505", "U.S.", "830"), ("112", "S. Ct.", "2709")], date="1992-06-26", court="scotus",
         short="Lee v. ISKCON"),
    Case(id=960000007, name="United States v. LaFrance", cites=[("879", "F.2d", "1")], date="1989-06-28",
         court="ca1"),
    Case(id=960000008, name="Klaxon Co. v. Stentor Electric Mfg. Co.", cites=[("313", "U.S.", "487")],
         date="1941-06-30", court="scotus"),
    Case(id=960000009, name="Torres v. Superintendent of Police", cites=[("893", "F.2d", "404")],
         date="1990-01-08", court="ca1"),
    Case(id=960000010, name="Metcalf & Eddy, Inc. v. Puerto Rico Aqueduct & Sewer Auth.",
         cites=[("945", "F.2d", "10")], date="1991-09-24", court="ca1"),
    Case(id=960000011, name="United States v. Garcia", cites=[("954", "F.2d", "12")], date="1992-01-24",
         court="ca1"),
    Case(id=960000012, name="United States v. One Parcel of Real Property With Buildings",
         cites=[("960", "F.2d", "200")], date="1992-03-31", court="ca1"),
]  # fmt: skip

TEXT = """\
The statute rendered "ineligible for early release a class of prisoners who were previously eligible." Lynce
v. Mathis, 519 U.S. 433, 117 S. Ct. 891 (1997). The Court so held. Id. at 447, 117 S. Ct. 891.

The renters returned their cars undamaged. Hershenow v. Enterprise Rent-A-Car Co., 445 Mass. 790, 840 N.E.2d
526 (2006). They sued under chapter 93A. Id. at 529.

The agency's finding stands. Hossain v. Ashcroft, 381 F.3d 29, 31 (1st Cir. 2004).

A divided panel held otherwise. Leahy v. City of Chicago, 96 F.3d 228, 232 (7th Cir. 1996). The dissent
disagreed. Id. at 212.

Airports are not public fora. ISKCON v. Lee, 112 S. Ct. 2701 (1992); Lee v. ISKCON, 112 S. Ct. 2709, 2709
(1992) (per curiam). Leafletting is another matter. See ISKCON, 112 S. Ct. at 2708.

The sentence stands. United States v. La France, 879 F.2d 1, 4 (1st Cir. 1989).

The forum's choice-of-law rules apply. Klaxon Co. v. Stentor Elec. Mfg. Co., 313 U.S. 487, 8 (1941). As we held
in Puerto Rico, 893 F.2d 404, 406 (1st Cir. 1990).

The authority claimed immunity. M&E v. PRASA, 945 F.2d 10, 12 (1st Cir. 1991).

The judge directed the sentencing. United States v. Garc a, 954 F.2d 12, 15-16 (1st Cir. 1992).

"In this context, 'genuine' means that the evidence about the fact is such that a reasonable jury could resolve
the point in favor of the nonmoving party." United States v. One Parcel of Real Property, Etc. (Great Harbor
Neck), 960 F.2d 200, 204 (1st Cir. 1992).

The ALJ approved the application. Northeast Utilities Service Co., 53 F.E.R.C. 63,020 (1990). The Commission
denied rehearing. Northeast Utilities Service Co., 59 F.E.R.C. 61,042 (1992).
"""


@pytest.fixture(scope="module")
def found(tmp_path_factory: pytest.TempPathFactory) -> dict[str, set[tuple[Kind, Severity]]]:
    tmp = tmp_path_factory.mktemp("patterns")
    write_dump(tmp / "dump", CASES)
    build_from_folder(tmp / "ix.sqlite", tmp / "dump", full_dump=True)

    async def run() -> dict[str, set[tuple[Kind, Severity]]]:
        chain = SourceChain([IndexSource.open(tmp / "ix.sqlite"), Unavailable("offline mode")])
        try:
            report = await check_document(TEXT, chain, Settings(offline=True, cap_fetch=False))
        finally:
            await chain.close()
        out: dict[str, set[tuple[Kind, Severity]]] = {}
        for f in report.findings:
            if f.citation_index is not None:
                c = report.extraction.citations[f.citation_index]
                out.setdefault(c.text, set()).add((f.kind, f.severity))
        return out

    return asyncio.run(run())


def test_id_pinned_to_the_first_reporter_of_a_parallel_pair_is_not_out_of_range(found) -> None:
    """Id. at 447 (U.S. Reports' page) after 519 U.S. 433, 117 S. Ct. 891: Id. names no reporter."""
    assert all(sev is Severity.INFO for _, sev in found.get("Id. at 447", set()))


def test_id_pinned_to_a_parallel_courtlistener_lacks_is_not_out_of_range(found) -> None:
    """Id. at 529 is a page of 840 N.E.2d 526, which the draft gives and the data lacks."""
    assert all(sev is Severity.INFO for _, sev in found.get("Id. at 529", set()))


def test_a_pin_before_the_first_page_of_what_id_is_read_as_is_a_warning(found) -> None:
    """Which case Id. stands for is the extraction's reading: a pin it cannot hold is at most a warning."""
    assert (Kind.PINCITE_OUT_OF_RANGE, Severity.WARNING) in found["Id. at 212"]


def test_a_caption_with_a_substituted_officer_is_a_warning(found) -> None:
    assert (Kind.NAME_MISMATCH, Severity.WARNING) in found["381 F.3d 29"]
    assert not any(sev is Severity.ERROR for fs in found.values() for _, sev in fs)


def test_a_short_form_two_cited_cases_could_stand_for_is_a_warning(found) -> None:
    """ "ISKCON, 112 S. Ct. at 2708": ISKCON v. Lee (2701) and Lee v. ISKCON (2709) are both cited."""
    pins = found.get("ISKCON, 112 S. Ct. at 2708", set())
    assert not any(sev is Severity.ERROR for _, sev in pins)


def test_a_name_written_with_a_space_the_record_lacks_is_a_warning(found) -> None:
    loud = {(k, sev) for k, sev in found.get("879 F.2d 1", set()) if sev is not Severity.INFO}
    assert loud and loud <= {(Kind.NAME_MISMATCH, Severity.WARNING), (Kind.NAME_MISSPELLED, Severity.WARNING)}


def test_a_footnote_number_read_as_a_pin_is_a_warning(found) -> None:
    """ "313 U.S. 487,⏎⏎8 In his opinion": a court's PDF text with a footnote after a page break."""
    assert (Kind.PINCITE_OUT_OF_RANGE, Severity.WARNING) in found["313 U.S. 487"]


def test_a_short_reference_for_a_name_is_a_warning(found) -> None:
    """What the extraction kept of a caption ("Puerto Rico" of Torres v. Superintendent of Police of Puerto
    Rico) is a short reference: another case's name there is a warning."""
    assert (Kind.NAME_MISMATCH, Severity.WARNING) in found["893 F.2d 404"]


def test_a_caption_in_the_acronyms_the_court_defined_is_a_warning(found) -> None:
    """ "M&E v. PRASA, 945 F.2d 10" (a First Circuit opinion's own short caption of Metcalf & Eddy, Inc. v.
    Puerto Rico Aqueduct & Sewer Auth.): the initials of each party are no other case's name."""
    loud = {(k, sev) for k, sev in found.get("945 F.2d 10", set()) if sev is not Severity.INFO}
    assert loud <= {(Kind.NAME_MISMATCH, Severity.WARNING)}


def test_a_party_the_text_cut_short_is_a_warning(found) -> None:
    """ "United States v. Garc a, 954 F.2d 12" (the opinion's text lost the "í" of García): "Garc" begins
    the case's party, so the draft names it in part."""
    loud = {(k, sev) for k, sev in found.get("954 F.2d 12", set()) if sev is not Severity.INFO}
    assert loud <= {(Kind.NAME_MISMATCH, Severity.WARNING)}


def test_an_in_rem_caption_with_etc_and_its_designation_is_read_whole(found) -> None:
    """ "United States v. One Parcel of Real Property, Etc. (Great Harbor Neck), 960 F.2d 200": the name was
    read as "Great Harbor Neck)" and called another case's (an error); it is the caption, named in part."""
    loud = {(k, sev) for k, sev in found.get("960 F.2d 200", set()) if sev is not Severity.INFO}
    assert loud <= {(Kind.NAME_MISMATCH, Severity.WARNING)}


def test_a_paragraph_number_without_its_sign_is_no_page_and_pin(found) -> None:
    """ "53 F.E.R.C. 63,020" is paragraph 63,020 of a FERC volume (the opinion's text drops every ¶ and §),
    not page 63 pinned at 20: no pin before the first page."""
    texts = [t for t in found if "F.E.R.C." in t]
    assert texts == ["53 F.E.R.C. 63,020", "59 F.E.R.C. 61,042"]
    assert not any(sev is not Severity.INFO for t in texts for _, sev in found[t])
