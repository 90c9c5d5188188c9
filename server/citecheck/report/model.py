"""What every report format renders: checked files, their citations with a status, findings, errors.

The pipeline's ``Report`` is adapted here once (``file_result``), so the five renderers share one
view of a batch and never disagree on a status, a line number or a table-of-authorities entry.
Pure: no I/O.
"""

from __future__ import annotations

import bisect
import re
from collections import Counter
from dataclasses import dataclass, field, replace

from citecheck.checks.statute_sections import SOURCE as STATUTE_SOURCE
from citecheck.extract.models import Citation, CiteForm, Statute, StatuteForm, resolved_statute
from citecheck.extract.tables import table_twins
from citecheck.findings import Finding, Severity
from citecheck.holdings.models import HoldingResult
from citecheck.jurisdiction import Assessment, Forum, Weight
from citecheck.results import Report, Status
from citecheck.sources.models import CaseRecord
from citecheck.sources.statutes.records import SectionRecord
from citecheck.treatment.models import TreatmentNote


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
    statute: SectionRecord | None = None  # the section a statute citation matched in the statute index
    treatment: TreatmentNote | None = (
        None  # subsequent treatment, and the data asked (None: no case citation)
    )


@dataclass(frozen=True, slots=True, kw_only=True)
class Place:
    """Where a citation sits: 1-based line and column in code points."""

    citation_index: int
    line: int
    column: int
    text: str
    listed: bool = False  # an entry of the document's own table of authorities, not a use


@dataclass(frozen=True, slots=True, kw_only=True)
class Authority:
    """One entry of the table of authorities: a case, or a statute or regulation section, cited once or
    many times (``statute`` set for the latter: ``name`` is then its code in words)."""

    name: str
    cite: str
    status: Status
    record: CaseRecord | None
    places: tuple[Place, ...]
    kinds: tuple[str, ...] = ()  # finding kinds raised on any of its citations
    weight: Assessment | None = None  # its weight where the document is filed
    statute: Statute | None = None  # the section, code and title filled in, no subsections
    agency: str | None = None  # who decided it, for an agency's decision (``361 NLRB No. 137``)


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
    unread_pages: tuple[str, ...] = ()  # PDF pages that are a scan, by label: nothing on them was checked
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

    def place(self, offset: int) -> str:
        """Where a lawyer finds ``offset``: "page 3" in a PDF (its own page label), "paragraph 13" / "footnote 2"
        in a .docx, else "line 21" — never the line and column of text extracted from a PDF (issue 36).

        >>> FileResult(name="x", kind="pdf", text="a\\nb", citations=(), findings=(), statuses=(),
        ...            pages=((0, "1"), (2, "ii"))).place(2)
        'page ii'
        """
        page = self.page_at(offset)
        if page is not None:
            return f"page {page}"
        if self.places:
            return self.location(offset)
        return f"line {self.line_col(offset)[0]}"

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
        """Citations by status; a table-of-authorities entry whose authority the body cites is counted
        once, at its use (extract/tables.py)."""
        counts = {s.value: 0 for s in Status}
        for f in self.files:
            twins = table_twins(f.citations)
            for st in f.statuses:
                if st.index not in twins:
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


def statute_codes(file: FileResult) -> dict[str, int]:
    """Statute citations not checked, per code in words (``{"the U.S. Code": 4, "Fla. Stat. (Florida)":
    1}``), in order of first citation; short forms count under their full citation's code, those whose
    code is unknown under "code not named"."""
    from citecheck.checks.statutes import describe_code

    out: dict[str, int] = {}
    for c in file.citations:
        if c.form is not CiteForm.STATUTE or file.status_of(c.index).status is not Status.NOT_CHECKED:
            continue
        s = statute_of(file, c)
        key = describe_code(s) if s is not None else "code not named"
        out[key] = out.get(key, 0) + 1
    return out


