"""Live diagnostics: two stages per edit, per-document scheduling, push or pull delivery.

Every ``didChange`` is answered at once with the findings on screen moved through the edit (those
the edit touched are dropped) — unless that array is byte for byte the one the client has (a key
typed where no diagnostic follows on its line), or the client moves the diagnostics it shows through
edits itself (``ClientCaps.moves_diagnostics``: VS Code), when nothing is sent.  Per document, one worker then
applies the edits in order to the incremental extraction ``Document`` (in the server's one
executor, so stdin keeps being read) once typing settles for a third of the debounce, and
publishes stage 1 — local findings — for the version it reached (skipped when the client has that
array already; the source check after the pause then publishes the version, so every version the
user pauses at is published).  A per-document timer
(``settings.debounce_ms``) then fires stage 2: ``gather`` on the server's loop and ``judge`` in the
executor, first over what this machine's corpus and cache know, then over the network's answers
too.  A newer version cancels the timer and any stage-2 run; nothing is ever published for a
version that is no longer current.

The citation being typed: the span of the LAST edit of the latest ``didChange`` is the *hold*.
Findings on a citation whose full span touches the hold are left out of stage-1 diagnostics; the
hold is released when the debounce fires (the user paused) or when the next edit lands elsewhere
(the user moved on).  Source findings from an earlier version are kept, with spans shifted through
the edits, unless an edit touched them.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import json
import logging
import time
import uuid
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from lsprotocol import types
from pygls.protocol import default_converter

from citecheck.config import Settings
from citecheck.extract import Document, Edit
from citecheck.extract.incremental.memo import LocalMemo, ParagraphFindings, paragraph_findings
from citecheck.extract.models import Extraction
from citecheck.findings import Finding, Kind
from citecheck.gather import gather
from citecheck.ignores import IgnoreKey, key_for
from citecheck.judge import SourceEvidence, check_locally, judge, lookup_keys
from citecheck.lsp.capabilities import ClientCaps
from citecheck.lsp.convert import ClientFeatures, Renderer, Shown
from citecheck.lsp.features.display import Display
from citecheck.lsp.features.progress import Progress
from citecheck.lsp.features.shifting import edit_hold, held_back, line_end_after, shift_keyed, stretch
from citecheck.lsp.positions import LineIndex
from citecheck.lsp.text import AppliedEdit
from citecheck.results import Report, Status
from citecheck.spans import Span
from citecheck.visible import order, too_large_finding, visible, visible_keyed

if TYPE_CHECKING:
    from citecheck.lsp.server import CiteServer

log = logging.getLogger(__name__)

CITATIONS_NOTIFICATION = "citecheck/citations"
#: Editors name plain text differently (VS Code "plaintext", Neovim/Helix/Emacs "text").
#: Language ids editors send for plain text and Markdown (docs/editors.md): Neovim/Emacs "text",
#: Helix's "legal-text" (the language docs/editors.md tells Helix users to define), "txt", "md".
_LANGUAGE_ALIASES = {
    "text": "plaintext",
    "txt": "plaintext",
    "plain": "plaintext",
    "legal-text": "plaintext",
    "md": "markdown",
}
_UNWIND_S = 5.0  # how long a cancelled source check may take to let go of the cache
_PROGRESS_AFTER_S = 0.3
_MAX_WAIT_S = 2.0


@dataclass(eq=False)
class DocState:
    """Everything the server knows about one open document (mutated on the loop thread only,
    except ``document`` which only the worker touches, in the executor)."""

    uri: str
    language_id: str
    version: int
    text: str
    pending: list[AppliedEdit] = field(default_factory=list)
    reset: bool = True  # rebuild the extraction Document from ``text``
    document: Document | None = None
    local_memo: LocalMemo = field(default_factory=LocalMemo)
    key_cache: dict[int, tuple[Finding, IgnoreKey]] = field(
        default_factory=dict
    )  # id(finding) -> its key  # local findings per unchanged citation (executor only)
    extraction: Extraction | None = None
    extraction_version: int | None = None
    local_raw: (
        ParagraphFindings | tuple[Finding, ...]
    ) = ()  # stage 1's local findings (placed when first needed)
    local_visible: tuple[Finding, ...] | None = None
    carried: tuple[Finding, ...] = ()  # stage-2 findings of an earlier version…
    carried_keys: dict[int, tuple[Finding, IgnoreKey]] = field(default_factory=dict)  # …their ignore keys…
    carried_edits: list[AppliedEdit] = field(default_factory=list)  # …and the edits since
    line_count: int | None = None  # lines of the text last rendered
    report: Report | None = None
    report_version: int | None = None
    hold: Span | None = None
    #: paragraphs stage 1 re-checked since the last publish (current text), or None: publish everything afresh
    stale: list[tuple[int, int]] | None = None
    stale_runs: int = 0  # stage-1 runs those regions come from
    last_change: float = 0.0  # monotonic time of the latest didChange
    too_large: bool = False
    display: Display = field(
        default_factory=Display
    )  # what the client shows (rendered for ``shown_version``)
    held: tuple[Span, ...] = ()  # full spans of the citations being typed: left out when the JSON is written
    shown_version: int | None = None
    diagnostics: list[types.Diagnostic] = field(default_factory=list)
    result_id: str = ""
    #: the diagnostics array the client has (its chunks' JSON, ``Display.json_parts``): a publish that
    #: would send the same bytes again is skipped (push), or keeps ``result_id`` (pull)
    sent: list[bytes] | None = None
    sent_version: int | None = None  # the version of the last push publish sent
    worker: asyncio.Task[Any] | None = None
    later: asyncio.Task[Any] | None = None
    judging: asyncio.Task[Any] | None = None  # stage 3: the holding judge for ``report_version``
    published: asyncio.Event = field(default_factory=asyncio.Event)
    stage2_cpu: float = (
        0.0  # CPU seconds the last source check spent in the executor (a cancelled one: so far)
    )
    stage2_acc: float = 0.0  # …the running one's, so far
    settled: bool = False  # its first full check's objects moved out of the collector's reach

    def charge(self, cpu: float) -> None:
        self.stage2_acc += cpu
        self.stage2_cpu = max(self.stage2_cpu, self.stage2_acc)

    @property
    def shown(self) -> tuple[Shown, ...]:
        """Every displayed finding, moved to the current text (hover, code actions, the citations view)."""
        return self.display.items()

    @shown.setter
    def shown(self, items: tuple[Shown, ...]) -> None:
        self.display = Display.of(items)


# ---- pure helpers ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Stage1:
    """What stage 1 leaves: the extraction, every local finding (unfiltered), and — when only some
    paragraphs were re-checked — those paragraphs' spans and their findings (``changes``)."""

    document: Document
    extraction: Extraction
    local: ParagraphFindings | tuple[Finding, ...]
    changes: tuple[tuple[int, int, tuple[Finding, ...]], ...] | None


