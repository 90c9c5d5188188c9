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
import logging
import time
from bisect import bisect_right
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from lsprotocol import types

from citecheck.config import Settings
from citecheck.extract import Document, Edit
from citecheck.extract.incremental.identity import IdentityMap
from citecheck.extract.incremental.memo import LocalMemo, ParagraphFindings, paragraph_findings
from citecheck.extract.models import Extraction
from citecheck.findings import Finding, Kind
from citecheck.gather import gather
from citecheck.judge import SourceEvidence, check_locally, judge, lookup_keys
from citecheck.lsp.capabilities import ClientCaps
from citecheck.lsp.features.docstate import DocState
from citecheck.lsp.features.progress import Progress
from citecheck.lsp.features.publishing import Publisher
from citecheck.lsp.features.shifting import edit_hold, line_end_after, stretch
from citecheck.lsp.features.stage_findings import keys_of, local_shown, report_findings
from citecheck.lsp.text import AppliedEdit
from citecheck.results import Report, Status
from citecheck.spans import Span

if TYPE_CHECKING:
    from citecheck.lsp.server import CiteServer

log = logging.getLogger(__name__)

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


# ---- pure helpers ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Stage1:
    """What stage 1 leaves: the extraction, every local finding (unfiltered), and — when only some
    paragraphs were re-checked — those paragraphs' spans and their findings (``changes``)."""

    document: Document
    extraction: Extraction
    local: ParagraphFindings | tuple[Finding, ...]
    changes: tuple[tuple[int, int, tuple[Finding, ...]], ...] | None


#: A document opened with more characters than this is shown in two steps (issue 40): first the local
#: findings of its opening ``_PREVIEW_CHARS`` (what the editor shows when it opens a document), then all
#: of them. The whole document's first extraction takes seconds from a few hundred thousand characters.
_PREVIEW_FROM = 200_000
_PREVIEW_CHARS = 30_000
#: a local check reads up to 200 characters after its citation's paragraph: findings this near the end
#: of the preview's text wait for the whole document
_PREVIEW_MARGIN = 400


