"""Build an evaluation set from corpus cases: real quotes, right cites and pins, half with one injected error; pure.

Each excerpt quotes a sentence of a real opinion and cites its case with the pin cite of the page the
sentence is on (per the opinion's page map). Half of them get exactly one error, rotating through:

* ``nonexistent-case`` — a reporter series that does not exist, a volume past the end of a series,
  a page no volume reaches, or a first page inside the case (the draft cites its middle);
* ``name-mismatch`` — the name of another corpus case (only one that really is a different name);
* ``wrong-pincite`` — a pin outside the case's pages, or another page inside it;
* ``misquote`` — one or two words of the quote replaced by synonyms.

Clean excerpts citing real cases that are *not* in the corpus (LegalCiteBench tuples) are added; a
checker must not flag them. The output lines follow the LePhantomCite format (``text``,
``hallucinations``: {span: type}) plus ``id``, ``injected`` and ``case`` for diagnosis.
"""

from __future__ import annotations

import random
import re
from collections.abc import Sequence
from dataclasses import dataclass

from citecheck import reporters as reporter_limits
from citecheck.checks.name_match import NameVerdict, compare_names
from citecheck.checks.quote_match import NEGATIONS, normalise_word
from citecheck.checks.quotes import format_pages
from citecheck.sources.models import CaseCite, CaseRecord, OpinionText, PageMap

ERROR_TYPES = ("nonexistent-case", "name-mismatch", "wrong-pincite", "misquote")

#: Plain synonyms for words common in opinions; replacing one changes the quote but not its sense.
SYNONYMS: dict[str, str] = {
    "court": "tribunal",
    "held": "concluded",
    "must": "shall",
    "may": "can",
    "evidence": "proof",
    "trial": "hearing",
    "defendant": "accused",
    "plaintiff": "claimant",
    "clearly": "plainly",
    "plainly": "clearly",
    "rule": "principle",
    "statute": "law",
    "because": "since",
    "however": "nevertheless",
    "finding": "conclusion",
    "order": "directive",
    "appeal": "challenge",
    "judgment": "decision",
    "claim": "assertion",
    "error": "mistake",
    "reasonable": "sensible",
    "require": "demand",
    "requires": "demands",
    "show": "demonstrate",
    "shows": "demonstrates",
    "motion": "request",
    "issue": "question",
    "question": "matter",
    "party": "litigant",
    "parties": "litigants",
    "record": "file",
    "decision": "ruling",
    "determine": "decide",
    "determined": "decided",
    "found": "determined",
    "case": "matter",
    "state": "government",
    "law": "statute",
    "right": "entitlement",
    "rights": "entitlements",
    "whether": "if",
    "also": "likewise",
    "argues": "contends",
    "argued": "contended",
    "contends": "argues",
    "asserts": "claims",
    "conclude": "decide",
    "concluded": "decided",
    "therefore": "thus",
    "thus": "therefore",
    "only": "solely",
    "under": "pursuant to",
    "prior": "earlier",
    "before": "prior to",
    "after": "following",
    "failed": "neglected",
    "provide": "supply",
    "provides": "supplies",
    "provided": "supplied",
    "sufficient": "adequate",
    "insufficient": "inadequate",
    "violation": "breach",
    "obtain": "acquire",
    "begin": "commence",
    "began": "commenced",
    "end": "conclusion",
    "seek": "request",
    "seeks": "requests",
    "sought": "requested",
    "grant": "allow",
    "granted": "allowed",
    "denied": "refused",
    "deny": "refuse",
    "review": "examination",
    "agree": "concur",
    "because of": "owing to",
    "important": "significant",
    "entire": "whole",
    "additional": "further",
    "purpose": "aim",
    "intent": "intention",
    "similar": "comparable",
    "exclusions": "carve-outs",
    "carve-outs": "exclusions",
    "child": "minor",
    "children": "minors",
    "house": "residence",
    "home": "residence",
    "car": "automobile",
    "money": "funds",
    "pay": "remit",
    "paid": "remitted",
    "hearing": "proceeding",
    "testified": "stated",
    "testimony": "statement",
    "witness": "deponent",
    "officer": "official",
    "contract": "agreement",
    "property": "estate",
    "damages": "compensation",
    "award": "grant",
    "awarded": "granted",
}

