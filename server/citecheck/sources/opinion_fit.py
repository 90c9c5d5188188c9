"""Is an opinion text fit to be evidence against a citation of its case? Pure.

A service can answer 200 with the wrong thing: a maintenance page, an empty or cut-off body, another
case's text; a cache or a CAP mirror can hold the same. Quote and pin-cite checks that compare a draft
with such a text accuse a real case (``misquote``, ``pincite-out-of-range``). So before any text is
used as evidence, ``why_unfit`` checks that it is the case's and complete enough:

* **not empty**: a handful of words is no opinion;
* **the case's**: page labels of one of the record's citations must fall inside that citation's pages
  (none before the first page, none after a known last page); unless they begin where the case begins
  (within two pages: long head matter may carry none), the text must also name a party of the record
  (when the record's name has a distinctive word to look for);
* **complete**: labels reach the record's last page where one is known, and the text ends at the end
  of a sentence (footnote markers and rules aside), not in the middle of one.

A text that fails is not used: the citation's quote and pin checks are *cannot verify* with the reason
(``opinion-unavailable``), which accuses nobody.
"""

from __future__ import annotations

import itertools
import re

from citecheck.sources.models import CaseCite, CaseRecord, OpinionText

#: fewer words than this is no opinion (an empty body, an error message)
MIN_WORDS = 5
#: the first page label may come this many pages after the first page (head matter, a short first page)
FIRST_LABEL_SLACK = 2
#: words of a caption that name no one in particular
_GENERIC = frozenset(
    """state states united people commonwealth county city town village district columbia america
    company corporation corp inc llc ltd co bank board department dept secretary director
    commissioner insurance mutual association assn of the and in re ex rel matter estate interest
    appellant appellee petitioner respondent plaintiff defendant others al et court superior supreme
    appeals law cnty comm'n commission for with from upon into""".split()
)
_WORD = re.compile(r"[A-Za-z][A-Za-z'’-]*[A-Za-z]|[A-Za-z]")
_INITIALS = re.compile(r"\b(?:[A-Z]\.){2,}")
#: what may follow the last sentence: footnote numbers and marks, rules, whitespace
_TRAILER = " \t\r\n\f\v\xa0\u2028\u2029" + "0123456789*†‡§¶-–—_=~#"
_SENTENCE_END = ".!?\"”’')]:;"
_PARTIES = re.compile(r"\s+vs?\.\s+")


def why_unfit(record: CaseRecord, opinion: OpinionText) -> str | None:
    """None when ``opinion`` may be used as ``record``'s text; else why not (a phrase for a message)."""
    text = opinion.text
    words = sum(1 for _ in itertools.islice(_WORD.finditer(text), MIN_WORDS))
    if words < MIN_WORDS:
        return f"the text received for {record.name} is empty or nearly so ({words} words)"
    near = False  # page labels that begin where the case begins: the text is the case's
    for cite in record.citations:
        labels = _labels(opinion, cite)
        if not labels:
            continue
        why = _pages_unfit(record, cite, labels)
        if why is not None:
            return why
        near = near or min(labels) <= int(cite.page) + FIRST_LABEL_SLACK
    if not near and (parties := _name_marks(record)) and not _names_all(text, parties):
        return (
            f"the text received does not name {record.name}, and no page number in it shows where the "
            "case begins: it may be another case's text or an error page"
        )
    body = text.rstrip(_TRAILER)
    if body and body[-1] not in _SENTENCE_END:
        tail = " ".join(body.split()[-6:])
        return f"the text received ends in the middle of a sentence (“…{tail}”): it was cut short"
    return None


def _labels(opinion: OpinionText, cite: CaseCite) -> list[int]:
    """The numeric page labels the text carries for the citation's reporter (none without a first page)."""
    pm = opinion.page_map(cite.reporter, cite.volume)
    if pm is None or not cite.page.isdigit():
        return []
    return [int(lbl) for _, lbl in pm.starts if lbl.isdigit()]


def _pages_unfit(record: CaseRecord, cite: CaseCite, labels: list[int]) -> str | None:
    """Why the page labels show the text is not the case's (pages outside it) or is cut short (its last
    pages missing); None when they fit."""
    first = int(cite.page)
    last = int(cite.last_page) if cite.last_page and cite.last_page.isdigit() else None
    if min(labels) < first or (last is not None and max(labels) > last):
        pages = f"pages {min(labels)}–{max(labels)}" if len(labels) > 1 else f"page {labels[0]}"
        return (
            f"the text received carries {pages} of {cite.reporter}, which are not those of "
            f"{record.name}, {cite}: it may be another case's text"
        )
    if last is not None and max(labels) < last:
        return (
            f"the text received ends at page {max(labels)} of {cite.reporter}, but {record.name} "
            f"runs to page {last}: it was cut short"
        )
    return None


def _name_marks(record: CaseRecord) -> list[set[str]]:
    """Per party, the distinctive words (and initials such as ``J.W.``) of the record's short names,
    lower-cased (the full name lists counsel, capacities and courts: words any opinion may contain).
    Parties with no distinctive word (``United States``, ``State``) are left out."""
    parties: dict[int, set[str]] = {}
    for name in (record.name, record.name_abbreviation, record.name_short):
        if not name:
            continue
        for i, party in enumerate(_PARTIES.split(name)[:2]):
            marks = {m.lower() for m in _INITIALS.findall(party)}
            marks |= {w.lower() for w in _WORD.findall(party) if len(w) >= 3 and w.lower() not in _GENERIC}
            if marks:
                parties.setdefault(i, set()).update(marks)
    return list(parties.values())


def _names_all(text: str, parties: list[set[str]]) -> bool:
    """Does the text name every party (one distinctive word of each is enough, as a whole word)?"""
    for marks in parties:
        alternatives = "|".join(re.escape(m) for m in sorted(marks, key=len, reverse=True))
        if re.search(rf"(?<![A-Za-z]){alternatives}(?![A-Za-z])", text, re.IGNORECASE) is None:
            return False
    return True
