"""Reading documents: .docx (body, tables, headers/footers, footnotes/endnotes), .md/.txt, .pdf, stdin.

Every fixture is built here in its real format (python-docx + the OOXML footnotes part, a PDF
written byte by byte, pypdf's own encryption), never copied from elsewhere.
"""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

import docx
import pypdf
import pytest

from citecheck.errors import InputError
from citecheck.inputs import read_input
from citecheck_testing.pdf import build_pdf

W_NS = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
FOOTNOTES_CT = "application/vnd.openxmlformats-officedocument.wordprocessingml.footnotes+xml"
ENDNOTES_CT = "application/vnd.openxmlformats-officedocument.wordprocessingml.endnotes+xml"
REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"


def _notes_xml(tag: str, notes: list[str]) -> str:
    """A footnotes/endnotes part as Word writes it: two separators, then the real notes."""
    seps = (
        f'<w:{tag} w:type="separator" w:id="-1"><w:p><w:r><w:separator/></w:r></w:p></w:{tag}>'
        f'<w:{tag} w:type="continuationSeparator" w:id="0"><w:p><w:r><w:continuationSeparator/></w:r>'
        f"</w:p></w:{tag}>"
    )
    body = "".join(
        f'<w:{tag} w:id="{i}"><w:p><w:r><w:rPr><w:vertAlign w:val="superscript"/></w:rPr><w:{tag}Ref/></w:r>'
        f'<w:r><w:t xml:space="preserve"> {text}</w:t></w:r></w:p></w:{tag}>'
        for i, text in enumerate(notes, start=1)
    )
    return f'<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:{tag}s xmlns:w="{W_NS}">{seps}{body}</w:{tag}s>'


def build_docx(
    path: Path,
    *,
    body: list[str],
    table: list[list[str]],
    footnotes: list[str],
    endnotes: list[str] = (),
    header: str = "",
    footer: str = "",
) -> Path:
    """A Word document with a table, a header/footer and real footnotes/endnotes parts."""
    document = docx.Document()
    if header:
        document.sections[0].header.paragraphs[0].text = header
    if footer:
        document.sections[0].footer.paragraphs[0].text = footer
    for i, text in enumerate(body):
        p = document.add_paragraph(text)
        if i == 0 and footnotes:  # a footnote reference mark, as Word puts it in the body
            run = p.add_run()
            ref = run._r.makeelement(f"{{{W_NS}}}footnoteReference", {f"{{{W_NS}}}id": "1"})
            run._r.append(ref)
    t = document.add_table(rows=len(table), cols=len(table[0]))
    for r, row in enumerate(table):
        for c, value in enumerate(row):
            t.cell(r, c).text = value
    document.add_paragraph("After the table.")
    buf = io.BytesIO()
    document.save(buf)
    # python-docx cannot add notes parts: add them to the package the way Word lays them out
    src = zipfile.ZipFile(io.BytesIO(buf.getvalue()))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as dst:
        for item in src.infolist():
            data = src.read(item.filename)
            if item.filename == "[Content_Types].xml":
                data = data.replace(
                    b"</Types>",
                    (
                        f'<Override PartName="/word/footnotes.xml" ContentType="{FOOTNOTES_CT}"/>'
                        f'<Override PartName="/word/endnotes.xml" ContentType="{ENDNOTES_CT}"/></Types>'
                    ).encode(),
                )
            elif item.filename == "word/_rels/document.xml.rels":
                data = data.replace(
                    b"</Relationships>",
                    (
                        f'<Relationship Id="rIdFn" Type="{REL}/footnotes" Target="footnotes.xml"/>'
                        f'<Relationship Id="rIdEn" Type="{REL}/endnotes" Target="endnotes.xml"/></Relationships>'
                    ).encode(),
                )
            dst.writestr(item, data)
        dst.writestr("word/footnotes.xml", _notes_xml("footnote", footnotes))
        dst.writestr("word/endnotes.xml", _notes_xml("endnote", list(endnotes)))
    path.write_bytes(out.getvalue())
    return path


