"""Words and severities a user sees in the editor match the verdict (issue 15).

"Could not be verified" is a hint, not a squiggle (configurable); related information says
"Matched" only for a record a source matched; the hover never calls a citation that cannot exist
"found"; pygls' late-cancel warnings stay out of the Output panel.
"""

from __future__ import annotations

import logging
from types import SimpleNamespace

import pytest
from lsprotocol import types

from citecheck.config import settings_from_mapping
from citecheck.errors import ConfigError
from citecheck.findings import Evidence, Kind, make_finding
from citecheck.ignores import IgnoreKey
from citecheck.lsp.convert import ClientFeatures, shows_as_diagnostic, to_diagnostic
from citecheck.lsp.features.hover import render_hover
from citecheck.lsp.log_filters import LATE_CANCEL, PYGLS_RPC_LOGGER, LateCancelToDebug, install
from citecheck.lsp.positions import LineIndex
from citecheck.spans import Span

TEXT = "See Berry v. Keith, 100 A.2d 831 (1953) and Whitfield, 64 F.4th 512 (D.C. Cir. 2001).\n"
BERRY = Span(TEXT.index("100 A.2d 831"), TEXT.index("100 A.2d 831") + 12)
WHIT = Span(TEXT.index("64 F.4th 512"), TEXT.index("64 F.4th 512") + 12)


def _diag(finding, **kw):
    return to_diagnostic(
        finding,
        uri="file:///b.md",
        index=LineIndex(TEXT),
        encoding="utf-16",
        key=IgnoreKey(kind=str(finding.kind), citation="x"),
        client=ClientFeatures(),
        **kw,
    )


def _cannot_verify():
    return make_finding(
        Kind.CANNOT_VERIFY,
        BERRY,
        "100 A.2d 831 could not be verified: the local corpus does not "
        "cover 100 A.2d. This is not a finding that the case does not exist.",
        evidence=Evidence(
            source="corpus", citation="100 A.2d 831", note="the local corpus does not cover 100 A.2d"
        ),
        citation_index=0,
    )


def _impossible():
    note = "F.4th began in 2021; a case decided in 2001 cannot be reported there"
    return make_finding(
        Kind.IMPOSSIBLE_CITATION,
        WHIT,
        f"Impossible citation: {note}.",
        evidence=Evidence(source="reporters-db", citation="64 F.4th 512", note=note),
        citation_index=1,
    )


def test_cannot_verify_is_a_hint_by_default_and_configurable():
    assert _diag(_cannot_verify()).severity == types.DiagnosticSeverity.Hint
    assert (
        _diag(_cannot_verify(), cannot_verify="information").severity == types.DiagnosticSeverity.Information
    )
    assert not shows_as_diagnostic(_cannot_verify(), "none") and shows_as_diagnostic(_cannot_verify(), "hint")
    assert shows_as_diagnostic(_impossible(), "none")  # only cannot-verify is affected
    assert _diag(_impossible(), cannot_verify="none").severity == types.DiagnosticSeverity.Error
    assert settings_from_mapping({"cannotVerifyDiagnostics": "None"}).cannot_verify_diagnostics == "none"
    with pytest.raises(ConfigError, match="hint, information, none"):
        settings_from_mapping({"cannotVerifyDiagnostics": "squiggle"})


def test_related_information_never_says_matched_without_a_match():
    assert not _diag(_cannot_verify()).related_information  # the message already says why
    # the message says why it cannot exist: the related information does not say it again
    assert not _diag(_impossible()).related_information
    terse = make_finding(
        Kind.IMPOSSIBLE_CITATION,
        WHIT,
        "Impossible citation.",
        evidence=Evidence(source="reporters-db", citation="64 F.4th 512", note="F.4th began in 2021"),
        citation_index=1,
    )
    related = [r.message for r in _diag(terse).related_information]
    assert not any("Matched" in m for m in related), related
    assert related == ["Why it cannot exist: F.4th began in 2021 (per reporters-db)"]
    fabricated = make_finding(
        Kind.FABRICATED_CASE,
        BERRY,
        "No case begins at 100 A.2d 831 …",
        evidence=Evidence(source="the local corpus", citation="100 A.2d 831"),
        citation_index=0,
    )
    related = [r.message for r in _diag(fabricated).related_information]
    assert related == ["Looked up 100 A.2d 831 in the local corpus: no case begins there"]
    matched = make_finding(
        Kind.YEAR_MISMATCH,
        BERRY,
        "year",
        citation_index=0,
        evidence=Evidence(
            source="corpus",
            record_id="cap:1",
            case_name="Berry v. Keith",
            citation="100 A.2d 831",
            date="1953-11-25",
        ),
    )
    assert _diag(matched).related_information[0].message.startswith("Matched: Berry v. Keith, 100 A.2d 831")


