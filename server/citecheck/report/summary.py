"""What every report says first: how many citations and findings, in plain words that add up; pure.

Issue 36: the text report's summary read "11 cannot-verify lines = 10 for cannot-verify citations + 1 for a
citation counted as a problem; 4 more cannot-verify citations are short forms …", and the HTML report put
findings and citations in one row of nine columns. Now one sentence, the same in every format: the
citations by what was found of them (each once; short forms such as ``Id.`` counted, and said to be, because
they get no line of their own), then the findings by severity. ``first_run_note`` and the other notes
follow it (``report.model.notes``).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from citecheck.extract.models import CiteForm
from citecheck.findings import Severity
from citecheck.results import Status

#: How a status reads after a number ("2 with a problem"), singular and plural.
_STATUS_WORDS: dict[Status, tuple[str, str]] = {
    Status.PROBLEM: ("with a problem", "with problems"),
    Status.VERIFIED: ("verified", "verified"),
    Status.CANNOT_VERIFY: ("could not be verified", "could not be verified"),
    Status.NOT_CHECKED: ("not checked", "not checked"),
}
_STATUS_ORDER = (Status.PROBLEM, Status.VERIFIED, Status.CANNOT_VERIFY, Status.NOT_CHECKED)
#: Findings by severity, as a lawyer says them: an info finding is a note, never an accusation.
_SEVERITY_WORDS: dict[Severity, tuple[str, str]] = {
    Severity.ERROR: ("error", "errors"),
    Severity.WARNING: ("warning", "warnings"),
    Severity.INFO: ("note", "notes"),
}
_SHORT = frozenset({CiteForm.ID, CiteForm.SHORT, CiteForm.SUPRA, CiteForm.REFERENCE})


def count(n: int, one: str, many: str | None = None) -> str:
    """``1 citation``, ``2 citations``; ``many`` for an irregular plural."""
    return f"{n} {one if n == 1 else (many or one + 's')}"


@dataclass(slots=True)
class Tally:
    """Citations by status, how many are short forms and statutes, findings by severity."""

    citations: int = 0
    short_forms: int = 0
    statutes: int = 0
    by_status: dict[Status, int] = field(default_factory=lambda: {s: 0 for s in Status})
    findings: int = 0
    by_severity: dict[Severity, int] = field(default_factory=lambda: {s: 0 for s in Severity})


def tally(files: Iterable[object]) -> Tally:
    """The counts of some checked files (``report.model.FileResult``)."""
    t = Tally()
    for file in files:
        citations = getattr(file, "citations", ())
        t.citations += len(citations)
        t.short_forms += sum(1 for c in citations if c.form in _SHORT)
        t.statutes += sum(1 for c in citations if c.form is CiteForm.STATUTE)
        for st in getattr(file, "statuses", ()):
            t.by_status[st.status] += 1
        for f in getattr(file, "findings", ()):
            t.findings += 1
            t.by_severity[f.severity] += 1
    return t


def in_words(t: Tally) -> str:
    """``16 citations (4 of them short forms such as Id.): 2 with a problem, 14 could not be verified.
    14 findings: 1 error, 1 warning, 12 notes.`` — each part adds up to the number before it.

    >>> print(in_words(Tally(citations=3, short_forms=1, by_status={Status.PROBLEM: 1, Status.VERIFIED: 2,
    ...     Status.CANNOT_VERIFY: 0, Status.NOT_CHECKED: 0}, findings=1, by_severity={Severity.ERROR: 1,
    ...     Severity.WARNING: 0, Severity.INFO: 0})))
    3 citations (1 of them a short form such as Id.): 1 with a problem, 2 verified. 1 finding: 1 error.
    >>> print(in_words(Tally(citations=1, statutes=1, by_status={Status.NOT_CHECKED: 1})))
    1 citation (a statute or regulation): 1 not checked. No findings.
    """
    if not t.citations:
        head = "No citations."
    else:
        kinds = []
        if t.short_forms:
            kinds.append(
                "a short form such as Id."
                if t.citations == 1
                else f"{t.short_forms} of them {'a short form' if t.short_forms == 1 else 'short forms'} such as Id."
            )
        if t.statutes:
            kinds.append(
                "a statute or regulation"
                if t.citations == 1
                else f"{t.statutes} {'a statute or regulation' if t.statutes == 1 else 'statutes or regulations'}"
            )
        parts = [f"{n} {_STATUS_WORDS[s][n != 1]}" for s in _STATUS_ORDER if (n := t.by_status.get(s, 0))]
        head = (
            count(t.citations, "citation")
            + (f" ({'; '.join(kinds)})" if kinds else "")
            + (f": {', '.join(parts)}." if parts else ".")
        )
    if not t.findings:
        return f"{head} No findings."
    order = (Severity.ERROR, Severity.WARNING, Severity.INFO)
    found = [count(n, *_SEVERITY_WORDS[s]) for s in order if (n := t.by_severity[s])]
    return f"{head} {count(t.findings, 'finding')}: {', '.join(found)}."
