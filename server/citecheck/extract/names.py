"""Case names, read backwards from a citation: ``*Mata v. Avianca, Inc.*, 678 F.Supp.3d 443``.

eyecite's back-scan returns ``Avianca, Inc.*`` for that example and ``Welfare Fund`` for
``Mid Cent. Operating Eng'rs Health & Welfare Fund v. HoosierVac LLC``. We scan word by word on the
normalised text (emphasis markers already blanked), keeping capitalised words, known abbreviations and
the small connectors of case names (``of``, ``&``, ``ex rel.``, ``v.``), and stopping at signals,
sentence ends, clause punctuation and ordinary lower-case words.
"""

from __future__ import annotations

import re
from functools import cache

from citecheck.extract.models import CaseName
from citecheck.extract.normalise import _EMPHASIS
from citecheck.spans import Span

CONNECTORS = frozenset(
    "v. vs. v of the and & &c. for ex rel. re parte de del la le du da von van der den on to a an at by et al. "
    "d/b/a f/k/a n/k/a aka".split()
)
SIGNALS = frozenset(
    "see see, cf. cf., accord accord, but compare with also e.g. e.g., contra quoting citing "
    "(quoting (citing (see (cf. id. id., ibid. (citation (internal (emphasis in under "
    "following adopting discussing".split()
)
CORPORATE = frozenset(
    "inc. inc ltd. ltd llc l.l.c. co. corp. n.a. l.p. lp llp l.l.p. p.c. p.a. s.a. plc pllc et jr. sr. ii iii iv".split()
)
_EXTRA_ABBREVIATIONS = frozenset(
    "U.S. Inc. Co. Corp. Ltd. Bros. Cnty. Cty. Twp. Dist. Mfg. Nat. Sec. Sch. St. Ste. Mt. Ft. Pa. Ill. "
    "Cal. Tex. Fla. Mass. Mich. Minn. Wis. Ind. Md. Va. Ga. Ala. Ariz. Ark. Colo. Conn. Del. Haw. Ida. "
    "Iowa Kan. Ky. La. Me. Miss. Mo. Mont. Neb. Nev. N.H. N.J. N.M. N.Y. N.C. N.D. Ohio Okla. Or. R.I. "
    "S.C. S.D. Tenn. Utah Vt. Wash. W. Va. Wyo. Cir. Ct. App. Admin. Comm'n Comm'r Dep't Ass'n Gov't "
    "Int'l Nat'l Educ. Emps. Eng'rs Hosp. Ins. Invs. Mgmt. Prods. Sys. Servs. Techs. Transp. Univ. Corr. "
    "Fed. Bd. Auth. Cmty. Ctr. Dev. Envtl. Fin. Grp. Indus. Med. Mun. Org. Pub. Ry. Ref. Reg'l Res. Sav. "
    "Tel. Tr. Unif. Util. Cent. Mut. Am. Gen. Elec. Equip. Hous. Prop. Ret. Soc. Sup. Super. Prot. Def. "
    "Emp. Lab. Labs. Lic. Mem. Misc. Mktg. Petro. Pharm. Chem. Coll. Cont'l Constr. Coop. Elecs. Enters. Entm't "
    "Found. Hldgs. Holdings L.L.C. L.P. N.A. P.C. P.A. S.A. Jr. Sr. Dr. Mr. Mrs. Ms. Hon. Gov. Sen. Rep. "
    "Atty. Att'y Gen. Sec'y Pet. Petr. Dr. No. Nos. Rev. Civ. Crim. Const.".split()
)

#: State abbreviations that may close a name after a comma: "In re Air Crash Disaster Near New Orleans, La."
_STATES = frozenset(
    "Ala. Ariz. Ark. Cal. Colo. Conn. Del. Fla. Ga. Haw. Ill. Ind. Kan. Ky. La. Md. Mass. Mich. Minn. Miss. "
    "Mo. Mont. Neb. Nev. N.H. N.J. N.M. N.Y. N.C. N.D. Okla. Or. Pa. R.I. S.C. S.D. Tenn. Tex. Vt. Va. Wash. "
    "W. Va. Wis. Wyo. D.C.".split()
)

