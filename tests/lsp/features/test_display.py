"""The displayed findings in chunks: moved by edits without being opened, re-based when lines come
or go, spliced where stage 1 re-checked, the hold left out when written — and always the same JSON
a fresh render of the moved findings gives."""

from __future__ import annotations

import json
import random
from dataclasses import replace

import pytest
from pygls.protocol import default_converter

from citecheck.extract.incremental.thresholds import DEFAULT, using
from citecheck.findings import Fix, Kind, TextEdit, make_finding
from citecheck.ignores import IgnoreKey
from citecheck.lsp import convert
from citecheck.lsp.convert import Shown
from citecheck.lsp.features.display import Display, rebase_json
from citecheck.lsp.features.shifting import line_end_after, shift_findings
from citecheck.lsp.positions import LineIndex
from citecheck.lsp.text import AppliedEdit
from citecheck.spans import Span
from citecheck.visible import order

KEY = IgnoreKey(kind="cannot-verify", citation="33 umbrella 42")


def _renderer() -> convert.Renderer:
    return convert.Renderer(default_converter(), convert.ClientFeatures())


def _render(display: Display, text: str, version: int) -> Display:
    r, index = _renderer(), LineIndex(text)
    return display.rendered(
        lambda items: r.render(items, uri="file:///x", index=index, encoding="utf-16", version=version),
        "hint",
    )


def _fresh_json(findings, text: str) -> list[dict]:
    d = _render(Display.of([Shown(f, KEY) for f in sorted(findings, key=order)]), text, 1)
    return json.loads("[" + d.json("hint") + "]")


def _text(lines: int = 12) -> str:
    return "\n".join(f"See {n} Umbrella {n * 7} here and there." for n in range(1, lines + 1))


def _findings(text: str):
    out = []
    for n, line in enumerate(text.split("\n")):
        base = sum(len(x) + 1 for x in text.split("\n")[:n])
        s = base + line.index(str(n + 1))
        span = Span(s, s + len(f"{n + 1} Umbrella {(n + 1) * 7}"))
        fix = Fix(title="f", edits=(TextEdit(span=Span(span.end - 1, span.end), new_text="9"),))
        out.append(make_finding(Kind.CANNOT_VERIFY, span, f"f{n}", fixes=(fix,) if n % 2 else ()))
    return out


@pytest.fixture
def small_chunks():
    with using(replace(DEFAULT, chunk=2, block=10**9)):  # no blocks: these tests look at single chunks
        yield


@pytest.fixture(params=[10**9, 2, 3])
def small_blocks(request):
    """Chunks of two, gathered in blocks of two or three (or not at all)."""
    with using(replace(DEFAULT, chunk=2, block=request.param)):
        yield request.param


def test_a_chunk_after_the_edited_line_is_not_opened(small_chunks, monkeypatch) -> None:
    text = _text()
    shown = _render(Display.of([Shown(f, KEY) for f in _findings(text)]), text, 1)
    edit = AppliedEdit(start=1, end=1, new_text="z")  # on the first line, before its finding
    new = text[:1] + "z" + text[1:]
    moved = shown.moved([edit], line_end_after(new, [edit]), 0)
    assert moved.chunks[1].items is shown.chunks[1].items and moved.chunks[1].clean  # not opened
    assert not moved.chunks[0].clean  # the first line's finding moved a column: rendered again
    again = _render(moved, new, 2)
    assert again.chunks[1] is moved.chunks[1]
    assert json.loads("[" + again.json("hint") + "]") == _fresh_json(
        shift_findings(_findings(text), [edit]), new
    )


