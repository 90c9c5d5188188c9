"""Holding results → findings a lawyer reads; pure.

* ``not-supported`` / ``contradicted`` → ``unsupported-holding``, a **warning** (a model's reading is
  never certain enough for an error), with the passages and pages shown to the judge, the model and the
  prompt version as evidence;
* ``partly`` → ``unsupported-holding`` at **info**;
* ``supported`` → no finding (the hover shows the supporting passage from the citation's result);
* a judgment whose quote is not in the opinion → ``holding-unverified`` (info); its quote is never shown;
* the endpoint failed or ran out of time → ``cannot-verify`` (info) with the reason.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from citecheck.checks.quotes import format_pages
from citecheck.findings import Evidence, Finding, Kind, Severity, make_finding
from citecheck.holdings.models import MISUSE_WORDS, HoldingResult, Judgment, Misuse, Outcome, Passage, Support
from citecheck.spans import Span

MAX_EVIDENCE_CHARS = 2400


def _pages(passages: Sequence[Passage]) -> str | None:
    labels: list[str] = []
    for p in passages:
        for part in (p.page or "").replace("–", "-").split("-"):
            if part and part not in labels:
                labels.append(part)
    if not labels:
        return None
    numeric = sorted((x for x in labels if x.isdigit()), key=int)
    rest = [x for x in labels if not x.isdigit()]
    return ", ".join([*(format_pages((x,)) for x in numeric), *rest])


def passages_text(passages: Sequence[Passage]) -> str:
    """The passages as evidence: each with its page label, cut to a readable length."""
    out = "\n\n".join(f"[{p.label()}] {p.text}" for p in passages)
    return out if len(out) <= MAX_EVIDENCE_CHARS else out[: MAX_EVIDENCE_CHARS - 1].rsplit(" ", 1)[0] + "…"


def _quote_label(j: Judgment) -> str:
    """What the verified quote is to the verdict: support, or the court's words the draft is measured by."""
    return "Supporting quote" if j.support in (Support.SUPPORTED, Support.PARTLY) else "The court's words"


def _evidence(r: HoldingResult, *, with_judgment: bool) -> Evidence:
    j = r.judgment if with_judgment else None
    quote = r.quote_text if j is not None and r.quote_start is not None else None
    return Evidence(
        source="model",
        record_id=r.claim.case_id,
        case_name=r.claim.case_name,
        citation=r.claim.cite,
        page=r.quote_page or _pages(r.passages),
        passage=passages_text(r.passages) or None,
        draft=r.claim.proposition,
        note=(f"{_quote_label(j)}: \u201c{quote}\u201d. " if quote and j is not None else "")
        + (j.rationale if j is not None else r.reason)
        or None,
        model=r.model,
        prompt_version=r.prompt_version,
        verdict=j.support.value if j is not None else None,
        misuse=j.misuse.value if j is not None and j.misuse is not Misuse.NONE else None,
    )


def _unsupported_message(r: HoldingResult) -> str:
    j = r.judgment
    assert j is not None
    name = r.claim.case_name
    pages = _pages(r.passages)
    where = (
        f" (read pp. {pages})"
        if pages and ("," in pages or "–" in pages)
        else (f" (read p. {pages})" if pages else "")
    )
    if j.support is Support.CONTRADICTED:
        head = f"{name} appears to say the opposite of what the draft cites it for"
    elif j.support is Support.NOT_SUPPORTED:
        head = f"{name} does not appear to support the proposition it is cited for"
    else:
        head = f"{name} appears to support the proposition only in part"
    why = MISUSE_WORDS.get(j.misuse, "")
    body = f"{head}: {why}." if why else f"{head}."
    return (
        f"{body} Read the opinion{where} before relying on it. (Judged by {r.model}; a model can be wrong.)"
    )


def holding_findings(results: Iterable[HoldingResult]) -> list[Finding]:
    """The findings for a batch of holding results, in their order, each on its claim's citation."""
    return [f for r in results if (f := finding_for(r, r.claim.span, r.claim.citation_index)) is not None]


