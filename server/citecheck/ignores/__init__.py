"""Findings and citations the user dismissed: content keys and the ignore list (pure; no file I/O).

Entries are keyed by CONTENT — finding kind + normalised citation + a hash of the quoted words —
never by position, so a dismissal survives edits, re-opening the file and switching editors or
running ``citecheck check`` in CI. ``"*"`` as kind and quote hash means "this citation, whatever
is wrong with it". The JSON form (``.citecheck/ignore.json``, read and written by
``ignores/file.py`` at the edges) is small and readable::

    {"version": 1, "ignored": [{"kind": "misquote", "citation": "100 a.2d 36", "quoteHash": "9f2c…"},
                               {"kind": "*", "citation": "410 u.s. 113", "quoteHash": "*"}]}
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Protocol

from citecheck.extract.models import Citation, Extraction
from citecheck.findings import Finding, Kind

ANY = "*"
FILE_VERSION = 1
#: Longest citation a dismissal request may name (citations are tens of characters).
MAX_CITATION_CHARS = 500
_KINDS = frozenset(k.value for k in Kind)
_QUOTE_HASH = re.compile(r"[0-9a-f]{16}")
_WS = re.compile(r"\s+")
#: Kinds about a quotation: the quoted words are part of what the user dismissed.
_QUOTE_KINDS = frozenset({Kind.MISQUOTE, Kind.PINCITE_WRONG_PAGE, Kind.UNSUPPORTED_HOLDING})


@dataclass(frozen=True, slots=True, kw_only=True)
class IgnoreKey:
    kind: str
    citation: str
    quote_hash: str = ""

    def to_json(self) -> dict[str, str]:
        return {"kind": self.kind, "citation": self.citation, "quoteHash": self.quote_hash}

    @classmethod
    def from_json(cls, data: object) -> IgnoreKey | None:
        if not isinstance(data, dict):
            return None
        kind, cite, qh = data.get("kind"), data.get("citation"), data.get("quoteHash", "")
        if not isinstance(kind, str) or not isinstance(cite, str) or not isinstance(qh, str) or not cite:
            return None
        return cls(kind=kind, citation=cite, quote_hash=qh)

    @property
    def whole_citation(self) -> IgnoreKey:
        return IgnoreKey(kind=ANY, citation=self.citation, quote_hash=ANY)

    def request_problem(self) -> str | None:
        """Why an edge refuses to store this key when a client asks it to, or None when it is sound.

        A dismissal names a finding the user was shown: a known kind (``"*"`` is for scope
        "citation", never sent), a citation of sensible length and a quote hash as ``key_for``
        makes it. Anything else would sit in ``.citecheck/ignore.json`` matching nothing.

        >>> IgnoreKey(kind="misquote", citation="100 a.2d 36").request_problem() is None
        True
        >>> IgnoreKey(kind="bogus", citation="100 a.2d 36").request_problem()[:26]
        "unknown finding kind 'bogu"
        """
        if self.kind not in _KINDS:
            return f"unknown finding kind {self.kind[:80]!r} (one of: {', '.join(sorted(_KINDS))})"
        if len(self.citation) > MAX_CITATION_CHARS:
            return f"the citation is longer than {MAX_CITATION_CHARS} characters"
        if self.quote_hash and not _QUOTE_HASH.fullmatch(self.quote_hash):
            return "quoteHash must be empty or the 16 hexadecimal digits the finding's ignore key carries"
        return None


class Ignores(Protocol):
    """Anything that can say whether a key was dismissed (``IgnoreList``, the edges' stores)."""

    def ignores(self, key: IgnoreKey) -> bool: ...


@dataclass(frozen=True, slots=True)
class IgnoreList:
    """An immutable set of dismissed keys."""

    keys: frozenset[IgnoreKey] = field(default_factory=frozenset)

    def ignores(self, key: IgnoreKey) -> bool:
        if not self.keys:  # asked for every finding on every publish; usually nothing is dismissed
            return False
        return key in self.keys or key.whole_citation in self.keys

    def __len__(self) -> int:
        return len(self.keys)

    def __contains__(self, key: object) -> bool:
        return isinstance(key, IgnoreKey) and self.ignores(key)

    def adding(self, key: IgnoreKey) -> IgnoreList:
        return IgnoreList(self.keys | {key})

    def to_json_text(self) -> str:
        body = {"version": FILE_VERSION, "ignored": [k.to_json() for k in sorted(self.keys, key=_sort_key)]}
        return json.dumps(body, indent=2, ensure_ascii=False) + "\n"

    @classmethod
    def from_json_text(cls, text: str) -> IgnoreList:
        """Parse the file's text; entries that are not well-formed keys are skipped.

        Raises ``ValueError`` when the text is not JSON at all.
        """
        data = json.loads(text)
        entries = data.get("ignored", []) if isinstance(data, dict) else []
        keys = (IgnoreKey.from_json(e) for e in entries if isinstance(entries, list))
        return cls(frozenset(k for k in keys if k is not None))

    @classmethod
    def of(cls, keys: Iterable[IgnoreKey]) -> IgnoreList:
        return cls(frozenset(keys))


def normalise_citation(text: str) -> str:
    """Case- and spacing-insensitive form of a citation string.

    >>> normalise_citation("410  U. S. 113")
    '410 u. s. 113'
    """
    return _WS.sub(" ", text).strip().lower()


def quote_hash(quote: str | None) -> str:
    """A short, stable hash of the quoted words (so the file does not copy the draft's text)."""
    if not quote:
        return ""
    norm = _WS.sub(" ", quote.replace("“", '"').replace("”", '"')).strip().lower()
    # surrogatepass: a lone surrogate (legal in LSP and JSON text) must hash, not crash
    return hashlib.sha256(norm.encode("utf-8", "surrogatepass")).hexdigest()[:16]


def _citation_for(finding: Finding, extraction: Extraction | None) -> Citation | None:
    if extraction is None:
        return None
    # asked per citation and per place: an incremental extraction builds only the paragraphs needed
    if finding.citation_index is not None and 0 <= finding.citation_index < extraction.citation_count:
        return extraction.citation(finding.citation_index)
    near = extraction.touching(finding.span.start, finding.span.end)
    hits = [c for c in near if c.full_span.overlaps(finding.span) or c.span == finding.span]
    return min(hits, key=lambda c: len(c.full_span)) if hits else None


def key_for(finding: Finding, extraction: Extraction | None, text: str) -> IgnoreKey:
    """The content key of ``finding``: a short form is keyed by the full citation it stands for."""
    cite = _citation_for(finding, extraction)
    if cite is not None and extraction is not None:
        full = extraction.resolved(cite) or cite
        label = full.cite_string or full.text
    else:
        label = finding.span.of(text)
    quote = finding.evidence.draft if finding.kind in _QUOTE_KINDS else None
    if quote is None and cite is not None:
        quote = next((q.text for q in cite.quotes if q.span.overlaps(finding.span)), None)
    return _key(str(finding.kind), label, quote)


@lru_cache(maxsize=8192)
def _key(kind: str, label: str, quote: str | None) -> IgnoreKey:
    """Keys are asked for every finding on every publish; the same few hundred come back each time."""
    return IgnoreKey(kind=kind, citation=normalise_citation(label), quote_hash=quote_hash(quote))


def _sort_key(k: IgnoreKey) -> tuple[str, str, str]:
    return (k.citation, k.kind, k.quote_hash)


__all__ = ["ANY", "IgnoreKey", "IgnoreList", "Ignores", "key_for", "normalise_citation", "quote_hash"]
