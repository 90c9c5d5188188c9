"""What the user sees, as CourtListener's order of value: citations on screen are looked up first.

CourtListener's free allowance (60 citations and 5 requests a minute) makes a long brief take many
minutes to verify; the citations the writer is looking at are worth the most. A client that knows
its viewport (the VS Code extension) sends ``citecheck/visibleRanges`` — every document it shows,
each with its visible LSP ranges — debounced as the view scrolls (docs/editors.md). The ranges are
converted to code points here, at the edge (rule 2), against the text each extraction was made
from; ``ranks`` turns them into ``CiteKey → screens away`` (0 = on screen) for the shared
``pacing.WorkOrder``, which reads it again at every grant of the allowance — between the checks of
two documents too — so queued work follows the scroll.
Clients that never send it keep document order.
"""

from __future__ import annotations

import bisect
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from citecheck.extract.models import Extraction
from citecheck.lsp.positions import LineIndex
from citecheck.sources.models import CiteKey
from citecheck.sources.pacing import WorkOrder

if TYPE_CHECKING:
    from citecheck.lsp.server import CiteServer

VISIBLE_RANGES_NOTIFICATION = "citecheck/visibleRanges"
FOLLOWS_VIEW = (
    "citecheck: the editor says what it shows; CourtListener lookups for citations on screen go first"
)
#: A client showing more than this many documents or ranges is not describing a screen; extra ones are ignored.
MAX_DOCUMENTS = 32
MAX_RANGES = 64

#: (start line, start character, end line, end character), in the client's position encoding.
RawRange = tuple[int, int, int, int]


class BadParams(ValueError):
    """The notification's params are not the documented shape (logged and ignored)."""


def parse_params(params: Any) -> dict[str, tuple[RawRange, ...]]:
    """``{"documents": [{"uri", "ranges": [Range, …]}, …]}`` → ranges per URI (pure; raises ``BadParams``).

    >>> parse_params({"documents": [{"uri": "file:///b.md", "ranges": [
    ...     {"start": {"line": 3, "character": 0}, "end": {"line": 40, "character": 2}}]}]})
    {'file:///b.md': ((3, 0, 40, 2),)}
    """
    docs = _get(params, "documents")
    if not isinstance(docs, list | tuple):
        raise BadParams("'documents' must be a list")
    out: dict[str, tuple[RawRange, ...]] = {}
    for doc in list(docs)[:MAX_DOCUMENTS]:
        uri, ranges = _get(doc, "uri"), _get(doc, "ranges")
        if not isinstance(uri, str) or not isinstance(ranges, list | tuple):
            raise BadParams("each document needs a 'uri' string and a 'ranges' list")
        parsed = []
        for rng in list(ranges)[:MAX_RANGES]:
            start, end = _get(rng, "start"), _get(rng, "end")
            nums = (_get(start, "line"), _get(start, "character"), _get(end, "line"), _get(end, "character"))
            if not all(isinstance(n, int) and not isinstance(n, bool) and n >= 0 for n in nums):
                raise BadParams("a range needs non-negative integer start/end line and character")
            parsed.append(nums)
        out[uri] = tuple(parsed)
    return out


def _get(obj: Any, name: str) -> Any:
    """A field of a JSON object as pygls hands over unknown methods' params (a dict or an attrs object)."""
    if isinstance(obj, Mapping):
        return obj.get(name)
    return getattr(obj, name, None)


def to_spans(
    index: LineIndex, ranges: Sequence[RawRange], encoding: str | None
) -> tuple[tuple[int, int], ...]:
    """Client ranges → sorted code-point ``(start, end)`` pairs of ``index``'s text (the edge, rule 2).

    >>> to_spans(LineIndex("ab\\n😀cd\\nef"), [(1, 2, 2, 1)], "utf-16")
    ((4, 8),)
    """
    spans = []
    for sl, sc, el, ec in ranges:
        a, b = index.offset_of(sl, sc, encoding), index.offset_of(el, ec, encoding)
        spans.append((min(a, b), max(a, b)))
    return tuple(sorted(spans))


