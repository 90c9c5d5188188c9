"""Does the draft itself give a case's negative history? Then there is nothing to warn about.

A brief may cite an overruled case on purpose — for its history, for what it held before, to distinguish
it — and say so: in the citation's subsequent history (``, overruled by Lawrence v. Texas, 539 U.S. 558
(2003)``, ``, abrogated on other grounds by …``, ``, rev'd, …``), in a parenthetical (``(overruled in
part by …)``), right after it (``…, since overruled, …``) or in its sentence (``Bowers, which Lawrence
overruled``, ``Roe and Casey are overruled``). Pure: the extraction in, the words that say it out.
"""

from __future__ import annotations

import re

from citecheck.extract.models import Citation, CiteForm, Extraction
from citecheck.treatment.language import _hedged, has_cue, own_end, sentences, statements

#: Subsequent-history and treatment words a draft gives a case's later history with (Bluebook rule 10.7 and
#: T8: overruled, abrogated, superseded, disapproved, rev'd/reversed, vacated, receded from, …).
NEGATIVE_HISTORY = re.compile(
    r"\b(?:overruled|over-ruled|abrogated|superseded|disapproved|rev'?d|rev’d|reversed|vacated|receded\s+from|"
    r"no\s+longer\s+good\s+law|not\s+good\s+law|repudiated|called\s+into\s+doubt|limited\s+by|questioned\s+by)\b",
    re.I,
)
"""The passive only: ``overruling Smith`` after a citation is what that case did, not its own history."""
#: Right after the citation (its own end), before anything else is cited: ", since overruled," / "(overruled)".
_RIGHT_AFTER = 160


def _group(extraction: Extraction, c: Citation) -> list[Citation]:
    g = c.group if c.group is not None else c.index
    return [
        o
        for o in extraction.citations
        if o.form is CiteForm.FULL and (o.group if o.group is not None else o.index) == g
    ]


def acknowledged(extraction: Extraction, citation: Citation) -> str | None:
    """The words with which the draft gives ``citation``'s negative history (None: it does not).

    ``citation`` is a full citation; its parallel citations count with it. In a chain of history only what
    follows a decision is its history: in ``Roe v. Wade, 314 F. Supp. 1217, aff'd in part, rev'd in part,
    410 U.S. 113 (1973)`` the "rev'd" is the district court's, not the Supreme Court's, and ``…, 410 U.S. 113
    (1973), overruled by Dobbs …`` is the Supreme Court decision's.
    """
    text = extraction.text
    members = _group(extraction, citation)
    for c in members:
        for phrase in c.history:
            if NEGATIVE_HISTORY.match(phrase):
                return phrase
        for p in c.parentheticals:
            if NEGATIVE_HISTORY.match(p.text.strip()):
                return p.text
    end = max(own_end(c) for c in members)
    tail = _tail(extraction, citation, end)
    m = NEGATIVE_HISTORY.search(tail)
    if m is not None and not _hedged(tail[: m.start()]):
        return " ".join(tail[m.start() : m.start() + 80].split())
    return _in_sentence(extraction, citation, text)


def _tail(extraction: Extraction, citation: Citation, end: int) -> str:
    """The words right after the citation, up to the next citation of another case or the sentence's end."""
    text = extraction.text
    stop = min(len(text), end + _RIGHT_AFTER)
    group = {c.index for c in _group(extraction, citation)}
    for o in extraction.citations:
        if o.index not in group and end <= o.span.start < stop and not _in_history_of(citation, o):
            stop = o.full_span.start if o.full_span.start >= end else o.span.start
            break
    tail = text[end:stop]
    cut = re.search(r"[.;](?:\s|$)", tail)
    return tail[: cut.start()] if cut else tail


def _in_history_of(citation: Citation, other: Citation) -> bool:
    return citation.full_span.start <= other.span.start and other.span.end <= citation.full_span.end


def _in_sentence(extraction: Extraction, citation: Citation, text: str) -> str | None:
    """A statement of the sentence (the language reader) that the case was treated: ``Bowers, which Lawrence
    overruled, …``; ``Roe and Casey are overruled``."""
    spans = sentences(text, [c.full_span for c in extraction.citations])
    sentence = next((s for s in spans if s.start <= citation.span.start < s.end), None)
    if sentence is None or not has_cue(text[sentence.start : sentence.end]):
        return None
    for st in statements(text, extraction):
        if st.sentence == sentence and _same_case(extraction, st.target, citation):
            return " ".join(text[st.cue.start : st.cue.end].split())
    return None


def _same_case(extraction: Extraction, target: int, citation: Citation) -> bool:
    a = extraction.citations[target]
    keys = {c.key for c in _group(extraction, citation) if c.key is not None}
    return bool(keys & {c.key for c in _group(extraction, a) if c.key is not None})


__all__ = ["NEGATIVE_HISTORY", "acknowledged"]