_INTROS = (
    "The court explained that",
    "As the court put it,",
    "It is settled that",
    "The opinion states that",
    "Courts have recognised that",
    "On this point the court wrote that",
)
_PROPOSITIONS = (
    "Questions of statutory interpretation are reviewed de novo.",
    "A party may not raise an argument for the first time on appeal.",
    "The trial court has broad discretion over evidentiary rulings.",
    "Summary judgment is appropriate only when no genuine dispute of material fact exists.",
    "The burden of proof rests with the moving party.",
    "An agency's reasonable reading of its own rules receives deference.",
)
_ORDINALS = ("2d", "3d", "4th", "5th", "6th", "7th", "8th")
_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Z])")
_BAD_CHARS = re.compile(
    r"[\d\"“”\[\]()§*_/\\]|\bId\b|\bv\.|\bU\.S\.|\bSee\b|\bsupra\b|\bibid\b"
    r"|(?<![A-Za-z])['‘’]|['‘’](?![A-Za-z])",  # a quotation mark inside the sentence (not an apostrophe)
    re.I,
)


@dataclass(frozen=True, slots=True)
class _Span:
    start: int
    end: int


@dataclass(frozen=True, slots=True, kw_only=True)
class CaseSample:
    record: CaseRecord
    opinion: OpinionText


@dataclass(frozen=True, slots=True, kw_only=True)
class RealCase:
    """A real case we do not hold (LegalCiteBench tuple)."""

    name: str
    citation: str
    year: str


