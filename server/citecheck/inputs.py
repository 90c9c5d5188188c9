"""Reading the documents a user hands the CLI: .docx, .md, .txt, .pdf and stdin, as plain text.

Everything that can go wrong with a file (missing, malformed, encrypted, binary, enormous) becomes
one ``InputError`` naming the file, so the CLI can report it in one line and go on with the others.
The text returned is what citations are found in; spans in reports are code points into it.
"""

from __future__ import annotations

import bisect
import io
import logging
import os
import re
import stat
import tempfile
import time
import warnings
import zipfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any, BinaryIO

from citecheck.errors import InputError
from citecheck.extract.page_furniture import clean_pages, page_joint
from citecheck.findings import SIZE_LIMIT_HINT

#: Largest input file we open at all (bytes). Bigger is refused before reading.
MAX_FILE_BYTES = 200 * 1024 * 1024
#: Largest total uncompressed size of a .docx package (guards against zip bombs).
MAX_DOCX_UNCOMPRESSED = 400 * 1024 * 1024

log = logging.getLogger(__name__)

_OLE_MAGIC = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"  # encrypted .docx and old .doc are OLE compound files
_W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"
_FOOTNOTES_RT = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/footnotes"
_ENDNOTES_RT = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/endnotes"
_TEXT_SUFFIXES = {".md": "markdown", ".markdown": "markdown", ".txt": "text", ".text": "text"}


@dataclass(frozen=True, slots=True, kw_only=True)
class InputDocument:
    """One document's text, and for PDFs where each page begins in it.

    >>> d = InputDocument(name="a.pdf", kind="pdf", text="one\\n\\ntwo", pages=((0, "1"), (5, "2")))
    >>> d.page_at(6)
    '2'
    """

    name: str  # as the user gave it ("-" becomes "<stdin>")
    kind: str  # "docx" | "markdown" | "text" | "pdf"
    text: str
    pages: tuple[tuple[int, str], ...] = ()  # (offset where the page starts, page label)
    #: .docx: where each block starts and what Word calls it ("paragraph 13", "footnote 2"): a
    #: line:column in text we assembled from the package means nothing to someone reading in Word.
    places: tuple[tuple[int, str], ...] = ()
    properties: tuple[tuple[str, str], ...] = ()  # .docx custom document properties (name lower-cased, value)
    #: PDF pages that are an image with little or no text (a scan: ``_unread_page``), by label: nothing on
    #: them was checked, and the report says so ("No citations" alone would read as "nothing wrong")
    unread_pages: tuple[str, ...] = ()

    def custom_property(self, *names: str) -> str | None:
        """The first of ``names`` set as a custom document property (``court``, ``citecheck.court``)."""
        found = dict(self.properties)
        return next((found[n] for n in names if found.get(n)), None)

    def page_at(self, offset: int) -> str | None:
        if not self.pages:
            return None
        i = bisect.bisect_right([o for o, _ in self.pages], offset)
        return self.pages[max(i - 1, 0)][1]


def read_input(name: str, *, stdin: BinaryIO | None = None, max_chars: int = 2_000_000) -> InputDocument:
    """Read one document; ``"-"`` reads ``stdin`` (bytes), sniffing .docx and .pdf by their magic.

    Raises:
        InputError: one line naming the file and what is wrong with it.
    """
    if name == "-":
        if stdin is None:
            raise InputError("<stdin>: no standard input to read")
        data, kind = _read_limited("<stdin>", stdin, "", max_chars)
        return _read_bytes("<stdin>", kind, data, max_chars)
    path = Path(name)
    try:
        if path.is_dir():
            raise InputError(f"{name}: is a directory, not a document")
        size = path.stat().st_size
        if size > MAX_FILE_BYTES:
            raise InputError(
                f"{name}: file is {size // (1024 * 1024)} MB; the limit is "
                f"{MAX_FILE_BYTES // (1024 * 1024)} MB"
            )
        # never trust the size: /dev/zero, /dev/urandom and FIFOs say 0 and never end. O_NONBLOCK: opening
        # a FIFO for reading blocks until something opens it for writing, which may be never
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
        with os.fdopen(fd, "rb", buffering=0) as raw:
            mode = os.fstat(fd).st_mode
            first = _await_writer(name, fd) if stat.S_ISFIFO(mode) else b""
            os.set_blocking(fd, True)
            fh = io.BufferedReader(raw)
            data, kind = _read_limited(
                name,
                fh,
                path.suffix.lower(),
                max_chars,
                known_size=size if stat.S_ISREG(mode) else 0,
                first=first,
            )
    except FileNotFoundError as exc:
        raise InputError(f"{name}: no such file") from exc
    except PermissionError as exc:
        raise InputError(f"{name}: permission denied") from exc
    except OSError as exc:
        raise InputError(f"{name}: cannot read ({exc.strerror or exc})") from exc
    return _read_bytes(name, kind, data, max_chars)


