"""``visible``: the one rule for which findings a user sees (CLI, language server, reports)."""

from __future__ import annotations

from citecheck.config import Settings
from citecheck.findings import Kind, Severity, make_finding
from citecheck.ignores import IgnoreKey, IgnoreList, key_for
from citecheck.spans import Span
from citecheck.visible import too_large_finding, visible, visible_keyed


def _f(kind: Kind, start: int, *, ci: int | None = None):  # type: ignore[no-untyped-def]
    return make_finding(kind, Span(start, start + 3), kind.value, citation_index=ci)


def test_kind_filter_override_dedupe_and_order() -> None:
    findings = [
        _f(Kind.YEAR_MISMATCH, 10),
        _f(Kind.MISQUOTE, 0),
        _f(Kind.YEAR_MISMATCH, 10),
        _f(Kind.CANNOT_VERIFY, 5),
    ]
    settings = Settings(
        enabled_kinds=frozenset({"year-mismatch", "misquote", "cannot-verify"}),
        severity_overrides={"year-mismatch": Severity.ERROR, "cannot-verify": Severity.ERROR},
    )
    out = visible(findings, settings)
    assert [(f.kind, f.span.start) for f in out] == [
        (Kind.MISQUOTE, 0),
        (Kind.CANNOT_VERIFY, 5),
        (Kind.YEAR_MISMATCH, 10),
    ]
    assert out[2].severity is Severity.ERROR and out[1].severity is Severity.INFO  # info-only stays info
    assert [f.kind for f in visible(findings, Settings(enabled_kinds=frozenset({"misquote"})))] == [
        Kind.MISQUOTE
    ]


def test_ignored_findings_are_left_out_by_content_key() -> None:
    text = "Smith v. Jones, 100 A.2d 36 (1953). Later: 100 A.2d 36."
    a = make_finding(Kind.YEAR_MISMATCH, Span(16, 27), "year")
    b = make_finding(Kind.NAME_MISMATCH, Span(43, 54), "name")
    ignores = IgnoreList.of([key_for(a, None, text)])
    assert visible([a, b], Settings(), ignores, text=text) == [b]
    whole = IgnoreList.of([IgnoreKey(kind="*", citation="100 a.2d 36", quote_hash="*")])
    assert visible([a, b], Settings(), whole, text=text) == []
    keyed = visible_keyed([a, b], Settings(), None, lambda f: key_for(f, None, text))
    assert [k.kind for _, k in keyed] == ["year-mismatch", "name-mismatch"]


def test_too_large_is_one_warning_on_the_first_line_naming_every_setting() -> None:
    f = too_large_finding("x" * 50 + "\nmore", 10)
    assert f.kind is Kind.DOCUMENT_TOO_LARGE and f.span == Span(0, 50)
    assert "max_document_chars" in f.message and "citecheck.sizeLimit" in f.message
    assert "maxDocumentChars" not in f.message  # no such VS Code setting