def statute_of(file: FileResult, c: Citation) -> Statute | None:
    """``Extraction.statute_of`` over a file's citations."""
    ante = (
        file.citations[c.antecedent]
        if c.antecedent is not None and c.antecedent < len(file.citations)
        else None
    )
    return resolved_statute(c, ante)


def statute_count(file: FileResult) -> int:
    return sum(1 for c in file.citations if c.form is CiteForm.STATUTE)


def first_run_note(batch: BatchResult) -> str | None:
    """When most case citations could not be verified (a fresh install, no index): said first and plainly —
    the check proves nothing about them — with the one command that changes it and what it costs
    (``sources/index/cost.py``). None otherwise."""
    from citecheck.sources.index.cost import SYNC_COST

    total = unverified = 0
    for f in batch.files:
        for c in f.citations:
            if c.form is CiteForm.STATUTE:
                continue
            st = f.status_of(c.index).status
            if st in (Status.VERIFIED, Status.PROBLEM, Status.CANNOT_VERIFY):
                total += 1
                unverified += st is Status.CANNOT_VERIFY
    if not total or unverified * 2 <= total:
        return None
    text = (
        f"Most citations could not be checked: {unverified} of {total} case citations. This check proves "
        "nothing about them — not that they are right, not that they are wrong."
    )
    if "citation index" in batch.sources:
        return text + " The sources this run has do not cover them (see each citation's note)."
    other = (
        "let citecheck download CAP volumes (run without --offline)"
        if batch.offline
        else "let citecheck download CAP volumes"
    )
    return text + (
        " To check them on this machine, build the index of every reported US case once: `citecheck corpus "
        f"sync` — it {SYNC_COST.describe()}; after that the check works offline. (Or import a corpus with "
        f"`citecheck corpus import PATH`, {other}, or set CITECHECK_COURTLISTENER_TOKEN to look them up on "
        "CourtListener.)"
    )


def notes(batch: BatchResult) -> list[str]:
    """Plain-language notes every format prints after the findings (never accusations); a first-run note
    (``first_run_note``) comes first."""
    out: list[str] = []
    unverified = batch.status_counts()[Status.CANNOT_VERIFY.value]
    first = first_run_note(batch)
    if first is not None:
        out.append(first)
    elif unverified:
        out.append(
            f"{unverified} citation{'s' if unverified != 1 else ''} could not be verified: no source "
            f"available to this run covers {'them' if unverified != 1 else 'it'}. This is not a finding "
            f"that {'they are' if unverified != 1 else 'it is'} wrong. {enable_verification_hint(batch.offline)}"
        )
    codes: dict[str, int] = {}
    for f in batch.files:
        for code, n in statute_codes(f).items():
            codes[code] = codes.get(code, 0) + n
    if codes:
        total = sum(codes.values())
        listed = ", ".join(f"{code} ({n})" for code, n in codes.items())
        federal = any(code in ("the U.S. Code", "the Code of Federal Regulations") for code in codes)
        out.append(
            f"{total} statute or regulation citation{'s were' if total != 1 else ' was'} not checked: {listed}. "
            "This is not a finding that any is wrong."
            + (
                " `citecheck corpus sync --statutes` builds the index that checks U.S. Code and C.F.R. sections."
                if federal
                else ""
            )
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
    unread_pages: tuple[str, ...] = (),
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
                statute=r.statute,
                treatment=r.treatment,
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
        unread_pages=unread_pages,
    )


def page_ranges(labels: tuple[str, ...]) -> str:
    """``("3", "7", "8", "9")`` → ``"3, 7–9"``: runs of numbered pages as ranges, other labels as they are.

    >>> page_ranges(("3", "7", "8", "9", "ii"))
    '3, 7–9, ii'
    """
    out: list[str] = []
    run: list[int] = []
    for label in (*labels, ""):
        if label.isdigit() and (not run or int(label) == run[-1] + 1):
            run.append(int(label))
            continue
        if run:
            out.append(str(run[0]) if len(run) == 1 else f"{run[0]}–{run[-1]}")
        run = [int(label)] if label.isdigit() else []
        if label and not label.isdigit():
            out.append(label)
    return ", ".join(out)