def finding_for(r: HoldingResult, span: Span, idx: int | None) -> Finding | None:
    """The one finding (or none) for a holding result, placed on ``span`` (the citation as it is now)."""
    if r.outcome is Outcome.JUDGED and r.judgment is not None:
        if r.judgment.support is Support.SUPPORTED:
            return None
        severity = Severity.INFO if r.judgment.support is Support.PARTLY else Severity.WARNING
        return make_finding(
            Kind.UNSUPPORTED_HOLDING,
            span,
            _unsupported_message(r),
            evidence=_evidence(r, with_judgment=True),
            citation_index=idx,
            severity=severity,
        )
    if r.outcome is Outcome.UNVERIFIED:
        return make_finding(
            Kind.HOLDING_UNVERIFIED,
            span,
            f"The model's answer on whether {r.claim.case_name} supports this proposition could not be checked "
            f"against the opinion ({r.reason}), so it was discarded. Check the proposition by hand.",
            evidence=_evidence(r, with_judgment=False),
            citation_index=idx,
        )
    if r.outcome is Outcome.FAILED:
        return make_finding(
            Kind.CANNOT_VERIFY,
            span,
            f"The holding check for {r.claim.case_name} did not run: {r.reason}. The other checks are unaffected.",
            evidence=Evidence(
                source="model",
                record_id=r.claim.case_id,
                case_name=r.claim.case_name,
                citation=r.claim.cite,
                model=r.model,
                prompt_version=r.prompt_version,
                note=r.reason,
            ),
            citation_index=idx,
        )
    return None


def holding_json(r: HoldingResult | None) -> dict[str, object] | None:
    """A holding result for the JSON report (see docs/report-json.md). A discarded judgment (its quote was
    not in the opinion) shows no verdict and no quote: only what was shown to the model and why it was dropped."""
    if r is None:
        return None
    trusted = r.outcome is Outcome.JUDGED and r.judgment is not None
    j = r.judgment if trusted else None
    return {
        "outcome": r.outcome.value,
        "verdict": j.support.value if j is not None else None,
        "misuse": j.misuse.value if j is not None and j.misuse is not Misuse.NONE else None,
        "rationale": j.rationale if j is not None else None,
        "quote": r.quote_text if j is not None else None,
        "quote_page": r.quote_page if j is not None else None,
        "passages": [{"page": p.page, "start": p.start, "end": p.end, "text": p.text} for p in r.passages],
        "model": r.model,
        "prompt_version": r.prompt_version,
        "reason": r.reason or None,
        "cached": r.cached,
    }


def holding_line(r: HoldingResult) -> str:
    """One line for a hover or a text report: what the judge said about the proposition, and who judged.

    >>> from citecheck.holdings.models import Claim
    >>> c = Claim(citation_index=0, span=Span(0, 1), proposition="P", case_id="x", case_name="A v. B", cite="1 U.S. 1")
    >>> holding_line(HoldingResult(claim=c, outcome=Outcome.FAILED, model="m", prompt_version="v", reason="down"))
    'Proposition not judged: down.'
    """
    if r.outcome is Outcome.JUDGED and r.judgment is not None:
        verdict = {
            Support.SUPPORTED: "supported",
            Support.PARTLY: "supported only in part",
            Support.NOT_SUPPORTED: "not supported",
            Support.CONTRADICTED: "contradicted",
        }[r.judgment.support]
        page = f" (p. {r.quote_page})" if r.quote_page else ""
        return (
            f"Proposition {verdict} by the opinion{page}, judged by {r.model} ({r.prompt_version}); "
            "a model can be wrong."
        )
    if r.outcome is Outcome.UNVERIFIED:
        return f"Proposition not judged: the model's answer could not be checked against the opinion ({r.reason})."
    return f"Proposition not judged: {r.reason}."
