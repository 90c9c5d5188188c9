"""Length-preserving normalisation of text before scanning.

Every substitution is one code point for one code point, so an offset into the scanned text IS an
offset into the original text: no span mapping, no ``SpanUpdater``. This is how we avoid three eyecite
bugs at once: a non-breaking space inside ``410\u00a0U.S.\u00a0113`` hides the citation (the reporter
regexes need literal spaces), en-dash pin ranges (``352–53``) are not parsed, and Hyperscan drops
matches next to multi-byte characters. Line breaks inside a paragraph become spaces so that a
hard-wrapped citation is still one citation. Markdown emphasis markers become spaces so that
``*Mata v. Avianca, Inc.*`` reads as a plain case name (a ``*`` before a digit is a star page and stays), and
so do Markdown links' brackets and targets (``[Park v. Kim](https://…)``).
"""

from __future__ import annotations

import re

_SPACES = "\u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u202f\u205f\u3000"
_BREAKS = "\t\n\v\f\r\x1c\x1d\x1e\x85\u2028\u2029"
_DASHES = "\u2010\u2011\u2012\u2013\u2014\u2015\u2212\ufe58\ufe63\uff0d"
_SINGLE = "\u2018\u2019\u201a\u201b\u2032\u02bc"
_DOUBLE = "\u201c\u201d\u201e\u201f\u2033\u00ab\u00bb"

_REPLACED = {
    **{c: " " for c in _SPACES + _BREAKS},
    **{c: "-" for c in _DASHES},
    **{c: "'" for c in _SINGLE},
    **{c: '"' for c in _DOUBLE},
    "`": " ",  # Markdown code quotes: "`Bush v. Gore, 531 U.S. 98`" named the case "Gore"
    "\u200b": " ",  # zero-width space: keep the length, lose the character
    "\ufeff": " ",
}
_TABLE = str.maketrans(_REPLACED)
#: the same characters, found by a regex: ``str.translate`` looks up every character of a text with
#: any non-ASCII character in it (one dict lookup each, most of a paragraph's normalising), while
#: the replaced characters are few
_TO_REPLACE = re.compile("[" + "".join(re.escape(c) for c in _REPLACED) + "]")


def _replaced(m: re.Match[str]) -> str:
    return _REPLACED[m.group()]


# ``*`` / ``**`` / ``_`` / ``__`` used as emphasis, not ``*3`` star pages nor ``___`` blanks.
_EMPHASIS = re.compile(r"\*(?!\d)|_(?<!__)_?(?!_)")
_EMPHASIS_STAR = re.compile(r"\*(?!\d)")
_EMPHASIS_UNDERSCORE = re.compile(r"_(?<!__)_?(?!_)")


# A Markdown link around a case name or a whole citation, as blogs write them: the brackets and the target
# go, the words stay ("[Mata v. Avianca, Inc., 678 F. Supp. 3d 443 (S.D.N.Y. 2023)](https://…)" read the
# name as "Avianca, Inc."; "[*Park v. Kim*](https://…), 91 F.4th 610" had none; "[Mata v. Avianca][mata]"
# a reference link). Only a bracket closed on its line and followed at once by a target: "[W]here", "[sic]"
# and a citation's "[2019] UKSC 12" stay.
_LINK = re.compile(r"\[(?=[^\[\]\n]{1,400}\](?:\((?:https?:|mailto:|/|#|\.)[^()\s]*\)|\[[^\[\]\n]{0,60}\]))")
_LINK_TARGET = re.compile(r"\](?:\((?:https?:|mailto:|/|#|\.)[^()\s]*\)|\[[^\[\]\n]{0,60}\])")


def _blank(m: re.Match[str]) -> str:
    return " " * len(m.group())


def normalise(text: str) -> str:
    """Return ``text`` with scanning-hostile characters replaced one for one (same length)."""
    # ASCII text: translate's own fast path (it looks each distinct character up once)
    out = text.translate(_TABLE) if text.isascii() else _TO_REPLACE.sub(_replaced, text)
    if "](" in out or "][" in out:  # before emphasis: a target's "_" is no emphasis ("Mata_v._Avianca")
        out = _LINK_TARGET.sub(_blank, _LINK.sub(" ", out))
    # ``_EMPHASIS``'s two alternatives apart (neither looks at the other's characters): a star's match is one
    # character, replaced by a string, not a call per match
    if "*" in out:
        out = _EMPHASIS_STAR.sub(" ", out)
    if "_" in out:
        out = _EMPHASIS_UNDERSCORE.sub(_blank, out)
    return out


def citation_text(original: str) -> str:
    """A citation's text as shown to the writer: the span as written, minus Markdown emphasis markers.

    ``*Stoltz*, 100 A.2d at 38`` has its span start at the name, but the closing ``*`` sits inside
    the span; ``Stoltz*, 100 A.2d at 38`` in a message reads as a typo. Everything else (NBSP, curly
    quotes, star pages ``*3``) stays exactly as written.
    """
    if "*" not in original and "_" not in original:
        return original
    return _EMPHASIS.sub("", original)