_HEAD = 64 * 1024
#: How long a FIFO may go without a writer before it is refused. A writer that was already waiting
#: to open it (``mkfifo f; cat brief.md > f & citecheck check f``) connects as soon as we open it.
FIFO_WRITER_GRACE_S = 0.25
#: A stream with no size (a pipe, a device) is held in memory up to this much, then on disk, so an
#: endless ``.docx``/``.pdf`` source is refused at ``MAX_FILE_BYTES`` without holding it in memory.
_SPOOL_IN_MEMORY = 8 * 1024 * 1024


def _await_writer(name: str, fd: int) -> bytes:
    """The first bytes of a FIFO opened without blocking, or b"" once a writer is connected.

    With no writer a non-blocking read says end-of-file at once; with a writer that has written
    nothing yet it says "would block". A FIFO nothing writes to would otherwise hang the CLI forever.
    """
    deadline = time.monotonic() + FIFO_WRITER_GRACE_S
    while True:
        try:
            first = os.read(fd, _HEAD)
        except BlockingIOError:
            return b""  # a writer is connected: wait for its data as for any pipe
        if first:
            return first
        if time.monotonic() >= deadline:
            raise InputError(
                f"{name}: a named pipe (FIFO) that nothing is writing to; start the program that writes "
                "to it first, or give a file"
            )
        time.sleep(0.01)


def _read_limited(
    name: str, fh: BinaryIO, suffix: str, max_chars: int, *, known_size: int = 0, first: bytes = b""
) -> tuple[bytes, str]:
    """Read at most what a document of ``max_chars`` can take (a binary stream is refused after 64 KB).

    Text needs at most 4 bytes a character; a .docx or .pdf may hold images, so it gets
    ``MAX_FILE_BYTES``, but must start like one (a zip package, a ``%PDF-`` header) to be read
    further. A regular file's own size (``known_size``, already checked against ``MAX_FILE_BYTES``)
    is read whole, so an oversize document is reported with its length. ``first`` is what was
    already read from ``fh``. Returns the bytes and the sniffed kind.
    """
    head = first + _read_upto(fh, _HEAD - len(first)) if len(first) < _HEAD else first
    kind = _sniff(head, suffix)
    if kind in ("text", "markdown"):
        _refuse_binary(name, head)
        limit = max(4 * max_chars + 4, known_size)
    else:
        _refuse_impostor(name, kind, head)
        limit = MAX_FILE_BYTES
    if len(head) < _HEAD:
        data: bytes | None = head
    elif kind in ("docx", "pdf") and not known_size:
        data = _read_spooled(fh, head, limit)
    else:
        data = head + _read_upto(fh, limit + 1 - len(head))
    if data is None or len(data) > limit:
        if kind in ("text", "markdown"):
            raise InputError(
                f"{name}: document is over the limit of {max_chars:,} characters and it "
                f"was not checked. {SIZE_LIMIT_HINT}"
            )
        raise InputError(f"{name}: input is larger than {MAX_FILE_BYTES // (1024 * 1024)} MB, the limit")
    return data, kind


def _refuse_impostor(name: str, kind: str, head: bytes) -> None:
    """A .docx that is no zip package and a .pdf with no ``%PDF-`` header are refused from their first
    bytes (``/dev/zero`` named ``brief.docx`` is not read to the 200 MB limit first)."""
    if kind == "docx" and head and not head.startswith((b"PK", _OLE_MAGIC)):
        raise InputError(f"{name}: not a valid .docx (the file is not a zip package)")
    if kind == "pdf" and head and pdf_header_at(head) < 0:  # readers accept it in the first 1,024 bytes
        raise InputError(f"{name}: not a PDF (no %PDF header in its first {PDF_HEADER_WINDOW} bytes)")