def test_a_line_break_rebases_later_chunks_without_rendering(small_chunks, monkeypatch) -> None:
    text = _text()
    shown = _render(Display.of([Shown(f, KEY) for f in _findings(text)]), text, 1)
    first_eol = text.index("\n")
    edit = AppliedEdit(start=first_eol, end=first_eol, new_text="\n\n")  # two blank lines after line 1
    new = text[:first_eol] + "\n\n" + text[first_eol:]
    moved = shown.moved([edit], line_end_after(new, [edit]), 2)
    calls = []
    real = convert.to_diagnostic
    monkeypatch.setattr(convert, "to_diagnostic", lambda *a, **k: calls.append(1) or real(*a, **k))
    again = _render(moved, new, 2)
    assert len(calls) == 1  # only the second line's finding, in the chunk the edit opened
    got = json.loads("[" + again.json("hint") + "]")
    assert got == _fresh_json(shift_findings(_findings(text), [edit]), new)
    assert got[1]["range"]["start"]["line"] == 3


def test_rebase_json_moves_only_line_members() -> None:
    body = '{"range":{"start":{"line":3,"character":1},"end":{"line":3,"character":4}},"message":"line 3"}'
    assert json.loads(rebase_json(body, -2))["range"]["end"]["line"] == 1
    assert json.loads(rebase_json(body, -2))["message"] == "line 3"


def test_splice_replaces_local_items_of_the_regions_only(small_chunks) -> None:
    text = _text()
    found = _findings(text)
    shown = _render(Display.of([Shown(f, KEY, local=True) for f in found]), text, 1)
    line3 = text.split("\n")[2]
    a = text.index(line3)
    replacement = make_finding(Kind.MALFORMED_PINCITE, Span(a + 4, a + 6), "new")
    carried = make_finding(Kind.CANNOT_VERIFY, Span(a + 4, a + 6), "repeated by the fresh local one")
    with_carried = Display.of([*shown.items()[:2], Shown(carried, KEY), *shown.items()[2:]])
    with_carried = _render(with_carried, text, 1)
    out = with_carried.spliced([(a, a + len(line3))], [Shown(replacement, KEY, local=True)], order)
    msgs = [s.finding.message for s in out.items()]
    assert "f2" not in msgs and "new" in msgs  # the region's old local finding gave way
    assert "repeated by the fresh local one" in msgs  # another kind at the same span stays
    assert [m for m in msgs if m.startswith("f")] == [f"f{n}" for n in range(12) if n != 2]
    far = [c for c in out.chunks if any(s.finding.message == "f10" for s in c.items)]
    assert far and far[0] in with_carried.chunks  # a chunk no region meets is kept as it was


def test_hold_is_left_out_when_written(small_chunks) -> None:
    text = _text()
    found = _findings(text)
    shown = _render(Display.of([Shown(f, KEY) for f in found]), text, 1)
    held = [found[4].span]
    got = json.loads("[" + shown.json("hint", held) + "]")
    assert [d["message"] for d in got] == [f"f{n}" for n in range(12) if n != 4]
    assert len(json.loads("[" + shown.json("hint") + "]")) == 12


