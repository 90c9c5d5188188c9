"""Extraction of ONE paragraph, with spans relative to the paragraph: the unit we cache.

Everything here depends only on the paragraph's text, so a paragraph's result can be reused wherever
the same text appears and after any edit elsewhere. What needs the rest of the document (which full
citation a short form means, a block quote or sentence in the previous paragraph, reference
citations such as ``Roe at 116`` that are only citations if ``Roe`` was cited before) is left for the
cheap document pass in ``assemble.py``, driven by the flags recorded here.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from functools import lru_cache

from citecheck.extract.agency import AgencyCite, agency_of, find_agency_series, grouped_number_end
from citecheck.extract.context import HISTORY, HISTORY_TO, parentheticals_after, parse_court_date
from citecheck.extract.courts import SCOTUS_REPORTERS
from citecheck.extract.eyecite_adapter import Hit, HitKind, known_reporter_strings, scan
from citecheck.extract.foreign import ForeignCite, find_foreign
from citecheck.extract.models import (
    CaseName,
    Citation,
    CiteForm,
    Database,
    Parenthetical,
    Pincite,
    Quote,
    Statute,
)
from citecheck.extract.names import CONNECTORS, SIGNALS, case_name_at, short_name_at
from citecheck.extract.normalise import citation_text, normalise
from citecheck.extract.other_authorities import MASS_REGULATIONS, find_other_authorities, merge_authorities
from citecheck.extract.paragraphs import furniture_lines
from citecheck.extract.pincites import parse_pincite, uncheckable_pincite, unparsed_pincite
from citecheck.extract.quotes import block_quote, find_quotes, is_block_paragraph
from citecheck.extract.records import positional_constructor
from citecheck.extract.sentences import sentence_spans
from citecheck.extract.statutes import LawToken, StatuteMatch, find_statutes
from citecheck.extract.tables import listed_at
from citecheck.extract.unrecognised import Candidate, find_unrecognised
from citecheck.reporters import is_case_reporter, reporter_variant
from citecheck.spans import Span

#: ``Citation(*fields)``, more than twice as fast (a paragraph makes one per citation)
_citation_at = positional_constructor(Citation)
_COMMA = re.compile(r"\s*,\s*")
#: "Cite as: 570 U. S. ____ (2013)": a slip opinion's running head is page furniture, not a citation.
_RUNNING_HEAD = re.compile(r"Cite as:\s*$")
_PIN_INTRO = re.compile(r"\s?,\s*(?:at\s+)?")
_AT = re.compile(r",?\s*(?:at\s+|(?=¶))")  # "Id. at 5", and "Id. ¶ 34" (a paragraph pin)
_AT_WORD = re.compile(r",?\s*at\s+(?P<word>[^\s,;.)]*)")
_SUPRA_NOT_CASE = re.compile(r",?\s*(?:note|n\.|Part|part|Section|section|§|pt\.)")
_RECORD = re.compile(
    r"(?:E(?<!\wE)CF\s+No\.|D(?<!\wD)kt\.(?:\s+No\.)?|A(?<!\wA)m\.\s+Compl\.|C(?<!\wC)ompl\.|T(?<!\wT)r\.|"
    r"E(?<!\wE)x\.|D(?<!\wD)ecl\.|J(?<!\wJ)\.A\.|R(?<!\wR)\.)\s*(?:¶\s*)?\d"
)
_REFERENCE = re.compile(
    r"(?P<name>[A-Z](?<![\w.'][A-Z])[\w'&.-]*(?:\s+(?:of|the|&|[A-Z][\w'&.-]*)){0,3})\s+(?:at\s+|pp?\.\s*)(?=\*?\d)"
)
_GENERIC_PARTY = re.compile(
    r"(?:In\s+)?(?:the\s+)?(?:United\s+States|U\.\s?S\.|State|People|Commonwealth|Government|Nation|Congress|Court)"
)
_BRACKET_DATE = re.compile(r"\s*(?P<open>\[)(?P<inner>[^\[\]]{4,40})\]")
_CALIFORNIA_YEAR = re.compile(r"(?P<open>\()(?P<year>(?:1[6-9]|20)\d\d)(?P<close>\))\s*$")
_COMMA_OR_SPACE = re.compile(r",?\s*")
_SUPRA_BEFORE = re.compile(r"\bsupra,?\s*$")
_VOLUME_BEFORE_SUPRA = re.compile(
    r"(?<=[\w.'])(?P<comma>,?)\s*\d{1,4}\s+(?P<reporter>[A-Z][\w.' ]{0,24}?),\s*$"
)
_NONSPACE = re.compile(r"\S+")
#: the words ``str.split()`` gives (``\s`` is ``str.isspace``), found one at a time
_NON_SPACE = re.compile(r"\S+")
_match_text = re.Match.group
_JUNK_WORD = re.compile(r"[>\"'(\[,;:.*_-]+")  # a word of punctuation only (quote marks, brackets, stars)
_LETTER = re.compile(r"[A-Za-z]")


@dataclass(frozen=True, slots=True)
class RefCandidate:
    """``Name at 116``: a reference citation if ``Name`` is a party to an earlier full citation."""

    words: tuple[tuple[int, int], ...]  # spans of the name's words
    name_end: int
    pincite: Pincite
    sentence: int


@dataclass(frozen=True, slots=True)
class ParagraphResult:
    """One paragraph's citations with paragraph-relative spans and the hints the document pass needs."""

    citations: tuple[Citation, ...]
    nested: tuple[bool, ...]  # inside another citation's parenthetical or history: Id. skips it
    leading: tuple[bool, ...]  # only signals/markup before it in the paragraph
    needs_prev: tuple[bool, ...]  # its proposition is in the previous paragraph
    barrier_before: tuple[bool, ...]  # a statute / record cite since the previous citation: breaks Id.
    barrier_at_end: bool
    block: Quote | None  # the paragraph is a block quote: this is it
    last_sentence: Span | None  # last sentence that is not only a citation
    refs: tuple[RefCandidate, ...] = ()
    ref_props: tuple[tuple[Span | None, tuple[Quote, ...], bool], ...] = field(default=())
    # a short form that is the parallel pin of the one before it ("Id. at 527, 27 A.2d at 174")
    parallel_short: tuple[bool, ...] = ()


@dataclass(slots=True)
class _Draft:
    hit: Hit | None
    form: CiteForm
    span: Span
    core: Span
    full: Span
    volume: str | None = None
    reporter: str | None = None
    reporter_as_written: str | None = None
    page: str | None = None
    database: Database | None = None
    foreign: str | None = None
    agency: str | None = None
    case_name: CaseName | None = None
    pincite: Pincite | None = None
    court: str | None = None
    court_text: str | None = None
    year: int | None = None
    date: str | None = None
    date_span: Span | None = None
    parens: list[Parenthetical] = field(default_factory=list)
    history: list[str] = field(default_factory=list)
    group: int = -1
    antecedent_text: str | None = None
    nested: bool = False
    after: int = 0  # end of pin cite (or core)
    paren_end: int = 0  # end of its own parentheticals
    inner_parallel: int | None = None  # Georgia: the parallel cite in its own parenthetical
    statute: Statute | None = None