def _read_spooled(fh: BinaryIO, head: bytes, limit: int) -> bytes | None:
    """``head`` and the rest of a stream with no size, or None once it passes ``limit`` bytes.

    Past ``_SPOOL_IN_MEMORY`` the bytes wait in a temporary file: an endless source costs disk
    for a moment, not 200 MB (and a copy) of memory.
    """
    with tempfile.SpooledTemporaryFile(max_size=_SPOOL_IN_MEMORY, prefix="citecheck-input-") as spool:
        spool.write(head)
        total = len(head)
        while chunk := fh.read(1 << 20):
            total += len(chunk)
            if total > limit:
                return None
            spool.write(chunk)
        spool.seek(0)
        return spool.read()


def _read_upto(fh: BinaryIO, n: int) -> bytes:
    """Up to ``n`` bytes; a pipe's short reads are continued until EOF or ``n``."""
    parts, got = [], 0
    while got < n:
        chunk = fh.read(min(n - got, 1 << 20))
        if not chunk:
            break
        parts.append(chunk)
        got += len(chunk)
    return b"".join(parts)


def _sniff(data: bytes, suffix: str) -> str:
    if suffix == ".docx" or (not suffix and data.startswith(b"PK\x03\x04")):
        return "docx"
    if suffix == ".pdf" or (not suffix and _sniffed_pdf(data)):
        return "pdf"
    if suffix == ".doc":
        return "doc"
    return _TEXT_SUFFIXES.get(suffix, "text")


def _read_bytes(name: str, kind: str, data: bytes, max_chars: int) -> InputDocument:
    if not data and kind in ("pdf", "docx"):  # "not a PDF (no %PDF header …)" sent users looking for a header
        raise InputError(f"{name}: the file is empty (0 bytes)")
    if kind == "doc":
        raise InputError(f"{name}: old binary Word .doc files are not supported; save it as .docx")
    if kind == "docx":
        text, places = _docx_text(name, data)
        doc = InputDocument(
            name=name, kind=kind, text=text, places=places, properties=_docx_custom_properties(data)
        )
    elif kind == "pdf":
        doc = _pdf_document(name, data)
    else:
        doc = InputDocument(name=name, kind=kind, text=_decode_text(name, data))
    if len(doc.text) > max_chars:
        raise InputError(
            f"{name}: document is {len(doc.text):,} characters; the limit is {max_chars:,} and it "
            f"was not checked. {SIZE_LIMIT_HINT}"
        )
    return doc


#: WordPerfect's document header (``\xffWPC``): courts and agencies still publish .wpd opinions
_WORDPERFECT_MAGIC = b"\xffWPC"


def _refuse_binary(name: str, data: bytes) -> None:
    if data.startswith(_WORDPERFECT_MAGIC):
        raise InputError(f"{name}: WordPerfect files are not supported; save it as .docx or PDF")
    if data.startswith(_OLE_MAGIC):
        raise InputError(f"{name}: this is a Word/OLE binary file (encrypted .docx or .doc), not text")
    if b"\x00" in data[:8192] and not data.startswith((b"\xff\xfe", b"\xfe\xff")):
        raise InputError(f"{name}: looks like a binary file, not text")


def _decode_text(name: str, data: bytes) -> str:
    _refuse_binary(name, data)
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        # a BOM says UTF-16: one bad surrogate becomes U+FFFD; reading it as cp1252 would turn
        # every character into two and find no citation at all
        return _normalise_newlines(data.decode("utf-16", errors="replace"))
    try:
        return _normalise_newlines(data.decode("utf-8-sig"))
    except UnicodeDecodeError:
        pass
    try:  # Word's "Save as plain text" on Windows
        return _normalise_newlines(data.decode("cp1252"))
    except UnicodeDecodeError as exc:
        raise InputError(f"{name}: not UTF-8 text (byte {exc.start}); save it as UTF-8") from exc


def _normalise_newlines(text: str) -> str:
    """CRLF → LF so that line:column in reports matches what editors show."""
    return text.replace("\r\n", "\n")


# docx