def unread_note(file: FileResult) -> str:
    """What was not read of a PDF with scanned pages, and what to do ("" when every page had text): without
    it a scanned exhibit, or a brief's scanned pages, would pass as "no citations, no findings"."""
    n = len(file.unread_pages)
    if not n:
        return ""
    return (
        f"{'Page' if n == 1 else 'Pages'} {page_ranges(file.unread_pages)} of the PDF "
        f"{'is an image' if n == 1 else 'are images'} with little or no text (scanned?): nothing on "
        f"{'it' if n == 1 else 'them'} was checked. Run the PDF through OCR to check {'it' if n == 1 else 'them'}."
    )


_STATUS_ORDER = (Status.PROBLEM, Status.VERIFIED, Status.CANNOT_VERIFY, Status.NOT_CHECKED)


def _authority_key(file: FileResult, c: Citation, alias: dict[tuple, tuple] | None = None) -> tuple | None:
    if c.form is CiteForm.STATUTE:
        return None
    if c.form not in (CiteForm.FULL, CiteForm.UNRECOGNISED):
        if c.antecedent is None:
            return None
        c = file.citations[c.antecedent]
        if c.form is CiteForm.STATUTE:  # an "Id." after a statute is a place of the statute
            return None
    head = file.citations[c.group] if c.group is not None and c.group < len(file.citations) else c
    if head.key is None:
        return ("text", head.text)
    key = ("cite", *head.key)
    if alias is not None and c.key is not None:
        # "Leon v. Martinez, 638 N.E.2d 511" alone, after "84 N.Y.2d 83, 614 N.Y.S.2d 972, 638 N.E.2d 511": the
        # case those parallel citations named first, not a second authority (issue 36)
        return alias.setdefault(("cite", *c.key), key)
    return key


def authorities(file: FileResult) -> list[Authority]:
    """The table of authorities: each case once, every place it is cited, its overall status.

    Short forms count as places of the case they resolve to; parallel cites are one authority.
    Unresolved short forms have no authority (their findings say so).
    """
    groups: dict[tuple, list[Citation]] = {}
    alias: dict[tuple, tuple] = {}  # each full citation's key -> the authority it was first cited as
    for c in file.citations:
        key = _authority_key(file, c, alias)
        if key is not None:
            groups.setdefault(key, []).append(c)
    groups = _merged_by_record(file, groups)
    kinds_by_index = _kinds_by_index(file)
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
            places.append(Place(citation_index=c.index, line=line, column=col, text=c.text, listed=c.listed))
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
                agency=head.agency,
            )
        )
    out.sort(key=lambda a: (a.name.lower().lstrip("*_ "), a.cite))
    return out + statute_authorities(file, kinds_by_index)


def _kinds_by_index(file: FileResult) -> dict[int, tuple[str, ...]]:
    """The kinds of the findings on each citation, each once: a tuple, not a set per citation (a set
    is 216 bytes; ~13 MB of the table of authorities of a 100,000-citation brief, issue 40)."""
    out: dict[int, tuple[str, ...]] = {}
    for f in file.findings:
        if (i := f.citation_index) is not None:
            kind = f.kind.value
            got = out.get(i)
            if got is None:
                out[i] = (kind,)
            elif kind not in got:
                out[i] = (*got, kind)
    return out


def _merged_by_record(file: FileResult, groups: dict[tuple, list[Citation]]) -> dict[tuple, list[Citation]]:
    """Entries whose citations a source matched to one case (its parallel citations, cited apart) as one."""
    by_record: dict[str, tuple] = {}
    out: dict[tuple, list[Citation]] = {}
    for key, cites in groups.items():
        rid = next((r.id for c in cites if (r := file.status_of(c.index).record) is not None), None)
        target = by_record.setdefault(rid, key) if rid is not None else key
        out.setdefault(target, []).extend(cites)
    return out