def _pin(
    norm: str,
    text: str,
    pos: int,
    limit: int,
    stops: frozenset[int],
    *,
    need_at: bool,
    record: bool = False,
) -> tuple[Pincite | None, int]:
    """The pin cite at ``pos``; ``record``: words after ``Id. at`` are a place in whatever Id. names.

    ``Id.`` may stand for a record, a treaty or a statute as well as a case: ``Id. at Exhibit H``,
    ``Id. at art. 13``, ``Id. at (d)``, ``Id. at ----``, ``Id. at [slip op. at 6]`` are pins a court
    writes. They name no page we can check, so they are kept without pages, never malformed.
    """
    if record:
        t = _TRANSCRIPT.match(norm, pos, limit)
        if t is not None:  # "Id. at 119:12-14", "id. 119:12-14": a transcript's page and lines
            s = t.start("pin")
            return Pincite(text=text[s : t.end()], span=Span(s, t.end()), parts=()), t.end()
    m = (_AT if need_at else _PIN_INTRO).match(norm, pos, limit)
    if not m:
        return None, pos
    pin, end = parse_pincite(norm, m.end(), limit, original=text, stops=stops)
    if record and pin is not None and pin.malformed and _CHAPTER_PAGE.match(norm, m.end(), limit):
        # "Id. at 4-1, H-1": a report's chapter-page numbers, not a range that ends before it starts
        return Pincite(text=pin.text, span=pin.span, parts=()), end
    if pin is None and not need_at:
        return None, pos
    if pin is None and need_at:
        blank = uncheckable_pincite(norm[:limit], m.end(), original=text)
        if blank is not None:
            return blank
        if record:
            e = _record_pin(norm, m.end(), limit)
            if e is not None:
                return Pincite(text=text[m.end() : e], span=Span(m.end(), e), parts=()), e
        w = _AT_WORD.match(norm, pos, limit)
        if w and w["word"]:
            s = w.start("word")
            return unparsed_pincite(
                norm,
                s,
                w.end("word"),
                original=text,
                reason=f"pin cite {text[s : w.end('word')]!r} is not a page",
            ), w.end()
    return pin, end


_CHAPTER_PAGE = re.compile(r"\d{1,2}-\d{1,3}\b(?!\s?-)")
_TRANSCRIPT = re.compile(r",?\s*(?:at\s+)?(?P<pin>\d+:\d+(?:\s?-\s?\d+(?::\d+)?)?)(?![\d:])")
_RECORD_BRACKET = re.compile(r"\[[^\[\]]{1,80}(?:\]|$)|\([^()\n]{1,20}\)|-{2,}|[Xx_]{2,}")
_RECORD_WORD = re.compile(r"[\w'][\w'.-]*")
_RECORD_SEP = re.compile(r",? ")
_NOT_RECORD = frozenset("see cf and but compare accord quoting citing".split())


def _record_pin(norm: str, start: int, limit: int) -> int | None:
    """End of what a court writes after ``Id. at`` that is no page, or None.

    A bracketed or parenthesised place (``[slip op. at 6]``, ``(d)``), a run of dashes or X's left for
    the page, or up to eight words to the end of the clause (``Exhibit H``, ``art. 2, para. 1``,
    ``paragraph three of the syllabus``); a word ending in a period before a capitalised word ends
    the sentence.
    """
    m = _RECORD_BRACKET.match(norm, start, limit)
    if m is not None:
        return m.end()
    end = None
    pos = start
    for _ in range(8):
        w = _RECORD_WORD.match(norm, pos, limit)
        if w is None or w.group().lower().rstrip(".") in _NOT_RECORD:
            break
        end = w.end()
        if w.group().endswith("."):
            nxt = norm[w.end() + 1 : w.end() + 2]
            if not nxt or nxt.isupper() or norm[w.end() : w.end() + 1] != " ":
                end -= 1  # "Exhibit H. Id. at 5": the period ends the sentence
                break
        sep = _RECORD_SEP.match(norm, w.end(), limit)
        if sep is None:
            break
        pos = sep.end()
    if end is None or end <= start:
        return None
    return end


@lru_cache(maxsize=256)
def extract_paragraph(text: str) -> ParagraphResult:
    """Extract one paragraph (``text`` exactly as in the document; offsets relative to it).

    The passes, in order: what the paragraph cites (``_items``) → a draft per citation (``_drafts``) →
    the tails, groups and history, names and parallel short names filled in → spans finalised and nested
    citations marked → the sentences, quotations and block quote (``_Layout``) → the citations with their
    quotations and propositions (``_citations``) → the ``Name at N`` references.
    """
    norm = _scanned(text)
    items, hits = _items(norm, text)
    stops = frozenset(h.start for h in items)
    barriers = [h.start for h in hits if h.kind in (HitKind.OTHER, HitKind.LAW)] + [
        m.start() for m in _RECORD.finditer(norm)
    ]
    drafts = _drafts(norm, text, items, stops)
    _attach_tails(norm, text, drafts)
    _group_and_history(norm, text, drafts)
    _reporters_by_year(drafts)
    _names(norm, text, drafts)
    _parallel_short_names(norm, drafts)
    _finalise_spans(drafts)
    layout = _Layout.of(norm, text, drafts)
    made = _Citations(norm, text, drafts, layout, barriers)
    refs = _reference_candidates(norm, text, drafts, layout.sents, stops)
    return ParagraphResult(
        citations=tuple(made.citations),
        nested=tuple(d.nested for d in drafts),
        leading=tuple(made.leading),
        needs_prev=tuple(made.needs_prev),
        barrier_before=tuple(made.barrier_before),
        barrier_at_end=any(b >= made.last_main_end for b in barriers),
        block=layout.block,
        last_sentence=layout.last_sentence(),
        refs=refs,
        ref_props=tuple(_ref_context(r, layout.sents, layout.only, layout.quotes, drafts) for r in refs),
        parallel_short=tuple(
            k > 0
            and d.form is CiteForm.SHORT
            and drafts[k - 1].form in (CiteForm.SHORT, CiteForm.ID)
            and _COMMA.fullmatch(norm, drafts[k - 1].span.end, d.span.start) is not None
            for k, d in enumerate(drafts)
        ),
    )


def _drafts(norm: str, text: str, items: list[_Item], stops: frozenset[int]) -> list[_Draft]:
    """A draft per citation the items make, in order (eyecite's other law tokens make none, but a
    citation's name is not read back past them)."""
    drafts: list[_Draft] = []
    prev_end = 0
    n = len(norm)
    for i, h in enumerate(items):
        limit = items[i + 1].start if i + 1 < len(items) else n
        if isinstance(h, Hit):
            if h.kind in (HitKind.OTHER, HitKind.LAW):
                prev_end = max(prev_end, h.end)
                continue
            nxt = items[i + 1] if i + 1 < len(items) else None
            d = _draft_for_hit(norm, text, h, prev_end, limit, stops, nxt)
        elif isinstance(h, StatuteMatch):
            d = _draft_for_statute(h)
        elif isinstance(h, ForeignCite):
            d = _draft_for_foreign(norm, text, h, limit, stops)
        elif isinstance(h, AgencyCite):
            d = _draft_for_agency(norm, text, h, limit, stops)
        else:
            d = _draft_for_unrecognised(norm, text, h, limit, stops)
        if d is None:
            continue
        drafts.append(d)
        prev_end = max(prev_end, d.after)
    return drafts


def _finalise_spans(drafts: list[_Draft]) -> None:
    """Each full span covers its citation; a citation inside another group's full span is nested."""
    for d in drafts:
        d.full = d.full.union(d.span)
    for d in drafts:
        for o in drafts:
            if o is not d and o.group != d.group and o.full.start < d.span.start and d.span.end <= o.full.end:
                d.nested = True
                break


@dataclass(slots=True)
class _Layout:
    """The paragraph's sentences (``only``: made of citations alone), its quotations, and its block quote."""

    sents: list[tuple[int, int]]
    only: list[bool]
    spans: list[Span]  # the sentences as spans, shared by the citations of one sentence
    quotes: list[Quote]
    block: Quote | None

    @classmethod
    def of(cls, norm: str, text: str, drafts: list[_Draft]) -> _Layout:
        protected = [(d.full.start, d.full.end) for d in drafts]
        quotes = find_quotes(norm, text)
        # a quotation of two sentences is one: its inner periods end nothing (its last one may)
        sents = sentence_spans(norm, protected + [_inner(q) for q in quotes])
        ordered = sorted(protected)
        only = [_only_citations(norm, s, ordered) for s in sents]
        block = block_quote(text, 0, len(norm)) if is_block_paragraph(text) else None
        return cls(sents, only, [Span(a, b) for a, b in sents], quotes, block)

    def last_sentence(self) -> Span | None:
        """The last sentence that is not citations alone (what a citation opening the next paragraph may be
        offered for)."""
        for i in range(len(self.sents) - 1, -1, -1):
            if not self.only[i]:
                return Span(*self.sents[i])
        return None