def _preview(text: str) -> tuple[Extraction, tuple[Finding, ...]] | None:
    """Runs in the executor: the opening paragraphs of ``text`` extracted and checked locally, and the
    findings whose spans and surroundings lie inside them (offsets are the whole text's: it is a prefix)."""
    cut = text.find("\n\n", _PREVIEW_CHARS)
    if cut < 0 or cut > len(text) // 2:
        return None
    extraction = Document(text[:cut]).extraction
    found = paragraph_findings(extraction, LocalMemo(), check_locally)
    limit = cut - _PREVIEW_MARGIN
    return extraction, tuple(f for f in found.findings() if f.span.end <= limit)


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
    """The scheduler: per document, when each stage runs and which version it may publish (delivery is
    the ``Publisher``'s, what each stage found the ``StageFindings``')."""

    def __init__(self, server: CiteServer) -> None:
        self.server = server
        self.publisher = Publisher(server)
        self.logged_reasons: set[str] = set()
        self._unchecked_languages: set[str] = set()

    def configure_client(self, caps: ClientCaps) -> None:
        self.publisher.configure_client(caps)

    async def pull(self, uri: str, previous_result_id: str | None) -> types.DocumentDiagnosticReport:
        return await self.publisher.pull(uri, previous_result_id)

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
        self._carry_source_findings(state, edits)
        previous = state.version
        state.version, state.text = version, text
        state.schedule.pending.extend(edits)
        state.found.report, state.found.report_version = None, None
        state.screen.hold = edit_hold(edits)
        state.schedule.last_change = time.monotonic()
        self._cancel_later(state)
        if state.too_large or len(text) > self.server.settings.max_document_chars:
            state.schedule.published.clear()
        else:
            self._answer_at_once(state, previous, edits)
        self._kick(state)

    def _carry_source_findings(self, state: DocState, edits: list[AppliedEdit]) -> None:
        """The source check's findings (not stage 1's) carried through the edit until the next source check
        (their ignore keys with them); shifted lazily, once, when stage 1 next needs them."""
        report = report_findings(state)
        local = {(f.kind, f.span) for f in local_shown(state, self.server.settings)} if report else set()
        sourced = tuple(f for f in report if (f.kind, f.span) not in local)
        if sourced:
            state.found.carried, state.found.carried_edits = sourced, list(edits)
            state.found.carried_keys = keys_of(sourced, state)
        else:
            state.found.carried_edits.extend(edits)

    def _answer_at_once(self, state: DocState, previous: int, edits: list[AppliedEdit]) -> None:
        """Every version is answered at once: the findings on screen, moved with the edit (those the edit
        touched are dropped until stage 1 has looked at the new text); not sent when that is byte for byte
        what the client shows (stage 1 then publishes this version if it settles)."""
        text = state.text
        index = self.publisher.line_index(state)
        if state.screen.shown_version == previous and state.screen.line_count is not None:
            state.screen.display = state.screen.display.moved(
                edits, line_end_after(text, edits), index.line_count - state.screen.line_count
            )
        else:
            state.screen.display = state.screen.display.moved(edits, None, 0)
        state.screen.held = tuple(h for h in (stretch(h, edits) for h in state.screen.held) if h is not None)
        if state.found.stale:
            state.found.stale = [
                (x.start, x.end) for x in (stretch(Span(a, b), edits) for a, b in state.found.stale) if x
            ]
        if not self.publisher.send(state, refresh=False, immediate=True) and self.publisher.tracing():
            how = "the client moves its diagnostics; " if self.server.caps.moves_diagnostics else ""
            self.publisher.trace(
                f"didChange: {state.uri} v{state.version} unchanged on screen ({how}not published)"
            )

    def closed(self, uri: str, *, clear: bool = True) -> None:
        state: DocState | None = self.server.docs.pop(uri, None)
        if state is not None:
            self._cancel_later(state)
            if state.schedule.worker is not None:
                state.schedule.worker.cancel()
        if clear and not self.server.caps.pull:
            self.server.text_document_publish_diagnostics(
                types.PublishDiagnosticsParams(uri=uri, diagnostics=[])
            )

    def refresh_all(self) -> None:
        """Settings or the ignore list changed: recompute everything from the current text."""
        for state in list(self.server.docs.values()):
            state.schedule.reset = True
            state.screen.hold = None
            state.found.carried, state.found.report, state.found.report_version = (), None, None
            state.found.carried_edits, state.found.carried_keys = [], IdentityMap()
            self._cancel_later(state)
            self._kick(state)

    def republish_all(self) -> None:
        """Only the filter (ignore list) changed: publish again without recomputing."""
        for state in self.server.docs.values():
            if state.screen.shown_version == state.version:
                self.publisher.publish(state)

    # -- stage 1 --
    def _kick(self, state: DocState) -> None:
        if state.schedule.worker is None or state.schedule.worker.done():
            state.schedule.worker = self.server.spawn(self._work(state), what="local citation check")

    async def _work(self, state: DocState) -> None:
        loop = asyncio.get_running_loop()
        while True:
            # Let a burst of keystrokes settle before extracting: extraction competes with the
            # protocol thread for the GIL, and every keystroke already got its (shifted) publish.
            settle = self.server.settings.debounce_ms / 3000
            while (wait := state.schedule.last_change + settle - time.monotonic()) > 0:
                await asyncio.sleep(wait)
            settings = self.server.settings
            version, text = state.version, state.text
            if (
                state.found.document is None
                and len(text) > _PREVIEW_FROM
                and self._should_check(state, settings)
            ):
                await self._publish_preview(state, version, text)
            edits, state.schedule.pending = state.schedule.pending, []
            reset, state.schedule.reset = state.schedule.reset, False
            changes: tuple[tuple[int, int, tuple[Finding, ...]], ...] | None = None
            if not self._should_check(state, settings):
                state.found.document, state.schedule.reset = None, True
                state.found.extraction, state.found.extraction_version = None, version
                state.found.local_raw, state.found.local_visible = (), ()
            else:
                try:
                    got = await loop.run_in_executor(
                        self.server.executor,
                        _stage1,
                        state.found.document,
                        reset,
                        edits,
                        text,
                        settings,
                        state.found.local_memo,
                    )
                except asyncio.CancelledError:
                    raise
                except Exception as exc:
                    state.found.document, state.schedule.reset = None, True
                    self.server.report_problem("extraction", exc)
                    state.found.extraction, state.found.local_raw, state.found.local_visible = None, (), ()
                else:
                    state.found.document, state.found.extraction, changes = (
                        got.document,
                        got.extraction,
                        got.changes,
                    )
                    state.found.local_raw, state.found.local_visible = got.local, None
                state.found.extraction_version = version
            if changes is None:
                state.found.stale = None
            elif state.found.stale is not None:
                state.found.stale.extend((a, b) for a, b, _ in changes)
                state.found.stale_runs += 1
            if state.version != version or state.schedule.pending:
                # a newer version arrived meanwhile: never publish this one (its regions wait)
                if self.publisher.tracing():
                    self.publisher.trace(
                        f"stage 1: {state.uri} v{version} checked, overtaken by v{state.version} "
                        "(not published)"
                    )
                continue
            # an unchanged array waits for the source check after the pause to carry this version (a
            # long brief's array is megabytes; typing in prose changes nothing the client shows)
            follows = state.found.extraction is not None and not state.too_large
            sent = self.publisher.publish(state, changes=changes, confirm=not follows)
            if self.publisher.tracing():
                self.publisher.trace(
                    f"stage 1: {state.uri} v{version} checked "
                    f"({'published' if sent else 'unchanged, not republished'})",
                    self.publisher.sent_size(state),
                )
            self._schedule_later(state)
            return

    async def _publish_preview(self, state: DocState, version: int, text: str) -> None:
        """A long document just opened: publish the findings of its opening paragraphs (on screen) before
        the whole document's first extraction, which takes seconds; the full stage 1 follows at once."""
        loop = asyncio.get_running_loop()
        try:
            got = await loop.run_in_executor(self.server.executor, _preview, text)
        except asyncio.CancelledError:
            raise
        except Exception:  # the full stage 1 reports what is wrong
            log.debug("preview of %s failed", state.uri, exc_info=True)
            return
        if (
            got is None
            or state.version != version
            or state.schedule.pending
            or state.found.document is not None
        ):
            return
        state.found.extraction, state.found.extraction_version = got[0], version
        state.found.local_raw, state.found.local_visible = got[1], None
        sent = self.publisher.publish(state, confirm=False)
        if self.publisher.tracing():
            self.publisher.trace(
                f"stage 1: {state.uri} v{version} preview of its first {len(got[0].text):,} characters "
                f"({'published' if sent else 'unchanged, not republished'})"
            )

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
        if state.found.extraction is None:
            return
        state.schedule.later = self.server.spawn(self._later(state, state.version), what="source check")

    @staticmethod
    def _cancel_later(state: DocState) -> None:
        """Cancel stage 2 and stage 3 (an edit makes their answers stale; finished judgments stay cached)."""
        if state.schedule.later is not None and not state.schedule.later.done():
            state.schedule.later.cancel()
        state.schedule.later = None
        if state.schedule.judging is not None and not state.schedule.judging.done():
            state.schedule.judging.cancel()
        state.schedule.judging = None

    async def _later(self, state: DocState, version: int) -> None:
        # The source check of a long brief costs CPU in proportion to it (every citation built and
        # judged); started on every short pause it would take the CPU from the keystrokes that follow.
        # It waits for a pause at least as long as its last run took (at most _MAX_WAIT_S).
        wait = max(
            max(0, self.server.settings.debounce_ms) / 1000, min(state.schedule.stage2_cpu, _MAX_WAIT_S)
        )
        await asyncio.sleep(wait)
        if state.version != version:
            return
        if state.screen.hold is not None:
            state.screen.hold = None
            if state.screen.held:  # the user paused: show what the caret was typing in
                state.screen.held = ()
                self.publisher.send(state)
        await self.run_stage2(state, version)

    async def check_now(self, state: DocState) -> Any:
        """The "check document now" command: stage 1 to the current version, then stage 2."""
        self._cancel_later(state)
        while state.schedule.worker is not None and not state.schedule.worker.done():
            await asyncio.wait({state.schedule.worker})
        if state.found.extraction_version != state.version:
            return None
        state.screen.hold = None
        return await self.run_stage2(state, state.version)

    async def run_stage2(self, state: DocState, version: int) -> Report | None:
        """Source-backed check of ``version``; publishes and returns the report (None if stale).

        Two waves over one open source: ``judge`` over what this machine's corpus and cache know,
        published at once, then ``judge`` over everything the network answered too (it replaces
        the first).
        """
        extraction = state.found.extraction
        if extraction is None or state.found.extraction_version != version:
            return None
        settings = self.server.settings
        state.schedule.stage2_acc = 0.0
        loop = asyncio.get_running_loop()
        # every citation built before the check needs them, a part at a time: a key typed meanwhile waits
        # at most one part for its stage 1 (the executor is one thread), and stops the build
        for part in _build_parts(extraction):
            state.schedule.charge(await loop.run_in_executor(self.server.executor, _build, extraction, part))
            if state.version != version:
                return None
        if settings.network_allowed() and not await self._local_wave(state, version, extraction, settings):
            return None
        checked = await self._full_wave(state, extraction, settings)
        if checked is None or state.version != version or self.server.docs.get(state.uri) is not state:
            return None
        report, evidence = checked
        state.schedule.stage2_cpu = (
            state.schedule.stage2_acc
        )  # a whole run: its own cost, not an earlier one's
        state.found.report, state.found.report_version = report, version
        state.found.carried, state.found.carried_edits, state.found.carried_keys = (), [], IdentityMap()
        state.screen.hold = None
        sent = self.publisher.publish(state)
        if self.publisher.tracing():
            self.publisher.trace(
                f"source check: {state.uri} v{version} checked "
                f"({'published' if sent else 'unchanged, not republished'})",
                self.publisher.sent_size(state),
            )
        self.publisher.notify_citations(state)
        self._log_unverified(report)
        self._recheck_waiting(state, version, report)
        if not state.schedule.settled:
            state.schedule.settled = True
            _settle_heap()
        state.schedule.judging = self.server.spawn(
            self.run_stage3(state, version, evidence), what="holding check"
        )
        return report

    async def _local_wave(
        self, state: DocState, version: int, extraction: Extraction, settings: Settings
    ) -> bool:
        """``judge`` over what this machine's corpus and cache know, published at once while the network is
        asked (its cannot-verify findings left out: the full wave says them); False when ``version`` is no
        longer current."""
        quick = await self._check(extraction, settings, local=True, state=state)
        if state.version != version or self.server.docs.get(state.uri) is not state:
            return False
        if quick is not None:
            found = tuple(f for f in quick.findings if f.kind is not Kind.CANNOT_VERIFY)
            partial = Report(
                text=quick.text, extraction=extraction, findings=found, results=(), complete=False
            )
            state.found.report, state.found.report_version = partial, version
            state.found.carried, state.found.carried_edits, state.found.carried_keys = (), [], IdentityMap()
            state.screen.hold = None
            self.publisher.publish(state)
        return True

    async def _full_wave(
        self, state: DocState, extraction: Extraction, settings: Settings
    ) -> tuple[Report, SourceEvidence] | None:
        """``gather`` and ``judge`` over every source, with ``$/progress`` when it takes a while; cancelled
        (and let unwind) when the caller is."""
        progress = Progress(self.server) if self.server.caps.progress else None
        check = asyncio.ensure_future(self._gather_judge(extraction, settings, state=state))
        try:
            done, _ = await asyncio.wait({check}, timeout=_PROGRESS_AFTER_S)
            if not done and progress is not None:
                await progress.begin(f"Checking {len(extraction.citations)} citations")
            return await check
        finally:
            if not check.done():
                check.cancel()
                # let it unwind before the caller goes on: at shutdown the cache closes next, and a
                # lookup still running would hit a closed database
                await asyncio.wait({check}, timeout=_UNWIND_S)
            if progress is not None:
                progress.end()

    # -- stage 3 --
    async def run_stage3(self, state: DocState, version: int, evidence: SourceEvidence) -> Report | None:
        """The holding judge on the model endpoint, after stage 2 was published (so it never delays it).

        Its own task (``state.schedule.judging``), cancelled by the next edit; ``$/progress`` counts the claims
        judged. Publishes the report of ``version`` with the holding findings added (None if stale or off).
        """
        extraction = state.found.extraction
        settings = self.server.settings
        if extraction is None or state.found.extraction_version != version:
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
        state.found.report, state.found.report_version = report, version
        self.publisher.publish(state)
        self.publisher.notify_citations(state)
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
        state.schedule.later = self.server.spawn(
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
                reason and r.basis is Status.CANNOT_VERIFY and r.pending_until is None
            ):  # waiting: see $/progress; a finding on it (overruled, …) does not make the failure verified
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
            state.schedule.charge(cpu)
        return report, evidence


