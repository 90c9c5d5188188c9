"""Citation-shaped strings whose reporter does not exist: ``Boone v. Vinson, 446 Cal. Rptr. 4th 183``,
``33 Umbrella 422``.

eyecite only finds reporters that reporters-db knows, so an invented reporter is invisible to it; yet
an invented reporter is itself a sign of a fabricated citation. These candidates feed an
"impossible citation" error, so precision matters more than recall: a candidate must look like
``VOLUME Reporter Words PAGE`` (capitalised abbreviation words, ordinal series) AND stand where a
citation stands: after a case name and comma, or after a signal, or before a court/year
parenthetical. Statutes, docket numbers, dates and anything reporters-db knows are rejected.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from citecheck.extract.context import parentheticals_after, parse_court_date
from citecheck.extract.eyecite_adapter import known_reporter_strings
from citecheck.extract.names import scan_name_back

_WORD = r"(?:[A-Z][A-Za-z'.]*(?<=\.)\d+(?:d|th|st|nd|rd)\.?|[A-Z][A-Za-z'.]*|\d+(?:d|th|st|nd|rd)|&)"
_CANDIDATE = re.compile(
    rf"(?P<volume>[1-9](?<![\w.§$/-][1-9])\d{{0,3}})\s(?P<reporter>{_WORD}(?:\s{_WORD}){{0,4}}?)\s(?P<page>[1-9]\d{{0,5}})(?![\w/-]|\.\d)"
)
_BAD_WORDS = frozenset(
    "no. nos. civ. cv. cr. crim. cir. stat. u.s.c. c.f.r. reg. pub. l. cong. sess. art. ch. sec. § "
    "part pt. title rule r. dkt. ecf doc. ex. exh. tr. app'x. vol. ed. edition para. ¶ at p. pp. n. "
    "jan. jan feb. feb mar. mar march apr. apr april may jun. june jul. july aug. aug august sep. sept. "
    "september oct. oct october nov. nov november dec. dec december january february "
    "am pm a.m. p.m. and or u.s. wl lexis "
    # session laws, codes, agency decisions and journals: real sources reporters-db does not list
    "act acts laws code const. op. ops. att'y gen. dec. decs. rul. comm'n admin. rev. law j. l.j. q. "
    "mag. bull. rep. prac. treatise restatement".split()
)
_ORDINAL = re.compile(r"\d+(?:d|th|st|nd|rd)")
_INITIALISM = re.compile(r"(?:[A-Z]\.\s?){2,}")  # "O.I.C.": an agency or local reporter we cannot judge
_SIGNAL_BEFORE = re.compile(
    r"(?:^|[\s(;])(?:[Ss]ee(?:,? also)?|[Cc]f\.|[Aa]ccord|[Cc]ompare|[Bb]ut see|[Cc]iting|[Qq]uoting|e\.g\.,)\s*$"
)
_BAD_BEFORE = re.compile(
    r"(?:No\.|Nos\.|§|¶|Title|Pub\. L\.|Stat\.|ch\.|Ch\.|at|p\.|pp\.|Vol\.|,\s\d{1,3})\s*$"
)


@dataclass(frozen=True, slots=True)
class Candidate:
    start: int
    end: int
    volume: str
    reporter: str
    page: str


_ASCII_DIGIT = re.compile(r"[0-9]")


def find_unrecognised(norm: str, taken: list[tuple[int, int]]) -> list[Candidate]:
    """Candidates in a normalised paragraph that overlap none of ``taken`` (eyecite's hits)."""
    if _ASCII_DIGIT.search(norm) is None and not any(map(str.isdigit, norm)):  # map: no frame per character
        return []
    out: list[Candidate] = []
    known = known_reporter_strings()
    for m in _CANDIDATE.finditer(norm):
        s, e = m.start(), m.end()
        if any(a < e and s < b for a, b in taken):
            continue
        reporter = m["reporter"]
        words = reporter.split()
        if any(w.lower() in _BAD_WORDS and not _series_initial(words, k) for k, w in enumerate(words)):
            continue
        if "".join(words).lower() in known:
            continue
        if not any(ch.isalpha() for ch in reporter) or len(reporter) > 40 or _INITIALISM.fullmatch(reporter):
            continue
        if re.match(r",?\s*§", norm[e : e + 4]):
            continue  # "2005 Wis. Act 400, § 5": a statute
        before = norm[max(0, s - 40) : s]
        if _BAD_BEFORE.search(before):
            continue
        if not _citation_context(norm, s, e):
            continue
        out.append(Candidate(s, e, m["volume"], " ".join(words), m["page"]))
    return out


def _series_initial(words: list[str], k: int) -> bool:
    """``P. 4th``: a capital initial followed by an ordinal series is a reporter name, not the page
    abbreviation ``p.`` (which ``_BAD_WORDS`` rejects case-insensitively)."""
    return (
        k + 1 < len(words)
        and len(words[k]) == 2
        and words[k][0].isupper()
        and words[k][1] == "."
        and _ORDINAL.fullmatch(words[k + 1]) is not None
    )


def _citation_context(norm: str, s: int, e: int) -> bool:
    before = norm[max(0, s - 300) : s]
    if _SIGNAL_BEFORE.search(before):
        return True
    if before.rstrip().endswith(","):
        name = scan_name_back(norm, max(0, s - 300), s)
        if name is not None:
            text = norm[name[0] : name[1]]
            if re.search(r"\sv\.?\s|^In re\s|^Ex parte\s", text):
                return True
    # a court/date parenthetical right after (possibly after a pin cite)
    m = re.match(r"(?:,\s*(?:at\s+)?\*?\d+(?:-\d+)?)?", norm[e:])
    pos = e + (m.end() if m else 0)
    parens = parentheticals_after(norm, pos, len(norm))
    return bool(parens) and parse_court_date(norm[parens[0].start + 1 : parens[0].end - 1]) is not None