class _Citations:
    """The paragraph's citations made from the drafts, with what the plan needs of each: whether only
    signals and punctuation come before it (``leading``), whether its proposition is the paragraph before's
    (``needs_prev``), whether a barrier stands between it and the citation before (``barrier_before``)."""

    __slots__ = (
        "barrier_before",
        "citations",
        "last_main_end",
        "leading",
        "needs_prev",
        "not_lead_from",
        "propositions",
    )

    def __init__(
        self, norm: str, text: str, drafts: list[_Draft], layout: _Layout, barriers: list[int]
    ) -> None:
        self.citations: list[Citation] = []
        self.leading: list[bool] = []
        self.needs_prev: list[bool] = []
        self.barrier_before: list[bool] = []
        self.last_main_end = 0
        #: once a prefix of the paragraph has words, every longer one has (checking each prefix again
        #: was quadratic in long paragraphs)
        self.not_lead_from = len(norm) + 1
        #: each sentence's words (by its number), one string for every citation offered for it (a copy per
        #: citation: 20 MB of a 100,000-citation brief, issue 40)
        self.propositions: dict[int, str] = {}
        for idx, d in enumerate(drafts):
            self._add(norm, text, drafts, idx, d, layout, barriers)

    def _add(
        self,
        norm: str,
        text: str,
        drafts: list[_Draft],
        idx: int,
        d: _Draft,
        layout: _Layout,
        barriers: list[int],
    ) -> None:
        si = _sentence_of(layout.sents, d.span.start)
        prop_i = si
        while prop_i is not None and prop_i >= 0 and layout.only[prop_i]:
            prop_i -= 1
        prop = None if (prop_i is None or prop_i < 0) else layout.spans[prop_i]
        qs = _quotes_for(norm, d, drafts, layout.quotes, layout.sents, si, prop_i)
        if _follows_block(layout, drafts, idx, si):
            assert si is not None
            bq = block_quote(text, 0, layout.sents[si][0])
            if bq is not None:
                qs = (bq, *qs)
        lead = d.full.start < self.not_lead_from and all(
            _JUNK_WORD.fullmatch(w) or _is_signal(w)
            for w in map(_match_text, _NON_SPACE.finditer(norm, 0, d.full.start))
        )  # before it only signals and punctuation (the words read lazily: prose decides at its first)
        if not lead:
            self.not_lead_from = min(self.not_lead_from, max(d.full.start, 1))
        said = None
        if prop is not None and prop_i is not None and (said := self.propositions.get(prop_i)) is None:
            said = self.propositions[prop_i] = text[prop.start : prop.end]
        self.citations.append(_citation(norm, text, drafts, idx, d, qs, prop, said))
        self.leading.append(lead)
        self.needs_prev.append(prop_i is not None and prop_i < 0)
        lo = self.last_main_end
        self.barrier_before.append(bool(barriers) and any(lo <= b < d.span.start for b in barriers))
        if not d.nested:
            self.last_main_end = d.full.end


def _follows_block(layout: _Layout, drafts: list[_Draft], idx: int, si: int | None) -> bool:
    """The citation is the first of the paragraph's last sentence, a sentence of citations alone after a
    block quote: the block quote is one of its quotations."""
    return (
        layout.block is not None
        and si is not None
        and layout.only[si]
        and si == len(layout.sents) - 1
        and idx == _first_in_sentence(drafts, layout.sents, si)
    )


def _citation(
    norm: str,
    text: str,
    drafts: list[_Draft],
    idx: int,
    d: _Draft,
    quotes: tuple[Quote, ...],
    prop: Span | None,
    said: str | None,
) -> Citation:
    """The citation a draft makes (its offsets the paragraph's); ``said`` is ``prop``'s words."""
    form = d.form
    # every field, in ``Citation``'s order (``positional_constructor``; tests/extract/test_records.py)
    return _citation_at(
        idx,  # index
        form,  # form
        d.span,  # span
        d.full,  # full_span
        citation_text(text[d.span.start : d.span.end]),  # text
        d.volume,  # volume
        d.reporter,  # reporter
        d.reporter_as_written,  # reporter_as_written
        d.page,  # page
        d.database,  # database
        d.foreign,  # foreign
        d.agency,  # agency
        form in (CiteForm.FULL, CiteForm.STATUTE, CiteForm.UNRECOGNISED)
        and listed_at(norm, text, d.full.end, _next_start(drafts, idx, len(norm))),  # listed
        d.case_name,  # case_name
        d.pincite,  # pincite
        d.court,  # court
        d.court_text,  # court_text
        d.year,  # year
        d.date,  # date
        d.date_span,  # date_span
        tuple(d.parens),  # parentheticals
        tuple(d.history),  # history
        quotes,  # quotes
        said,  # proposition
        prop,  # proposition_span
        d.group,  # group
        None,  # antecedent
        d.antecedent_text,  # antecedent_text
        0,  # paragraph
        d.statute,  # statute
    )


_Item = Hit | Candidate | ForeignCite | StatuteMatch | AgencyCite


def _items(norm: str, text: str) -> tuple[list[_Item], list[Hit]]:
    """Everything the paragraph cites, in order (eyecite's hits, foreign and agency cites, statutes and
    the other authorities, unknown reporters), and the eyecite hits left once statutes took theirs."""
    hits = scan(norm)
    if "Cite as:" in norm:  # every _RUNNING_HEAD match has it
        hits = [h for h in hits if not _RUNNING_HEAD.search(norm, max(0, h.start - 12), h.start)]
    foreign = find_foreign(norm)
    if foreign:  # "[2016] 1 S.C.R. 631" is Canada's, not South Carolina's "1 S.C. 631"
        hits = [h for h in hits if not any(f.start <= h.start < f.end for f in foreign)]
    agency = [
        a for a in find_agency_series(norm) if not any(h.start < a.end and a.start < h.end for h in hits)
    ]
    statutes, hits = _statutes(norm, text, hits)
    cands = find_unrecognised(
        norm,
        [(h.start, h.end) for h in hits]
        + [(f.start, f.end) for f in foreign]
        + [(m.start, m.end) for m in statutes]
        + [(a.start, a.end) for a in agency],
    )
    hits, cands = _variants_read(hits, cands)
    items: list[_Item] = sorted([*hits, *cands, *foreign, *statutes, *agency], key=lambda h: h.start)
    return items, hits


def _next_start(drafts: list[_Draft], idx: int, n: int) -> int:
    """Where the citation after ``drafts[idx]`` starts (a parallel group's members are one entry)."""
    group = drafts[idx].group
    for d in drafts[idx + 1 :]:
        if d.group != group and not d.nested:
            return d.full.start
    return n


#: a hyphen at a line's end between letters, and the line break and indentation after it
_HYPHENATED = re.compile(r"(?<=[A-Za-z])-[ \t]*(?:\r\n|\r|\n)[ \t]*(?=[A-Za-z])")


def _scanned(text: str) -> str:
    """The paragraph as it is read: normalised one for one, and the page furniture standing between a
    citation's parts blanked (``959⏎⏎-5-⏎5⏎⏎F.2d at 353``: a page's number is no volume)."""
    norm = normalise(text)
    for a, b in furniture_lines(text):
        norm = norm[:a] + " " * (b - a) + norm[b:]
    if "-" in text and ("\n" in text or "\r" in text):
        # a word hyphenated at a line's end ("Ander-⏎son v. Liberty Lobby", "Petro-⏎Lubricant") is one word
        # for the name scanner: the break is read as more hyphens, same length
        for m in _HYPHENATED.finditer(text):
            norm = norm[: m.start()] + "-" * (m.end() - m.start()) + norm[m.end() :]
    return norm


