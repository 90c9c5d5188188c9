"""A filing's own table of authorities (issue 41 item 6): each entry recognised, linked to its uses in
the body, counted once, never lost. The text is Park v. Kim's reply brief (2d Cir. No. 22-2057; the
brief whose fabricated citation the court sanctioned, 91 F.4th 610), as its PDF's text layer gives it
(CaseStrainer's test files, github.com/justinseger015-ctrl/CaseStrainer, "Park v Kim.pdf")."""

from __future__ import annotations

import asyncio

from citecheck.config import Settings
from citecheck.extract import CiteForm, extract_citations
from citecheck.extract.tables import table_twins
from citecheck.findings import Kind, Severity
from citecheck.pipeline import check_document
from citecheck.report.model import BatchResult, authorities, file_result

TABLE = (
    "TABLE OF AUTHORITIES \n"
    "Cases: Page( s) \n"
    "Baptiste v. Sommers, 768 F.3d 212 216 (2d Cir. 2014 ) ........................... passim \n"
    "Matter of Bourguignon v. Coordinated Behavioral Health Servs., Inc., 114 A.D.3d \n"
    "947 (3d Dep't 2014) .................. ... .. ........................... ......... . ..... "
    ".......................... . ... ... ... ..... 6 \n"
    "Rules and Statutes \n"
    "New York Insurance law Section 2601 .................................................... 3 \n"
)
BODY = (
    "\n\nThe Defendant's argument fails because the Court of Appeals held that a worker may be compensated "
    "as a minimum \nwage worker when an injured worker lacks wage records for the prior year. Matter \nof "
    "Bourguignon v. Coordinated Behavioral He alth Servs .. Inc., 114 A.D.3d 947 (3d \nDep't 2014). \n"
    "Specifically, the District Court overlooked New York Insurance law Section 2601.\n"
)


def test_entries_are_recognised_even_over_two_lines() -> None:
    cites = extract_citations(TABLE + BODY).citations
    listed = [(" ".join(c.text.split()), c.listed) for c in cites]
    assert listed == [
        ("768 F.3d 212", True),
        ("114 A.D.3d 947", True),  # the entry runs over two lines
        ("New York Insurance law Section 2601", True),
        ("114 A.D.3d 947", False),
        ("New York Insurance law Section 2601", False),
    ]
    assert [c.pincite for c in cites if c.form is CiteForm.FULL] == [None, None, None]  # pages are no pins
    twins = table_twins(cites)
    assert twins == {1: 3, 2: 4}  # Baptiste is used only by short forms here: its entry stands alone


def test_an_authority_is_counted_and_reported_once_at_its_use() -> None:
    text = TABLE + BODY
    report = asyncio.run(check_document(text, None, Settings(offline=True)))
    by_index: dict[int | None, list[Kind]] = {}
    for f in report.findings:
        by_index.setdefault(f.citation_index, []).append(f.kind)
    assert 1 not in by_index and 2 not in by_index  # the entries speak through their uses
    assert Kind.CANNOT_VERIFY in by_index[3] and Kind.STATUTE_NOT_CHECKED in by_index[4]
    assert Kind.CANNOT_VERIFY in by_index[0]  # an entry the body never cites in full keeps its finding
    assert report.result(1).status is report.result(3).status
    batch = BatchResult(files=(file_result("park.pdf", "pdf", text, report),), offline=True)
    assert sum(batch.status_counts().values()) == len(report.extraction.citations) - 2
    (bourguignon,) = [a for a in authorities(batch.files[0]) if "114 A.D.3d" in a.cite]
    assert [(p.citation_index, p.listed) for p in bourguignon.places] == [(1, True), (3, False)]


def test_an_impossible_citation_in_table_and_body_is_one_error() -> None:
    text = (
        "TABLE OF AUTHORITIES\nVarghese v. China S. Airlines Co., 925 F.4th 1339 (11th Cir. 2019) ........ 4, 6\n\n"
        "See Varghese v. China S. Airlines Co., 925 F.4th 1339 (11th Cir. 2019)."
    )
    report = asyncio.run(check_document(text, None, Settings(offline=True)))
    errors = [f for f in report.findings if f.severity is Severity.ERROR]
    assert [(f.kind, f.citation_index) for f in errors] == [(Kind.IMPOSSIBLE_CITATION, 1)]


#: A Texas mandamus relator's motion for rehearing as vLex's copy gives its index of authorities (LEGAL_DESTROYER,
#: RESEARCH/vLex-… 25-0367; issue 41's second round): the text reflowed, so an entry's court and year run onto
#: the next line and the next entry starts right after the pages. Four of its eight entries were not
#: recognised, so each of those authorities was counted twice.
REFLOWED = (
    "INDEX OF\nAUTHORITIES CASE PAGE # Canadian Helicopters, Ltd. v.\nWittig, 876 S.W.2d 304, 306 (Tex.\n"
    "1994) .............................................................. 14 Perry v. Del Rio, 66 S.W.3d\n"
    "239, 257 (Tex.2001) ................................................................ 14 In re\n"
    "Prudential Ins. Co. of America, 148 S.W.3d 124, (Tex.\n"
    "2003) .................................................................... 14 Ex parte Sinegar, 324\n"
    "S.W.3d 578 (Tex. Crim. App. 2010) .................................................. 15\n"
    "Spigener v. Wallis, 80 S.W.3d 174 (Tex. App.\n"
    "2002) ............................................................... 15 Taylor v. Taylor (Tex. App.\n"
    "2001) ....................................................................................... 15 In re\n"
    "Thompson, 330 S.W.3d 411 (Tex. App.\n2010) ............................................................. 15"
    "\n\nMandamus issues to correct a clear abuse of discretion. Walker v. Packer, 827 S.W.2d 833, 840 "
    "(Tex. 1992); Perry v. Del Rio, 66 S.W.3d 239, 257 (Tex. 2001). So too In re Prudential Ins. Co. of Am., "
    "148 S.W.3d 124, 135 (Tex. 2004), and Spigener v. Wallis, 80 S.W.3d 174 (Tex. App. 2002), and In re "
    "Thompson, 330 S.W.3d 411 (Tex. App. 2010)."
)


def test_a_reflowed_table_with_entries_run_together_is_recognised() -> None:
    cites = extract_citations(REFLOWED).citations
    listed = [" ".join(c.text.split()) for c in cites if c.listed]
    assert listed == [
        "876 S.W.2d 304",
        "66 S.W.3d 239",
        "148 S.W.3d 124",
        "324 S.W.3d 578",
        "80 S.W.3d 174",
        "330 S.W.3d 411",
    ]
    body = {" ".join(c.text.split()): c.index for c in cites if not c.listed}
    twins = {" ".join(cites[k].text.split()): v for k, v in table_twins(cites).items()}
    assert twins == {
        k: body[k] for k in ("66 S.W.3d 239", "148 S.W.3d 124", "80 S.W.3d 174", "330 S.W.3d 411")
    }


def test_an_ellipsis_after_a_body_citation_is_no_leader() -> None:
    text = "As held in Perry v. Del Rio, 66 S.W.3d 239, 257 (Tex. 2001) . . . . 14 Texans agree."
    assert [c.listed for c in extract_citations(text).citations] == [False]
