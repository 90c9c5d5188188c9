"""Build examples/brief.docx from examples/brief.md: headings, paragraphs, bold/italic, real footnotes.

Run from the repository root:  python examples/make_brief_docx.py
The Markdown footnote (``[^1]`` … ``[^1]: text``) becomes a Word footnote, so the .docx exercises
the footnotes part that python-docx has no API for.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path
from xml.sax.saxutils import escape

import docx
from docx.enum.text import WD_ALIGN_PARAGRAPH
from docx.opc.constants import RELATIONSHIP_TYPE as RT
from docx.opc.packuri import PackURI
from docx.opc.part import Part
from docx.oxml import parse_xml
from docx.shared import Pt

W_NS = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
FOOTNOTES_CT = "application/vnd.openxmlformats-officedocument.wordprocessingml.footnotes+xml"
INLINE = re.compile(r"\*\*(?P<bold>[^*]+)\*\*|\*(?P<ital>(?!\s)[^*]+?)\*|\[\^(?P<fn>\w+)\]")


def parse_markdown(text: str) -> tuple[list[tuple[str, str]], dict[str, str]]:
    """Blocks as (kind, text) — kind "h1".."h3" or "p" — and footnote definitions by label."""
    blocks: list[tuple[str, str]] = []
    notes: dict[str, str] = {}
    for chunk in re.split(r"\n\s*\n", text.strip()):
        joined = " ".join(line.strip() for line in chunk.splitlines())
        if m := re.match(r"\[\^(\w+)\]:\s*(.*)", joined):
            notes[m.group(1)] = m.group(2)
        elif m := re.match(r"(#{1,3})\s+(.*)", joined):
            blocks.append((f"h{len(m.group(1))}", m.group(2)))
        else:
            blocks.append(("p", joined))
    return blocks, notes


def _add_inline(paragraph, text: str) -> None:
    pos = 0
    for m in INLINE.finditer(text):
        if m.start() > pos:
            paragraph.add_run(text[pos : m.start()])
        if m.group("bold"):
            paragraph.add_run(m.group("bold")).bold = True
        elif m.group("ital"):
            paragraph.add_run(m.group("ital")).italic = True
        else:
            run = paragraph.add_run()
            run.font.superscript = True
            run._r.append(
                run._r.makeelement(f"{{{W_NS}}}footnoteReference", {f"{{{W_NS}}}id": m.group("fn")})
            )
        pos = m.end()
    if pos < len(text):
        paragraph.add_run(text[pos:])


def _runs_xml(text: str) -> str:
    out, pos = [], 0
    for m in INLINE.finditer(text):
        if m.start() > pos:
            out.append(f'<w:r><w:t xml:space="preserve">{escape(text[pos : m.start()])}</w:t></w:r>')
        if m.group("ital") or m.group("bold"):
            prop = "<w:i/>" if m.group("ital") else "<w:b/>"
            out.append(
                f'<w:r><w:rPr>{prop}</w:rPr><w:t xml:space="preserve">'
                f"{escape(m.group('ital') or m.group('bold'))}</w:t></w:r>"
            )
        pos = m.end()
    out.append(f'<w:r><w:t xml:space="preserve">{escape(text[pos:])}</w:t></w:r>')
    return "".join(out)


def _footnotes_part(document, notes: dict[str, str]) -> None:
    seps = (
        '<w:footnote w:type="separator" w:id="-1"><w:p><w:r><w:separator/></w:r></w:p></w:footnote>'
        '<w:footnote w:type="continuationSeparator" w:id="0"><w:p><w:r><w:continuationSeparator/></w:r>'
        "</w:p></w:footnote>"
    )
    body = "".join(
        f'<w:footnote w:id="{label}"><w:p><w:pPr><w:pStyle w:val="FootnoteText"/></w:pPr>'
        f'<w:r><w:rPr><w:vertAlign w:val="superscript"/></w:rPr><w:footnoteRef/></w:r>'
        f'<w:r><w:t xml:space="preserve"> </w:t></w:r>{_runs_xml(text)}</w:p></w:footnote>'
        for label, text in notes.items()
    )
    xml = (
        f'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
        f'<w:footnotes xmlns:w="{W_NS}">{seps}{body}</w:footnotes>'
    )
    parse_xml(xml.encode())  # fail here, not in Word, if the XML is broken
    part = Part(PackURI("/word/footnotes.xml"), FOOTNOTES_CT, xml.encode(), document.part.package)
    document.part.relate_to(part, RT.FOOTNOTES)


CUSTOM_CT = "application/vnd.openxmlformats-officedocument.custom-properties+xml"
CUSTOM_NS = "http://schemas.openxmlformats.org/officeDocument/2006/custom-properties"
VT_NS = "http://schemas.openxmlformats.org/officeDocument/2006/docPropsVTypes"
FMTID = "{D5CDD505-2E9C-101B-9397-08002B2CF9AE}"  # the one Word uses for user-defined properties


def add_custom_properties(document, props: dict[str, str]) -> None:
    """Word's File › Properties › Custom (docProps/custom.xml): citecheck reads ``court`` from it."""
    items = "".join(
        f'<property fmtid="{FMTID}" pid="{i}" name="{escape(k)}"><vt:lpwstr>{escape(v)}</vt:lpwstr></property>'
        for i, (k, v) in enumerate(props.items(), start=2)
    )
    xml = (
        f'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
        f'<Properties xmlns="{CUSTOM_NS}" xmlns:vt="{VT_NS}">{items}</Properties>'
    )
    parse_xml(xml.encode())
    part = Part(PackURI("/docProps/custom.xml"), CUSTOM_CT, xml.encode(), document.part.package)
    document.part.package.relate_to(part, RT.CUSTOM_PROPERTIES)


def build_docx(markdown: str, out: Path) -> None:
    blocks, notes = parse_markdown(markdown)
    document = docx.Document()
    normal = document.styles["Normal"]
    normal.font.name = "Times New Roman"
    normal.font.size = Pt(12)
    for kind, text in blocks:
        if kind == "h1":
            p = document.add_heading(text, level=1)
            p.alignment = WD_ALIGN_PARAGRAPH.CENTER
        elif kind in ("h2", "h3"):
            document.add_heading(text, level=int(kind[1]))
        else:
            p = document.add_paragraph()
            if text.startswith("**") or text.startswith("On Appeal"):
                p.alignment = WD_ALIGN_PARAGRAPH.CENTER
            else:
                p.paragraph_format.first_line_indent = Pt(36)
                p.paragraph_format.line_spacing = 2.0
            _add_inline(p, text)
    if notes:
        _footnotes_part(document, notes)
    # the matter's court, as a lawyer would record it in Word (the caption names the same court)
    add_custom_properties(document, {"court": "District of Columbia Court of Appeals"})
    document.save(out)


def main(argv: list[str]) -> int:
    here = Path(__file__).resolve().parent
    src = Path(argv[0]) if argv else here / "brief.md"
    dst = Path(argv[1]) if len(argv) > 1 else src.with_suffix(".docx")
    build_docx(src.read_text(encoding="utf-8"), dst)
    print(f"wrote {dst}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