def test_docx_reads_body_tables_headers_footnotes_and_endnotes(tmp_path):
    path = build_docx(
        tmp_path / "brief.docx",
        body=["See Savage v. Parks, 100 A.2d 450, 451 (D.C. 1953).", "Second paragraph."],
        table=[["Authority", "Cite"], ["Berry v. Keith", "100 A.2d 831"]],
        footnotes=["Berry v. Keith, 100 A.2d 831, 833 (D.C. 1953)."],
        endnotes=["Clarke v. District of Columbia, 100 A.2d 833 (D.C. 1953)."],
        header="Case No. 24-CV-0417",
        footer="Page footer",
    )
    doc = read_input(str(path))
    assert doc.kind == "docx"
    text = doc.text
    order = [
        "See Savage v. Parks",
        "Second paragraph.",
        "Authority",
        "Cite",
        "Berry v. Keith",
        "100 A.2d 831",
        "After the table.",
        "Case No. 24-CV-0417",
        "Page footer",
        "1 Berry v. Keith, 100 A.2d 831, 833",
        "1 Clarke v. District of Columbia",
    ]
    positions = [text.index(s) for s in order]
    assert positions == sorted(positions)
    assert "separator" not in text and text.count("Berry v. Keith") == 2


def test_txt_and_markdown_decode_utf8_bom_crlf_and_cp1252(tmp_path):
    (tmp_path / "a.md").write_bytes("\ufeffSee *Roe*, 410 U.S. 113.\r\nNext §".encode())
    doc = read_input(str(tmp_path / "a.md"))
    assert (doc.kind, doc.text) == ("markdown", "See *Roe*, 410 U.S. 113.\nNext §")
    (tmp_path / "w.txt").write_bytes("“Quoted” text".encode("cp1252"))
    assert read_input(str(tmp_path / "w.txt")).text == "“Quoted” text"


def test_pdf_text_keeps_page_numbers(tmp_path):
    (tmp_path / "f.pdf").write_bytes(
        build_pdf(["Savage v. Parks, 100 A.2d 450", "Berry v. Keith, 100 A.2d 831"])
    )
    doc = read_input(str(tmp_path / "f.pdf"))
    assert doc.kind == "pdf" and "100 A.2d 831" in doc.text
    assert doc.page_at(doc.text.index("100 A.2d 450")) == "1"
    assert doc.page_at(doc.text.index("100 A.2d 831")) == "2"


def test_pdf_with_bytes_before_its_header_is_read(tmp_path):
    """A PDF whose %PDF header is not at byte 0 but within the first 1,024 bytes (a mail gateway's
    MIME preamble, a scanner's prefix) is read, as PDF readers read it (issue 25); past 1,024 it is not."""
    pdf = build_pdf(["Savage v. Parks, 100 A.2d 450", "Berry v. Keith, 100 A.2d 831"])
    junk = b"\xef\xbb\xbfContent-Type: application/pdf\r\n\r\n" + b"x" * 900 + b"\r\n"
    (tmp_path / "f.pdf").write_bytes(junk + pdf)
    doc = read_input(str(tmp_path / "f.pdf"))
    assert doc.kind == "pdf" and doc.page_at(doc.text.index("100 A.2d 831")) == "2"
    nameless = read_input("-", stdin=io.BytesIO(junk + pdf))
    assert nameless.kind == "pdf" and "100 A.2d 450" in nameless.text
    (tmp_path / "late.pdf").write_bytes(b"x" * 1100 + pdf)
    with pytest.raises(InputError, match="no %PDF header in its first 1024 bytes"):
        read_input(str(tmp_path / "late.pdf"))
    text = read_input("-", stdin=io.BytesIO(b"A note on the %PDF-1.7 format: see 100 A.2d 450."))
    assert text.kind == "text"


def test_pdf_without_a_text_layer_says_nothing_could_be_read(tmp_path):
    """A scanned brief (pages, no text layer) must not read as "0 citations, nothing wrong" (issue 17)."""
    w = pypdf.PdfWriter()
    for _ in range(3):
        w.add_blank_page(width=612, height=792)
    buf = io.BytesIO()
    w.write(buf)
    (tmp_path / "scan.pdf").write_bytes(buf.getvalue())
    with pytest.raises(InputError, match=r"nothing could be read.*3 page.*no text layer"):
        read_input(str(tmp_path / "scan.pdf"))


def test_a_scan_with_a_stamp_on_each_page_says_nothing_could_be_read(tmp_path):
    """Issue 36: a Texas motion filed as a scan, a clerk's "A CERTIFIED COPY ATTEST" stamp the only text on
    its three pages (81 letters each), came out "No citations. No findings."; so did a HeinOnline scan of
    a law-review article ("HeinOnline -- 77 Law. Libr. J. 543 1984-1985" over each page's picture)."""
    stamp = [
        "322-744538-23",
        "A CERTIFIED COPY",
        "ATTEST: THOMAS A. WILDER, DISTRICT CLERK",
        "TARRANT COUNTY, TEXAS",
    ]
    (tmp_path / "motion.pdf").write_bytes(build_pdf([stamp, stamp, stamp], scanned={0, 1, 2}))
    with pytest.raises(InputError, match=r"nothing could be read.*3 page.*beyond a stamp or a header line"):
        read_input(str(tmp_path / "motion.pdf"))
    hein = [f"HeinOnline -- 77 Law. Libr. J. {p} 1984-1985" for p in (543, 544)]
    (tmp_path / "article.pdf").write_bytes(build_pdf(hein, scanned={0, 1}))
    with pytest.raises(InputError, match="nothing could be read"):
        read_input(str(tmp_path / "article.pdf"))


