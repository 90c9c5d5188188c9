"""Double-spaced opinions: a blank line after every line, and citations wrapped across two of them.

CourtListener's plain text of many older opinions (and the text layer of a double-spaced PDF) puts a
blank line after every line, so a citation wrapped at a line end was cut in two at a "paragraph end":
the full cite was never found and its short forms stayed unresolved. Excerpts are real First Circuit
opinions as CourtListener serves them (opinion named in the row), checked offline.
"""

from __future__ import annotations

import asyncio

import pytest

from citecheck.config import Settings
from citecheck.extract import CiteForm, Document, Edit, extract_citations
from citecheck.findings import Severity
from citecheck.pipeline import check_document

CA1 = "First Circuit, CourtListener opinion "

# (excerpt, the full cite's name and core, the short form that must resolve to it, source)
WRAPPED: list[tuple[str, str, str, str, str]] = [
    (
        'distinction is that "a person cannot be found guilty of aiding and\n\n'
        'abetting a crime that already has been committed." United States\n\n'
        "v. Hamilton, 334 F.3d 170, 180 (2d Cir. 2003); SEC v. Papa, 555\n\n"
        "F.3d 31, 36 (1st Cir. 2009).\n\n"
        "However, conspiracy, like carjacking in this circuit, is often a\n\n"
        "continuing offense. As alleged\n\n"
        "in the indictment and implicitly found by the jury, the conspiracy\n\n"
        "in this case continued at least while Pérez was held hostage. See\n\n"
        'Papa, 555 F.3d at 36 n.3 ("[A] conspiracy generally ends when the\n\n'
        'design to commit substantive misconduct ends.").',
        "SEC v. Papa",
        "555\n\nF.3d 31",
        "Papa, 555 F.3d at 36 n.3",
        CA1 + "150888 (United States v. Pérez-Montañez)",
    ),
    (
        "\"a corporate officer with operational control of a corporation's\n\n"
        "covered enterprise is an employer along with the corporation,\n\n"
        'jointly and severally liable . . . for unpaid wages." Donovan v.\n\n'
        "Agnew, 712 F.2d 1509, 1511 (1st Cir. 1983).\n\n"
        'with individual liability under the FLSA, we concluded that "it\n\n'
        "should not lightly be inferred that Congress intended to disregard\n\n"
        "in this context the shield from personal liability which is one of\n\n"
        'the major purposes of doing business in a corporate form." Agnew,\n\n'
        "712 F.2d at 1513. We thus eschewed a literal reading of the FLSA's\n\n"
        "definition.",
        "Donovan v.\n\nAgnew",
        "712 F.2d 1509",
        "Agnew,\n\n712 F.2d at 1513",
        CA1 + "1036108 (Manning v. Boston Medical Center Corp.)",
    ),
]


@pytest.mark.parametrize(("text", "name", "core", "short", "source"), WRAPPED, ids=[w[-1] for w in WRAPPED])
def test_a_citation_wrapped_across_a_blank_line_is_found_and_its_short_form_resolves(
    text: str, name: str, core: str, short: str, source: str
) -> None:
    cites = extract_citations(text).citations
    [full] = [c for c in cites if c.form is CiteForm.FULL and text[c.span.start : c.span.end] == core]
    assert full.case_name is not None and text[full.case_name.span.start : full.case_name.span.end] == name
    assert (full.year, full.court) != (None, None), source
    [sf] = [c for c in cites if c.form is CiteForm.SHORT and text[c.span.start : c.span.end] == short]
    assert sf.antecedent == full.index, source
    report = asyncio.run(check_document(text, None, Settings()))
    loud = [f for f in report.findings if f.severity in (Severity.ERROR, Severity.WARNING)]
    assert loud == [], source


def test_typing_at_a_double_spaced_line_end_re_splits_as_a_full_split() -> None:
    """Typing the period that ends a wrapped line makes its blank line a paragraph end, and back."""
    text = WRAPPED[0][0]
    doc = Document(text)
    at = text.index(" See\n\nPapa") + len(" See")
    for edit in (Edit(start=at, end=at, new_text="."), Edit(start=at, end=at + 1, new_text="")):
        got = doc.apply_edits([edit])
        assert got == extract_citations(doc.text)