_LOWER_ABBREVIATIONS = frozenset(
    "al. et. ex. rel. inc. co. corp. ltd. jr. sr. no. st. bros. assocs. ass'n".split()
)
_WORD = re.compile(r"\S+")
_DOCKET_TAIL = re.compile(
    r",\s*(?:(?:Civ(?:il)?\.?|Crim\.?|Case)\s+(?:Action\s+)?)?Nos?\.\s+[^,;()]{1,40}?(?:\s*\([A-Z.]{2,8}\))?"
    r"(?:,\s*\d[\w:-]*)*\s*,\s*$"
)
_BLANK_CITE_TAIL = re.compile(r",\s*[-_]{2,}\s+[A-Z][\w. ]{0,20}?\s+[-_]{2,}\s*,\s*$")
_NAME_SEP = re.compile(r"\s+(?:v\.|vs\.|v)\s+")
#: "Grutter and Regents of Univ. of Cal. v. Bakke": prose joining two cases, the name is the last one.
#: Only a single capitalised word before "and" and a party of three words or more after it, so that
#: "City and County of Denver" (see _AND_NAMES) and "Brown and Root, Inc." keep their whole name.
_PROSE_AND = re.compile(r"(?P<word>[A-Z][a-z'\u2019-]+)\s+and\s+(?=(?:\S+\s+){2,}\S)")
_AND_NAMES = frozenset(
    "City County Town Township Village Borough Board Department Commission Committee Council State "
    "Territory Parish Port Bureau Division Office Authority Trustees Officers Members".split()
)
_WS = re.compile(r"\s+")


@cache
def abbreviations() -> frozenset[str]:
    from reporters_db import CASE_NAME_ABBREVIATIONS

    return frozenset(CASE_NAME_ABBREVIATIONS) | _EXTRA_ABBREVIATIONS


def _is_abbreviation(word: str) -> bool:
    core = word.strip("(),;:\"'")
    if core in abbreviations() or core.lower() in _LOWER_ABBREVIATIONS:
        return True
    if re.fullmatch(r"[A-Z]\.", core):  # an initial
        return True
    return bool(re.fullmatch(r"(?:[A-Za-z]{1,4}\.){2,}", core))  # U.S., N.L.R.B., e.g.


def _ex_parte(kept: list[re.Match[str]]) -> bool:
    """The name (read backwards in ``kept``) opens with ``Ex parte``: ``ex`` is no stray connector there."""
    return len(kept) >= 2 and kept[-1].group().lower() == "ex" and kept[-2].group().lower() == "parte"


def clean_name(original: str) -> str:
    """Name text as written, without Markdown emphasis and with whitespace collapsed."""
    return _WS.sub(" ", _EMPHASIS.sub("", original)).strip().strip(",").strip()


def scan_name_back(norm: str, floor: int, end: int, *, max_words: int = 18) -> tuple[int, int] | None:  # noqa: C901
    """The span ``[start, end')`` of a name that ends at or just before ``end`` (spaces/comma skipped).

    ``floor`` bounds the scan (previous citation, paragraph start).
    """
    stop = end
    while stop > floor and norm[stop - 1] in " ,":
        stop -= 1
    if stop <= floor:
        return None
    words = list(_WORD.finditer(norm, max(floor, stop - 400), stop))
    if words and words[0].start() < floor:
        words = words[1:]
    kept: list[re.Match[str]] = []
    for w in reversed(words):
        tok = w.group()
        low = tok.lower()
        right = kept[-1].group() if kept else None
        if not kept:
            tok_core = tok.rstrip(",")
        else:
            tok_core = tok
        if len(kept) >= max_words:
            break
        if tok_core[-1:] in ';:!?"' or tok_core.endswith(").") or tok_core.endswith("),"):
            break
        before_suffix = False
        if tok_core.endswith(",") and kept:
            place = len(kept) == 1 and right is not None and right.rstrip(",") in _STATES
            if right is None or (right.lower().rstrip(",") not in CORPORATE and not place):
                break  # a comma ends the name, except before "Inc." or a closing place ("…New Orleans, La.")
            tok_core = tok_core[:-1]
            before_suffix = True  # "Testing Labs., Inc.": the word before a suffix belongs to the name
        right_low = right.lower() if right is not None else None
        if low.rstrip(",") in SIGNALS and not (low == "in" and right_low == "re"):
            break
        first = tok_core[:1]
        if first.islower() or first in "&":
            if tok_core.lower() in CONNECTORS:
                kept.append(w)
                continue
            break
        if first == "(" and tok_core[1:2].isupper() and tok_core.lower() not in SIGNALS:
            kept.append(
                w
            )  # "(Delaney v. Superior Court (1990) 50 Cal.3d 785": the name opens the parenthesis
            break
        if first == "(" or first == ")":
            break
        if tok_core in ("In", "IN", "Ex", "EX"):
            if right_low in ("re", "parte", "rel."):  # "In re", and "IN RE" in all-capitals captions
                kept.append(w)
            break
        if kept and tok_core.endswith(".") and not before_suffix and not _is_abbreviation(tok_core):
            # "Court. Smith v. Jones": a sentence ended there
            break
        if not (first.isupper() or first.isdigit() or first in "'"):
            break
        kept.append(w)
    # drop leading connectors ("of", "and"), keep "In re"/"Ex parte"
    while kept and kept[-1].group().lower().rstrip(",") in CONNECTORS and not _ex_parte(kept):
        kept.pop()
    while kept and kept[0].group().lower().rstrip(",") in CONNECTORS and kept[0].group() != "v.":
        kept.pop(0)
    while kept and (
        kept[-1].group()[:1].isdigit()
        or (kept[-1].group().lower().rstrip(",") in CONNECTORS and not _ex_parte(kept))
    ):
        kept.pop()  # a name does not start with a number ("100 A.3d 1004, 153 ...") or a connector
    if not kept:
        return None
    start = kept[-1].start()
    if norm[start] == "(":
        start += 1
    last = kept[0]
    stop_at = last.end()
    while stop_at > start and norm[stop_at - 1] in ",":
        stop_at -= 1
    if not any(ch.isalpha() for ch in norm[start:stop_at]):
        return None
    return start, stop_at