def _docx_text(name: str, data: bytes) -> tuple[str, tuple[tuple[int, str], ...]]:
    """Body (paragraphs and tables in order), then headers/footers, footnotes and endnotes, and
    where each non-empty block starts with its name ("paragraph 3", "footnote 2").

    Paragraphs are numbered as a reader counts them: non-empty body paragraphs (table cells
    included), in order. python-docx has no API for footnotes/endnotes, so those parts are read
    from the package.
    """
    if data.startswith(_OLE_MAGIC):
        raise InputError(f"{name}: the .docx is encrypted (password protected); save an unprotected copy")
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as zf:
            total = sum(info.file_size for info in zf.infolist())
            if total > MAX_DOCX_UNCOMPRESSED:
                raise InputError(
                    f"{name}: the .docx unpacks to {total // (1024 * 1024)} MB; refusing to open it"
                )
            if "word/document.xml" not in zf.namelist():
                raise InputError(f"{name}: not a Word document (no word/document.xml in the package)")
    except zipfile.BadZipFile as exc:
        raise InputError(f"{name}: not a valid .docx (the file is not a zip package)") from exc

    import docx  # lazy: the CLI starts faster without python-docx when only text files are checked
    from docx.opc.exceptions import PackageNotFoundError

    try:
        document = docx.Document(io.BytesIO(data))
        blocks = list(_body_blocks(document))
        blocks += _header_footer_blocks(document)
        blocks += _note_blocks(document, _FOOTNOTES_RT, "footnote")
        blocks += _note_blocks(document, _ENDNOTES_RT, "endnote")
    except InputError:
        raise
    except (PackageNotFoundError, KeyError, ValueError, AttributeError, zipfile.BadZipFile) as exc:
        raise InputError(f"{name}: malformed .docx ({type(exc).__name__}: {exc})") from exc
    except Exception as exc:  # lxml XMLSyntaxError and friends: any broken part is a bad input file
        raise InputError(f"{name}: malformed .docx ({type(exc).__name__})") from exc
    return _join_blocks(blocks)


def _join_blocks(blocks: list[tuple[str, str]]) -> tuple[str, tuple[tuple[int, str], ...]]:
    """Join (label, text) blocks with blank lines; body paragraphs (label "") get their number.

    >>> _join_blocks([("", "A."), ("", " "), ("", "B."), ("footnote 1", "1 C.")])
    ('A.\\n\\nB.\\n\\n1 C.', ((0, 'paragraph 1'), (4, 'paragraph 2'), (8, 'footnote 1')))
    """
    parts: list[str] = []
    places: list[tuple[int, str]] = []
    offset, paragraph = 0, 0
    for label, text in blocks:
        if not text.strip():
            continue
        if not label:
            paragraph += 1
            label = f"paragraph {paragraph}"
        places.append((offset, label))
        parts.append(text)
        offset += len(text) + 2
    return "\n\n".join(parts), tuple(places)


def _body_blocks(document) -> list[tuple[str, str]]:
    from docx.table import Table
    from docx.text.paragraph import Paragraph

    out: list[tuple[str, str]] = []
    for block in document.iter_inner_content():
        if isinstance(block, Paragraph):
            out.append(("", paragraph_text(block._p)))
        elif isinstance(block, Table):
            out.extend(("", t) for t in _table_blocks(block))
    return out


_SKIP = {
    f"{_W}{t}"
    for t in (
        "del",
        "moveFrom",
        "instrText",
        "delText",
        "footnoteReference",
        "endnoteReference",
        "txbxContent",
        "pPr",
        "rPr",
    )
}
_CHARS = {f"{_W}tab": "\t", f"{_W}br": "\n", f"{_W}cr": "\n", f"{_W}noBreakHyphen": "-"}


def paragraph_text(p) -> str:
    """The text Word shows for a ``<w:p>`` with tracked changes accepted.

    python-docx's ``Paragraph.text`` drops runs inside ``<w:ins>``, smart tags and content
    controls; drafts under revision are full of them. Deleted and moved-away text, field codes
    and text boxes (their own paragraphs) are left out.
    """
    parts: list[str] = []

    def walk(el) -> None:
        for child in el:
            tag = child.tag
            if not isinstance(tag, str) or tag in _SKIP:
                continue
            if tag == f"{_W}t":
                parts.append(child.text or "")
            elif tag in _CHARS:
                parts.append(_CHARS[tag])
            else:
                walk(child)

    walk(p)
    return "".join(parts)