def _unglue_star_page(norm: str, h: Hit) -> Hit:
    """The citation in text copied from an opinion with star paging: the star page is not its volume.

    ``Yoder, *428406 U.S. 205``: the opinion's page ``*428`` is glued to ``406 U.S. 205``; the volume
    is the longest tail of the digits the reporter can have (the last three where its volumes are not
    known), and the citation starts there. ``Crane v. Hyde Park, 135 *355 Mass. 147``: a star page
    between volume and reporter; the volume is the number before it.
    """
    if h.start == 0 or norm[h.start - 1] != "*" or not h.volume or not h.volume.isdigit():
        return h
    before = _VOLUME_BEFORE_STAR.search(norm, max(0, h.start - 12), h.start)
    if before is not None:  # "135 *355 Mass. 147"
        return replace(h, start=before.start("volume"), volume=before["volume"])
    digits = h.volume
    if len(digits) < 2:
        return h
    from citecheck.reporters import volume_problem

    tails = [digits[k:] for k in range(1, len(digits)) if digits[k] != "0"]
    known = h.reporter is not None and volume_problem(h.reporter, "99999") is not None
    if known:
        fits = [t for t in tails if volume_problem(h.reporter or "", t) is None]
        volume = fits[0] if fits else None
    else:
        volume = next((t for t in tails if len(t) <= 3), None)
    if volume is None:
        return h
    return replace(h, start=h.start + len(digits) - len(volume), volume=volume)


def _draft_for_hit(
    norm: str, text: str, h: Hit, prev_end: int, limit: int, stops: frozenset[int], nxt: object = None
) -> _Draft | None:
    h = _unglue_star_page(norm, h)
    if h.kind is HitKind.CASE:
        return _case_draft(norm, text, h, limit, stops)
    if h.kind is HitKind.SHORT:
        return _short_draft(norm, text, h, prev_end, limit, stops)
    if h.kind is HitKind.ID:
        return _id_draft(norm, text, h, limit, stops)
    if h.kind is HitKind.SUPRA:
        return _supra_draft(norm, text, h, prev_end, limit, stops, nxt)
    return None


def _court_of(h: Hit) -> str | None:
    return "scotus" if (h.scotus or h.reporter in SCOTUS_REPORTERS) else None


def _case_draft(norm: str, text: str, h: Hit, limit: int, stops: frozenset[int]) -> _Draft:
    grouped = grouped_number_end(norm, h.reporter, h.page, h.end)
    if grouped is not None:  # "53 F.E.R.C. 63,020": paragraph 63,020, not page 63 pinned at 20
        h = replace(h, end=grouped, page=f"{h.page}{norm[h.end : grouped]}")
    core = Span(h.start, h.end)
    pin, after = _pin(norm, text, h.end, limit, stops, need_at=False)
    return _Draft(
        hit=h, form=CiteForm.FULL, span=core, core=core, full=core, volume=h.volume, reporter=h.reporter,
        reporter_as_written=h.reporter_as_written, page=h.page, database=h.database, pincite=pin, after=after,
        court=_court_of(h), agency=agency_of(h.reporter),
    )  # fmt: skip


def _short_draft(norm: str, text: str, h: Hit, prev_end: int, limit: int, stops: frozenset[int]) -> _Draft:
    pin_start = h.end - len(h.page or "")
    pin, after = parse_pincite(norm, pin_start, limit, original=text, stops=stops - {pin_start})
    if pin is None:
        after = h.end
    name_end = h.start
    star = _STAR_BEFORE.search(norm, max(prev_end, h.start - 12), h.start)
    if star is not None:  # "Yoder, *428406 U.S. at 210"
        name_end = star.start()
    before = norm[prev_end:name_end].rstrip()
    # "…supra,?\s*$" searched (at every position) only where the text before ends so
    sup = _SUPRA_BEFORE.search(norm, prev_end, name_end) if before.endswith(("supra", "supra,")) else None
    if sup is not None:  # "Grant v. Esquire, supra, 316 F. Supp. at 884": one citation, not two
        name_end = sup.start()
    name = short_name_at(norm, text, prev_end, name_end)
    start = name[1].start if name else h.start
    span = Span(start, max(after, h.end))
    return _Draft(
        hit=h, form=CiteForm.SHORT, span=span, core=Span(h.start, h.end), full=span, volume=h.volume,
        reporter=h.reporter, reporter_as_written=h.reporter_as_written, database=h.database, pincite=pin,
        after=span.end, antecedent_text=name[0] if name else None, court=_court_of(h), agency=agency_of(h.reporter),
    )  # fmt: skip


def _end_before_commas(norm: str, h: Hit) -> int:
    end = h.end
    while end > h.start and norm[end - 1] == ",":
        end -= 1
    return end


def _id_draft(norm: str, text: str, h: Hit, limit: int, stops: frozenset[int]) -> _Draft:
    end = _end_before_commas(norm, h)
    pin, after = _pin(norm, text, end, limit, stops, need_at=True, record=True)
    span = Span(h.start, after if pin else end)
    return _Draft(
        hit=h,
        form=CiteForm.ID,
        span=span,
        core=Span(h.start, end),
        full=span,
        pincite=pin,
        after=span.end,
    )


def _supra_draft(
    norm: str, text: str, h: Hit, prev_end: int, limit: int, stops: frozenset[int], nxt: object
) -> _Draft | None:
    end = _end_before_commas(norm, h)
    then_short = (
        isinstance(nxt, Hit) and nxt.kind is HitKind.SHORT and _COMMA_OR_SPACE.fullmatch(norm, end, limit)
    )
    if _SUPRA_NOT_CASE.match(norm, end, limit) or then_short:
        return None  # "supra note 3" (not a case), or "X, supra, 316 F. Supp. at 884" (the short cite has it)
    name_end = h.start
    vol = (  # it ends ",\s*$": searched only where the text before ends so
        _VOLUME_BEFORE_SUPRA.search(norm, _supra_volume_from(norm, prev_end, h.start), h.start)
        if norm[prev_end : h.start].rstrip().endswith(",")
        else None
    )
    if vol is not None and "".join(vol["reporter"].split()).lower() in known_reporter_strings():
        if not vol["comma"]:
            return None  # "as 410 U.S., supra, shows": no name to resolve it by
        name_end = vol.start()  # "Roe, 410 U.S., supra, at 116": the name is before the volume
    name = short_name_at(norm, text, prev_end, name_end)
    if name is None:
        return None
    pin, after = _pin(norm, text, end, limit, stops, need_at=True, record=True)
    span = Span(name[1].start, after if pin else end)
    return _Draft(
        hit=h, form=CiteForm.SUPRA, span=span, core=Span(h.start, end), full=span, pincite=pin,
        after=span.end, antecedent_text=name[0],
    )  # fmt: skip


def _supra_volume_from(norm: str, start: int, end: int) -> int:
    """Where ``_VOLUME_BEFORE_SUPRA`` (which ends at ``end``) is searched from, the same match as from
    ``start``: a match holds at most 31 characters other than whitespace (a comma, four digits, a reporter
    of 25, a comma), so none starts before the last 64 characters when those hold 32 or more."""
    window = end - 64
    if window <= start or len("".join(norm[window:end].split())) < 32:
        return start
    return window


def _statutes(norm: str, text: str, hits: list[Hit]) -> tuple[list[StatuteMatch], list[Hit]]:
    """The paragraph's statute citations (``statutes.py``), and the eyecite hits left once they have
    taken the law tokens, bare sections and ``Id.`` they cover. A statute reading that overlaps a case
    citation gives way to it."""
    laws = [LawToken(h.start, h.end, h.law or "", h.groups) for h in hits if h.kind is HitKind.LAW]
    others = find_other_authorities(norm, text)
    if not laws and not others.found and "§" not in norm and not _MAY_CITE_CODE.search(norm):
        return [], hits
    merged = merge_authorities(find_statutes(norm, text, laws), others)
    regs = [m for m in merged if m.statute.code == MASS_REGULATIONS]
    # "209 CMR 18.14(3)" is a Massachusetts regulation, not Court-Martial Reports' "209 C.M.R. 18"
    cases = [h for h in hits if h.kind in (HitKind.CASE, HitKind.SHORT) and not _overlaps_any(h, regs)]
    found = [m for m in merged if not _overlaps_any(m, cases)]
    if not found:
        return [], hits
    kept = [
        h
        for h in hits
        if (h.kind in (HitKind.CASE, HitKind.SHORT) and h in cases) or not _overlaps_any(h, found)
    ]
    return found, kept


