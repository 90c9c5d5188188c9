"""Finding: what a check says about one citation, with its evidence and suggested fixes.

The vocabulary of finding kinds is closed and documented here; the same strings appear in CLI
output, JSON, SARIF, ``Diagnostic.code``, settings (enabled checks, severity overrides) and docs/.
This module is pure: no I/O.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from enum import StrEnum

from citecheck.spans import Span


class Severity(StrEnum):
    """error = confident it is wrong; warning = likely wrong; info = could not verify."""

    ERROR = "error"
    WARNING = "warning"
    INFO = "info"

    @property
    def rank(self) -> int:
        return {"error": 3, "warning": 2, "info": 1}[self.value]


class Kind(StrEnum):
    FABRICATED_CASE = "fabricated-case"
    WRONG_FIRST_PAGE = "wrong-first-page"
    IMPOSSIBLE_CITATION = "impossible-citation"
    NAME_MISMATCH = "name-mismatch"
    NAME_MISSPELLED = "name-misspelled"
    MISQUOTE = "misquote"
    PINCITE_OUT_OF_RANGE = "pincite-out-of-range"
    PINCITE_WRONG_PAGE = "pincite-wrong-page"
    PINCITE_UNVERIFIABLE = "pincite-unverifiable"
    MALFORMED_PINCITE = "malformed-pincite"
    YEAR_MISMATCH = "year-mismatch"
    COURT_MISMATCH = "court-mismatch"
    NON_BINDING_AUTHORITY = "non-binding-authority"
    UNSUPPORTED_HOLDING = "unsupported-holding"
    HOLDING_UNVERIFIED = "holding-unverified"
    UNRESOLVED_SHORT_FORM = "unresolved-short-form"
    CANNOT_VERIFY = "cannot-verify"
    STATUTE_NOT_CHECKED = "statute-not-checked"
    OPINION_UNAVAILABLE = "opinion-unavailable"
    DOCUMENT_TOO_LARGE = "document-too-large"
    FABRICATED_STATUTE = "fabricated-statute"
    STATUTE_REPEALED = "statute-repealed"
    OVERRULED = "overruled"
    NEGATIVELY_TREATED = "negatively-treated"


#: One line per kind, for docs, hovers and ``codeDescription`` pages.
KIND_DOCS: dict[Kind, str] = {
    Kind.FABRICATED_CASE: "No case begins at this volume/reporter/page in a source that covers the volume.",
    Kind.WRONG_FIRST_PAGE: "The draft names a real case but gives a page from its middle as the first page.",
    Kind.IMPOSSIBLE_CITATION: "The citation cannot exist: unknown reporter, series not yet published in the "
    "cited year, a page past the end of a complete volume, or a U.S. Code / C.F.R. title that does not exist.",
    Kind.NAME_MISMATCH: "The citation belongs to a different case than the one named.",
    Kind.NAME_MISSPELLED: "The case name is close to, but not the same as, the case at this citation.",
    Kind.MISQUOTE: "The quoted passage does not appear in the opinion (or the cited section).",
    Kind.PINCITE_OUT_OF_RANGE: "The pin cite is outside the pages the case occupies.",
    Kind.PINCITE_WRONG_PAGE: "The quoted or cited passage is on a different page than the pin cite.",
    Kind.PINCITE_UNVERIFIABLE: "No page map for this reporter (or a star page), so the pin cite cannot be checked.",
    Kind.MALFORMED_PINCITE: "The pin cite is not in a form a court would accept (e.g. a reversed range).",
    Kind.YEAR_MISMATCH: "The year in the parenthetical is not the year the case was decided.",
    Kind.COURT_MISMATCH: "The court in the parenthetical is not the court that decided the case.",
    Kind.NON_BINDING_AUTHORITY: "A case presented as controlling comes from a court that does not bind the forum.",
    Kind.UNSUPPORTED_HOLDING: "The opinion does not appear to support the proposition it is cited for.",
    Kind.HOLDING_UNVERIFIED: "The model's answer on the proposition could not be checked against the opinion.",
    Kind.UNRESOLVED_SHORT_FORM: "A short form (Id., supra, Name at page) has no full citation to refer to.",
    Kind.CANNOT_VERIFY: "No source we have covers this citation; it was not checked (not an accusation).",
    Kind.STATUTE_NOT_CHECKED: "A statute or regulation citation no source covers: not checked, and the code is "
    "named (not an accusation).",
    Kind.OPINION_UNAVAILABLE: "The case exists, but its opinion text could not be fetched (yet), so the quotes "
    "and pin cite were not checked (not an accusation).",
    Kind.DOCUMENT_TOO_LARGE: "The document is larger than the configured size limit and was not checked.",
    Kind.FABRICATED_STATUTE: "The statute index holds the whole cited title of the U.S. Code or C.F.R., and it has "
    "no such section.",
    Kind.STATUTE_REPEALED: "The cited section was repealed, transferred, renumbered, omitted, reserved or removed; "
    "the message says where it went, when the source says.",
    Kind.OVERRULED: "A later decision overruled the cited case (the Congress.gov table, the treatment table or an "
    "opinion's own words), and the draft does not say so.",
    Kind.NEGATIVELY_TREATED: "A later decision abrogated, superseded, disapproved, receded from or overruled in part "
    "the cited case, and the draft does not say so.",
}

#: A heading a lawyer understands, per kind: the HTML report, the Word pane (sent as each finding's
#: ``title``) and the editors' hover say this, not the kind's code.
KIND_TITLE: dict[Kind, str] = {
    Kind.FABRICATED_CASE: "No case at this citation",
    Kind.WRONG_FIRST_PAGE: "Cites a page in the middle of a case as its first page",
    Kind.IMPOSSIBLE_CITATION: "This citation cannot exist",
    Kind.NAME_MISMATCH: "The citation belongs to a different case",
    Kind.NAME_MISSPELLED: "Case name differs from the reported name",
    Kind.MISQUOTE: "Quotation not found in the opinion",
    Kind.PINCITE_OUT_OF_RANGE: "Pin cite outside the pages of the case",
    Kind.PINCITE_WRONG_PAGE: "Passage is on a different page than the pin cite",
    Kind.PINCITE_UNVERIFIABLE: "Pin cite could not be checked — not an accusation",
    Kind.MALFORMED_PINCITE: "Pin cite is not in an accepted form",
    Kind.YEAR_MISMATCH: "Year differs from the decision date",
    Kind.COURT_MISMATCH: "Court differs from the court that decided the case",
    Kind.NON_BINDING_AUTHORITY: "Authority that does not bind this court",
    Kind.UNSUPPORTED_HOLDING: "The opinion may not support this proposition",
    Kind.HOLDING_UNVERIFIED: "The model's answer could not be checked against the opinion",
    Kind.UNRESOLVED_SHORT_FORM: "Short form with no full citation before it",
    Kind.CANNOT_VERIFY: "Could not be verified — not an accusation",
    Kind.STATUTE_NOT_CHECKED: "Statute or regulation not checked — not an accusation",
    Kind.FABRICATED_STATUTE: "No such section in this title of the Code",
    Kind.STATUTE_REPEALED: "Section repealed, moved or no longer in force",
    Kind.OVERRULED: "Overruled by a later decision",
    Kind.NEGATIVELY_TREATED: "Abrogated, superseded or limited by a later decision",
    Kind.OPINION_UNAVAILABLE: "Case found, but its opinion text was not available to check quotes and pin cites",
    Kind.DOCUMENT_TOO_LARGE: "Document too large to check",
}


def kind_title(kind: Kind | str) -> str:
    """The plain-English heading of a kind (``KIND_TITLE``); its code, capitalised, for one without.

    >>> kind_title("misquote")
    'Quotation not found in the opinion'
    """
    try:
        return KIND_TITLE[Kind(kind)]
    except (KeyError, ValueError):
        return str(kind).replace("-", " ").capitalize()


#: Severity a kind gets unless a check says otherwise or the user overrides it.
DEFAULT_SEVERITY: dict[Kind, Severity] = {
    Kind.FABRICATED_CASE: Severity.ERROR,
    Kind.WRONG_FIRST_PAGE: Severity.ERROR,
    Kind.IMPOSSIBLE_CITATION: Severity.ERROR,
    Kind.NAME_MISMATCH: Severity.ERROR,
    Kind.NAME_MISSPELLED: Severity.WARNING,
    Kind.MISQUOTE: Severity.ERROR,
    Kind.PINCITE_OUT_OF_RANGE: Severity.ERROR,
    Kind.PINCITE_WRONG_PAGE: Severity.WARNING,
    Kind.PINCITE_UNVERIFIABLE: Severity.INFO,
    Kind.MALFORMED_PINCITE: Severity.WARNING,
    Kind.YEAR_MISMATCH: Severity.WARNING,
    Kind.COURT_MISMATCH: Severity.WARNING,
    Kind.NON_BINDING_AUTHORITY: Severity.INFO,
    Kind.UNSUPPORTED_HOLDING: Severity.WARNING,
    Kind.HOLDING_UNVERIFIED: Severity.INFO,
    Kind.UNRESOLVED_SHORT_FORM: Severity.WARNING,
    Kind.CANNOT_VERIFY: Severity.INFO,
    Kind.STATUTE_NOT_CHECKED: Severity.INFO,
    Kind.OPINION_UNAVAILABLE: Severity.INFO,
    Kind.DOCUMENT_TOO_LARGE: Severity.WARNING,
    Kind.FABRICATED_STATUTE: Severity.ERROR,
    Kind.STATUTE_REPEALED: Severity.WARNING,
    Kind.OVERRULED: Severity.WARNING,
    Kind.NEGATIVELY_TREATED: Severity.WARNING,
}

#: Kinds that may never be raised above info (domain rule: "could not check" is not an accusation).
INFO_ONLY: frozenset[Kind] = frozenset(
    {
        Kind.CANNOT_VERIFY,
        Kind.PINCITE_UNVERIFIABLE,
        Kind.OPINION_UNAVAILABLE,
        Kind.HOLDING_UNVERIFIED,
        Kind.STATUTE_NOT_CHECKED,
    }
)

#: Kinds that may never be raised above warning: a model's reading of an opinion is never certain.
WARNING_AT_MOST: frozenset[Kind] = frozenset({Kind.UNSUPPORTED_HOLDING, Kind.NEGATIVELY_TREATED})

#: How a user raises the size limit, wherever they met it (the CLI's error, the editors' finding).
SIZE_LIMIT_HINT = (
    "Raise the size limit to check it (max_document_chars in citecheck.toml, CITECHECK_MAX_DOCUMENT_CHARS, "
    "or the citecheck.sizeLimit setting in VS Code)."
)

DOCS_BASE_URL = "https://github.com/citecheck/citecheck/blob/main/docs/findings.md"


def docs_url(kind: Kind | str) -> str:
    return f"{DOCS_BASE_URL}#{kind}"


@dataclass(frozen=True, slots=True, kw_only=True)
class TextEdit:
    """Replace ``span`` of the original text with ``new_text``."""

    span: Span
    new_text: str


@dataclass(frozen=True, slots=True, kw_only=True)
class Evidence:
    """What we compared the draft against. Every field is optional; fill all you have."""

    source: str | None = None  # "corpus", "courtlistener", "cache", "reporters-db", ...
    record_id: str | None = None
    case_name: str | None = None
    citation: str | None = None  # the matched record's citation, e.g. "100 A.2d 36"
    court: str | None = None
    date: str | None = None  # ISO decision date
    url: str | None = None
    page: str | None = None  # the page the passage was found on / the page we used
    passage: str | None = None  # the opinion text we compared with
    draft: str | None = None  # what the draft says (quote, name) for side-by-side display
    diff: str | None = None  # word-level diff, human readable
    note: str | None = None
    model: str | None = (
        None  # holding checks: the model that judged, and the prompt version it was asked with
    )
    prompt_version: str | None = None
    verdict: str | None = None  # holding checks: supported | partly | not-supported | contradicted
    misuse: str | None = None  # holding checks: overstated-holding, dictum-as-holding, different-issue, ...


class Confidence(StrEnum):
    """How sure a proposed correction is (docs/findings.md, "Fixes"): ``high`` — the quote, the name
    and the citation agree on it; ``medium`` — the name (or the quote) alone points to it;
    ``low`` — one of several close candidates, or only a near miss and a similar name."""

    HIGH = "high"
    MEDIUM = "medium"
    LOW = "low"


@dataclass(frozen=True, slots=True, kw_only=True)
class Fix:
    """A suggested correction: a title a lawyer reads and the edits that apply it.

    A fix that proposes another authority (``checks/corrections``) also says why (``why``: the name
    score, where the quote was found, the near miss), how sure it is, and the case it names
    (``evidence``). ``preferred`` False when several candidates are close: an editor applies none of
    them by default (LSP ``isPreferred``)."""

    title: str
    edits: tuple[TextEdit, ...]
    why: str | None = None
    confidence: Confidence | None = None
    preferred: bool = True
    evidence: Evidence | None = None  # the case the fix names, when it proposes one

    def describe(self) -> str:
        """The fix as every edge shows it in words: its title, then how sure and why (for a proposed
        authority), and a warning when it is one of several close candidates (not applied by default).

        >>> Fix(title="Cite A v. B, 1 A.2d 2", edits=(), why="its name matches", confidence=Confidence.HIGH).describe()
        'Cite A v. B, 1 A.2d 2 (high confidence: its name matches)'
        """
        out = self.title
        if self.confidence is not None or self.why:
            sure = f"{self.confidence.value} confidence" if self.confidence is not None else ""
            out += " (" + ": ".join(x for x in (sure, self.why) if x) + ")"
        if not self.preferred:
            out += " [not applied by default: check it first]"
        return out

    def moved(self, d: int) -> Fix:
        """The same fix ``d`` code points further on (an edit before it)."""
        if not d:
            return self
        return replace(
            self, edits=tuple(TextEdit(span=e.span.shift(d), new_text=e.new_text) for e in self.edits)
        )


@dataclass(frozen=True, slots=True, kw_only=True)
class Finding:
    kind: Kind
    severity: Severity
    span: Span
    message: str
    evidence: Evidence = field(default_factory=Evidence)
    fixes: tuple[Fix, ...] = ()
    citation_index: int | None = None  # index into the extraction's citation list

    def __post_init__(self) -> None:
        if self.kind in INFO_ONLY and self.severity is not Severity.INFO:
            raise ValueError(f"{self.kind} is always info")
        if self.kind in WARNING_AT_MOST and self.severity is Severity.ERROR:
            raise ValueError(f"{self.kind} is never an error")

    def with_severity(self, severity: Severity) -> Finding:
        if self.kind in INFO_ONLY:
            return self
        if self.kind in WARNING_AT_MOST and severity is Severity.ERROR:
            severity = Severity.WARNING
        return replace(self, severity=severity)


_new_finding = object.__new__
_FIELDS = ("kind", "severity", "span", "message", "evidence", "fixes", "citation_index")
assert tuple(Finding.__dataclass_fields__) == _FIELDS, "moved_finding must set every field of Finding"
_s_kind, _s_severity, _s_span, _s_message, _s_evidence, _s_fixes, _s_index = (
    Finding.__dict__[name].__set__ for name in _FIELDS
)


def moved_finding(f: Finding, span: Span, fixes: tuple[Fix, ...], citation_index: int | None) -> Finding:
    """``f`` at ``span`` with ``fixes`` and ``citation_index``: what an edit before a finding makes of it.
    Set through the slots (kind and severity are ``f``'s, already validated): a keystroke moves every finding
    after it, and the dataclass constructor costs three times as much."""
    g = _new_finding(Finding)
    _s_kind(g, f.kind)
    _s_severity(g, f.severity)
    _s_span(g, span)
    _s_message(g, f.message)
    _s_evidence(g, f.evidence)
    _s_fixes(g, fixes)
    _s_index(g, citation_index)
    return g


def make_finding(
    kind: Kind,
    span: Span,
    message: str,
    *,
    evidence: Evidence | None = None,
    fixes: tuple[Fix, ...] = (),
    citation_index: int | None = None,
    severity: Severity | None = None,
) -> Finding:
    """Build a finding with the kind's default severity unless one is given."""
    return Finding(
        kind=kind,
        severity=severity or DEFAULT_SEVERITY[kind],
        span=span,
        message=message,
        evidence=evidence or Evidence(),
        fixes=fixes,
        citation_index=citation_index,
    )
