"""The per-stage findings store: what each stage found, combined into what the user sees.

Stage 1's local findings (per paragraph, placed when first needed), stage 2's report, and the source
findings of an earlier version carried through the edits since; each keyed for the ignore list with
the key it was shown with. Pure: reads and updates the ``StageFindings`` of a ``DocState``.
"""

from __future__ import annotations

from dataclasses import replace

from citecheck.config import Settings
from citecheck.extract.incremental.identity import IdentityMap
from citecheck.extract.incremental.memo import ParagraphFindings
from citecheck.findings import Finding
from citecheck.ignores import IgnoreKey, Ignores, key_for
from citecheck.lsp.convert import Shown
from citecheck.lsp.features.docstate import DocState
from citecheck.lsp.features.shifting import shift_keyed
from citecheck.visible import too_large_finding, visible, visible_keyed


def report_findings(state: DocState) -> tuple[Finding, ...]:
    if state.found.report is None or state.found.report_version != state.version:
        return ()
    return state.found.report.findings


# -- delivery --
def local_shown(state: DocState, settings: Settings) -> tuple[Finding, ...]:
    """Stage 1's local findings as the user sees them (filtered once per stage-1 run)."""
    if state.found.local_visible is None:
        state.found.local_visible = tuple(visible(raw(state), settings))
    return state.found.local_visible


def current_findings(state: DocState, settings: Settings, ignores: Ignores) -> list[Shown]:
    """What to show for ``state.version``, filtered by settings and ignore list (the hold is applied
    when the JSON is written)."""
    settings = settings
    if state.too_large:
        f = too_large_finding(state.text, settings.max_document_chars)
        return [Shown(f, key_for(f, None, state.text))]
    if state.found.extraction is None:  # not checked (language) or extraction failed (reported)
        return []
    # what the client shows, by identity (a finding taken over unchanged) and by kind, place and key
    # (a finding moved by the edit: equal in value, another object); hashing whole findings (their
    # evidence and fixes) for every diagnostic of a long brief on every keystroke cost more
    shown_before = state.shown
    by_id: IdentityMap[Finding, Shown] = IdentityMap()
    for s in shown_before:
        by_id[s.finding] = s
    by_place = {(s.finding.kind, s.finding.span.start, s.finding.span.end, s.key): s for s in shown_before}

    def previous(f: Finding, key: IgnoreKey, is_local: bool) -> Shown:
        s = by_id.get(f)
        if s is None or s.key != key:
            s = by_place.get((f.kind, f.span.start, f.span.end, key))
            if s is None or s.finding != f:
                return Shown(f, key, local=is_local)
        return s if s.local is is_local else replace(s, local=is_local)

    if state.found.carried_edits:
        # keys travel with the findings: they were made with the report's extraction, whose citation
        # numbers are the findings' own (the current extraction may number them differently)
        state.found.carried, state.found.carried_keys = shift_keyed(
            state.found.carried, state.found.carried_keys, state.found.carried_edits
        )
        state.found.carried_edits = []
    report = report_findings(state)
    local = local_shown(state, settings)
    findings = (*report, *local) if report else (*local, *state.found.carried)
    # a report repeats the local findings (kind and span): those are the ones stage 1 replaces later
    local_places = {(f.kind, f.span) for f in local}
    extraction, text = state.found.extraction, state.text
    cache = state.found.key_cache
    fresh: IdentityMap[Finding, IgnoreKey] = IdentityMap()

    carried_keys = state.found.carried_keys

    def key_of(f: Finding) -> IgnoreKey:
        # the same finding object (a memoised local finding, the current report's) keeps its key:
        # it belongs to the same citation in this extraction
        key = cache.get(f)
        if key is None:
            key = carried_keys.get(f)
        if key is None:
            key = key_for(f, extraction, text)
        fresh[f] = key
        return key

    shown = visible_keyed(findings, settings, ignores, key_of)
    state.found.key_cache = fresh
    return [previous(f, key, (f.kind, f.span) in local_places) for f, key in shown]


def fresh(
    state: DocState,
    changes: tuple[tuple[int, int, tuple[Finding, ...]], ...],
    settings: Settings,
    ignores: Ignores,
) -> list[Shown]:
    """The local findings of the regions stage 1 re-checked, filtered and keyed like ``current_findings``."""
    settings = settings
    regions = state.found.stale or []
    if (
        state.found.stale_runs > 1
    ):  # regions of runs that were not published: their findings are in ``local_raw``
        if isinstance(state.found.local_raw, ParagraphFindings):
            found = state.found.local_raw.within(regions)
        else:
            found = [f for f in state.found.local_raw if any(a <= f.span.start <= b for a, b in regions)]
    else:
        found = [f for _a, _b, mine in changes for f in mine]
    extraction, text, ignores = state.found.extraction, state.text, ignores
    return [
        Shown(f, key, local=True)
        for f, key in visible_keyed(found, settings, ignores, lambda f: key_for(f, extraction, text))
    ]


def keys_of(findings: tuple[Finding, ...], state: DocState) -> IdentityMap[Finding, IgnoreKey]:
    """Each report finding's ignore key (the one it was shown with, else made from the report)."""
    cache, report = state.found.key_cache, state.found.report
    out: IdentityMap[Finding, IgnoreKey] = IdentityMap()
    for f in findings:
        key = cache.get(f)
        if key is None:
            key = key_for(f, report.extraction if report is not None else None, report.text if report else "")
        out[f] = key
    return out


def raw(state: DocState) -> tuple[Finding, ...]:
    """Stage 1's local findings, placed in the current text (once per stage-1 run)."""
    if isinstance(state.found.local_raw, ParagraphFindings):
        state.found.local_raw = tuple(state.found.local_raw.findings())
    return state.found.local_raw
