"""Statute and regulation citations against a real statute index: fabricated, repealed, moved, misquoted.

The citations are built by hand in the extraction's model (``CiteForm.STATUTE``), then go through the
real ``gather`` (a ``SourceChain`` with the index) and ``judge``.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from citecheck.config import Settings
from citecheck.extract import extract_citations
from citecheck.extract.models import Citation, CiteForm, Extraction, Quote, Statute, StatuteForm
from citecheck.findings import Kind, Severity
from citecheck.gather import gather
from citecheck.judge import judge
from citecheck.results import Status
from citecheck.sources.chain import SourceChain
from citecheck.sources.statutes.index import StatuteIndex
from citecheck.sources.statutes.link import StatuteLink
from citecheck.spans import Span
from citecheck_testing.statutes import build_sample_index

CODES = {"U.S.C.": "usc", "C.F.R.": "cfr"}
_CITE = re.compile(r"(?:(\d+) (U\.S\.C\.|C\.F\.R\.) )?§ ([\w.\-–]+)((?:\([a-z0-9]+\))*)")


def _extraction(text: str) -> Extraction:
    """Every ``N U.S.C. § X`` / ``§ X`` in ``text`` as a statute citation (short forms take the last full one)."""
    cites: list[Citation] = []
    last_full: int | None = None
    for m in _CITE.finditer(text):
        full = m.group(1) is not None
        subs = tuple(re.findall(r"\([a-z0-9]+\)", m.group(4) or ""))
        statute = Statute(
            form=StatuteForm.FULL if full else StatuteForm.SHORT,
            code=CODES[m.group(2)] if full else None,
            title=m.group(1),
            section=m.group(3).replace("–", "-"),
            subsections=subs,
        )
        quotes: tuple[Quote, ...] = ()
        q = re.match(r'[^"]{0,5}"([^"]+)"', text[m.end() :])
        if q:
            start = m.end() + q.start(1)
            quotes = (Quote(text=q.group(1), span=Span(start, start + len(q.group(1)))),)
        i = len(cites)
        cites.append(
            Citation(
                index=i,
                form=CiteForm.STATUTE,
                span=Span(m.start(), m.end()),
                full_span=Span(m.start(), m.end()),
                text=m.group(0),
                statute=statute,
                quotes=quotes,
                antecedent=None if full else last_full,
            )
        )
        if full:
            last_full = i
    return Extraction(text=text, citations=tuple(cites))


@pytest.fixture()
def index(tmp_path: Path) -> StatuteIndex:
    return StatuteIndex(build_sample_index(tmp_path), readonly=True)


async def _check(text: str, index: StatuteIndex):  # type: ignore[no-untyped-def]
    extraction = _extraction(text)
    chain = SourceChain([StatuteLink(index)])
    evidence = await gather(extraction, chain)
    return judge(extraction, evidence, Settings(offline=True))


async def test_a_real_section_is_verified_with_its_heading(index: StatuteIndex) -> None:
    report = await _check("Plaintiff sues under 42 U.S.C. § 1983.", index)
    assert report.findings == ()
    result = report.result(0)
    assert result is not None and result.status is Status.VERIFIED
    assert result.statute is not None and result.statute.heading == "Civil action for deprivation of rights"


async def test_an_invented_section_in_a_covered_title_is_fabricated(index: StatuteIndex) -> None:
    report = await _check("See 42 U.S.C. § 1983a (creating a federal tort).", index)
    (f,) = report.findings
    assert (f.kind, f.severity) == (Kind.FABRICATED_STATUTE, Severity.ERROR)
    assert "42 U.S.C. § 1983a does not exist" in f.message and "release point 119-36" in f.message
    assert "nearest sections: § 1982 (Property rights of citizens), § 1983 (Civil action" in (
        f.evidence.note or ""
    )
    assert report.result(0).status is Status.PROBLEM  # type: ignore[union-attr]


async def test_a_section_inside_a_repealed_range_is_repealed_not_fabricated(index: StatuteIndex) -> None:
    report = await _check("42 U.S.C. § 2405 once required it.", index)
    (f,) = report.findings
    assert (f.kind, f.severity) == (Kind.STATUTE_REPEALED, Severity.WARNING)
    assert f.message.startswith("42 U.S.C. §§ 2401–2408 was repealed")


async def test_repealed_and_transferred_sections_are_warnings_naming_where_they_went(
    index: StatuteIndex,
) -> None:
    report = await _check("Under 42 U.S.C. § 1984 and 42 U.S.C. § 1981a, relief follows.", index)
    repealed, moved = report.findings
    assert (
        repealed.kind is Kind.STATUTE_REPEALED
        and "§ 1984 was repealed (Repealed. Pub. L. 99–1" in repealed.message
    )
    assert moved.kind is Kind.STATUTE_REPEALED
    assert "42 U.S.C. § 1981a was transferred to 42 U.S.C. § 2000e-16a" in moved.message
    (fix,) = moved.fixes
    assert fix.edits[0].new_text == "42 U.S.C. § 2000e-16a"


async def test_a_transferred_section_cited_with_et_seq_or_as_a_range_gets_no_fix_that_drops_it(
    index: StatuteIndex,
) -> None:
    """'Cite 42 U.S.C. § 2000e-16a' replaced '42 U.S.C. § 1981a et seq.' whole: the fix dropped the
    'et seq.' (and a range's other end) and changed what the draft cites; and '§§ 1981a–1983', read as one
    section '1981a-1983', was a fabricated-statute error on a real range."""
    extraction = extract_citations("See 42 U.S.C. § 1981a et seq. and 42 U.S.C. §§ 1981a\u20131983.")
    report = judge(
        extraction, await gather(extraction, SourceChain([StatuteLink(index)])), Settings(offline=True)
    )
    assert [f.kind for f in report.findings] == [Kind.STATUTE_REPEALED, Kind.STATUTE_REPEALED]
    assert all(f.fixes == () for f in report.findings)


async def test_a_title_the_index_does_not_hold_is_not_checked(index: StatuteIndex) -> None:
    report = await _check("See 18 U.S.C. § 9999.", index)
    assert not any(f.kind is Kind.FABRICATED_STATUTE for f in report.findings)
    assert report.result(0).status is Status.NOT_CHECKED  # type: ignore[union-attr]
    # there is an index: the finding says it lacks the title, not that there is none
    (f,) = [f for f in report.findings if f.kind is Kind.STATUTE_NOT_CHECKED]
    assert "the statute index does not hold 18 U.S.C." in f.message, f.message
    assert "no statute index" not in f.message


async def test_a_short_form_takes_the_title_of_its_full_citation(index: StatuteIndex) -> None:
    report = await _check("42 U.S.C. § 1983 provides a remedy; § 1983b does not exist.", index)
    (f,) = report.findings
    assert f.kind is Kind.FABRICATED_STATUTE and f.citation_index == 1


async def test_cfr_removed_since_the_briefs_date_is_not_a_problem(index: StatuteIndex) -> None:
    later = await _check("Under 17 C.F.R. § 240.10b-7, offers must be registered.", index)
    (f,) = later.findings
    assert f.kind is Kind.STATUTE_REPEALED and "was removed from the C.F.R." in f.message
    then = await _check(
        "---\ndate: 2019-05-01\n---\nUnder 17 C.F.R. § 240.10b-7, offers must be registered.", index
    )
    assert then.findings == ()
    assert then.result(0).status is Status.VERIFIED  # type: ignore[union-attr]


async def test_a_quotation_is_compared_with_the_sections_text(index: StatuteIndex) -> None:
    good = await _check(
        '42 U.S.C. § 1983 ("shall be liable to the party injured in an action at law").', index
    )
    assert good.findings == ()
    bad = await _check(
        '42 U.S.C. § 1983 ("shall be liable to any person injured in an action at law").', index
    )
    (f,) = bad.findings
    assert f.kind is Kind.MISQUOTE and f.message.startswith("Misquotation of 42 U.S.C. § 1983")
    assert "the party injured" in (f.evidence.passage or "")
    # a statute is no opinion: the difference names the section's words as the section's
    assert "the section says" in f.message and "opinion" not in f.message
    assert "opinion" not in (f.evidence.diff or "")


async def test_the_quote_it_exactly_fix_keeps_the_sentences_full_stop(index: StatuteIndex) -> None:
    """The fix wrote the section's words over '…for damages.' and the sentence lost its full stop:
    'proceeding for redress" 42 U.S.C. § 1983.' (the case misquote fix did the same)."""
    text = (
        'A person "shall be liable to the party injured in an action at law, suit in equity, '
        'or other proper proceeding for damages." 42 U.S.C. § 1983.'
    )
    extraction = extract_citations(text)
    report = judge(
        extraction, await gather(extraction, SourceChain([StatuteLink(index)])), Settings(offline=True)
    )
    (f,) = report.findings
    (edit,) = f.fixes[0].edits
    assert text[edit.span.start : edit.span.end].endswith("for damages.")
    assert edit.new_text.endswith("proceeding for redress.")


async def test_a_reserved_cfr_section_is_a_warning(index: StatuteIndex) -> None:
    report = await _check("17 C.F.R. § 240.10b-6 governs.", index)
    (f,) = report.findings
    assert f.kind is Kind.STATUTE_REPEALED and "is reserved" in f.message


async def test_without_an_index_nothing_is_accused(tmp_path: Path) -> None:
    extraction = _extraction("See 42 U.S.C. § 1983a.")
    evidence = await gather(extraction, SourceChain())
    report = judge(extraction, evidence, Settings(offline=True))
    assert not any(f.kind is Kind.FABRICATED_STATUTE for f in report.findings)
    assert report.result(0).status is Status.NOT_CHECKED  # type: ignore[union-attr]


async def test_a_section_written_without_a_section_sign_is_never_called_fabricated(
    index: StatuteIndex,
) -> None:
    """PDF text where the "§" was lost and a footnote number ran into the section ("29 U.S.C    110611" in a
    real First Circuit opinion: § 1106, note 11) reads as a section the title lacks: a warning that says the
    number may be garbled, never an error; the same number written with "§" is still an error."""
    for text, severity in (
        ("Relief lies under 42 U.S.C    198311 against state actors.", Severity.WARNING),
        ("Relief lies under 42 U.S.C. § 198311 against state actors.", Severity.ERROR),
    ):
        extraction = extract_citations(text)
        evidence = await gather(extraction, SourceChain([StatuteLink(index)]))
        report = judge(extraction, evidence, Settings(offline=True))
        (f,) = [f for f in report.findings if f.kind is Kind.FABRICATED_STATUTE]
        assert f.severity is severity, text
        if severity is Severity.WARNING:
            assert "without a section sign" in f.message
