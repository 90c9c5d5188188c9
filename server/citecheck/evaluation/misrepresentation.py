"""Evaluation items for the holding judge ("content misrepresentation"), made from corpus cases; pure.

Each item cites a real corpus case, with the right cite and pin cite, for a proposition stated without
quotation marks:

* ``reversed`` — a sentence of the opinion with its meaning reversed (a "not" added or removed, "never"
  ↔ "always"): gold type ``misrepresentation``;
* ``other-case`` — a sentence from a *different* corpus opinion, cited to this case: gold type
  ``misrepresentation``;
* ``supported`` — the opinion's own sentence, unchanged: no gold span, ``"control": "misrepresentation"``,
  so ``citecheck eval`` can report the false-positive rate on items the case does support.

Lines follow the LePhantomCite format (``text``, ``hallucinations``) plus ``id``, ``injected``, ``case``
and, for controls, ``control``.
"""

from __future__ import annotations

import random
import re
from collections.abc import Sequence

from citecheck.checks.quotes import format_pages
from citecheck.evaluation.dataset import CaseSample, _Passage, _Usable, _usable

CATEGORY = "misrepresentation"
_AUX = re.compile(r"\b(is|was|are|were|may|must|shall|can|will|does|did|should|would|could|has|have|had)\b")
_NOT = re.compile(r"\b(not)\s+", re.I)
_OTHER_NEGATION = re.compile(
    r"\b(?:no|nothing|none|nobody|neither|nor|cannot|without|nowhere)\b|n['’]t\b", re.I
)
_INTROS = (
    "The court held that",
    "It is settled that",
    "Courts recognise that",
    "The opinion makes clear that",
)


def reverse_meaning(sentence: str) -> str | None:
    """The sentence with its meaning reversed, or None when no simple reversal applies.

    Only one negation is touched, and a sentence with a negation this cannot undo cleanly ("no",
    "nothing", "cannot", "n't", "neither") is left alone (None): adding a "not" beside one makes a double
    negative ("had not no intention") whose meaning is no longer simply reversed.

    >>> reverse_meaning("The statute does not apply to tenants")
    'The statute does apply to tenants'
    >>> reverse_meaning("The tenant was entitled to notice")
    'The tenant was not entitled to notice'
    >>> reverse_meaning("Courts never award such damages")
    'Courts always award such damages'
    >>> reverse_meaning("Affirmed in part") is None
    True
    >>> reverse_meaning("He had no intention of being seen") is None
    True
    """
    others = len(_OTHER_NEGATION.findall(sentence))
    nots = len(_NOT.findall(sentence)) + len(re.findall(r"\bnever\b", sentence))
    if others or nots > 1:
        return None
    if m := _NOT.search(sentence):
        return sentence[: m.start()] + sentence[m.end() :]
    if re.search(r"\bnever\b", sentence):
        return re.sub(r"\bnever\b", "always", sentence, count=1)
    if m := _AUX.search(sentence):
        return sentence[: m.end()] + " not" + sentence[m.end() :]
    return None


def _words(text: str) -> set[str]:
    return {w.lower() for w in re.findall(r"[A-Za-z]{4,}", text)}


def _item(u: _Usable, p: _Passage, proposition: str, rng: random.Random) -> tuple[str, str]:
    core = f"{u.cite.volume} {u.cite.reporter} {u.cite.page}"
    body = (
        proposition[0].lower() + proposition[1:]
        if proposition[:2] != proposition[:2].upper()
        else proposition
    )
    text = f"{rng.choice(_INTROS)} {body}. {u.name}, {core}, {format_pages(p.pages)} ({u.year})."
    return text, core


def make_misrepresentation_items(
    samples: Sequence[CaseSample], *, n: int = 60, seed: int = 0
) -> list[dict[str, object]]:
    """``n`` items: a third reversed, a third from another case, a third supported controls (same opinions)."""
    rng = random.Random(seed)
    usable = [u for s in samples if (u := _usable(s)) is not None]
    if not usable:
        return []
    out: list[dict[str, object]] = []
    for i in range(n):
        u = usable[i % len(usable)]
        p = rng.choice(u.passages)
        which = ("reversed", "other-case", "supported")[i % 3]
        row: dict[str, object] | None = None
        if which == "reversed" and (rev := reverse_meaning(p.text)) is not None:
            text, core = _item(u, p, rev, rng)
            row = {"text": text, "hallucinations": {core: CATEGORY}, "injected": "reversed-meaning"}
        elif which == "other-case":
            mine = _words(" ".join(q.text for q in u.passages))
            others = [
                (o, q)
                for o in usable
                if o.record.id != u.record.id
                for q in o.passages
                if len(_words(q.text) & mine) <= 2
            ]
            if others:
                _, q = rng.choice(others)
                text, core = _item(u, p, q.text, rng)
                row = {"text": text, "hallucinations": {core: CATEGORY}, "injected": "other-case"}
        if row is None:  # "supported", or no reversal / other case available: a control
            text, _ = _item(u, p, p.text, rng)
            row = {"text": text, "hallucinations": {}, "injected": None, "control": CATEGORY}
        row.update(id=f"mr{i:04d}", case=u.record.id)
        out.append(row)
    return out
