"""Issue 32's acceptance, on the dumps PostgreSQL wrote in each of CourtListener's dialects (``dumps/``):
every real citation gets no error and no warning; the real-shaped citations CourtListener lacks (its known
gaps) get no error; invented pages are still flagged; through the whole pipeline, offline."""

from __future__ import annotations

import asyncio
import shutil
from pathlib import Path

import pytest

from citecheck.config import Settings
from citecheck.findings import Kind, Severity
from citecheck.pipeline import check_document
from citecheck.sources.base import Unavailable
from citecheck.sources.chain import SourceChain
from citecheck.sources.index.build import build_from_folder
from citecheck.sources.index.source import IndexSource
from citecheck_testing.dump_dialects import DIALECTS

DUMPS = Path(__file__).parent / "dumps"

#: real cases cited as they are printed (the fixture dump holds each)
REAL = """\
The right is settled. Roe v. Wade, 410 U.S. 113, 93 S. Ct. 705, 35 L. Ed. 2d 147 (1973); Doe v. Bolton,
410 U.S. 179 (1973); Miranda v. Arizona, 384 U.S. 436, 86 S. Ct. 1602 (1966); Brown v. Board of Education,
347 U.S. 483 (1954).

Counsel who cite invented cases are sanctioned. Mata v. Avianca, Inc., 678 F. Supp 3d 443 (S.D.N.Y. 2023).
See also In re "Agent Orange" Product Liability Litigation, 818 F.2d 145 (2d Cir. 1987).

A hearing must precede the taking. Peyton v. District of Columbia, 100 A.2d 36 (D.C. 1953); Savage v. Parks,
100 A.2d 450 (D.C. 1953); Pennsylvania R. v. Newmyer, 100 A.2d 456 (D.C. 1953); Berry v. Keith, 100 A.2d 831
(D.C. 1953).

The warrant was upheld. Asay v. State, 210 So. 3d 1 (Fla. 2016). Records are public. State ex rel. Fenley v.
Ohio Historical Society, 64 Ohio St. 3d 509, 597 N.E.2d 120 (1992).
"""
#: real-shaped citations CourtListener's data lacks or holds wrong (issue 32's gap shapes)
GAPS = """\
The neutral citation is missing. State ex rel. Fenley v. Ohio Historical Society, 64 Ohio St. 3d 509,
1992-Ohio-2.

Its regional parallel is missing. Harbor Realty Co. v. Baltimore County, 203 Md. 1, 100 A.2d 1 (1953). So it
is cited alone too. Harbor Realty Co. v. Baltimore County, 100 A.2d 1 (Md. 1953).

A table disposition it lacks. Rivera v. Holder, 995 F.2d 1065 (4th Cir. 1993) (table). Another one between
the tables. Lane v. Moore, 995 F.2d 1067 (4th Cir. 1993).

One of several cases printed on one page. Ramos v. Texas, 346 U.S. 906 (1953).

The appendix of 131 U.S. Ex parte Sample, 131 U.S. lxxxi (1889).

A case the data puts a page late. Kelly v. Shore, 100 A.2d 600 (D.C. 1953).

A volume filed under the wrong reporter. Underwood v. Vance, 12 Ohio App. 3d 45 (1983).

Only the captions of a consolidated case. Asay v. Jones, 210 So. 3d 1 (Fla. 2016).
"""
#: invented pages in volumes the data holds in full, and a citation that cannot exist
INVENTED = """\
Whitcomb v. Arundel County, 100 A.2d 420 (D.C. 1953). Smith v. Jones, 346 U.S. 915 (1953). Varghese v. China
Southern Airlines Co., 131 U.S. 30 (1889). Boone v. Vinson, 446 Cal. Rptr. 4th 183 (2019). A real case at a
page that is not its own: Savage v. Parks, 100 A.2d 540 (D.C. 1953).
"""