def _statute_keys(file: FileResult, c: Citation) -> list[tuple[tuple[object, ...], Statute]]:
    """The table-of-authorities entries a citation is a place of: one per section it names (a range is
    one entry), none for a case or an unresolved short form."""
    if c.form not in (CiteForm.STATUTE, CiteForm.ID):
        return []
    s = statute_of(file, c)
    if s is None or s.code is None:
        return []
    base = replace(s, form=StatuteForm.FULL, subsections=(), also=(), et_seq=False, edition=None, year=None)
    if s.unit:  # a C.F.R. part, subpart or appendix: one entry as cited
        return [((s.code, s.title, s.section, str(base)), base)]
    if s.last_section:
        return [((s.code, s.title, s.section, s.last_section), base)]
    return [
        ((k.code, k.title, k.section, None), replace(base, section=k.section, last_section=None))
        for k in s.keys()
    ]


_NUMBERS = re.compile(r"(\d+)")


def _natural(value: str | None) -> tuple[object, ...]:
    """``"1983"`` after ``"242"``; ``"2000e-2"`` after ``"2000e"``: numbers compare as numbers."""
    return tuple((0, int(p), "") if p.isdigit() else (1, 0, p) for p in _NUMBERS.split(value or "") if p)


def statute_authorities(
    file: FileResult, kinds_by_index: dict[int, tuple[str, ...]] | None = None
) -> list[Authority]:
    """The statutes and regulations of the table of authorities, after the cases as briefs list them:
    each section once (short forms and ``Id.`` count as its places), federal first, then by code,
    title and section in number order."""
    from citecheck.checks.statutes import describe_code

    if kinds_by_index is None:
        kinds_by_index = _kinds_by_index(file)
    groups: dict[tuple[object, ...], tuple[Statute, list[Citation]]] = {}
    for c in file.citations:
        for key, s in _statute_keys(file, c):
            groups.setdefault(key, (s, []))[1].append(c)
    out: list[Authority] = []
    for s, cites in groups.values():
        statuses = {file.status_of(c.index).status for c in cites}
        places = []
        for c in cites:
            line, col = file.line_col(c.span.start)
            places.append(Place(citation_index=c.index, line=line, column=col, text=c.text, listed=c.listed))
        out.append(
            Authority(
                name=describe_code(s, article=False),
                cite=str(s),
                status=next(x for x in _STATUS_ORDER if x in statuses),
                record=None,
                places=tuple(places),
                kinds=tuple(sorted({k for c in cites for k in kinds_by_index.get(c.index, ())})),
                statute=s,
            )
        )
    out.sort(
        key=lambda a: (
            a.statute is not None and a.statute.jurisdiction != "United States",
            a.statute is not None and a.statute.regulation,
            (a.statute.name or "") if a.statute else "",
            _natural(a.statute.title if a.statute else None),
            _natural(a.statute.section if a.statute else None),
        )
    )
    return out


#: Order of the table of authorities' groups, and their headings. The last group holds the citations
#: with no case behind them (fabricated-case, impossible-citation): they carry no weight anywhere, so
#: they are neither "binding" nor "persuasive", nor of a weight still to be determined.
WEIGHT_GROUPS: tuple[tuple[str, str], ...] = (
    (Weight.BINDING.value, "Binding authority"),
    (Weight.PERSUASIVE.value, "Persuasive authority"),
    (Weight.UNKNOWN.value, "Weight not determined"),
    ("no-case", "No weight: no case at this citation"),
)
_NO_CASE_KINDS = frozenset({"fabricated-case", "impossible-citation"})
_SUMMARY_WORDS = {
    Weight.BINDING.value: "binding",
    Weight.PERSUASIVE.value: "persuasive",
    Weight.UNKNOWN.value: "weight unknown",
    "no-case": "no case at the citation",
}