def _table_blocks(table) -> list[str]:
    """One block per cell paragraph; merged cells appear once."""
    out: list[str] = []
    seen: list = []  # the <w:tc> elements themselves: holding them keeps lxml proxy identity stable
    for row in table.rows:
        for cell in row.cells:
            if any(tc is cell._tc for tc in seen):
                continue
            seen.append(cell._tc)
            for para in cell.paragraphs:
                out.append(paragraph_text(para._p))
            for inner in cell.tables:
                out.extend(_table_blocks(inner))
    return out


def _header_footer_blocks(document) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    seen: set[str] = set()
    for section in document.sections:
        for label, hf in (
            ("header", section.header),
            ("header", section.first_page_header),
            ("header", section.even_page_header),
            ("footer", section.footer),
            ("footer", section.first_page_footer),
            ("footer", section.even_page_footer),
        ):
            if hf.is_linked_to_previous:
                continue
            text = "\n".join(t for p in hf.paragraphs if (t := paragraph_text(p._p)).strip())
            for table in hf.tables:
                text += "\n" + "\n".join(_table_blocks(table))
            if text.strip() and text not in seen:
                seen.add(text)
                out.append((label, text))
    return out


def _note_blocks(document, reltype: str, kind: str) -> list[tuple[str, str]]:
    """Each real note (not the separators) as ``<number> <text>``, in document order."""
    from docx.oxml import parse_xml

    part = None
    for rel in document.part.rels.values():
        if rel.reltype == reltype and not rel.is_external:
            part = rel.target_part
            break
    if part is None:
        return []
    root = parse_xml(part.blob)
    out: list[tuple[str, str]] = []
    for note in root.iter(f"{_W}{kind}"):
        if note.get(f"{_W}type") in ("separator", "continuationSeparator", "continuationNotice"):
            continue
        paras = [paragraph_text(p) for p in note.iter(f"{_W}p")]
        text = "\n".join(p for p in paras if p.strip()).strip()
        if text:
            number = note.get(f"{_W}id")
            out.append((f"{kind} {number}", f"{number} {text}"))
    return out


_CUSTOM_PROPS = "docProps/custom.xml"
_VT = "{http://schemas.openxmlformats.org/officeDocument/2006/docPropsVTypes}"


def _docx_custom_properties(data: bytes) -> tuple[tuple[str, str], ...]:
    """Custom document properties (File › Properties › Custom in Word) as (lower-cased name, text value).

    Where a user records the matter's court (``court``) for citecheck. A broken or absent part gives
    none: properties are a convenience, never a reason to refuse the document.
    """
    from lxml import etree

    try:
        with zipfile.ZipFile(io.BytesIO(data)) as zf:
            if _CUSTOM_PROPS not in zf.namelist() or zf.getinfo(_CUSTOM_PROPS).file_size > 1_000_000:
                return ()
            raw = zf.read(_CUSTOM_PROPS)
        root = etree.fromstring(raw, parser=etree.XMLParser(resolve_entities=False, no_network=True))
    except (zipfile.BadZipFile, KeyError, OSError, etree.XMLSyntaxError):
        return ()
    out = []
    for prop in root:
        name = prop.get("name")
        value = next((child.text for child in prop if child.tag.startswith(_VT)), None)
        if name and value and value.strip():
            out.append((name.strip().lower(), value.strip()))
    return tuple(out)


# pdf


class _PdfNoiseToDebug(logging.Handler):
    """pypdf warns, often in multi-KB messages, about quirks real PDFs are full of (bad xref
    offsets, odd fonts) that do not change the text we get. Its records stop at the ``pypdf``
    logger and are logged again here at debug level, so ``--debug`` still shows them."""

    def emit(self, record: logging.LogRecord) -> None:
        log.debug("%s: %s", record.name, record.getMessage())


def _quiet_pypdf() -> None:
    logger = logging.getLogger("pypdf")
    if not any(isinstance(h, _PdfNoiseToDebug) for h in logger.handlers):
        logger.addHandler(_PdfNoiseToDebug())
        logger.propagate = False


def _pdf_document(name: str, data: bytes) -> InputDocument:
    """Text of every page less its furniture (running heads, page numbers, e-filing stamps: a citation
    run over a page break is one again), each page joined to the next by a line break where it stops
    mid-sentence and a blank line where it ends one, with each page's label and offset."""
    _quiet_pypdf()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        doc = _pdf_read(name, data)
    for w in caught:
        log.debug("pypdf: %s", w.message)
    return doc