def _findings(index: Path, text: str) -> dict[str, set[tuple[Kind, Severity]]]:
    async def run() -> dict[str, set[tuple[Kind, Severity]]]:
        chain = SourceChain([IndexSource.open(index), Unavailable("offline mode")])
        try:
            report = await check_document(text, chain, Settings(offline=True, cap_fetch=False))
        finally:
            await chain.close()
        out: dict[str, set[tuple[Kind, Severity]]] = {
            c.cite_string or c.text: set() for c in report.extraction.citations
        }
        for f in report.findings:
            if f.citation_index is not None:
                c = report.extraction.citations[f.citation_index]
                out[c.cite_string or c.text].add((f.kind, f.severity))
        return out

    return asyncio.run(run())


@pytest.fixture(scope="module", params=list(DIALECTS))
def index(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Path:
    tmp = tmp_path_factory.mktemp(request.param)
    shutil.copytree(DUMPS / request.param, tmp / "dump")
    build_from_folder(tmp / "ix.sqlite", tmp / "dump", full_dump=True)
    return tmp / "ix.sqlite"


def test_real_citations_get_no_error_and_no_warning(index: Path) -> None:
    found = _findings(index, REAL)
    assert len(found) == 16
    loud = {cite: fs for cite, fs in found.items() if any(sev is not Severity.INFO for _, sev in fs)}
    assert loud == {}


def test_citations_the_data_lacks_get_no_error(index: Path) -> None:
    found = _findings(index, GAPS)
    errors = {cite: fs for cite, fs in found.items() if any(sev is Severity.ERROR for _, sev in fs)}
    assert errors == {}
    # the parallel citation in the same cite vouches for the missing one: nothing at all
    assert found["1992 Ohio 2"] == set() and found["203 Md. 1"] == set()
    assert found["100 A.2d 1"] == set() or found["100 A.2d 1"] == {(Kind.CANNOT_VERIFY, Severity.INFO)}
    assert {k for k, _ in found["995 F.2d 1067"]} <= {Kind.CANNOT_VERIFY}
    assert {k for k, _ in found["12 Ohio App. 3d 45"]} <= {Kind.CANNOT_VERIFY}
    assert found["346 U.S. 906"] == {(Kind.NAME_MISMATCH, Severity.WARNING)}
    assert found["995 F.2d 1065"] == {(Kind.NAME_MISMATCH, Severity.WARNING)}
    assert found["131 U.S. lxxxi"] == {(Kind.CANNOT_VERIFY, Severity.INFO)}
    assert found["210 So. 3d 1"] == set()
    assert found["100 A.2d 600"] == {(Kind.WRONG_FIRST_PAGE, Severity.WARNING)}


def test_invented_pages_are_still_flagged(index: Path) -> None:
    found = _findings(index, INVENTED)
    assert found["100 A.2d 420"] == {(Kind.FABRICATED_CASE, Severity.WARNING)}
    assert found["346 U.S. 915"] == {(Kind.FABRICATED_CASE, Severity.WARNING)}
    assert found["131 U.S. 30"] == {(Kind.FABRICATED_CASE, Severity.WARNING)}
    assert (Kind.IMPOSSIBLE_CITATION, Severity.ERROR) in found["446 Cal. Rptr. 4th 183"]
    # the case the draft names is found at another citation of the same reporter, with the draft's year:
    # proof that this citation is wrong (the evidence rule's part b), so an error, with the fix
    assert found["100 A.2d 540"] == {(Kind.FABRICATED_CASE, Severity.ERROR)}


def test_the_named_case_elsewhere_gives_the_error_its_fix(index: Path) -> None:
    async def run():
        chain = SourceChain([IndexSource.open(index), Unavailable("offline mode")])
        try:
            return await check_document(INVENTED, chain, Settings(offline=True, cap_fetch=False))
        finally:
            await chain.close()

    report = asyncio.run(run())
    (f,) = [f for f in report.findings if "100 A.2d 540" in f.message]
    assert "The case the draft names is at 100 A.2d 450" in f.message
    assert any("100 A.2d 450" in fix.title for fix in f.fixes)