def _overlaps_any(x: Hit | StatuteMatch, others: Sequence[Hit | StatuteMatch]) -> bool:
    return any(x.start < o.end and o.start < x.end for o in others)


#: What a statute written without "§" must contain (``42 U.S.C. 1983``, ``29 CFR 1910.1200``, ``KRS
#: 446.070``, ``Pub. L. No. 111-148``, ``55 Stat. 808``, ``section 90.803, Florida Statutes``): a paragraph
#: with none of these, no "§" and no eyecite law token is not read for statutes at all
#: (the alternatives grouped by their first letter, in their order: ``re`` tries every alternative at each
#: position whose character opens one; the same matches, tests/extract/test_fast_regexes.py)
_MAY_CITE_CODE = re.compile(
    r"U(?:\.\s?S\.\s?C|SC)|C(?:\.\s?F\.\s?R|FR|PLR|CR|\.C\.R)|K(?:RS|\.R\.S)|R(?:CW|\.\s?[SC]\.|eg\.)|"
    r"O(?:RS|\.C\.G\.A)|M(?:CL|\.C\.L)|N(?:RS|\.J\.S\.A|YCRR|\.Y\.C\.R\.R|\.J\.A\.C)|G\.S\.|"
    r"A(?:\.R\.S|dm(?:in)?\.\s?Code|dministrative Code)|P(?:ub\.\s?L|ublic Law|\.\s?L\.|a\.\s?Code)|S(?:tat\.|ection)|"
    r"section|T(?:AC|\.A\.C)|F\.A\.C"
)


def _draft_for_statute(m: StatuteMatch) -> _Draft:
    core = Span(m.start, m.end)
    return _Draft(
        hit=None,
        form=CiteForm.STATUTE,
        span=core,
        core=core,
        full=Span(m.start, m.after),
        after=m.after,
        statute=m.statute,
    )


def _variants_read(hits: list[Hit], cands: list[Candidate]) -> tuple[list[Hit], list[Candidate]]:
    """A citation-shaped string whose reporter is a real one with periods or spaces missing (``678 F.
    Supp 3d 443``) is that reporter's citation, not an unknown reporter (issue 32)."""
    if not cands:
        return hits, cands
    kept: list[Candidate] = []
    for c in cands:
        real = reporter_variant(c.reporter)
        if real is None or not is_case_reporter(real):
            kept.append(c)
            continue
        hits = [*hits, Hit(kind=HitKind.CASE, start=c.start, end=c.end, volume=c.volume, reporter=real,
                           reporter_as_written=c.reporter, page=c.page)]  # fmt: skip
    return sorted(hits, key=lambda h: h.start), kept


def _draft_for_unrecognised(norm: str, text: str, c: Candidate, limit: int, stops: frozenset[int]) -> _Draft:
    core = Span(c.start, c.end)
    pin, after = _pin(norm, text, core.end, limit, stops, need_at=False)
    return _Draft(
        hit=None, form=CiteForm.UNRECOGNISED, span=core, core=core, full=core, volume=c.volume,
        reporter=c.reporter, reporter_as_written=c.reporter, page=c.page, pincite=pin, after=after,
    )  # fmt: skip


def _draft_for_agency(norm: str, text: str, a: AgencyCite, limit: int, stops: frozenset[int]) -> _Draft:
    """``7 F.C.C.R. 8752``: an agency series reporters-db does not list, a full citation of its kind."""
    core = Span(a.start, a.end)
    pin, after = _pin(norm, text, core.end, limit, stops, need_at=False)
    return _Draft(
        hit=None, form=CiteForm.FULL, span=core, core=core, full=core, volume=a.volume, reporter=a.series,
        reporter_as_written=a.written, page=a.page, pincite=pin, after=after, agency=a.agency,
    )  # fmt: skip


def _draft_for_foreign(norm: str, text: str, f: ForeignCite, limit: int, stops: frozenset[int]) -> _Draft:
    core = Span(f.start, f.end)
    pin, after = _pin(norm, text, core.end, limit, stops, need_at=False)
    return _Draft(
        hit=None, form=CiteForm.UNRECOGNISED, span=core, core=core, full=core, volume=f.volume,
        reporter=f.code, reporter_as_written=f.code, page=f.number, pincite=pin, after=after,
        foreign=f.system,
    )  # fmt: skip


def _attach_tails(norm: str, text: str, drafts: list[_Draft]) -> None:
    """Each citation's own parentheticals: the first may be the court/date one."""
    for d in drafts:
        spans = _tail_spans(norm, d)
        d.paren_end = spans[-1].end if spans else d.after
        if not spans:
            continue
        parens = list(spans)
        if d.form is CiteForm.FULL:
            parens = _georgia_parallel(norm, d, parens, drafts)
        if parens and d.form in (CiteForm.FULL, CiteForm.UNRECOGNISED):
            parens = _court_date_paren(norm, d, parens)
        # California's "(VonWahlde)", "(Howard)": the short name the case goes by later, no explanation
        parens = [p for p in parens if not _DESIGNATION.fullmatch(norm, p.start, p.end)]
        if parens and _dates_only(norm, d, parens[0]):
            # "(198⁴)", and a short form's "(2016)": a date, however written, explains nothing
            parens = parens[1:]
        d.parens = [Parenthetical(text=text[p.start + 1 : p.end - 1], span=p) for p in parens]
        d.full = d.full.union(Span(d.span.start, d.paren_end))


def _tail_spans(norm: str, d: _Draft) -> list[Span]:
    """The parentheticals after a citation (a full one's blank parallel skipped; New York's bracketed date;
    else a court and date written bare, read into the draft)."""
    blank = _BLANK_PARALLEL.match(norm, d.after) if d.form is CiteForm.FULL else None
    if blank is not None:  # "142 S. Ct. 1253, 1259, ---- L. Ed. 2d ---- (2022)": a parallel not yet out
        d.after = blank.end()
    spans = parentheticals_after(norm, d.after, len(norm))
    if not spans and d.form is CiteForm.FULL:
        # New York style: "67 N.Y.2d 156, 160 [1986]"
        b = _BRACKET_DATE.match(norm, d.after)
        if b is not None and parse_court_date(b["inner"]) is not None:
            spans = [Span(b.start("open"), b.end())]
    if not spans and d.form is CiteForm.FULL:
        _bare_court_date(norm, d)
    return spans


def _court_date_paren(norm: str, d: _Draft, parens: list[Span]) -> list[Span]:
    """The first parenthetical read as the court and date, when it is one; the parentheticals left."""
    cd = parse_court_date(norm[parens[0].start + 1 : parens[0].end - 1])
    if cd is None:
        return parens
    d.date_span = parens[0]
    d.court_text = cd.court_text
    if cd.court:
        d.court = cd.court
    d.year, d.date = cd.year, cd.date
    return parens[1:]


def _dates_only(norm: str, d: _Draft, p: Span) -> bool:
    return bool(
        _YEAR_LIKE.fullmatch(norm, p.start, p.end)
        or (d.form is not CiteForm.FULL and parse_court_date(norm[p.start + 1 : p.end - 1]))
    )


def _bare_court_date(norm: str, d: _Draft) -> None:
    """``Park v. Kim, 91 F.4th 610, 2d Cir. 2024.``: a court and year written without parentheses.

    Read only when the words name a court courts-db knows *and* a year, and the citation sentence,
    clause or parenthetical ends right after them, so that prose after a citation is never taken for a
    court.
    """
    m = _BARE_COURT_DATE.match(norm, d.after)
    if m is None:
        return
    cd = parse_court_date(m["inner"])
    if cd is None or cd.court is None or cd.year is None:
        return
    d.court, d.court_text, d.year, d.date = cd.court, cd.court_text, cd.year, cd.date
    d.date_span = Span(m.start("inner"), m.end("inner"))
    d.after = m.end("inner")
    d.full = d.full.union(d.date_span)