#: Citations built per executor job before the source check: about 5 ms each on a quiet machine.
BUILD_PART = 256


def _build_parts(extraction: Extraction) -> list[range | None]:
    """The paragraphs to build, a part at a time (``None``: the whole extraction, which is built already or
    is not an incremental one); the last part also joins every citation into ``extraction.citations``."""
    run = getattr(extraction, "run", None)
    if run is None:
        return [None]
    parts: list[range | None] = []
    start, n = 0, len(run.plans)
    while start < n:
        end = max(
            start + 1, bisect_right(run.citations_before, run.citations_before[start] + BUILD_PART, lo=start)
        )
        parts.append(range(start, end))
        start = end
    return parts or [None]


def _build(extraction: Extraction, part: range | None) -> float:
    """Build the citations of ``part``'s paragraphs (in the executor); the CPU seconds it took. The last
    part (and ``None``) joins them all into ``extraction.citations``."""
    t = time.thread_time()
    run = getattr(extraction, "run", None)
    if part is not None and run is not None:
        for para in part:
            run.paragraph(para)
    if part is None or run is None or part.stop >= len(run.plans):
        _ = extraction.citations
    return time.thread_time() - t


def _timed(fn: Any, *args: Any) -> tuple[float, Any]:
    """``fn(*args)`` and the CPU seconds it took."""
    t = time.thread_time()
    out = fn(*args)
    return time.thread_time() - t, out


def _settle_heap() -> None:
    """After a document's first full check: move what is alive (its paragraphs, plans, records,
    report — most of a long brief's objects) out of the cyclic collector's reach, as ``tune_gc`` did
    at start for what was loaded. A full collection walked all of it while the user typed (90 ms each
    at 300k words); refcounting still frees it as edits replace it. Once per opened document."""
    gc.freeze()