def test_scanned_pages_among_typed_ones_are_named(tmp_path):
    """A Tennessee decision with its last five pages scanned (issue 36's round): the typed pages are read,
    the scanned ones are listed by label so the report can say they were not checked. A page with little
    text and no image (a short order, a blank separator) is not a scan."""
    typed = "The employee relies on Savage v. Parks, 100 A.2d 450 (D.C. 1953), and on the statute. " * 3
    pages = [typed, "SO ORDERED.", typed, "HeinOnline -- 75 Cal. L. Rev. 28 1987", ""]
    (tmp_path / "decision.pdf").write_bytes(build_pdf(pages, scanned={3, 4}))
    doc = read_input(str(tmp_path / "decision.pdf"))
    assert doc.unread_pages == ("4", "5")
    assert "100 A.2d 450" in doc.text and "SO ORDERED." in doc.text
    (tmp_path / "typed.pdf").write_bytes(build_pdf([typed, "SO ORDERED."]))
    assert read_input(str(tmp_path / "typed.pdf")).unread_pages == ()


def test_an_empty_pdf_and_a_wordperfect_file_say_what_they_are(tmp_path):
    """Issue 36's round: freelawproject/doctor's test_assets/empty.pdf (0 bytes) was "not a PDF (no %PDF
    header in its first 1024 bytes)", and CourtListener's opinion_wpd.wpd (a WordPerfect opinion) "looks like
    a binary file, not text"."""
    (tmp_path / "empty.pdf").write_bytes(b"")
    with pytest.raises(InputError, match=r"empty\.pdf: the file is empty \(0 bytes\)$"):
        read_input(str(tmp_path / "empty.pdf"))
    (tmp_path / "empty.docx").write_bytes(b"")
    with pytest.raises(InputError, match="the file is empty"):
        read_input(str(tmp_path / "empty.docx"))
    assert read_input(str(_write(tmp_path / "empty.md", b""))).text == ""  # an empty draft: nothing to check
    # the first bytes of a WordPerfect 6+ document: the magic, the offset of the text, product and file type
    (tmp_path / "opinion.wpd").write_bytes(b"\xffWPC\x16\x0f\x00\x00\x01\x0a\x02\x01" + b"\x00" * 64)
    with pytest.raises(InputError, match=r"WordPerfect files are not supported; save it as \.docx or PDF"):
        read_input(str(tmp_path / "opinion.wpd"))


def _write(path: Path, data: bytes) -> Path:
    path.write_bytes(data)
    return path


def test_stdin_is_read_and_sniffed():
    doc = read_input("-", stdin=io.BytesIO(b"See 100 A.2d 450."))
    assert (doc.name, doc.kind, doc.text) == ("<stdin>", "text", "See 100 A.2d 450.")
    pdf = read_input("-", stdin=io.BytesIO(build_pdf(["Hello 100 A.2d 450"])))
    assert pdf.kind == "pdf" and "100 A.2d 450" in pdf.text


def _encrypted_pdf() -> bytes:
    w = pypdf.PdfWriter()
    w.add_blank_page(200, 200)
    w.encrypt(user_password="secret", algorithm="RC4-128")
    buf = io.BytesIO()
    w.write(buf)
    return buf.getvalue()


