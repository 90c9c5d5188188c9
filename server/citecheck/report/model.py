"""What every report format renders: checked files, their citations with a status, findings, errors.

The pipeline's ``Report`` is adapted here once (``file_result``), so the five renderers share one
view of a batch and never disagree on a status, a line number or a table-of-authorities entry.
Pure: no I/O.
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass, field

from citecheck.extract.models import Citation, CiteForm
from citecheck.findings import Finding, Severity
from citecheck.holdings.models import HoldingResult
from citecheck.jurisdiction import Assessment, Forum, Weight
from citecheck.results import Report, Status
from citecheck.sources.models import CaseRecord


@dataclass(frozen=True, slots=True, kw_only=True)
class CitationStatus:
    index: int
    status: Status
    record: CaseRecord | None = None
    page_used: str | None = None
    passage: str | None = None
    reason: str = ""
    holding: HoldingResult | None = None  # the holding judge's result, when its claim was judged
    weight: Assessment | None = None  # binding / persuasive / unknown in the forum; None: not a case citation
    source: str | None = None  # which source answered its lookup ("corpus", "index", "courtlistener", ...)


@dataclass(frozen=True, slots=True, kw_only=True)
class Place:
    """Where a citation sits: 1-based line and column in code points."""

    citation_index: int
    line: int
    column: int
    text: str


@dataclass(frozen=True, slots=True, kw_only=True)
class Authority:
    """One entry of the table of authorities: a case cited once or many times."""

    name: str
    cite: str
    status: Status
    record: CaseRecord | None
    places: tuple[Place, ...]
    kinds: tuple[str, ...] = ()  # finding kinds raised on any of its citations
    weight: Assessment | None = None  # its weight where the document is filed


@dataclass(frozen=True, slots=True, kw_only=True)
class FileResult:
    name: str
    kind: str
    text: str
    citations: tuple[Citation, ...]
    findings: tuple[Finding, ...]
    statuses: tuple[CitationStatus, ...]
    pages: tuple[tuple[int, str], ...] = ()  # PDF page starts (offset, label)
    places: tuple[tuple[int, str], ...] = ()  # .docx block starts (offset, "paragraph 13" / "footnote 2")
    forum: Forum | None = None  # the court the document is filed in, when known
    _line_starts: tuple[int, ...] = field(default=(), repr=False)

    def __post_init__(self) -> None:
        # str.find, not a per-character loop: a 100-page brief is re-rendered on every Word re-check
        starts, i = [0], self.text.find("\n")
        while i != -1:
            starts.append(i + 1)
            i = self.text.find("\n", i + 1)
        object.__setattr__(self, "_line_starts", tuple(starts))

    def line_col(self, offset: int) -> tuple[int, int]:
        """1-based (line, column) of a code-point offset.

        >>> FileResult(name="x", kind="text", text="ab\\ncd", citations=(), findings=(), statuses=()).line_col(4)
        (2, 2)
        """
        i = bisect.bisect_right(self._line_starts, offset) - 1
        return i + 1, offset - self._line_starts[i] + 1

    def location(self, offset: int) -> str:
        """Where a reader finds ``offset``: "paragraph 13" / "footnote 2" in a .docx, else "line:col".

        >>> FileResult(name="x", kind="docx", text="a\\n\\nb", citations=(), findings=(), statuses=(),
        ...            places=((0, "paragraph 1"), (3, "footnote 2"))).location(3)
        'footnote 2'
        """
        if self.places:
            i = bisect.bisect_right([o for o, _ in self.places], offset)
            return self.places[max(i - 1, 0)][1]
        line, col = self.line_col(offset)
        return f"{line}:{col}"

    def page_at(self, offset: int) -> str | None:
        if not self.pages:
            return None
        i = bisect.bisect_right([o for o, _ in self.pages], offset)
        return self.pages[max(i - 1, 0)][1]

    def status_of(self, index: int) -> CitationStatus:
        return self.statuses[index]

    def sorted_findings(self) -> list[Finding]:
        """Most severe first, then in document order."""
        return sorted(self.findings, key=lambda f: (-f.severity.rank, f.span.start, f.kind.value))


@dataclass(frozen=True, slots=True, kw_only=True)
class FileError:
    name: str
    message: str


@dataclass(frozen=True, slots=True, kw_only=True)
class BatchResult:
    files: tuple[FileResult, ...]
    errors: tuple[FileError, ...] = ()
    tool_version: str = "0"
    sources: str = ""  # human readable: which sources were consulted
    offline: bool = False
    ignored: int = 0  # findings left out because .citecheck/ignore.json dismissed them

    def count(self, severity: Severity) -> int:
        return sum(1 for f in self.files for x in f.findings if x.severity is severity)

    def status_counts(self) -> dict[str, int]:
        counts = {s.value: 0 for s in Status}
        for f in self.files:
            for st in f.statuses:
                counts[st.status.value] += 1
        return counts

    def worst(self) -> Severity | None:
        ranks = [x.severity for f in self.files for x in f.findings]
        return max(ranks, key=lambda s: s.rank) if ranks else None


def enable_verification_hint(offline: bool) -> str:
    """How a user turns "could not verify" into a real check, in the words every format prints."""
    cap = (
        "let citecheck download CAP volumes (run without --offline)"
        if offline
        else "let citecheck download CAP volumes (needs network access to static.case.law)"
    )
    return (
        "To enable verification: import a corpus (`citecheck corpus import PATH`, e.g. a CAP static export or "
        "CourtListener bulk CSVs), build the citation index of every reported US case once "
        f"(`citecheck corpus sync`; offline afterwards), {cap}, or set CITECHECK_COURTLISTENER_TOKEN to look "
        "them up on CourtListener."
    )


def notes(batch: BatchResult) -> list[str]:
    """Plain-language notes every format prints after the findings (never accusations)."""
    out: list[str] = []
    unverified = batch.status_counts()[Status.CANNOT_VERIFY.value]
    if unverified:
        out.append(
            f"{unverified} citation{'s' if unverified != 1 else ''} could not be verified: no source "
            f"available to this run covers {'them' if unverified != 1 else 'it'}. This is not a finding "
            f"that {'they are' if unverified != 1 else 'it is'} wrong. {enable_verification_hint(batch.offline)}"
        )
    if batch.ignored:
        out.append(
            f"{batch.ignored} finding{'s' if batch.ignored != 1 else ''} dismissed in .citecheck/ignore.json "
            f"{'are' if batch.ignored != 1 else 'is'} not shown; run with --no-ignore to see "
            f"{'them' if batch.ignored != 1 else 'it'}."
        )
    if batch.offline:
        out.append("Offline mode: no network was used.")
    return out


def file_result(
    name: str,
    kind: str,
    text: str,
    report: Report,
    pages: tuple[tuple[int, str], ...] = (),
    places: tuple[tuple[int, str], ...] = (),
) -> FileResult:
    """Adapt a ``Report`` to a FileResult (statuses are the report's, decided by ``results.status_for``)."""
    statuses = []
    for c in report.extraction.citations:
        r = report.result(c.index)
        if r is None:
            statuses.append(CitationStatus(index=c.index, status=Status.NOT_CHECKED))
            continue
        statuses.append(
            CitationStatus(
                index=c.index,
                status=r.status,
                record=r.record,
                page_used=r.page_used,
                passage=r.passage,
                reason=r.reason,
                holding=r.holding,
                weight=r.weight,
                source=r.lookup.source if r.lookup is not None else None,
            )
        )
    return FileResult(
        name=name,
        kind=kind,
        text=text,
        citations=tuple(report.extraction.citations),
        findings=tuple(report.findings),
        statuses=tuple(statuses),
        pages=pages,
        places=places,
        forum=report.forum,
    )


_STATUS_ORDER = (Status.PROBLEM, Status.VERIFIED, Status.CANNOT_VERIFY, Status.NOT_CHECKED)


def _authority_key(file: FileResult, c: Citation) -> tuple | None:
    if c.form not in (CiteForm.FULL, CiteForm.UNRECOGNISED):
        if c.antecedent is None:
            return None
        c = file.citations[c.antecedent]
    head = file.citations[c.group] if c.group is not None and c.group < len(file.citations) else c
    if head.key is not None:
        return ("cite", *head.key)
    return ("text", head.text)


def authorities(file: FileResult) -> list[Authority]:
    """The table of authorities: each case once, every place it is cited, its overall status.

    Short forms count as places of the case they resolve to; parallel cites are one authority.
    Unresolved short forms have no authority (their findings say so).
    """
    groups: dict[tuple, list[Citation]] = {}
    for c in file.citations:
        key = _authority_key(file, c)
        if key is not None:
            groups.setdefault(key, []).append(c)
    kinds_by_index: dict[int, set[str]] = {}
    for f in file.findings:
        if f.citation_index is not None:
            kinds_by_index.setdefault(f.citation_index, set()).add(f.kind.value)
    out: list[Authority] = []
    for cites in groups.values():
        fulls = [c for c in cites if c.form in (CiteForm.FULL, CiteForm.UNRECOGNISED)] or cites
        head = fulls[0]
        statuses = {file.status_of(c.index).status for c in cites}
        status = next(s for s in _STATUS_ORDER if s in statuses)
        record = next((file.status_of(c.index).record for c in cites if file.status_of(c.index).record), None)
        parallels = [c.text for c in fulls if c.group == head.group and c.form is CiteForm.FULL]
        cite = ", ".join(dict.fromkeys(parallels)) if parallels else head.text
        name = head.case_name.text if head.case_name else (record.name if record else "")
        places = []
        for c in cites:
            line, col = file.line_col(c.span.start)
            places.append(Place(citation_index=c.index, line=line, column=col, text=c.text))
        kinds = sorted({k for c in cites for k in kinds_by_index.get(c.index, ())})
        weight = next((w for c in fulls if (w := file.status_of(c.index).weight) is not None), None)
        out.append(
            Authority(
                name=name,
                cite=cite,
                status=status,
                record=record,
                places=tuple(places),
                kinds=tuple(kinds),
                weight=weight,
            )
        )
    out.sort(key=lambda a: (a.name.lower().lstrip("*_ "), a.cite))
    return out


#: Order of the table of authorities' groups, and their headings.
WEIGHT_GROUPS: tuple[tuple[Weight, str], ...] = (
    (Weight.BINDING, "Binding authority"),
    (Weight.PERSUASIVE, "Persuasive authority"),
    (Weight.UNKNOWN, "Weight not determined"),
)


def weight_of(a: Authority) -> Weight:
    return a.weight.weight if a.weight is not None else Weight.UNKNOWN


def grouped_authorities(file: FileResult) -> list[tuple[Weight, str, list[Authority]]]:
    """The table of authorities grouped by weight in the forum (binding, persuasive, unknown); empty groups left out."""
    entries = authorities(file)
    out = []
    for weight, heading in WEIGHT_GROUPS:
        members = [a for a in entries if weight_of(a) is weight]
        if members:
            out.append((weight, heading, members))
    return out


def index_summary(file: FileResult) -> str:
    """How many of the file's full citations the citation index answered ("" when it answered none).

    >>> index_summary(FileResult(name="x", kind="text", text="", citations=(), findings=(), statuses=()))
    ''
    """
    full = {c.index for c in file.citations if c.form is CiteForm.FULL}
    answered = sum(1 for st in file.statuses if st.index in full and st.source == "index")
    if not answered:
        return ""
    return (
        f"the citation index answered {answered} of {len(full)} full citation{'s' if len(full) != 1 else ''}"
    )


def weight_summary(file: FileResult) -> str:
    """``"authorities: 9 binding, 2 persuasive, 1 weight unknown"`` (each case once), or "" with none."""
    counts = {w: 0 for w, _ in WEIGHT_GROUPS}
    for _w, _h, members in grouped_authorities(file):
        for a in members:
            counts[weight_of(a)] += 1
    if not any(counts.values()):
        return ""
    words = {Weight.BINDING: "binding", Weight.PERSUASIVE: "persuasive", Weight.UNKNOWN: "weight unknown"}
    return "authorities: " + ", ".join(f"{n} {words[w]}" for w, n in counts.items() if n)


def forum_line(file: FileResult) -> str:
    """Where the document is filed and how we know, or how to tell citecheck; every format prints it."""
    if file.forum is None:
        return (
            "Court: not determined (no recognised caption; set `court` in citecheck.toml or `court:` in the "
            "front matter to see which authorities bind)."
        )
    return f"Court: {file.forum.name} (from the {file.forum.origin}; {file.forum.question.value} question)."


def evidence_items(finding: Finding) -> list[tuple[str, str]]:
    """The filled evidence fields as (label, value), in the order a reader wants them."""
    ev = finding.evidence
    items = [
        ("Source", ev.source),
        ("Case", ev.case_name),
        ("Citation", ev.citation),
        ("Court", ev.court),
        ("Decided", ev.date),
        ("Page", ev.page),
        ("Draft says", ev.draft),
        ("Opinion says", ev.passage),
        ("Difference", ev.diff),
        ("Note", ev.note),
        ("Verdict", _verdict(ev.verdict, ev.misuse)),
        ("Judged by", f"{ev.model} ({ev.prompt_version})" if ev.model else None),
        ("Record", ev.record_id),
        ("Link", ev.url),
    ]
    return [(label, str(value)) for label, value in items if value]


def _verdict(verdict: str | None, misuse: str | None) -> str | None:
    if verdict is None:
        return None
    return f"{verdict} ({misuse})" if misuse else verdict


def cited_text(file: FileResult, finding: Finding) -> str:
    """The citation a finding is about, as written (falls back to the finding's own span)."""
    if finding.citation_index is not None and finding.citation_index < len(file.citations):
        return file.citations[finding.citation_index].text
    return finding.span.of(file.text)