def test_hover_words_match_the_verdict():
    text = render_hover("64 F.4th 512", None, [_impossible()], None)
    assert "found" not in text.split("\n")[0]
    from citecheck.lsp.features.hover import verdict_text

    assert verdict_text("problem", None, [_impossible()]) == "cannot exist as cited"
    assert verdict_text("problem", None, []) == "has problems (see below)"
    found = SimpleNamespace(record=object())  # a result whose lookup matched a record
    assert verdict_text("problem", found, []) == "found, with problems (see below)"
    assert verdict_text("problem", found, [_impossible()]) == "cannot exist as cited"


def test_late_cancel_warnings_are_demoted_and_others_kept(caplog):
    install()
    install()  # idempotent
    logger = logging.getLogger(PYGLS_RPC_LOGGER)
    assert sum(isinstance(f, LateCancelToDebug) for f in logger.filters) == 1
    with caplog.at_level(logging.WARNING):
        logger.warning(LATE_CANCEL + ' "%s"', 41)
        logger.warning("Failed to handle request %s", 42)
    assert [r.getMessage() for r in caplog.records] == ["Failed to handle request 42"]
    with caplog.at_level(logging.DEBUG, logger=PYGLS_RPC_LOGGER):
        caplog.clear()
        logger.warning(LATE_CANCEL + ' "%s"', 43)
    assert [(r.levelname, r.getMessage()) for r in caplog.records] == [("DEBUG", LATE_CANCEL + ' "43"')]


@pytest.mark.corpus
async def test_the_hover_popup_says_each_thing_once(tmp_path) -> None:
    """VS Code shows the diagnostics under the cursor (message and related information) in the same
    popup as the hover: on every citation of the example brief, with the real 100 A.2d and
    CourtListener samples, no clause of 20 characters or more appears twice in that popup (the impossible
    citation's reason appeared three times: message, "Why it cannot exist", the hover's list)."""
    import re

    from citecheck.config import Settings
    from citecheck.lsp.convert import related_lines
    from citecheck.pipeline import check_document
    from citecheck.sources.corpus import Corpus, CorpusSource
    from citecheck_testing import REPO_ROOT, import_shared_corpus

    text = (REPO_ROOT / "examples" / "brief.md").read_text(encoding="utf-8")
    corpus = Corpus(import_shared_corpus(tmp_path / "corpus.sqlite"))
    try:
        report = await check_document(text, CorpusSource(corpus), Settings(offline=True))
    finally:
        corpus.close()
    ex = report.extraction
    popups = 0
    for cite in ex.citations:
        target = ex.resolved(cite) or cite
        shown = [f for f in report.findings if f.span.overlaps(cite.span)]
        hover = render_hover(
            cite.text, report.result(cite.index), shown, target.text if target is not cite else None
        )
        popup = [line for f in shown for line in (f.message, *related_lines(f))] + [hover]
        joined = "\n".join(popup)
        clauses = {c.strip(" _*>-") for part in popup for c in re.split(r"(?<=[.;:])\s+|\n+", part)}
        repeated = [c for c in clauses if len(c) >= 20 and len(c.split()) >= 5 and joined.count(c) > 1]
        assert not repeated, (cite.text, repeated, joined)
        popups += bool(shown)
    assert popups >= 6  # the brief's problems were all looked at