def _stage1(
    document: Document | None,
    reset: bool,
    edits: list[AppliedEdit],
    text: str,
    settings: Settings,
    memo: LocalMemo,
) -> Stage1:
    """Runs in the executor: bring the extraction Document to ``text``, then local findings."""
    incremental = not reset and document is not None
    if reset or document is None:
        document = Document(text)
    elif edits:
        document.apply_edits([Edit(start=e.start, end=e.end, new_text=e.new_text) for e in edits], text=text)
    extraction = document.extraction
    if extraction.text != text:  # never trust a diverged incremental state: re-sync fully
        log.error("incremental extraction diverged from the editor's text; re-extracting in full")
        document = Document(text)
        extraction = document.extraction
        incremental = False
    got = paragraph_findings(extraction, memo, check_locally)
    return Stage1(document, extraction, got, tuple(got.changes) if incremental else None)


def _keys_of(findings: tuple[Finding, ...], state: DocState) -> dict[int, tuple[Finding, IgnoreKey]]:
    """Each report finding's ignore key (the one it was shown with, else made from the report)."""
    cache, report, out = state.key_cache, state.report, {}
    for f in findings:
        hit = cache.get(id(f))
        if hit is None or hit[0] is not f:
            hit = (
                f,
                key_for(f, report.extraction if report is not None else None, report.text if report else ""),
            )
        out[id(f)] = hit
    return out


# ---- the scheduler ------------------------------------------------------------------------------


_UNREACHABLE_WORDS = (
    "cannot reach",
    "unreachable",
    "timed out",
    "timeout",
    "fail",
    "unavailable",
    "refused",
    "http ",
    "error",
)


def source_unreachable(reason: str) -> bool:
    """Whether a cannot-verify reason says a source failed (rather than: it does not cover the volume).

    >>> source_unreachable("CAP site unreachable: cannot reach https://static.case.law/: ConnectError")
    True
    >>> source_unreachable("the local corpus does not cover 100 A.2d")
    False
    """
    low = reason.lower()
    return any(w in low for w in _UNREACHABLE_WORDS)


