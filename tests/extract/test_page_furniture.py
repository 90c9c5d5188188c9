"""Page furniture in a PDF's text layer (issue 41 item 1): a citation run over a page break, with the
court's e-filing stamp, a running head and the page number between its parts, is one citation.

The page texts below are as pypdf gives real filings (doctor's RECAP test files: a First Circuit
opinion's CM/ECF stamp and ``- 3 -`` page numbers, a Fifth Circuit opinion's ``No. 21-50498`` running
head, a Ninth Circuit motion's ``Case: 20-16276, … Page 3 of 15`` stamp); the PDF test builds a real
PDF byte by byte and reads it through ``read_input`` as the CLI does.
"""

from __future__ import annotations

from citecheck.extract import extract_citations
from citecheck.extract.page_furniture import clean_pages, page_joint
from citecheck.inputs import read_input
from citecheck_testing.pdf import build_pdf

STAMP = (
    "Case: 20-1507     Document: 00117684624     Page: {n}      Date Filed: 12/22/2020      Entry ID: 6390389"
)


def _ca1_page(n: int, body: str) -> str:
    return f"- {n + 1} - \n{body}\n \n{STAMP.format(n=n)}"


def test_stamps_page_numbers_and_running_heads_go_footnotes_stay() -> None:
    pages = [
        _ca1_page(1, "SELYA, Circuit Judge.  This interlocutory appeal arises \nout of the chaotic early weeks."),
        _ca1_page(2, "The Chapel sued.  See Espinal-Domínguez v. Puerto Rico, 352"),
        _ca1_page(3, "F.3d 490, 495 (1st Cir. 2003).  We must, therefore, mount an \n"
                  "independent inquiry.\n \n2 Even if these circumstances qualified as a close call."),
        _ca1_page(4, "So Ordered."),
    ]  # fmt: skip
    cleaned = clean_pages(pages)
    assert not any("Document:" in p or p.startswith("- ") for p in cleaned)
    assert cleaned[2].endswith("2 Even if these circumstances qualified as a close call.")  # a footnote stays
    assert cleaned[1] == "The Chapel sued.  See Espinal-Domínguez v. Puerto Rico, 352"
    joint = page_joint(cleaned[1], cleaned[2])
    assert joint == "\n"  # the page stops inside a citation
    assert page_joint(cleaned[0], cleaned[1]) == "\n\n"  # it ends a sentence
    text = cleaned[1] + joint + cleaned[2]
    (case,) = [c for c in extract_citations(text).citations if c.volume]
    assert (case.volume, case.reporter, case.page, case.year) == ("352", "F.3d", "490", 2003)
    assert case.case_name is not None and case.case_name.text == "Espinal-Domínguez v. Puerto Rico"


def test_a_running_head_repeated_on_three_pages_is_furniture() -> None:
    """Fifth Circuit slip opinions print ``No. 21-50498`` and the page number atop every page."""
    heads = [f"No. 21-50498 \n{n} \n" for n in (2, 3, 4)]
    pages = [
        heads[0]
        + "St. Pierre argued that the City acted as an agent of Dearborn. See Montoya v. FedEx Ground \n"
        "Package Sys., Inc., 614",
        heads[1] + "F.3d 145, 146 (5th Cir. 2010).",
        heads[2] + "AFFIRMED.",
    ]
    cleaned = clean_pages(pages)
    assert [p.splitlines()[0] for p in cleaned] == [
        "St. Pierre argued that the City acted as an agent of Dearborn. See Montoya v. FedEx Ground ",
        "F.3d 145, 146 (5th Cir. 2010).",
        "AFFIRMED.",
    ]
    text = cleaned[0] + page_joint(cleaned[0], cleaned[1]) + cleaned[1]
    (case,) = [c for c in extract_citations(text).citations if c.volume]
    assert (case.volume, case.reporter, case.page, case.court) == ("614", "F.3d", "145", "ca5")


def test_pleading_paper_line_numbers_are_furniture() -> None:
    numbers = "\n".join(str(n) for n in range(1, 29))
    page = numbers + "\nPlaintiffs rely on Hernandez Roman v. Wolf, 977 F.3d 935 (9th Cir. 2020)."
    (cleaned,) = clean_pages([page])
    assert cleaned == "Plaintiffs rely on Hernandez Roman v. Wolf, 977 F.3d 935 (9th Cir. 2020)."


def test_a_pdf_citation_over_a_page_break_is_found_with_its_page(tmp_path) -> None:
    stamp = "Case 4:20-cv-01234   Document 27   Filed 02/03/21   Page {n} of 3"
    pages = [
        ["The trial court abused its discretion. See Walker v. Packer,", "827", stamp.format(n=1)],
        [stamp.format(n=2), "S.W.2d 833, 839 (Tex. 1992) (orig. proceeding). The writ should issue."],
        [stamp.format(n=3), "Respectfully submitted."],
    ]
    path = tmp_path / "brief.pdf"
    path.write_bytes(build_pdf(pages))
    doc = read_input(str(path))
    assert "Document 27" not in doc.text
    (case,) = [c for c in extract_citations(doc.text).citations if c.volume]
    assert (case.volume, case.reporter, case.page, case.year) == ("827", "S.W.2d", "833", 1992)
    assert " ".join(doc.text[case.span.start : case.span.end].split()) == "827 S.W.2d 833"
    assert case.case_name is not None and case.case_name.text == "Walker v. Packer"
    assert doc.page_at(case.span.start) == "1" and doc.page_at(case.span.end - 1) == "2"
    assert doc.page_at(doc.text.index("Respectfully")) == "3"
