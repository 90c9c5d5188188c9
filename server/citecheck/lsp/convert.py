"""Finding → LSP ``Diagnostic`` / ``CodeAction`` (and back from a diagnostic's ``data``).

Pure translation: positions come from ``positions.py`` and the ignore key from ``ignore.py``;
nothing here talks to the client.  ``data`` is plain JSON so every client can echo it back::

    {"kind": "name-mismatch", "key": {"kind", "citation", "quoteHash"},
     "fixes": [{"title": "…", "edits": [{"range": {...}, "newText": "…", "oldText": "…"}]}]}

``data`` carries no document version on purpose: a diagnostic whose position did not move is sent
again byte for byte (``Renderer`` caches each diagnostic's JSON), and ``oldText`` lets the server
check that a fix echoed back by the client still applies to the text it was made for.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from lsprotocol import types

from citecheck.findings import Finding, Fix, Kind, Severity, docs_url
from citecheck.ignores import IgnoreKey
from citecheck.lsp.positions import LineIndex, span_to_range

SOURCE = "citecheck"
CMD_IGNORE = "citecheck.ignore"

_SEVERITY = {
    Severity.ERROR: types.DiagnosticSeverity.Error,
    Severity.WARNING: types.DiagnosticSeverity.Warning,
    Severity.INFO: types.DiagnosticSeverity.Information,
}


@dataclass(frozen=True, slots=True, kw_only=True)
class ClientFeatures:
    """What the client can render; decided once at initialize."""

    related_information: bool = True
    code_description: bool = True
    data: bool = True


def _range_json(rng: types.Range) -> dict[str, Any]:
    return {
        "start": {"line": rng.start.line, "character": rng.start.character},
        "end": {"line": rng.end.line, "character": rng.end.character},
    }


def range_from_json(data: Any) -> types.Range | None:
    try:
        return types.Range(
            start=types.Position(line=int(data["start"]["line"]), character=int(data["start"]["character"])),
            end=types.Position(line=int(data["end"]["line"]), character=int(data["end"]["character"])),
        )
    except (KeyError, TypeError, ValueError):
        return None


def fixes_json(fixes: Iterable[Fix], index: LineIndex, encoding: str) -> list[dict[str, Any]]:
    """Fixes as the diagnostic's ``data`` carries them (echoed back in a code-action request);
    ``preferred`` False for one of several close candidates: no editor applies it by default."""
    return [
        {
            "title": fix.title,
            "edits": [
                {
                    "range": _range_json(span_to_range(index, e.span, encoding)),
                    "newText": e.new_text,
                    "oldText": e.span.of(index.text),
                }
                for e in fix.edits
            ],
            **({} if fix.preferred else {"preferred": False}),
        }
        for fix in fixes
    ]


def _related(finding: Finding, uri: str, rng: types.Range) -> list[types.DiagnosticRelatedInformation]:
    parts = related_lines(finding)
    if not parts:
        return []
    ev = finding.evidence
    # The related location is the citation itself (a LSP location must be a document range);
    # the case link, when there is one, is in the hover and in codeDescription-style docs.
    location = types.Location(uri=ev.url if ev.url and ev.url.startswith("http") else uri, range=rng)
    return [types.DiagnosticRelatedInformation(location=location, message=p) for p in parts]


def _unsaid(note: str, message: str) -> str:
    """The sentences of ``note`` that ``message`` does not already say (a "Rule: …" label aside).

    >>> _unsaid("Filed in: D.C. (from the caption). Rule: Ohio does not bind D.C.", "No: Ohio does not bind D.C.")
    'Filed in: D.C. (from the caption).'
    """
    kept = []
    for sentence in re.split(r"(?<=\.)\s+(?=[A-Z])", note.strip()):
        bare = re.sub(r"^[A-Z][a-z ]{0,20}:\s*", "", sentence).rstrip(".")
        if bare and bare not in message:
            kept.append(sentence)
    return " ".join(kept)


def related_lines(finding: Finding) -> list[str]:
    """The evidence, in words that match the verdict: "Matched" only names a record a source
    actually matched; a citation that could not be verified or cannot exist matched nothing. The
    editor shows these lines under the message, so none repeats what the message says."""
    ev = finding.evidence
    if ev.record_id is None and not ev.case_name and finding.kind is Kind.CANNOT_VERIFY:
        return []  # the message says why; there is no record and no passage to show
    parts = [line] if (line := _what_was_looked_up(finding)) else []
    if ev.passage:
        passage = ev.passage if len(ev.passage) <= 300 else ev.passage[:297] + "…"
        parts.append((f"Page {ev.page}: " if ev.page else "Passage: ") + f"“{passage}”")
    elif ev.page:
        parts.append(f"Page used: {ev.page}")
    if (
        ev.note
        and finding.kind is not Kind.IMPOSSIBLE_CITATION
        and (note := _unsaid(ev.note, finding.message))
    ):
        parts.append(note)  # said once: what the message already carries is not repeated
    parts.extend(f"Possible fix: {fix.describe()}" for fix in finding.fixes if fix.why)
    return parts


def _what_was_looked_up(finding: Finding) -> str | None:
    """The record a source matched; else why a citation cannot exist, or where nothing begins."""
    ev = finding.evidence
    if ev.record_id is not None or ev.case_name:
        case = ", ".join(p for p in (ev.case_name, ev.citation) if p)
        when = " ".join(p for p in (ev.court, ev.date) if p)
        return (
            f"Matched: {case}"
            + (f" ({when})" if when else "")
            + (f", source: {ev.source}" if ev.source else "")
        )
    if finding.kind is Kind.IMPOSSIBLE_CITATION and ev.note and ev.note not in finding.message:
        return f"Why it cannot exist: {ev.note}" + (f" (per {ev.source})" if ev.source else "")
    if finding.kind is Kind.FABRICATED_CASE and ev.citation:
        return (
            f"Looked up {ev.citation}" + (f" in {ev.source}" if ev.source else "") + ": no case begins there"
        )
    return None


def diagnostic_severity(finding: Finding, cannot_verify: str = "hint") -> types.DiagnosticSeverity:
    """A finding's severity in the editor. "Could not be verified" is not a problem with the draft:
    a squiggle on every citation of an offline brief teaches users to ignore squiggles, so it is a
    hint (faint dots) unless ``cannot_verify_diagnostics`` asks for "information"."""
    if finding.kind is Kind.CANNOT_VERIFY and cannot_verify != "information":
        return types.DiagnosticSeverity.Hint
    return _SEVERITY[finding.severity]


def shows_as_diagnostic(finding: Finding, cannot_verify: str) -> bool:
    """False for cannot-verify when the setting is "none" (the status bar and Citations view still count it)."""
    return not (finding.kind is Kind.CANNOT_VERIFY and cannot_verify == "none")


def to_diagnostic(
    finding: Finding,
    *,
    uri: str,
    index: LineIndex,
    encoding: str,
    key: IgnoreKey,
    client: ClientFeatures,
    rng: types.Range | None = None,
    cannot_verify: str = "hint",
) -> types.Diagnostic:
    rng = rng or span_to_range(index, finding.span, encoding)
    data = {
        "kind": str(finding.kind),
        "key": key.to_json(),
        "fixes": fixes_json(finding.fixes, index, encoding),
    }
    return types.Diagnostic(
        range=rng,
        severity=diagnostic_severity(finding, cannot_verify),
        code=str(finding.kind),
        code_description=types.CodeDescription(href=docs_url(finding.kind))
        if client.code_description
        else None,
        source=SOURCE,
        message=finding.message,
        related_information=(_related(finding, uri, rng) or None) if client.related_information else None,
        data=data,
    )


def fix_actions(
    uri: str, diagnostic: types.Diagnostic, fixes: Sequence[dict[str, Any]]
) -> list[types.CodeAction]:
    """Quick fixes from the JSON fixes of ``data`` (or recomputed into the same shape)."""
    actions = []
    for i, fix in enumerate(fixes):
        edits = []
        for e in fix.get("edits", []):
            rng = range_from_json(e.get("range"))
            if rng is not None and isinstance(e.get("newText"), str):
                edits.append(types.TextEdit(range=rng, new_text=e["newText"]))
        if not edits:
            continue
        actions.append(
            types.CodeAction(
                title=str(fix.get("title") or "Apply citecheck fix"),
                kind=types.CodeActionKind.QuickFix,
                diagnostics=[diagnostic],
                is_preferred=i == 0 and fix.get("preferred", True) is not False,
                edit=types.WorkspaceEdit(changes={uri: edits}),
            )
        )
    return actions


def ignore_actions(uri: str, diagnostic: types.Diagnostic, key: IgnoreKey) -> list[types.CodeAction]:
    shown = key.citation
    return [
        types.CodeAction(
            title=f"Ignore this finding ({key.kind})",
            kind=types.CodeActionKind.QuickFix,
            diagnostics=[diagnostic],
            command=types.Command(
                title="Ignore this finding",
                command=CMD_IGNORE,
                arguments=[{"uri": uri, "scope": "finding", "key": key.to_json()}],
            ),
        ),
        types.CodeAction(
            title=f"Ignore citation “{shown}” in this workspace",
            kind=types.CodeActionKind.QuickFix,
            diagnostics=[diagnostic],
            command=types.Command(
                title="Ignore this citation in this workspace",
                command=CMD_IGNORE,
                arguments=[{"uri": uri, "scope": "citation", "key": key.to_json()}],
            ),
        ),
    ]


@dataclass(frozen=True, slots=True)
class Shown:
    """A finding as the client has it: its ignore key and, once rendered, its range and JSON."""

    finding: Finding
    key: IgnoreKey
    range: types.Range | None = None
    fix_ranges: tuple[types.Range, ...] = ()
    diagnostic: types.Diagnostic | None = None
    json: str = ""
    rendered_for: int | None = None  # the document version ``range``/``json`` are valid for
    mode: str = ""  # the cannot-verify display the JSON was rendered with
    local: bool = False  # a local finding (stage 1 replaces these in the paragraphs it re-checked)


class Renderer:
    """Turns findings into diagnostics, re-using the JSON of any whose positions did not move.

    A brief holds hundreds of findings and every keystroke republishes them; rebuilding and
    re-serialising all of them costs tens of milliseconds, re-using them almost nothing.
    """

    def __init__(self, converter: Any, client: ClientFeatures, cannot_verify: str = "hint") -> None:
        self.converter = converter
        self.client = client
        self.cannot_verify = cannot_verify  # settings.cannot_verify_diagnostics; part of each cached JSON

    def render(
        self, shown: Iterable[Shown], *, uri: str, index: LineIndex, encoding: str, version: int
    ) -> tuple[Shown, ...]:
        out = []
        for s in shown:
            if s.json and s.rendered_for == version and s.mode == self.cannot_verify:
                out.append(s)
                continue
            f = s.finding
            rng = span_to_range(index, f.span, encoding)
            fix_ranges = tuple(span_to_range(index, e.span, encoding) for fix in f.fixes for e in fix.edits)
            if s.json and s.range == rng and s.fix_ranges == fix_ranges and s.mode == self.cannot_verify:
                out.append(replace(s, rendered_for=version))
                continue
            diag = to_diagnostic(
                f,
                uri=uri,
                index=index,
                encoding=encoding,
                key=s.key,
                client=self.client,
                rng=rng,
                cannot_verify=self.cannot_verify,
            )
            body = json.dumps(self.converter.unstructure(diag), separators=(",", ":"))
            out.append(
                replace(
                    s,
                    range=rng,
                    fix_ranges=fix_ranges,
                    diagnostic=diag,
                    json=body,
                    rendered_for=version,
                    mode=self.cannot_verify,
                )
            )
        return tuple(out)
