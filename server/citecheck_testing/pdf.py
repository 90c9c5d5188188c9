"""A real PDF written byte by byte (for tests of the PDF reader): Helvetica text, exact xref offsets."""

from __future__ import annotations

from collections.abc import Collection


def build_pdf(pages: list[str] | list[list[str]], *, scanned: Collection[int] = ()) -> bytes:
    """A minimal, valid PDF: each page a string (one line) or a list of lines, top to bottom. The pages
    whose 0-based indexes are in ``scanned`` are a picture of a page (an image XObject drawn over the whole
    page, as a scanner writes it) under their text, if any (a clerk's stamp, a database's header)."""
    objects = [
        "<< /Type /Catalog /Pages 2 0 R >>",
        "",
        "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
        # a 2x2 grey image, the scan
        "<< /Type /XObject /Subtype /Image /Width 2 /Height 2 /ColorSpace /DeviceGray "
        "/BitsPerComponent 8 /Length 4 >>\nstream\n\x80\x80\x80\x80\nendstream",
    ]
    kids = []
    for n, page in enumerate(pages):
        lines = [page] if isinstance(page, str) else page
        ops = ["q 612 0 0 792 0 0 cm /Im1 Do Q"] if n in scanned else []
        ops.append("BT /F1 11 Tf 14 TL 72 720 Td")
        for line in lines:
            escaped = line.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")
            ops.append(f"({escaped}) Tj T*")
        ops.append("ET")
        stream = "\n".join(ops).encode("latin-1")
        objects.append(f"<< /Length {len(stream)} >>\nstream\n{stream.decode('latin-1')}\nendstream")
        content = len(objects)
        objects.append(
            f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents {content} 0 R "
            "/Resources << /Font << /F1 3 0 R >>"
            + (" /XObject << /Im1 4 0 R >>" if n in scanned else "")
            + " >> >>"
        )
        kids.append(f"{len(objects)} 0 R")
    objects[1] = f"<< /Type /Pages /Kids [{' '.join(kids)}] /Count {len(kids)} >>"
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for i, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += f"{i} 0 obj\n{body}\nendobj\n".encode("latin-1")
    xref = len(out)
    out += f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n".encode()
    out += "".join(f"{o:010d} 00000 n \n" for o in offsets).encode()
    out += f"trailer\n<< /Size {len(objects) + 1} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n".encode()
    return bytes(out)