@dataclass(frozen=True, slots=True, kw_only=True)
class _Passage:
    text: str
    pages: tuple[str, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class _Usable:
    record: CaseRecord
    cite: CaseCite
    first: int
    last: int
    passages: tuple[_Passage, ...]
    name: str
    year: str


def real_case_from_json(obj: dict[str, object]) -> RealCase | None:
    """A LegalCiteBench line → RealCase with a Bluebook-ish short name ("Murray v. Midland Funding")."""
    name, cite, year = str(obj.get("case_name", "")), str(obj.get("citation", "")), str(obj.get("year", ""))
    if not (name and cite and year.isdigit()):
        return None
    parties = re.split(r"\s+v\.?\s+", name, maxsplit=1)
    cleaned = []
    for p in parties:
        p = p.split(",")[0].strip()
        p = " ".join(w.capitalize() if w.isupper() and len(w) > 1 else w for w in p.split())
        cleaned.append(p)
    return RealCase(name=" v. ".join(c for c in cleaned if c), citation=cite, year=year)


def _draft_name(record: CaseRecord) -> str:
    name = re.sub(r"\s*\([^)]*\)", "", record.name)
    return re.sub(r"\.\.+", ".", name).strip()


def _passages(opinion: OpinionText, pm: PageMap) -> tuple[_Passage, ...]:
    """Sentences that make good quotes: plain prose, 10–40 words, found once, on known pages."""
    text = opinion.text
    out = []
    head_end = pm.starts[0][0] if pm.first_page == pm.starts[0][1] and pm.starts else 0
    for para in text.split("\n"):
        for sent in _SENTENCE.split(para.strip()):
            sent = sent.strip()
            words = sent.split()
            if not (10 <= len(words) <= 40) or not sent.endswith(".") or _BAD_CHARS.search(sent):
                continue
            if sum(w[:1].isupper() for w in words) > len(words) // 3:
                continue  # captions, names of counsel
            body = sent[:-1]
            at = text.find(body)
            if at < head_end or at < 0 or text.find(body, at + 1) >= 0:
                continue
            loc = _Span(at, at + len(body))
            pages = pm.pages_between(loc.start, max(loc.start, loc.end - 1))
            if all(p.isdigit() for p in pages):
                out.append(_Passage(text=body, pages=pages))
    return tuple(out)


def _usable(sample: CaseSample) -> _Usable | None:
    rec, op = sample.record, sample.opinion
    if not rec.decision_date:
        return None
    best = None
    for cite in rec.citations:
        pm = op.page_map(cite.reporter, cite.volume)
        if pm is None or not pm.starts or not cite.page.isdigit():
            continue
        if not reporter_limits.is_known_reporter(cite.reporter):
            continue
        labels = [int(lbl) for _, lbl in pm.starts if lbl.isdigit()]
        first = int(cite.last_page) if cite.last_page and cite.last_page.isdigit() else int(cite.page)
        last = max(first, *labels)
        passages = _passages(op, pm)
        if passages and (best is None or len(passages) > len(best.passages)):
            best = _Usable(
                record=rec,
                cite=cite,
                first=int(cite.page),
                last=last,
                passages=passages,
                name=_draft_name(rec),
                year=rec.decision_date[:4],
            )
    return best


def _next_series(reporter: str) -> str | None:
    """A series of the reporter that does not exist ("A.3d" → "A. 4th"), spaced as lawyers write it."""
    m = re.match(r"^(.*?)\s*(2d|3d|4th|5th|6th|7th)$", reporter)
    base, cur = (m.group(1), m.group(2)) if m else (reporter, None)
    start = _ORDINALS.index(cur) + 1 if cur else 0
    for ordinal in _ORDINALS[start:]:
        cand = f"{base.strip()} {ordinal}"
        if not reporter_limits.is_known_reporter(cand):
            return cand
    return None


def _swap_words(quote: str, rng: random.Random) -> str | None:
    words = list(re.finditer(r"[A-Za-z][A-Za-z-]*", quote))
    cands = [m for m in words if m.group().lower() in SYNONYMS]
    if not cands:
        return None
    chosen = sorted(
        rng.sample(cands, min(len(cands), rng.choice((1, 2)))), key=lambda m: m.start(), reverse=True
    )
    out = quote
    for m in chosen:
        new = SYNONYMS[m.group().lower()]
        if m.group()[0].isupper():
            new = new[0].upper() + new[1:]
        out = out[: m.start()] + new + out[m.end() :]
    return out


def _styled(quote: str, rng: random.Random) -> str:
    """The quote as lawyers write it: sometimes with an omission (never of a negation) or an alteration."""
    words = quote.split()
    style = rng.random()
    if style < 0.2 and len(words) >= 16:
        i = rng.randint(4, len(words) - 10)
        j = i + rng.randint(3, min(12, len(words) - i - 4))
        omitted = {normalise_word(w.strip(".,;:")) for w in words[i:j]}
        if not omitted & NEGATIONS:
            return " ".join(words[:i]).rstrip(",;:") + " . . . " + " ".join(words[j:])
    elif style < 0.35 and words[0][:1].isupper() and words[0][1:].islower():
        return f"[{words[0][0].lower()}]{words[0][1:]} " + " ".join(words[1:])
    return quote


def _excerpt(
    u: _Usable,
    p: _Passage,
    rng: random.Random,
    *,
    name: str | None = None,
    quote: str | None = None,
    cite_core: str | None = None,
    pin: str | None = None,
    styled: bool = True,
) -> tuple[str, str]:
    """(excerpt text, citation core as written)."""
    core = cite_core or f"{u.cite.volume} {u.cite.reporter} {u.cite.page}"
    pin = pin or format_pages(p.pages)
    shown = quote or (_styled(p.text, rng) if styled else p.text)
    text = f'{rng.choice(_INTROS)} "{shown}." {name or u.name}, {core}, {pin} ({u.year}).'
    return text, core


def make_dataset(
    samples: Sequence[CaseSample],
    real_cases: Sequence[RealCase] = (),
    *,
    n: int = 200,
    seed: int = 0,
    error_share: float = 0.5,
    uncovered_share: float = 0.2,
) -> list[dict[str, object]]:
    """``n`` excerpts: about ``uncovered_share`` citing real cases we do not hold, the rest quoting corpus
    cases, ``error_share`` of those with one injected error (types rotate)."""
    rng = random.Random(seed)
    usable = [u for s in samples if (u := _usable(s)) is not None]
    if not usable:
        return []
    n_uncovered = int(n * uncovered_share) if real_cases else 0
    n_corpus = n - n_uncovered
    out: list[dict[str, object]] = []
    variants = {"nonexistent-case": 0, "wrong-pincite": 0}
    for i in range(n_corpus):
        u = usable[i % len(usable)]
        p = rng.choice(u.passages)
        inject = ERROR_TYPES[(i // 2) % len(ERROR_TYPES)] if rng.random() < error_share else None
        example = _inject(u, p, inject, usable, rng, variants) if inject else None
        if example is None:
            text, _ = _excerpt(u, p, rng)
            if rng.random() < 0.25 and len(u.passages) > 1:  # a second quote through "Id."
                p2 = rng.choice([q for q in u.passages if q is not p])
                text += f' It added that "{_styled(p2.text, rng)}." Id. at {format_pages(p2.pages)}.'
            example = {"text": text, "hallucinations": {}, "injected": None}
        if real_cases and rng.random() < 0.3:
            rc = rng.choice(real_cases)
            example["text"] = f"{example['text']} See also {rc.name}, {rc.citation} ({rc.year})."
        example.update(id=f"ex{i:04d}", case=u.record.id)
        out.append(example)
    for j in range(n_uncovered):
        rc = rng.choice(real_cases)
        text = f"{rng.choice(_PROPOSITIONS)} {rc.name}, {rc.citation} ({rc.year})."
        out.append({"id": f"un{j:04d}", "text": text, "hallucinations": {}, "injected": None, "case": None})
    rng.shuffle(out)
    return [
        {
            "id": e["id"],
            "text": e["text"],
            "hallucinations": e["hallucinations"],
            "injected": e["injected"],
            "case": e["case"],
        }
        for e in out
    ]


def _nonexistent(u: _Usable, v: int, rng: random.Random) -> str | None:
    """A citation of ``u``'s no case can have, the ``v``-th way round (the next that works on ``u``): a series
    that does not exist, a volume past the series' last, a page no volume reaches, a page inside ``u``."""
    cite = u.cite
    for attempt in range(4):
        which = (v + attempt) % 4
        if which == 0 and (fake := _next_series(cite.reporter)):
            return f"{cite.volume} {fake} {cite.page}"
        if which == 1 and cite.reporter in reporter_limits.MAX_VOLUME:
            return f"{reporter_limits.MAX_VOLUME[cite.reporter] + rng.randint(1, 400)} {cite.reporter} {cite.page}"
        if which == 2 and reporter_limits.page_problem(cite.reporter, "99999"):
            return f"{cite.volume} {cite.reporter} {rng.randint(20000, 89999)}"
        if which == 3 and u.last - u.first >= 2:
            return f"{cite.volume} {cite.reporter} {rng.randint(u.first + 1, u.last - 1)}"
    return None


def _inject(
    u: _Usable,
    p: _Passage,
    kind: str,
    usable: Sequence[_Usable],
    rng: random.Random,
    variants: dict[str, int],
) -> dict[str, object] | None:
    if kind == "nonexistent-case":
        v = variants["nonexistent-case"] = variants["nonexistent-case"] + 1
        core = _nonexistent(u, v, rng)
        if core is None:
            return None
        text, core = _excerpt(u, p, rng, cite_core=core)
        return {"text": text, "hallucinations": {core: kind}, "injected": kind}
    if kind == "name-mismatch":
        others = [
            o
            for o in usable
            if o.record.id != u.record.id
            and compare_names(o.name, u.record.names).verdict is NameVerdict.MISMATCH
        ]
        if not others:
            return None
        other = rng.choice(others)
        text, _ = _excerpt(u, p, rng, name=other.name)
        return {"text": text, "hallucinations": {other.name: kind}, "injected": kind}
    if kind == "wrong-pincite":
        v = variants["wrong-pincite"] = variants["wrong-pincite"] + 1
        inside = [pg for pg in range(u.first, u.last + 1) if str(pg) not in p.pages]
        if v % 2 == 0 and inside:
            pin = str(rng.choice(inside))
        elif u.first > 20 and rng.random() < 0.3:
            pin = str(u.first - rng.randint(2, 15))
        else:
            pin = str(u.last + rng.randint(2, 40))
        text, core = _excerpt(u, p, rng, pin=pin)
        return {"text": text, "hallucinations": {f"{core}, {pin}": kind}, "injected": kind}
    if kind == "misquote":
        altered = _swap_words(p.text, rng)
        if altered is None or altered == p.text:
            return None
        text, _ = _excerpt(u, p, rng, quote=altered)
        return {"text": text, "hallucinations": {altered: kind}, "injected": kind}
    return None