def _georgia_parallel(norm: str, d: _Draft, parens: list[Span], drafts: list[_Draft]) -> list[Span]:
    """Georgia style ``Harper v. State, 286 Ga. 216, 218 (1) (686 SE2d 786) (2009)``.

    ``(1)`` is the opinion's division (headnote) number, neither a court nor an explanatory
    parenthetical; the parenthetical that holds nothing but a citation (and its pin) is the parallel
    cite of the same case. Returns the parentheticals left for the court/date and explanatory ones;
    the parallel is remembered in ``d.inner_parallel`` for grouping.
    """
    k = 0
    while k < len(parens) and (_DIVISION if k == 0 else _SUBDIVISION).fullmatch(
        norm, parens[k].start, parens[k].end
    ):
        k += 1  # "(1)", "(2) (a)", "(3) (b) (ii)"
    if k >= len(parens):
        return parens
    p = parens[k]
    for j, o in enumerate(drafts):
        if o is d or o.form is not CiteForm.FULL or not (p.start < o.core.start and o.core.end < p.end):
            continue
        if _PAREN_OPEN.fullmatch(norm, p.start, o.core.start) and _PAREN_CLOSE.fullmatch(
            norm, o.after, p.end
        ):
            d.inner_parallel = j
            return parens[k + 1 :]
    return parens


def _history_phrase(
    norm: str, end: int, by_start: dict[int, int], drafts: list[_Draft]
) -> re.Match[str] | None:
    """The subsequent-history phrase at ``end`` (", aff'd, "), or one that runs up to the next citation with
    the treating case's name in it (", overruled on other grounds, Burks v. …, 437 U.S. 1")."""
    hm = HISTORY.match(norm, end)
    if hm is not None and hm.end() not in by_start:
        nxt = next((d.core.start for d in drafts if end < d.core.start <= end + 200), None)
        hm = HISTORY_TO.fullmatch(norm, end, nxt) if nxt is not None else None
    return hm


def _group_and_history(norm: str, text: str, drafts: list[_Draft]) -> None:
    """Parallel cites share a group and the last member's parentheticals; history extends the span."""
    by_start = {d.core.start: i for i, d in enumerate(drafts)}
    i = 0
    while i < len(drafts):
        d = drafts[i]
        if d.group != -1:
            i += 1
            continue
        members = _parallel_members(norm, drafts, i)
        j = members[-1]
        if j == i and d.inner_parallel is not None and drafts[d.inner_parallel].group == -1:
            _share_inner_parallel(d, drafts[d.inner_parallel], i)
        last = drafts[j]
        for k in members[:-1]:
            _take_court_date(drafts[k], last)
        end = _history(norm, text, drafts, by_start, members, last.paren_end)
        for mi in members:
            drafts[mi].full = Span(drafts[mi].full.start, max(drafts[mi].full.end, end))
        i = j + 1


def _parallel_members(norm: str, drafts: list[_Draft], i: int) -> list[int]:
    """The citations from ``i`` on that are parallel cites of one case (a comma or, California's, a bracket
    between them), each given group ``i``."""
    drafts[i].group = i
    members = [i]
    j = i
    while (
        j + 1 < len(drafts)
        and drafts[j].form in (CiteForm.FULL, CiteForm.UNRECOGNISED)
        and drafts[j + 1].form in (CiteForm.FULL, CiteForm.UNRECOGNISED)
        and drafts[j].paren_end == drafts[j].after
        and (
            _COMMA.fullmatch(norm, drafts[j].after, drafts[j + 1].core.start)
            # California: "173 Cal.App.4th 655, 660 [92 Cal.Rptr.3d 784]"
            or _BRACKET_OPEN.fullmatch(norm, drafts[j].after, drafts[j + 1].core.start)
        )
    ):
        j += 1
        drafts[j].group = i
        members.append(j)
    return members


def _share_inner_parallel(d: _Draft, pm: _Draft, i: int) -> None:
    """Georgia: "286 Ga. 216, 218 (1) (686 SE2d 786) (2009)": the parallel shares the group."""
    pm.group = i
    pm.court = (d.court if d.court_text else None) or pm.court  # not a court the reporter implies
    pm.court_text, pm.year, pm.date, pm.date_span = d.court_text, d.year, d.date, d.date_span
    pm.parens = list(d.parens)


def _take_court_date(m: _Draft, last: _Draft) -> None:
    """A parallel cite takes the court, date and parentheticals written after the group's last member."""
    m.court = last.court or m.court
    m.court_text, m.year, m.date, m.date_span = last.court_text, last.year, last.date, last.date_span
    m.parens = list(last.parens)


def _history(
    norm: str, text: str, drafts: list[_Draft], by_start: dict[int, int], members: list[int], end: int
) -> int:
    """Subsequent history after a group (", aff'd, 391 F.3d 250 (2004)"): each phrase recorded on the
    members, the treating citations marked nested; where the group's citation now ends."""
    while True:
        hm = _history_phrase(norm, end, by_start, drafts)
        if not hm or hm.end() not in by_start:
            return end
        k = by_start[hm.end()]
        hd = drafts[k]
        if hd.form is not CiteForm.FULL:
            return end
        hd.nested = True
        kk = k
        while (
            kk + 1 < len(drafts)
            and drafts[kk + 1].group == -1
            and drafts[kk].paren_end == drafts[kk].after
            and _COMMA.fullmatch(norm, drafts[kk].after, drafts[kk + 1].core.start)
        ):
            kk += 1
        for mi in members:
            drafts[mi].history.append(" ".join(text[hm.start("phrase") : hd.core.end].split()))
        end = drafts[kk].paren_end


def _names(norm: str, text: str, drafts: list[_Draft]) -> None:
    floor = 0
    for i, d in enumerate(drafts):
        if d.form in (CiteForm.FULL, CiteForm.UNRECOGNISED) and d.group == i:
            # floor: end of the previous citation's core/pin (a nested citation may sit inside a parenthetical)
            end = _before_cite(norm, text, drafts, i, floor, d.core.start)
            name = case_name_at(norm, text, floor, end)
            if name is not None and _database_short_form(norm, d, name, drafts, i):
                d.form, d.antecedent_text = CiteForm.SHORT, name.text
                d.span = d.full = Span(name.span.start, max(d.after, d.span.end))
            elif name is not None:
                members = [m for m in drafts if m.group == i]
                for m in members:
                    m.case_name = name
                    m.full = m.full.union(name.span)
        floor = max(floor, d.after)


def _reporters_by_year(drafts: list[_Draft]) -> None:
    """``1 P.R. 1 (1831)``: of the reporters an ambiguous abbreviation may be, the one published that year."""
    for d in drafts:
        if d.hit is not None and d.hit.candidates and d.year is not None:
            year = d.year
            fits = {
                n for n, a, b in d.hit.candidates if (a is None or a <= year) and (b is None or year <= b)
            }
            if len(fits) == 1:
                d.reporter = fits.pop()


def _parallel_short_names(norm: str, drafts: list[_Draft]) -> None:
    """``(Newbold, 105 Idaho at 667, 672 P2d at 235)``: a parallel short form shares the name before it."""
    for k in range(1, len(drafts)):
        d, prev = drafts[k], drafts[k - 1]
        if (
            d.form is CiteForm.SHORT
            and d.antecedent_text is None
            and prev.form is CiteForm.SHORT
            and _COMMA.fullmatch(norm, prev.span.end, d.span.start)
        ):
            d.antecedent_text = prev.antecedent_text


def _database_short_form(norm: str, d: _Draft, name: CaseName, drafts: list[_Draft], i: int) -> bool:
    """``Henson, 2008 WL 123456, at *2``: Westlaw's and Lexis's short form repeats the whole cite.

    It has one party's name, a pin and no court/date parenthetical (a full WL cite has both parties and
    the court and date); the document pass resolves it to the full cite with the same number. A name
    the scan stopped at a comma (``…, S.C., Wachn, LCC, 2015 WL 2375225``) may be the tail of a longer
    one: that stays a full citation.
    """
    before = norm[: name.span.start].rstrip()
    return (
        not before.endswith(",")
        and d.database is not None
        and d.form is CiteForm.FULL
        and d.pincite is not None
        and d.date_span is None
        and not d.parens
        and name.plaintiff is None
        and name.defendant is None
        and not any(m.group == i for j, m in enumerate(drafts) if j != i)
    )


