"""Normalising text for passage search, keeping a map back to the original offsets.

A quotation in a draft differs from the opinion in typography only (curly vs straight quotes, en vs
em dashes, line breaks, case), so both sides are folded the same way before comparing. Pure.
"""

from __future__ import annotations

import re

_FOLD = str.maketrans(
    {
        "\u2018": "'",
        "\u2019": "'",
        "\u201a": "'",
        "\u201b": "'",
        "\u2032": "'",
        "\u201c": '"',
        "\u201d": '"',
        "\u201e": '"',
        "\u2033": '"',
        "\u2010": "-",
        "\u2011": "-",
        "\u2012": "-",
        "\u2013": "-",
        "\u2014": "-",
        "\u2015": "-",
        "\u00a0": " ",
        "\u00ad": None,
    }
)
_WORD = re.compile(r"\w+", re.UNICODE)
_ELLIPSIS = re.compile(r"(?:\.\s*){3,}|…|\[\s*\.\.\.\s*\]")


def fold(text: str) -> tuple[str, list[int]]:
    """(folded text, offset map) — ``folded[i]`` came from ``text[map[i]]``; whitespace runs become one space.

    >>> fold("A \u201cB\u201d\\n  c")[0]
    'a b c'
    """
    out: list[str] = []
    index: list[int] = []
    prev_space = True
    for i, ch in enumerate(text):
        t = ch.translate(_FOLD)
        if not t or t in "'\"`[]":
            continue  # quotation marks (nesting) and alteration brackets ("[T]he") differ: ignore them
        if t.isspace():
            if prev_space:
                continue
            out.append(" ")
            index.append(i)
            prev_space = True
            continue
        for c in t.lower():
            out.append(c)
            index.append(i)
        prev_space = False
    if out and out[-1] == " ":
        out.pop()
        index.pop()
    return "".join(out), index


def longest_fragment(passage: str) -> str:
    """The longest piece of a quotation between ellipses (what we actually search for)."""
    pieces = [p.strip(" \"'\u201c\u201d\u2018\u2019") for p in _ELLIPSIS.split(passage)]
    return max(pieces, key=len) if pieces else passage


def fts_phrase(passage: str, max_words: int = 16) -> str | None:
    """An FTS5 phrase query for the passage's words (quoted, so FTS syntax in it is inert)."""
    words = _words(passage)
    if not words:
        return None
    if len(words) > max_words:  # the middle of a long quote is the most distinctive part
        start = (len(words) - max_words) // 2
        words = words[start : start + max_words]
    return '"' + " ".join(words) + '"'


def _words(passage: str) -> list[str]:
    return _WORD.findall(passage.lower().replace("[", "").replace("]", ""))


def locate(text: str, passage: str) -> tuple[int, int] | None:
    """``(start, end)`` of the passage's words in ``text``, whatever the punctuation, quotes,
    brackets, case and whitespace between them; None if absent. Linear time (one regex search),
    so it is cheap even on the longest opinions.

    >>> t = "He said: \\u201cThe court\\u2019s [rule] applies\\u201d here."
    >>> s, e = locate(t, "the court's rule applies")
    >>> t[s:e]
    'The court’s [rule] applies'
    """
    words = _words(passage)
    if not words:
        return None
    pattern = r"(?<!\w)" + r"[\W_]+".join(re.escape(w) for w in words) + r"(?!\w)"
    m = re.search(pattern, text, re.IGNORECASE)
    return (m.start(), m.end()) if m else None
