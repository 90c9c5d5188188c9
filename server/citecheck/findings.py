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


@dataclass(frozen=True, slots=True, kw_only=True)
class KindRow:
    """One row of the kinds table (``Kind``): what a finding kind means, and how it is shown, capped and
    scored. Everything else about a kind — the lookups below, docs/findings.md's table, the VS Code
    settings' enums, the evaluation's categories — is made from these rows (``tests/test_findings_docs.py``)."""

    #: the heading a lawyer reads (the HTML report, the Word pane, the editors' hover), not the kind's code
    title: str
    #: the severity it gets unless its check says otherwise or the user overrides it
    severity: Severity
    #: one line: docs/findings.md's table, SARIF's rule description
    doc: str
    #: the highest severity it may ever have: "could not check" is never an accusation (info), and a
    #: model's reading of an opinion is never certain (warning); no check or setting raises it past this
    at_most: Severity = Severity.ERROR
    #: the evaluation category it predicts (``evaluation/scoring.py``: LePhantomCite's types); None: its own
    evaluation: str | None = None


class Kind(StrEnum):
    """The closed vocabulary of finding kinds, and the kinds table: each member is its code (the string in
    CLI output, JSON, SARIF, ``Diagnostic.code``, settings and docs/) and its ``KindRow``.

    A new kind is one member here plus the check that raises it (``checks/``), and a section in
    docs/findings.md; ``CITECHECK_REGEN_GOLDEN=1 python -m pytest -q tests/test_findings_docs.py`` then
    rewrites docs/findings.md's table and the VS Code package.json's enums.

    >>> Kind("misquote").row.severity, Kind.CANNOT_VERIFY.row.at_most
    (<Severity.ERROR: 'error'>, <Severity.INFO: 'info'>)
    """

    row: KindRow

    def __new__(cls, value: str, row: KindRow | None = None) -> Kind:
        assert row is not None, "every kind has its row"
        member = str.__new__(cls, value)
        member._value_ = value
        member.row = row
        return member

    FABRICATED_CASE = (
        "fabricated-case",
        KindRow(
            title="No case at this citation",
            severity=Severity.ERROR,
            evaluation="nonexistent-case",
            doc="No case begins at this volume/reporter/page in a source that covers the volume.",
        ),
    )
    WRONG_FIRST_PAGE = (
        "wrong-first-page",
        KindRow(
            title="Cites a page in the middle of a case as its first page",
            severity=Severity.ERROR,
            evaluation="nonexistent-case",
            doc="The draft names a real case but gives a page from its middle as the first page.",
        ),
    )
    IMPOSSIBLE_CITATION = (
        "impossible-citation",
        KindRow(
            title="This citation cannot exist",
            severity=Severity.ERROR,
            evaluation="nonexistent-case",
            doc=(
                "The citation cannot exist: unknown reporter, series not yet published in the cited year,"
                " a page past the end of a complete volume, a U.S. Code / C.F.R. title that does not "
                "exist, or a provision the U.S. Constitution does not have."
            ),
        ),
    )
    NAME_MISMATCH = (
        "name-mismatch",
        KindRow(
            title="The citation belongs to a different case",
            severity=Severity.ERROR,
            evaluation="name-mismatch",
            doc="The citation belongs to a different case than the one named.",
        ),
    )
    NAME_MISSPELLED = (
        "name-misspelled",
        KindRow(
            title="Case name differs from the reported name",
            severity=Severity.WARNING,
            evaluation="name-mismatch",
            doc="The case name is close to, but not the same as, the case at this citation.",
        ),
    )
    MISQUOTE = (
        "misquote",
        KindRow(
            title="Quotation not found in the opinion",
            severity=Severity.ERROR,
            evaluation="misquote",
            doc="The quoted passage does not appear in the opinion (or the cited section).",
        ),
    )
    PINCITE_OUT_OF_RANGE = (
        "pincite-out-of-range",
        KindRow(
            title="Pin cite outside the pages of the case",
            severity=Severity.ERROR,
            evaluation="wrong-pincite",
            doc="The pin cite is outside the pages the case occupies.",
        ),
    )
    PINCITE_WRONG_PAGE = (
        "pincite-wrong-page",
        KindRow(
            title="Passage is on a different page than the pin cite",
            severity=Severity.WARNING,
            evaluation="wrong-pincite",
            doc="The quoted or cited passage is on a different page than the pin cite.",
        ),
    )
    PINCITE_UNVERIFIABLE = (
        "pincite-unverifiable",
        KindRow(
            title="Pin cite could not be checked — not an accusation",
            severity=Severity.INFO,
            at_most=Severity.INFO,
            doc="No page map for this reporter (or a star page), so the pin cite cannot be checked.",
        ),
    )
    MALFORMED_PINCITE = (
        "malformed-pincite",
        KindRow(
            title="Pin cite is not in an accepted form",
            severity=Severity.WARNING,
            evaluation="wrong-pincite",
            doc="The pin cite is not in a form a court would accept (e.g. a reversed range).",
        ),
    )
    YEAR_MISMATCH = (
        "year-mismatch",
        KindRow(
            title="Year differs from the decision date",
            severity=Severity.WARNING,
            evaluation="wrong-parenthetical",
            doc="The year in the parenthetical is not the year the case was decided.",
        ),
    )
    COURT_MISMATCH = (
        "court-mismatch",
        KindRow(
            title="Court differs from the court that decided the case",
            severity=Severity.WARNING,
            evaluation="wrong-parenthetical",
            doc="The court in the parenthetical is not the court that decided the case.",
        ),
    )
    NON_BINDING_AUTHORITY = (
        "non-binding-authority",
        KindRow(
            title="Authority that does not bind this court",
            severity=Severity.INFO,
            doc="A case presented as controlling comes from a court that does not bind the forum.",
        ),
    )
    UNSUPPORTED_HOLDING = (
        "unsupported-holding",
        KindRow(
            title="The opinion may not support this proposition",
            severity=Severity.WARNING,
            at_most=Severity.WARNING,
            evaluation="misrepresentation",
            doc="The opinion does not appear to support the proposition it is cited for.",
        ),
    )
    HOLDING_UNVERIFIED = (
        "holding-unverified",
        KindRow(
            title="The model's answer could not be checked against the opinion",
            severity=Severity.INFO,
            at_most=Severity.INFO,
            doc="The model's answer on the proposition could not be checked against the opinion.",
        ),
    )
    UNRESOLVED_SHORT_FORM = (
        "unresolved-short-form",
        KindRow(
            title="Short form with no full citation before it",
            severity=Severity.WARNING,
            doc="A short form (Id., supra, Name at page) has no full citation to refer to.",
        ),
    )
    CANNOT_VERIFY = (
        "cannot-verify",
        KindRow(
            title="Could not be verified — not an accusation",
            severity=Severity.INFO,
            at_most=Severity.INFO,
            doc="No source we have covers this citation; it was not checked (not an accusation).",
        ),
    )
    STATUTE_NOT_CHECKED = (
        "statute-not-checked",
        KindRow(
            title="Statute or regulation not checked — not an accusation",
            severity=Severity.INFO,
            at_most=Severity.INFO,
            doc=(
                "A statute or regulation citation no source covers: not checked, and the code is named "
                "(not an accusation)."
            ),
        ),
    )
    OPINION_UNAVAILABLE = (
        "opinion-unavailable",
        KindRow(
            title="Case found, but its opinion text was not available to check quotes and pin cites",
            severity=Severity.INFO,
            at_most=Severity.INFO,
            doc=(
                "The case exists, but its opinion text could not be fetched (yet), so the quotes and pin "
                "cite were not checked (not an accusation)."
            ),
        ),
    )
    DOCUMENT_TOO_LARGE = (
        "document-too-large",
        KindRow(
            title="Document too large to check",
            severity=Severity.WARNING,
            doc="The document is larger than the configured size limit and was not checked.",
        ),
    )
    FABRICATED_STATUTE = (
        "fabricated-statute",
        KindRow(
            title="No such section in this title of the Code",
            severity=Severity.ERROR,
            doc=(
                "The statute index holds the whole cited title of the U.S. Code or C.F.R., and it has no "
                "such section."
            ),
        ),
    )
    STATUTE_REPEALED = (
        "statute-repealed",
        KindRow(
            title="Section repealed, moved or no longer in force",
            severity=Severity.WARNING,
            doc=(
                "The cited section was repealed, transferred, renumbered, omitted, reserved or removed; "
                "the message says where it went, when the source says."
            ),
        ),
    )
    OVERRULED = (
        "overruled",
        KindRow(
            title="Overruled by a later decision",
            severity=Severity.WARNING,
            doc="A later decision overruled the cited case (the Congress.gov table, the treatment table or an "
            "opinion's own words), and the draft does not say so.",
        ),
    )
    NEGATIVELY_TREATED = (
        "negatively-treated",
        KindRow(
            title="Abrogated, superseded or limited by a later decision",
            severity=Severity.WARNING,
            at_most=Severity.WARNING,
            doc="A later decision abrogated, superseded, disapproved, receded from or overruled in part the cited "
            "case, and the draft does not say so.",
        ),
    )


#: The lookups of the kinds table, by kind.
KIND_DOCS: dict[Kind, str] = {k: k.row.doc for k in Kind}
KIND_TITLE: dict[Kind, str] = {k: k.row.title for k in Kind}
DEFAULT_SEVERITY: dict[Kind, Severity] = {k: k.row.severity for k in Kind}
#: Kinds that may never be raised above info (domain rule: "could not check" is not an accusation).
INFO_ONLY: frozenset[Kind] = frozenset(k for k in Kind if k.row.at_most is Severity.INFO)
#: Kinds that may never be raised above warning: a model's reading of an opinion is never certain.
WARNING_AT_MOST: frozenset[Kind] = frozenset(k for k in Kind if k.row.at_most is Severity.WARNING)


def kind_title(kind: Kind | str) -> str:
    """The plain-English heading of a kind (its row's ``title``); its code, capitalised, for one without.

    >>> kind_title("misquote")
    'Quotation not found in the opinion'
    >>> kind_title("no-such-kind")
    'No such kind'
    """
    try:
        return Kind(kind).row.title
    except ValueError:
        return str(kind).replace("-", " ").capitalize()


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
