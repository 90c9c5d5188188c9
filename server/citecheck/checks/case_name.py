"""Does the name in the draft belong to the case at that citation? name-misspelled / name-mismatch; pure."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from citecheck.checks.base import CheckContext, describe_record, record_evidence
from citecheck.checks.name_match import NameVerdict, clean_draft_name, compare_names
from citecheck.extract.models import CiteForm
from citecheck.findings import Finding, Fix, Kind, TextEdit, make_finding
from citecheck.sources.models import CaseRecord
from citecheck.spans import Span


def best_record(draft_name: str | None, records: Sequence[CaseRecord]) -> CaseRecord | None:
    """Of several cases sharing a citation, the one the draft names (None if it names none of them)."""
    if not records:
        return None
    if len(records) == 1:
        return records[0]
    if not draft_name:
        return None
    name = clean_draft_name(draft_name)
    ranked = {NameVerdict.MATCH: 0, NameVerdict.MISSPELLED: 1, NameVerdict.MISMATCH: 2}
    scored = sorted(records, key=lambda r: ranked[compare_names(name, r.names).verdict])
    return scored[0] if compare_names(name, scored[0].names).verdict is not NameVerdict.MISMATCH else None


class CaseNameCheck:
    id = "case_name"
    local = False

    def run(self, ctx: CheckContext) -> Iterator[Finding]:
        c = ctx.citation
        if c.form is not CiteForm.FULL or c.case_name is None or ctx.lookup is None:
            return
        records = ctx.lookup.records
        if not records:
            return
        draft = c.case_name.text
        cleaned = clean_draft_name(draft)
        if not cleaned:
            return
        offset = c.case_name.span.start + draft.find(cleaned)
        record = ctx.record
        if record is None:  # ambiguous and the draft names none of the candidates
            names = "; ".join(describe_record(r) for r in records[:4])
            yield make_finding(
                Kind.NAME_MISMATCH,
                c.case_name.span,
                f"“{cleaned}” is not any of the cases at {ctx.lookup.key}: {names}.",
                evidence=record_evidence(ctx, draft=cleaned),
                citation_index=c.index,
            )
            return
        result = compare_names(cleaned, record.names)
        if result.verdict is NameVerdict.MATCH:
            return
        cite = ctx.case_cite() or (record.citations[0] if record.citations else None)
        if result.verdict is NameVerdict.MISSPELLED:
            fixed = result.corrected(cleaned)
            edits = tuple(
                TextEdit(span=Span(offset + k.start, offset + k.end), new_text=k.new)
                for k in result.corrections
            )
            words = ", ".join(f"“{k.old}” → “{k.new}”" for k in result.corrections)
            yield make_finding(
                Kind.NAME_MISSPELLED,
                c.case_name.span,
                f"The case at {cite} is {record.name}; the draft spells it “{cleaned}” ({words}).",
                evidence=record_evidence(ctx, draft=cleaned, passage=result.matched_name),
                fixes=(Fix(title=f"Correct the name to “{fixed}”", edits=edits),),
                citation_index=c.index,
            )
            return
        yield make_finding(
            Kind.NAME_MISMATCH,
            c.case_name.span,
            f"{cite} is {describe_record(record, cite)}, not “{cleaned}”. "
            "Either the name or the citation is wrong.",
            evidence=record_evidence(ctx, draft=cleaned, passage=record.name),
            fixes=(
                Fix(
                    title=f"Use the name of the case at this citation: {record.name}",
                    edits=(TextEdit(span=Span(offset, offset + len(cleaned)), new_text=record.name),),
                ),
            ),
            citation_index=c.index,
        )
