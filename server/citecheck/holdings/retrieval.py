"""The few passages of an opinion most relevant to a proposition, within a token budget.

Paragraphs (long ones cut into windows at sentence ends) are ranked with SQLite FTS5's bm25 in a
private in-memory database, so nothing touches the disk; passages on the pages the draft pin-cites get
a boost, because that is where the draft says the support is. Each passage carries its page label
from the opinion's page map. Deterministic for a given opinion and proposition, which the judgment
cache relies on.
"""

from __future__ import annotations

import itertools
import re
import sqlite3
from collections.abc import Iterator

from citecheck.checks.quotes import page_of
from citecheck.holdings.models import Claim, Passage
from citecheck.sources.models import OpinionText

WINDOW_WORDS = 160  # a paragraph longer than this is cut into windows of about this many words
MIN_WORDS = 6  # shorter paragraphs (headings, "Affirmed.") are not passages
MAX_PASSAGES = 4
PIN_BOOST = 1.5  # bm25 scores are negative (lower is better): multiplied for passages on a pin-cited page
CANDIDATES = 24

_WORD = re.compile(r"[^\W_]+(?:['’][^\W_]+)*", re.UNICODE)
_SENTENCE_END = re.compile(r"(?:(?<=[.!?])|(?<=[.!?][\"'”’)]))\s+(?=[\"'“‘(]?[A-Z])")
_STOP = frozenset(
    "a an and are as at be been but by for from had has have he her his i if in into is it its of on or "
    "our she so such than that the their them then there these they this those to was we were which while "
    "who will with would you court held holds holding see also id".split()
)


def approx_tokens(text: str) -> int:
    """Roughly how many tokens a model's tokenizer makes of ``text`` (4 characters a token).

    >>> approx_tokens("a" * 400)
    100
    """
    return max(1, (len(text) + 3) // 4)


def _paragraphs(text: str) -> Iterator[tuple[int, int]]:
    """``(start, end)`` of each non-empty line/paragraph, stripped of surrounding whitespace."""
    pos = 0
    for line in text.split("\n"):
        lead = len(line) - len(line.lstrip())
        body = line.strip()
        if body:
            yield pos + lead, pos + lead + len(body)
        pos += len(line) + 1


def _windows(text: str, start: int, end: int) -> Iterator[tuple[int, int]]:
    """A paragraph as one unit, or, when long, as consecutive runs of whole sentences."""
    para = text[start:end]
    if len(para.split()) <= WINDOW_WORDS:
        yield start, end
        return
    cuts = [0, *(m.end() for m in _SENTENCE_END.finditer(para)), len(para)]
    w_start, words = 0, 0
    for a, b in itertools.pairwise(cuts):
        n = len(para[a:b].split())
        if words and words + n > WINDOW_WORDS:
            yield start + w_start, start + len(para[:a].rstrip())
            w_start, words = a, 0
        words += n
    if words:
        yield start + w_start, end


def split_passages(opinion: OpinionText) -> list[tuple[int, int]]:
    """Every candidate passage of the opinion as ``(start, end)`` offsets, in reading order.

    >>> op = OpinionText(case_id="x", text="Short.\\nThe statute bars the claim because it was filed late.")
    >>> [op.text[a:b] for a, b in split_passages(op)]
    ['The statute bars the claim because it was filed late.']
    """
    out = []
    for a, b in _paragraphs(opinion.text):
        for s, e in _windows(opinion.text, a, b):
            if len(opinion.text[s:e].split()) >= MIN_WORDS:
                out.append((s, e))
    return out


def query_terms(proposition: str) -> list[str]:
    """The words of a proposition worth searching for (no stop words, no duplicates, in order).

    >>> query_terms("The court held that a landlord may not evict the tenant.")
    ['landlord', 'may', 'not', 'evict', 'tenant']
    """
    seen: dict[str, None] = {}
    for m in _WORD.finditer(proposition):
        w = m.group().lower().replace("’", "'")
        if len(w) > 1 and w not in _STOP and not w.isdigit():
            seen.setdefault(w, None)
    return list(seen)


def _rank(texts: list[str], terms: list[str]) -> list[tuple[int, float]]:
    """``(row, bm25)`` of the passages matching any term, best first (bm25: lower is better)."""
    if not terms or not texts:
        return []
    db = sqlite3.connect(":memory:")
    try:
        db.execute("CREATE VIRTUAL TABLE p USING fts5(body, tokenize = 'porter unicode61')")
        db.executemany("INSERT INTO p(rowid, body) VALUES (?, ?)", enumerate(texts))
        query = " OR ".join('"' + t.replace('"', '""') + '"' for t in terms)
        rows = db.execute(
            "SELECT rowid, bm25(p) FROM p WHERE p MATCH ? ORDER BY bm25(p) LIMIT ?", (query, CANDIDATES)
        ).fetchall()
    except sqlite3.Error:
        return []  # an FTS5 oddity must not break the other checks: no passages, no question asked
    finally:
        db.close()
    return [(int(r), float(s)) for r, s in rows]


def retrieve_passages(
    opinion: OpinionText, claim: Claim, *, budget_tokens: int = 1200, max_passages: int = MAX_PASSAGES
) -> tuple[Passage, ...]:
    """The passages to show the judge for ``claim``, most relevant first, within ``budget_tokens``.

    Args:
        opinion: the cited case's opinion text with its page maps.
        claim: the proposition and, for the boost, the pages the draft pin-cites.
        budget_tokens: total size of the passages in approximate tokens; the first passage is cut to
            fit when it alone is larger.
        max_passages: at most this many passages.

    Returns:
        Passages with page labels; empty when no passage shares a word with the proposition.
    """
    spans = split_passages(opinion)
    texts = [opinion.text[a:b] for a, b in spans]
    ranked = _rank(texts, query_terms(claim.proposition))
    pages = [page_of(opinion, claim.reporter, claim.volume, a, b) for a, b in spans]
    pins = set(claim.pin_pages)

    def boosted(row: int, score: float) -> float:
        page = pages[row]
        on_pin = bool(pins) and page is not None and bool(pins & set(re.split(r"[–-]", page)))
        return score * PIN_BOOST if on_pin else score

    order = sorted(ranked, key=lambda rs: (boosted(*rs), rs[0]))
    chosen: list[Passage] = []
    used = 0
    for row, _ in order:
        if len(chosen) >= max_passages:
            break
        a, b = spans[row]
        cost = approx_tokens(texts[row])
        if chosen and used + cost > budget_tokens:
            continue
        if not chosen and cost > budget_tokens:  # one huge passage: keep its start, cut at a word
            b = a + len(opinion.text[a : a + budget_tokens * 4].rsplit(" ", 1)[0])
            cost = budget_tokens
        chosen.append(
            Passage(
                start=a,
                end=b,
                text=opinion.text[a:b],
                page=page_of(opinion, claim.reporter, claim.volume, a, b),
            )
        )
        used += cost
    return tuple(chosen)
