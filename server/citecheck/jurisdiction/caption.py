"""Which court a caption names ("IN THE UNITED STATES DISTRICT COURT FOR THE SOUTHERN DISTRICT OF NEW YORK").

Recognition uses courts-db's own name patterns. Compiling all ~8,400 of them takes seconds, so only
the patterns of plausible courts are compiled, each once: the federal appellate courts, and the
courts located in a place the caption names. Pure: text in, a courts-db id out.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import cache

from citecheck.jurisdiction.hierarchy import Tier, court_node

#: How far into a document a caption may be (characters), and how many lines are looked at.
CAPTION_WINDOW = 3000
_MAX_LINES = 40

_MARKUP = re.compile(r"[#*_`>|]+")
_SPACES = re.compile(r"\s+")
_LEADING = re.compile(r"^(?:in\s+the\s+)", re.I)
_STATE_OF = re.compile(r"\b(?:the\s+)?state\s+of\s+", re.I)
_COURT_WORD = re.compile(r"\bcourt\b|\bcircuit\b", re.I)
_PLACE_WORDS = {
    "Washington D.C.": ("district of columbia", "d.c."),
    "DC": ("district of columbia",),
    "D.C.": ("district of columbia",),
}


@cache
def _courts() -> dict[str, dict]:
    import courts_db

    return {str(c["id"]): c for c in courts_db.courts}


@cache
def _patterns(court_id: str) -> tuple[re.Pattern[str], ...]:
    court = _courts()[court_id]
    out = []
    for raw in [*court.get("regex", ()), court.get("name", "")]:
        if not raw:
            continue
        try:
            out.append(re.compile(raw.replace("\\\\", "\\"), re.I))
        except re.error:  # a broken pattern in the data must not break recognition of the others
            continue
    return tuple(out)


@cache
def _by_place() -> dict[str, tuple[str, ...]]:
    """Hierarchy courts grouped by the words a caption would use for their place (branches left out:
    New York alone has some 400 county and town courts, whose patterns would take a second to compile)."""
    groups: dict[str, list[str]] = {}
    for cid, court in _courts().items():
        node = court_node(cid)
        if node is None or node.tier in (Tier.FEDERAL_OTHER, Tier.STATE_OTHER):
            continue
        parent = court_node(court.get("parent"))
        if parent is not None and parent.tier is node.tier:
            continue  # a branch of a court (a county's, a district's) weighs the same as the court itself
        loc = court.get("location") or ""
        for word in _PLACE_WORDS.get(loc, (loc.lower(),)):
            if word:
                groups.setdefault(word, []).append(cid)
    return {k: tuple(v) for k, v in groups.items()}


@cache
def _always() -> tuple[str, ...]:
    """Courts a caption names without naming a place: the Supreme Court and the circuits."""
    return tuple(
        cid
        for cid in _courts()
        if (n := court_node(cid)) is not None and n.tier in (Tier.SUPREME, Tier.CIRCUIT)
    )


def _candidates(line: str) -> Iterator[str]:
    low = line.lower()
    yield from _always()
    for word, ids in _by_place().items():
        if word in low:
            yield from ids


def caption_like(line: str) -> bool:
    """A line that reads like a caption (short; capitals or title case), not a sentence of argument.

    >>> caption_like("IN THE UNITED STATES DISTRICT COURT"), caption_like("The Ninth Circuit held that it applies.")
    (True, False)
    """
    text = _MARKUP.sub(" ", line).strip()
    if not text or len(text) > 200:
        return False
    words = [w for w in re.findall(r"[A-Za-z][A-Za-z'’.-]*", text) if len(w) > 3]
    if not words:
        return False
    capital = sum(1 for w in words if w[0].isupper())
    return capital / len(words) >= 0.8


def _variants(line: str) -> list[str]:
    text = _SPACES.sub(" ", _MARKUP.sub(" ", line)).strip(" ,.:;")
    text = _LEADING.sub("", text)
    out = [text]
    if _STATE_OF.search(text):
        out.append(_STATE_OF.sub("", text))
    return out


@cache
def recognise_court(line: str) -> str | None:
    """The courts-db id of the court a caption line names, or None.

    The longest pattern match wins; a bankruptcy court only when the line says "bankruptcy".

    >>> recognise_court("IN THE UNITED STATES DISTRICT COURT FOR THE SOUTHERN DISTRICT OF NEW YORK")
    'nysd'
    >>> recognise_court("# IN THE DISTRICT OF COLUMBIA COURT OF APPEALS")
    'dc'
    >>> recognise_court("BRIEF FOR APPELLANT") is None
    True
    """
    if not _COURT_WORD.search(line) or len(line) > 300:
        return None
    bankruptcy = "bankrupt" in line.lower()
    best: tuple[int, int, str] | None = None
    for text in _variants(line):
        for cid in dict.fromkeys(_candidates(text)):
            node = court_node(cid)
            if node is None or (node.tier is Tier.BANKRUPTCY) != bankruptcy:
                continue
            court = _courts()[cid]
            active = int(any(not d.get("end") for d in court.get("dates") or [{}]))
            for pattern in _patterns(cid):
                m = pattern.search(text)
                if m and (best is None or (len(m.group(0)), active) > best[:2]):
                    best = (len(m.group(0)), active, cid)
    if best is None or best[0] < 8:
        return None
    return best[2]


def caption_court(text: str) -> tuple[str, int] | None:
    """The court named by the document's caption, and the offset of the line naming it.

    Looks at the first lines of the document (before ``CAPTION_WINDOW``), alone and joined with the
    next line (captions are often split: "UNITED STATES DISTRICT COURT" / "SOUTHERN DISTRICT OF NEW YORK").
    """
    head = text[:CAPTION_WINDOW]
    lines: list[tuple[int, str]] = []
    offset = 0
    for raw in head.split("\n"):
        if raw.strip():
            lines.append((offset, raw))
        offset += len(raw) + 1
        if len(lines) >= _MAX_LINES:
            break
    for i, (start, line) in enumerate(lines):
        if not _COURT_WORD.search(line) or not caption_like(line):
            continue
        nxt = lines[i + 1][1] if i + 1 < len(lines) else ""
        joined = f"{line} {nxt}" if nxt and caption_like(nxt) else None
        found = recognise_court(joined) if joined else None
        single = recognise_court(line)
        if single and found and found != single and court_node(found) and court_node(single):
            # "UNITED STATES DISTRICT COURT" + "SOUTHERN DISTRICT OF NEW YORK": the joined line is more precise
            # only when it names a court the single line's court is a parent of or a generic form of
            found = found if _more_specific(found, single) else single
        result = found or single
        if result:
            return result, start
    return None


def _more_specific(a: str, b: str) -> bool:
    """True when ``a`` is a more precise court than ``b`` (``nysd`` than the generic ``usdistct``)."""
    ca, cb = _courts()[a], _courts()[b]
    return ca.get("parent") == b or not cb.get("citation_string") or cb.get("location") == "United States"