@pytest.mark.parametrize(
    ("name", "data", "expected"),
    [
        ("enc.pdf", _encrypted_pdf(), "the PDF is encrypted"),
        ("broken.pdf", b"%PDF-1.4\n1 0 obj\n<< /Type /Catalog", "malformed PDF"),
        ("nopdf.pdf", b"just text", "not a PDF"),
        ("broken.docx", b"PK\x03\x04garbage", "not a valid .docx"),
        ("enc.docx", b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\0" * 600, "encrypted"),
        ("old.doc", b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1", ".doc files are not supported"),
        ("bin.txt", b"\x7fELF\x02\x01\x01\x00\x00\x00", "binary"),
        ("empty-zip.docx", None, "no word/document.xml"),
    ],
)
def test_bad_files_give_one_line_errors_naming_the_file(tmp_path, name, data, expected):
    if data is None:
        buf = io.BytesIO()
        with zipfile.ZipFile(buf, "w") as z:
            z.writestr("hello.txt", "hi")
        data = buf.getvalue()
    path = tmp_path / name
    path.write_bytes(data)
    with pytest.raises(InputError) as err:
        read_input(str(path))
    message = str(err.value)
    assert message.startswith(str(path)) and expected in message and "\n" not in message


def test_missing_directory_and_enormous_inputs(tmp_path):
    with pytest.raises(InputError, match="no such file"):
        read_input(str(tmp_path / "nope.md"))
    with pytest.raises(InputError, match="is a directory"):
        read_input(str(tmp_path))
    (tmp_path / "big.txt").write_text("x" * 5000)
    with pytest.raises(InputError, match="5,000 characters; the limit is 1,000"):
        read_input(str(tmp_path / "big.txt"), max_chars=1000)


def test_docx_text_is_what_word_shows_with_tracked_changes_accepted(tmp_path):
    """Hyperlinked names, tracked insertions, smart tags and content controls are read; deletions and
    field codes are not (python-docx's Paragraph.text would drop the insertion and lose the citation)."""
    from docx.oxml import parse_xml

    ns = f'xmlns:w="{W_NS}" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"'
    document = docx.Document()
    p = document.add_paragraph("See ")
    for xml in (
        f'<w:hyperlink {ns} r:id="rId99"><w:r><w:t>Savage v. Parks</w:t></w:r></w:hyperlink>',
        f'<w:ins {ns} w:id="1" w:author="A"><w:r><w:t>, 100 A.2d 450</w:t></w:r></w:ins>',
        f'<w:del {ns} w:id="2" w:author="A"><w:r><w:delText>, 99 A.2d 1</w:delText></w:r></w:del>',
        f'<w:r {ns}><w:fldChar w:fldCharType="begin"/></w:r>',
        f'<w:r {ns}><w:instrText> TA \\l "Savage" </w:instrText></w:r>',
        f'<w:r {ns}><w:fldChar w:fldCharType="end"/></w:r>',
        f'<w:smartTag {ns} w:uri="u" w:element="e"><w:r><w:t>, 451</w:t></w:r></w:smartTag>',
        f"<w:sdt {ns}><w:sdtContent><w:r><w:t> (D.C. Mun. App.</w:t><w:tab/><w:t>1953).</w:t></w:r>"
        "</w:sdtContent></w:sdt>",
    ):
        p._p.append(parse_xml(xml))
    document.save(tmp_path / "tracked.docx")
    assert (
        read_input(str(tmp_path / "tracked.docx")).text
        == "See Savage v. Parks, 100 A.2d 450, 451 (D.C. Mun. App.\t1953)."
    )


def test_docx_merged_cells_are_read_once_and_docx_on_stdin_is_sniffed(tmp_path):
    document = docx.Document()
    table = document.add_table(rows=2, cols=2)
    table.cell(0, 0).merge(table.cell(0, 1)).text = "Savage v. Parks, 100 A.2d 450"
    table.cell(1, 0).text = "left"
    table.cell(1, 1).text = "right"
    buf = io.BytesIO()
    document.save(buf)
    doc = read_input("-", stdin=io.BytesIO(buf.getvalue()))
    assert doc.kind == "docx" and doc.name == "<stdin>"
    assert doc.text == "Savage v. Parks, 100 A.2d 450\n\nleft\n\nright"


def test_docx_places_name_paragraphs_and_notes_as_word_shows_them(tmp_path):
    path = build_docx(
        tmp_path / "brief.docx",
        body=["See Savage v. Parks, 100 A.2d 450.", "", "Second paragraph."],
        table=[["Berry v. Keith", "100 A.2d 831"]],
        footnotes=["Berry v. Keith, 100 A.2d 831, 833 (D.C. 1953)."],
        endnotes=["Clarke v. District of Columbia, 100 A.2d 833 (D.C. 1953)."],
        header="Case No. 24-CV-0417",
        footer="Page footer",
    )
    doc = read_input(str(path))
    labels = dict((label, off) for off, label in doc.places)

    def where(needle: str) -> str:
        at = doc.text.index(needle)
        return [label for off, label in doc.places if off <= at][-1]

    assert (
        where("Savage") == "paragraph 1" and where("Second paragraph") == "paragraph 2"
    )  # empty one skipped
    assert where("100 A.2d 831, 833") == "footnote 1" and where("Clarke") == "endnote 1"
    assert where("Case No.") == "header" and where("Page footer") == "footer"
    assert labels["paragraph 1"] == 0
