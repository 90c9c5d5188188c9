"""Stage one of ``citecheck treatment build``: what opinions and parentheticals say, before any lookup.

Pure and shardable: ``scan_opinions(rows)`` and ``scan_parentheticals(rows)`` turn a shard of bulk-file
rows into ``Candidate``s (citation keys, never records) and ``ScanStats``; shards are scanned anywhere
(worker processes here, Ray workers in ``citecheck batch``) and their results concatenated. Stage two
(``build.resolve``) looks the keys up in the citation index.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field

from citecheck.extract import extract_citations
from citecheck.extract.models import Citation, CiteForm, Extraction
from citecheck.sources.models import CiteKey
from citecheck.sources.pagination import opinion_text
from citecheck.treatment.language import has_cue, statements
from citecheck.treatment.models import Basis, TreatmentKind

#: CourtListener's best-text order (``bulk_import.TEXT_FIELDS``): the first non-empty field is read.
TEXT_FIELDS = (
    "html_with_citations",
    "xml_harvard",
    "html_columbia",
    "html_lawbox",
    "html_anon_2020",
    "html",
    "plain_text",
)
OPINION_COLUMNS = ("id", "cluster_id", "type", *TEXT_FIELDS)
PARENTHETICAL_COLUMNS = ("id", "text", "described_opinion_id", "describing_opinion_id")
#: A text longer than this is read only in its first part (a pathological row must not stall a worker).
MAX_TEXT = 3_000_000
MAX_QUOTE = 600
#: Reading rules that infer who did it from a sentence's shape (a subject, a past tense, a participle, no
#: named case): ``treatment build --confirm`` asks the model endpoint about these.
AMBIGUOUS_FORMS = frozenset({"reported", "subject", "court-past", "self-past", "participle"})
#: A cheap first sieve over the raw field: a word stem of some cue (the cue itself is looked for in the text).
_RAW_CUE = re.compile(r"overrul|over-rul|abrogat|disapprov|reced|supersed|good\s+law", re.I)


@dataclass(frozen=True, slots=True, kw_only=True)
class Party:
    """A case a candidate names: its citation keys as written (a parallel group), its name as written."""

    keys: tuple[CiteKey, ...]
    name: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class Candidate:
    """One statement of negative treatment, still in citation keys and CourtListener ids.

    ``target`` is the case treated. The treating case is ``actor`` (named in the words), or the citing
    opinion's own cluster (``by_self``), or, for a parenthetical, the described opinion
    (``actor_opinion``); none of them: unknown. ``cluster`` and ``opinion`` are the citing opinion's."""

    target: Party | None
    actor: Party | None
    by_self: bool
    kind: TreatmentKind
    whole: bool
    basis: Basis
    quote: str
    cluster: int | None  # the cluster of the opinion the words are in (None: not yet known)
    opinion: int  # the opinion the words are in
    target_opinion: int | None = None  # a parenthetical's described opinion, when it is the target
    actor_opinion: int | None = None  # a parenthetical's described opinion, when it is the actor
    form: str = "parenthetical"  # the reading rule (``language.Statement.form``); see ``AMBIGUOUS_FORMS``

    @property
    def ambiguous(self) -> bool:
        """Read by a rule that infers more than a history phrase or "we overrule" says: worth a model's look."""
        return self.form in AMBIGUOUS_FORMS


@dataclass
class ScanStats:
    opinions: int = 0
    with_cue: int = 0
    statements: int = 0
    parentheticals: int = 0
    refused: Counter[str] = field(default_factory=Counter)

    def add(self, other: ScanStats) -> None:
        self.opinions += other.opinions
        self.with_cue += other.with_cue
        self.statements += other.statements
        self.parentheticals += other.parentheticals
        self.refused.update(other.refused)


@dataclass
class ScanResult:
    candidates: list[Candidate] = field(default_factory=list)
    stats: ScanStats = field(default_factory=ScanStats)


def _int(value: str) -> int | None:
    return int(value) if value.isascii() and value.isdigit() and len(value) < 14 else None