def weight_of(a: Authority) -> str:
    """The group of the table of authorities ``a`` belongs to (a key of ``WEIGHT_GROUPS``)."""
    if _NO_CASE_KINDS.intersection(a.kinds):
        return "no-case"
    return a.weight.weight.value if a.weight is not None else Weight.UNKNOWN.value


def grouped_authorities(file: FileResult) -> list[tuple[str, str, list[Authority]]]:
    """The table of authorities as briefs group it: the cases by weight in the forum (binding,
    persuasive, unknown, no case at the citation), then statutes, then regulations; ``(group id,
    heading, entries)``, empty groups left out. The id is a key of ``WEIGHT_GROUPS``, ``"constitutions"``
    (issue 41: the provisions of constitutions, as briefs' tables list them before statutes), ``"agency"``
    (agency decisions: ``361 NLRB No. 137``, never among the cases),
    ``"statutes"`` (session laws and acts' sections among them) or ``"regulations"``."""
    entries = authorities(file)
    cases = [a for a in entries if a.statute is None and a.agency is None]
    out = []
    for group, heading in WEIGHT_GROUPS:
        members = [a for a in cases if weight_of(a) == group]
        if members:
            out.append((group, heading, members))
    agency = [a for a in entries if a.statute is None and a.agency is not None]
    if agency:
        out.append(("agency", "Agency decisions", agency))
    constitutions = [a for a in entries if a.statute is not None and a.statute.kind == "constitution"]
    statutes = [
        a
        for a in entries
        if a.statute is not None and not a.statute.regulation and a.statute.kind != "constitution"
    ]
    regulations = [a for a in entries if a.statute is not None and a.statute.regulation]
    if constitutions:
        out.append(("constitutions", "Constitutional provisions", constitutions))
    if statutes:
        out.append(("statutes", "Statutes", statutes))
    if regulations:
        out.append(("regulations", "Regulations", regulations))
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


def treatment_summary(file: FileResult) -> str:
    """``"subsequent treatment: 1 case overruled, 1 negatively treated; 11 not found in the treatment data we have
    (…)"``: what the data said of the document's cases, and in what they were looked for ("" when none asked)."""
    by_case: dict[tuple[str, ...], TreatmentNote] = {}
    for c in file.citations:
        note = file.status_of(c.index).treatment
        if note is not None and c.form is CiteForm.FULL and c.key is not None:
            by_case.setdefault(tuple(c.key), note)
    notes = list(by_case.values())
    if not notes or not any(n.sources for n in notes):
        return ""
    counts = Counter(n.status for n in notes)
    parts = [f"{counts[s]} {label}" for s, label in (("overruled", "overruled"), ("negatively-treated",
             "negatively treated"), ("acknowledged", "with the history given in the draft")) if counts[s]]  # fmt: skip
    sources = next(n.sources for n in notes if n.sources)
    head = f"{', '.join(parts)}; " if parts else ""
    return (f"subsequent treatment: {head}{counts['none-found']} not found in the treatment data we have "
            f"({'; '.join(sources)}) — not proof they are still good law")  # fmt: skip


def weight_summary(file: FileResult) -> str:
    """``"authorities: 9 binding, 2 persuasive, 1 weight unknown, 1 no case at the citation"`` (each case
    once; statutes are not weighed), or "" with none."""
    counts = {g: 0 for g, _ in WEIGHT_GROUPS}
    for a in authorities(file):
        if a.statute is None and a.agency is None:  # an agency's decision is no case to weigh
            counts[weight_of(a)] += 1
    if not any(counts.values()):
        return ""
    return "authorities: " + ", ".join(f"{n} {_SUMMARY_WORDS[g]}" for g, n in counts.items() if n)


