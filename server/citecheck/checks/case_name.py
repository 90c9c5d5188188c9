"""Does the name in the draft belong to the case at that citation? name-misspelled / name-mismatch; pure."""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence

from citecheck.checks.base import CheckContext, describe_record, record_evidence
from citecheck.checks.name_match import NameVerdict, clean_draft_name, compare_names
from citecheck.extract.models import CiteForm
from citecheck.findings import Finding, Fix, Kind, Severity, TextEdit, make_finding
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
        if sum(ch.isalpha() for ch in cleaned) < 3:
            return  # not a name (a nickname's closing 'I")' read as one): nothing to compare
        offset = c.case_name.span.start + draft.find(cleaned)
        record = ctx.record
        # the page may hold decisions the source does not list (memorandum decisions, a table: #336,
        # #339): another name there is a warning, not proof (the evidence rule, checks/existence.py)
        shared = ctx.lookup.page_shared
        unlisted = (
            f" Several decisions can be printed on one page of {ctx.lookup.key.reporter}, and the source may "
            "not list them all: if the draft's case is one of them, the citation may be right."
            if shared
            else ""
        )
        severity = Severity.WARNING if shared else None
        if record is None:  # ambiguous and the draft names none of the candidates
            names = "; ".join(describe_record(r) for r in records[:4])
            yield make_finding(
                Kind.NAME_MISMATCH,
                c.case_name.span,
                f"“{cleaned}” is not any of the cases at {ctx.lookup.key}: {names}.{unlisted}",
                evidence=record_evidence(ctx, draft=cleaned),
                citation_index=c.index,
                severity=severity,
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
        if severity is None:
            doubt = _doubt(cleaned, record)
            severity = Severity.WARNING if doubt else None
            unlisted += doubt
        yield make_finding(
            Kind.NAME_MISMATCH,
            c.case_name.span,
            f"{cite} is {describe_record(record, cite)}, not “{cleaned}”. "
            f"Either the name or the citation is wrong.{unlisted}",
            severity=severity,
            evidence=record_evidence(ctx, draft=cleaned, passage=record.name),
            fixes=(
                Fix(
                    title=f"Use the name of the case at this citation: {record.name}",
                    edits=(TextEdit(span=Span(offset, offset + len(cleaned)), new_text=record.name),),
                ),
            ),
            citation_index=c.index,
        )


def _doubt(cleaned: str, record: CaseRecord) -> str:
    """Why another name than the case's is no proof that the citation is another case's ("": it is)."""
    if not _captioned(cleaned):
        # a name of a word or two with no "v." is a short reference, often what is left of a caption the
        # extraction cut ("Hosps.", "Puerto Rico", "HUD")
        return " The draft's name is a short reference, not a caption: check which case it means."
    party = _shared_party(cleaned, record.names)
    if party is not None:
        # one party named right, the other not: a public officer's successor substituted (Hossain v.
        # Ashcroft, later v. Gonzales), a caption renamed on appeal
        return (
            f" The draft names it in part ({party}): a party may have been substituted or renamed, or the "
            "name shortened."
        )
    return ""


_ROMAN = frozenset("i ii iii iv v vi vii viii ix x".split())


def _shared_party(draft: str, record_names: tuple[str, ...]) -> str | None:
    """A party of the draft's name that shares an identifying word (four letters or more; not ``State``,
    ``United States``, ``People``, not a roman numeral) with a party of the case: the draft names the case
    in part (a substituted officer, a renamed caption, a nickname such as *Juda I* or *Igartúa III*, an
    abbreviation the name keys do not fold, a word cut short: ``Garc`` of ``Garcia``). None when no party does."""
    from citecheck.sources.name_keys import GENERIC, name_tokens, parties

    def words(party: str) -> set[str]:
        return {t for t in name_tokens(party) if len(t) >= 4 and t not in GENERIC and t not in _ROMAN}

    theirs = set().union(*(words(p) for n in record_names for p in parties(n))) if record_names else set()

    # the letters of each party: "La France" is "LaFrance", "DiazVillafane" is "Diaz-Villafane"
    def named(party: str) -> bool:  # a party with a word that identifies (not "United States" alone)
        return any(t not in GENERIC for t in name_tokens(party))

    squashed = {_letters(p) for n in record_names for p in parties(n) if named(p)} - {""}
    initials = {_initials(p) for n in record_names for p in parties(n)} - {""}
    for written in parties(draft):
        letters = _letters(written)
        if words(written) & theirs or (named(written) and len(letters) >= 4 and letters in squashed):
            return written
        if any(t != w and w.startswith(t) for t in words(written) for w in theirs):
            return (
                written  # "Garc" of "United States v. Garc a" for Garcia: a word cut (a letter the text lost)
            )
        if _acronym(written) and any(_acronym(written) in i for i in initials):
            return written  # "PRASA" for Puerto Rico Aqueduct & Sewer Auth.: an acronym the court defined
    return None


#: Words an acronym leaves out.
_NOT_INITIALLED = frozenset("of the and for inc corp co ltd llc".split())


def _acronym(party: str) -> str:
    """The letters of a party written as an acronym (``M&E``, ``PRASA``, ``N.L.R.B.``), else "".

    >>> _acronym("M&E"), _acronym("PRASA"), _acronym("N.L.R.B."), _acronym("Smith"), _acronym("A")
    ('ME', 'PRASA', 'NLRB', '', '')
    """
    letters = re.sub(r"[&.\s]", "", party)
    return letters if 2 <= len(letters) <= 8 and letters.isalpha() and letters.isupper() else ""


def _initials(party: str) -> str:
    """The initials of a party's capitalised words, less those an acronym leaves out.

    >>> _initials("Puerto Rico Aqueduct & Sewer Auth."), _initials("Metcalf & Eddy, Inc.")
    ('PRASA', 'ME')
    """
    found = re.findall(r"[A-Za-z][\w'-]*", party)
    return "".join(w[0] for w in found if w[0].isupper() and w.lower() not in _NOT_INITIALLED)


def _letters(text: str) -> str:
    return "".join(ch for ch in text.lower() if ch.isalpha())


def _captioned(name: str) -> bool:
    """A caption (``A v. B``, ``In re A``, ``Ex parte A``), or a name of three words or more."""
    lowered = f" {name.lower()} "
    if " v. " in lowered or " vs. " in lowered or " v " in lowered:
        return True
    return lowered.startswith((" in re ", " ex parte ")) or len(name.split()) >= 3
