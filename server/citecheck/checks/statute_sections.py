"""Statute and regulation citations against the statute index: sections that do not exist, sections
repealed or moved, and quotations compared with the section's text. Pure: the answers were gathered.

Only a title the index holds whole can make a section ``fabricated-statute`` (an error), and only
when no section of the title begins with the cited number and a parenthesis (``§ 1.401(a)(9)-9``
read as § 1.401), no other act of an appendix has it, and no newer edition than the one the index
holds is known (a newer U.S. Code release point; a brief dated after a C.F.R. edition): then it is a
warning that says which edition was used. A C.F.R. part, subpart or appendix the index lacks is a
warning. A title the index does not hold is not checked here (the offline checks say so). A repealed,
transferred, renumbered, omitted, reserved, expired or removed section is a warning naming the
release and where it went, when the source says; a fix cites the destination only when the index
shows it in force. A number several sections bear (two acts of one appendix) has no heading, status
or quotation verdict. Quotations use the opinions' matcher (``quote_match``) on the section's text.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import replace

from citecheck.checks.base import CheckContext, QuoteMatch
from citecheck.checks.quote_match import exact_quote, opinion_index, quote_word_count
from citecheck.checks.quotes import SHORT_QUOTE_WORDS, match_quotes
from citecheck.extract.models import CiteForm, StatuteKey
from citecheck.findings import Evidence, Finding, Fix, Kind, Severity, TextEdit, make_finding
from citecheck.sources.statutes.records import (
    CODES,
    LookupOutcome,
    SectionRecord,
    SectionStatus,
    StatuteAnswer,
)

__all__ = ["StatuteSectionCheck", "brief_date", "edition_label"]

SOURCE = "statute index"

#: what the index says of a destination, after the message's "transferred to X"
_MOVED_STATE = {
    "current": "",
    "": "",
    "missing": ", which that release does not hold (it may have moved again)",
    "unchecked": "",
}

_STATUS_WORDS = {
    SectionStatus.REPEALED: "was repealed",
    SectionStatus.TRANSFERRED: "was transferred",
    SectionStatus.RENUMBERED: "was renumbered",
    SectionStatus.OMITTED: "was omitted from the Code",
    SectionStatus.RESERVED: "is reserved (it has no text)",
    SectionStatus.EXPIRED: "has expired",
    SectionStatus.REMOVED: "was removed from the C.F.R.",
}


def edition_label(code: str, edition: str) -> str:
    """``"the U.S. Code (release point 118-200)"`` / ``"the eCFR (2024-01-03)"``."""
    if code == "cfr":
        return f"the eCFR ({edition})" if edition else "the eCFR"
    return f"the U.S. Code (release point {edition})" if edition else "the U.S. Code"


def _label(key: StatuteKey) -> str:
    return (
        str(key)
        if key.unit or (key.title or "").endswith("a")
        else f"{key.title} {CODES.get(key.code, key.code)} § {key.section}"
    )


def _brief(record: SectionRecord) -> str:
    heading = record.heading if len(record.heading) <= 70 else record.heading[:67] + "…"
    return f"§ {record.section} ({heading})" if heading else f"§ {record.section}"


#: how a section is introduced when it is marked as one: "§", "§§", "sec.", "section"
_SECTION_MARK = re.compile(r"§|\bsecs?\b|\bsections?\b", re.IGNORECASE)


def _unmarked(ctx: CheckContext, key: StatuteKey, where: str) -> str | None:
    """A section number written without a section mark (``29 U.S.C    110611``) is what text from a PDF
    looks like when the "§" was lost and a footnote number ran into the section (§ 1106, note 11): the
    index's answer says nothing about the section the writer meant, so it is at most a warning.

    >>> import re
    >>> bool(_SECTION_MARK.search("42 U.S.C. § 1983")), bool(_SECTION_MARK.search("29 U.S.C    110611"))
    (True, False)
    """
    if key.unit:
        return None
    span = ctx.citation.span
    if _SECTION_MARK.search(ctx.extraction.text[span.start : span.end]):
        return None
    return (
        f"{_label(key)} is not in {where}; it is written without a section sign, as text copied from a PDF "
        'can be when the "§" was lost or a footnote number ran into the section: check the section number.'
    )


def _doubt(key: StatuteKey, answer: StatuteAnswer, where: str) -> str | None:
    """Why a section the index lacks may exist after all (a warning's message), or None (an error)."""
    if key.unit:
        return f"{_label(key)} is not in {where}: check the {key.unit}'s number."
    if answer.newer:
        newer = (
            f"release point {answer.newer} is newer"
            if key.code == "usc"
            else f"the brief is dated {answer.newer}"
        )
        return (
            f"{_label(key)} is not in {where}, the edition the statute index holds, but {newer}: the section may "
            "have been enacted since. Sync the current edition (`citecheck corpus sync --statutes`) to check it."
        )
    if answer.similar and any(r.act for r in answer.similar):
        acts = ", ".join(
            f"App. {r.act_number} ({r.act_name})" if r.act_number else r.act_name or "another act"
            for r in answer.similar
        )
        reason = answer.reason[:1].upper() + answer.reason[1:]
        return f"{reason}, but {acts} of the appendix has a § {key.section}: check the act's number."
    if answer.similar:
        like = ", ".join(_brief(r) for r in answer.similar)
        return f"Title {key.title} of {where} has no § {key.section}, but it has {like}: check the section number."
    return None


class StatuteSectionCheck:
    id = "statute_sections"
    local = False

    def run(self, ctx: CheckContext) -> Iterator[Finding]:
        c = ctx.citation
        if c.form is not CiteForm.STATUTE or not ctx.statutes:
            return
        for key, answer in ctx.statutes:
            if answer.outcome is LookupOutcome.NOT_FOUND:
                yield self._missing(ctx, key, answer)
            elif answer.record is not None and answer.record.status is not SectionStatus.CURRENT:
                yield self._gone(ctx, key, answer.record)
        first = ctx.statutes[0][1].record
        if first is not None and first.ambiguous:
            return  # several sections bear the number: no one text to compare a quotation with
        if first is not None and first.status is SectionStatus.CURRENT and ctx.statute_text and c.quotes:
            for m in match_quotes(c, opinion_index(ctx.statute_text)):
                if m is not None and not m.exact:
                    yield self._misquote(ctx, first, m)

    def _missing(self, ctx: CheckContext, key: StatuteKey, answer: StatuteAnswer) -> Finding:
        where = edition_label(key.code, answer.edition)
        near = ", ".join(_brief(r) for r in answer.neighbours)
        evidence = Evidence(
            source=SOURCE,
            citation=_label(key),
            note=f"{where}; nearest sections: {near}" if near else where,
        )
        doubt = _doubt(key, answer, where) or _unmarked(ctx, key, where)
        if doubt is not None:  # the section may exist after all: say what may be wrong, never accuse
            return make_finding(
                Kind.FABRICATED_STATUTE,
                ctx.citation.span,
                doubt,
                evidence=evidence,
                citation_index=ctx.citation.index,
                severity=Severity.WARNING,
            )
        after = f" The nearest sections are {near}." if near else ""
        return make_finding(
            Kind.FABRICATED_STATUTE,
            ctx.citation.span,
            f"{_label(key)} does not exist: title {key.title} of {where} has no such section.{after}",
            evidence=evidence,
            citation_index=ctx.citation.index,
        )

    def _gone(self, ctx: CheckContext, key: StatuteKey, record: SectionRecord) -> Finding:
        c = ctx.citation
        words = _STATUS_WORDS.get(record.status, f"is {record.status.value}")
        cited = record.citation if record.range_last else _label(key)
        moved = ""
        fixes: tuple[Fix, ...] = ()
        if record.moved_to:
            moved = (
                f" to {record.moved_to}"
                if record.status is SectionStatus.TRANSFERRED
                else f" as {record.moved_to}"
            ) + _MOVED_STATE.get(record.moved_state, f", since {record.moved_state} itself")
            statute = c.statute
            if (
                record.moved_checked
                and statute is not None
                and statute.code is not None
                and not statute.subsections
                and not statute.also
                and statute.last_section is None
                and not statute.et_seq
            ):
                fixes = (
                    Fix(
                        title=f"Cite {record.moved_to}",
                        edits=(TextEdit(span=c.span, new_text=record.moved_to),),
                    ),
                )
        heading = f" ({record.heading})" if record.heading and record.heading.lower() not in words else ""
        if moved and record.heading.lower().startswith(("renumbered", "transferred")):
            heading = ""  # "Renumbered § 474": the destination already says it
        return make_finding(
            Kind.STATUTE_REPEALED,
            c.span,
            f"{cited} {words}{moved}{heading}, according to {edition_label(record.code, record.edition)}.",
            evidence=Evidence(
                source=SOURCE,
                citation=record.citation,
                url=record.url,
                date=record.amended,
                passage=record.heading or None,
                note=edition_label(record.code, record.edition),
            ),
            fixes=fixes,
            citation_index=c.index,
        )

    def _misquote(self, ctx: CheckContext, record: SectionRecord, m: QuoteMatch) -> Finding:
        # the opinions' matcher words its diff for an opinion: here the words are the section's
        m = replace(m, diff=m.diff.replace("the opinion says", "the section says") if m.diff else m.diff)
        quote = ctx.citation.quotes[m.quote_index]
        draft = quote.text
        short = draft if len(draft) <= 80 else draft[:77] + "…"
        evidence = Evidence(
            source=SOURCE,
            citation=record.citation,
            url=record.url,
            passage=m.passage or None,
            draft=draft,
            diff=m.diff,
            note=edition_label(record.code, record.edition),
        )
        if m.swallowed_negation:
            message = (
                f"The ellipsis in “{short}” leaves out “{m.swallowed_negation}”, which reverses the meaning of "
                f"{record.citation}."
            )
            return make_finding(
                Kind.MISQUOTE, quote.span, message, evidence=evidence, citation_index=ctx.citation.index
            )
        if not m.passage:
            return make_finding(
                Kind.MISQUOTE,
                quote.span,
                (
                    f"The quotation “{short}” does not appear in {record.citation}, "
                    "and nothing in the section comes close."
                ),
                evidence=evidence,
                citation_index=ctx.citation.index,
                severity=Severity.WARNING,
            )
        fixes: tuple[Fix, ...] = ()
        if m.score >= 0.7 and "..." not in draft and "…" not in draft and ". . ." not in draft:
            fixes = (
                Fix(
                    title="Quote the section exactly",
                    edits=(TextEdit(span=quote.span, new_text=exact_quote(draft, m.passage)),),
                ),
            )
        return make_finding(
            Kind.MISQUOTE,
            quote.span,
            f"Misquotation of {record.citation}: {m.diff}.",
            evidence=evidence,
            fixes=fixes,
            citation_index=ctx.citation.index,
            severity=Severity.WARNING if quote_word_count(draft) < SHORT_QUOTE_WORDS else None,
        )


# ------------------------------------------------------------------------------------------ the brief's date
_MONTHS = {
    m: i
    for i, m in enumerate(
        "january february march april may june july august september october november december".split(), 1
    )
}
_FRONT = re.compile(r"\A\ufeff?---[ \t]*\n(.*?)\n(?:---|\.\.\.)[ \t]*(?:\n|\Z)", re.S)
_FRONT_DATE = re.compile(r"^date[ \t]*:[ \t]*[\"']?([^\"'\n]+?)[\"']?[ \t]*$", re.M | re.I)
_DATED = re.compile(r"^[ \t]*(?:dated|date|filed)[ \t]*:[ \t]*(.+?)[ \t]*$", re.M | re.I)
_ISO = re.compile(r"(\d{4})-(\d{2})-(\d{2})")
_LONG = re.compile(r"([A-Za-z]+)\.?\s+(\d{1,2}),?\s+(\d{4})")
_US = re.compile(r"(\d{1,2})/(\d{1,2})/(\d{4})")


def _date_of(value: str) -> str | None:
    if m := _ISO.search(value):
        y, mo, d = int(m.group(1)), int(m.group(2)), int(m.group(3))
    elif (m := _LONG.search(value)) and m.group(1).lower() in _MONTHS:
        y, mo, d = int(m.group(3)), _MONTHS[m.group(1).lower()], int(m.group(2))
    elif m := _US.search(value):
        y, mo, d = int(m.group(3)), int(m.group(1)), int(m.group(2))
    else:
        return None
    if not (1900 <= y <= 2200 and 1 <= mo <= 12 and 1 <= d <= 31):
        return None
    return f"{y:04d}-{mo:02d}-{d:02d}"


def brief_date(text: str) -> str | None:
    """The date a brief bears, ISO: front matter ``date:``, else a ``Dated:`` / ``Date:`` / ``Filed:`` line.

    The C.F.R. checks use it to judge a section as it stood then (a section removed later was in force).

    >>> brief_date("---\\ndate: 2019-05-01\\n---\\nBody")
    '2019-05-01'
    >>> brief_date("Respectfully submitted.\\nDated: March 3, 2020\\n")
    '2020-03-03'
    >>> brief_date("No date here, 42 U.S.C. § 1983.") is None
    True
    """
    head = text[:4000]
    if (m := _FRONT.match(head)) and (d := _FRONT_DATE.search(m.group(1))):
        if found := _date_of(d.group(1)):
            return found
    for m in _DATED.finditer(text[:4000] + "\n" + text[-4000:]):
        if found := _date_of(m.group(1)):
            return found
    return None
