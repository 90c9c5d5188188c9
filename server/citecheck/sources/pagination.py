"""Opinion HTML → clean text plus star-pagination markers, and markers → PageMaps.

Why our own small tokenizer rather than lxml: opinion HTML from the bulk dumps is huge and often
not well-formed, and all we need is text, block breaks, and the page markers with their exact
offsets in the text we keep. Pure functions; no I/O.

Marker forms understood (notes/courtlistener-api.md §2.3):

- CAP static: ``<a class="page-label" data-label="37" data-citation-index="1">*37</a>``
- Harvard XML: ``<page-number citation-index="1" label="758">*758</page-number>``
- CourtListener: ``<span class="star-pagination" [citation-index="2"] [label="533"]>*533</span>``,
  Columbia ``*Page 758``, anon-2020 ``number="…" pagescheme="…"`` (numbers with ``P`` are a second,
  unverifiable scheme and are dropped)
- NY slips: ``[*3]`` in text (inside ``<font>`` or plain)

The marker text itself (``*37``) and footnote reference marks are left out of the clean text, so a
quotation that runs across a page break or a footnote mark still matches.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from citecheck.sources.models import CaseCite, PageMap

_TOKEN = re.compile(r"<!--.*?-->|<[^<>]*>|[^<]+|<", re.S)  # [^<>]: a stray "<" costs O(1), not O(n)
_TAG = re.compile(r"<\s*(/)?\s*([A-Za-z][A-Za-z0-9:_-]*)([^>]*?)(/)?\s*>", re.S)
_ATTR = re.compile(r"""([A-Za-z_:][-A-Za-z0-9_:.]*)\s*(?:=\s*("[^"]*"|'[^']*'|[^\s"'>]+))?""")
_BRACKET_STAR = re.compile(r"\[\*\s*(\d+[A-Za-z0-9-]*)\s*\]")
_STAR_LABEL = re.compile(r"\*?\s*(?:Page\s+)?([0-9A-Za-z][0-9A-Za-z-]*)")
_WS = re.compile(r"\s+")

_BLOCK = frozenset(
    "p div h1 h2 h3 h4 h5 h6 blockquote article section li ul ol tr table aside pre br header footer "
    "dd dt dl center hr opinion casebody head-matter footnote parties docketnumber court decisiondate "
    "otherdate attorneys judges author".split()
)
_VOID = frozenset("br hr img meta input link wbr col area base source".split())
_SKIP = frozenset({"script", "style", "head", "title"})


@dataclass(frozen=True, slots=True)
class Marker:
    offset: int
    label: str
    index: int  # citation index, 1 = the case's first (official) citation


@dataclass(frozen=True, slots=True)
class ParsedText:
    text: str
    markers: tuple[Marker, ...]


def _attrs(raw: str) -> dict[str, str]:
    out: dict[str, str] = {}
    for m in _ATTR.finditer(raw):
        v = m.group(2) or ""
        if v[:1] in "\"'":
            v = v[1:-1]
        out[m.group(1).lower()] = html.unescape(v)
    return out


def _index(attrs: dict[str, str]) -> int:
    raw = attrs.get("citation-index") or attrs.get("data-citation-index") or "1"
    try:
        return max(1, int(raw))
    except ValueError:
        return 1


class _Builder:
    """Collapses whitespace, turns block boundaries into single newlines, places pending markers."""

    def __init__(self) -> None:
        self.parts: list[str] = []
        self.length = 0
        self.pending_space = False
        self.pending_newline = False
        self.pending_markers: list[tuple[str, int]] = []
        self.markers: list[Marker] = []

    def text(self, s: str) -> None:
        if not s:
            return
        collapsed = _WS.sub(" ", s)
        core = collapsed.strip(" ")
        if collapsed[0] == " ":
            self.pending_space = True
        if core:
            self._emit(core)
        if collapsed[-1] == " ":
            self.pending_space = True

    def newline(self) -> None:
        self.pending_newline = True

    def marker(self, label: str, index: int) -> None:
        self.pending_markers.append((label, index))

    def _emit(self, chunk: str) -> None:
        if self.length:
            sep = "\n" if self.pending_newline else (" " if self.pending_space else "")
            if sep:
                self.parts.append(sep)
                self.length += 1
        self.pending_newline = self.pending_space = False
        for label, index in self.pending_markers:
            self.markers.append(Marker(self.length, label, index))
        self.pending_markers.clear()
        self.parts.append(chunk)
        self.length += len(chunk)

    def result(self) -> ParsedText:
        for label, index in self.pending_markers:
            self.markers.append(Marker(self.length, label, index))
        self.pending_markers.clear()
        return ParsedText("".join(self.parts), tuple(self.markers))


def _text_with_bracket_stars(b: _Builder, s: str) -> None:
    pos = 0
    for m in _BRACKET_STAR.finditer(s):
        b.text(s[pos : m.start()])
        b.marker(m.group(1), 1)
        pos = m.end()
    b.text(s[pos:])


def html_to_text(source: str) -> ParsedText:
    """Clean text and page markers of one HTML (or plain-text) opinion field.

    >>> p = html_to_text('<p>One <span class="star-pagination">*12</span>two</p><p>three</p>')
    >>> p.text, [(m.offset, m.label, m.index) for m in p.markers]
    ('One two\\nthree', [(4, '12', 1)])
    """
    reader = _HtmlReader()
    for tok in _TOKEN.findall(source):
        if tok.startswith("<!--"):
            continue
        if tok.startswith("<") and len(tok) > 1:
            m = _TAG.fullmatch(tok)
            if m is not None:
                closing, name, raw_attrs, selfclose = m.group(1), m.group(2).lower(), m.group(3), m.group(4)
                if closing:
                    reader.close(name)
                else:
                    reader.open(name, raw_attrs, selfclose is not None)
                continue
            if tok.startswith("<!") or tok.startswith("<?"):
                continue
        reader.text(html.unescape(tok))
    return reader.b.result()


@dataclass(slots=True)
class _OpenMarker:
    """A page-number element being read: where it opened, its label (from its attributes, else from its
    text once it closes), its index, its text so far, and whether its page scheme is one we drop."""

    depth: int
    label: str | None
    index: int
    texts: list[str]
    dropped: bool


class _HtmlReader:
    """``html_to_text``'s state: the text built, the open elements, the page marker being read, and the
    depth of an element whose text is dropped (footnote marks, scripts)."""

    __slots__ = ("b", "marker", "skip_depth", "stack")

    def __init__(self) -> None:
        self.b = _Builder()
        self.stack: list[str] = []
        self.marker: _OpenMarker | None = None
        self.skip_depth: int | None = None

    def close(self, name: str) -> None:
        stack = self.stack
        if name in stack:
            while stack:
                if stack.pop() == name:
                    break
        depth = len(stack)
        marker = self.marker
        if marker is not None and depth <= marker.depth:
            label = marker.label
            if label is None:
                lm = _STAR_LABEL.match(" ".join(marker.texts).strip())
                label = lm.group(1) if lm else None
            if label and not marker.dropped:
                self.b.marker(label, marker.index)
            self.marker = None
        if self.skip_depth is not None and depth <= self.skip_depth:
            self.skip_depth = None
        if name in _BLOCK:
            self.b.newline()

    def open(self, name: str, raw_attrs: str, selfclose: bool) -> None:
        attrs = _attrs(raw_attrs)
        classes = attrs.get("class", "").split()
        if name in _BLOCK:
            self.b.newline()
        if selfclose or name in _VOID:
            return
        depth = len(self.stack)
        self.stack.append(name)
        if self.marker is not None or self.skip_depth is not None:
            return
        if name == "page-number" or "page-label" in classes or "star-pagination" in classes:
            label = attrs.get("label") or attrs.get("data-label") or attrs.get("number")
            dropped = bool(label) and "pagescheme" in attrs and "P" in (label or "").upper()
            self.marker = _OpenMarker(depth, label, _index(attrs), [], dropped)
        elif name in _SKIP or name == "footnotemark" or "footnotemark" in classes:
            self.skip_depth = depth

    def text(self, text: str) -> None:
        if self.marker is not None:
            self.marker.texts.append(text)
        elif self.skip_depth is None:
            _text_with_bracket_stars(self.b, text)


def plain_to_text(source: str) -> ParsedText:
    """A plain-text opinion (``plain_text`` field, court PDFs): no markup to strip — a ``<`` is just a
    character — only whitespace to collapse and NY-style ``[*N]`` markers to take out."""
    b = _Builder()
    for i, para in enumerate(re.split(r"\n\s*\n", source)):
        if i:
            b.newline()
        _text_with_bracket_stars(b, para)
    return b.result()


def opinion_text(field: str, value: str) -> ParsedText:
    """Parse one opinion text field by its kind (``plain_text`` is not HTML)."""
    return plain_to_text(value) if field == "plain_text" else html_to_text(value)


def join_texts(parts: Iterable[ParsedText]) -> ParsedText:
    """Concatenate head matter and opinions (in order) with a newline, shifting markers."""
    texts: list[str] = []
    markers: list[Marker] = []
    length = 0
    for p in parts:
        if not p.text and not p.markers:
            continue
        if texts:
            texts.append("\n")
            length += 1
        markers.extend(Marker(m.offset + length, m.label, m.index) for m in p.markers)
        texts.append(p.text)
        length += len(p.text)
    return ParsedText("".join(texts), tuple(markers))


def _num(label: str) -> int | None:
    return int(label) if label.isascii() and label.isdigit() else None


def derived_last_page(first_page: str, labels: Sequence[str]) -> str | None:
    """Last page of a cite from its markers: the highest numeric label at or after the first page.

    Survives the real anomalies: labels that repeat the first page, labels out of order, and labels
    past the source's own (wrong) last page. Absurd jumps (> 2,000 pages) are ignored.

    >>> derived_last_page("124", ["126", "125", "127"]), derived_last_page("1119", ["1119"])
    ('127', '1119')
    >>> derived_last_page("206", []) is None
    True
    """
    first = _num(first_page)
    if first is None:
        return None
    nums = [n for n in (_num(lbl) for lbl in labels) if n is not None and first <= n <= first + 2000]
    return str(max(nums)) if nums else None


def page_maps(markers: Sequence[Marker], cites: Sequence[CaseCite]) -> tuple[PageMap, ...]:
    """One PageMap per citation (``cites[k-1]`` ↔ citation index k) that has markers.

    A cite with no markers gets a map only when it is known to be a one-page case; otherwise its
    pin cites stay unverifiable rather than all landing on the first page.
    """
    out: list[PageMap] = []
    for k, cite in enumerate(cites, start=1):
        starts = tuple(sorted(((m.offset, m.label) for m in markers if m.index == k), key=lambda t: t[0]))
        if starts or (cite.last_page is not None and cite.last_page == cite.page):
            out.append(
                PageMap(reporter=cite.reporter, volume=cite.volume, first_page=cite.page, starts=starts)
            )
    return tuple(out)


def render_html(text: str, markers: Sequence[Marker]) -> str:
    """Inverse of :func:`html_to_text` for our own clean text (used by the corpus server).

    Each line becomes a ``<p>``; markers become CourtListener star-pagination spans.
    """
    by_offset: dict[int, list[Marker]] = {}
    for m in markers:
        by_offset.setdefault(m.offset, []).append(m)
    out: list[str] = []
    line_start = 0
    for line in text.split("\n"):
        line_end = line_start + len(line)
        cuts = sorted(o for o in by_offset if line_start <= o <= line_end)
        pos = line_start
        out.append("<p>")
        for o in cuts:
            if o == line_end and o != line_start and o < len(text):
                continue  # belongs to the start of the next line
            out.append(html.escape(text[pos:o], quote=False))
            for m in by_offset[o]:
                attr = "" if m.index == 1 else f' citation-index="{m.index}"'
                out.append(f'<span class="star-pagination"{attr}>*{html.escape(m.label)}</span>')
            pos = o
        out.append(html.escape(text[pos:line_end], quote=False))
        out.append("</p>\n")
        line_start = line_end + 1
    return "".join(out)