def _party(extraction: Extraction, index: int) -> Party:
    """Every key of the case ``index`` stands for: its group's parallel citations, and the same case's
    other full citations in the text (the target of a statement is that case however it was cited)."""
    head = extraction.citations[index]
    keys: dict[CiteKey, None] = {}
    for c in _group(extraction, head):
        if c.key is not None:
            keys[CiteKey(*c.key)] = None
    return Party(keys=tuple(keys), name=head.case_name.text if head.case_name else None)


def _group(extraction: Extraction, head: Citation) -> list[Citation]:
    g = head.group if head.group is not None else head.index
    return [
        c
        for c in extraction.citations
        if c.form is CiteForm.FULL and (c.group if c.group is not None else c.index) == g
    ]


def quote_of(text: str, start: int, end: int, cue: int) -> str:
    """The sentence ``[start, end)``, whitespace folded, cut to ``MAX_QUOTE`` characters around ``cue``."""
    if end - start > MAX_QUOTE:
        lo = max(start, min(cue - MAX_QUOTE // 2, end - MAX_QUOTE))
        s = " ".join(text[lo : lo + MAX_QUOTE].split())
        return ("… " if lo > start else "") + s + (" …" if lo + MAX_QUOTE < end else "")
    return " ".join(text[start:end].split())


def scan_text(
    text: str, *, opinion: int, cluster: int | None, opinion_type: str | None = None
) -> list[Candidate]:
    """The candidates of one opinion's text (empty when it states no negative treatment)."""
    if not has_cue(text):
        return []
    extraction = extract_citations(text)
    out = []
    for st in statements(text, extraction, opinion_type=opinion_type):
        actor = _party(extraction, st.actor) if st.actor is not None else None
        if st.by_self:
            basis = Basis.OWN_WORDS
        else:
            basis = Basis.REPORTED
        out.append(
            Candidate(
                target=_party(extraction, st.target),
                actor=actor,
                by_self=st.by_self,
                kind=st.kind,
                whole=st.whole,
                basis=basis,
                quote=quote_of(text, st.sentence.start, st.sentence.end, st.cue.start),
                cluster=cluster,
                opinion=opinion,
                form=st.form,
            )
        )
    return out


def best_text(row: dict[str, str]) -> tuple[str, str]:
    for name in TEXT_FIELDS:
        value = row.get(name)
        if value and value.strip():
            return name, value
    return "plain_text", ""


def scan_opinions(rows: Iterable[tuple[str, ...]], columns: tuple[str, ...] = OPINION_COLUMNS) -> ScanResult:
    """Scan a shard of ``opinions`` rows (tuples in ``columns`` order): pure, no lookups."""
    result = ScanResult()
    stats = result.stats
    for values in rows:
        row = dict(zip(columns, values, strict=False))
        stats.opinions += 1
        oid, cluster = _int(row.get("id", "")), _int(row.get("cluster_id", ""))
        if oid is None or cluster is None:
            stats.refused["an opinion row without a numeric id and cluster_id"] += 1
            continue
        name, raw = best_text(row)
        if not raw or not _RAW_CUE.search(raw):
            continue
        text = opinion_text(name, raw[:MAX_TEXT]).text
        if not has_cue(text):  # the markup may split a cue ("no <span>*255</span> longer good law")
            continue
        stats.with_cue += 1
        found = scan_text(text, opinion=oid, cluster=cluster, opinion_type=row.get("type") or None)
        stats.statements += len(found)
        result.candidates.extend(found)
    return result


# ---------------------------------------------------------------------------------------- parentheticals
#: "(overruling Smith v. Jones, 1 F.3d 2)": the described opinion treats what the parenthetical cites.
_PAREN_ACTIVE = re.compile(
    r"^\s*(?:(?:and|also|thereby|expressly|explicitly|partially)\s+)*(?P<verb>overruling|abrogating|"
    r"disapproving(?:\s+of)?|receding\s+from)\b",
    re.I,
)
#: "(overruled by Doe, 3 F.3d 4)": the described opinion was treated by what the parenthetical cites.
_PAREN_PASSIVE = re.compile(
    r"^\s*(?:(?:and|also|since|later|subsequently)\s+)*(?P<verb>overruled|abrogated|disapproved|superseded)"
    r"(?P<scope>(?:\s+(?:in\s+part|on\s+other\s+grounds|by\s+statute|in\s+other\s+respects))*)\s*"
    r"(?:,\s*)?(?:by|in|as\s+(?:stated|recognized)\s+in)\b",
    re.I,
)
_PAREN_HEDGE = re.compile(r"\b(?:not|never|declin\w*|refus\w*|would|whether|implicitly|effectively|"
                          r"arguably|to\s+consider)\b", re.I)  # fmt: skip
_VERB_KIND = {"overrul": TreatmentKind.OVERRULED, "abrogat": TreatmentKind.ABROGATED,
              "disappro": TreatmentKind.DISAPPROVED, "reced": TreatmentKind.RECEDED,
              "supersed": TreatmentKind.SUPERSEDED}  # fmt: skip
_PARTIAL = re.compile(
    r"\b(?:in\s+part|on\s+other\s+grounds|to\s+the\s+extent|insofar|partially|in\s+other\s+respects)\b", re.I
)


def _verb_kind(verb: str) -> TreatmentKind:
    low = verb.lower()
    return next(k for stem, k in _VERB_KIND.items() if low.startswith(stem))


def scan_parenthetical(text: str, *, parenthetical: int, described: int, describing: int) -> list[Candidate]:
    """A CourtListener parenthetical's treatment: ``overruling X`` (the described opinion treats X) or
    ``overruled by X`` (X treats the described opinion); X must be a citation in the parenthetical."""
    text = text.strip()
    active = _PAREN_ACTIVE.match(text)
    passive = None if active else _PAREN_PASSIVE.match(text)
    m = active or passive
    if m is None or _PAREN_HEDGE.search(text[: m.end() + 40]):
        return []
    extraction = extract_citations(text)
    fulls = [
        c
        for c in extraction.citations
        if c.form is CiteForm.FULL and c.key is not None and c.span.start >= m.end()
    ]
    if not fulls:
        return []
    first = fulls[0]
    named = _party(extraction, first.group if first.group is not None else first.index)
    kind = _verb_kind(m.group("verb"))
    whole = not _PARTIAL.search(text[: first.span.start])
    quote = quote_of(text, 0, len(text), 0)
    if active:
        return [Candidate(target=named, actor=None, by_self=False, kind=kind, whole=whole, basis=Basis.PARENTHETICAL,
                          quote=quote, cluster=None, opinion=describing, actor_opinion=described)]  # fmt: skip
    return [Candidate(target=None, actor=named, by_self=False, kind=kind, whole=whole, basis=Basis.PARENTHETICAL,
                      quote=quote, cluster=None, opinion=describing, target_opinion=described)]  # fmt: skip


def scan_parentheticals(
    rows: Iterable[tuple[str, ...]], columns: tuple[str, ...] = PARENTHETICAL_COLUMNS
) -> ScanResult:
    """Scan a shard of ``parentheticals`` rows (id, text, described_opinion_id, describing_opinion_id)."""
    result = ScanResult()
    for values in rows:
        row = dict(zip(columns, values, strict=False))
        result.stats.parentheticals += 1
        pid, described, describing = (
            _int(row.get(c, "")) for c in PARENTHETICAL_COLUMNS[:1] + PARENTHETICAL_COLUMNS[2:]
        )
        text = row.get("text", "")
        if pid is None or described is None or describing is None:
            result.stats.refused["a parenthetical row without numeric ids"] += 1
            continue
        if not has_cue(text):
            continue
        found = scan_parenthetical(text, parenthetical=pid, described=described, describing=describing)
        result.stats.statements += len(found)
        result.candidates.extend(found)
    return result


__all__ = [
    "OPINION_COLUMNS",
    "PARENTHETICAL_COLUMNS",
    "TEXT_FIELDS",
    "Candidate",
    "Party",
    "ScanResult",
    "ScanStats",
    "quote_of",
    "scan_opinions",
    "scan_parenthetical",
    "scan_parentheticals",
    "scan_text",
]