@pytest.mark.parametrize("seed", range(6))
def test_any_run_of_edits_writes_what_a_fresh_render_writes(small_blocks, seed: int) -> None:
    """Random keystrokes (insertions, deletions, line breaks, several edits at once), splices of
    re-checked lines and holds: the display moved, spliced and rendered after each writes exactly the
    JSON of the findings moved one by one, rendered afresh (in blocks or not)."""
    rng = random.Random(seed)
    text = _text(40)
    findings = _findings(text)
    shown = _render(Display.of([Shown(f, KEY, local=True) for f in sorted(findings, key=order)]), text, 1)
    lines = LineIndex(text).line_count
    for version in range(2, 40):
        edits = []
        for _ in range(rng.choice([1, 1, 1, 2])):
            cur = text
            for e in edits:
                cur = cur[: e.start] + e.new_text + cur[e.end :]
            start = rng.randrange(len(cur))
            end = min(len(cur), start + rng.choice([0, 0, 1, 3]))
            edits.append(
                AppliedEdit(start=start, end=end, new_text=rng.choice(["a", "", "\n", "xy\nz", "é😀"]))
            )
        for e in edits:
            text = text[: e.start] + e.new_text + text[e.end :]
        new_lines = LineIndex(text).line_count
        shown = _render(shown.moved(edits, line_end_after(text, edits), new_lines - lines), text, version)
        lines = new_lines
        findings = list(shift_findings(findings, edits))
        assert json.loads("[" + shown.json("hint") + "]") == _fresh_json(findings, text), version
        assert [s.finding for s in shown.items()] == sorted(findings, key=order)
        if rng.random() < 0.4:  # stage 1 re-checked a line: its findings come back, one of them changed
            index = LineIndex(text)
            line = rng.randrange(index.line_count)
            a, b = index.line_bounds(line)
            inside = [f for f in findings if a <= f.span.start <= b]
            again = [
                make_finding(f.kind, f.span, f.message + "!", fixes=f.fixes) if i == 0 else f
                for i, f in enumerate(inside)
            ]
            findings = sorted([f for f in findings if not a <= f.span.start <= b] + again, key=order)
            shown = _render(
                shown.spliced([(a, b)], [Shown(f, KEY, local=True) for f in again], order), text, version
            )
            assert json.loads("[" + shown.json("hint") + "]") == _fresh_json(findings, text), (
                version,
                "splice",
            )
        if findings and rng.random() < 0.3:  # the citation being typed is left out
            held = [rng.choice(findings).span]
            want = [
                d
                for d, f in zip(_fresh_json(findings, text), sorted(findings, key=order), strict=True)
                if not (f.span.start < held[0].end and held[0].start < f.span.end)
            ]
            assert json.loads("[" + shown.json("hint", held) + "]") == want, (version, "held")


def test_renumbered_findings_keep_their_chunk_and_json(small_chunks, monkeypatch) -> None:
    """A citation added before a paragraph renumbers its findings: what they show is the same, so the
    splice swaps the findings in without rendering anything again."""
    from citecheck.findings import moved_finding

    text = _text()
    found = [moved_finding(f, f.span, f.fixes, n) for n, f in enumerate(_findings(text))]
    shown = _render(Display.of([Shown(f, KEY, local=True) for f in found]), text, 1)
    line3 = text.split("\n")[2]
    a = text.index(line3)
    renumbered = [Shown(moved_finding(found[2], found[2].span, found[2].fixes, 99), KEY, local=True)]

    def no_render(*_a, **_k):
        raise AssertionError("rendered again")

    monkeypatch.setattr(convert, "to_diagnostic", no_render)
    out = _render(shown.spliced([(a, a + len(line3))], renumbered, order), text, 2)
    assert out.json("hint") == shown.json("hint")
    assert [s.finding.citation_index for s in out.items()] == [0, 1, 99, *range(3, 12)]


def test_json_parts_keep_the_cached_bytes_of_chunks_an_edit_did_not_change(small_chunks) -> None:
    """What the server compares with the array last sent (issue 11): an edit after the last finding
    on its line leaves the array the same — the bytes of every chunk it does not fall inside the same
    objects; one before a finding on its line changes that chunk's; the parts join to ``json_bytes``."""
    text = _text()
    shown = _render(Display.of([Shown(f, KEY) for f in _findings(text)]), text, 1)
    before = shown.json_parts("hint")
    assert b",".join(before) == shown.json_bytes("hint") and len(before) == len(shown.chunks)
    end = text.index("\n")  # the end of line 1, after its finding
    edit = AppliedEdit(start=end, end=end, new_text="z")
    new = text[:end] + "z" + text[end:]
    after = _render(shown.moved([edit], line_end_after(new, [edit]), 0), new, 2).json_parts("hint")
    assert after == before  # the chunk the edit falls inside is rendered again: equal, another object
    assert all(a is b for a, b in zip(after[1:], before[1:], strict=True))
    edit = AppliedEdit(start=1, end=1, new_text="z")  # line 1, before its finding: it moved a column
    new = text[:1] + "z" + text[1:]
    moved = _render(shown.moved([edit], line_end_after(new, [edit]), 0), new, 2).json_parts("hint")
    assert moved[0] != before[0] and all(a is b for a, b in zip(moved[1:], before[1:], strict=True))