def screens_away(start: int, end: int, visible: Sequence[tuple[int, int]], screen: int) -> float:
    """How many screens of text lie between ``[start, end)`` and the nearest visible range (0: on screen).

    >>> (screens_away(10, 20, [(0, 100)], 100), screens_away(150, 160, [(0, 100)], 100),
    ...  screens_away(950, 960, [(0, 100)], 100))
    (0, 1, 9)
    """
    gap = math.inf
    i = bisect.bisect_right(visible, (start, math.inf))
    for a, b in visible[max(0, i - 1) : i + 1]:
        if start <= b and a <= end:
            return 0
        gap = min(gap, a - end if a > end else start - b)
    return gap if gap == math.inf else math.ceil(gap / max(1, screen))


def ranks_for(extraction: Extraction, visible: Sequence[tuple[int, int]]) -> dict[CiteKey, float]:
    """Each looked-up key of ``extraction`` → screens away from ``visible`` (code points), counting
    every citation that needs it (a short form on screen needs its full citation's case)."""
    if not visible:
        return {}
    screen = sum(b - a for a, b in visible) or 1
    out: dict[CiteKey, float] = {}
    keys: dict[tuple[str, str, str], CiteKey] = {}
    one = visible[0] if len(visible) == 1 else None
    for c in extraction.citations:
        full = extraction.resolved(c)
        # the raw key, not ``judge.cite_key``: a key that is never looked up only gets a harmless rank,
        # and skipping the impossible-citation rules keeps this cheap on a 10,000-citation brief
        if full is None or full.key is None:
            continue
        key = keys.get(full.key)
        if key is None:
            key = keys[full.key] = CiteKey(*full.key)
        start, end = c.span.start, c.span.end
        if one is not None:  # the usual case, inlined: one visible range
            a, b = one
            r: float = 0 if start <= b and a <= end else -((a - end if a > end else start - b) // -screen)
        else:
            r = screens_away(start, end, visible, screen)
        if r < out.get(key, math.inf):
            out[key] = r
    return out


@dataclass(frozen=True, slots=True)
class _Converted:
    extraction: Extraction
    raw: tuple[RawRange, ...]
    ranks: dict[CiteKey, float]


class VisibleRanges:
    """The client's view per document, and the ``WorkOrder`` the server's CourtListener work follows."""

    def __init__(self, server: CiteServer) -> None:
        self.server = server
        self.raw: dict[str, tuple[RawRange, ...]] = {}
        self._converted: dict[str, _Converted] = {}
        self.order = WorkOrder(self.ranks)
        self.said = False  # the log said once that the order follows the view

    def update(self, params: Any) -> None:
        """The client's whole view now; documents it does not name are not visible."""
        view = parse_params(params)
        self.raw = view
        self._converted = {u: c for u, c in self._converted.items() if u in view and c.raw == view[u]}
        if not self.said and any(view.values()):  # once a session: the log says the order follows the view
            self.said = True
            self.server.log_to_client(FOLLOWS_VIEW)

    def ranks(self) -> Mapping[CiteKey, float]:
        """``CiteKey → screens away`` over every shown document (the best rank wins across documents)."""
        out: dict[CiteKey, float] = {}
        encoding = str(self.server.workspace.position_encoding or "utf-16")
        for uri, raw in self.raw.items():
            state = self.server.docs.get(uri)
            extraction = getattr(state, "extraction", None)
            if extraction is None or not raw:
                continue
            done = self._converted.get(uri)
            if done is None or done.extraction is not extraction or done.raw != raw:
                spans = to_spans(self._index(uri, extraction.text), raw, encoding)
                done = self._converted[uri] = _Converted(extraction, raw, ranks_for(extraction, spans))
            for k, r in done.ranks.items():
                if r < out.get(k, math.inf):
                    out[k] = r
        return out

    def _index(self, uri: str, text: str) -> LineIndex:
        """The document's own line index when it is of this text (built once per version), else a new one."""
        doc = self.server.open_document(uri)
        if doc is not None:
            source = doc.source
            if source is text or (len(source) == len(text) and source == text):
                return doc.line_index()
        return LineIndex(text)


__all__ = [
    "VISIBLE_RANGES_NOTIFICATION",
    "BadParams",
    "VisibleRanges",
    "parse_params",
    "ranks_for",
    "screens_away",
]
