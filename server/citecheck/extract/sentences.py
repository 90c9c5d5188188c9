"""Sentence boundaries inside a paragraph, aware of legal abbreviations and citations.

Citations are full of periods (``U.S.``, ``F.3d``, ``v.``, ``Id.``); we protect every citation's full
span so no boundary falls inside one, and skip the periods of known abbreviations and initials.
"""

from __future__ import annotations

import re
from bisect import bisect_right

from citecheck.extract.names import _is_abbreviation

#: ``[.?!]+…`` written ``[.?!][.?!]*…`` (the same matches): a pattern opening with a repeat is tried at every
#: position, one opening with a class only where the class matches (tests/extract/test_fast_regexes.py)
_END = re.compile(r"[.?!][.?!]*[\"')\]]*(?=\s+[\"'(\[]?[A-Z0-9*_>])")
#: the characters a match of ``_END`` is made of
_RUN = frozenset(".?!\"')]")
_NOT_ENDING = frozenset(
    "e.g. i.e. cf. v. vs. viz. al. n. nn. p. pp. para. ¶ § syl. pt. pts. art. no. nos. ch.".split()
)


def _outermost(protected: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The protected extents sorted, nested and overlapping ones merged into the outermost.

    >>> _outermost([(10, 20), (0, 5), (12, 15), (18, 25)])
    [(0, 5), (10, 25)]
    """
    merged: list[tuple[int, int]] = []
    for a, b in sorted(protected):
        if merged and a < merged[-1][1]:
            merged[-1] = (merged[-1][0], max(merged[-1][1], b))
        else:
            merged.append((a, b))
    return merged


def _after_abbreviation(norm: str, end: int) -> bool:
    """The period ending at ``end`` closes an abbreviation (or a word that never ends a sentence)."""
    # the word before ``end`` (within 80 characters): what ``\S+$`` found there; ``end`` follows a
    # sentence's punctuation, never a line break
    before = norm[max(0, end - 80) : end]
    word = before.rsplit(None, 1)[-1] if before and not before[-1].isspace() else ""
    said = _abbreviation_ends.get(word)
    if said is None:
        core = word.rstrip("\"')]")
        said = core.lower() in _NOT_ENDING or (_is_abbreviation(core) and not core.endswith(")."))
        if len(_abbreviation_ends) >= 20_000:
            _abbreviation_ends.clear()
        _abbreviation_ends[word] = said
    return said


#: ``_after_abbreviation``'s answer by the word before the period (a function of the word alone;
#: ``U.S.``, ``v.``, ``Id.`` and the prose's words recur all through a document); emptied when full
_abbreviation_ends: dict[str, bool] = {}


def sentence_spans(norm: str, protected: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """``[(start, end), ...]`` covering the paragraph, trimmed of surrounding whitespace."""
    protected = _outermost(protected)
    starts = [p[0] for p in protected]
    cuts: list[int] = []
    search = _END.search
    pos = 0
    while (m := search(norm, pos)) is not None:  # as finditer: each search from the last match's end
        dot, pos = m.start(), m.end()
        i = bisect_right(starts, dot) - 1
        inside = i >= 0 and protected[i][0] <= dot < protected[i][1]
        if inside and dot != protected[i][1] - 1:
            # a period inside a citation ("U.S.", "v.") ends nothing, nor do the citation's others up to
            # its last character: searched again from there — unless a run of the pattern's punctuation
            # could reach it from before (then the match finditer would make there starts earlier)
            last = protected[i][1] - 1
            if last > pos and norm[last - 1] not in _RUN:
                pos = last
            continue
        # a citation's own final period ("Id.") may end the sentence; elsewhere skip abbreviations
        if norm[dot] == "." and not inside and _after_abbreviation(norm, m.end()):
            continue
        cuts.append(m.end())
    return spans_between(norm, cuts)


def spans_between(norm: str, cuts: list[int]) -> list[tuple[int, int]]:
    """The non-blank pieces of ``norm`` between its cuts (in order), each without its outer whitespace."""
    spans: list[tuple[int, int]] = []
    pos = 0
    for c in [*cuts, len(norm)]:
        s, e = pos, c
        while s < e and norm[s].isspace():
            s += 1
        while e > s and norm[e - 1].isspace():
            e -= 1
        if e > s:
            spans.append((s, e))
        pos = c
    return spans