def forum_line(file: FileResult) -> str:
    """Where the document is filed and how we know, or how to tell citecheck; every format prints it."""
    if file.forum is None:
        return (
            "Court: not determined (no recognised caption; set `court` in citecheck.toml or `court:` in the "
            "front matter to see which authorities bind)."
        )
    forum = file.forum
    how = f": {forum.question_origin}" if forum.question_origin else ""
    return f"Court: {forum.name} (from the {forum.origin}; {forum.question.value} question{how})."


#: A status as a reader says it (the Word pane's words): badges and counts in the HTML report.
STATUS_WORDS: dict[Status, str] = {
    Status.PROBLEM: "problem",
    Status.CANNOT_VERIFY: "could not verify",
    Status.NOT_CHECKED: "not checked",
    Status.VERIFIED: "verified",
}
#: Where the evidence came from, for a reader (``Evidence.source`` holds our internal names).
SOURCE_WORDS: dict[str, str] = {
    "corpus": "your local corpus",
    "cap": "Caselaw Access Project",
    "courtlistener": "CourtListener",
    "cache": "citecheck's lookup cache",
    "reporters-db": "the reporters database (Free Law Project's reporters-db)",
    "model": "your model endpoint",
    "chain": "citecheck",
    "draft": "the document's own citations",
}


def evidence_items(finding: Finding, *, plain: bool = False) -> list[tuple[str, str]]:
    """The filled evidence fields as (label, value), in the order a reader wants them.

    ``plain`` (what a lawyer reads: the HTML report) names the source in words and leaves out the
    record id, our database's key for the case (the JSON and SARIF reports keep it).
    """
    ev = finding.evidence
    source = SOURCE_WORDS.get(ev.source or "", ev.source) if plain else ev.source
    items = [
        ("Source", source),
        ("Case", ev.case_name),
        ("Citation", ev.citation),
        ("Court", ev.court),
        # a statute finding's date is the C.F.R. section's latest version, not a decision
        ("Amended" if ev.source == STATUTE_SOURCE else "Decided", ev.date),
        ("Page", ev.page),
        ("Draft says", ev.draft),
        # the statute index's findings compare a section's words, not an opinion's
        ("Section says" if ev.source == STATUTE_SOURCE else "Opinion says", ev.passage),
        ("Difference", ev.diff),
        ("Note", ev.note),
        ("Verdict", _verdict(ev.verdict, ev.misuse)),
        ("Judged by", f"{ev.model} ({ev.prompt_version})" if ev.model else None),
        ("Record", None if plain else ev.record_id),
        ("Link", ev.url),
    ]
    return [(label, str(value)) for label, value in items if value]


def _verdict(verdict: str | None, misuse: str | None) -> str | None:
    if verdict is None:
        return None
    return f"{verdict} ({misuse})" if misuse else verdict


def cited_at(file: FileResult, a: Authority) -> list[tuple[str, list[int]]]:
    """Where an authority is cited, as a lawyer finds it (``FileResult.place``): each place once, in order, with
    the citations there ("line 19" ×3 for a case, its ``Id.`` and its short form on one line)."""
    out: dict[str, list[int]] = {}
    for p in a.places:
        out.setdefault(file.place(file.citations[p.citation_index].span.start), []).append(p.citation_index)
    return list(out.items())


_NOT_A_FINDING = re.compile(r"\s*This is not a finding that (?:the case does not exist|it is wrong)\.\s*$")


def plain_message(finding: Finding) -> str:
    """The message without the sentence every "could not be verified" and "not checked" note ends with: a
    report says it once, in its notes (issue 36: 3-5 lines repeated under each of 73 citations)."""
    return _NOT_A_FINDING.sub("", finding.message) or finding.message


def cited_text(file: FileResult, finding: Finding) -> str:
    """The citation a finding is about, as written (falls back to the finding's own span)."""
    if finding.citation_index is not None and finding.citation_index < len(file.citations):
        return file.citations[finding.citation_index].text
    return finding.span.of(file.text)
