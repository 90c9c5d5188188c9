"""A small checked document built by hand (no pipeline), so renderer tests fail only for renderer bugs.

The text is real citation text from 100 A.2d; the statuses, findings and evidence are what the
pipeline produces for it with the CAP sample corpus imported.
"""

from __future__ import annotations

import pytest

from citecheck.extract.models import CaseName, Citation, CiteForm, Extraction, Pincite, PinPage, Quote
from citecheck.findings import Evidence, Fix, Kind, TextEdit, make_finding
from citecheck.report.model import BatchResult, FileError, file_result
from citecheck.results import CitationResult, Report, Status
from citecheck.sources.models import CaseCite, CaseRecord
from citecheck.spans import Span

TEXT = (
    "Relief follows. *Savage v. Parks*, 100 A.2d 450, 451 (D.C. 1953).\n"
    "The agent may not forfeit it. *Berry v. Keith*, 100 A.2d 831, 836 (D.C. 1953). "
    "Id. at 832.\n"
    "Also 😀 “<b>&</b>” | *Whitfield v. Kessler*, 512 A.4th 77 (D.C. 2021).\n"
)


def _span(text: str, needle: str, start: int = 0) -> Span:
    i = TEXT.index(needle, start)
    return Span(i, i + len(needle))


def _cite(
    index: int, needle: str, name: str, volume: str, reporter: str, page: str, pin: str | None, **kw
) -> Citation:
    span = _span(TEXT, needle)
    name_span = _span(TEXT, name)
    pincite = None
    if pin:
        ps = _span(TEXT, pin, span.end)
        pincite = Pincite(text=pin, span=ps, parts=(PinPage(first=pin, span=ps),))
    return Citation(
        index=index,
        form=CiteForm.FULL,
        span=span,
        full_span=name_span.union(span),
        text=needle,
        volume=volume,
        reporter=reporter,
        page=page,
        case_name=CaseName(text=name, span=name_span),
        pincite=pincite,
        year=kw.pop("year", None),
        court="dc",
        group=index,
        **kw,
    )


SAVAGE = CaseRecord(
    id="cap:1",
    source="cap",
    name="Savage v. Parks",
    court_id="dcctapp",
    decision_date="1953-11-18",
    citations=(CaseCite(volume="100", reporter="A.2d", page="450", last_page="452"),),
    url="https://static.case.law/a2d/100/cases/0450-01.json",
)
BERRY = CaseRecord(
    id="cap:2",
    source="cap",
    name="Berry v. Keith",
    court_id="dcctapp",
    decision_date="1953-11-25",
    citations=(CaseCite(volume="100", reporter="A.2d", page="831", last_page="833"),),
)


def build_report() -> Report:
    savage = _cite(0, "100 A.2d 450", "Savage v. Parks", "100", "A.2d", "450", "451", year=1953)
    berry = _cite(1, "100 A.2d 831", "Berry v. Keith", "100", "A.2d", "831", "836", year=1953)
    id_span = _span(TEXT, "Id. at 832")
    idc = Citation(
        index=2,
        form=CiteForm.ID,
        span=id_span,
        full_span=id_span,
        text="Id. at 832",
        antecedent=1,
        pincite=Pincite(
            text="832",
            span=_span(TEXT, "832", id_span.start),
            parts=(PinPage(first="832", span=_span(TEXT, "832", id_span.start)),),
        ),
    )
    whit = _cite(3, "512 A.4th 77", "Whitfield v. Kessler", "512", "A.4th", "77", None, year=2021)
    whit = Citation(**{**{k: getattr(whit, k) for k in whit.__slots__}, "form": CiteForm.UNRECOGNISED})
    quote_span = _span(TEXT, "Relief follows.")
    savage = Citation(
        **{
            **{k: getattr(savage, k) for k in savage.__slots__},
            "quotes": (Quote(text="Relief follows.", span=quote_span),),
        }
    )
    findings = (
        make_finding(
            Kind.PINCITE_OUT_OF_RANGE,
            berry.pincite.span,
            "Pin cite 836 is outside Berry v. Keith, which runs from page 831 to 833.",
            evidence=Evidence(
                source="corpus",
                record_id="cap:2",
                case_name="Berry v. Keith",
                citation="100 A.2d 831",
                page="831–833",
                court="dcctapp",
                date="1953-11-25",
            ),
            fixes=(
                Fix(
                    title="Change the pin cite to 833",
                    edits=(TextEdit(span=berry.pincite.span, new_text="833"),),
                ),
            ),
            citation_index=1,
        ),
        make_finding(
            Kind.IMPOSSIBLE_CITATION,
            whit.span,
            "No reporter \u201cA.4th\u201d exists; a citation to it cannot be real.",
            evidence=Evidence(source="reporters-db", note="A.2d and A.3d are the Atlantic Reporter's series"),
            citation_index=3,
        ),
    )
    extraction = Extraction(text=TEXT, citations=(savage, berry, idc, whit))
    V, N = Status.VERIFIED, Status.NOT_CHECKED
    results = (
        CitationResult(
            citation_index=0,
            status=V,
            basis=V,
            record=SAVAGE,
            page_used="451",
            passage="Nothing can be clearer, we think",
        ),
        CitationResult(citation_index=1, status=V, basis=V, record=BERRY),
        CitationResult(citation_index=2, status=V, basis=V, record=BERRY),
        CitationResult(citation_index=3, status=N, basis=N),
    )
    # statuses from the findings by the one rule (results.status_for), as judge() does
    return Report(text=TEXT, extraction=extraction, findings=(), results=results).with_findings(findings)


@pytest.fixture
def sample_batch() -> BatchResult:
    fr = file_result("briefs/sample brief.md", "markdown", TEXT, build_report())
    return BatchResult(
        files=(fr,),
        errors=(FileError(name="bad.docx", message="malformed .docx"),),
        tool_version="0.1.0",
        sources="corpus",
        offline=True,
    )


@pytest.fixture
def headless_chromium(tmp_path):
    """Open an HTML file in headless Chromium: returns (screenshot PNG bytes, DOM after load).

    Skips with a clear reason when Debian's ``chromium`` is not installed (.ci/run installs it when it can).
    """
    import shutil
    import subprocess

    binary = shutil.which("chromium") or shutil.which("chromium-browser")
    if binary is None:
        pytest.skip("no Chromium installed (Debian package 'chromium'); .ci/run installs it when it can")
    flags = [
        binary,
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--no-first-run",
        f"--user-data-dir={tmp_path / 'chromium-profile'}",
    ]

    def open_page(page, window: str = "1280,1600") -> tuple[bytes, str]:
        shot = tmp_path / (page.stem + ".png")
        subprocess.run(
            [*flags, f"--screenshot={shot}", f"--window-size={window}", page.as_uri()],
            check=True,
            timeout=90,
            capture_output=True,
        )
        dom = subprocess.run(
            [*flags, "--dump-dom", page.as_uri()], check=True, timeout=90, capture_output=True, text=True
        ).stdout
        return shot.read_bytes(), dom

    return open_page