def _before_cite(norm: str, text: str, drafts: list[_Draft], i: int, floor: int, end: int) -> int:
    """Where the case name ends, stepping back over what real styles put between it and the citation.

    - a court/date parenthetical: California ``In re K.F. (2009) 173 Cal.App.4th 655``, and the
      parenthetical-first style ``Grant v. Esquire, Inc. (S.D.N.Y. 1973) 367 F.Supp. 876`` (it becomes
      the citation's court and date when the citation has none after it);
    - Louisiana's public-domain docket and page: ``State v. Vanner, 95-0754, p. 3 (La.App. 1 Cir.
      12/15/95), 669 So.2d 463``;
    - a blank placeholder citation: ``Bean v. State, — Nev. —, 398 P. 2d 251``, ``(2018) __ U.S. __
      [138 S.Ct. 1612]``;
    - the opening bracket or parenthesis of a citation set off in it: ``Rogers v Rogers (63 NY2d 582
      [1984])``.
    """
    members = [m for m in drafts if m.group == i]
    for _ in range(6):
        start = max(floor, end - 80)
        # each regex below ends "…X\s*$" (or "…X\s*,?\s*$"): searched (at every position of the 80
        # characters) only when the text before ``end`` ends so
        written = text[start:end].rstrip()
        read = norm[start:end].rstrip()
        # the original text: Markdown-emphasis blanking turned a "__" placeholder into spaces in norm
        m = _OPENER_BEFORE.search(text, start, end) if written[-1:] in ("(", "[") else None
        if m is None and written.rstrip(",").rstrip()[-1:] in _BLANK_DASHES:
            m = _BLANK_BEFORE.search(text, start, end)
        if m is not None:
            end = m.start()
            continue
        if read[-1:].isdecimal():
            m = _LA_DOCKET_BEFORE.search(norm, start, end) or _STAR_BEFORE.search(norm, start, end)
            if m is not None:
                end = m.start()
                continue
        if not read.rstrip(",").rstrip().endswith(")"):
            break
        m = _COURT_DATE_BEFORE.search(norm, start, end)
        if m is not None:
            cd = parse_court_date(m["inner"])
            if cd is None or (cd.year is None and cd.court is None):
                break
            if all(x.date_span is None for x in members):
                for x in members:
                    x.year, x.date = cd.year, cd.date
                    if cd.court:
                        x.court, x.court_text = cd.court, cd.court_text
                    x.date_span = Span(m.start("open"), m.end("close"))
                    x.full = x.full.union(x.date_span)
            end = m.start("open")
            continue
        break
    return end


_BRACKET_OPEN = re.compile(r"\s*\[\s*")
_BLANK_PARALLEL = re.compile(r",\s*[-_]{2,}\s+[A-Z][\w. ]{0,20}?\s+[-_]{2,}(?=\s*[(,;.])")
#: A name a citation is to be called by later: one to three capitalised words, nothing else.
_DESIGNATION = re.compile(r"\(\s*(?:hereinafter\s+)?[A-Z][\w'&.-]*(?:\s+[A-Z][\w'&.-]*){0,2}\s*\)")
_YEAR_LIKE = re.compile(r"\(\s*(?:1[6-9]|20)[\d\u00b2\u00b3\u00b9\u2070-\u2079]{2}\s*\)")
_VOLUME_BEFORE_STAR = re.compile(r"(?<![\w.])(?P<volume>[1-9]\d{0,3})\s+\*$")
_STAR_BEFORE = re.compile(r"\s*\*\d+\s*$")
_BARE_COURT_DATE = re.compile(
    r",\s*(?P<inner>[A-Z0-9][^,;:()\[\]\"\n]{1,40}?\s(?:1[6-9]|20)\d{2})(?=[.;)]?\s*$|[.;)]\s|\)[.;,])"
)
_DIVISION = re.compile(r"\(\s*\d{1,2}\s*(?:\([a-z]\)\s*)?\)")
_SUBDIVISION = re.compile(r"\(\s*(?:\d{1,2}|[a-z]|[ivx]{1,4})\s*\)")
_PAREN_OPEN = re.compile(r"\(\s*")
_PAREN_CLOSE = re.compile(r"\s*\)")
_OPENER_BEFORE = re.compile(r"(?<=\S)\s*[(\[]\s*$")
_BLANK_BEFORE = re.compile(
    r"(?:,\s*)?(?:[-_\u2013\u2014]{1,}\s+[A-Z][\w. ]{0,20}?\s+[-_\u2013\u2014]{1,})\s*,?\s*$"
)
_BLANK_DASHES = ("-", "_", "\u2013", "\u2014")
_LA_DOCKET_BEFORE = re.compile(r",\s*\d{2,4}-[A-Z]{0,4}-?\d{1,6}(?:,\s*pp?\.\s*\d+)?\s*$")
_COURT_DATE_BEFORE = re.compile(r"(?P<open>\()(?P<inner>[^()]{1,60})(?P<close>\))\s*,?\s*$")


def _sentence_of(sents: list[tuple[int, int]], pos: int) -> int | None:
    for i, (s, e) in enumerate(sents):
        if s <= pos < e or (i == len(sents) - 1 and pos >= s):
            return i
        if pos < s:
            return max(0, i - 1) if i else 0
    return None


def _is_signal(word: str) -> bool:
    low = word.lower()
    return low in SIGNALS or low.strip(",.;:()*_") in SIGNALS


def _only_citations(norm: str, sent: tuple[int, int], ordered: list[tuple[int, int]]) -> bool:
    """Whether the sentence holds nothing but citations (``ordered``: the protected extents, sorted)."""
    s, e = sent
    # the sentence with the protected extents blanked, read piece by piece: a blank separates the words of
    # the pieces either side of it, so each piece's words are read alone, and the first piece with a
    # word of prose decides (most sentences of prose: decided at their first word). The extents in order
    # of their start, cut to the sentence, are in order of their cut start (ties, cut at the sentence's
    # start, in any order: each only moves ``pos`` to its end)
    pos = s
    for a, b in ordered:
        if a >= e:
            break
        if a >= b or b <= s:
            continue
        lo, hi = (a if a > s else s), (b if b < e else e)
        if hi <= pos:
            continue
        if lo > pos and _has_prose(norm, pos, lo):
            return False
        pos = hi
    return not _has_prose(norm, pos, e)


def _has_prose(norm: str, start: int, end: int) -> bool:
    """A word of ``norm[start:end]`` with a letter that is no signal: what makes a sentence more than
    citations. The words (``str.split``'s) read one at a time: in prose the first decides."""
    for m in _NON_SPACE.finditer(norm, start, end):
        word = m.group()
        if _LETTER.search(word) and not _is_signal(word):
            return True
    return False


def _first_in_sentence(drafts: list[_Draft], sents: list[tuple[int, int]], si: int) -> int:
    s, e = sents[si]
    for i, d in enumerate(drafts):
        if s <= d.span.start < e:
            return i
    return -1


def _inside_any(span: Span, drafts: list[_Draft], skip: _Draft | None = None) -> bool:
    return any(o is not skip and o.full.start <= span.start and span.end <= o.full.end for o in drafts)


def _quotes_for(
    norm: str,
    d: _Draft,
    drafts: list[_Draft],
    quotes: list[Quote],
    sents: list[tuple[int, int]],
    si: int | None,
    prop_i: int | None,
) -> tuple[Quote, ...]:
    if not quotes:
        return ()  # most paragraphs quote nothing: none of the passes below could find one
    out: list[Quote] = []
    own = _own_quote(d, drafts, quotes, norm)
    if own is not None:
        return (own,)
    if si is not None:
        if prop_i is not None and prop_i >= 0 and prop_i != si:
            ps, pe = sents[prop_i]
            out.extend(
                q
                for q in quotes
                if ps <= q.span.start and q.span.end <= pe and not _inside_any(q.span, drafts)
            )
        out.extend(_quotes_before(norm, d, drafts, quotes, sents[si][0]))
    for p in d.parens:
        out.extend(q for q in quotes if p.span.start < q.span.start and q.span.end < p.span.end)
    return tuple(dict.fromkeys(out))  # a quotation both in the proposition and right before: once


