"""Which findings a user sees: the one rule shared by the CLI, the language server, the reports and
the Word backend.

Drop disabled kinds, apply severity overrides (info-only kinds stay info), keep one finding per
kind and span (parallel cites of one case share a parenthetical and quotes; a later wave repeats an
earlier one), leave out what the user dismissed, sort by position. Pure: the ignore list is passed
in (the edges read ``.citecheck/ignore.json``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from citecheck.config import Settings
from citecheck.extract.models import Extraction
from citecheck.findings import SIZE_LIMIT_HINT, Finding, Kind, make_finding
from citecheck.ignores import IgnoreKey, Ignores, key_for
from citecheck.spans import Span


def order(f: Finding) -> tuple[int, int, int, str]:
    """Document order: where, how long, the worse first, then by kind."""
    return (f.span.start, f.span.end, -f.severity.rank, f.kind.value)


def visible_keyed(
    findings: Iterable[Finding],
    settings: Settings,
    ignores: Ignores | None,
    key_of: Callable[[Finding], IgnoreKey],
) -> list[tuple[Finding, IgnoreKey]]:
    """``visible`` for edges that also need each finding's ignore key (the language server's
    "ignore" actions); ``key_of`` may cache. First occurrence wins a (kind, span) tie."""
    seen: set[tuple[Kind, Span]] = set()
    out: list[tuple[Finding, IgnoreKey]] = []
    for f in findings:
        if not settings.kind_enabled(f.kind) or (f.kind, f.span) in seen:
            continue
        seen.add((f.kind, f.span))
        key = key_of(f)
        if ignores is not None and ignores.ignores(key):
            continue
        sev = settings.severity_for(f.kind, f.severity)
        out.append((f.with_severity(sev) if sev is not f.severity else f, key))
    out.sort(key=lambda fk: order(fk[0]))
    return out


def visible(
    findings: Iterable[Finding],
    settings: Settings,
    ignores: Ignores | None = None,
    *,
    extraction: Extraction | None = None,
    text: str = "",
) -> list[Finding]:
    """The findings to show, in document order (see the module docstring)."""
    if ignores is None:
        return [f for f, _ in visible_keyed(findings, settings, None, _no_key)]
    return [f for f, _ in visible_keyed(findings, settings, ignores, lambda f: key_for(f, extraction, text))]


_NO_KEY = IgnoreKey(kind="", citation="-")


def _no_key(_: Finding) -> IgnoreKey:
    return _NO_KEY


def too_large_finding(text: str, limit: int) -> Finding:
    """The one "document too large" finding, on the document's first line (so editors show it)."""
    first_eol = min((i for i in (text.find("\n"), text.find("\r")) if i >= 0), default=len(text))
    return make_finding(
        Kind.DOCUMENT_TOO_LARGE,
        Span(0, min(first_eol, 200)),
        f"This document has {len(text):,} characters, more than the limit of {limit:,}; its citations were "
        f"not checked. {SIZE_LIMIT_HINT}",
    )


__all__ = ["SIZE_LIMIT_HINT", "order", "too_large_finding", "visible", "visible_keyed"]