def case_name_at(norm: str, original: str, floor: int, end: int) -> CaseName | None:
    """The case name ending just before a full citation that starts at ``end``.

    A docket number (``People v. Lewis, No. B217677, 2010 WL 780918``) or a blank reporter
    (``Brohl, --- U.S. ----, 135 S. Ct. 1124``) between the name and the citation is stepped over.
    """
    # a table cell boundary (a tab, a Markdown "|") ends the name: "Authority\tGrutter v. Bollinger"
    cell = max(original.rfind("\t", floor, end), original.rfind("|", floor, end))
    if cell >= 0:
        floor = cell + 1
    window = norm[max(floor, end - 120) : end]
    for pattern in (_DOCKET_TAIL, _BLANK_CITE_TAIL):
        m = pattern.search(window)
        if m is not None:
            end -= len(window) - m.start()
            window = window[: m.start()]
    found = scan_name_back(norm, floor, end)
    if found is None:
        return None
    start, stop = found
    split_at = _NAME_SEP.search(norm, start, stop)
    if split_at is not None:
        joined = _PROSE_AND.match(norm, start, split_at.start())
        if joined is not None and joined["word"] not in _AND_NAMES:
            start = joined.end()  # "Grutter and Regents of Univ. of Cal. v. Bakke": the name is the last one
    text = clean_name(original[start:stop])
    plaintiff = defendant = None
    if split_at is not None:
        plaintiff = clean_name(original[start : split_at.start()]) or None
        defendant = clean_name(original[split_at.end() : stop]) or None
    if split_at is None and not _looks_like_single_name(text):
        return None
    return CaseName(text=text, span=Span(start, stop), plaintiff=plaintiff, defendant=defendant)


def _looks_like_single_name(text: str) -> bool:
    """A name without "v." is only trusted in the forms that lack one (In re, Ex parte, ...)."""
    return bool(
        re.match(
            r"(?:In re|Ex parte|Matter of|In the Matter of|Estate of|Application of|Petition of)\b",
            text,
            re.IGNORECASE,
        )
    ) or (len(text.split()) <= 4)


def short_name_at(norm: str, original: str, floor: int, end: int) -> tuple[str, Span] | None:
    """The short case name before a short form or ``supra`` (``Roe``, ``Planned Parenthood``)."""
    found = scan_name_back(norm, floor, end, max_words=6)
    longer = scan_name_back(norm, floor, end, max_words=14)
    if longer is not None and _NAME_SEP.search(norm, longer[0], longer[1]):
        found = longer  # "Foo Bar Co. v. Baz Qux Inc., supra": a whole case name keeps all its words
    if found is None:
        return None
    start, stop = found
    return clean_name(original[start:stop]), Span(start, stop)
