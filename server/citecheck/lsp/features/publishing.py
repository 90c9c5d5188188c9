"""Delivering what the client shows: the display rendered for the current version and sent — pushed
(``publishDiagnostics``, skipped when the client has those bytes already) or kept for a pull — plus
the ``citecheck/citations`` notification and ``$/logTrace`` lines (versions, URIs and counts only,
never the brief's text)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import uuid
from collections.abc import Iterable
from typing import TYPE_CHECKING

from lsprotocol import types
from pygls.protocol import default_converter

from citecheck.findings import Finding
from citecheck.lsp.capabilities import ClientCaps
from citecheck.lsp.convert import ClientFeatures, Renderer, Shown
from citecheck.lsp.features.display import Display
from citecheck.lsp.features.docstate import DocState
from citecheck.lsp.features.shifting import held_back
from citecheck.lsp.features.stage_findings import current_findings, fresh, report_findings
from citecheck.lsp.positions import LineIndex
from citecheck.visible import order

if TYPE_CHECKING:
    from citecheck.lsp.server import CiteServer

CITATIONS_NOTIFICATION = "citecheck/citations"


class Publisher:
    """Renders and sends one server's documents' diagnostics."""

    def __init__(self, server: CiteServer) -> None:
        self.server = server
        self.client = ClientFeatures()
        self.renderer = Renderer(default_converter(), self.client)

    def configure_client(self, caps: ClientCaps) -> None:
        self.client = ClientFeatures(
            related_information=caps.related_information,
            code_description=caps.code_description,
            data=caps.data,
        )
        self.renderer = Renderer(self.renderer.converter, self.client)

    def publish(
        self,
        state: DocState,
        changes: tuple[tuple[int, int, tuple[Finding, ...]], ...] | None = None,
        *,
        confirm: bool = True,
    ) -> bool:
        """What to show for ``state.version``, sent unless the client has it already (see ``send``)."""
        if self.server.docs.get(state.uri) is not state:
            return False
        state.screen.held = (
            tuple(held_back(state.found.extraction, state.screen.hold))
            if state.found.extraction_version == state.version
            else state.screen.held
        )
        if state.found.extraction_version != state.version and not state.too_large:
            # stage 1 has not reached this version: the findings on screen (already moved with
            # the edits) are the only ones with spans in this text; just re-filter them
            ignores = self.server.ignores
            state.screen.display = Display.of(tuple(s for s in state.shown if not ignores.ignores(s.key)))
            return self.send(state, confirm=confirm)
        if (
            changes is not None
            and state.found.stale is not None
            and state.screen.shown_version == state.version
            and not report_findings(state)
            and not state.too_large
        ):
            regions = _merged(state.found.stale)
            state.found.stale = regions
            state.screen.display = state.screen.display.spliced(
                regions, fresh(state, changes, self.server.settings, self.server.ignores), order
            )
        else:
            state.screen.display = Display.of(
                current_findings(state, self.server.settings, self.server.ignores)
            )
        state.found.stale, state.found.stale_runs = [], 0
        return self.send(state, confirm=confirm)

    def line_index(self, state: DocState) -> LineIndex:
        doc = self.server.open_document(state.uri)
        if doc is not None and doc.version == state.version and doc.source is state.text:
            return doc.line_index()  # built once per version, shared with pygls' conversions
        return LineIndex(state.text)

    def send(
        self, state: DocState, *, refresh: bool = True, immediate: bool = False, confirm: bool = True
    ) -> bool:
        """Render what ``state.screen.display`` shows for ``state.version`` and deliver it; whether anything was sent.

        A push publish carries the whole array (megabytes for a long brief), and most keystrokes do
        not change it (only the version): it is skipped when the array is byte for byte the one last
        sent, unless this version was never published and ``confirm`` asks for it — the source check
        after a pause (and any stage with nothing after it) confirms, the immediate answer to a
        ``didChange`` (``immediate``) and stage 1 do not — so every version the user pauses at is
        published once, and a burst of typing that changes nothing on screen sends nothing. A client
        that moves its diagnostics through edits itself gets no immediate answer at all: what it shows
        is taken to be the moved array, unless the edit touched a diagnostic or a citation being typed
        hides some (then the next stage's array is sent). A pull client keeps the same ``result_id``
        (a re-pull gets ``unchanged``) and is not asked to re-pull.
        """
        index = self.line_index(state)
        encoding = str(self.server.workspace.position_encoding or "utf-16")
        mode = self.renderer.cannot_verify = self.server.settings.cannot_verify_diagnostics
        uri, version, renderer = state.uri, state.version, self.renderer

        def render(items: Iterable[Shown]) -> tuple[Shown, ...]:
            return renderer.render(items, uri=uri, index=index, encoding=encoding, version=version)

        state.screen.display = state.screen.display.rendered(render, mode)
        state.screen.line_count = index.line_count
        state.screen.shown_version = state.version
        state.schedule.published.set()
        parts = state.screen.display.json_parts(mode, state.screen.held)
        same = (
            parts == state.screen.sent
        )  # element by element: identity first (an unchanged chunk's cached bytes)
        if self.server.caps.pull:
            if same:
                return False
            state.screen.sent = parts
            state.screen.result_id = f"{state.version}:{uuid.uuid4().hex[:8]}"
            structure = self.renderer.converter.structure
            state.screen.diagnostics = [
                s.diagnostic if s.diagnostic is not None else structure(json.loads(s.json), types.Diagnostic)
                for s in state.screen.display.shown(mode, state.screen.held)
            ]
            # A pull client re-pulls after its own edits anyway; and a pull waiting for this publish (the
            # document's first, as it opens) carries it: a refresh then only makes VS Code cancel that
            # pull and send another, a round trip more before the first squiggle (issue 40).
            if self.server.caps.refresh and refresh and not state.schedule.pulls_waiting:
                with contextlib.suppress(Exception):
                    self.server.workspace_diagnostic_refresh(None)
            return True
        if immediate and self.server.caps.moves_diagnostics:
            # the client moved what it shows through the edit itself: it shows these now, unless the
            # edit touched one of them (it stretched or shrank it) or a citation being typed hides some
            state.screen.sent = None if state.screen.display.touched or state.screen.held else parts
            return False
        if same and (immediate or not confirm or state.screen.sent_version == state.version):
            return False
        state.screen.sent, state.screen.sent_version = parts, state.version
        head = f'{{"uri":{json.dumps(state.uri)},"version":{state.version},"diagnostics":['.encode()
        self.server.send_notification_json(
            types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS, [head, b",".join(parts), b"]}"]
        )
        return True

    # -- tracing ($/logTrace: only versions, URIs and counts, never the brief's text) --
    def tracing(self) -> bool:
        return self.server.protocol.trace not in (None, types.TraceValue.Off)

    def trace(self, message: str, verbose: str | None = None) -> None:
        with contextlib.suppress(Exception):
            detail = verbose if self.server.protocol.trace == types.TraceValue.Verbose else None
            self.server.log_trace(types.LogTraceParams(message=message, verbose=detail))

    @staticmethod
    def sent_size(state: DocState) -> str:
        parts = state.screen.sent or []
        return (
            f"diagnostics array: {sum(map(len, parts)) + max(0, len(parts) - 1)} bytes in {len(parts)} chunks"
        )

    async def pull(self, uri: str, previous_result_id: str | None) -> types.DocumentDiagnosticReport:
        state: DocState | None = self.server.docs.get(uri)
        if state is None:
            return types.RelatedFullDocumentDiagnosticReport(items=[])
        if not state.schedule.published.is_set():
            state.schedule.pulls_waiting += 1
            try:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(state.schedule.published.wait(), timeout=10)
            finally:
                state.schedule.pulls_waiting -= 1
        if previous_result_id and previous_result_id == state.screen.result_id:
            return types.RelatedUnchangedDocumentDiagnosticReport(result_id=state.screen.result_id)
        return types.RelatedFullDocumentDiagnosticReport(
            items=state.screen.diagnostics, result_id=state.screen.result_id
        )

    def notify_citations(self, state: DocState) -> None:
        from citecheck.lsp.features.citations import citations_payload

        if self.server.docs.get(state.uri) is not state:
            return
        payload = citations_payload(state, str(self.server.workspace.position_encoding or "utf-16"))
        self.server.protocol.notify(CITATIONS_NOTIFICATION, payload)


def _merged(regions: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Sorted, overlapping or touching regions joined."""
    out: list[tuple[int, int]] = []
    for a, b in sorted(regions):
        if out and a <= out[-1][1]:
            out[-1] = (out[-1][0], max(out[-1][1], b))
        else:
            out.append((a, b))
    return out