def _quotes_before(norm: str, d: _Draft, drafts: list[_Draft], quotes: list[Quote], s0: int) -> list[Quote]:
    """The quotations of the citation's sentence (from ``s0``, or just before the citation) before it, and
    after the citation before it in that sentence where there is one."""
    before = [
        q
        for q in quotes
        if (s0 <= q.span.start or _just_before(norm, q, d))
        and q.span.end <= d.full.start
        and not _inside_any(q.span, drafts)
    ]
    prev_ends = [
        o.full.end for o in drafts if o is not d and s0 <= o.full.end <= d.full.start and not o.nested
    ]
    if prev_ends and before:
        last = max(prev_ends)
        after_prev = [q for q in before if q.span.start >= last]
        if after_prev:
            before = after_prev
    return before


def _inner(q: Quote) -> tuple[int, int]:
    """The part of a quotation whose periods end no sentence: up to its last character, less any
    closing inner quote or bracket (``… preclusion.'``), so its final period still may."""
    end = q.span.end
    while end > q.span.start + 1 and q.text[end - q.span.start - 1] in "'\")]":
        end -= 1
    return q.span.start, end


#: What may stand between a quotation's last word and the citation it is offered for: the closing
#: mark, punctuation and a signal ("… preclusion.'\" Santiago-Diaz v. …", "… so.\" See Roe, …").
_QUOTE_TO_CITE = re.compile(
    r"""[\s"'.,;:()\[\]]*(?:(?:see|accord|cf\.|but|also|e\.g\.|,)\s*)*"""
    r"""(?:Syl(?:labus)?\.?\s+(?:Pt\.|Point)\s+\d+,\s*)?""",  # West Virginia: "Syllabus Point 1, Nelson v. …"
    re.I,
)
_GAP_WORD = re.compile(r"[^\s\"'()\[\].,;:]+")


def _just_before(norm: str, q: Quote, d: _Draft) -> bool:
    """The quotation ends right before the citation: only its closing mark, a signal and words a case
    name is made of between (the name may be one the scan read short).

    Binds it across a sentence end the splitter saw (``… preclusion.'" Santiago-Diaz v. Laboratorio
    …, 456 F.3d 272 (quoting …); see Fed. R. Civ. P. 37(c)(1).``, whose own sentence holds words).
    """
    if q.span.end > d.full.start or d.full.start - q.span.end > 160:
        return False
    m = _QUOTE_TO_CITE.match(norm, q.span.end, d.full.start)
    if m is None:
        return False
    words = _GAP_WORD.findall(norm, m.end(), d.full.start)
    return (
        len(words) <= 12
        and all(_name_word(w) for w in words)
        and not _RECORD.search(norm, m.end(), d.full.start)
    )


def _name_word(word: str) -> bool:
    return word[:1].isupper() or word[:1].isdigit() or word.lower() in CONNECTORS or word in ("&", "-")


def _own_quote(d: _Draft, drafts: list[_Draft], quotes: list[Quote], norm: str) -> Quote | None:
    """A quotation that ends with its own citation: ``"… the claim fails. Smith, 1 F.3d at 3."``.

    The closing mark was put after the citation; what the citation is offered for is the quotation
    up to where the citation (its name) begins.
    """
    for q in quotes:
        if not (q.span.start < d.full.start and d.span.end <= q.span.end):
            continue
        if norm[d.full.end : q.span.end].strip(" .,;)") or any(
            o is not d and o.group != d.group and q.span.start < o.span.start < d.full.start for o in drafts
        ):
            return None  # words after the citation, or another citation inside: an ordinary quotation
        cut = d.full.start
        while cut > q.span.start and norm[cut - 1] in " ,;":
            cut -= 1
        if cut - q.span.start < 10:
            return None
        return Quote(text=q.text[: cut - q.span.start], span=Span(q.span.start, cut), block=q.block)
    return None


def _reference_candidates(
    norm: str, text: str, drafts: list[_Draft], sents: list[tuple[int, int]], stops: frozenset[int]
) -> tuple[RefCandidate, ...]:
    if " at " not in norm and " p." not in norm:  # "Roe at 116", "Angelopoulos p. *4"
        return ()
    out: list[RefCandidate] = []
    for first in (m for bounds in _reference_windows(norm) for m in _REFERENCE.finditer(norm, *bounds)):
        m: re.Match[str] | None = first
        while m is not None and any(o.span.start < m.end() and m.start() < o.span.end for o in drafts):
            # "Id. In Mancari at 665": the name read from "Id." overlaps the Id.; read it from a later word
            word = _NONSPACE.match(norm, m.start())
            nxt = _NONSPACE.search(norm, word.end(), m.end("name")) if word is not None else None
            m = _REFERENCE.match(norm, nxt.start()) if nxt is not None else None
        if m is None:
            continue
        if _GENERIC_PARTY.fullmatch(norm, m.start("name"), m.end("name")):
            continue  # "the United States at 1776": a government party names no one case
        pin, _ = parse_pincite(norm, m.end(), len(norm), original=text, stops=stops)
        if pin is None:
            continue
        words = tuple((w.start(), w.end()) for w in _NONSPACE.finditer(norm, m.start("name"), m.end("name")))
        if not words:
            continue
        si = _sentence_of(sents, m.start())
        out.append(
            RefCandidate(words=words, name_end=m.end("name"), pincite=pin, sentence=-1 if si is None else si)
        )
    return tuple(out)


#: what ends every _REFERENCE match, and the number after it: "… at *5", "… p. 3"
_REFERENCE_TAIL = re.compile(r"\s(?:at\s+|pp?\.\s*)\*?\d")


#: four times whitespace then a word, all optional (``\\s`` is ``str.isspace``'s whitespace): what
#: ``_reference_windows`` steps back over, read in the reversed paragraph (it always matches)
_FOUR_WORDS = re.compile(r"\s*\S*\s*\S*\s*\S*\s*\S*")


def _reference_windows(norm: str) -> list[tuple[int, int]]:
    """Where ``_REFERENCE`` matches can lie, in order: for each tail (every match ends in one), from the
    fourth word before it (a match's name is at most four words, the first maybe cut, the tail right
    after them) to the tail's number (which the match's lookahead reads); overlapping ones merged, so a
    match lies inside one. ``_REFERENCE`` searched in each finds what it finds in the whole paragraph
    (its lookbehind still sees before the window; no match starts between windows)."""
    windows: list[tuple[int, int]] = []
    backwards = ""
    n = len(norm)
    for m in _REFERENCE_TAIL.finditer(norm):
        # back over four runs of whitespace, each with the word before it: in the reversed paragraph, forwards
        backwards = backwards or norm[::-1]
        step = _FOUR_WORDS.match(backwards, n - m.start())  # always a match (every part optional)
        i = n - step.end() if step is not None else m.start()
        if windows and i <= windows[-1][1]:
            windows[-1] = (windows[-1][0], m.end())
        else:
            windows.append((i, m.end()))
    return windows


def _ref_context(
    r: RefCandidate, sents: list[tuple[int, int]], only: list[bool], quotes: list[Quote], drafts: list[_Draft]
) -> tuple[Span | None, tuple[Quote, ...], bool]:
    """(proposition span, quotes, needs_prev) for a reference candidate, like any other citation."""
    if r.sentence < 0:
        return None, (), False
    s0 = sents[r.sentence][0]
    qs = tuple(
        q
        for q in quotes
        if s0 <= q.span.start and q.span.end <= r.words[0][0] and not _inside_any(q.span, drafts)
    )
    return Span(*sents[r.sentence]), qs, False