#: PDF readers accept the ``%PDF-`` header anywhere in the first 1,024 bytes (Acrobat's implementation
#: note 13 to the PDF Reference), after junk a mail gateway or a scanner put before it.
PDF_HEADER_WINDOW = 1024


def pdf_header_at(data: bytes) -> int:
    """Offset of the ``%PDF-`` header within the first 1,024 bytes, or -1."""
    return data.find(b"%PDF-", 0, PDF_HEADER_WINDOW + 5)


def _sniffed_pdf(head: bytes) -> bool:
    """A nameless input is a PDF when it starts with the header, or has it in its first 1,024 bytes
    followed by a PDF object (text that mentions "%PDF-" is still text)."""
    at = pdf_header_at(head)
    return at == 0 or (at > 0 and re.search(rb"\d+ \d+ obj\b", head[at:]) is not None)


#: A page with fewer letters than this and an image is a scan: a clerk's "A CERTIFIED COPY ATTEST" stamp
#: (81 letters on each page of a Texas motion), HeinOnline's "HeinOnline -- 77 Law. Libr. J. 543 1984-1985"
#: (18) or an ECF header (about 60) over a picture of the page. A typed page of a filing has a thousand.
_SCAN_LETTERS = 100


def _unread_page(page: Any, text: str) -> bool:
    """Whether a page is an image with little or no text over it: its words, if any, were never read."""
    if sum(c.isalpha() for c in text) >= _SCAN_LETTERS:
        return False
    try:
        resources = page.get("/Resources")
        xobjects = resources.get_object().get("/XObject") if resources is not None else None
        if xobjects is None:
            return False
        return any(x.get_object().get("/Subtype") == "/Image" for x in xobjects.get_object().values())
    except Exception:  # a malformed resource dictionary: not known to be a scan
        return False


def _pdf_read(name: str, data: bytes) -> InputDocument:
    import pypdf
    from pypdf.errors import PdfReadError

    header = pdf_header_at(data)
    if header < 0:
        raise InputError(f"{name}: not a PDF (no %PDF header in its first {PDF_HEADER_WINDOW} bytes)")
    try:
        # bytes before the header (a mail gateway's or a scanner's) are not part of the file: its offsets
        # count from the header, as readers that accept such files read them
        reader = pypdf.PdfReader(io.BytesIO(data[header:]))
        if reader.is_encrypted:
            try:
                ok = reader.decrypt("")
            except Exception as exc:
                raise InputError(f"{name}: the PDF is encrypted; save an unprotected copy") from exc
            if not ok:
                raise InputError(f"{name}: the PDF is encrypted; save an unprotected copy")
        try:
            labels = list(reader.page_labels)
        except Exception:
            labels = []
        raw = [_normalise_newlines(page.extract_text() or "").strip("\n") for page in reader.pages]
        parts = clean_pages(raw)
        pages: list[tuple[int, str]] = []
        chunks: list[str] = []
        offset = 0
        for i, text in enumerate(parts):
            if i:
                joint = page_joint(parts[i - 1], text)
                chunks.append(joint)
                offset += len(joint)
            label = labels[i] if i < len(labels) and labels[i] else str(i + 1)
            pages.append((offset, label))
            chunks.append(text)
            offset += len(text)
        unread = tuple(
            label
            for (_, label), page, text in zip(pages, reader.pages, raw, strict=False)
            if _unread_page(page, text)
        )
        bare = not any(part.strip() for part in raw)
        if pages and (bare or len(unread) == len(pages)):
            # a scanned filing (bare, or with a stamp or a database's header line on each page): "0 citations"
            # would read as "nothing wrong"; say nothing could be read
            raise InputError(
                f"{name}: nothing could be read: the PDF has {len(pages)} page(s) but no text layer "
                + ("" if bare else "beyond a stamp or a header line on each page ")
                + "(a scanned document?); run it through OCR first"
            )
    except InputError:
        raise
    except PdfReadError as exc:
        raise InputError(f"{name}: malformed PDF ({exc})") from exc
    except Exception as exc:  # pypdf raises assorted errors on broken files
        raise InputError(f"{name}: malformed PDF ({type(exc).__name__})") from exc
    return InputDocument(name=name, kind="pdf", text="".join(chunks), pages=tuple(pages), unread_pages=unread)
