"""What the language server keeps per open document, in three parts with one owner each.

- ``Schedule`` — the scheduler's: the edits stage 1 has not applied yet, the tasks of each stage, and
  what the last source check cost (``features/diagnostics.py``).
- ``StageFindings`` — the per-stage findings store: stage 1's extraction ``Document``, its memo and
  local findings, stage 2's report and the source findings carried through later edits.
- ``Screen`` — the display cache: what the client shows (``Display``), the citation being typed, and
  what was last sent (``features/publishing.py``).

All of it is mutated on the event loop's thread only, except ``StageFindings.document`` and
``local_memo``, which only stage 1's worker touches, in the executor.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Any

from lsprotocol import types

from citecheck.extract import Document
from citecheck.extract.incremental.identity import IdentityMap
from citecheck.extract.incremental.memo import LocalMemo, ParagraphFindings
from citecheck.extract.models import Extraction
from citecheck.findings import Finding
from citecheck.ignores import IgnoreKey
from citecheck.lsp.convert import Shown
from citecheck.lsp.features.display import Display
from citecheck.lsp.text import AppliedEdit
from citecheck.results import Report
from citecheck.spans import Span

#: each finding's ignore key, by the finding object's id (the entry keeps the finding, so the id is its own)
Keyed = IdentityMap[Finding, IgnoreKey]


@dataclass(eq=False)
class Schedule:
    """When each stage runs: the scheduler's state for one document."""

    pending: list[AppliedEdit] = field(default_factory=list)  # edits stage 1 has not applied yet
    reset: bool = True  # rebuild the extraction Document from the text
    last_change: float = 0.0  # monotonic time of the latest didChange
    worker: asyncio.Task[Any] | None = None  # stage 1
    later: asyncio.Task[Any] | None = None  # stage 2 (waiting for the pause, or running)
    judging: asyncio.Task[Any] | None = None  # stage 3: the holding judge for the report's version
    published: asyncio.Event = field(default_factory=asyncio.Event)  # a version was rendered (pull waits)
    pulls_waiting: int = 0  # pulls waiting for ``published``: the publish that sets it answers them
    #: CPU seconds the last source check spent in the executor (a cancelled one: so far): the pause it waits for
    stage2_cpu: float = 0.0
    stage2_acc: float = 0.0  # …the running one's, so far
    settled: bool = False  # its first full check's objects moved out of the collector's reach

    def charge(self, cpu: float) -> None:
        self.stage2_acc += cpu
        self.stage2_cpu = max(self.stage2_cpu, self.stage2_acc)


@dataclass(eq=False)
class StageFindings:
    """What each stage found, for which version."""

    document: Document | None = None  # stage 1's incremental extraction (executor only)
    local_memo: LocalMemo = field(default_factory=LocalMemo)  # (executor only)
    extraction: Extraction | None = None
    extraction_version: int | None = None
    local_raw: (
        ParagraphFindings | tuple[Finding, ...]
    ) = ()  # stage 1's local findings (placed when first needed)
    local_visible: tuple[Finding, ...] | None = None  # …filtered for the user
    #: paragraphs stage 1 re-checked since the last publish (current text), or None: publish everything afresh
    stale: list[tuple[int, int]] | None = None
    stale_runs: int = 0  # stage-1 runs those regions come from
    report: Report | None = None  # stage 2's (or 3's)
    report_version: int | None = None
    carried: tuple[Finding, ...] = ()  # stage-2 findings of an earlier version…
    carried_keys: Keyed = field(default_factory=IdentityMap)  # …their ignore keys…
    carried_edits: list[AppliedEdit] = field(default_factory=list)  # …and the edits since
    key_cache: Keyed = field(default_factory=IdentityMap)  # the keys the findings on screen were shown with


@dataclass(eq=False)
class Screen:
    """What the client shows and was sent: the display cache."""

    display: Display = field(default_factory=Display)  # rendered for ``shown_version``
    hold: Span | None = None  # the last edit of the latest didChange: the citation being typed
    held: tuple[Span, ...] = ()  # full spans of the citations being typed: left out when the JSON is written
    shown_version: int | None = None
    line_count: int | None = None  # lines of the text last rendered
    diagnostics: list[types.Diagnostic] = field(default_factory=list)  # a pull client's
    result_id: str = ""
    #: the diagnostics array the client has (its chunks' JSON, ``Display.json_parts``): a publish that
    #: would send the same bytes again is skipped (push), or keeps ``result_id`` (pull)
    sent: list[bytes] | None = None
    sent_version: int | None = None  # the version of the last push publish sent


@dataclass(eq=False)
class DocState:
    """One open document: its text and version, and the three parts above."""

    uri: str
    language_id: str
    version: int
    text: str
    too_large: bool = False
    schedule: Schedule = field(default_factory=Schedule)
    found: StageFindings = field(default_factory=StageFindings)
    screen: Screen = field(default_factory=Screen)

    # what the other features read (hover, code actions, the citations view, commands)
    @property
    def extraction(self) -> Extraction | None:
        return self.found.extraction

    @extraction.setter
    def extraction(self, value: Extraction | None) -> None:
        self.found.extraction = value

    @property
    def extraction_version(self) -> int | None:
        return self.found.extraction_version

    @extraction_version.setter
    def extraction_version(self, value: int | None) -> None:
        self.found.extraction_version = value

    @property
    def report(self) -> Report | None:
        return self.found.report

    @report.setter
    def report(self, value: Report | None) -> None:
        self.found.report = value

    @property
    def report_version(self) -> int | None:
        return self.found.report_version

    @report_version.setter
    def report_version(self, value: int | None) -> None:
        self.found.report_version = value

    @property
    def shown_version(self) -> int | None:
        return self.screen.shown_version

    @property
    def shown(self) -> tuple[Shown, ...]:
        """Every displayed finding, moved to the current text (hover, code actions, the citations view)."""
        return self.screen.display.items()

    @shown.setter
    def shown(self, items: tuple[Shown, ...]) -> None:
        self.screen.display = Display.of(items)
