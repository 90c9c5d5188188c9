"""Pin cites: ``352``, ``352-53`` / ``352–53`` (short end expanded), ``352, 355``, ``3 n.6``,
``460 & n.4``, ``*3``, ``at p. 651``.

eyecite parses none of the en-dash ranges, footnotes after a page, or ``& n.4`` forms (they land in
``extra``, or truncate a short form's span). We parse them here on the normalised text (dashes already
``-``), and return spans into it (= into the original).
"""

from __future__ import annotations

import re

from citecheck.extract.models import Pincite, PinPage
from citecheck.extract.records import fast_constructor
from citecheck.spans import Span

_ELEM = re.compile(
    r"(?:pp?\.\s?|pages?\s|¶¶?\s?)?(?P<star>\*)?(?P<first>\d+)(?!(?:d|th|st|nd|rd)\b)"
    r"(?:\s?-\s{0,12}(?P<star2>\*)?(?P<last>\d+)(?!\d*\s?[A-Z]))?"
    r"(?:\s?(?:&\s?)?nn?\.\s?(?P<fn>\d+(?:\s?(?:-|&|,)\s?\d+)*))?"
)
#: between two pages of a pin cite; a line break may follow, with the spaces a PDF's line keeps before it
#: (``Hurley, 515 U. S., at 571, ⏎578``)
_SEP = re.compile(r"\s?(?:,|&|and)\s{0,3}")
_DANGLING_RANGE = re.compile(r"\s?-\s?(?!\d|\*\d)")
_EM_DASH = "\u2014"
#: ``PinPage(**fields)`` and ``Pincite(**fields)``, twice as fast (one or more per citation)
_new_pin_page = fast_constructor(PinPage)
_new_pincite = fast_constructor(Pincite)


def expand_range_end(first: str, last: str) -> str:
    """``352``/``53`` → ``353``; ``1005``/``6`` → ``1006``; a full end stays as written."""
    if len(last) < len(first):
        return first[: len(first) - len(last)] + last
    return last


def _pin_page(text: str, m: re.Match[str]) -> tuple[PinPage, str | None]:
    """One page, range or footnote of a pin cite; and why it is malformed (a range that runs backwards)."""
    first, last = m["first"], m["last"]
    malformed = None
    if last is not None:
        last = expand_range_end(first, last)
        if int(last) < int(first):
            malformed = f"range {text[m.start() : m.end()]!r} ends before it starts"
    fn = re.split(r"\s?(?:-|&|,)\s?", m["fn"])[0] if m["fn"] else None
    star = bool(m["star"] or m["star2"])
    return _new_pin_page(
        first=first, last=last, footnote=fn, star=star, span=Span(m.start(), m.end())
    ), malformed


def _dash_ends_pin(text: str, original: str, d: re.Match[str], limit: int) -> bool:
    """The dash after a page is punctuation, not a range without its end: "at 500—is" (an em dash), "at
    695--was" and "at 190-might" (a hyphen glued to a word); or a range cut by a line or page break ("at
    59–⏎ Cite as: …": its end is lost in page furniture)."""
    dash = text.index("-", d.start(), d.end())
    return (
        original[dash] == _EM_DASH or _dash_as_punctuation(text, dash) or _broken_line(original, dash, limit)
    )


def _next_page_at(text: str, end: int, limit: int, stops: frozenset[int]) -> int | None:
    """Where the pin cite's next page begins after a separator ("352, 355"), or None: "352, 93 S. Ct. 705" is
    a parallel citation (a stop), and "352, 2d ed." is no page."""
    sep = _SEP.match(text, end, limit)
    if not sep:
        return None
    nxt = _ELEM.match(text, sep.end(), limit)
    if not nxt or sep.end() in stops or nxt.start("first") in stops:
        return None
    after = text[nxt.end() : nxt.end() + 2]
    if after[:1].isalpha() or after[:2].strip()[:1].isalpha():
        return None
    return sep.end()


def parse_pincite(
    text: str, start: int, limit: int, *, original: str, stops: frozenset[int] = frozenset()
) -> tuple[Pincite | None, int]:
    """Parse a pin cite beginning at ``start`` (no leading comma) in normalised ``text``.

    ``limit`` bounds the scan; ``stops`` are offsets where another citation begins (a number there is
    the volume of a parallel cite, not a pin page). Returns the pin cite (``None`` if nothing
    pin-like is there) and the offset just after it.
    """
    parts: list[PinPage] = []
    malformed: str | None = None
    pos = start
    end = start
    while pos < limit and pos not in stops:
        m = _ELEM.match(text, pos, limit)
        if not m or (m.start("first") in stops):
            break
        part, bad = _pin_page(text, m)
        parts.append(part)
        malformed = bad or malformed
        end = m.end()
        d = _DANGLING_RANGE.match(text, end, limit)
        if part.last is None and d is not None and m["fn"] is None:
            if not _dash_ends_pin(text, original, d, limit):
                malformed = f"range {text[m.start() : d.end()].strip()!r} has no end"
                end = d.end()
            break
        nxt = _next_page_at(text, end, limit, stops)
        if nxt is None:
            break
        pos = nxt
    if not parts:
        return None, start
    return (
        _new_pincite(
            text=original[start:end].rstrip(),
            span=Span(start, start + len(original[start:end].rstrip())),
            parts=tuple(parts),
            malformed=malformed,
        ),
        end,
    )


def _dash_as_punctuation(text: str, dash: int) -> bool:
    """``--`` typed for an em dash, or a dash glued to the next word (``190-might``): punctuation."""
    nxt = text[dash + 1 : dash + 2]
    return nxt == "-" or nxt.isalpha()


def _broken_line(original: str, dash: int, limit: int) -> bool:
    """A line or page break follows the dash (only spaces between), or the paragraph ends there.

    ``original`` is the paragraph: a dash that ends it was cut by a break too (double-spaced text,
    where every line is its own paragraph, and a range cut by a PDF page break: ``at 734-⏎⏎36``).
    """
    stop = min(limit, dash + 40)
    for ch in original[dash + 1 : stop]:
        if ch in "\n\r\f\v\u2028\u2029":
            return True
        if ch not in " \t":
            return False
    return stop >= len(original)


#: Pins that are right but name no page we can check: a blank left for the page (``at ___``, slip
#: opinions), a footnote alone (``Id. at n. 18``), a lettered page (``Id., at S3884`` in the
#: Congressional Record, ``Id., at A-52`` in an appendix).
_UNCHECKABLE_PIN = re.compile(r"(?:_+(?:\s?-\s?_+)?|nn?\.?\s?\d+|[A-Z]{1,2}-?\d+)")


def uncheckable_pincite(text: str, start: int, *, original: str) -> tuple[Pincite, int] | None:
    """A valid pin with no checkable page at ``start``, with the offset after it; None if there is none."""
    m = _UNCHECKABLE_PIN.match(text, start)
    if m is None or (m.end() < len(text) and (text[m.end()].isalnum() or text[m.end()] == "_")):
        return None
    end = m.end()
    return Pincite(text=original[start:end], span=Span(start, end), parts=()), end


def unparsed_pincite(text: str, start: int, end: int, *, original: str, reason: str) -> Pincite:
    """A pin cite that is present but unreadable (``at ___``, ``at xii``): kept with the reason."""
    return Pincite(text=original[start:end], span=Span(start, end), parts=(), malformed=reason)
