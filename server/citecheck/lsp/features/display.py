"""What the client shows, kept in chunks that an edit moves without touching the findings in them.

A 300k-word brief shows some 6,000 diagnostics and every keystroke republishes all of them
(``publishDiagnostics`` carries the whole list). Moving each displayed finding through each edit,
re-checking its position and re-joining its JSON made a keystroke cost proportional to the brief.
Here the displayed findings sit in chunks of a few dozen, in document order; a chunk wholly after an
edit is not opened: it records how far its items moved (``d`` code points, ``dl`` lines) and keeps
its joined JSON, re-based only when a line break came or went before it (a regular expression over
its ``"line":N`` members). Only the chunks an edit touched, or whose first item shares the edited
line, are opened: their findings moved one by one (those the edit touched dropped) and rendered
again, re-using each diagnostic's JSON where its position did not change.

Stage 1 changes the local findings of a few paragraphs: ``spliced`` replaces the local items in
those regions and leaves every other chunk as it is. The hold (the citation being typed) is applied
when the JSON is written, so a chunk it does not touch keeps its cached JSON.

Findings, spans and ranges inside a chunk are those of the version the chunk was rendered for;
``items()`` gives them moved to the current text (for hover, code actions, the citations view).
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Callable, Iterable, Sequence
from dataclasses import replace

from lsprotocol import types

from citecheck.extract.incremental.thresholds import active
from citecheck.findings import Finding, TextEdit, moved_finding
from citecheck.lsp.convert import Shown, shows_as_diagnostic
from citecheck.lsp.text import AppliedEdit
from citecheck.spans import Span

__all__ = ["Display", "rebase_json"]

_LINE = re.compile(r'"line":(\d+)')
_LINE_B = re.compile(rb'"line":(\d+)')


def rebase_json(body: str, dl: int) -> str:
    """``body`` (diagnostics JSON) with every LSP line number moved by ``dl``. A JSON string value
    cannot contain ``"line":`` unescaped, so only ``line`` members match.

    >>> rebase_json('{"range":{"start":{"line":3,"character":1}},"message":"\\\\"line\\\\":3"}', 2)
    '{"range":{"start":{"line":5,"character":1}},"message":"\\\\"line\\\\":3"}'
    """
    if not dl:
        return body
    return _LINE.sub(lambda m: f'"line":{int(m.group(1)) + dl}', body)


def _extent(items: Sequence[Shown]) -> tuple[int, int]:
    lo, hi = items[0].finding.span.start, 0
    for s in items:
        f = s.finding
        lo, hi = min(lo, f.span.start), max(hi, f.span.end)
        for fix in f.fixes:
            for e in fix.edits:
                lo, hi = min(lo, e.span.start), max(hi, e.span.end)
    return lo, hi


class _Chunk:
    """Items in the coordinates they were rendered in; ``+ d`` / ``+ dl`` gives the current text's.
    Never changed once made (a plain class: every keystroke makes one per chunk after the edit, and a
    frozen dataclass's constructor costs several times as much)."""

    __slots__ = ("cache", "clean", "d", "dl", "hi", "items", "lo", "mode")

    def __init__(
        self,
        items: tuple[Shown, ...],
        lo: int,  # smallest offset an item (or a fix of it) covers, items' coordinates
        hi: int,  # largest
        d: int = 0,
        dl: int = 0,
        clean: bool = False,  # every item's JSON holds for the current text once its lines move by ``dl``
        mode: str = "",  # the cannot-verify display the items were rendered with
        cache: dict[tuple[str, int], bytes]
        | None = None,  # (mode, dl) -> joined JSON, shared by moved copies
    ) -> None:
        self.items, self.lo, self.hi, self.d, self.dl = items, lo, hi, d, dl
        self.clean, self.mode = clean, mode
        self.cache = {} if cache is None else cache

    def moved(self, d: int, dl: int, clean: bool) -> _Chunk:
        return _Chunk(
            self.items,
            self.lo,
            self.hi,
            self.d + d,
            self.dl + dl,
            self.clean and clean,
            self.mode,
            self.cache,
        )

    def materialised(self) -> tuple[Shown, ...]:
        """The items moved to the current text (rendered JSON re-based, to be checked by ``render``)."""
        if not self.d and not self.dl:
            return self.items
        return tuple(_shown_moved(s, self.d, self.dl) for s in self.items)

    def json(self, mode: str) -> bytes:
        got = self.cache.get((mode, self.dl))
        if got is None:
            base = self.cache.get((mode, 0))
            if base is None:
                base = ",".join(s.json for s in self.items if shows_as_diagnostic(s.finding, mode)).encode()
                self.cache[(mode, 0)] = base
            dl = self.dl
            got = _LINE_B.sub(lambda m: b'"line":%d' % (int(m.group(1)) + dl), base) if dl else base
            if len(self.cache) > 8:  # line shifts pile up while a line break is typed and removed
                self.cache.clear()
                self.cache[(mode, 0)] = base
            self.cache[(mode, dl)] = got
        return got


def _span_moved(s: Span, d: int) -> Span:
    return Span(s.start + d, s.end + d)


def _finding_moved(f: Finding, d: int) -> Finding:
    if not d:
        return f
    fixes = tuple(x.moved(d) for x in f.fixes)
    return moved_finding(f, _span_moved(f.span, d), fixes, f.citation_index)


def _range_moved(r: types.Range | None, dl: int) -> types.Range | None:
    if r is None or not dl:
        return r
    return types.Range(
        start=types.Position(line=r.start.line + dl, character=r.start.character),
        end=types.Position(line=r.end.line + dl, character=r.end.character),
    )


def _shown_moved(s: Shown, d: int, dl: int) -> Shown:
    return Shown(
        _finding_moved(s.finding, d),
        s.key,
        range=_range_moved(s.range, dl),
        fix_ranges=tuple(r for r in (_range_moved(x, dl) for x in s.fix_ranges) if r is not None),
        diagnostic=None if dl else s.diagnostic,
        json=rebase_json(s.json, dl),
        rendered_for=None,
        mode=s.mode,
        local=s.local,
    )


def _chunks(items: Sequence[Shown], clean: bool, mode: str) -> list[_Chunk]:
    out = []
    size = active().chunk
    for i in range(0, len(items), size):
        part = tuple(items[i : i + size])
        lo, hi = _extent(part)
        out.append(_Chunk(part, lo, hi, clean=clean, mode=mode))
    return out


class _Block:
    """Up to ``Thresholds.block`` chunks moved as one (``+ d``, ``+ dl``), so that an edit, a splice, a render or
    a write visits a few dozen blocks and the chunks of the one it touches, not every chunk of a long
    brief. Never changed once made; ``opened()`` gives its chunks in current coordinates."""

    __slots__ = ("cache", "chunks", "clean", "d", "dl", "hi", "kept", "lo", "mode")

    def __init__(
        self,
        chunks: tuple[_Chunk, ...],
        d: int = 0,
        dl: int = 0,
        kept: bool = True,
        cache: dict[tuple[str, int], bytes] | None = None,
    ) -> None:
        self.chunks, self.d, self.dl = chunks, d, dl
        self.kept = kept  # every move of the block as a whole left its chunks' JSON valid
        self.lo = min(c.lo + c.d for c in chunks)
        self.hi = max(c.hi + c.d for c in chunks)
        mode = chunks[0].mode
        self.mode = mode if all(c.mode == mode for c in chunks) else ""
        self.clean = kept and bool(self.mode) and all(c.clean for c in chunks)
        self.cache = {} if cache is None else cache

    def moved(self, d: int, dl: int, clean: bool) -> _Block:
        return _Block(self.chunks, self.d + d, self.dl + dl, self.kept and clean, self.cache)

    def opened(self) -> list[_Chunk]:
        if not self.d and not self.dl and self.kept:
            return list(self.chunks)
        return [c.moved(self.d, self.dl, self.kept) for c in self.chunks]

    def first(self) -> tuple[Finding, int]:
        c = self.chunks[0]
        return c.items[0].finding, c.d + self.d

    def json(self, mode: str) -> bytes:
        got = self.cache.get((mode, self.dl))
        if got is None:
            base = self.cache.get((mode, 0))
            if base is None:
                base = b",".join(p for c in self.chunks if (p := c.json(mode)))
                self.cache[(mode, 0)] = base
            dl = self.dl
            got = _LINE_B.sub(lambda m: b'"line":%d' % (int(m.group(1)) + dl), base) if dl else base
            if len(self.cache) > 8:
                self.cache.clear()
                self.cache[(mode, 0)] = base
            self.cache[(mode, dl)] = got
        return got


_Unit = _Chunk | _Block


def _first(u: _Unit) -> tuple[Finding, int]:
    """A unit's first finding, in its coordinates, and how far those moved."""
    if isinstance(u, _Block):
        return u.first()
    return u.items[0].finding, u.d


def _lo(u: _Unit) -> int:
    return u.lo + u.d


def _hi(u: _Unit) -> int:
    return u.hi + u.d


def _grouped(units: Iterable[_Unit]) -> list[_Unit]:
    """Runs of loose chunks gathered into blocks (blocks are kept as they are)."""
    out: list[_Unit] = []
    loose: list[_Chunk] = []
    size = active().block  # a run of fewer loose chunks stays loose

    def flush() -> None:
        if len(loose) >= size:
            for i in range(0, len(loose), size):
                part = tuple(loose[i : i + size])
                out.append(_Block(part) if len(part) > 1 else part[0])
        else:
            out.extend(loose)
        loose.clear()

    for u in units:
        if isinstance(u, _Block):
            flush()
            out.append(u)
        else:
            loose.append(u)
    flush()
    return out


def _local_first(items: list[Shown], order: Callable[[Finding], tuple[int, int, int, str]]) -> list[Shown]:
    """``items`` sorted by ``order``, less each non-local item a local one repeats (kind and span)."""
    seen = {(s.finding.kind, s.finding.span) for s in items if s.local}
    keep = [s for s in items if s.local or (s.finding.kind, s.finding.span) not in seen]
    keep.sort(key=lambda s: order(s.finding))
    return keep


def _renumbered(c: _Chunk, same: tuple[Shown, ...]) -> _Chunk:
    """A chunk whose findings show what they showed (typically: renumbered after a citation was added or
    removed before them), keeping its rendered JSON where it did not move."""
    return _Chunk(
        same,
        *_extent(same),
        clean=c.clean,
        mode=c.mode,
        cache=c.cache if not c.d and not c.dl else ({(c.mode, 0): c.json(c.mode)} if c.clean else None),
    )


class Display:
    """The displayed findings of one document version, in document order (immutable): chunks, most of
    them gathered in blocks."""

    __slots__ = ("_flat", "touched", "units")

    def __init__(self, units: Sequence[_Unit] = (), touched: bool = False) -> None:
        self.units: tuple[_Unit, ...] = tuple(units)
        self._flat: tuple[Shown, ...] | None = None
        #: made by ``moved`` from a display an edit touched (an item dropped or changed, not only moved)
        self.touched = touched

    @classmethod
    def of(cls, shown: Sequence[Shown]) -> Display:
        """Unrendered: ``rendered`` renders (or re-uses) every item once."""
        return cls(_grouped(_chunks(shown, False, "")))

    @property
    def chunks(self) -> list[_Chunk]:
        """Every chunk, in current coordinates (blocks opened)."""
        out: list[_Chunk] = []
        for u in self.units:
            if isinstance(u, _Block):
                out.extend(u.opened())
            else:
                out.append(u)
        return out

    def items(self) -> tuple[Shown, ...]:
        """Every displayed item, moved to the current text (built on first call)."""
        if self._flat is None:
            out: list[Shown] = []
            for c in self.chunks:
                out.extend(c.materialised())
            self._flat = tuple(out)
        return self._flat

    # -- edits --
    def moved(self, edits: Sequence[AppliedEdit], stable_from: int | None, dl: int) -> Display:
        """This display through ``edits`` (applied in order): items an edit touched are dropped; a chunk
        wholly after the last edit keeps its JSON if it starts after ``stable_from`` (the end, in the new
        text, of the line the edit ended on; None: re-check every chunk after the edit), its lines moved by
        ``dl`` (line breaks added minus removed). A block wholly after the edit moves as a whole unless
        it starts on the edited line."""
        units = list(self.units)
        last = len(edits) - 1
        touched = False
        for k, e in enumerate(edits):
            delta = len(e.new_text) - (e.end - e.start)
            lines = dl if k == last else 0
            stable = stable_from if k == last and len(edits) == 1 else None
            out: list[_Unit] = []
            work = units[::-1]  # a stack: an opened block's chunks are taken next, in order
            while work:
                c = work.pop()
                lo, hi = _lo(c), _hi(c)
                if hi < e.start:  # wholly before the edit
                    out.append(c)
                elif e.end < lo and (isinstance(c, _Chunk) or stable is None or lo + delta > stable):
                    # wholly after: moves as a whole
                    out.append(c.moved(delta, lines, stable is not None and lo + delta > stable))
                elif isinstance(c, _Block):
                    work.extend(c.opened()[::-1])
                else:
                    items = c.materialised()
                    kept = tuple(m for s in items if (m := _through(s, e, delta)) is not None)
                    # dropped, or kept without a fix the edit touched (its JSON is made again)
                    touched = touched or len(kept) < len(items) or any(not m.json for m in kept)
                    if kept:
                        klo, khi = _extent(kept)
                        out.append(_Chunk(kept, klo, khi, mode=c.mode))
            units = _grouped(out)
        return Display(units, touched)

    def spliced(
        self,
        regions: Sequence[tuple[int, int]],
        fresh: Iterable[Shown],
        order: Callable[[Finding], tuple[int, int, int, str]],
    ) -> Display:
        """Stage 1 re-checked the local findings of ``regions`` (sorted, disjoint ``[a, b]`` of the
        current text): their local items are replaced by ``fresh`` (already filtered, sorted by
        ``order``); a non-local item that a fresh one repeats (kind and span) gives way to it. Chunks
        and blocks whose extent meets no region are kept as they are."""
        fresh = list(fresh)
        if not regions and not fresh:
            return self
        out: list[_Unit] = []
        pending: list[Shown] = []  # items of opened chunks and fresh items, not yet chunked
        fi = 0

        starts = [a for a, _b in regions]

        def in_region(x: int) -> bool:
            k = bisect_right(starts, x) - 1
            return k >= 0 and x <= regions[k][1]

        def meets(lo: int, hi: int) -> bool:  # regions are sorted and disjoint
            k = bisect_right(starts, hi) - 1
            return k >= 0 and regions[k][1] >= lo

        def first_order(u: _Unit) -> tuple[int, int, int, str]:
            f, d = _first(u)
            o = order(f)
            return (o[0] + d, o[1] + d, o[2], o[3])

        def fresh_before(bound: tuple[int, int, int, str] | None) -> list[Shown]:
            """The fresh items not yet placed that sort before ``bound`` (None: all of them)."""
            nonlocal fi
            start = fi
            while fi < len(fresh) and (bound is None or order(fresh[fi].finding) < bound):
                fi += 1
            return fresh[start:fi]

        def flush() -> None:
            if pending:
                out.extend(_chunks(_local_first(pending, order), False, ""))
                pending.clear()

        work = list(self.units)[::-1]  # a stack: an opened block's chunks are taken next, in order
        while work:
            c = work.pop()
            lo, hi = _lo(c), _hi(c)
            if meets(lo, hi) and isinstance(c, _Block):
                work.extend(c.opened()[::-1])
                continue
            if meets(lo, hi):
                assert isinstance(c, _Chunk)
                old = c.materialised()
                mine = [s for s in old if not (s.local and in_region(s.finding.span.start))]
                # the fresh items that sort before the next unit are this one's
                mine.extend(fresh_before(first_order(work[-1]) if work else None))
                mine = _local_first(mine, order)
                same = _renewed(old, mine) if not pending else None
                if same is None:
                    pending.extend(mine)
                    continue
                out.append(c if same == old else _renumbered(c, same))
                continue
            # a unit no region meets: every fresh item sorting before it goes first (none sorts inside
            # it — a fresh item lies in a region, and a region inside the unit's extent opens it)
            pending.extend(fresh_before(first_order(c)))
            flush()
            out.append(c)
        pending.extend(fresh[fi:])
        flush()
        return Display(_grouped(out))

    # -- rendering --
    def rendered(self, render: Callable[[Iterable[Shown]], tuple[Shown, ...]], mode: str) -> Display:
        """Every chunk that is not clean for ``mode`` rendered again (its items' JSON re-used where
        their positions did not change); clean chunks and blocks are kept as they are."""
        out: list[_Unit] = []
        changed = False
        work = list(self.units)[::-1]
        while work:
            c = work.pop()
            if c.clean and c.mode == mode:
                out.append(c)
                continue
            changed = True
            if isinstance(c, _Block):
                work.extend(c.opened()[::-1])
                continue
            items = render(c.materialised())
            if items:
                lo, hi = _extent(items)
                out.append(_Chunk(items, lo, hi, clean=True, mode=mode))
        return Display(_grouped(out)) if changed else self

    def json_bytes(self, mode: str, held: Sequence[Span] = ()) -> bytes:
        """The diagnostics array's members, joined and encoded (JSON is ASCII): the chunks' cached
        JSON, except where ``held`` — the citation being typed — hides some."""
        return b",".join(self.json_parts(mode, held))

    def json_parts(self, mode: str, held: Sequence[Span] = ()) -> list[bytes]:
        """``json_bytes`` before the join: each non-empty block's or chunk's JSON, the cached bytes
        object itself where it did not change (so two lists compare mostly by identity)."""
        parts = []
        work = list(self.units)[::-1]
        while work:
            c = work.pop()
            if held and any(_lo(c) <= h.end and h.start <= _hi(c) for h in held):
                if isinstance(c, _Block):
                    work.extend(c.opened()[::-1])
                    continue
                part = ",".join(
                    rebase_json(s.json, c.dl)
                    for s in c.items
                    if shows_as_diagnostic(s.finding, mode) and not _held(s.finding.span, c.d, held)
                ).encode()
            else:
                part = c.json(mode)
            if part:
                parts.append(part)
        return parts

    def json(self, mode: str, held: Sequence[Span] = ()) -> str:
        return self.json_bytes(mode, held).decode()

    def shown(self, mode: str, held: Sequence[Span] = ()) -> list[Shown]:
        """The items on screen (pull clients, tests), moved to the current text."""
        return [
            s
            for s in self.items()
            if shows_as_diagnostic(s.finding, mode) and not (held and _held(s.finding.span, 0, held))
        ]


def _renewed(old: Sequence[Shown], new: list[Shown]) -> tuple[Shown, ...] | None:
    """``old`` with the findings of ``new`` when every pair shows alike (same kind, place, severity,
    message, fixes, evidence and ignore key: the same JSON), else None."""
    if len(old) != len(new):
        return None
    out = []
    for s, t in zip(old, new, strict=True):
        f, g = s.finding, t.finding
        if f is not g and not (
            s.key == t.key
            and s.local == t.local
            and f.kind is g.kind
            and f.span == g.span
            and f.severity is g.severity
            and f.message == g.message
            and f.fixes == g.fixes
            and f.evidence == g.evidence
        ):
            return None
        out.append(
            s
            if f is g
            else Shown(
                g,
                s.key,
                range=s.range,
                fix_ranges=s.fix_ranges,
                diagnostic=s.diagnostic,
                json=s.json,
                rendered_for=s.rendered_for,
                mode=s.mode,
                local=s.local,
            )
        )
    return tuple(out)


def _held(span: Span, d: int, held: Sequence[Span]) -> bool:
    start, end = span.start + d, span.end + d
    return any((start < h.end and h.start < end) or (h.start <= start and end <= h.end) for h in held)


def _through(s: Shown, e: AppliedEdit, delta: int) -> Shown | None:
    """``s`` (current coordinates) moved through one edit; None when the edit touched it or a fix of it."""
    f = s.finding
    if e.start > f.span.end and all(e.start > x.span.end for fix in f.fixes for x in fix.edits):
        return s  # the edit is wholly after it: same offsets; its position is checked when rendered
    if e.end < f.span.start and all(e.end < x.span.start for fix in f.fixes for x in fix.edits):
        return Shown(
            _finding_moved(f, delta),
            s.key,
            range=s.range,
            fix_ranges=s.fix_ranges,
            json=s.json,
            rendered_for=None,
            mode=s.mode,
            local=s.local,
        )
    if e.end < f.span.start or e.start > f.span.end:
        # the finding itself moved or stayed, but the edit touched one of its fixes: keep it without that fix
        span = f.span if e.start > f.span.end else _span_moved(f.span, delta)
        fixes = tuple(
            replace(
                x,
                edits=tuple(
                    TextEdit(
                        span=_span_moved(t.span, delta if e.end < t.span.start else 0), new_text=t.new_text
                    )
                    for t in x.edits
                ),
            )
            for x in f.fixes
            if all(e.start > t.span.end or e.end < t.span.start for t in x.edits)
        )
        return Shown(
            moved_finding(f, span, fixes, f.citation_index),
            s.key,
            json="",
            rendered_for=None,
            mode=s.mode,
            local=s.local,
        )
    return None
