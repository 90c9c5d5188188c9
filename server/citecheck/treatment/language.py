"""Explicit negative treatment in a text's own words: "we overrule Smith", "Smith, 1 F.3d 2, overruled by
Doe, 3 F.3d 4", "(abrogating Smith)", "Smith is no longer good law". Pure: text and its extraction in,
statements out.

Who treated which case, read from the words around one cue (``overrule``, ``abrogate``, ``disapprove``,
``recede from``, ``superseded by statute``, ``no longer good law``) in one sentence:

- **an agent follows** (``overruled by Doe``, ``overruled on other grounds, Doe``, ``overruled in Doe``,
  ``superseded by statute as stated in Doe``): the case treated is the one cited just before the cue
  (the subject, or the citation the history phrase follows: in ``A, rev'd, B, overruled by C`` that is
  B), the treating case the one after it;
- **a parenthetical** (``Doe, 3 F.3d 4 (overruling Smith)``): Doe treats what the parenthetical names;
- **we / this Court / today** (``we hereby overrule Smith``, ``Today the Court overrules Roe``): the text's
  own court (``Statement.by_self``) treats the cases named after the verb; ``In Doe we overruled Smith``
  names Doe instead;
- **a case as subject** (``Lawrence overruled Bowers``): that case treats the one after the verb;
- **the passive, present** (``Roe and Casey are overruled``, ``Bowers v. Hardwick should be and now is
  overruled``, ``… is hereby overruled``): the text's own court treats the cases before the verb; in the
  past or perfect without an agent (``Smith has since been overruled``) the treating case is unknown.

What is never a statement (the failure modes citators know): a negated, hedged or attributed cue (``we
decline to overrule``, ``has never been overruled``, ``petitioner asks us to overrule``, ``if Smith were
overruled``, ``the dissent would overrule``, ``implicitly overruled``), a cue whose object is no case
(``overruled the objection``, ``Zhang's exception``), a "we" in a concurrence or dissent, and a case merely
cited in the same sentence. References to cases are citations (short forms resolve to their full one) and,
for the cases a text cites in full somewhere, their distinctive party names (``Bowers``, ``Casey``,
``Chevron``) — a name two cited cases share is no reference.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache

from citecheck.extract.models import Citation, CiteForm, Extraction
from citecheck.sources.name_keys import GENERIC
from citecheck.spans import Span
from citecheck.treatment.models import TreatmentKind

# ---------------------------------------------------------------------------------------------- cues
_CUE = re.compile(
    r"\b(?:"
    r"(?P<overrule>over-?rul(?:ing|es|ed|e))\b"
    r"|(?P<abrogate>abrogat(?:ing|es|ed|e))\b"
    r"|(?P<disapprove>disapprov(?:ing|es|ed|e))\b(?:\s+of\b)?"
    r"|(?P<recede>reced(?:ing|es|ed|e))\s+from\b"
    r"|(?P<supersede>(?:legislatively\s+)?supersed(?:ing|es|ed|e))\s+by\s+"
    r"(?:(?:a|an|the|later|subsequent|a\s+later|a\s+subsequent)\s+)?(?:statute|rule|legislation|amendment|"
    r"constitutional\s+amendment|act|regulation|statutory\s+amendment)s?\b"
    r"|(?P<notgood>no\s+longer\s+(?:good\s+law|valid\s+(?:law|precedent)|binding\s+precedent))"
    r")",
    re.I,
)
_KINDS = {
    "overrule": TreatmentKind.OVERRULED,
    "abrogate": TreatmentKind.ABROGATED,
    "disapprove": TreatmentKind.DISAPPROVED,
    "recede": TreatmentKind.RECEDED,
    "supersede": TreatmentKind.SUPERSEDED,
    "notgood": TreatmentKind.NOT_GOOD_LAW,
}

#: Before the cue, in its clause: the words that make it no statement (negation, hedges, attribution,
#: conditions, questions of what a party wants).
_HEDGE = re.compile(
    r"\b(?:not|never|no|nor|neither|without|cannot|decline[sd]?|declining|refuse[sd]?|refusing|reluctan\w*|"
    r"whether|if|unless|would|might|may|could|should\s+we|ought|urge[sd]?|urging|invite[sd]?|inviting|"
    r"ask(?:s|ed|ing)?|argue[sd]?|arguing|argument|arguments|contend[sd]?|contending|contention|assert[sd]?|"
    r"asserting|claim[sd]?|claiming|suggest(?:s|ed|ing|ion)?|propose[sd]?|proposing|request[sd]?|seek(?:s|ing)?|"
    r"sought|wish(?:es|ed)?|want(?:s|ed)?|hope[sd]?|attempt(?:s|ed)?|effort|tempt\w*|implicitly|impliedly|"
    r"effectively|essentially|arguably|apparently|seemingly|sub\s+silentio|in\s+effect|undermine[sd]?|"
    r"question(?:ed|s)?|doubt(?:s|ed)?|expect\w*|likely|predict\w*|suppose[sd]?|assuming|even\s+though|"
    r"need|needs|needed|unnecessary|premature|free\s+to|power\s+to|authority\s+to|until|lest|once|when|"
    r"try|trying|tried|reason\s+to|basis\s+(?:to|for)|occasion\s+to|call(?:s|ed)?\s+(?:on|upon)|"
    r"n[’']t)\b",
    re.I,
)
#: After the cue: a question or a hedge that turns it ("overruled?", "overruled, the petitioner says").
_AFTER_HEDGE = re.compile(r"[^.;]{0,30}\?|\s*,?\s*(?:as\s+)?(?:the\s+)?(?:petitioner|appellant|defendant|"
                          r"plaintiff|respondent|dissent|government|state)s?\s+(?:argues?|contends?|says?|claims?)",
                          re.I)  # fmt: skip
#: Scope words that make it partial (``overruled in part``, ``to the extent``, ``on other grounds``).
_PARTIAL = re.compile(
    r"\b(?:in\s+part|partially|partly|to\s+the\s+extent|insofar\s+as|in\s+so\s+far\s+as|on\s+(?:other|another|"
    r"a\s+different|different|separate|unrelated)\s+grounds?|on\s+(?:that|this|the)\s+(?:point|issue|ground|"
    r"question)|in\s+(?:other|some|one)\s+respects?|so\s+much\s+of|that\s+part\s+of|(?:that|this)\s+portion\s+of|"
    r"to\s+that\s+extent|as\s+to\b|in\s+this\s+respect|limited|only\s+(?:as|to|insofar))",
    re.I,
)
#: The treating case after the cue: "by", "in", "as (stated|recognized) in", or a comma then a citation.
_AGENT = re.compile(
    r"(?P<scope>[\s,]*(?:(?:in\s+part|on\s+(?:other|another|different|separate)\s+grounds?|in\s+other\s+respects|"
    r"sub\s+silentio|expressly|explicitly|impliedly|implicitly|partially|partly|as\s+to\s+[^,;.]{1,40}?)[\s,]*)*)"
    r"(?:by|in(?!\s+part\b)|as\s+(?:stated|recognized|noted|recognised|explained)\s+in|as\s+stated\s+by|,)[\s,]+",
    re.I,
)
_PASSIVE_NOW = re.compile(
    r"\b(?:is|are)\s+(?:(?:hereby|now|also|therefore|thus|accordingly|expressly|explicitly|formally|hereafter|"
    r"henceforth|today|likewise|similarly|specifically|necessarily)\s+){0,3}$"
    r"|\b(?:should|must)\s+be,?\s+(?:and\s+)?(?:now\s+|hereby\s+|it\s+|they\s+)?(?:is|are),?\s+(?:hereby\s+|now\s+)?$"
    r"|\b(?:must|should)\s+(?:therefore\s+|now\s+|thus\s+|accordingly\s+|also\s+)?be\s+(?:and\s+(?:is|are)\s+)?"
    r"(?:hereby\s+|expressly\s+)?$|\bstands?\s+$|\b(?:be|is|are)\s+hereby\s+$|\b(?:is|are)\s+(?:therefore\s+)?due\s+to\s+be\s+$",
    re.I,
)
_PASSIVE_PAST = re.compile(
    r"\b(?:was|were|(?:has|have|had)\s+(?:since\s+|now\s+|subsequently\s+|later\s+|recently\s+|already\s+|"
    r"also\s+|effectively\s+|expressly\s+|explicitly\s+)*been)\s+(?:(?:since|subsequently|later|expressly|"
    r"explicitly|partially|specifically|squarely|formally|recently|also|ultimately)\s+){0,2}$",
    re.I,
)
_IS_NOW = re.compile(r"\b(?:is|are)\s+(?:now\s+|simply\s+|clearly\s+|thus\s+|therefore\s+)?$", re.I)
_WAS = re.compile(r"\b(?:was|were|(?:has|have)\s+been)\s+$", re.I)
_BE_BEFORE = re.compile(r"\b(?:is|are|was|were|be|been|being)\s+(?:\w+\s+){0,2}$", re.I)
#: "we overrule", "this Court overrules", "Today the Court overrules", "the majority disapproves".
_SELF_SUBJECT = re.compile(
    r"(?:^|[\s,(])(?P<who>we|this\s+court|the\s+court|the\s+majority|today'?s\s+(?:decision|opinion|holding|"
    r"ruling)|this\s+(?:decision|opinion))(?:\s+(?:hereby|now|therefore|thus|accordingly|expressly|explicitly|"
    r"formally|today|also|further|specifically|hence|must|do|did|have|has|then|once\s+again|again|squarely|"
    r"necessarily|finally|and|effectively|in\s+effect|must\s+and\s+do|should\s+and\s+do))*\s+$",
    re.I,
)
#: "The Court of Appeals, sitting en banc, subsequently overruled Chisolm in Williams": a court named as the
#: subject of a past-tense verb (the case that did it is named after the object).
_COURT_SUBJECT = re.compile(
    r"\b(?:the|this|that|our|a)\s+(?:[A-Z][\w.]*\s+|en\s+banc\s+|full\s+){0,4}(?:court|panel|circuit)"
    r"(?:\s+of\s+(?:[A-Z][\w.]*\s*){1,3})?(?:,[^;]{1,90},)?(?:\s+(?:subsequently|later|then|since|expressly|"
    r"explicitly|also|squarely|itself|ultimately|eventually))*\s+$",
    re.I,
)
_PREPOSITION_BEFORE = re.compile(
    r"\b(?:by|in|of|with|and|or|to|from|on|under|than|as|like|between|that|see|cf\.?|"
    r"citing|quoting|following|applying|distinguishing)\s+(?:the\s+)?$",
    re.I,
)
_POSSESSIVE_RULE = re.compile(
    r"[’']s\s+(?:holding|rule|reasoning|analysis|approach|test|standard|framework|"
    r"interpretation|construction|conclusion)\b",
    re.I,
)
_PRESENT_SELF = re.compile(
    r"^(?:overrule|overrules|abrogate|abrogates|disapprove|disapproves|recede|recedes)$", re.I
)
_PAREN_LEAD = re.compile(r"\(\s*(?:and\s+|also\s+|thereby\s+|effectively\s+|expressly\s+|explicitly\s+|"
                         r"partially\s+)*$", re.I)  # fmt: skip
#: Between a verb and its object: "the decision in", "our prior cases such as", "so much of".
_OBJECT_FILLER = re.compile(
    r"[\s,]*(?:(?:the|our|its|this\s+court'?s|prior|previous|earlier|contrary|decisions?|decision|holdings?|"
    r"opinions?|cases?|case\s+of|rule|rules|reasoning|language|statements?|dicta|dictum|line\s+of\s+cases|"
    r"progeny|precedents?|so\s+much|that\s+part|those\s+parts|portions?|parts?|any\s+(?:language|statements?)|"
    r"such\s+as|like|including|of|in|from|to\s+the\s+extent\s+that|insofar\s+as|expressly|explicitly|hereby|"
    r"now|today|and|also|both|all|two|three|four|earlier|these|those|its|their|in\s+part|partially)\s*,?\s*)*",
    re.I,
)
_CLAUSE_END = re.compile(
    r"[;:]|\s(?:because|since|but|although|though|which|who|where|while|whereas|"
    r"so\s+that|and\s+(?:we\s+)?hold|and\s+remand|and\s+reverse|and\s+affirm)\b",
    re.I,
)
#: A party's possessive that is not the case: "Zhang's exception", "Vela's objection".
_POSSESSIVE_NOT_CASE = re.compile(
    r"[’']s\s+(?!(?:holding|holdings|rule|reasoning|analysis|approach|test|decision|conclusion|interpretation|"
    r"standard|framework|dictum|dicta|statement|statements|language|requirement|progeny|rationale|"
    r"pronouncement|formulation|construction|teaching)\b)",
    re.I,
)

_SEPARATE_OPINION_TYPES = ("030", "035", "040")  # CourtListener: concurrence, concurrence in part, dissent
_WINDOW = 240  # characters before a cue searched for its subject, and after it for its object


@dataclass(frozen=True, slots=True, kw_only=True)
class Mention:
    """A reference to a case in the text: a citation, or a party name of a case cited in full."""

    span: Span
    target: int  # the index of the full citation of the case meant
    outer: int  # end of the outermost citation it belongs to (a citation nested in a parenthetical ends
    # before its host): the history phrase after ``A (citing B), overruled by C`` is about A, not B
    citation: bool  # a citation, not a bare name


@dataclass(frozen=True, slots=True, kw_only=True)
class Statement:
    """One explicit negative treatment the text states.

    ``target`` and ``actor`` are indexes of full citations of the extraction. ``by_self``: the text's own
    court does it (``we overrule``, ``Roe and Casey are overruled``); neither ``by_self`` nor ``actor``: the
    text reports it without saying by which case (``Smith has since been overruled``). ``form`` names the
    rule that read it (``agent``, ``parenthetical``, ``self``, ``subject``, ``passive``, ``reported``)."""

    target: int
    actor: int | None
    by_self: bool
    kind: TreatmentKind
    whole: bool
    sentence: Span
    cue: Span
    form: str


# ---------------------------------------------------------------------------------------- sentences
_END = re.compile(r"[.?!][\"”’')\]]*\s+(?=[\"“(\[]?[A-Z0-9])|\n\s*\n")
_ABBREV_WORDS = frozenset(
    "v vs id cf e.g i.e no nos al seq supp ed eds ex rel op n nn p pp para paras art arts cl ch sec secs "
    "ct cts cir app dist div rev stat stats ann comp reg regs pt subpt st mr mrs ms dr jr sr inc co cos "
    "corp ltd bros assn dept govt nat univ mfg ins ry ind cnty cty twp fed cal tex fla pa mass mich ill "
    "ga va md me vt conn ariz ark colo del kan ky la minn miss mo mont neb nev okla or ore tenn wash wis "
    "wyo bd comm'n comm’n ass'n ass’n dep't dep’t sys servs serv auth hosp mut gen am nat'l nat’l int'l "
    "int’l prop tel elec indus transp envtl admin sch sav fin grp mgmt prods jan feb mar apr jun jul aug "
    "sep sept oct nov dec messrs hon gov sen rep atty gen'l u.s u.s.c c.f.r s.ct l.ed f.supp f.2d f.3d "
    "n.e n.w s.e s.w so a.2d p.2d cert reh'g aff'd rev'd".split()
)
_LAST_WORD = re.compile(r"([A-Za-z][A-Za-z.’'\-]*)\.$")


def _abbreviation_before(text: str, end: int) -> bool:
    """Does the ``.`` ending at ``end`` close an abbreviation (``v.``, ``Co.``, ``Cir.``) or an initial?"""
    m = _LAST_WORD.search(text, max(0, end - 20), end)
    if m is None:
        return False
    word = m.group(1)
    return (
        len(word) == 1
        or word.lower() in _ABBREV_WORDS
        or bool(re.fullmatch(r"(?:[A-Za-z]\.)+[A-Za-z]?", word))
    )


def sentences(text: str, protected: Sequence[Span] = ()) -> list[Span]:
    """Sentence spans of ``text``: ends at ``.?!`` before a capital or a number, never inside a protected
    span (a citation) nor after an abbreviation (``v.``, ``Co.``, ``Cir.``, ``No.``, initials)."""
    starts = sorted(protected, key=lambda s: s.start)
    s_starts = [s.start for s in starts]
    out: list[Span] = []
    begin = 0
    for m in _END.finditer(text):
        end = m.start() + 1
        i = bisect.bisect_right(s_starts, m.start()) - 1
        if i >= 0 and starts[i].start <= m.start() < starts[i].end - 1:
            continue
        if m.group(0)[0] == "." and _abbreviation_before(text, end):
            continue
        out.append(Span(begin, end if m.group(0)[0] in ".?!" else m.start()))
        begin = m.end()
    if begin < len(text):
        out.append(Span(begin, len(text)))
    return [s for s in out if text[s.start : s.end].strip()]


# ---------------------------------------------------------------------------------------- mentions
class _Cases:
    """One case per group of parallel citations, whatever form and however often a text cites it: the case's
    first full citation (its representative) for each citation, by the keys of the group."""

    def __init__(self, extraction: Extraction) -> None:
        self.extraction = extraction
        by_keys: dict[frozenset[tuple[str, str, str]], int] = {}
        self.head: dict[int, int] = {}
        groups: dict[int, list[Citation]] = {}
        for c in extraction.citations:
            if c.form is CiteForm.FULL and c.key is not None:
                groups.setdefault(c.group if c.group is not None else c.index, []).append(c)
        for members in groups.values():
            keys = frozenset(m.key for m in members if m.key is not None)
            rep = by_keys.setdefault(keys, members[0].index)
            for other_keys, other in list(by_keys.items()):  # the same case cited with fewer parallels
                if other != rep and (other_keys & keys):
                    rep = min(rep, other)
            for m in members:
                self.head[m.index] = rep

    def of(self, c: Citation) -> int | None:
        """The case a citation stands for (a short form's antecedent's), or None."""
        full = self.extraction.resolved(c)
        if full is None or full.form is not CiteForm.FULL:
            return None
        return self.head.get(full.index)


def _name_keys(c: Citation) -> list[str]:
    """The words a court calls a case cited in full by: the first distinctive word(s) of each party
    (``Bowers``, ``Hardwick``; ``Casey`` of *Planned Parenthood v. Casey*; ``Williamson County``)."""
    if c.case_name is None:
        return []
    out = []
    for party in (c.case_name.plaintiff, c.case_name.defendant):
        if not party:
            continue
        words = re.findall(r"[A-Z][A-Za-z’'\-]+", party)
        words = [
            w
            for w in words
            if w.lower().strip("’'") not in GENERIC
            and len(w) > 2
            and w not in _NOT_NAMES
            and w not in _PLACES
        ]
        if not words:
            continue
        out.append(words[0])
        if len(words) > 1 and words[1] in ("County", "City", "Township", "Parish"):
            out.append(f"{words[0]} {words[1]}")
    return out


_NOT_NAMES = frozenset(
    {"The", "In", "Re", "Ex", "Parte", "Rel", "Inc", "Corp", "Co", "Ltd", "LLC", "Company", "Corporation",
     "Does", "Unknown", "Estate", "Matter", "Of", "Et", "Al", "Appeal", "Petition", "Application", "Cnty",
     "Dep't", "Dept", "Comm'n", "Comm’n", "Ass'n", "Ass’n", "Bd", "Sch", "Dist", "Twp", "Auth", "Nat'l", "Nat’l",
     "Int'l", "Int’l", "Mut", "Ins", "Fed", "Cal", "Tex", "Fla", "Pa", "Mass", "Mich", "Ill", "Ohio", "Ind"}
)  # fmt: skip


def own_end(c: Citation) -> int:
    """Where a citation itself ends: its pin cite, court and date, explanatory parentheticals; not the
    subsequent history its ``full_span`` runs on through (``, overruled by Doe, …``)."""
    end = c.span.end
    if c.pincite is not None:
        end = max(end, c.pincite.span.end)
    if c.date_span is not None:
        end = max(end, c.date_span.end)
    for p in c.parentheticals:
        end = max(end, p.span.end)
    return end


#: A state or territory as a party is the government, not a name a court calls the case by.
_PLACES = frozenset(
    "Alabama Alaska Arizona Arkansas California Colorado Connecticut Delaware Florida Georgia Hawaii Idaho Illinois "
    "Indiana Iowa Kansas Kentucky Louisiana Maine Maryland Massachusetts Michigan Minnesota Mississippi Missouri "
    "Montana Nebraska Nevada Hampshire Jersey Mexico York Carolina Dakota Ohio Oklahoma Oregon Pennsylvania Rhode "
    "Tennessee Texas Utah Vermont Virginia Washington Wisconsin Wyoming Puerto Rico Guam America Columbia".split()
)


def mentions(text: str, extraction: Extraction) -> list[Mention]:
    """Every reference to a case in ``text``: its citations, then the party names of cases it cites in
    full (each name meaning exactly one case; never inside a citation), sorted by position."""
    out: list[Mention] = []
    cites = extraction.citations
    cases = _Cases(extraction)
    for c in cites:
        target = cases.of(c)
        if target is None:
            continue
        end = own_end(c)
        for o in cites:  # a citation nested in another's parenthetical belongs to that one
            if o.index != c.index and o.span.start < c.span.start and c.span.end <= own_end(o):
                end = max(end, own_end(o))
        start = c.case_name.span.start if c.case_name is not None else c.span.start
        out.append(
            Mention(span=Span(min(start, c.span.start), c.span.end), target=target, outer=end, citation=True)
        )
    out.extend(_name_mentions(text, extraction, cases))
    out.sort(key=lambda m: (m.span.start, -m.span.end))
    return [m for i, m in enumerate(out) if i == 0 or m.span.start != out[i - 1].span.start]


def _name_mentions(text: str, extraction: Extraction, cases: _Cases) -> Iterator[Mention]:
    keys: dict[str, set[int]] = {}
    for c in extraction.citations:
        if c.form is CiteForm.FULL and c.key is not None and (head := cases.of(c)) is not None:
            for k in _name_keys(c):
                keys.setdefault(k, set()).add(head)
    usable = {k: next(iter(v)) for k, v in keys.items() if len(v) == 1}
    if not usable:
        return
    covered = sorted((c.full_span.start, c.full_span.end) for c in extraction.citations)
    starts = [s for s, _ in covered]
    pattern = re.compile(
        r"\b(" + "|".join(re.escape(k) for k in sorted(usable, key=len, reverse=True)) + r")\b"
    )
    last_end = -1
    for m in pattern.finditer(text):
        if m.start() < last_end:
            continue
        i = bisect.bisect_right(starts, m.start()) - 1
        if i >= 0 and covered[i][0] <= m.start() < covered[i][1]:
            continue  # the name in a citation is that citation's own
        if _POSSESSIVE_NOT_CASE.match(text, m.end()):
            continue
        end = m.end()
        vs = re.match(r"\s+v\.\s+[A-Z][\w.’'&,\- ]{0,80}?(?=[,;.)]|\s+(?:is|are|was|were|should|must|and|has|had)\b)",
                      text[end : end + 100])  # fmt: skip
        if vs:
            end += vs.end()
        last_end = end
        yield Mention(span=Span(m.start(), end), target=usable[m.group(1)], outer=end, citation=False)


# ---------------------------------------------------------------------------------------- statements
@dataclass(slots=True)
class _Ctx:
    text: str
    mentions: list[Mention]
    starts: list[int]
    separate: bool  # a concurrence or dissent: its "we" is not the court's


def statements(text: str, extraction: Extraction, *, opinion_type: str | None = None) -> list[Statement]:
    """Every explicit negative treatment ``text`` states about a case it cites (module docstring).

    ``opinion_type``: CourtListener's (``020lead``, ``040dissent`` …); a concurrence's or a dissent's "we"
    does not speak for the court."""
    if not _CUE.search(text):
        return []
    found = mentions(text, extraction)
    if not found:
        return []
    ctx = _Ctx(text=text, mentions=found, starts=[m.span.start for m in found],
               separate=bool(opinion_type) and str(opinion_type).startswith(_SEPARATE_OPINION_TYPES))  # fmt: skip
    protected = [c.full_span for c in extraction.citations]
    out: list[Statement] = []
    seen: set[tuple[int, int | None, bool, int]] = set()
    for sentence in sentences(text, protected):
        for m in _CUE.finditer(text, sentence.start, sentence.end):
            for st in _read(ctx, sentence, m):
                key = (st.target, st.actor, st.by_self, st.cue.start)
                if key not in seen and st.target != st.actor:
                    seen.add(key)
                    out.append(st)
    return out


def _kind(m: re.Match[str]) -> TreatmentKind:
    return next(_KINDS[g] for g in _KINDS if m.group(g))


def _read(ctx: _Ctx, sentence: Span, m: re.Match[str]) -> list[Statement]:
    text = ctx.text
    clause_start = _clause_start(text, sentence.start, m.start())
    before = text[clause_start : m.start()]
    if _hedged(before) or _AFTER_HEDGE.match(text, m.end()):
        return []
    kind = _kind(m)
    prior = [mm.outer if mm.citation else mm.span.end for mm in _before(ctx, clause_start, m.start())]
    scope = (
        text[max([clause_start, m.start() - 40, *prior]) : m.start()]
        + text[m.start() : min(sentence.end, m.end() + 140)]
    )
    whole = not _PARTIAL.search(scope)
    # a scope clause anywhere before the verb ("To the extent Smith holds …, we overrule it") limits an act of
    # this court or a named subject; a history phrase's "in part" is read only between the case and the cue
    wide = whole and not _PARTIAL.search(text[clause_start : m.start()])
    make = _maker(kind, whole, sentence, Span(m.start(), m.end()))
    make_wide = _maker(kind, wide, sentence, Span(m.start(), m.end()))
    quoted = _inside_quotation(text, sentence.start, m.start())
    for reader in (_agent_form, _parenthetical_form, _self_form, _subject_form, _passive_form):
        if quoted and reader in (_self_form, _passive_form):
            continue  # "we overrule X" quoted from another opinion is that court's act, not this text's
        found = reader(ctx, sentence, clause_start, m, make if reader in _NARROW else make_wide)
        if found is not None:
            return found
    return []


def _inside_quotation(text: str, start: int, at: int) -> bool:
    """Is ``at`` inside a quotation opened earlier in its sentence (or in a bracketed alteration)?"""
    part = text[start:at]
    return part.count('"') % 2 == 1 or part.count("\u201c") > part.count("\u201d") or "[ " in part[-80:]


_NARROW: tuple[object, ...] = ()  # set below: the readers whose scope is only the words after the case
#: builds a statement of one cue: (target, actor, by_self, form) -> Statement
Make = Callable[[int, int | None, bool, str], Statement]


def _maker(kind: TreatmentKind, whole: bool, sentence: Span, cue: Span) -> Make:
    def make(target: int, actor: int | None, by_self: bool, form: str) -> Statement:
        return Statement(target=target, actor=actor, by_self=by_self, kind=kind, whole=whole, sentence=sentence,
                         cue=cue, form=form)  # fmt: skip

    return make


#: Scope clauses that are no hedge although they hold hedge words: "to the extent that Smith suggests
#: otherwise, it is overruled", "insofar as it holds, if it does, that …".
_SCOPE_CLAUSE = re.compile(r"\b(?:to\s+the\s+(?:extent|degree)|insofar\s+as|in\s+so\s+far\s+as)\b[^;]*?,\s*(?=\S)|"
                           r"\bif\s+it\s+does\b,?", re.I)  # fmt: skip
_THEREBY = re.compile(r"(?:,\s*|\b)(?:thereby|and|thus|hence)\s+(?:expressly\s+|explicitly\s+)?$", re.I)
_PRONOUN_OBJECT = re.compile(r"[\s,]*(?:it|them|that\s+(?:case|decision|holding|opinion)|those\s+(?:cases|decisions|"
                             r"holdings)|these\s+(?:cases|decisions)|such\s+(?:cases|decisions))\b", re.I)  # fmt: skip
_PARENS = re.compile(r"\([^()]*\)")
_INFINITIVE = re.compile(
    r"\bto\s+(?:\w+\s+)?$", re.I
)  # "asks us to overrule", "decline to expressly overrule"


def _hedged(before: str) -> bool:
    """A hedge or negation in the clause before the cue (its last 80 characters, scope clauses aside), or
    an infinitive (``to overrule``: what someone asks or declines, never the act)."""
    if _INFINITIVE.search(before):
        return True
    plain = _PARENS.sub(" ", _PARENS.sub(" ", before))  # a parenthetical's words describe a case, not the cue
    return bool(_HEDGE.search(_SCOPE_CLAUSE.sub(" ", plain)[-80:]))


def _clause_start(text: str, sentence_start: int, at: int) -> int:
    """Where the clause of ``at`` begins: after the last ``;`` or ``:`` before it in the sentence that is not
    inside a parenthetical (a parenthetical's own semicolons divide its description, not the sentence)."""
    depth, cut = 0, -1
    for i in range(sentence_start, at):
        ch = text[i]
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth = max(0, depth - 1)
        elif ch in ";:" and depth == 0:
            cut = i
    return cut + 1 if cut >= 0 else sentence_start


def _before(ctx: _Ctx, lo: int, hi: int) -> list[Mention]:
    """Mentions wholly in ``[lo, hi)``, in order."""
    i = bisect.bisect_left(ctx.starts, lo)
    out = []
    while i < len(ctx.mentions) and ctx.mentions[i].span.start < hi:
        if ctx.mentions[i].span.end <= hi:
            out.append(ctx.mentions[i])
        i += 1
    return out


def _subject(ctx: _Ctx, lo: int, at: int) -> Mention | None:
    """The case a history phrase or a passive verb at ``at`` is about: the last reference before it whose
    outermost citation is not closed before a later one opens (``A (citing B), overruled by C`` is A)."""
    cands = [mm for mm in _before(ctx, lo, at) if mm.outer <= at + 2]
    if not cands:
        return None
    best = max(cands, key=lambda mm: (mm.outer, -mm.span.start))
    # a later reference that is not inside ``best``'s citation is nearer the verb: it is the subject
    later = [mm for mm in cands if mm.span.start >= best.outer]
    return later[-1] if later else best


def _objects(ctx: _Ctx, start: int, limit: int) -> list[Mention]:
    """The cases a verb at ``start`` takes as objects: the first reference after it (past filler words
    such as ``the decision in``) and those coordinated with it (``Roe and Casey``, ``A, B, and C``)."""
    text = ctx.text
    end = _CLAUSE_END.search(text, start, limit)
    stop = end.start() if end else limit
    filler = _OBJECT_FILLER.match(text, start, stop)
    pos = filler.end() if filler else start
    out: list[Mention] = []
    for mm in _before(ctx, pos, stop):
        gap = text[pos : mm.span.start]
        if out and not _COORDINATION.fullmatch(gap):
            if not (mm.span.start < out[-1].outer):  # a citation inside the last object's own parenthetical
                break
            continue
        if (
            not out
            and gap.strip()
            and not _OBJECT_FILLER.fullmatch(gap)
            and not _NAME_BEFORE_CITE.fullmatch(gap)
        ):
            break
        if not out or mm.span.start >= out[-1].outer:
            out.append(mm)
            pos = mm.outer if mm.citation else mm.span.end
            pos = _skip_citation_tail(text, pos, stop)
    return out


#: A case name the extraction did not join to the citation after it (a line break between them).
_NAME_BEFORE_CITE = re.compile(
    r"\s*(?:(?:see|the|in)\s+)?[A-Z][\w.’'&,\- ]{0,120}?\s(?:v\.|vs\.)\s[^;()]{1,120}?,\s*"
)
_COORDINATION = re.compile(
    r"\s*,\s*(?:(?:and|or|as\s+well\s+as|&)\s+)?(?:(?:in|of|the|its|our)\s+)*|"
    r"\s*,?\s*(?:and|or|as\s+well\s+as|&)\s+(?:(?:in|of|the|its|our)\s+)*",
    re.I,
)


def _skip_citation_tail(text: str, pos: int, stop: int) -> int:
    """Past ``, supra,`` and a pin (``, 410 U.S., at 116``) after a name, to where the next object may start."""
    m = re.match(r"(?:,?\s*supra\b,?|,?\s*at\s+\d+(?:[-–]\d+)?)*", text[pos:stop])
    return pos + (m.end() if m else 0)


def _agent_form(
    ctx: _Ctx, sentence: Span, clause_start: int, m: re.Match[str], make: Make
) -> list[Statement] | None:
    """``T …, overruled by A`` / ``T was overruled in A`` / ``T, abrogated on other grounds, A``."""
    if m.group("overrule") and not m.group(0).lower().endswith("ed"):
        return None
    if (m.group("abrogate") or m.group("disapprove") or m.group("recede")) and not re.search(
        r"ed\b", m.group(0)
    ):
        return None
    text = ctx.text
    agent = _AGENT.match(text, m.end(), sentence.end)
    if agent is None:
        return None
    objs = _objects(ctx, agent.end(), min(sentence.end, agent.end() + _WINDOW))
    if not objs:
        return None
    actor = objs[0]
    target = _subject(ctx, clause_start, m.start())
    if target is None or target.target == actor.target:
        return []  # "overruled by A" with nothing before it: nothing to attach it to
    return [make(target.target, actor.target, False, "agent")]


def _parenthetical_form(
    ctx: _Ctx, sentence: Span, clause_start: int, m: re.Match[str], make: Make
) -> list[Statement] | None:
    """``A, 1 F.3d 2 (overruling T)``: A treats T."""
    text = ctx.text
    if not m.group(0).lower().startswith(("overruling", "abrogating", "disapproving", "receding")):
        return None
    lead = _PAREN_LEAD.search(text, max(0, m.start() - 40), m.start())
    if lead is None:
        return _participle_form(ctx, sentence, m, make)
    paren = lead.start()
    host = [
        mm
        for mm in _before(ctx, max(0, paren - _WINDOW), paren + 1)
        if mm.citation and (mm.outer >= paren or _CITATION_TAIL.fullmatch(text, mm.outer, paren))
    ]
    if not host:
        return []
    close = _matching(text, paren)
    objs = _objects(ctx, m.end(), close)
    return [
        make(o.target, host[-1].target, False, "parenthetical") for o in objs if o.target != host[-1].target
    ]


def _participle_form(ctx: _Ctx, sentence: Span, m: re.Match[str], make: Make) -> list[Statement] | None:
    """``United States v. Giggey, 551 F.3d 27 (1st Cir. 2008) (en banc), overruling Sawyer and Fiore``."""
    text = ctx.text
    before = text[sentence.start : m.start()]
    if _THEREBY.search(before) and re.search(r"\bwe\b", before, re.I) and not ctx.separate:
        objs = _objects(ctx, m.end(), min(sentence.end, m.end() + _WINDOW))
        return [make(o.target, None, True, "self") for o in objs]  # "we hold …, thereby overruling Dame"
    hosts = [mm for mm in _before(ctx, sentence.start, m.start()) if mm.citation]
    if not hosts:
        return None
    host = max(hosts, key=lambda mm: mm.outer)
    if not _PARTICIPLE_GAP.fullmatch(text, host.outer, m.start()):
        return None
    objs = _objects(ctx, m.end(), min(sentence.end, m.end() + _WINDOW))
    return [make(o.target, host.target, False, "participle") for o in objs if o.target != host.target]


#: What may follow a citation the extraction did not join to it (a line break before its pin): ", 1117 (10th Cir.) "
_CITATION_TAIL = re.compile(
    r"[\s,]*(?:\d+(?:[-–]\d+)?(?:\s*(?:&|and)\s*nn?\.\s*[\d-]+)?)?[\s,]*(?:\([^()]{0,60}\)\s*)*"
)
_PARTICIPLE_GAP = re.compile(r"\s*,\s*(?:(?:and|thereby|expressly|explicitly|partially|thus)\s+)*", re.I)


def _matching(text: str, open_at: int) -> int:
    depth = 0
    for i in range(open_at, min(len(text), open_at + 2000)):
        if text[i] == "(":
            depth += 1
        elif text[i] == ")":
            depth -= 1
            if depth == 0:
                return i
    return min(len(text), open_at + 2000)


def _self_form(
    ctx: _Ctx, sentence: Span, clause_start: int, m: re.Match[str], make: Make
) -> list[Statement] | None:
    """``we overrule T`` / ``Today the Court overrules T`` / ``In A, we overruled T``."""
    text = ctx.text
    subj = _SELF_SUBJECT.search(text, max(clause_start, m.start() - 80), m.start())
    if subj is None:
        court = _COURT_SUBJECT.search(text, max(clause_start, m.start() - 100), m.start())
        if court is None or not m.group(0).lower().endswith("ed"):
            return None
        objs = _objects(ctx, m.end(), min(sentence.end, m.end() + _WINDOW))
        named = [
            mm
            for mm in _before(ctx, court.start(), court.start() + 40)
            if not mm.citation and re.match(r"\s+Court\b", text[mm.span.end : mm.span.end + 8])
        ]  # "The James Court"
        actor = (
            named[0].target
            if named
            else (_past_actor(ctx, sentence, clause_start, court.start(), objs[-1]) if objs else None)
        )
        return [make(o.target, actor, False, "court-past") for o in objs if o.target != actor]
    verb = m.group(0).split()[0]
    who = subj.group("who").lower()
    objs = _objects(ctx, m.end(), min(sentence.end, m.end() + _WINDOW)) or _pronoun_objects(ctx, sentence, m)
    if not objs:
        return []
    present = bool(_PRESENT_SELF.match(verb)) or verb.lower().endswith("ing")
    if present:
        if ctx.separate and who == "we":
            return []  # a dissent's or a concurrence's "we" is not the court
        return [make(o.target, None, True, "self") for o in objs]
    # past tense: "In A, the Court overruled T" / "we overruled T in A": the case named is the actor
    actor = _past_actor(ctx, sentence, clause_start, subj.start(), objs[-1])
    return [make(o.target, actor, False, "self-past") for o in objs if o.target != actor]


def _pronoun_objects(ctx: _Ctx, sentence: Span, m: re.Match[str]) -> list[Mention]:
    """``To the extent that Mardanlou suggests otherwise, we overrule it``: "it" is the case named in the scope
    clause of the same sentence (every case named there; none when the sentence has no such clause)."""
    text = ctx.text
    if not _PRONOUN_OBJECT.match(text, m.end()):
        return []
    scope = _SCOPE_CLAUSE.search(text, sentence.start, m.start())
    if scope is None:
        return []
    return [mm for mm in _before(ctx, scope.start(), scope.end())]


def _past_actor(ctx: _Ctx, sentence: Span, clause_start: int, subject_at: int, last: Mention) -> int | None:
    """The case in ``In A, we overruled T`` or ``we overruled T in A`` (None: the text does not say)."""
    text = ctx.text
    after = re.match(
        r"[\s,]*(?:in|by)\s+", text[last.outer if last.citation else last.span.end : sentence.end]
    )
    if after is not None:
        at = (last.outer if last.citation else last.span.end) + after.end()
        following = _before(ctx, at, min(sentence.end, at + 120))
        if following and following[0].span.start == at:
            return following[0].target
    for mm in reversed(_before(ctx, clause_start, subject_at)):
        if re.search(r"\b(?:In|in)\s+$", text[max(clause_start, mm.span.start - 4) : mm.span.start]):
            return mm.target
    # "… the Supreme Court overruled Grady. United States v. Dixon, 509 U.S. 688 (1993).": the citation sentence
    lead = re.match(r"\s*(?:See\s+(?:also\s+)?)?", text[sentence.end : sentence.end + 20])
    at = sentence.end + (lead.end() if lead else 0)
    nxt = _before(ctx, at, at + 200)
    if nxt and nxt[0].citation and nxt[0].span.start == at:
        return nxt[0].target
    return None


def _subject_form(
    ctx: _Ctx, sentence: Span, clause_start: int, m: re.Match[str], make: Make
) -> list[Statement] | None:
    """``Lawrence overruled Bowers`` / ``Doe expressly abrogated Smith``: a case as the subject."""
    text = ctx.text
    if _BE_BEFORE.search(text, max(clause_start, m.start() - 30), m.start()):
        return None
    subject = [mm for mm in _before(ctx, max(clause_start, m.start() - 60), m.start())]
    if not subject:
        return None
    s = subject[-1]
    if _PREPOSITION_BEFORE.search(text, max(clause_start, s.span.start - 25), s.span.start):
        return None  # "the anomaly created by Wilcox and Rutkin, overruled Wilcox": Rutkin is no subject
    gap = text[s.outer if s.citation else s.span.end : m.start()]
    if not re.fullmatch(r"[\s,]*(?:\(\d{4}\)[\s,]*)?(?:(?:expressly|explicitly|also|later|subsequently|"
                        r"specifically|squarely|formally|then|thus)\s+)*", gap):  # fmt: skip
        return None
    objs = _objects(ctx, m.end(), min(sentence.end, m.end() + _WINDOW))
    return [make(o.target, s.target, False, "subject") for o in objs if o.target != s.target] or []


def _passive_form(
    ctx: _Ctx, sentence: Span, clause_start: int, m: re.Match[str], make: Make
) -> list[Statement] | None:
    """``Roe and Casey are overruled`` (the court's own act) / ``Smith has since been overruled`` (reported)."""
    text = ctx.text
    lo = max(clause_start, m.start() - 60)
    kind_notgood = bool(m.group("notgood"))
    now = _PASSIVE_NOW.search(text, lo, m.start())
    past = None if now else _PASSIVE_PAST.search(text, lo, m.start())
    if kind_notgood:
        now = _IS_NOW.search(text, lo, m.start())
        past = None if now else _WAS.search(text, lo, m.start())
    if now is None and past is None:
        return None
    if not m.group(0).split()[0].lower().endswith("ed") and not kind_notgood:
        return None
    found = now or past
    assert found is not None
    verb_at = found.start()  # type: ignore[union-attr]
    subjects = _coordinated_before(ctx, clause_start, verb_at)
    if not subjects:
        return []
    if now is not None:
        return [make(s.target, None, True, "passive") for s in subjects]
    return [make(s.target, None, False, "reported") for s in subjects]


def _coordinated_before(ctx: _Ctx, lo: int, at: int) -> list[Mention]:
    """The subject(s) ending just before a verb at ``at``: ``Roe and Casey``, ``Quill, 504 U.S. 298, and
    Bellas Hess, 386 U.S. 753``, ``any prior cases to the contrary such as Montoya and Romo``."""
    text = ctx.text
    cands = _before(ctx, lo, at)
    if not cands:
        return []
    out: list[Mention] = []
    pos = at
    for mm in reversed(cands):
        end = mm.outer if mm.citation else mm.span.end
        if out and mm.outer > out[-1].span.start:
            continue  # inside the next subject's own citation
        gap = text[end:pos]
        if not out and _POSSESSIVE_RULE.match(gap) and len(gap) < 200 and not re.search(r"[.;]\s", gap):
            out.append(mm)  # "Mangos's rule that … is no longer good law"
            break
        allowed = (r"[\s,]*(?:supra[\s,]*)?(?:\(\d{4}\))?[\s,]*(?:and|or|&)?[\s,]*(?:its\s+progeny[\s,]*)?"
                   if out else r"[\s,]*(?:supra[\s,]*)?(?:\([^()]{0,80}\)[\s,]*)?(?:(?:and|together\s+with)\s+its\s+"
                   r"progeny|(?:and|with)\s+(?:the\s+)?cases?\s+(?:that\s+)?follow(?:ing|ed)\s+(?:it|them)|[^.;]{0,90}?)?"
                   r"[\s,]*(?:itself[\s,]*)?(?:(?:which|that|it|they|to\s+the\s+extent[^.;]{0,120}?|insofar\s+as"
                   r"[^.;]{0,120}?)[\s,]*)*")  # fmt: skip
        if not re.fullmatch(allowed, gap, re.I):
            break
        out.append(mm)
        pos = mm.span.start
        if not out or not re.search(r"(?:and|or|&|,)\s*$", text[max(lo, pos - 12) : pos]):
            break
    return list(reversed(out))


#: What a court overrules that is no precedent: a party's point of error or objection, as the cue's subject
#: ("this assignment of error is accordingly overruled") or its object ("we overrule appellants' first point of
#: error", "overrule the motion").
_PROCEDURAL = r"(?:(?:points?|assignments?|grounds?|issues?|specifications?)\s+of\s+error|objections?"
_PROCEDURAL_SUBJECT = re.compile(_PROCEDURAL + r")\s+(?:\w+\s+){0,3}$", re.I)
_PROCEDURAL_OBJECT = re.compile(
    r"(?:\S+\s+){0,4}?" + _PROCEDURAL + r"|motions?|exceptions?|pleas?|demurrers?)\b", re.I
)


def states_own_overruling(sentence: str) -> bool:
    """Does one sentence, read alone, say that its own court overrules (disapproves, recedes from …) something?

    The cue, hedge and voice rules of ``statements`` without the references to cases (which a sentence read
    alone may not carry): ``we hereby overrule …``, ``… is overruled``, ``… should be and now is overruled``.
    What the sentence-level benchmark (bench/treatment_language.py, LegalBench's "overruling" task) measures.

    >>> states_own_overruling("To the extent Smith holds otherwise, it is overruled.")
    True
    >>> states_own_overruling("We decline to overrule Smith."), states_own_overruling("Smith was overruled in Doe.")
    (False, False)
    """
    for m in _CUE.finditer(sentence):
        if m.group("supersede") or m.group("notgood"):
            continue
        clause = _clause_start(sentence, 0, m.start())
        before = sentence[clause : m.start()]
        if (
            _hedged(before)
            or _AFTER_HEDGE.match(sentence, m.end())
            or _inside_quotation(sentence, 0, m.start())
        ):
            continue
        verb = m.group(0).split()[0]
        rest = sentence[m.end() :].strip(" .,;")
        if _PROCEDURAL_SUBJECT.search(before) or _PROCEDURAL_OBJECT.match(rest):
            continue  # "we overrule appellants' first point of error", "this assignment of error is overruled"
        if (
            verb.lower().endswith("ing")
            and _THEREBY.search(before)
            and re.search(r"\bwe\b", before, re.I)
            and rest
        ):
            return True  # "we hold today that …, thereby overruling Dame"
        if _SELF_SUBJECT.search(sentence, max(clause, m.start() - 80), m.start()) and rest:
            if _PRESENT_SELF.match(verb) or verb.lower().endswith("ing"):
                return True
        if verb.lower().endswith("ed") and _PASSIVE_NOW.search(
            sentence, max(clause, m.start() - 60), m.start()
        ):
            return True
    return False


_NARROW = (_agent_form, _parenthetical_form)


@lru_cache(maxsize=256)
def has_cue(text: str) -> bool:
    """Cheap pre-test: may ``text`` state a negative treatment at all?"""
    return _CUE.search(text) is not None


__all__ = ["Mention", "Statement", "has_cue", "mentions", "sentences", "statements", "states_own_overruling"]
