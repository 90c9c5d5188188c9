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
from citecheck.extract.records import fast_constructor
from citecheck.spans import Span

CONNECTORS = frozenset(
    "v. vs. v of the and & &c. for ex rel. re parte de del la le du da von van der den on to a an at by with et al. "
    "d/b/a f/k/a n/k/a aka".split()
)
SIGNALS = frozenset(
    "see see, cf. cf., accord accord, but compare with also e.g. e.g., contra quoting citing "
    "(quoting (citing (see (cf. id. id., ibid. (citation (internal (emphasis in under "
    "following adopting discussing".split()
)
CORPORATE = frozenset(
    (
        "inc. inc ltd. ltd llc l.l.c. co. corp. n.a. l.p. lp llp l.l.p. p.c. p.a. s.a. s.c. plc pllc "
        "fsb f.s.b. ssb s.s.b. "  # a bank's charter: "First Heights Bank, FSB v. Marom" (a Texas motion)
        "et jr. sr. ii iii iv "
        "etc."  # an in rem caption: "United States v. One Parcel of Real Property, Etc. (Great Harbor Neck)"
    ).split()
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
    "Atty. Att'y Gen. Sec'y Pet. Petr. Dr. No. Nos. Rev. Civ. Crim. Const. "
    # Bluebook T6 and the older abbreviations real case names use (issue 25: names cut at "Min. Co.")
    "Min. Nav. Com. Consol. Dept. Dep't Transp. Trans. Tp. Twp. Imp. Mach. Mfrs. Mfr. Exch. Lum. Lbr. "
    "Elev. Wks. Assur. Bk. Bkg. Irr. Comr. Commr. Admr. Exr. Gdn. Bor. Par. Acc. Indem. Guar. Fid. "
    "Cas. Sur. Serv. Util. Pwr. Lt. Ht. Trac. Asso. Assoc. Natl. Amer. Intern. Distrib. Dist. Div. "
    "Econ. Eng'r Eng'g Enter. Ent. Env't Equal. Exam'r Exp. Fed'n Info. Inst. Inv. Indep. Liab. "
    "Litig. Maint. Mar. Mkt. Mech. Mem'l Merch. Metro. Mortg. Op. P'ship Pers. Pres. Prob. Prod. "
    "Prof'l Publ'n Publ'g R.R. Rehab. Reprod. Rest. Rd. S'holder Sci. Serv. Soc'y Subcomm. Tech. "
    "Telecomm. Teleg. Temp. Tpk. Transcon. Vill. Corp. Bldg. Cnty. Ass'n Bhd. Disc. Det. Dir. Etc.".split()
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
# "--- U.S. ----", and "__F.4th__" (its underscores blanked as Markdown emphasis: two spaces or more)
_BLANK_CITE_TAIL = re.compile(r",\s*(?:[-_]{2,}\s*|\s{2,})[A-Z][\w. ]{0,20}?(?:\s*[-_]{2,}|\s{2,})\s*,\s*$")
_NAME_SEP = re.compile(r"\s+(?:v\.|vs\.|v)\s+")
#: "Grutter and Regents of Univ. of Cal. v. Bakke": prose joining two cases, the name is the last one.
#: Only a single capitalised word before "and" and a party of three words or more after it, so that
#: "City and County of Denver" (see _AND_NAMES) and "Brown and Root, Inc." keep their whole name.
_PROSE_AND = re.compile(r"(?P<word>[A-Z][a-z'\u2019-]+)\s+and\s+(?=(?:\S+\s+){2,}\S)")
_AND_NAMES = frozenset(
    "City County Town Township Village Borough Board Department Commission Committee Council State "
    "Territory Parish Port Bureau Division Office Authority Trustees Officers Members".split()
)
_NAME_SEP_WORD = re.compile(r"v\.|vs\.|v")
_SEMI_BEFORE = re.compile(r";\s*$")
_IN_RE = re.compile(r"(?:In|IN)\s+(?:re|Re|RE)\s+")
_DOCKET_NAME = re.compile(r"(?:(?:Civ(?:il)?\.?|Crim\.?|Case)\s+)?Nos?\.\s*[\w:.-]*\d[\w:.-]*")
#: "In re" and the words an In re name holds before the part the scan read: capitalised words,
#: numbers, abbreviations and small lower-case words ("In re Search of an Apple iPhone").
_IN_RE_BEFORE = re.compile(
    r"I(?<![\w.]I)[nN]\s+(?:re|RE)\s+(?:(?:[A-Z0-9][\w'&.-]*|in|of|the|for|to|on|an?|and|by|re|at|from|under|with)\s+){1,12}$"
)
#: A brand written in lower case with a capital inside (``eBay``, ``iPhone``, ``eToys``): a name's word.
_CAMEL = re.compile(r"[a-z]{1,3}[A-Z][A-Za-z]")
#: An entity's suffix after the last comma of a caption: ``LLC``, ``LCC`` (as misprinted), ``AG`` (or
#: one of ``CORPORATE``); never a place or court with periods (``Co., Inc., D.C.S.D. N.Y., 76 F. Supp.``).
_ENTITY_SUFFIX = re.compile(r"[A-Z]{2,5}")
#: A capitalised word of two to seven letters and a period: the shape of an abbreviation.
_ABBREVIATED = re.compile(r"[A-Z][a-z']{1,6}\.")
#: Whole words of that shape that end sentences before a case name; never read as abbreviations.
_FULL_WORDS = frozenset(
    "Act Acts Court Courts Code Rule Rules Board State States Congress Circuit Amendment Order Orders "
    "Opinion Section Title Statute Clause Article Chapter Part Note Appeal Appeals Trial Jury Judge "
    "Justice Case Cases Here There Thus Then Also Again Even Only Yes Indeed Agreed Denied Granted "
    "Affirmed Reversed Vacated Remanded Moot Supra Ibid Texas Ohio Iowa Utah Maine Idaho Alaska Hawaii "
    "Oregon Kansas Boston Chicago Miami Houston Dallas Denver Seattle Atlanta Phoenix Detroit".split()
)
#: Capitalised words that open a sentence, not a name: "Then Smith, 2008 WL 123456, at *3".
_SENTENCE_OPENERS = frozenset(
    "Then Thus Here There Also Indeed However Moreover Further Furthermore Finally Similarly Accordingly "
    "Likewise Again Hence Therefore So And But Yet Or As Under After Before Because When While Although "
    "Though Since Unlike Like Following Applying Citing Quoting".split()
)
#: Particles and an article that open a name when capitalised: "Van Ness v. Pacard", "The Paquete Habana".
_OPENING_PARTICLES = frozenset("the de del la le du da von van der den".split())
#: Officials named after a comma in a caption: "Smith v. Jones, Attorney General, 100 F.3d".
_TITLES = frozenset(
    "Attorney Secretary Commissioner Commissioners Warden Sheriff Director Superintendent Governor "
    "Administrator Administratrix Executor Executrix Trustee Trustees Receiver Treasurer Comptroller "
    "Mayor Chief Chairman President Auditor Collector Postmaster Clerk Supervisor Assessor Acting "
    "Individually Guardian Conservator Adm'r Adm'x Ex'r Ex'x Comm'r Sec'y Dir.".split()
)


@cache
def abbreviations() -> frozenset[str]:
    from reporters_db import CASE_NAME_ABBREVIATIONS

    return frozenset(CASE_NAME_ABBREVIATIONS) | _EXTRA_ABBREVIATIONS


def _is_abbreviation(word: str) -> bool:
    core = word.strip("(),;:\"'")
    if core in abbreviations() or core.lower() in _LOWER_ABBREVIATIONS:
        return True
    if _INITIAL.fullmatch(core):  # an initial
        return True
    return bool(_DOTTED.fullmatch(core))  # U.S., N.L.R.B., e.g.


_INITIAL = re.compile(r"[A-Z]\.")
_DOTTED = re.compile(r"(?:[A-Za-z]{1,4}\.){2,}")
#: ``CaseName(**fields)``, twice as fast
_new_case_name = fast_constructor(CaseName)


def _ex_parte(words: list[str], kept: list[int]) -> bool:
    """The name (read backwards in ``kept``) opens with ``Ex parte``: ``ex`` is no stray connector there."""
    return len(kept) >= 2 and words[kept[-1]].lower() == "ex" and words[kept[-2]].lower() == "parte"


def clean_name(original: str) -> str:
    """Name text as written, without Markdown emphasis and with whitespace collapsed; a word hyphenated at
    a line's end joined (``Ander-⏎son`` → ``Anderson``; ``Petro-⏎Lubricant`` keeps its hyphen)."""
    if "-" in original and ("\n" in original or "\r" in original):
        original = _SOFT_BREAK.sub("", original)
        original = _HARD_BREAK.sub("-", original)
    if "*" in original or "_" in original:
        original = _EMPHASIS.sub("", original)
    return " ".join(original.split()).strip(",").strip()  # whitespace runs collapsed, the ends stripped


#: a word broken at a line's end: a lower-case continuation joins it, a capital keeps the hyphen
_SOFT_BREAK = re.compile(r"(?<=[a-z])-[ \t]*(?:\r\n|\r|\n)[ \t]*(?=[a-z])")
_HARD_BREAK = re.compile(r"(?<=[A-Za-z])-[ \t]*(?:\r\n|\r|\n)[ \t]*(?=[A-Z])")


def scan_name_back(norm: str, floor: int, end: int, *, max_words: int = 18) -> tuple[int, int] | None:
    """The span ``[start, end')`` of a name that ends at or just before ``end`` (spaces/comma skipped).

    ``floor`` bounds the scan (previous citation, paragraph start). Words are read backwards from the end
    (``_read_back``: each word kept, or the end of the name), then the connectors and numbers that cannot
    open or close a name are dropped (``_trim``).

    >>> text = "As held in Smith v. Jones, 100 A.2d 1"
    >>> start, stop = scan_name_back(text, 0, text.index(", 100"))
    >>> text[start:stop]
    'Smith v. Jones'
    """
    got = _name_words(norm, floor, end, max_words)
    return None if got is None else _name_span(norm, got, got.kept)


class _Reading:
    """The words a name was read from (``str.split`` of ``norm[lo:stop]``: its runs of non-space, the first
    maybe cut at ``lo``) and the indexes of those kept, last first. Only the two words at the name's ends
    need their offsets, so they are found then (``offset``), not kept for every word read."""

    __slots__ = ("kept", "lo", "norm", "stop", "words")

    def __init__(self, norm: str, lo: int, stop: int, words: list[str], kept: list[int]) -> None:
        self.norm, self.lo, self.stop, self.words, self.kept = norm, lo, stop, words, kept

    def offset(self, first: int, last: int) -> tuple[int, int]:
        """The start of ``words[first]`` and the end of ``words[last]`` (``first <= last``), found from the
        end: ``words[i]`` is the last occurrence of its text before ``words[i + 1]`` (only whitespace lies
        between them and a word holds none)."""
        norm, words, lo = self.norm, self.words, self.lo
        pos, stop_at = self.stop, 0
        for i in range(len(words) - 1, first - 1, -1):
            pos = norm.rfind(words[i], lo, pos)
            if i == last:
                stop_at = pos + len(words[i])
        return pos, stop_at


def _name_words(
    norm: str, floor: int, end: int, max_words: int, marks: list[int] | None = None
) -> _Reading | None:
    """The words ``scan_name_back`` reads (last first, before ``_trim``); None when nothing stands between
    ``floor`` and ``end`` but spaces and commas. ``marks``: filled with how many words were kept each
    time the reading was about to read another (``short_name_at``'s shorter reading is a prefix)."""
    stop = end
    while stop > floor and norm[stop - 1] in " ,":
        stop -= 1
    if stop <= floor:
        return None
    # the words of the last 400 characters, read backwards; most names end within the last 160, so those
    # are read first: enough when the reading stopped with more than _LOOK_BACK words before it (the
    # first, maybe cut, and those a word's test looks back at), as then it saw only words it would
    # have seen in the 400
    for width in (_FIRST_READ, 400):
        lo = max(floor, stop - width)
        words = norm[lo:stop].split()  # the \S+ runs (str.isspace is re's \s for str)
        if marks is not None:
            marks.clear()
        kept, last = _read_back(words, max_words, marks)
        if last > _LOOK_BACK or lo == max(floor, stop - 400):
            break
    return _Reading(norm, lo, stop, words, kept)


def _name_span(norm: str, reading: _Reading, kept: list[int]) -> tuple[int, int] | None:
    """The name's span from the words ``kept`` of ``reading``, read backwards (trimmed here, in place)."""
    _trim(reading.words, kept)
    if not kept:
        return None
    start, stop_at = reading.offset(kept[-1], kept[0])
    if norm[start] == "(":
        start += 1
    while stop_at > start and norm[stop_at - 1] in ",":
        stop_at -= 1
    if not any(ch.isalpha() for ch in norm[start:stop_at]):
        return None
    return start, stop_at


#: a word ending so ends the name read backwards: "(1990).", "(1990),"
_PAREN_CLOSED = frozenset(("),", ")."))


#: What ``_word_back`` says of a word read backwards: it is the name's, and reading goes on; it is the
#: name's first word; or the name ended after it (the word is not the name's).
_GO_ON, _FIRST, _ENDED = 0, 1, 2


#: how many words before the one being read ``_word_back`` may look at (``_name_parenthetical``: 5,
#: ``_abbreviated_here``: 6), and one more
_LOOK_BACK = 7
#: the characters before a citation whose words are read first
_FIRST_READ = 160


def _read_back(words: list[str], max_words: int, marks: list[int] | None = None) -> tuple[list[int], int]:
    """The name's words, last first: ``words`` read backwards until one ends the name (``_word_back``);
    and the index of the last word read. ``marks`` (when given): ``len(kept)`` each time the loop's
    test was made, so a reading with a lower ``max_words`` (which depends on nothing else) would
    have stopped at the first mark not under it, with that many words."""
    kept: list[int] = []
    k = len(words)
    while True:
        if marks is not None:
            marks.append(len(kept))
        if not (k > 0 and len(kept) < max_words):
            break
        k -= 1
        tok = words[k]
        said = _verdicts.get(tok)  # a word said of before, whatever the name read so far (_plain_word)
        if said is None:
            said = _plain_word(tok)
            if said is not None:
                if len(_verdicts) >= _VERDICTS_KEPT:
                    _verdicts.clear()
                _verdicts[tok] = said
            else:
                tok_core = tok.rstrip(",") if not kept else tok
                if ")" in tok_core and tok_core.rstrip(",").endswith(")") and not tok_core.endswith(")."):
                    opened = _name_parenthetical(words, k)
                    if (
                        opened is not None
                    ):  # "Collins v. Greater Atl. Mortg. Corp. (In re Lazarus)", "Shell Co. (P.R.), Ltd."
                        kept.extend(range(k, opened - 1, -1))
                        k = opened
                        continue
                said = _read_word(words, k, kept, tok_core, tok)
        if said != _ENDED:
            kept.append(k)
        if said != _GO_ON:
            break
    return kept, k


def _word_back(words: list[str], k: int, kept: list[int], tok_core: str, tok: str) -> int:
    """Whether ``words[k]`` (``tok``), read backwards before the name's words ``kept`` (last first), is the
    name's (``_GO_ON``), its first word (``_FIRST``) or none of it (``_ENDED``)."""
    said = _plain_word(tok)
    return _read_word(words, k, kept, tok_core, tok) if said is None else said


def _plain_word(tok: str) -> int | None:
    """What ``_read_word`` says of a word whatever the name read so far, for the words it decides by their
    case and the word lists alone — letters alone (most words read: 1,077 of 1,824 per 10k-word brief)
    and ``v.``/``vs.`` —; None for any other (``_read_word`` reads it)."""
    if tok.isalpha():
        if tok[:1].isupper():
            if tok not in _IN_EX:
                low = tok.lower()
                return _ENDED if low in SIGNALS and low != "with" else _GO_ON
        elif tok.islower():
            return _GO_ON if tok in CONNECTORS and (tok == "with" or tok not in SIGNALS) else _ENDED
    elif tok == "v." or tok == "vs.":
        return _GO_ON
    return None


#: the capitalised words that open a name (``In re``, ``Ex parte``) or end it: ``_by_shape`` decides them
_IN_EX = frozenset(("In", "IN", "Ex", "EX"))
#: ``_plain_word``'s answers, by word (names repeat through a document); emptied when this many
_verdicts: dict[str, int] = {}
_VERDICTS_KEPT = 20_000


def _read_word(words: list[str], k: int, kept: list[int], tok_core: str, tok: str) -> int:
    """``_word_back`` for any word."""
    end = tok_core[-1:]
    if end in ';:!?"' or tok_core[-2:] in _PAREN_CLOSED:
        return _ENDED
    low = tok.lower()
    right = words[kept[-1]] if kept else None
    before_suffix = False
    if end == "," and kept:
        if not _comma_inside_name(right, len(kept)):
            return _ENDED  # a comma ends the name, except before "Inc.", a closing place, an official's title
        tok_core = tok_core[:-1]
        before_suffix = True  # "Testing Labs., Inc.": the word before a suffix belongs to the name
    right_low = right.lower() if right is not None else None
    if low.rstrip(",") in SIGNALS and not (low == "in" and right_low == "re") and low != "with":
        return _ENDED  # ("with" of "compare … with" is also a name's connector: "Citizens with Disabilities")
    first = tok_core[:1]
    if tok_core[:1].islower() and _CAMEL.match(tok_core) and not _camel_prose(tok_core):
        first = "E"  # "eBay Inc. v. MercExchange", "eBay, supra": a lower-case brand is a name's word
    said = _by_shape(tok_core, first, right_low)
    if said is not None:
        return said
    if kept and tok_core.endswith(".") and not before_suffix and _sentence_ended(words, k, kept, tok_core):
        return _ENDED  # "Court. Smith v. Jones": a sentence ended there
    return _GO_ON if first.isupper() or first.isdigit() or first in "'" else _ENDED


def _by_shape(tok_core: str, first: str, right_low: str | None) -> int | None:
    """What the word's shape alone says (None: nothing yet): a lower-case connector goes on and any other
    lower-case word ends the name; a parenthesis ends it, unless a name opens it; "In re", "Ex parte" and
    "Ex rel." open or continue one."""
    if first.islower() or first in "&":
        return _GO_ON if tok_core.lower() in CONNECTORS else _ENDED
    if first == "(" and tok_core[1:2].isupper() and tok_core.lower() not in SIGNALS:
        return _FIRST  # "(Delaney v. Superior Court (1990) 50 Cal.3d 785": the name opens the parenthesis
    if first == "(" or first == ")":
        return _ENDED
    if tok_core in ("Ex", "EX") and right_low == "rel.":
        return _GO_ON  # "State Ex Rel. Smith": a connector in capitals
    if tok_core in ("In", "IN", "Ex", "EX"):
        # "In re", and "IN RE" in all-capitals captions
        return _FIRST if right_low in ("re", "parte", "rel.") else _ENDED
    return None


def _comma_inside_name(right: str | None, kept: int) -> bool:
    """A comma before the word ``right`` is inside a name: before a corporate suffix ("Inc."), a place that
    closes the name (its only word so far), or an official's title ("Smith v. Jones, Attorney General")."""
    if right is None:
        return False
    word = right.rstrip(",")
    return right.lower().rstrip(",") in CORPORATE or (kept == 1 and word in _STATES) or word in _TITLES


def _sentence_ended(words: list[str], k: int, kept: list[int], tok_core: str) -> bool:
    """A capitalised word ending in a period is a sentence's end, not an abbreviation inside the name."""
    return not _is_abbreviation(tok_core) and not _abbreviated_here(words, k, kept)


def _trim(words: list[str], kept: list[int]) -> None:
    """Drop (in place) the words that cannot close or open a name: connectors at either end ("of", "and"),
    except "In re"/"Ex parte" and a capitalised particle or article that opens one ("Van Ness", "De La
    Cruz", "The Paquete Habana"); a number, or a sentence's opening word ("Then"), at its start."""
    while kept and _loose_connector(words[kept[-1]]) and not _ex_parte(words, kept):
        kept.pop()
    while kept and words[kept[0]].lower().rstrip(",") in CONNECTORS and words[kept[0]] != "v.":
        kept.pop(0)
    while kept and (
        words[kept[-1]][:1].isdigit()
        or (_loose_connector(words[kept[-1]]) and not _ex_parte(words, kept))
        or (len(kept) > 1 and words[kept[-1]] in _SENTENCE_OPENERS)
    ):
        kept.pop()  # a name does not start with a number ("100 A.3d 1004, 153 ..."), a connector or "Then"


def _camel_prose(word: str) -> bool:
    """``xSee``: a signal or sentence opener with a letter typed before it is no brand."""
    rest = word.lstrip("abcdefghijklmnopqrstuvwxyz").rstrip(",")
    return rest.lower() in SIGNALS or rest in _SENTENCE_OPENERS


def _name_parenthetical(words: list[str], k: int) -> int | None:
    """Where the parenthetical that ``words[k]`` closes opens, when it is part of a case name.

    ``(In re Lazarus)``, ``(P.R.)``, ``(Europe)``, ``(SCRAP)``, ``(NOPSI)``: capitalised words, an
    ``In re`` name, a place or an acronym, at most six words; never a year, a court and date, or a
    signal's parenthetical (``(quoting …)``).
    """
    for j in range(k, max(-1, k - 6), -1):
        tok = words[j]
        if tok.startswith("("):
            inner = [w.strip("(),") for w in words[j : k + 1]]
            if all(
                w[:1].isupper() or w.lower() in ("re", "of", "&", "ex", "rel.", "de", "la") for w in inner
            ) and not any(ch.isdigit() for w in inner for ch in w):
                return j
            return None
        if tok.endswith((")", "),")) and j != k:
            return None
    return None


def _loose_connector(word: str) -> bool:
    """A connector that cannot open a name; a capitalised particle or article can (``Van Ness``)."""
    core = word.rstrip(",")
    low = core.lower()
    if low not in CONNECTORS:
        return False
    return not (core[:1].isupper() and low in _OPENING_PARTICLES)


def _looks_abbreviated(word: str) -> bool:
    """``Min.``, ``Nav.``, ``Consol.``, ``Dept.``: a capitalised truncation, as T6 and older reporters
    write case names, that no table here lists."""
    return bool(_ABBREVIATED.fullmatch(word)) and word[:-1] not in _FULL_WORDS


def _abbreviated_here(words: list[str], k: int, kept: list[int]) -> bool:
    """Whether ``words[k]`` (a capitalised word ending in a period) is an abbreviation inside the name.

    Two shapes tell it from a sentence end: the word before an abbreviation or connector of the same
    name (``Consol. Min. Co.``, ``Dept. of Transp.``), or, while the name read so far has no ``v.``,
    a ``v.`` a few capitalised words further back (``Jones v. Pacific Nav. Co.``).
    """
    word = words[k]
    if not _looks_abbreviated(word):
        return False
    right = words[kept[-1]].rstrip(",")
    if (right.endswith(".") and (_is_abbreviation(right) or _looks_abbreviated(right))) or right in (
        "of",
        "&",
    ):
        return True
    if any(_NAME_SEP_WORD.fullmatch(words[m]) for m in kept):
        return False
    for j in range(k - 1, max(-1, k - 7), -1):
        tok = words[j]
        if _NAME_SEP_WORD.fullmatch(tok):
            return True
        if not (tok[:1].isupper() or tok.lower() in CONNECTORS) or tok[-1:] in ',;:"':
            return False
    return False


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
    virtual = 0  # the ", " put back after a step, which the text does not hold there
    stepped = True
    while stepped:  # either order: "Qin, No. 21-1832, __F.4th__, 2023 WL 128600" (a real 28(j) letter)
        stepped = False
        for pattern in (_DOCKET_TAIL, _BLANK_CITE_TAIL):
            m = pattern.search(window)
            if m is not None:
                end -= len(window) - virtual - m.start()
                window, virtual = window[: m.start()] + ", ", 2
                stepped = True
    found = scan_name_back(norm, floor, end)
    if found is None:
        return None
    start, stop = found
    if _DOCKET_NAME.fullmatch(norm, start, stop):
        return None  # "No. 07-80382-CIV, 2008 WL 123456": a docket number is never a case name
    if norm[floor:start].rstrip().endswith(",") and _NAME_SEP.search(norm, start, stop) is None:
        whole = _caption_across_commas(norm, floor, start, stop)
        if whole is not None:  # "Angelopoulos v. Keystone Orthopedic Specialists, S.C., Wachn, LCC"
            start = whole
    opened = _IN_RE_BEFORE.search(norm, max(floor, start - 160), start)
    if opened is not None:  # "In re Grand Jury Subpoena No. 381 in Re Smith": lower-case words inside
        start = opened.start()
    start = _consolidated_start(norm, floor, start, stop)
    split_at = _NAME_SEP.search(norm, start, stop)
    if split_at is not None:
        joined = _PROSE_AND.match(norm, start, split_at.start())
        if joined is not None and joined["word"] not in _AND_NAMES:
            start = joined.end()  # "Grutter and Regents of Univ. of Cal. v. Bakke": the name is the last one
    text = clean_name(original[start:stop])
    plaintiff = defendant = None
    if split_at is not None:
        first_end = norm.find(";", split_at.end(), stop)  # a consolidated caption: its first case's parties
        plaintiff = clean_name(original[start : split_at.start()]) or None
        defendant = clean_name(original[split_at.end() : stop if first_end < 0 else first_end]) or None
    elif (in_re := _IN_RE.match(text)) is not None:
        defendant = text[in_re.end() :] or None  # "In re Foo": the party is Foo
    if split_at is None and not _looks_like_single_name(text):
        return None
    if split_at is None and not _SINGLE_NAME_FORMS.match(text) and norm[floor:start].rstrip().endswith(","):
        return None  # "…, S.C., Wachn, LCC, 2015 WL 2375225": the tail of a name cut at a comma, not a name
    return _new_case_name(text=text, span=Span(start, stop), plaintiff=plaintiff, defendant=defendant)


def _caption_across_commas(norm: str, floor: int, start: int, stop: int) -> int | None:
    """Where a caption starts whose tail the scan read after a second comma, or None.

    ``Angelopoulos v. Keystone Orthopedic Specialists, S.C., Wachn, LCC, 2015 WL 2375225``: the scan
    stops at the comma before ``Wachn`` (no corporate suffix follows it there). The tail is taken for
    part of the caption only when it ends in an entity's suffix (``LCC``, ``AG``, ``Inc.``), each
    segment back to a name with ``v.`` is one to three capitalised words, and that name is at most three
    commas back; otherwise the tail stays no name at all (a fragment could only mislead the name check).
    """
    last = norm[start:stop].split()[-1]
    if not (_ENTITY_SUFFIX.fullmatch(last) or last.lower() in CORPORATE):
        return None
    pos = start
    for _ in range(3):
        comma = norm.rfind(",", floor, pos)
        if comma < 0 or norm[comma + 1 : pos].strip():
            return None
        prev = scan_name_back(norm, floor, comma)
        if prev is None:
            return None
        if _NAME_SEP.search(norm, prev[0], prev[1]):
            return prev[0]
        words = norm[prev[0] : prev[1]].split()
        if len(words) > 3 or not all(w[:1].isupper() for w in words):
            return None
        pos = prev[0]
    return None


def _consolidated_start(norm: str, floor: int, start: int, stop: int) -> int:
    """Where a consolidated caption starts: ``Smith v. Jones; Brown v. Green, 100 F.3d 100``.

    The caption before the ``;`` joins only when it too has a ``v.`` and nothing but signals stands
    before it, so a string cite's own items (each with its citation) stay apart.
    """
    if _NAME_SEP.search(norm, start, stop) is None:
        return start
    semi = _SEMI_BEFORE.search(norm, max(floor, start - 4), start)
    if semi is None:
        return start
    prev = scan_name_back(norm, floor, semi.start())
    if prev is None or _NAME_SEP.search(norm, prev[0], prev[1]) is None:
        return start
    lead = _WORD.findall(norm, max(floor, prev[0] - 40), prev[0])
    if lead and lead[-1].lower().strip("(,") not in SIGNALS and not lead[-1].endswith((".", ":", "(")):
        return start
    return prev[0]


_SINGLE_NAME_FORMS = re.compile(
    r"(?:In re|Ex parte|Matter of|In the Matter of|Estate of|Application of|Petition of)\b", re.IGNORECASE
)


def _looks_like_single_name(text: str) -> bool:
    """A name without "v." is only trusted in the forms that lack one (In re, Ex parte, ...) or when
    short, and never when a word of it is a bare number (``A.2d 332 11 A.2d 333``: a citation's tail)."""
    if _SINGLE_NAME_FORMS.match(text):
        return True
    words = text.split()
    return len(words) <= 4 and not any(w.strip(",.").isdigit() for w in words)


def short_name_at(norm: str, original: str, floor: int, end: int) -> tuple[str, Span] | None:
    """The short case name before a short form or ``supra`` (``Roe``, ``Planned Parenthood``)."""
    marks: list[int] = []
    got = _name_words(norm, floor, end, 14, marks)
    if got is None:
        return None
    kept = got.kept
    # the reading of 6 words is this one's first words: where it would have stopped (``_read_back``)
    six = kept[: next((n for n in marks if n >= 6), len(kept))]
    found = _name_span(norm, got, kept)
    if found is None or not _NAME_SEP.search(norm, found[0], found[1]):
        found = _name_span(norm, got, six)
    # else "Foo Bar Co. v. Baz Qux Inc., supra": a whole case name keeps all its words
    if found is None:
        return None
    start, stop = found
    return clean_name(original[start:stop]), Span(start, stop)