def unreachable_message(reason: str) -> str:
    """The one popup per editor run: what happened, what it means, where the details are."""
    detail = next((p.strip() for p in reason.split(";") if source_unreachable(p)), reason)
    return (
        f"citecheck could not reach a case-law source ({detail}). Citations it would have checked there are "
        "shown as not verified — never as fabricated. Details: Output › citecheck."
    )


class Diagnostics:
    """Owns per-document scheduling and delivery for one server."""

    def __init__(self, server: CiteServer) -> None:
        self.server = server
        self.client = ClientFeatures()
        self.renderer = Renderer(default_converter(), self.client)
        self.logged_reasons: set[str] = set()
        self._unchecked_languages: set[str] = set()

    def configure_client(self, caps: ClientCaps) -> None:
        self.client = ClientFeatures(
            related_information=caps.related_information,
            code_description=caps.code_description,
            data=caps.data,
        )
        self.renderer = Renderer(self.renderer.converter, self.client)

    # -- events --
    def opened(self, uri: str, language_id: str, version: int, text: str) -> None:
        self.closed(uri, clear=False)
        state = DocState(uri=uri, language_id=language_id, version=version, text=text)
        self.server.docs[uri] = state
        self._kick(state)

    def changed(self, uri: str, version: int, text: str, edits: list[AppliedEdit]) -> None:
        state: DocState | None = self.server.docs.get(uri)
        if state is None:
            return
        report = self._report_findings(state)
        local = {(f.kind, f.span) for f in self._local(state)} if report else set()
        sourced = tuple(f for f in report if (f.kind, f.span) not in local)
        if sourced:
            state.carried, state.carried_edits = sourced, list(edits)
            state.carried_keys = _keys_of(sourced, state)
        else:  # shifted lazily, once, when stage 1 next needs them
            state.carried_edits.extend(edits)
        previous = state.version
        state.version, state.text = version, text
        state.pending.extend(edits)
        state.report, state.report_version = None, None
        state.hold = edit_hold(edits)
        state.last_change = time.monotonic()
        self._cancel_later(state)
        if state.too_large or len(text) > self.server.settings.max_document_chars:
            state.published.clear()
        else:
            # every version is answered at once: the findings on screen, moved with the edit (those the
            # edit touched are dropped until stage 1 has looked at the new text); not sent when that is
            # byte for byte what the client shows (stage 1 then publishes this version if it settles)
            index = self._line_index(state)
            if state.shown_version == previous and state.line_count is not None:
                state.display = state.display.moved(
                    edits, line_end_after(text, edits), index.line_count - state.line_count
                )
            else:
                state.display = state.display.moved(edits, None, 0)
            state.held = tuple(h for h in (stretch(h, edits) for h in state.held) if h is not None)
            if state.stale:
                state.stale = [
                    (x.start, x.end) for x in (stretch(Span(a, b), edits) for a, b in state.stale) if x
                ]
            if not self._send(state, refresh=False, immediate=True) and self._tracing():
                how = "the client moves its diagnostics; " if self.server.caps.moves_diagnostics else ""
                self._trace(f"didChange: {uri} v{version} unchanged on screen ({how}not published)")
        self._kick(state)

    def closed(self, uri: str, *, clear: bool = True) -> None:
        state: DocState | None = self.server.docs.pop(uri, None)
        if state is not None:
            self._cancel_later(state)
            if state.worker is not None:
                state.worker.cancel()
        if clear and not self.server.caps.pull:
            self.server.text_document_publish_diagnostics(
                types.PublishDiagnosticsParams(uri=uri, diagnostics=[])
            )

    def refresh_all(self) -> None:
        """Settings or the ignore list changed: recompute everything from the current text."""
        for state in list(self.server.docs.values()):
            state.reset = True
            state.hold = None
            state.carried, state.report, state.report_version = (), None, None
            state.carried_edits, state.carried_keys = [], {}
            self._cancel_later(state)
            self._kick(state)

    def republish_all(self) -> None:
        """Only the filter (ignore list) changed: publish again without recomputing."""
        for state in self.server.docs.values():
            if state.shown_version == state.version:
                self._publish(state)

    # -- stage 1 --
    def _kick(self, state: DocState) -> None:
        if state.worker is None or state.worker.done():
            state.worker = self.server.spawn(self._work(state), what="local citation check")

    async def _work(self, state: DocState) -> None:
        loop = asyncio.get_running_loop()
        while True:
            # Let a burst of keystrokes settle before extracting: extraction competes with the
            # protocol thread for the GIL, and every keystroke already got its (shifted) publish.
            settle = self.server.settings.debounce_ms / 3000
            while (wait := state.last_change + settle - time.monotonic()) > 0:
                await asyncio.sleep(wait)
            settings = self.server.settings
            version, text = state.version, state.text
            edits, state.pending = state.pending, []
            reset, state.reset = state.reset, False
            changes: tuple[tuple[int, int, tuple[Finding, ...]], ...] | None = None
            if not self._should_check(state, settings):
                state.document, state.reset = None, True
                state.extraction, state.extraction_version = None, version
                state.local_raw, state.local_visible = (), ()
            else:
                try:
                    got = await loop.run_in_executor(
                        self.server.executor,
                        _stage1,
                        state.document,
                        reset,
                        edits,
                        text,
                        settings,
                        state.local_memo,
                    )
                except asyncio.CancelledError:
                    raise
                except Exception as exc:
                    state.document, state.reset = None, True
                    self.server.report_problem("extraction", exc)
                    state.extraction, state.local_raw, state.local_visible = None, (), ()
                else:
                    state.document, state.extraction, changes = got.document, got.extraction, got.changes
                    state.local_raw, state.local_visible = got.local, None
                state.extraction_version = version
            if changes is None:
                state.stale = None
            elif state.stale is not None:
                state.stale.extend((a, b) for a, b, _ in changes)
                state.stale_runs += 1
            if state.version != version or state.pending:
                # a newer version arrived meanwhile: never publish this one (its regions wait)
                if self._tracing():
                    self._trace(
                        f"stage 1: {state.uri} v{version} checked, overtaken by v{state.version} "
                        "(not published)"
                    )
                continue
            # an unchanged array waits for the source check after the pause to carry this version (a
            # long brief's array is megabytes; typing in prose changes nothing the client shows)
            follows = state.extraction is not None and not state.too_large
            sent = self._publish(state, changes=changes, confirm=not follows)
            if self._tracing():
                self._trace(
                    f"stage 1: {state.uri} v{version} checked "
                    f"({'published' if sent else 'unchanged, not republished'})",
                    self._sent_size(state),
                )
            self._schedule_later(state)
            return

    def _should_check(self, state: DocState, settings: Settings) -> bool:
        state.too_large = len(state.text) > settings.max_document_chars
        if state.too_large:
            return False
        if not settings.languages:
            return True
        language = _LANGUAGE_ALIASES.get(state.language_id, state.language_id)
        if language in settings.languages or state.language_id in settings.languages:
            return True
        if state.language_id not in self._unchecked_languages:
            self._unchecked_languages.add(state.language_id)
            message = (
                f"citecheck: not checking {state.uri}: its language id {state.language_id!r} is not one of "
                f"the checked languages ({', '.join(settings.languages)}); add it to the citecheck "
                "'languages' setting to check such documents"
            )
            log.info(message)
            self.server.log_to_client(message, types.MessageType.Info)
        return False

    # -- stage 2 --
    def _schedule_later(self, state: DocState) -> None:
        self._cancel_later(state)
        if state.extraction is None:
            return
        state.later = self.server.spawn(self._later(state, state.version), what="source check")

    @staticmethod
    def _cancel_later(state: DocState) -> None:
        """Cancel stage 2 and stage 3 (an edit makes their answers stale; finished judgments stay cached)."""
        if state.later is not None and not state.later.done():
            state.later.cancel()
        state.later = None
        if state.judging is not None and not state.judging.done():
            state.judging.cancel()
        state.judging = None

    async def _later(self, state: DocState, version: int) -> None:
        # The source check of a long brief costs CPU in proportion to it (every citation built and
        # judged); started on every short pause it would take the CPU from the keystrokes that follow.
        # It waits for a pause at least as long as its last run took (at most _MAX_WAIT_S).
        wait = max(max(0, self.server.settings.debounce_ms) / 1000, min(state.stage2_cpu, _MAX_WAIT_S))
        await asyncio.sleep(wait)
        if state.version != version:
            return
        if state.hold is not None:
            state.hold = None
            if state.held:  # the user paused: show what the caret was typing in
                state.held = ()
                self._send(state)
        await self.run_stage2(state, version)

    async def check_now(self, state: DocState) -> Any:
        """The "check document now" command: stage 1 to the current version, then stage 2."""
        self._cancel_later(state)
        while state.worker is not None and not state.worker.done():
            await asyncio.wait({state.worker})
        if state.extraction_version != state.version:
            return None
        state.hold = None
        return await self.run_stage2(state, state.version)

    async def run_stage2(self, state: DocState, version: int) -> Report | None:
        """Source-backed check of ``version``; publishes and returns the report (None if stale).

        Two waves over one open source: ``judge`` over what this machine's corpus and cache know,
        published at once, then ``judge`` over everything the network answered too (it replaces
        the first).
        """
        extraction = state.extraction
        if extraction is None or state.extraction_version != version:
            return None
        settings = self.server.settings
        state.stage2_acc = 0.0
        loop = asyncio.get_running_loop()
        state.charge(await loop.run_in_executor(self.server.executor, _build_all, extraction))
        if state.version != version:
            return None
        if settings.network_allowed():
            quick = await self._check(extraction, settings, local=True, state=state)
            if state.version != version or self.server.docs.get(state.uri) is not state:
                return None
            if quick is not None:
                found = tuple(f for f in quick.findings if f.kind is not Kind.CANNOT_VERIFY)
                partial = Report(
                    text=quick.text, extraction=extraction, findings=found, results=(), complete=False
                )
                state.report, state.report_version = partial, version
                state.carried, state.carried_edits, state.carried_keys = (), [], {}
                state.hold = None
                self._publish(state)
        progress = Progress(self.server) if self.server.caps.progress else None
        check = asyncio.ensure_future(self._gather_judge(extraction, settings, state=state))
        try:
            done, _ = await asyncio.wait({check}, timeout=_PROGRESS_AFTER_S)
            if not done and progress is not None:
                await progress.begin(f"Checking {len(extraction.citations)} citations")
            checked = await check
        finally:
            if not check.done():
                check.cancel()
                # let it unwind before the caller goes on: at shutdown the cache closes next, and a
                # lookup still running would hit a closed database
                await asyncio.wait({check}, timeout=_UNWIND_S)
            if progress is not None:
                progress.end()
        if checked is None or state.version != version or self.server.docs.get(state.uri) is not state:
            return None
        report, evidence = checked
        state.stage2_cpu = state.stage2_acc  # a whole run: its own cost, not an earlier one's
        state.report, state.report_version = report, version
        state.carried, state.carried_edits, state.carried_keys = (), [], {}
        state.hold = None
        sent = self._publish(state)
        if self._tracing():
            self._trace(
                f"source check: {state.uri} v{version} checked "
                f"({'published' if sent else 'unchanged, not republished'})",
                self._sent_size(state),
            )
        self.notify_citations(state)
        self._log_unverified(report)
        self._recheck_waiting(state, version, report)
        if not state.settled:
            state.settled = True
            _settle_heap()
        state.judging = self.server.spawn(self.run_stage3(state, version, evidence), what="holding check")
        return report

    # -- stage 3 --
    async def run_stage3(self, state: DocState, version: int, evidence: SourceEvidence) -> Report | None:
        """The holding judge on the model endpoint, after stage 2 was published (so it never delays it).

        Its own task (``state.judging``), cancelled by the next edit; ``$/progress`` counts the claims
        judged. Publishes the report of ``version`` with the holding findings added (None if stale or off).
        """
        extraction = state.extraction
        settings = self.server.settings
        if extraction is None or state.extraction_version != version:
            return None
        try:
            stage = await self.server.sources.holdings(settings)
        except Exception as exc:  # e.g. an API key configured for a plain-http endpoint
            self.server.report_problem("holding check", exc)
            return None
        if stage is None:
            return None
        claims = stage.claims(extraction, evidence)
        if not claims:
            return None
        progress = Progress(self.server) if self.server.caps.progress else None
        done = 0

        def judged(_: object) -> None:
            nonlocal done
            done += 1
            if progress is not None and progress.token is not None:
                progress.report(f"{done} of {len(claims)} propositions judged", 100 * done // len(claims))

        try:
            if progress is not None:
                await progress.begin(f"Judging {len(claims)} propositions on {settings.model_name}")
            source = await self.server.sources.get(settings)
            judged_evidence = await stage.gather(extraction, evidence, source, on_done=judged)
        finally:
            if progress is not None:
                progress.end()
        if state.version != version or self.server.docs.get(state.uri) is not state:
            return None
        loop = asyncio.get_running_loop()
        report = await loop.run_in_executor(
            self.server.executor, judge, extraction, judged_evidence, settings
        )
        if state.version != version or self.server.docs.get(state.uri) is not state:
            return None
        state.report, state.report_version = report, version
        self._publish(state)
        self.notify_citations(state)
        return report

    unreachable_said = False

    def _recheck_waiting(self, state: DocState, version: int, report: Report) -> None:
        """Citations waiting for CourtListener's allowance: check again when it returns, in the
        background (``$/progress`` meanwhile), and republish; an edit cancels it (its own check
        follows). The shared pacer holds every call meanwhile, so nothing is sent early."""
        waits = [r.pending_until for r in report.results if r.pending_until is not None]
        if not waits:
            return
        delay = max(0.2, min(waits) - time.time() + 0.05)
        state.later = self.server.spawn(
            self._recheck(state, version, delay, len(waits)), what="source re-check"
        )

    async def _recheck(self, state: DocState, version: int, delay: float, waiting: int) -> None:
        progress = Progress(self.server) if self.server.caps.progress else None
        if progress is not None:
            await progress.begin(f"{waiting} citation(s) waiting for CourtListener's rate limit")
        try:
            await asyncio.sleep(delay)
        finally:
            if progress is not None:
                progress.end()
        if state.version == version and self.server.docs.get(state.uri) is state:
            await self.run_stage2(state, version)

    def _log_unverified(self, report: Report) -> None:
        """Tell the client (once per reason) why citations could not be verified: a source that
        failed must be visible in the log, not only as info squiggles."""
        reasons: dict[str, int] = {}
        for r in report.results:
            reason = r.reason
            if (
                reason and r.status is Status.CANNOT_VERIFY and r.pending_until is None
            ):  # waiting: see $/progress
                reasons[reason] = reasons.get(reason, 0) + 1
        for reason, count in reasons.items():
            if reason in self.logged_reasons or len(self.logged_reasons) > 500:
                continue
            self.logged_reasons.add(reason)
            failed = source_unreachable(reason)
            self.server.log_to_client(
                f"citecheck: {count} citation(s) could not be verified: {reason}",
                types.MessageType.Warning if failed else types.MessageType.Info,
            )
            if failed and not self.unreachable_said:
                self.unreachable_said = True  # once per editor run: a popup per keystroke would be worse
                with contextlib.suppress(Exception):
                    self.server.window_show_message(
                        types.ShowMessageParams(
                            type=types.MessageType.Warning, message=unreachable_message(reason)
                        )
                    )

    async def _check(
        self,
        extraction: Extraction,
        settings: Settings,
        *,
        local: bool = False,
        state: DocState | None = None,
    ) -> Report | None:
        checked = await self._gather_judge(extraction, settings, local=local, state=state)
        return checked[0] if checked is not None else None

    async def _gather_judge(
        self,
        extraction: Extraction,
        settings: Settings,
        *,
        local: bool = False,
        state: DocState | None = None,
    ) -> tuple[Report, SourceEvidence] | None:
        """``gather`` on the server's loop, ``judge`` in its executor. ``local``: only this machine's
        corpus and cache (a failure there is logged, not reported: the full wave follows)."""
        loop = asyncio.get_running_loop()
        executor = self.server.executor
        try:
            source = await (
                self.server.sources.local(settings) if local else self.server.sources.get(settings)
            )
            evidence = await gather(extraction, source, executor=executor)
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            if local:
                log.warning("local first pass failed: %s", exc)
                return None
            self.server.report_problem("source check", exc)
            evidence = SourceEvidence.failed(
                lookup_keys(extraction), "source", f"the case-law source failed ({exc})"
            )
        cpu, report = await loop.run_in_executor(executor, _timed, judge, extraction, evidence, settings)
        if state is not None:
            state.charge(cpu)
        return report, evidence

    @staticmethod
    def _report_findings(state: DocState) -> tuple[Finding, ...]:
        if state.report is None or state.report_version != state.version:
            return ()
        return state.report.findings

    # -- delivery --
    def _local(self, state: DocState) -> tuple[Finding, ...]:
        """Stage 1's local findings as the user sees them (filtered once per stage-1 run)."""
        if state.local_visible is None:
            state.local_visible = tuple(visible(_raw(state), self.server.settings))
        return state.local_visible

    def current_findings(self, state: DocState) -> list[Shown]:
        """What to show for ``state.version``, filtered by settings and ignore list (the hold is applied
        when the JSON is written)."""
        settings = self.server.settings
        if state.too_large:
            f = too_large_finding(state.text, settings.max_document_chars)
            return [Shown(f, key_for(f, None, state.text))]
        if state.extraction is None:  # not checked (language) or extraction failed (reported)
            return []
        # what the client shows, by identity (a finding taken over unchanged) and by kind, place and key
        # (a finding moved by the edit: equal in value, another object); hashing whole findings (their
        # evidence and fixes) for every diagnostic of a long brief on every keystroke cost more
        shown_before = state.shown
        by_id = {id(s.finding): s for s in shown_before}
        by_place = {
            (s.finding.kind, s.finding.span.start, s.finding.span.end, s.key): s for s in shown_before
        }

        def previous(f: Finding, key: IgnoreKey, is_local: bool) -> Shown:
            s = by_id.get(id(f))
            if s is None or s.finding is not f or s.key != key:
                s = by_place.get((f.kind, f.span.start, f.span.end, key))
                if s is None or s.finding != f:
                    return Shown(f, key, local=is_local)
            return s if s.local is is_local else replace(s, local=is_local)

        if state.carried_edits:
            # keys travel with the findings: they were made with the report's extraction, whose citation
            # numbers are the findings' own (the current extraction may number them differently)
            state.carried, state.carried_keys = shift_keyed(
                state.carried, state.carried_keys, state.carried_edits
            )
            state.carried_edits = []
        report = self._report_findings(state)
        local = self._local(state)
        findings = (*report, *local) if report else (*local, *state.carried)
        # a report repeats the local findings (kind and span): those are the ones stage 1 replaces later
        local_places = {(f.kind, f.span) for f in local}
        extraction, text = state.extraction, state.text
        cache, fresh = state.key_cache, {}

        carried_keys = state.carried_keys

        def key_of(f: Finding) -> IgnoreKey:
            # the same finding object (a memoised local finding, the current report's) keeps its key:
            # it belongs to the same citation in this extraction
            hit = cache.get(id(f))
            if hit is None or hit[0] is not f:
                hit = carried_keys.get(id(f))
            key = hit[1] if hit is not None and hit[0] is f else key_for(f, extraction, text)
            fresh[id(f)] = (f, key)
            return key

        shown = visible_keyed(findings, settings, self.server.ignores, key_of)
        state.key_cache = fresh
        return [previous(f, key, (f.kind, f.span) in local_places) for f, key in shown]

    def _fresh(
        self, state: DocState, changes: tuple[tuple[int, int, tuple[Finding, ...]], ...]
    ) -> list[Shown]:
        """The local findings of the regions stage 1 re-checked, filtered and keyed like ``current_findings``."""
        settings = self.server.settings
        regions = state.stale or []
        if (
            state.stale_runs > 1
        ):  # regions of runs that were not published: their findings are in ``local_raw``
            if isinstance(state.local_raw, ParagraphFindings):
                found = state.local_raw.within(regions)
            else:
                found = [f for f in state.local_raw if any(a <= f.span.start <= b for a, b in regions)]
        else:
            found = [f for _a, _b, mine in changes for f in mine]
        extraction, text, ignores = state.extraction, state.text, self.server.ignores
        return [
            Shown(f, key, local=True)
            for f, key in visible_keyed(found, settings, ignores, lambda f: key_for(f, extraction, text))
        ]

    def _publish(
        self,
        state: DocState,
        changes: tuple[tuple[int, int, tuple[Finding, ...]], ...] | None = None,
        *,
        confirm: bool = True,
    ) -> bool:
        """What to show for ``state.version``, sent unless the client has it already (see ``_send``)."""
        if self.server.docs.get(state.uri) is not state:
            return False
        state.held = (
            tuple(held_back(state.extraction, state.hold))
            if state.extraction_version == state.version
            else state.held
        )
        if state.extraction_version != state.version and not state.too_large:
            # stage 1 has not reached this version: the findings on screen (already moved with
            # the edits) are the only ones with spans in this text; just re-filter them
            ignores = self.server.ignores
            state.display = Display.of(tuple(s for s in state.shown if not ignores.ignores(s.key)))
            return self._send(state, confirm=confirm)
        if (
            changes is not None
            and state.stale is not None
            and state.shown_version == state.version
            and not self._report_findings(state)
            and not state.too_large
        ):
            regions = _merged(state.stale)
            state.stale = regions
            state.display = state.display.spliced(regions, self._fresh(state, changes), order)
        else:
            state.display = Display.of(self.current_findings(state))
        state.stale, state.stale_runs = [], 0
        return self._send(state, confirm=confirm)

    def _line_index(self, state: DocState) -> LineIndex:
        doc = self.server.open_document(state.uri)
        if doc is not None and doc.version == state.version and doc.source is state.text:
            return doc.line_index()  # built once per version, shared with pygls' conversions
        return LineIndex(state.text)

    def _send(
        self, state: DocState, *, refresh: bool = True, immediate: bool = False, confirm: bool = True
    ) -> bool:
        """Render what ``state.display`` shows for ``state.version`` and deliver it; whether anything was sent.

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
        index = self._line_index(state)
        encoding = str(self.server.workspace.position_encoding or "utf-16")
        mode = self.renderer.cannot_verify = self.server.settings.cannot_verify_diagnostics
        uri, version, renderer = state.uri, state.version, self.renderer

        def render(items: Iterable[Shown]) -> tuple[Shown, ...]:
            return renderer.render(items, uri=uri, index=index, encoding=encoding, version=version)

        state.display = state.display.rendered(render, mode)
        state.line_count = index.line_count
        state.shown_version = state.version
        state.published.set()
        parts = state.display.json_parts(mode, state.held)
        same = parts == state.sent  # element by element: identity first (an unchanged chunk's cached bytes)
        if self.server.caps.pull:
            if same:
                return False
            state.sent = parts
            state.result_id = f"{state.version}:{uuid.uuid4().hex[:8]}"
            structure = self.renderer.converter.structure
            state.diagnostics = [
                s.diagnostic if s.diagnostic is not None else structure(json.loads(s.json), types.Diagnostic)
                for s in state.display.shown(mode, state.held)
            ]
            if self.server.caps.refresh and refresh:  # a pull client re-pulls after its own edits anyway
                with contextlib.suppress(Exception):
                    self.server.workspace_diagnostic_refresh(None)
            return True
        if immediate and self.server.caps.moves_diagnostics:
            # the client moved what it shows through the edit itself: it shows these now, unless the
            # edit touched one of them (it stretched or shrank it) or a citation being typed hides some
            state.sent = None if state.display.touched or state.held else parts
            return False
        if same and (immediate or not confirm or state.sent_version == state.version):
            return False
        state.sent, state.sent_version = parts, state.version
        head = f'{{"uri":{json.dumps(state.uri)},"version":{state.version},"diagnostics":['.encode()
        self.server.send_notification_json(
            types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS, [head, b",".join(parts), b"]}"]
        )
        return True

    # -- tracing ($/logTrace: only versions, URIs and counts, never the brief's text) --
    def _tracing(self) -> bool:
        return self.server.protocol.trace not in (None, types.TraceValue.Off)

    def _trace(self, message: str, verbose: str | None = None) -> None:
        with contextlib.suppress(Exception):
            detail = verbose if self.server.protocol.trace == types.TraceValue.Verbose else None
            self.server.log_trace(types.LogTraceParams(message=message, verbose=detail))

    @staticmethod
    def _sent_size(state: DocState) -> str:
        parts = state.sent or []
        return (
            f"diagnostics array: {sum(map(len, parts)) + max(0, len(parts) - 1)} bytes in {len(parts)} chunks"
        )

    async def pull(self, uri: str, previous_result_id: str | None) -> types.DocumentDiagnosticReport:
        state: DocState | None = self.server.docs.get(uri)
        if state is None:
            return types.RelatedFullDocumentDiagnosticReport(items=[])
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(state.published.wait(), timeout=10)
        if previous_result_id and previous_result_id == state.result_id:
            return types.RelatedUnchangedDocumentDiagnosticReport(result_id=state.result_id)
        return types.RelatedFullDocumentDiagnosticReport(items=state.diagnostics, result_id=state.result_id)

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


def _raw(state: DocState) -> tuple[Finding, ...]:
    """Stage 1's local findings, placed in the current text (once per stage-1 run)."""
    if isinstance(state.local_raw, ParagraphFindings):
        state.local_raw = tuple(state.local_raw.findings())
    return state.local_raw


def _build_all(extraction: Extraction) -> float:
    """Build every citation (in the executor, before the source check needs them); its CPU seconds."""
    t = time.thread_time()
    _ = extraction.citations
    return time.thread_time() - t


def _timed(fn: Any, *args: Any) -> tuple[float, Any]:
    t = time.thread_time()
    out = fn(*args)
    return time.thread_time() - t, out


def _settle_heap() -> None:
    """After a document's first full check: move what is alive (its paragraphs, plans, records,
    report — most of a long brief's objects) out of the cyclic collector's reach, as ``tune_gc`` did
    at start for what was loaded. A full collection walked all of it while the user typed (90 ms each
    at 300k words); refcounting still frees it as edits replace it. Once per opened document."""
    gc.freeze()
